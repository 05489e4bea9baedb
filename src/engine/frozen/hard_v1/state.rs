//! hard-v1's copy of `engine::state` as it stood at commit 57c6d4f, frozen as the
//! baseline the arena measures engine changes against: it must not change (the
//! golden test in `frozen::hard_v1` holds it to that commit's decisions).
//!
//! The search's own light position: a rules `Position` (moves come from the rules'
//! move generator and combat from `rules::piece::resolve`), the colour to move, the
//! face-down pool (flip chess) and the winner once a flag falls. Counters such as the
//! draw limits and repetition are left to the root, which reads them from the view.

use super::sample::PLACEHOLDER;
use crate::engine::information::Pool;
use crate::rules::board::Square;
use crate::rules::{Colour, Options, Piece, Position, Token, Variant};

#[derive(Debug, Clone, Copy)]
pub struct Rules {
    pub variant: Variant,
    pub options: Options,
}

#[derive(Debug, Clone)]
pub struct State {
    pub pos: Position,
    pub to_move: Colour,
    pub pool: Pool,
    pub winner: Option<Colour>,
}

impl State {
    /// Whether the side to move may flip (flip chess, something face down).
    pub fn can_flip(&self, rules: &Rules) -> bool {
        rules.variant.caps().deals() && !self.pos.hidden().is_empty()
    }

    /// Moves of the side to move as (from, to).
    pub fn moves(&self, rules: &Rules, out: &mut Vec<(Square, Square)>) {
        out.clear();
        self.pos.for_each_move(
            rules.variant.caps(),
            &rules.options,
            self.to_move.into(),
            |f, t| out.push((f, t)),
        );
    }

    /// The position after a legal move by the side to move.
    pub fn play(&self, from: Square, to: Square) -> State {
        let mut next = self.clone();
        let (mover, target, _) = next.pos.play_move(from, to);
        if target.is_some_and(|d| d.piece == Piece::Flag) {
            next.winner = Some(mover.colour);
        }
        next.to_move = self.to_move.other();
        next
    }

    /// The position after the face-down piece on `at` turns out to be `piece` of
    /// `colour` (a chance outcome of a flip), the other side to move.
    pub fn reveal(&self, at: Square, piece: Piece, colour: Colour) -> State {
        let mut next = self.clone();
        let mines = next.pos.mines_left(colour);
        next.pos.take(at);
        next.pos.put(at, Token::shown(piece, colour));
        // Face-down mines were already counted in the public mine count.
        next.pos.assume_mines_left(colour, mines);
        next.pool[colour.index()][piece as usize] -= 1;
        next.to_move = self.to_move.other();
        next
    }

    /// The token on `s` if its identity is known to the search (not a placeholder).
    pub fn known(&self, rules: &Rules, s: Square) -> Option<Token> {
        let t = self.pos.get(s)?;
        if !rules.variant.caps().owners_know_hidden && !t.shown {
            debug_assert_eq!(t.piece, PLACEHOLDER);
            return None;
        }
        Some(t)
    }
}
