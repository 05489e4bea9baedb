//! `POST /api/analysis/moves` for a 四国 position as one seat sees it (RULES §5.3): the
//! legal actions of the seat to move, each move with the route it takes.

use crate::error::AppError;
use crate::rules::geometry::PlaceSet;
use crate::rules::siguo::{Alliance, FourPlayer, Seat4, Station};
use crate::rules::view::route;
use crate::rules::{Options, Piece, Position, Token};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cell {
    /// Left out for a piece whose identity the asker does not know.
    #[serde(default)]
    piece: Option<Piece>,
    seat: Seat4,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Request {
    /// "siguo", which is how the request came here.
    #[serde(rename = "variant")]
    _variant: serde::de::IgnoredAny,
    #[serde(default)]
    alliance: Alliance,
    to_move: Seat4,
    board: BTreeMap<Station, Cell>,
    /// 乱战: hands are random (RULES §5.2), so only a hand's size and its flags are
    /// bounded, not the count of each kind.
    #[serde(default)]
    random_pieces: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "snake_case")]
enum Legal {
    Move {
        from: Station,
        to: Station,
        route: Vec<Station>,
    },
    Pass(bool),
}

/// Stands in for a piece the asker cannot see. Only the seat to move's pieces move,
/// and any enemy piece outside a camp may be attacked whatever it is (§5.3), so the
/// answer does not depend on what stands in.
const UNKNOWN: Piece = Piece::Captain;

pub fn answer(req: Request) -> Result<serde_json::Value, AppError> {
    let bad = |m: String| Err(AppError::BadRequest(m));
    let mut counts: BTreeMap<(Seat4, Piece), u8> = BTreeMap::new();
    let mut hands = [0u8; 4];
    let mut tokens = Vec::with_capacity(req.board.len());
    for (&at, cell) in &req.board {
        let piece = match cell.piece {
            Some(p) => p,
            None if cell.seat == req.to_move => {
                return bad(format!(
                    "{at}: the legal actions of {} depend on its own pieces; name them",
                    req.to_move
                ));
            }
            None => UNKNOWN,
        };
        if cell.piece.is_some() {
            *counts.entry((cell.seat, piece)).or_default() += 1;
        }
        hands[cell.seat.index()] += 1;
        tokens.push((at, Token::hidden(piece, cell.seat)));
    }
    for seat in Seat4::ALL {
        if hands[seat.index()] > 25 {
            return bad(format!(
                "{seat} has {} pieces on the board; a hand is 25",
                hands[seat.index()]
            ));
        }
    }
    for (&(seat, piece), &n) in &counts {
        let most = match (req.random_pieces, piece) {
            (false, _) => piece.count(),
            (true, Piece::Flag) => 2,
            (true, _) => 25,
        };
        if n > most {
            return bad(format!(
                "more {seat} {piece} on the board than a hand holds ({most})"
            ));
        }
    }
    let pos = Position::<FourPlayer>::with_tokens(tokens);
    let caps = crate::rules::siguo::CAPS;
    let side = req.alliance.side(req.to_move);
    let mut legal = Vec::new();
    pos.for_each_mover(caps, &Options::default(), side, |from, to| {
        for to in to.places() {
            legal.push(Legal::Move {
                from,
                to,
                route: route(&pos, from, to),
            });
        }
    });
    // A seat with no move is defeated when its turn comes (§5.4.1), so it has no pass.
    if !legal.is_empty() {
        legal.push(Legal::Pass(true));
    }
    Ok(serde_json::json!({ "legal": legal }))
}
