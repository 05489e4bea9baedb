//! How a game ends: who won and why.

use crate::rules::piece::Seat;
use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    Flag,
    NoMoves,
    Timeouts,
    Repetition,
    Resign,
    Escape,
    Agreed,
    NoCaptureLimit,
    StepLimit,
    TimeLimit,
}

impl EndReason {
    pub const ALL: [EndReason; 10] = [
        EndReason::Flag,
        EndReason::NoMoves,
        EndReason::Timeouts,
        EndReason::Repetition,
        EndReason::Resign,
        EndReason::Escape,
        EndReason::Agreed,
        EndReason::NoCaptureLimit,
        EndReason::StepLimit,
        EndReason::TimeLimit,
    ];

    pub fn name(self) -> &'static str {
        match self {
            EndReason::Flag => "flag",
            EndReason::NoMoves => "no_moves",
            EndReason::Timeouts => "timeouts",
            EndReason::Repetition => "repetition",
            EndReason::Resign => "resign",
            EndReason::Escape => "escape",
            EndReason::Agreed => "agreed",
            EndReason::NoCaptureLimit => "no_capture_limit",
            EndReason::StepLimit => "step_limit",
            EndReason::TimeLimit => "time_limit",
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a game ended: the winner (none for a draw) and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Outcome {
    pub winner: Option<Seat>,
    pub reason: EndReason,
}

impl Outcome {
    pub fn win(seat: Seat, reason: EndReason) -> Outcome {
        Outcome {
            winner: Some(seat),
            reason,
        }
    }
    pub fn loss(seat: Seat, reason: EndReason) -> Outcome {
        Outcome::win(seat.other(), reason)
    }
    pub fn draw(reason: EndReason) -> Outcome {
        Outcome {
            winner: None,
            reason,
        }
    }
    pub fn loser(&self) -> Option<Seat> {
        self.winner.map(Seat::other)
    }
}
