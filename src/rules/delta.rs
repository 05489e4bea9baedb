//! What one event changed, in the terms a client draws with: the squares it changed
//! (cut for a viewer), the route a piece took, the counters after it, and how to take
//! an event back out of the tallies. Built from the rules' `Applied` alone, so that a
//! game's log can cut an old event again without keeping old positions.

use super::board::{self, Square};
use super::game::{Applied, Effect, Game};
use super::geometry::{Board, Geometry, PlaceSet};
use super::options::Variant;
use super::piece::{Colour, Combat, Piece, Seat, Token};
use super::position::Position;
use super::view::{CellView, PieceTally, SeatPair, Viewer, cell_view, square_map};
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
        square_map(&self.0, s)
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
pub fn route<B: Board>(before: &Position<B>, from: B::Place, to: B::Place) -> Vec<B::Place> {
    let tb = B::geometry();
    if tb.neighbours(from).contains(to) {
        return vec![from, to];
    }
    let engineer = before.get(from).is_some_and(|t| t.piece == Piece::Engineer);
    let mut occupied = before.occupied() | before.closed();
    occupied.remove(to);
    tb.rail_path(from, to, engineer, occupied)
        .unwrap_or_else(|| vec![from, to])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Options;
    use crate::rules::game::Action;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    fn flip_game(tokens: &[(&str, Piece, Colour)]) -> Game {
        let pos =
            Position::from_tokens(tokens.iter().map(|&(s, p, c)| (sq(s), Token::shown(p, c))));
        Game::from_position(
            Variant::Flip,
            Options::default(),
            pos,
            Seat::South,
            Some([Colour::Red, Colour::Blue]),
        )
    }

    /// Each outcome of an attack leaves `to` as the position has it.
    #[test]
    fn deltas_follow_every_combat_outcome() {
        for (attacker, defender, stays) in [
            (Piece::General, Piece::Captain, Some(Piece::General)),
            (Piece::Captain, Piece::General, Some(Piece::General)),
            (Piece::Captain, Piece::Captain, None),
        ] {
            let mut g = flip_game(&[
                ("a2", attacker, Colour::Red),
                ("a3", defender, Colour::Blue),
                ("e12", Piece::Flag, Colour::Blue),
                ("e1", Piece::Flag, Colour::Red),
            ]);
            let mv = Action::Move {
                from: sq("a2"),
                to: sq("a3"),
            };
            let applied = g.apply(Seat::South, mv, None).unwrap();
            let d = board_delta(&applied, Variant::Flip, g.colours(), Viewer::Spectator);
            assert_eq!(d.0[0], (sq("a2"), None));
            assert_eq!(d.0[1].0, sq("a3"));
            assert_eq!(d.0[1].1.and_then(|c| c.piece), stays);
            assert_eq!(g.position().get(sq("a3")).map(|t| t.piece), stays);
        }
    }

    #[test]
    fn routes_pass_every_station() {
        let g = flip_game(&[("a2", Piece::Engineer, Colour::Red)]);
        let r = route(g.position(), sq("a2"), sq("a6"));
        let names: Vec<String> = r.iter().map(|s| s.to_string()).collect();
        assert_eq!(names, ["a2", "a3", "a4", "a5", "a6"]);
        assert_eq!(
            route(g.position(), sq("a2"), sq("b2")),
            [sq("a2"), sq("b2")]
        );
        // An engineer turns corners on the rail.
        let r = route(g.position(), sq("a2"), sq("c2"));
        assert_eq!((r[0], *r.last().unwrap()), (sq("a2"), sq("c2")));
        for w in r.windows(2) {
            assert!(board::neighbours(w[0]).contains(w[1]));
        }
    }
}
