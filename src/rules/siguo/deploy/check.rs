//! Whether an arrangement of a hand may be used (RULES §5.8).
//!
//! An arrangement is a `rules::Layout` in the South frame: a seat's area is named like
//! the two-player South half (a1 … e6, rank 1 the back row), so one saved layout fits
//! every seat and a two-player layout loads unchanged. A standard hand keeps exactly
//! the two-player rules, which `Layout::violations` already states; 乱战 hands change
//! only the counts, the mines past five, and (by option) the bombs.

use crate::rules::board::{Square, StationKind, is_south_half};
use crate::rules::layout::{Layout, LayoutViolation};
use crate::rules::piece::{Piece, Seat};
use crate::rules::siguo::hand::Hand;
use std::fmt;

/// Mines a hand may hold before the extra ones may stand forward (「如地雷少于等于5个…
/// 则必需排在后两排, 多于5个时多出的地雷可以任意摆放(军营除外)」 [000]).
pub const MINES_KEPT_BACK: u8 = 5;

/// A broken deployment rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Violation {
    /// One of the two-player rules (§4.1), squares in the seat's own frame; a count
    /// is against the seat's hand.
    Layout(LayoutViolation),
    /// A hand of more than five mines may put only the extra ones forward of its last
    /// two ranks: `forward` stand there, `allowed` may.
    MinesForward { mines: u8, forward: u8, allowed: u8 },
}

impl Violation {
    /// The square it concerns, where there is one.
    pub fn square(&self) -> Option<Square> {
        match self {
            Violation::Layout(v) => v.square(),
            Violation::MinesForward { .. } => None,
        }
    }

    /// A short machine-readable name, for clients that mark the board.
    pub fn code(&self) -> &'static str {
        match self {
            Violation::Layout(v) => v.code(),
            Violation::MinesForward { .. } => "mines_forward",
        }
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Violation::Layout(v) => v.fmt(f),
            Violation::MinesForward {
                mines,
                forward,
                allowed,
            } => write!(
                f,
                "{forward} of your {mines} mines stand forward of your last two ranks; \
                 only the {allowed} beyond {MINES_KEPT_BACK} may"
            ),
        }
    }
}

/// Ranks from the back row: 1 = back row … 6 = front row.
fn depth(s: Square) -> u8 {
    s.rank()
}

fn in_area(s: Square) -> bool {
    is_south_half(s) && s.kind() != StationKind::Camp
}

/// Every broken rule of `layout` as an arrangement of `hand`; empty when it may be
/// used.
pub fn violations(layout: &Layout, hand: &Hand, bombs_on_front_row: bool) -> Vec<Violation> {
    let many_mines = hand.count(Piece::Mine) > MINES_KEPT_BACK;
    let mut out: Vec<Violation> = layout
        .violations(Seat::South)
        .into_iter()
        .filter(|v| match v {
            // Counted against the hand below.
            LayoutViolation::WrongCount { .. } => false,
            LayoutViolation::MineForward(_) => !many_mines,
            LayoutViolation::BombOnFrontRank(_) => !bombs_on_front_row,
            _ => true,
        })
        .map(Violation::Layout)
        .collect();
    if many_mines {
        let mines = hand.count(Piece::Mine);
        let forward = layout
            .0
            .iter()
            .filter(|&(&s, &p)| p == Piece::Mine && in_area(s) && depth(s) > 2)
            .count() as u8;
        let allowed = mines - MINES_KEPT_BACK;
        if forward > allowed {
            out.push(Violation::MinesForward {
                mines,
                forward,
                allowed,
            });
        }
    }
    let mut counts = [0u8; Piece::ALL.len()];
    for &p in layout.0.values() {
        counts[p as usize] = counts[p as usize].saturating_add(1);
    }
    for p in Piece::ALL {
        let found = counts[p as usize];
        if found != hand.count(p) {
            out.push(Violation::Layout(LayoutViolation::WrongCount {
                piece: p,
                expected: hand.count(p),
                found,
            }));
        }
    }
    out
}
