//! What each viewer of a hidden-piece game may see (RULES §5.3, §5.4.2, §5.6), and the
//! board and events cut to it.
//!
//! A viewer's *sight* is the set of armies whose hidden pieces it may know. Views and
//! events are cut from a sight, not from a viewer, so viewers who see alike share one
//! cut: a spectator crowd costs one view, not one per socket.

use super::{Applied, HiddenGame, Step};
use crate::rules::geometry::{Army, Board};
use crate::rules::piece::{Combat, Piece, Token};
use crate::rules::view::Face;
use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

/// Armies whose hidden pieces a viewer may know: bit `i` for army `i`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Sight(u8);

impl Sight {
    pub const NONE: Sight = Sight(0);
    pub const ALL: Sight = Sight(u8::MAX);

    pub fn of<A: Army>(armies: impl IntoIterator<Item = A>) -> Sight {
        Sight(armies.into_iter().fold(0, |m, a| m | 1 << a.index()))
    }

    pub fn sees<A: Army>(self, army: A) -> bool {
        self.0 & (1 << army.index()) != 0
    }

    /// Whether a viewer with this sight may know what `token` is.
    pub fn knows<A: Army>(self, token: Token<A>) -> bool {
        token.shown || self.sees(token.colour)
    }
}

/// Who looks at the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Watcher<A> {
    Seat(A),
    Spectator,
}

impl<B: Board> HiddenGame<B> {
    /// What `watcher` may see now. A seat sees its own pieces, its allies' under 友明
    /// (§5.2) or once it is itself defeated (§5.4.2), never an enemy's; a spectator
    /// sees what is shown; once the game is over every piece is shown to all (§5.3).
    pub fn sight(&self, watcher: Watcher<B::Army>) -> Sight {
        if self.is_over() {
            return Sight::ALL;
        }
        match watcher {
            Watcher::Spectator => Sight::NONE,
            Watcher::Seat(seat) => {
                let allies_too = self.allies_visible || !self.is_in_play(seat);
                Sight::of(
                    B::Army::ALL
                        .iter()
                        .copied()
                        .filter(|&a| a == seat || (allies_too && self.allied(seat, a))),
                )
            }
        }
    }

    /// The board as a viewer with `sight` sees it.
    pub fn board_view(&self, sight: Sight) -> BoardView<'_, B> {
        BoardView { game: self, sight }
    }
}

/// One occupied station as a viewer sees it: whose piece it is (everyone sees that),
/// what it is where the viewer may know, and whether it is shown to all.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Cell<A> {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub piece: Option<Piece>,
    pub seat: A,
    pub face: Face,
}

pub fn cell<A: Army>(token: Token<A>, sight: Sight) -> Cell<A> {
    Cell {
        piece: sight.knows(token).then_some(token.piece),
        seat: token.colour,
        face: if token.shown { Face::Up } else { Face::Down },
    }
}

/// `{station: cell}` for every occupied station, in station order.
pub struct BoardView<'a, B: Board> {
    game: &'a HiddenGame<B>,
    sight: Sight,
}

impl<B: Board> Serialize for BoardView<'_, B> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let pos = self.game.position();
        let mut m = s.serialize_map(None)?;
        for (at, token) in pos.tokens() {
            m.serialize_entry(&at, &cell(token, self.sight))?;
        }
        m.end()
    }
}

/// An applied action as a viewer with `sight` sees it: the route, the outcome of an
/// attack and the defeats are public; identities only where the sight knows them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EventView<B: Board> {
    pub seat: B::Army,
    pub kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub route: Option<Vec<B::Place>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mover: Option<Cell<B::Army>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<Cell<B::Army>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub combat: Option<Combat>,
    /// Flags shown because their seat's last marshal fell.
    pub flags_shown: Vec<B::Place>,
    /// Seats defeated, with the stations their pieces left (unrevealed).
    pub defeated: Vec<(B::Army, Vec<B::Place>)>,
}

impl<B: Board> EventView<B> {
    /// `applied`, which moved along `route` (worked out on the board before it).
    pub fn of(applied: &Applied<B>, route: Option<Vec<B::Place>>, sight: Sight) -> EventView<B> {
        let kind = match applied.step {
            Step::Move { .. } if applied.target.is_some() => "attack",
            Step::Move { .. } => "move",
            Step::Pass => "pass",
            Step::Timeout => "timeout",
            Step::Resign
                if applied
                    .defeated
                    .first()
                    .is_some_and(|d| d.1 == super::Defeat::Escaped) =>
            {
                "escape"
            }
            Step::Resign => "resign",
            Step::OfferDraw => "offer_draw",
            Step::AcceptDraw => "accept_draw",
            Step::DeclineDraw => "decline_draw",
        };
        EventView {
            seat: applied.seat,
            kind,
            route,
            mover: applied.mover.map(|t| cell(t, sight)),
            target: applied.target.map(|t| cell(t, sight)),
            combat: applied.combat,
            flags_shown: applied.flags_shown.clone(),
            defeated: applied
                .defeated
                .iter()
                .map(|(s, _, left)| (*s, left.clone()))
                .collect(),
        }
    }
}
