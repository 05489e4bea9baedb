//! The search's own light position: a rules `Position` (moves come from the rules'
//! move generator and combat from `rules::piece::resolve`), the colour to move, the
//! face-down pool (flip chess), the winner once a flag falls, the two draw counters
//! (steps without an attack, steps in all) and a hash of it all but the counters for
//! the transposition table. Repetition is left to the root, which reads it from the
//! view.

use super::information::{Information, Pool};
use super::sample::PLACEHOLDER;
use super::zobrist;
use crate::rules::board::Square;
use crate::rules::{Colour, Options, Piece, Position, Token, Variant};

#[derive(Debug, Clone, Copy)]
pub struct Rules {
    pub variant: Variant,
    pub options: Options,
    /// Steps without an attack after which the game is drawn.
    pub quiet_limit: u32,
    /// Steps after which the game is drawn, if any (flip chess: 300).
    pub step_limit: u32,
}

impl Rules {
    /// The rules `info`'s game is played by, its draw limits included.
    pub fn of(info: &Information) -> Rules {
        Rules {
            variant: info.variant,
            options: info.options,
            quiet_limit: info.quiet_steps_to_draw,
            step_limit: info.steps_to_draw.unwrap_or(u32::MAX),
        }
    }
}

#[derive(Debug, Clone)]
pub struct State {
    pub pos: Position,
    pub to_move: Colour,
    pub pool: Pool,
    pub winner: Option<Colour>,
    /// Steps since the last attack, and steps in all, as the game counts them.
    pub quiet: u32,
    pub steps: u32,
    /// The transposition key of the position, the pool and the side to move.
    pub hash: u64,
}

impl State {
    /// The state to search from: `pos` with `to_move` to move, the pool and the
    /// counters of `info`.
    pub fn root(info: &Information, pos: Position, to_move: Colour, pool: Pool) -> State {
        let mut st = State {
            pos,
            to_move,
            pool,
            winner: None,
            quiet: info.quiet_steps,
            steps: info.steps,
            hash: 0,
        };
        st.hash = st.full_hash();
        st
    }

    fn full_hash(&self) -> u64 {
        let mut h = zobrist::to_move(self.to_move);
        for (s, t) in self.pos.tokens() {
            h ^= zobrist::token(s, t);
        }
        for c in Colour::BOTH {
            for (k, &n) in self.pool[c.index()].iter().enumerate() {
                h ^= zobrist::pool(c, k, n);
            }
        }
        h
    }

    /// Whether a draw limit has been reached.
    pub fn drawn(&self, rules: &Rules) -> bool {
        self.quiet >= rules.quiet_limit || self.steps >= rules.step_limit
    }

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

    fn square_hash(&self, s: Square) -> u64 {
        self.pos.get(s).map_or(0, |t| zobrist::token(s, t))
    }

    fn pass_turn(&mut self) {
        self.hash ^= zobrist::to_move(self.to_move) ^ zobrist::to_move(self.to_move.other());
        self.to_move = self.to_move.other();
        self.steps += 1;
    }

    /// The position after a legal move by the side to move.
    pub fn play(&self, from: Square, to: Square) -> State {
        let mut next = self.clone();
        next.hash ^= self.square_hash(from) ^ self.square_hash(to);
        let (mover, target, _) = next.pos.play_move(from, to);
        next.hash ^= next.square_hash(from) ^ next.square_hash(to);
        if target.is_some_and(|d| d.piece == Piece::Flag) {
            next.winner = Some(mover.colour);
        }
        next.quiet = if target.is_some() { 0 } else { self.quiet + 1 };
        next.pass_turn();
        next
    }

    /// The side to move flips a piece whose identity the search does not expand (a
    /// flip below the root): the turn passes, a step is counted, nothing else changes.
    pub fn flip_unseen(&self) -> State {
        let mut next = self.clone();
        next.quiet += 1;
        next.pass_turn();
        next
    }

    /// The position after the face-down piece on `at` turns out to be `piece` of
    /// `colour` (a chance outcome of a flip), the other side to move.
    pub fn reveal(&self, at: Square, piece: Piece, colour: Colour) -> State {
        let mut next = self.clone();
        let mines = next.pos.mines_left(colour);
        next.hash ^= self.square_hash(at);
        next.pos.take(at);
        next.pos.put(at, Token::shown(piece, colour));
        next.hash ^= next.square_hash(at);
        // Face-down mines were already counted in the public mine count.
        next.pos.assume_mines_left(colour, mines);
        let n = &mut next.pool[colour.index()][piece as usize];
        next.hash ^= zobrist::pool(colour, piece as usize, *n)
            ^ zobrist::pool(colour, piece as usize, *n - 1);
        *n -= 1;
        next.quiet += 1;
        next.pass_turn();
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
