//! What one event changed, in the terms a client draws with: the squares it changed
//! (cut for a viewer), the route a piece took, the counters after it, and how to take
//! an event back out of the tallies. Built from the rules' `Applied` alone, so that a
//! game's log can cut an old event again without keeping old positions.

use super::board::{self, Square, SquareSet};
use super::game::{Applied, Effect, Game};
use super::options::Variant;
use super::piece::{Colour, Combat, Piece, Seat, Token};
use super::position::Position;
use super::view::{CellView, PieceTally, SeatPair, Viewer, cell_view};
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

/// Whether an effect changes the tallies: a flip, or an attack that removed a piece.
pub fn changes_tallies(effect: &Effect) -> bool {
    matches!(
        effect,
        Effect::Flipped { .. }
            | Effect::Moved {
                combat: Some(_),
                ..
            }
    )
}

/// Takes `effect` back out of `tallies`, giving the tallies from before it. Lets an
/// older event be cut again without keeping every position.
pub fn rewind_tallies(tallies: &mut [PieceTally], effect: &Effect) {
    let slot = |t: Token| t.colour.index() * Piece::ALL.len() + t.piece as usize;
    match *effect {
        Effect::Flipped { token, .. } => {
            let e = &mut tallies[slot(token)];
            e.up = e.up.saturating_sub(1);
            e.down += 1;
        }
        Effect::Moved {
            mover,
            target: Some(target),
            combat: Some(combat),
            ..
        } => {
            let mut back = |t: Token| {
                let e = &mut tallies[slot(t)];
                e.removed = e.removed.saturating_sub(1);
                if t.shown { e.up += 1 } else { e.down += 1 }
            };
            match combat {
                Combat::AttackerWins => back(target),
                Combat::DefenderWins => back(mover),
                Combat::BothRemoved => {
                    back(mover);
                    back(target);
                }
            }
        }
        _ => {}
    }
}

/// The counters a client shows beside the board, as they stand after an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Status {
    pub to_move: Seat,
    pub steps: u32,
    pub quiet_steps: u32,
    pub timeouts: SeatPair<u8>,
    pub draw_offers_left: SeatPair<Option<u8>>,
    pub open_offer: Option<Seat>,
    pub colours: Option<SeatPair<Colour>>,
}

impl Status {
    pub fn of(game: &Game) -> Status {
        Status {
            to_move: game.to_move(),
            steps: game.steps(),
            quiet_steps: game.quiet_steps(),
            timeouts: SeatPair([game.timeouts(Seat::South), game.timeouts(Seat::North)]),
            draw_offers_left: SeatPair([
                game.draw_offers_left(Seat::South),
                game.draw_offers_left(Seat::North),
            ]),
            open_offer: game.open_offer(),
            colours: game.colours().map(SeatPair),
        }
    }
}

/// Squares an event changed, as one viewer sees them afterwards (`None`: now empty).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BoardDelta(pub Vec<(Square, Option<CellView>)>);

impl Serialize for BoardDelta {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (sq, cell) in &self.0 {
            m.serialize_entry(sq, cell)?;
        }
        m.end()
    }
}

/// What `applied` changed on the board, cut for `viewer`. Built from the effect alone,
/// so that an old event can be cut again from the log.
pub fn board_delta(
    applied: &Applied,
    variant: Variant,
    colours: Option<[Colour; 2]>,
    viewer: Viewer,
) -> BoardDelta {
    let cell = |t: Token| Some(cell_view(variant, colours, viewer, t));
    let mut out = Vec::new();
    match applied.effect {
        Effect::Flipped { at, token } => out.push((at, cell(token))),
        Effect::Moved {
            from,
            to,
            mover,
            target,
            combat,
        } => {
            out.push((from, None));
            let stands = match (combat, target) {
                (None | Some(Combat::AttackerWins), _) => cell(mover),
                (Some(Combat::DefenderWins), Some(t)) => cell(t),
                _ => None,
            };
            out.push((to, stands));
        }
        _ => {}
    }
    for &s in &applied.flags_revealed {
        // A flag stands in a headquarters of its own half; standard seats keep their
        // colours, so the half names the colour.
        let seat = if board::is_south_half(s) {
            Seat::South
        } else {
            Seat::North
        };
        let colour = colours.map_or(Colour::BOTH[seat.index()], |c| c[seat.index()]);
        out.push((s, cell(Token::shown(Piece::Flag, colour))));
    }
    BoardDelta(out)
}

/// Every station a move passed, `from` first and `to` last, on the board as it stood
/// before the move. A step along a road (or between neighbours) is `[from, to]`.
pub fn route(before: &Position, from: Square, to: Square) -> Vec<Square> {
    if board::neighbours(from).contains(to) {
        return vec![from, to];
    }
    let engineer = before.get(from).is_some_and(|t| t.piece == Piece::Engineer);
    let mut occupied: SquareSet = before.occupied();
    occupied.remove(to);
    board::rail_path(from, to, engineer, occupied).unwrap_or_else(|| vec![from, to])
}
