//! Why an action was refused, in words a player can be shown.

use crate::rules::board::Square;
use crate::rules::piece::Piece;
use crate::rules::position::AttackRefusal;
use std::fmt;

/// Why an action was refused. The game is unchanged when one is returned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RuleError {
    GameOver,
    NotYourTurn,
    EmptySquare(Square),
    NotFaceDown(Square),
    ColoursNotAssigned,
    NotYourPiece(Square),
    FaceDownPiece(Square),
    Immovable(Square, Piece),
    HeadquartersLock(Square),
    Unreachable {
        from: Square,
        to: Square,
    },
    Attack {
        from: Square,
        to: Square,
        why: AttackRefusal,
    },
    NoPassInVariant,
    NoFlipInVariant,
    TooEarly {
        needed: u32,
        steps: u32,
    },
    NoDrawOffersLeft,
    OfferAlreadyOpen,
    NoOfferToAnswer,
    TimeWentBack {
        at_ms: u64,
        last_ms: u64,
    },
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleError::GameOver => write!(f, "the game is over"),
            RuleError::NotYourTurn => write!(f, "it is not your turn"),
            RuleError::EmptySquare(s) => write!(f, "there is no piece on {s}"),
            RuleError::NotFaceDown(s) => write!(f, "the piece on {s} is already face up"),
            RuleError::ColoursNotAssigned => {
                write!(f, "colours are not assigned yet: the only action is a flip")
            }
            RuleError::NotYourPiece(s) => write!(f, "the piece on {s} is not yours"),
            RuleError::FaceDownPiece(s) => {
                write!(f, "the piece on {s} is face down and cannot move")
            }
            RuleError::Immovable(s, p) => write!(f, "the {p} on {s} never moves"),
            RuleError::HeadquartersLock(s) => {
                write!(
                    f,
                    "the piece on {s} stands in a headquarters and never moves again"
                )
            }
            RuleError::Unreachable { from, to } => {
                write!(f, "the piece on {from} cannot reach {to}")
            }
            RuleError::Attack { from, to, why } => {
                write!(f, "{from} cannot attack {to}: {}", why.message())
            }
            RuleError::NoPassInVariant => write!(f, "passing is not allowed in this variant"),
            RuleError::NoFlipInVariant => write!(f, "there are no flips in this variant"),
            RuleError::TooEarly { needed, steps } => write!(
                f,
                "resigning and draw offers are allowed after {needed} steps; {steps} played"
            ),
            RuleError::NoDrawOffersLeft => write!(f, "you have no draw offers left"),
            RuleError::OfferAlreadyOpen => write!(f, "a draw offer is already open"),
            RuleError::NoOfferToAnswer => write!(f, "there is no draw offer from your opponent"),
            RuleError::TimeWentBack { at_ms, last_ms } => write!(
                f,
                "action time {at_ms} ms is before the previous action at {last_ms} ms"
            ),
        }
    }
}

impl std::error::Error for RuleError {}
