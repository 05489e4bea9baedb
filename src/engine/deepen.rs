//! Iterative deepening over the root's actions: search every action one ply deeper
//! each round while the budget lasts, the best of the last round first, and keep the
//! values of the deepest round that finished. A round cut short by the budget still
//! counts for the actions it finished once it has finished the previous best (it is
//! searched first), so a late better move is not lost; what it did not reach keeps
//! the previous round's value, capped below the new best.

use super::search::{INF, Search};
use super::state::State;
use crate::rules::Action;

/// Values within this many points of the best are searched exactly; an action worse
/// than that is only known to be worse (its value is an upper bound). A review marks
/// a step from 15 points lost, so the margin keeps every mark exact.
pub const MARGIN: i32 = 100;

/// The deepest round: no search here goes deeper.
pub const MAX_DEPTH: i32 = 40;

/// Plies a root flip is searched, for a move searched `depth`: its chance outcomes
/// multiply the cost (up to 24), so it looks at most `cap` plies and always one less
/// than the moves.
fn flip_depth(depth: i32, cap: i32) -> i32 {
    (depth - 1).clamp(1, cap)
}

/// The values of `actions` (moves and, flip chess, flips) from `st`, searched up to
/// `max_depth` plies with flips up to `flip_cap`, within the search's node budget.
/// The first round always finishes, so every action has a value.
pub fn deepen(
    search: &mut Search,
    st: &State,
    actions: &[Action],
    max_depth: i32,
    flip_cap: i32,
) -> Vec<i32> {
    let n = actions.len();
    let mut values = vec![0i32; n];
    // Attacks first, then moves, then flips, as a first guess of the order.
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| match actions[i] {
        Action::Move { to, .. } if st.pos.get(to).is_some() => 0,
        Action::Move { .. } => 1,
        _ => 2,
    });
    // A flip's value at the depth it was last searched, reused while its depth stays.
    let mut flip_done: Vec<Option<(i32, i32)>> = vec![None; n];
    for depth in 1..=max_depth.max(1) {
        let before = search.nodes;
        let mut round = values.clone();
        let mut finished = 0;
        let mut best = -INF;
        let mut cut = false;
        for &i in &order {
            let v = match actions[i] {
                Action::Move { from, to } => {
                    search.move_value(st, from, to, depth, best.saturating_sub(MARGIN))
                }
                Action::Flip(at) => {
                    let fd = flip_depth(depth, flip_cap);
                    match flip_done[i] {
                        Some((d, v)) if d == fd => v,
                        _ => search.flip_value(st, at, fd),
                    }
                }
                _ => continue,
            };
            // The first round is kept whole: every action needs some value.
            if depth > 1 && !search.running() {
                cut = true;
                break;
            }
            if let Action::Flip(_) = actions[i] {
                flip_done[i] = Some((flip_depth(depth, flip_cap), v));
            }
            round[i] = v;
            best = best.max(v);
            finished += 1;
        }
        if cut {
            if finished > 0 {
                // The previous best was searched at this depth: what this round
                // reached stands, the rest ranks below its best.
                for (k, &i) in order.iter().enumerate() {
                    values[i] = if k < finished {
                        round[i]
                    } else {
                        values[i].min(best - 1)
                    };
                }
            }
            break;
        }
        values = round;
        order.sort_by_key(|&i| std::cmp::Reverse(values[i]));
        let spent = search.nodes - before;
        let won = values.iter().any(|&v| v.abs() >= super::eval::WIN / 2);
        // The next round costs several times this one: start it only if it can end.
        if won || !search.running() || search.nodes + spent * 3 > search.limit {
            break;
        }
    }
    values
}
