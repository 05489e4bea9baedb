//! The score tables: flip chess's 积分计算 (RULES §3.1, §3.3) and standard 军棋's
//! win/loss scores (RULES §4.8).

use super::game::{EndReason, Outcome};
use super::options::Variant;
use super::piece::Seat;

/// Everything the score table needs to know about a finished game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScoreFacts {
    pub variant: Variant,
    pub outcome: Outcome,
    /// Pieces of the loser, other than the flag, no longer on the board.
    pub loser_lost: u8,
    /// The loser has nothing but the flag on the board.
    pub loser_only_flag: bool,
    /// No face-down piece is left on the board.
    pub all_face_up: bool,
    pub steps: u32,
}

/// Multiplier of the base by how many pieces the loser lost: ≥15, 6–14, ≤5.
fn by_losses(lost: u8, many: i32, some: i32, few: i32) -> i32 {
    if lost >= 15 {
        many
    } else if lost > 5 {
        some
    } else {
        few
    }
}

impl ScoreFacts {
    /// Score changes by seat index (south, north).
    pub fn score(&self, base: i32) -> [i32; 2] {
        let Some(winner) = self.outcome.winner else {
            return [0, 0];
        };
        let (won, lost) = match self.variant {
            Variant::Flip => self.flip_score(base),
            Variant::Standard => self.standard_score(),
        };
        let mut s = [0; 2];
        s[winner.index()] = won;
        s[winner.other().index()] = lost;
        s
    }

    /// (winner's change, loser's change) under the flip-chess table.
    fn flip_score(&self, base: i32) -> (i32, i32) {
        let lost = self.loser_lost;
        match self.outcome.reason {
            EndReason::Flag => {
                let times = if lost >= 24 {
                    5
                } else {
                    by_losses(lost, 3, 2, 1)
                };
                let bonus = if self.all_face_up { 2 } else { 0 };
                (times * base + bonus, -(times * base) - bonus)
            }
            EndReason::Escape => (by_losses(lost, 2, 1, 0) * base, -10 * base),
            EndReason::NoMoves => {
                let times = if self.loser_only_flag { 5 } else { 2 };
                (times * base, -times * base)
            }
            // Timeouts, resignation, repetition.
            _ => {
                let times = by_losses(lost, 3, 2, 1);
                (times * base, -times * base)
            }
        }
    }

    /// (winner's change, loser's change) in standard 军棋: no base, an escaper loses 2,
    /// and a game decided within 30 steps gives the winner nothing.
    fn standard_score(&self) -> (i32, i32) {
        let won = if self.steps <= 30 { 0 } else { 1 };
        let lost = if self.outcome.reason == EndReason::Escape {
            -2
        } else {
            -1
        };
        (won, lost)
    }

    pub fn change_for(&self, seat: Seat, base: i32) -> i32 {
        self.score(base)[seat.index()]
    }
}

/// The base (底分) of the next game at a table: one more after a rematch of the same
/// pair, otherwise back to 1.
pub fn next_base(previous_base: Option<i32>, same_pair_rematch: bool) -> i32 {
    match previous_base {
        Some(b) if same_pair_rematch => b + 1,
        _ => 1,
    }
}
