//! The score tables: flip chess's 积分计算 (RULES §3.1, §3.3) and standard 军棋's
//! win/loss scores (RULES §4.8).

use super::game::{EndReason, Outcome};
use super::options::{ScoreTable, Variant};
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

/// The band of lost pieces a row's multiplier was read from (both ends counted), so
/// that the page can say why a win scored what it did ("失子 0–5 枚为 0 倍底分").
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct LossBand {
    pub from: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<u8>,
}

/// The band of `by_losses` that `lost` falls in.
fn loss_band(lost: u8) -> LossBand {
    if lost >= 15 {
        LossBand { from: 15, to: None }
    } else if lost > 5 {
        LossBand {
            from: 6,
            to: Some(14),
        }
    } else {
        LossBand {
            from: 0,
            to: Some(5),
        }
    }
}

/// The row of the score table that decided a finished game's score. A winner gains
/// `times × base + bonus`; the loser loses `loser_times × base + loser_bonus`. One
/// table serves the score and its explanation, so the two cannot disagree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct ScoreRule {
    /// The row's name: `draw`, `flag`, `only_flag`, `no_moves`, `timeouts`, `resign`,
    /// `repetition`, `escape` (flip chess); `standard_win`, `standard_quick_win`,
    /// `standard_escape`, `standard_quick_escape` (standard 军棋).
    pub code: &'static str,
    pub times: i32,
    pub bonus: i32,
    pub loser_times: i32,
    pub loser_bonus: i32,
    /// The loser's lost pieces, when the row depends on them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lost: Option<u8>,
    /// The band of `lost` the multiplier was read from, when it was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub band: Option<LossBand>,
}

impl ScoreRule {
    fn symmetric(code: &'static str, times: i32, lost: Option<u8>) -> ScoreRule {
        ScoreRule {
            code,
            times,
            bonus: 0,
            loser_times: times,
            loser_bonus: 0,
            lost,
            band: lost.map(loss_band),
        }
    }
}

impl ScoreFacts {
    /// Score changes by seat index (south, north).
    pub fn score(&self, base: i32) -> [i32; 2] {
        let Some(winner) = self.outcome.winner else {
            return [0, 0];
        };
        let rule = self.explain();
        let mut s = [0; 2];
        s[winner.index()] = rule.times * base + rule.bonus;
        s[winner.other().index()] = -(rule.loser_times * base + rule.loser_bonus);
        s
    }

    /// The row of the table that applies (RULES §3.1, §3.3, §4.8).
    pub fn explain(&self) -> ScoreRule {
        if self.outcome.winner.is_none() {
            return ScoreRule::symmetric("draw", 0, None);
        }
        match self.variant.caps().score_table {
            ScoreTable::Flip => self.flip_rule(),
            ScoreTable::Standard => self.standard_rule(),
            // 四国 is scored seat by seat (`siguo::scoring`); two-seat facts of it are
            // never built, and would read as standard's ±1 if they were.
            ScoreTable::Siguo => self.standard_rule(),
        }
    }

    fn flip_rule(&self) -> ScoreRule {
        let lost = self.loser_lost;
        match self.outcome.reason {
            EndReason::Flag => {
                let times = if lost >= 24 {
                    5
                } else {
                    by_losses(lost, 3, 2, 1)
                };
                let bonus = if self.all_face_up { 2 } else { 0 };
                ScoreRule {
                    code: "flag",
                    times,
                    bonus,
                    loser_times: times,
                    loser_bonus: bonus,
                    lost: Some(lost),
                    band: Some(if lost >= 24 {
                        LossBand { from: 24, to: None }
                    } else {
                        loss_band(lost)
                    }),
                }
            }
            EndReason::Escape => ScoreRule {
                code: "escape",
                times: by_losses(lost, 2, 1, 0),
                bonus: 0,
                loser_times: 10,
                loser_bonus: 0,
                lost: Some(lost),
                band: Some(loss_band(lost)),
            },
            EndReason::NoMoves if self.loser_only_flag => {
                ScoreRule::symmetric("only_flag", 5, None)
            }
            EndReason::NoMoves => ScoreRule::symmetric("no_moves", 2, None),
            reason => {
                let code = match reason {
                    EndReason::Resign => "resign",
                    EndReason::Repetition => "repetition",
                    _ => "timeouts",
                };
                ScoreRule::symmetric(code, by_losses(lost, 3, 2, 1), Some(lost))
            }
        }
    }

