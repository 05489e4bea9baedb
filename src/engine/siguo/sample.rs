//! Determinizations: whole 四国 games consistent with one seat's information set. Each
//! hidden piece of every other seat gets a kind its token allows, each seat's 25-piece
//! set used exactly once (removed tokens included), and the result is a rules
//! `HiddenGame` the search plays on with the real move generator and checks.

use super::beliefs::{Kinds, kind_bit};
use super::information::SeatInfo;
use crate::rules::hidden_game::HiddenGame;
use crate::rules::siguo::{CAPS, FourPlayer, Seat4};
use crate::rules::view::Face;
use crate::rules::{Piece, Position, Token};
use rand::{Rng, RngExt};

/// The most constrained kinds first, so that a flag or mine never finds every token
/// that could hold it already taken.
const ORDER: [Piece; 12] = [
    Piece::Flag,
    Piece::Mine,
    Piece::Bomb,
    Piece::Marshal,
    Piece::General,
    Piece::Engineer,
    Piece::MajorGeneral,
    Piece::Brigadier,
    Piece::Colonel,
    Piece::Major,
    Piece::Captain,
    Piece::Lieutenant,
];

/// Gives each token one kind from its set so that the standard set is used exactly,
/// or `None` after a few failed tries. Tokens that can be few things are preferred
/// for each kind (weight 1 / the size of their set).
pub fn assign<R: Rng + ?Sized>(sets: &[Kinds], rng: &mut R) -> Option<Vec<Piece>> {
    'attempt: for _ in 0..20 {
        let mut out: Vec<Option<Piece>> = vec![None; sets.len()];
        let mut left: [u8; 12] = Piece::ALL.map(|p| p.count());
        for (i, &k) in sets.iter().enumerate() {
            if k.count_ones() == 1 {
                let p = Piece::ALL[k.trailing_zeros() as usize];
                if left[p as usize] == 0 {
                    continue 'attempt;
                }
                left[p as usize] -= 1;
                out[i] = Some(p);
            }
        }
        for p in ORDER {
            for _ in 0..left[p as usize] {
                let bit = kind_bit(p);
                let mut total = 0.0;
                for (i, &k) in sets.iter().enumerate() {
                    if out[i].is_none() && k & bit != 0 {
                        total += 1.0 / k.count_ones() as f64;
                    }
                }
                if total == 0.0 {
                    continue 'attempt;
                }
                let mut x = rng.random::<f64>() * total;
                let mut pick = None;
                for (i, &k) in sets.iter().enumerate() {
                    if out[i].is_none() && k & bit != 0 {
                        pick = Some(i);
                        let w = 1.0 / k.count_ones() as f64;
                        if x < w {
                            break;
                        }
                        x -= w;
                    }
                }
                out[pick.expect("total > 0 means a candidate")] = Some(p);
            }
        }
        return out.into_iter().collect();
    }
    None
}

/// One game consistent with `info`, to move as the view says; `None` if the beliefs
/// admit none (the caller then searches fewer worlds).
pub fn world<R: Rng + ?Sized>(info: &SeatInfo, rng: &mut R) -> Option<HiddenGame<FourPlayer>> {
    let view = &info.view;
    let mut kinds: [Vec<Piece>; 4] = Default::default();
    for seat in Seat4::ALL {
        let tokens = &info.beliefs.tokens[seat.index()];
        if !tokens.is_empty() {
            let sets: Vec<Kinds> = tokens.iter().map(|t| t.kinds).collect();
            kinds[seat.index()] = assign(&sets, rng)?;
        }
    }
    let mut tokens: Vec<(crate::rules::siguo::Station, Token<Seat4>)> =
        Vec::with_capacity(view.cells.len());
    for (seat, list) in info.beliefs.tokens.iter().enumerate() {
        for (t, &k) in list.iter().zip(&kinds[seat]) {
            if let Some(s) = t.at {
                tokens.push((s, Token::hidden(k, Seat4::ALL[seat])));
            }
        }
    }
    for &(s, cell) in &view.cells {
        let piece = match cell.piece {
            Some(p) => p,
            None if info.beliefs.at(s).is_some() => continue,
            // A piece we cannot name and hold no token for: the view and the beliefs
            // disagree, so no world is built from them.
            None => return None,
        };
        if let Some(i) = tokens.iter().position(|(at, _)| *at == s) {
            tokens.swap_remove(i);
        }
        let mut t = Token::hidden(piece, cell.seat);
        t.shown = cell.face == Face::Up;
        tokens.push((s, t));
    }
    let mut pos = Position::<FourPlayer>::with_tokens(tokens);
    pos.close(view.closed);
    let seated: Vec<Seat4> = Seat4::ALL
        .into_iter()
        .filter(|&s| view.is_in_play(s))
        .collect();
    let first = view.to_move;
    Some(
        HiddenGame::new(CAPS, view.options, view.alliance, pos, &seated, first)
            .with_allies_visible(view.allies_visible),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::siguo::beliefs::ALL_KINDS;
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    #[test]
    fn a_seat_gets_its_whole_set_within_its_bounds() {
        let mut sets = vec![ALL_KINDS & !kind_bit(Piece::Flag); 25];
        sets[1] = ALL_KINDS;
        sets[3] = ALL_KINDS;
        sets[9] = kind_bit(Piece::Engineer);
        let mut rng = StdRng::seed_from_u64(5);
        for _ in 0..40 {
            let got = assign(&sets, &mut rng).expect("an assignment exists");
            for p in Piece::ALL {
                assert_eq!(got.iter().filter(|&&q| q == p).count() as u8, p.count());
            }
            assert!(got[1] == Piece::Flag || got[3] == Piece::Flag);
            assert_eq!(got[9], Piece::Engineer);
        }
    }
}
