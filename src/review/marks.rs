//! How much a played action cost against the engine's best, and which costs are marked.

use crate::engine::analysis::{FORCED_WIN, forced};
use serde::Serialize;

/// 疑问手 (an inaccuracy): the played action lost more than this many evaluation points
/// against the best. A captain is 12 and a lieutenant 8, while the placement terms of the
/// evaluation move a position by a few points only: past 15 the player gave up about a
/// piece's worth, or let a clear threat stand, not a matter of style.
pub const INACCURACY: i32 = 15;

/// 败着 (a blunder): lost more than this. A brigadier is 35 and a bomb 44: past 40 the
/// action threw away a strong piece or the equivalent, the kind of step that decides a
/// game between even players.
pub const BLUNDER: i32 = 40;

/// The value graph is drawn within ±this many points: a marshal is 100, so it holds
/// every ordinary swing of material, and a forced win or loss (±30,000) is drawn at the
/// edge instead of flattening everything else.
pub const GRAPH_CLAMP: i32 = 200;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    /// 疑问手
    Inaccuracy,
    /// 败着
    Blunder,
}

impl Mark {
    pub const fn chinese(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "疑问手",
            Mark::Blunder => "败着",
        }
    }
}

/// What the played action (valued `played`) lost against the best (valued `best`), in
/// evaluation points, never below zero.
///
/// Forced outcomes are compared as outcomes: a slower forced win than the quickest is
/// still a win, and among forced losses nothing is to blame, so neither loses anything.
/// A forced win missed, or a forced loss walked into where the best action had none,
/// counts as the whole distance to the forced value (far past [`BLUNDER`]).
pub fn loss(best: i32, played: i32) -> i32 {
    match (forced(best), forced(played)) {
        (Some(a), Some(b)) if a == b => 0,
        _ => best.saturating_sub(played).clamp(0, 2 * FORCED_WIN),
    }
}

/// The mark a loss earns, if any.
pub fn mark(loss: i32) -> Option<Mark> {
    if loss > BLUNDER {
        Some(Mark::Blunder)
    } else if loss > INACCURACY {
        Some(Mark::Inaccuracy)
    } else {
        None
    }
}

/// A value as the graph draws it.
pub fn shown(value: i32) -> i32 {
    value.clamp(-GRAPH_CLAMP, GRAPH_CLAMP)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn losses_are_marked_past_their_thresholds() {
        assert_eq!(mark(loss(20, 5)), None, "15 is not past 15");
        assert_eq!(mark(loss(20, 4)), Some(Mark::Inaccuracy));
        assert_eq!(
            mark(loss(50, 10)),
            Some(Mark::Inaccuracy),
            "40 is not past 40"
        );
        assert_eq!(mark(loss(50, 9)), Some(Mark::Blunder));
        assert_eq!(loss(5, 30), 0, "never below zero");
    }

    #[test]
    fn forced_outcomes_compare_as_outcomes() {
        // A slower forced win, or one forced loss against another: nothing lost.
        assert_eq!(loss(FORCED_WIN - 1, FORCED_WIN - 7), 0);
        assert_eq!(loss(-FORCED_WIN + 9, -FORCED_WIN + 1), 0);
        // A forced win missed, a forced loss chosen: blunders.
        assert_eq!(mark(loss(FORCED_WIN - 3, 60)), Some(Mark::Blunder));
        assert_eq!(mark(loss(-10, -FORCED_WIN + 2)), Some(Mark::Blunder));
        assert_eq!(shown(FORCED_WIN), GRAPH_CLAMP);
        assert_eq!(shown(-FORCED_WIN), -GRAPH_CLAMP);
        assert_eq!(shown(37), 37);
    }
}