    /// Standard 军棋 has no base: a win is worth 1, nothing within 30 steps, and an
    /// escaper loses 2.
    fn standard_rule(&self) -> ScoreRule {
        let quick = self.steps <= 30;
        let escape = self.outcome.reason == EndReason::Escape;
        let code = match (quick, escape) {
            (false, false) => "standard_win",
            (true, false) => "standard_quick_win",
            (false, true) => "standard_escape",
            (true, true) => "standard_quick_escape",
        };
        ScoreRule {
            code,
            times: 0,
            bonus: if quick { 0 } else { 1 },
            loser_times: 0,
            loser_bonus: if escape { 2 } else { 1 },
            lost: None,
            band: None,
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(variant: Variant, winner: Option<Seat>, reason: EndReason) -> ScoreFacts {
        ScoreFacts {
            variant,
            outcome: Outcome { winner, reason },
            loser_lost: 0,
            loser_only_flag: false,
            all_face_up: false,
            steps: 100,
        }
    }

    /// (code, winner's change, loser's change) at base 2, South winning.
    fn row(f: ScoreFacts) -> (&'static str, i32, i32) {
        let r = f.explain();
        let s = f.score(2);
        (r.code, s[0], s[1])
    }

    fn flip(reason: EndReason, lost: u8) -> ScoreFacts {
        ScoreFacts {
            loser_lost: lost,
            ..facts(Variant::Flip, Some(Seat::South), reason)
        }
    }

    #[test]
    fn every_flip_row_of_section_3_1() {
        for reason in [
            EndReason::Agreed,
            EndReason::NoCaptureLimit,
            EndReason::StepLimit,
            EndReason::TimeLimit,
        ] {
            assert_eq!(row(facts(Variant::Flip, None, reason)), ("draw", 0, 0));
        }
        for (reason, code) in [
            (EndReason::Timeouts, "timeouts"),
            (EndReason::Resign, "resign"),
            (EndReason::Repetition, "repetition"),
        ] {
            assert_eq!(row(flip(reason, 15)), (code, 6, -6));
            assert_eq!(row(flip(reason, 14)), (code, 4, -4));
            assert_eq!(row(flip(reason, 6)), (code, 4, -4));
            assert_eq!(row(flip(reason, 5)), (code, 2, -2));
            assert_eq!(flip(reason, 5).explain().lost, Some(5));
        }
        assert_eq!(row(flip(EndReason::Flag, 24)), ("flag", 10, -10));
        assert_eq!(row(flip(EndReason::Flag, 15)), ("flag", 6, -6));
        assert_eq!(row(flip(EndReason::Flag, 6)), ("flag", 4, -4));
        assert_eq!(row(flip(EndReason::Flag, 5)), ("flag", 2, -2));
        let all_up = ScoreFacts {
            all_face_up: true,
            ..flip(EndReason::Flag, 5)
        };
        assert_eq!(row(all_up), ("flag", 4, -4));
        assert_eq!(all_up.explain().bonus, 2);
        assert_eq!(row(flip(EndReason::Escape, 15)), ("escape", 4, -20));
        assert_eq!(row(flip(EndReason::Escape, 6)), ("escape", 2, -20));
        assert_eq!(row(flip(EndReason::Escape, 5)), ("escape", 0, -20));
        let only_flag = ScoreFacts {
            loser_only_flag: true,
            ..flip(EndReason::NoMoves, 24)
        };
        assert_eq!(row(only_flag), ("only_flag", 10, -10));
        assert_eq!(row(flip(EndReason::NoMoves, 3)), ("no_moves", 4, -4));
    }

    #[test]
    fn every_standard_row_of_section_4_8() {
        let at = |reason, steps| ScoreFacts {
            steps,
            ..facts(Variant::Standard, Some(Seat::South), reason)
        };
        assert_eq!(row(at(EndReason::Flag, 31)), ("standard_win", 1, -1));
        assert_eq!(row(at(EndReason::Flag, 30)), ("standard_quick_win", 0, -1));
        assert_eq!(row(at(EndReason::Escape, 31)), ("standard_escape", 1, -2));
        assert_eq!(
            row(at(EndReason::Escape, 30)),
            ("standard_quick_escape", 0, -2)
        );
        assert_eq!(
            row(facts(Variant::Standard, None, EndReason::Agreed)),
            ("draw", 0, 0)
        );
    }
}
