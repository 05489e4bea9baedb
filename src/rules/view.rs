//! What each seat, and a spectator, may see of a game (DESIGN "Hidden information").
//!
//! A view is built from scratch out of the cells a viewer may see; hidden pieces are
//! written as bare `{"face":"down"}` (flip chess) or `{"colour":…,"face":"down"}`
//! (an opponent's piece in standard 军棋) in square order, so nothing about them (not
//! an id, not an ordering) can be read back.

use super::board::Square;
pub use super::delta::{BoardDelta, Status, board_delta, changes_tallies, rewind_tallies, route};
use super::game::{Action, Applied, Effect, Game, Outcome};
use super::options::Variant;
use super::piece::{Colour, Combat, Piece, Seat, Token};
use super::position::Position;
use serde::ser::{SerializeMap, SerializeStruct};
use serde::{Serialize, Serializer};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Viewer {
    Seat(Seat),
    Spectator,
    /// A spectator whom the seat's player lets see its pieces (指定旁观, RULES §5.6):
    /// sees what the seat sees and acts for nobody, so is sent no legal actions.
    Behind(Seat),
    /// Everyone, once the game is over: a replay names every piece.
    Everyone,
}

impl Viewer {
    /// The seat whose sight this viewer has.
    fn seat(self) -> Option<Seat> {
        match self {
            Viewer::Seat(s) | Viewer::Behind(s) => Some(s),
            Viewer::Spectator | Viewer::Everyone => None,
        }
    }

    /// The seat this viewer plays for: a seat's player only.
    fn acting(self) -> Option<Seat> {
        match self {
            Viewer::Seat(s) => Some(s),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Face {
    Up,
    Down,
}

/// One occupied station as a viewer sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct CellView {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub piece: Option<Piece>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub colour: Option<Colour>,
    pub face: Face,
}

/// Whether `viewer` may know what `token` is, in `variant`, with `colours` assigned.
pub fn can_see(
    variant: Variant,
    colours: Option<[Colour; 2]>,
    viewer: Viewer,
    token: Token,
) -> bool {
    if token.shown || viewer == Viewer::Everyone {
        return true;
    }
    match (variant, viewer.seat(), colours) {
        (v, Some(seat), Some(c)) if v.caps().owners_know_hidden => c[seat.index()] == token.colour,
        _ => false,
    }
}

pub fn cell_view(
    variant: Variant,
    colours: Option<[Colour; 2]>,
    viewer: Viewer,
    token: Token,
) -> CellView {
    let face = if token.shown { Face::Up } else { Face::Down };
    if can_see(variant, colours, viewer, token) {
        CellView {
            piece: Some(token.piece),
            colour: Some(token.colour),
            face,
        }
    } else {
        CellView {
            piece: None,
            // A standard opponent's piece is known to be theirs; a flip piece face down
            // could be either colour.
            colour: variant.caps().owners_know_hidden.then_some(token.colour),
            face,
        }
    }
}

/// Occupied stations in square order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BoardView(pub Vec<(Square, CellView)>);

impl Serialize for BoardView {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        square_map(&self.0, s)
    }
}

/// Cells by square as a JSON object, in the order given.
pub(super) fn square_map<S: Serializer, T: Serialize>(
    cells: &[(Square, T)],
    s: S,
) -> Result<S::Ok, S::Error> {
    let mut m = s.serialize_map(Some(cells.len()))?;
    for (sq, cell) in cells {
        m.serialize_entry(sq, cell)?;
    }
    m.end()
}

impl Serialize for Action {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct FromTo {
            from: Square,
            to: Square,
        }
        let mut m = s.serialize_map(Some(1))?;
        match *self {
            Action::Flip(at) => m.serialize_entry("flip", &at)?,
            Action::Move { from, to } => m.serialize_entry("move", &FromTo { from, to })?,
            Action::Timeout => m.serialize_entry("timeout", &true)?,
            Action::Pass => m.serialize_entry("pass", &true)?,
            Action::OfferDraw => m.serialize_entry("offer_draw", &true)?,
            Action::AcceptDraw => m.serialize_entry("accept_draw", &true)?,
            Action::DeclineDraw => m.serialize_entry("decline_draw", &true)?,
            Action::Resign => m.serialize_entry("resign", &true)?,
            Action::Escape => m.serialize_entry("escape", &true)?,
        }
        m.end()
    }
}

