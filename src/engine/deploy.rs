//! The computer's standard 军棋 layout, drawn for each game from a few sound plans:
//! the flag in a headquarters with mines on all three of its neighbours, bombs a row
//! or two behind the front where an attacker on the rails meets them, the marshal and
//! generals on the middle ranks ready for the rails, engineers kept back and off the
//! front corners, small pieces in front. Pieces of like role trade places at random,
//! and the flag side is drawn, so the layout is never quite the same.

use super::Level;
use crate::rules::board::Square;
use crate::rules::{Layout, Piece, Seat};
use rand::seq::SliceRandom;
use rand::{Rng, RngExt};
use std::collections::BTreeMap;

use Piece::*;

/// A plan: where each piece stands, from South's side with the flag on b1, and the
/// groups of stations whose pieces may trade places without spoiling it.
struct Plan {
    cells: [(&'static str, Piece); 25],
    groups: &'static [&'static [&'static str]],
}

/// The plans a game's layout is drawn from. All three guard the flag with three mines
/// and keep the bombs behind the front; they differ in where the heavy pieces wait.
/// 1: marshal in the centre, generals on the flanks' rails, bombs on the second and
///    third ranks in the middle.
/// 2: a bomb beside the flag's mines, the marshal centre and the general on the left
///    rail, a major general each side.
/// 3: the marshal on the left rail's front, the general on the right, a bomb in the
///    fourth rank's left and one by the flag.
const PLANS: [Plan; 3] = [
    Plan {
        cells: [
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
        ],
        groups: &[
            &["a4", "a5", "c5", "e5"],
            &["a3", "e4", "d2", "c6"],
            &["a6", "b6", "d6", "e6", "e3", "c2", "b4"],
            &["c3", "d4", "e2"],
        ],
    },
    Plan {
        cells: [
            ("b1", Flag),
            ("a1", Mine),
            ("c1", Mine),
            ("b2", Mine),
            ("a2", Bomb),
            ("d1", Engineer),
            ("e1", Lieutenant),
            ("c2", Captain),
            ("d2", Engineer),
            ("e2", Major),
            ("a3", Colonel),
            ("c3", Brigadier),
            ("e3", Bomb),
            ("a4", General),
            ("b4", Captain),
            ("d4", MajorGeneral),
            ("e4", Lieutenant),
            ("a5", Major),
            ("c5", Marshal),
            ("e5", Brigadier),
            ("a6", Lieutenant),
            ("b6", Captain),
            ("c6", Engineer),
            ("d6", Colonel),
            ("e6", MajorGeneral),
        ],
        groups: &[
            &["a4", "c5", "d4", "e6"],
            &["a3", "c3", "e5", "d6"],
            &["b4", "e4", "a6", "b6", "c2", "e2", "a5"],
        ],
    },
    Plan {
        cells: [
            ("b1", Flag),
            ("a1", Mine),
            ("c1", Mine),
            ("b2", Mine),
            ("a2", Lieutenant),
            ("c2", Engineer),
            ("d1", Captain),
            ("e1", Engineer),
            ("d2", Bomb),
            ("e2", Lieutenant),
            ("a3", Major),
            ("c3", Colonel),
            ("e3", Brigadier),
            ("a4", Captain),
            ("b4", Bomb),
            ("d4", General),
            ("e4", Captain),
            ("a5", Marshal),
            ("c5", MajorGeneral),
            ("e5", Colonel),
            ("a6", Brigadier),
            ("b6", Engineer),
            ("c6", Lieutenant),
            ("d6", Major),
            ("e6", MajorGeneral),
        ],
        groups: &[
            &["a5", "d4", "c5", "e6"],
            &["e3", "a6", "c3", "e5"],
            &["a4", "e4", "d1", "a3", "d6"],
            &["a2", "e2", "c6"],
        ],
    },
];

/// A layout for `seat`, valid under the deployment rules. Every level deploys the
/// same way: a poor layout would make 入门 lose for the wrong reason.
pub fn deploy<R: Rng + ?Sized>(_level: Level, seat: Seat, rng: &mut R) -> Layout {
    let sq = |s: &str| -> Square { s.parse().expect("template square") };
    let plan = &PLANS[rng.random_range(0..PLANS.len())];
    let mut cells: BTreeMap<Square, Piece> = plan.cells.iter().map(|&(s, p)| (sq(s), p)).collect();
    for group in plan.groups {
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

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    #[test]
    fn every_plan_is_valid_as_drawn() {
        for (i, plan) in PLANS.iter().enumerate() {
            let cells = plan
                .cells
                .iter()
                .map(|&(s, p)| (s.parse().unwrap(), p))
                .collect();
            let l = Layout(cells).from_own_view(Seat::South);
            assert!(
                l.is_valid(Seat::South),
                "plan {i}: {:?}",
                l.violations(Seat::South)
            );
        }
    }

    #[test]
    fn layouts_are_valid_and_guard_the_flag() {
        let mut rng = StdRng::seed_from_u64(11);
        for i in 0..200 {
            let seat = Seat::BOTH[i % 2];
            let level = Level::ALL[i % Level::ALL.len()];
            let l = deploy(level, seat, &mut rng);
            assert!(l.is_valid(seat), "{:?}", l.violations(seat));
            let own = l.to_own_view(seat);
            let flag = *own.0.iter().find(|(_, p)| **p == Flag).unwrap().0;
            for n in crate::rules::board::neighbours(flag).iter() {
                assert_eq!(own.0[&n], Mine, "flag on {flag} unguarded at {n}");
            }
        }
    }
}
