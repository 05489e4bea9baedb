//! A two-player position as a client sees it (`POST /api/analysis/moves` and
//! `/evaluate`): every piece named, or face down without a name (flip chess), or an
//! enemy's hidden piece with its colour only (standard). Read into a game the rules can
//! answer for, and, for the engine, into the view the seat to move would have of it.

use crate::error::AppError;
use crate::rules::board::Square;
use crate::rules::view::{Face, View, Viewer};
use crate::rules::{Colour, Game, Options, Piece, Position, Seat, Token, Variant};
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalysisCell {
    #[serde(default)]
    piece: Option<Piece>,
    #[serde(default)]
    colour: Option<Colour>,
    face: Face,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RemovedPiece {
    piece: Piece,
    colour: Colour,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalysisRequest {
    variant: Variant,
    to_move: Seat,
    #[serde(default)]
    colours: Option<BTreeMap<Seat, Colour>>,
    board: BTreeMap<Square, AnalysisCell>,
    #[serde(default)]
    removed: Option<Vec<RemovedPiece>>,
    #[serde(default)]
    options: Option<Options>,
    /// `/evaluate` only: the steps played so far. In standard 军棋, 0 (the opening)
    /// lets the engine bound the opponent's hidden pieces by the deployment rules;
    /// otherwise only the board bounds them.
    #[serde(default)]
    steps: Option<u32>,
    /// `/evaluate` only: how many of the best actions to list (default 5).
    #[serde(default)]
    pub top: Option<usize>,
}

/// Stands in for a piece whose identity the asker does not know. Unknown pieces never
/// move or get attacked in flip chess (they are face down), and in standard 军棋 an
/// attack on one is allowed whatever it is, so any identity but a mine would do.
const UNKNOWN: Piece = Piece::Captain;

/// A position read from a request.
pub struct Seen {
    /// The position with a stand-in for each unknown piece: what the rules need to
    /// list the legal actions.
    pub game: Game,
    to_move: Seat,
    /// The named pieces, and the unknown face-down ones (flip chess) by square.
    tokens: Vec<(Square, Token)>,
    unknown: Vec<Square>,
    /// Pieces named on the board or listed as removed, by colour and kind.
    known: BTreeMap<(Colour, Piece), u8>,
    removed_sent: bool,
    steps: Option<u32>,
}

fn bad<T>(m: String) -> Result<T, AppError> {
    Err(AppError::BadRequest(m))
}

/// Reads `req` into a game from its position; 400 for a cell or a count no game has.
pub fn read(req: &AnalysisRequest) -> Result<Seen, AppError> {
    let colours = match (&req.colours, req.variant) {
        (_, v) if v.caps().deploys() => Some(crate::rules::game::STANDARD_COLOURS),
        (None, _) => None,
        (Some(m), _) => {
            let (s, n) = (m.get(&Seat::South), m.get(&Seat::North));
            match (s, n) {
                (Some(&s), Some(&n)) if s != n => Some([s, n]),
                _ => {
                    return bad("colours names a different colour for south and for north".into());
                }
            }
        }
    };
    let mut removed: BTreeMap<(Colour, Piece), u8> = BTreeMap::new();
    for r in req.removed.iter().flatten() {
        *removed.entry((r.colour, r.piece)).or_default() += 1;
    }
    let mut known = removed.clone();
    let mut hidden_of: [u8; 2] = [0; 2];
    let mut unknown = Vec::new();
    let mut named = Vec::with_capacity(req.board.len());
    let mut tokens = Vec::with_capacity(req.board.len());
    for (&sq, cell) in &req.board {
        let shown = cell.face == Face::Up;
        let token = match (cell.piece, cell.colour, req.variant) {
            (Some(piece), Some(colour), _) => {
                *known.entry((colour, piece)).or_default() += 1;
                let token = Token {
                    piece,
                    colour,
                    shown,
                };
                named.push((sq, token));
                token
            }
            (None, None, v) if v.caps().deals() && !shown => {
                unknown.push(sq);
                Token::hidden(UNKNOWN, Colour::Red)
            }
            (None, Some(colour), v) if v.caps().owners_know_hidden && !shown => {
                if colours.is_some_and(|c| c[req.to_move.index()] == colour) {
                    return bad(format!(
                        "{sq}: the legal actions of {} depend on its own pieces; name them",
                        req.to_move
                    ));
                }
                hidden_of[colour.index()] += 1;
                named.push((sq, Token::hidden(UNKNOWN, colour)));
                Token::hidden(UNKNOWN, colour)
            }
            _ => {
                return bad(format!(
                    "{sq}: a face-up piece needs \"piece\" and \"colour\"; a face-down one \
                     has both or, in flip chess, neither (in standard, its colour alone)"
                ));
            }
        };
        tokens.push((sq, token));
    }
    for (&(colour, piece), &n) in &known {
        if n > piece.count() {
            return bad(format!(
                "more {colour} {piece} on the board and removed than the set has ({})",
                piece.count()
            ));
        }
    }
    for colour in Colour::BOTH {
        let named: u8 = known
            .iter()
            .filter(|((c, _), _)| *c == colour)
            .map(|(_, &n)| n)
            .sum();
        if named + hidden_of[colour.index()] > 25 {
            return bad(format!(
                "more {colour} pieces on the board and removed than the set's 25"
            ));
        }
    }
    let mut pos = Position::from_tokens(tokens);
    let unknowns = unknown.len() as u8;
    if req.variant.caps().guarded_attacks && unknowns > 0 {
        // A flag stays guarded while a mine of its colour may still be on the board.
        for colour in Colour::BOTH {
            let named = pos.mines_left(colour);
            let gone = removed.get(&(colour, Piece::Mine)).copied().unwrap_or(0);
            let unaccounted = Piece::Mine.count() - gone - named;
            pos.assume_mines_left(colour, named + unaccounted.min(unknowns));
        }
    }
    let game = Game::from_position(
        req.variant,
        req.options.unwrap_or_default(),
        pos,
        req.to_move,
        colours,
    );
    Ok(Seen {
        game,
        to_move: req.to_move,
        tokens: named,
        unknown,
        known,
        removed_sent: req.removed.is_some(),
        steps: req.steps,
    })
}

impl Seen {
    /// What the seat to move sees of this position, as its socket would be sent it. In
    /// flip chess every piece neither named nor removed is one of the unknown face-down
    /// ones, so they must number the same (400 when they do not: the client left out
    /// `removed`, or sent too few); they are laid on those squares in any order, which
    /// the seat's view cannot tell apart, so that its counts (the tallies) come out as
    /// the seat's socket would show them.
    pub fn seat_view(&self) -> Result<View, AppError> {
        let variant = self.game.variant();
        let mut tokens = self.tokens.clone();
        if variant.caps().deals() {
            let mut unaccounted = Vec::new();
            for colour in Colour::BOTH {
                for piece in Piece::ALL {
                    let named = self.known.get(&(colour, piece)).copied().unwrap_or(0);
                    for _ in named..piece.count() {
                        unaccounted.push(Token::hidden(piece, colour));
                    }
                }
            }
            if unaccounted.len() != self.unknown.len() {
                let why = if self.removed_sent {
                    "the pieces named, removed and face down do not add up to both sets"
                } else {
                    "list the pieces no longer on the board in \"removed\" (the tallies' removed)"
                };
                return bad(format!(
                    "{} unnamed face-down pieces, but {} pieces are not accounted for: {why}",
                    self.unknown.len(),
                    unaccounted.len()
                ));
            }
            tokens.extend(self.unknown.iter().copied().zip(unaccounted));
        }
        let game = Game::from_position(
            variant,
            *self.game.options(),
            Position::from_tokens(tokens),
            self.to_move,
            self.game.colours(),
        );
        let mut view = View::of(&game, Viewer::Seat(self.to_move));
        if let Some(steps) = self.steps {
            view.steps = steps;
        } else if variant.caps().deploys() {
            // Not the opening: the deployment rules no longer bound where pieces are.
            view.steps = view.steps.max(1);
        }
        Ok(view)
    }
}
