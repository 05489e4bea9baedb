//! What a seat does and what an accepted action did.

use crate::rules::board::Square;
use crate::rules::piece::{Colour, Combat, Seat, Token};

use super::Outcome;

/// Something a seat does. Flips, moves, timeouts and passes are steps; the rest are not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    Flip(Square),
    Move { from: Square, to: Square },
    Timeout,
    Pass,
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
    Resign,
    Escape,
}

impl Action {
    pub fn is_step(self) -> bool {
        matches!(
            self,
            Action::Flip(_) | Action::Move { .. } | Action::Timeout | Action::Pass
        )
    }
}

/// What an accepted action did, with full identities. Callers that pass it on to
/// players cut it down with `view::Event` first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    Flipped {
        at: Square,
        token: Token,
    },
    Moved {
        from: Square,
        to: Square,
        mover: Token,
        target: Option<Token>,
        combat: Option<Combat>,
    },
    TimedOut,
    Passed,
    DrawOffered,
    DrawDeclined,
    DrawAccepted,
    Resigned,
    Escaped,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    pub seat: Seat,
    pub effect: Effect,
    /// Colours by seat, when this action assigned them.
    pub colours_assigned: Option<[Colour; 2]>,
    /// Flags shown to everyone because their marshal fell (standard 军棋).
    pub flags_revealed: Vec<Square>,
    /// The opponent's open draw offer lapsed because this seat took a step.
    pub offer_lapsed: bool,
    pub outcome: Option<Outcome>,
}