/// Pieces of one kind and colour: face up, face down, removed (the status bar's dots).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PieceTally {
    pub piece: Piece,
    pub colour: Colour,
    pub up: u8,
    pub down: u8,
    pub removed: u8,
}

/// The whole game as one viewer may see it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct View {
    pub variant: Variant,
    pub viewer: Viewer,
    pub to_move: Seat,
    pub colours: Option<SeatPair<Colour>>,
    pub steps: u32,
    pub quiet_steps: u32,
    pub quiet_steps_to_draw: u32,
    pub steps_to_draw: Option<u32>,
    pub timeouts: SeatPair<u8>,
    pub timeouts_to_lose: u8,
    pub draw_offers_left: SeatPair<Option<u8>>,
    pub open_offer: Option<Seat>,
    pub steps_before_resign_or_draw: u32,
    pub outcome: Option<Outcome>,
    pub board: BoardView,
    /// Flips and moves the viewer may make now; empty when it is not their turn.
    pub legal: Vec<Action>,
    /// Moves in `legal` that would lose by repetition.
    pub repetition_warnings: Vec<Action>,
    /// Per-piece tallies for the status bar; flip chess only, where all of it is public.
    pub tallies: Vec<PieceTally>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeatPair<T>(pub [T; 2]);

impl<T: Serialize> Serialize for SeatPair<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("SeatPair", 2)?;
        st.serialize_field("south", &self.0[0])?;
        st.serialize_field("north", &self.0[1])?;
        st.end()
    }
}

impl View {
    /// The board as `viewer` may see it. A finished standard game has nothing left to
    /// hide; a finished flip game shows its deal in the replay instead, and its board as
    /// it stood.
    pub fn board_of(game: &Game, viewer: Viewer) -> BoardView {
        let variant = game.variant();
        let colours = game.colours();
        let all_known = variant.caps().reveal_at_end && game.is_over();
        BoardView(
            game.position()
                .tokens()
                .map(|(s, t)| {
                    let cell = if all_known {
                        CellView {
                            piece: Some(t.piece),
                            colour: Some(t.colour),
                            face: if t.shown { Face::Up } else { Face::Down },
                        }
                    } else {
                        cell_view(variant, colours, viewer, t)
                    };
                    (s, cell)
                })
                .collect(),
        )
    }

    pub fn of(game: &Game, viewer: Viewer) -> View {
        let variant = game.variant();
        let colours = game.colours();
        let pos = game.position();
        let board = View::board_of(game, viewer);
        let (legal, repetition_warnings) = legal_for(game, viewer);
        let tallies = if variant.caps().public_tallies {
            tallies(pos)
        } else {
            Vec::new()
        };
        View {
            variant,
            viewer,
            to_move: game.to_move(),
            colours: colours.map(SeatPair),
            steps: game.steps(),
            quiet_steps: game.quiet_steps(),
            quiet_steps_to_draw: game.quiet_steps_to_draw(),
            steps_to_draw: game.steps_to_draw(),
            timeouts: SeatPair([game.timeouts(Seat::South), game.timeouts(Seat::North)]),
            timeouts_to_lose: game.timeouts_to_lose(),
            draw_offers_left: SeatPair([
                game.draw_offers_left(Seat::South),
                game.draw_offers_left(Seat::North),
            ]),
            open_offer: game.open_offer(),
            steps_before_resign_or_draw: game.steps_before_resign_or_draw(),
            outcome: game.outcome(),
            board,
            legal,
            repetition_warnings,
            tallies,
        }
    }
}

