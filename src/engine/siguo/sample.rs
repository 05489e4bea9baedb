//! Determinizations: whole 四国 games consistent with one seat's information set. Each
//! hidden piece of every other seat gets a kind its token allows, each seat's 25-piece
//! set used exactly once (removed tokens included), and the result is a rules
//! `HiddenGame` the search plays on with the real move generator and checks.

use super::beliefs::Kinds;
use super::information::SeatInfo;
use crate::rules::Variant;
use crate::rules::hidden_game::HiddenGame;
use crate::rules::siguo::{FourPlayer, Seat4};
use crate::rules::view::Face;
use crate::rules::{Piece, Position, Token};
use rand::Rng;

// The two-player sampler's assignment: a seat's set is the same 25 pieces.
use crate::engine::sample::assign;

/// One game consistent with `info`, to move as the view says; `None` if the beliefs
/// admit none (the caller then searches fewer worlds).
pub fn world<R: Rng + ?Sized>(info: &SeatInfo, rng: &mut R) -> Option<HiddenGame<FourPlayer>> {
    let view = &info.view;
    let mut kinds: [Vec<Piece>; 4] = Default::default();
    for seat in Seat4::ALL {
        let tokens = &info.beliefs.tokens[seat.index()];
        if !tokens.is_empty() {
            let sets: Vec<Kinds> = tokens.iter().map(|t| t.kinds).collect();
            kinds[seat.index()] = assign(&sets, rng)?;
        }
    }
    let mut tokens: Vec<(crate::rules::siguo::Station, Token<Seat4>)> =
        Vec::with_capacity(view.cells.len());
    for (seat, list) in info.beliefs.tokens.iter().enumerate() {
        for (t, &k) in list.iter().zip(&kinds[seat]) {
            if let Some(s) = t.at {
                tokens.push((s, Token::hidden(k, Seat4::ALL[seat])));
            }
        }
    }
    for &(s, cell) in &view.cells {
        let piece = match cell.piece {
            Some(p) => p,
            None if info.beliefs.at(s).is_some() => continue,
            // A piece we cannot name and hold no token for: the view and the beliefs
            // disagree, so no world is built from them.
            None => return None,
        };
        if let Some(i) = tokens.iter().position(|(at, _)| *at == s) {
            tokens.swap_remove(i);
        }
        let mut t = Token::hidden(piece, cell.seat);
        t.shown = cell.face == Face::Up;
        tokens.push((s, t));
    }
    let mut pos = Position::<FourPlayer>::with_tokens(tokens);
    pos.close(view.closed);
    let seated: Vec<Seat4> = Seat4::ALL
        .into_iter()
        .filter(|&s| view.is_in_play(s))
        .collect();
    let first = view.to_move;
    Some(
        HiddenGame::new(
            Variant::Siguo,
            view.options,
            view.alliance,
            pos,
            &seated,
            first,
        )
        .with_allies_visible(view.allies_visible),
    )
}
