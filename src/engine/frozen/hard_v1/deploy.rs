//! hard-v1's copy of `engine::deploy` as it stood at commit 57c6d4f, frozen as the
//! baseline the arena measures engine changes against: it must not change (the
//! golden test in `frozen::hard_v1` holds it to that commit's decisions).
//!
//! The computer's standard 军棋 layout: the flag in a headquarters with mines on all
//! three of its neighbours, bombs a row or two behind the front where an attacker on
//! the rails meets them, the marshal and general on the middle ranks ready for the
//! rails, engineers kept back and off the front corners, small pieces in front. Pieces
//! of like role trade places at random, and the flag side is drawn, so the layout is
//! never quite the same.

use crate::rules::board::Square;
use crate::rules::{Layout, Piece, Seat};
use rand::seq::SliceRandom;
use rand::{Rng, RngExt};
use std::collections::BTreeMap;

use Piece::*;

/// The template from South's side, flag on b1.
const TEMPLATE: [(&str, Piece); 25] = [
    ("b1", Flag),
    ("a1", Mine),
    ("c1", Mine),
    ("b2", Mine),
    ("d1", Lieutenant),
    ("e1", Engineer),
    ("a2", Engineer),
    ("c2", Captain),
    ("d2", Colonel),
    ("e2", Major),
    ("a3", Brigadier),
    ("c3", Bomb),
    ("e3", Captain),
    ("a4", MajorGeneral),
    ("b4", Lieutenant),
    ("d4", Bomb),
    ("e4", Brigadier),
    ("a5", General),
    ("c5", Marshal),
    ("e5", MajorGeneral),
    ("a6", Lieutenant),
    ("b6", Major),
    ("c6", Colonel),
    ("d6", Engineer),
    ("e6", Captain),
];

/// Squares whose pieces may trade places without spoiling the plan.
const GROUPS: [&[&str]; 4] = [
    &["a4", "a5", "c5", "e5"],
    &["a3", "e4", "d2", "c6"],
    &["a6", "b6", "d6", "e6", "e3", "c2", "b4"],
    &["c3", "d4", "e2"],
];

/// A layout for `seat`, valid under the deployment rules (the engine's levels all
/// deployed this way at that commit).
pub fn deploy<R: Rng + ?Sized>(seat: Seat, rng: &mut R) -> Layout {
    let sq = |s: &str| -> Square { s.parse().expect("template square") };
    let mut cells: BTreeMap<Square, Piece> = TEMPLATE.iter().map(|&(s, p)| (sq(s), p)).collect();
    for group in GROUPS {
        let mut pieces: Vec<Piece> = group.iter().map(|s| cells[&sq(s)]).collect();
        pieces.shuffle(rng);
        for (s, p) in group.iter().zip(pieces) {
            cells.insert(sq(s), p);
        }
    }
    // Engineers off the front corners: trade with a piece of the front middle.
    for corner in ["a6", "e6"] {
        if cells[&sq(corner)] == Engineer {
            let swap = ["b6", "c6", "d6", "e3", "c2"]
                .into_iter()
                .find(|s| cells[&sq(s)] != Engineer)
                .expect("a non-engineer in front");
            let p = cells[&sq(swap)];
            cells.insert(sq(swap), Engineer);
            cells.insert(sq(corner), p);
        }
    }
    let mut layout = Layout(cells);
    if rng.random::<bool>() {
        // Flag on d1: mirror the files.
        layout = Layout(
            layout
                .0
                .into_iter()
                .map(|(s, p)| {
                    (
                        Square::new(4 - s.file(), s.rank()).expect("on the board"),
                        p,
                    )
                })
                .collect(),
        );
    }
    let placed = layout.from_own_view(seat);
    if placed.is_valid(seat) {
        placed
    } else {
        Layout::random(seat, rng)
    }
}