/// An accepted action as one viewer may learn of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EventView {
    pub seat: Seat,
    #[serde(flatten)]
    pub kind: EventKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub colours_assigned: Option<SeatPair<Colour>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub flags_revealed: Vec<Square>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub offer_lapsed: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EventKind {
    Flip {
        at: Square,
        piece: Piece,
        colour: Colour,
    },
    Move {
        from: Square,
        to: Square,
        mover: CellView,
        #[serde(skip_serializing_if = "Option::is_none")]
        target: Option<CellView>,
        #[serde(skip_serializing_if = "Option::is_none")]
        combat: Option<Combat>,
    },
    Timeout,
    Pass,
    OfferDraw,
    DeclineDraw,
    AcceptDraw,
    Resign,
    Escape,
}

impl EventView {
    /// Cuts `applied` down to what `viewer` may know. `colours` are the game's colours
    /// after the action.
    pub fn of(
        applied: &Applied,
        variant: Variant,
        colours: Option<[Colour; 2]>,
        viewer: Viewer,
    ) -> EventView {
        let kind = match applied.effect {
            // A flip shows the piece to everyone.
            Effect::Flipped { at, token } => EventKind::Flip {
                at,
                piece: token.piece,
                colour: token.colour,
            },
            Effect::Moved {
                from,
                to,
                mover,
                target,
                combat,
            } => EventKind::Move {
                from,
                to,
                mover: cell_view(variant, colours, viewer, mover),
                target: target.map(|t| cell_view(variant, colours, viewer, t)),
                combat,
            },
            Effect::TimedOut => EventKind::Timeout,
            Effect::Passed => EventKind::Pass,
            Effect::DrawOffered => EventKind::OfferDraw,
            Effect::DrawDeclined => EventKind::DeclineDraw,
            Effect::DrawAccepted => EventKind::AcceptDraw,
            Effect::Resigned => EventKind::Resign,
            Effect::Escaped => EventKind::Escape,
        };
        EventView {
            seat: applied.seat,
            kind,
            colours_assigned: applied.colours_assigned.map(SeatPair),
            flags_revealed: applied.flags_revealed.clone(),
            offer_lapsed: applied.offer_lapsed,
            outcome: applied.outcome,
        }
    }
}

/// The flips and moves open to `viewer` now, and those among them that would lose by
/// repetition; both empty unless the viewer is the seat to move.
pub fn legal_for(game: &Game, viewer: Viewer) -> (Vec<Action>, Vec<Action>) {
    let mut legal = Vec::new();
    if viewer.acting() != Some(game.to_move()) {
        return (legal, Vec::new());
    }
    game.legal_actions(&mut legal);
    let warnings = legal
        .iter()
        .copied()
        .filter(|a| match *a {
            Action::Move { from, to } => game.would_repeat(game.to_move(), from, to),
            _ => false,
        })
        .collect();
    (legal, warnings)
}

/// Flip chess's per-piece tallies of a position, red first, in `Piece::ALL` order.
/// One pass over the pieces on the board (it was a pass per kind and colour: 24 of them,
/// 4 % of the server's instructions per action under load).
pub fn tallies(pos: &Position) -> Vec<PieceTally> {
    let mut out: Vec<PieceTally> = Colour::BOTH
        .into_iter()
        .flat_map(|colour| {
            Piece::ALL.into_iter().map(move |piece| PieceTally {
                piece,
                colour,
                up: 0,
                down: 0,
                removed: piece.count(),
            })
        })
        .collect();
    for (_, t) in pos.tokens() {
        let e = &mut out[t.colour.index() * Piece::ALL.len() + t.piece as usize];
        if t.shown {
            e.up += 1;
        } else {
            e.down += 1;
        }
        e.removed -= 1;
    }
    out
}

/// Every occupied square as `View::of` shows it to `viewer`: for the event that ends a
/// standard game, which reveals everything.
pub fn whole_board(game: &Game, viewer: Viewer) -> BoardDelta {
    let board = View::board_of(game, viewer);
    let mut out: Vec<(Square, Option<CellView>)> =
        board.0.into_iter().map(|(s, c)| (s, Some(c))).collect();
    out.sort_by_key(|(s, _)| *s);
    BoardDelta(out)
}
