//! hard-v1's copy of `engine::sample` as it stood at commit 57c6d4f, frozen as the
//! baseline the arena measures engine changes against: it must not change (the
//! golden test in `frozen::hard_v1` holds it to that commit's decisions).
//!
//! Positions to search on, built from an information set alone.
//!
//! - Flip chess: the public position. Face-down stations hold a placeholder (never a
//!   mine or flag, so the flag guard reads the public mine count set beside it); the
//!   search reveals them as chance outcomes drawn from the public pool.
//! - Standard 军棋: a determinization. Every opponent token, removed ones included,
//!   gets a kind consistent with what we know of it, the whole set used exactly once.

use crate::engine::beliefs::{Kinds, kind_bit};
use crate::engine::information::Information;
use crate::rules::board::Square;
use crate::rules::{Colour, Piece, Position, Token};
use rand::{Rng, RngExt};

/// What a face-down station holds in a flip search position until it is revealed.
pub const PLACEHOLDER: Piece = Piece::Lieutenant;

/// Flip chess: face-up pieces as they are, face-down ones as placeholders, and the
/// mine counts the flag guard needs.
pub fn flip_position(info: &Information) -> Position {
    let mut pos = Position::from_tokens(Square::all().filter_map(|s| {
        if info.face_down(s) {
            Some((s, Token::hidden(PLACEHOLDER, Colour::Red)))
        } else {
            info.known_piece(s).map(|(p, c)| (s, Token::shown(p, c)))
        }
    }));
    for c in Colour::BOTH {
        pos.assume_mines_left(c, info.mines_left[c.index()]);
    }
    pos
}

/// Standard 军棋: one full position consistent with `info`, or `None` if the
/// beliefs admit none (then the caller searches fewer worlds).
pub fn determinize<R: Rng + ?Sized>(info: &Information, rng: &mut R) -> Option<Position> {
    let enemy = info.enemy_colour()?;
    let kinds = assign(
        &info
            .beliefs
            .tokens
            .iter()
            .map(|t| t.kinds)
            .collect::<Vec<_>>(),
        rng,
    )?;
    let mut tokens: Vec<(Square, Token)> = Vec::with_capacity(50);
    for s in Square::all() {
        if let Some(cell) = info.board[s.index()]
            && cell.colour != Some(enemy)
            && let Some(p) = cell.piece
        {
            tokens.push((s, Token::hidden(p, cell.colour?)));
        }
    }
    for (t, &k) in info.beliefs.tokens.iter().zip(&kinds) {
        if let Some(s) = t.at {
            tokens.push((s, Token::hidden(k, enemy)));
        }
    }
    Some(Position::from_tokens(tokens))
}

/// Gives each token one kind from its set so that the 25-piece set is used exactly:
/// the most constrained kinds first (flag, mines, bombs, then by rank), each copy to a
/// token that allows it, chosen at random with tightly bound tokens preferred.
pub(crate) fn assign<R: Rng + ?Sized>(sets: &[Kinds], rng: &mut R) -> Option<Vec<Piece>> {
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
    'attempt: for _ in 0..30 {
        let mut out: Vec<Option<Piece>> = vec![None; sets.len()];
        // Tokens known exactly first.
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
                let open: Vec<usize> = (0..sets.len())
                    .filter(|&i| out[i].is_none() && sets[i] & bit != 0)
                    .collect();
                if open.is_empty() {
                    continue 'attempt;
                }
                // Weight 1 / (size of the token's set): a token that can be few
                // things is more likely this one.
                let weights: Vec<f64> = open
                    .iter()
                    .map(|&i| 1.0 / sets[i].count_ones() as f64)
                    .collect();
                let total: f64 = weights.iter().sum();
                let mut x = rng.random::<f64>() * total;
                let mut pick = open[open.len() - 1];
                for (&i, w) in open.iter().zip(&weights) {
                    if x < *w {
                        pick = i;
                        break;
                    }
                    x -= w;
                }
                out[pick] = Some(p);
            }
        }
        return out.into_iter().collect();
    }
    None
}
