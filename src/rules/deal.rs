//! The flip-chess deal and its commitment (RULES §3.1).

use super::board::{SQUARES, Square, StationKind, non_camp_squares};
use super::game::Game;
use super::options::Options;
use super::piece::{Colour, Piece, Seat};
use rand::seq::SliceRandom;
use rand::{CryptoRng, RngExt};
use sha2::{Digest, Sha256};
use std::fmt;

/// Where each of the 50 pieces lies face down. Camps stay empty.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Deal {
    cells: [Option<(Piece, Colour)>; SQUARES],
}

impl fmt::Debug for Deal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.entries()).finish()
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DealError {
    InCamp(Square),
    Duplicate(Square),
    MissingSquare(Square),
    WrongCount {
        piece: Piece,
        colour: Colour,
        expected: u8,
        found: u8,
    },
}

impl fmt::Display for DealError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DealError::InCamp(s) => write!(
                f,
                "the deal puts a piece in the camp {s}; camps start empty"
            ),
            DealError::Duplicate(s) => write!(f, "the deal lists {s} twice"),
            DealError::MissingSquare(s) => write!(
                f,
                "the deal leaves {s} empty; all 50 non-camp stations hold a piece"
            ),
            DealError::WrongCount {
                piece,
                colour,
                expected,
                found,
            } => write!(
                f,
                "the deal has {found} {colour} {piece}, the set has {expected}"
            ),
        }
    }
}

impl std::error::Error for DealError {}

impl Deal {
    /// A uniformly shuffled deal. Only a cryptographic generator is accepted: the deal
    /// is the secret the whole game rests on.
    pub fn random<R: CryptoRng + ?Sized>(rng: &mut R) -> Deal {
        let mut pieces: Vec<(Piece, Colour)> = Colour::BOTH
            .into_iter()
            .flat_map(|c| Piece::set().map(move |p| (p, c)))
            .collect();
        pieces.shuffle(rng);
        let mut cells = [None; SQUARES];
        for (s, pc) in non_camp_squares().zip(pieces) {
            cells[s.index()] = Some(pc);
        }
        Deal { cells }
    }

    /// Checks that the entries are exactly the two 25-piece sets on the 50 non-camp stations.
    pub fn from_entries(
        entries: impl IntoIterator<Item = (Square, Piece, Colour)>,
    ) -> Result<Deal, DealError> {
        let mut cells = [None; SQUARES];
        for (s, p, c) in entries {
            if s.kind() == StationKind::Camp {
                return Err(DealError::InCamp(s));
            }
            if cells[s.index()].is_some() {
                return Err(DealError::Duplicate(s));
            }
            cells[s.index()] = Some((p, c));
        }
        if let Some(s) = non_camp_squares().find(|s| cells[s.index()].is_none()) {
            return Err(DealError::MissingSquare(s));
        }
        for c in Colour::BOTH {
            for p in Piece::ALL {
                let found = cells.iter().filter(|x| **x == Some((p, c))).count() as u8;
                if found != p.count() {
                    return Err(DealError::WrongCount {
                        piece: p,
                        colour: c,
                        expected: p.count(),
                        found,
                    });
                }
            }
        }
        Ok(Deal { cells })
    }

    pub fn get(&self, s: Square) -> Option<(Piece, Colour)> {
        self.cells[s.index()]
    }

    /// The 50 entries in record order (a1, b1, … e12).
    pub fn entries(&self) -> impl Iterator<Item = (Square, (Piece, Colour))> + '_ {
        Square::all().filter_map(|s| self.cells[s.index()].map(|pc| (s, pc)))
    }

    /// The lowercase hex SHA-256 that the game publishes at its start.
    pub fn commitment(&self, salt: &str) -> String {
        commitment(self.entries().map(|(s, (p, c))| (s, p, c)), salt)
    }
}

/// SHA-256 over `square:piece:colour` entries in square order, joined by `;`, then `|`
/// and the salt. Standard 军棋 commits to its two layouts the same way.
pub fn commitment(entries: impl Iterator<Item = (Square, Piece, Colour)>, salt: &str) -> String {
    // The text is written out by hand and hashed in one piece: every new game makes
    // one, and formatting each entry cost more than the hash.
    let mut text = Vec::with_capacity(1024 + salt.len());
    for (i, (s, p, c)) in entries.enumerate() {
        if i > 0 {
            text.push(b';');
        }
        text.push(b'a' + s.file());
        if s.rank() >= 10 {
            text.push(b'1');
        }
        text.push(b'0' + s.rank() % 10);
        text.push(b':');
        text.extend_from_slice(p.name().as_bytes());
        text.push(b':');
        text.extend_from_slice(c.name().as_bytes());
    }
    seal(text, salt)
}

/// The lowercase hex SHA-256 of `text`, `|` and the salt: every commitment a game
/// publishes at its start (the flip deal, standard layouts, 四国's 乱战 hands) is this
/// over its own entry text, so one check verifies them all.
pub fn seal(mut text: Vec<u8>, salt: &str) -> String {
    text.push(b'|');
    text.extend_from_slice(salt.as_bytes());
    hex::encode(Sha256::digest(&text))
}

/// 32 random bytes as lowercase hex.
pub fn new_salt<R: CryptoRng + ?Sized>(rng: &mut R) -> String {
    let bytes: [u8; 32] = rng.random();
    hex::encode(bytes)
}

/// Everything a new flip game starts from: the deal, who acts first, and the salt and
/// commitment published at the start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlipStart {
    pub deal: Deal,
    pub first: Seat,
    pub salt: String,
    pub commitment: String,
}

impl FlipStart {
    /// Shuffles a deal, picks the first seat at random and commits to the deal.
    pub fn random<R: CryptoRng + ?Sized>(rng: &mut R) -> FlipStart {
        let deal = Deal::random(rng);
        let first = if rng.random::<bool>() {
            Seat::South
        } else {
            Seat::North
        };
        let salt = new_salt(rng);
        let commitment = deal.commitment(&salt);
        FlipStart {
            deal,
            first,
            salt,
            commitment,
        }
    }

    pub fn game(&self, options: Options) -> Game {
        Game::new_flip(options, &self.deal, self.first)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    /// The hand-written text is the one the record format describes.
    #[test]
    fn commitment_hashes_the_formatted_entries() {
        let deal = Deal::random(&mut StdRng::seed_from_u64(7));
        let salt = "00ff";
        let text: Vec<String> = deal
            .entries()
            .map(|(s, (p, c))| format!("{s}:{p}:{c}"))
            .collect();
        let expected = hex::encode(Sha256::digest(format!("{}|{salt}", text.join(";"))));
        assert_eq!(deal.commitment(salt), expected);
    }
}
