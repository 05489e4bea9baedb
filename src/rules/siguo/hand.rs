//! What each 四国 seat deploys (RULES §5.2, §5.8): its *hand*, the 25 piece kinds it
//! places on its area. Normally the standard set; under 乱战 (option `random_pieces`)
//! a share of the seated players' sets shuffled together, committed at the start and
//! revealed at the end as the flip deal is (§3.1).
//!
//! Forms a record can store:
//! - a hand in JSON is `{"marshal": 1, "general": 1, …}`: piece name to count, in
//!   strength order, kinds it lacks left out; read back in any order;
//! - hands in JSON are `{"south": hand, "east": hand, …}` for the seats dealt to;
//! - the committed text is `seat:piece:count` for every seat dealt to (turn order)
//!   and every kind it holds (strength order), joined by `;`, then `|` and the salt,
//!   hashed as `rules::deal::seal` hashes every commitment.

use super::station::Seat4;
use crate::rules::deal::{new_salt, seal};
use crate::rules::piece::Piece;
use rand::CryptoRng;
use rand::seq::SliceRandom;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;
use std::fmt;

/// Pieces every hand holds.
pub const HAND_SIZE: u8 = 25;
/// Flags a hand may hold: more are dealt as generals (「乱战分配棋子时如果一方的军棋多于2个,
/// 系统会自动将其更换为军长」, §5.2).
pub const MAX_FLAGS: u8 = 2;

/// One seat's 25 pieces by kind.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Hand {
    counts: [u8; Piece::ALL.len()],
}

/// Why a list of pieces is not a hand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HandError {
    WrongSize {
        found: u32,
    },
    TooManyFlags {
        found: u8,
    },
    /// More of a kind than four standard sets hold: no deal gives that.
    MoreThanFourSets {
        piece: Piece,
        found: u32,
    },
}

impl fmt::Display for HandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HandError::WrongSize { found } => {
                write!(f, "a hand holds {HAND_SIZE} pieces, not {found}")
            }
            HandError::TooManyFlags { found } => write!(
                f,
                "a hand holds at most {MAX_FLAGS} flags, not {found} (more are dealt as generals)"
            ),
            HandError::MoreThanFourSets { piece, found } => write!(
                f,
                "a hand holds at most {} × {piece} (four sets' worth), not {found}",
                most(*piece)
            ),
        }
    }
}

impl std::error::Error for HandError {}

/// The most of `piece` a hand can be dealt: every seat's, flags turned generals aside.
fn most(piece: Piece) -> u32 {
    match piece {
        Piece::Flag => u32::from(MAX_FLAGS),
        // Four generals of their own and the two flags of a hand dealt four.
        Piece::General => 4 * u32::from(piece.count()) + 2,
        _ => 4 * u32::from(piece.count()),
    }
}

impl Hand {
    /// The standard set of RULES §2.
    pub fn standard() -> Hand {
        Hand {
            counts: Piece::ALL.map(Piece::count),
        }
    }

    /// A hand of these counts: 25 pieces, at most two flags, and no more of a kind
    /// than a deal of four sets can give (so that every hand has a valid arrangement).
    pub fn from_counts(counts: impl IntoIterator<Item = (Piece, u8)>) -> Result<Hand, HandError> {
        let mut sums = [0u32; Piece::ALL.len()];
        for (p, n) in counts {
            sums[p as usize] += u32::from(n);
        }
        let found: u32 = sums.iter().sum();
        if found != u32::from(HAND_SIZE) {
            return Err(HandError::WrongSize { found });
        }
        let flags = sums[Piece::Flag as usize];
        if flags > u32::from(MAX_FLAGS) {
            return Err(HandError::TooManyFlags { found: flags as u8 });
        }
        if let Some(p) = Piece::ALL.into_iter().find(|&p| sums[p as usize] > most(p)) {
            return Err(HandError::MoreThanFourSets {
                piece: p,
                found: sums[p as usize],
            });
        }
        Ok(Hand {
            counts: sums.map(|n| n as u8),
        })
    }

