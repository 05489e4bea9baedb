//! The engine's judgement of one seat's turn, for reviewing a game and for the
//! analysis API: every safe action valued from what the seat may know at that moment
//! (its information set), best first. The same search the computer plays with, so a
//! review shows what the computer would have preferred.

use super::eval::WIN;
use super::information::Information;
use super::root::action_values;
use super::{Level, Limits};
use crate::rules::{Action, SetupKind};
use rand::Rng;

/// One seat's turn as the engine sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnAssessment {
    /// The value of the position to the seat with its best action, in evaluation
    /// points (a pawn-like unit: a lieutenant is 8, a marshal 100; ±30,000 a forced
    /// win or loss).
    pub value: i32,
    /// Each legal action and its value to the seat, best first; an action that loses
    /// at once by repetition is valued as a lost game.
    pub actions: Vec<(Action, i32)>,
}

/// How the engine judges the turn of `info`'s seat, searched at `level` within
/// `limits`; `None` when it is not that seat's turn, the game is over, or there is
/// nothing to choose from yet (flip chess before colours are assigned: every flip is
/// the same unknown).
pub fn assess_turn<R: Rng + ?Sized>(
    info: &Information,
    level: Level,
    rng: &mut R,
    limits: Limits<'_>,
) -> Option<TurnAssessment> {
    if info.is_over() || info.to_move() != info.seat() {
        return None;
    }
    if info.variant.caps().setup == SetupKind::Deal && info.my_colour().is_none() {
        return None;
    }
    let actions = info.safe_actions();
    if actions.is_empty() {
        return None;
    }
    let budget = level.budget().scaled(limits.share);
    let values = action_values(info, &actions, budget, rng, limits);
    let mut valued: Vec<(Action, i32)> = actions.into_iter().zip(values).collect();
    for &a in info.legal() {
        if !valued.iter().any(|&(b, _)| b == a) {
            valued.push((a, -WIN));
        }
    }
    // Stable: equal values keep the rules' order, so a review is the same each time.
    valued.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
    Some(TurnAssessment {
        value: valued[0].1,
        actions: valued,
    })
}

/// The value of a forced win (a forced loss is its negation); a search that sees one
/// coming later returns a little less (`WIN - plies`), so a quicker win ranks first.
pub const FORCED_WIN: i32 = WIN;

/// Whether `value` is a forced outcome rather than a judgement of material and place:
/// `Some(true)` a forced win, `Some(false)` a forced loss. The static evaluation stays
/// within half of [`FORCED_WIN`], so anything past that was seen to the end.
pub fn forced(value: i32) -> Option<bool> {
    (value.abs() > WIN / 2).then_some(value > 0)
}