    /// The hand 25 dealt pieces make: flags beyond two become generals.
    pub fn dealt(pieces: &[Piece]) -> Result<Hand, HandError> {
        let mut counts = [0u8; Piece::ALL.len()];
        for &p in pieces {
            counts[p as usize] = counts[p as usize].saturating_add(1);
        }
        let extra = counts[Piece::Flag as usize].saturating_sub(MAX_FLAGS);
        counts[Piece::Flag as usize] -= extra;
        counts[Piece::General as usize] += extra;
        Hand::from_counts(Piece::ALL.into_iter().zip(counts))
    }

    pub fn count(&self, piece: Piece) -> u8 {
        self.counts[piece as usize]
    }

    pub fn is_standard(&self) -> bool {
        *self == Hand::standard()
    }

    /// The 25 pieces, strongest first.
    pub fn pieces(&self) -> impl Iterator<Item = Piece> + '_ {
        Piece::ALL
            .into_iter()
            .flat_map(|p| std::iter::repeat_n(p, self.count(p) as usize))
    }

    /// The kinds held and how many, strongest first.
    pub fn entries(&self) -> impl Iterator<Item = (Piece, u8)> + '_ {
        Piece::ALL
            .into_iter()
            .map(|p| (p, self.count(p)))
            .filter(|&(_, n)| n > 0)
    }
}

impl fmt::Debug for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.entries()).finish()
    }
}

impl Serialize for Hand {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.entries())
    }
}

impl<'de> Deserialize<'de> for Hand {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Hand, D::Error> {
        let map = BTreeMap::<Piece, u8>::deserialize(d)?;
        Hand::from_counts(map).map_err(serde::de::Error::custom)
    }
}

/// The hands of the seats that sat down: every seat's standard set, or a 乱战 deal.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Hands {
    hands: [Option<Hand>; 4],
}

/// Why hands are not a deal of the seated players' standard sets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HandsError {
    NoSeats,
    /// The hands do not add up to one standard set per hand, allowing for flags
    /// dealt as generals: `piece` comes to `found`, the sets hold `expected`.
    NotTheSets {
        piece: Piece,
        expected: u32,
        found: u32,
    },
    /// More flags became generals than the hands holding two flags can account for.
    GeneralsUnaccounted,
}

impl fmt::Display for HandsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HandsError::NoSeats => write!(f, "no seat was dealt a hand"),
            HandsError::NotTheSets {
                piece,
                expected,
                found,
            } => write!(
                f,
                "the hands hold {found} × {piece}, the players' sets {expected}"
            ),
            HandsError::GeneralsUnaccounted => write!(
                f,
                "the hands' extra generals are more than the flags dealt beyond two"
            ),
        }
    }
}

impl std::error::Error for HandsError {}

impl Hands {
    /// The standard set for each of `seated`.
    pub fn standard(seated: &[Seat4]) -> Hands {
        let mut hands = [None; 4];
        for s in seated {
            hands[s.index()] = Some(Hand::standard());
        }
        Hands { hands }
    }

    /// The 乱战 deal (§5.2): the standard sets of the seated players (100 pieces at
    /// four seats, 75 in 三国) shuffled and dealt 25 to each. Only a cryptographic
    /// generator is accepted: the hands are a secret until the end.
    pub fn deal<R: CryptoRng + ?Sized>(seated: &[Seat4], rng: &mut R) -> Hands {
        let mut pieces: Vec<Piece> = seated.iter().flat_map(|_| Piece::set()).collect();
        pieces.shuffle(rng);
        let mut hands = [None; 4];
        for (seat, share) in seated.iter().zip(pieces.chunks(HAND_SIZE as usize)) {
            hands[seat.index()] = Some(Hand::dealt(share).expect("25 dealt pieces"));
        }
        Hands { hands }
    }

    /// Hands read from a record: they must be a deal of one standard set per hand.
    pub fn new(hands: impl IntoIterator<Item = (Seat4, Hand)>) -> Result<Hands, HandsError> {
        let mut h = Hands { hands: [None; 4] };
        for (seat, hand) in hands {
            h.hands[seat.index()] = Some(hand);
        }
        h.check()?;
        Ok(h)
    }

    fn check(&self) -> Result<(), HandsError> {
        let held: Vec<&Hand> = self.hands.iter().flatten().collect();
        let sets = held.len() as u32;
        if sets == 0 {
            return Err(HandsError::NoSeats);
        }
        let total = |p: Piece| held.iter().map(|h| u32::from(h.count(p))).sum::<u32>();
        let expected = |p: Piece| sets * u32::from(p.count());
        for p in Piece::ALL {
            if matches!(p, Piece::Flag | Piece::General) {
                continue;
            }
            if total(p) != expected(p) {
                return Err(HandsError::NotTheSets {
                    piece: p,
                    expected: expected(p),
                    found: total(p),
                });
            }
        }
        // Flags and generals together are the sets' own; the flags missing became
        // generals in hands that kept two flags, at most two each (four dealt).
        let both = total(Piece::Flag) + total(Piece::General);
        if both != expected(Piece::Flag) + expected(Piece::General)
            || total(Piece::Flag) > expected(Piece::Flag)
        {
            return Err(HandsError::NotTheSets {
                piece: Piece::Flag,
                expected: expected(Piece::Flag),
                found: total(Piece::Flag),
            });
        }
        let converted = expected(Piece::Flag) - total(Piece::Flag);
        let room: u32 = held
            .iter()
            .filter(|h| h.count(Piece::Flag) == MAX_FLAGS)
            .map(|h| u32::from(h.count(Piece::General).min(2)))
            .sum();
        if converted > room {
            return Err(HandsError::GeneralsUnaccounted);
        }
        Ok(())
    }

    /// The hand of `seat`, if it was dealt one.
    pub fn get(&self, seat: Seat4) -> Option<&Hand> {
        self.hands[seat.index()].as_ref()
    }

    /// The seats dealt to and their hands, in turn order.
    pub fn iter(&self) -> impl Iterator<Item = (Seat4, &Hand)> + '_ {
        Seat4::ALL
            .into_iter()
            .filter_map(|s| self.get(s).map(|h| (s, h)))
    }

    /// The text the commitment hashes (the module's doc gives its form).
    pub fn committed_text(&self) -> Vec<u8> {
        let mut text = Vec::with_capacity(1024);
        for (seat, hand) in self.iter() {
            for (p, n) in hand.entries() {
                if !text.is_empty() {
                    text.push(b';');
                }
                text.extend_from_slice(format!("{seat}:{p}:{n}").as_bytes());
            }
        }
        text
    }

    /// The lowercase hex SHA-256 published at the start of a 乱战 game.
    pub fn commitment(&self, salt: &str) -> String {
        seal(self.committed_text(), salt)
    }
}

impl fmt::Debug for Hands {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl Serialize for Hands {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.iter())
    }
}

impl<'de> Deserialize<'de> for Hands {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Hands, D::Error> {
        let map = BTreeMap::<Seat4, Hand>::deserialize(d)?;
        Hands::new(map).map_err(serde::de::Error::custom)
    }
}

/// A 乱战 game's hands with the salt and commitment published at its start (§5.2,
/// as §3.1): the hands and salt are revealed at the end, and anyone can check them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandDeal {
    pub hands: Hands,
    pub salt: String,
    pub commitment: String,
}

impl HandDeal {
    /// Deals the hands, draws a salt and commits to them.
    pub fn random<R: CryptoRng + ?Sized>(seated: &[Seat4], rng: &mut R) -> HandDeal {
        let hands = Hands::deal(seated, rng);
        let salt = new_salt(rng);
        let commitment = hands.commitment(&salt);
        HandDeal {
            hands,
            salt,
            commitment,
        }
    }

    /// Whether revealed hands and salt are what `commitment` was made from.
    pub fn verifies(hands: &Hands, salt: &str, commitment: &str) -> bool {
        hands.commitment(salt) == commitment
    }
}
