//! The seat to move's flips and moves as square sets, for callers that pick one or
//! count them and would otherwise build `legal_actions`'s list only to index it once.

use crate::rules::board::{SQUARES, Square, SquareSet};

use super::{Action, Game, Play};

/// What `Game::legal_actions` lists, in the same order, without the list: the flips,
/// then each piece that can move with where it may go, pieces in square order.
#[derive(Clone)]
pub struct LegalActions {
    flips: SquareSet,
    /// Pieces with a move, in square order, and their destinations.
    from: [u8; SQUARES],
    to: [u64; SQUARES],
    /// Actions up to and including each piece's, flips counted; the last is the total.
    end: [u16; SQUARES],
    movers: usize,
    len: usize,
}

impl Default for LegalActions {
    fn default() -> LegalActions {
        LegalActions::new()
    }
}

impl LegalActions {
    /// An empty set, to be filled by `Game::legal_into`.
    pub fn new() -> LegalActions {
        LegalActions {
            flips: SquareSet::EMPTY,
            from: [0; SQUARES],
            to: [0; SQUARES],
            end: [0; SQUARES],
            movers: 0,
            len: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The face-down pieces that may be flipped.
    pub fn flips(&self) -> SquareSet {
        self.flips
    }

    /// Each piece that can move, in square order, with where it may go.
    pub fn moves(&self) -> impl Iterator<Item = (Square, SquareSet)> + '_ {
        (0..self.movers).map(|k| (square(self.from[k] as usize), SquareSet(self.to[k])))
    }

    /// The action at `index` in `Game::legal_actions`'s list.
    pub fn get(&self, index: usize) -> Option<Action> {
        let flips = self.flips.len() as usize;
        if index < flips {
            return Some(Action::Flip(nth_square(self.flips.0, index)));
        }
        let k = self.end[..self.movers].partition_point(|&e| e as usize <= index);
        if k == self.movers {
            return None;
        }
        let before = if k == 0 {
            flips
        } else {
            self.end[k - 1] as usize
        };
        Some(Action::Move {
            from: square(self.from[k] as usize),
            to: nth_square(self.to[k], index - before),
        })
    }

    /// The actions in `Game::legal_actions`'s order.
    pub fn iter(&self) -> impl Iterator<Item = Action> + '_ {
        let flips = self.flips.iter().map(Action::Flip);
        let moves = self
            .moves()
            .flat_map(|(from, to)| to.iter().map(move |to| Action::Move { from, to }));
        flips.chain(moves)
    }

    #[inline]
    fn push(&mut self, from: Square, to: SquareSet) {
        let k = self.movers;
        self.len += to.len() as usize;
        self.from[k] = from.index() as u8;
        self.to[k] = to.0;
        self.end[k] = self.len as u16;
        self.movers = k + 1;
    }
}

fn square(index: usize) -> Square {
    Square::from_index(index).expect("a square of the board")
}

/// The `n`th lowest square of `bits`, which has more than `n`.
fn nth_square(mut bits: u64, n: usize) -> Square {
    for _ in 0..n {
        bits &= bits - 1;
    }
    square(bits.trailing_zeros() as usize)
}

impl Game {
    /// The flips and moves open to the seat to move, as `legal_actions` lists them.
    pub fn legal(&self) -> LegalActions {
        let mut legal = LegalActions::new();
        self.legal_into(&mut legal);
        legal
    }

    /// `legal` into a set kept from before, which is cheaper in a loop than a new one.
    pub fn legal_into(&self, legal: &mut LegalActions) {
        legal.flips = SquareSet::EMPTY;
        legal.movers = 0;
        legal.len = 0;
        let caps = self.variant.caps();
        match &self.play {
            Play::Flip(f) if f.outcome.is_none() => {
                legal.flips = f.pos.hidden();
                legal.len = legal.flips.len() as usize;
                if let Some(c) = f.colour_of(f.to_move) {
                    f.pos
                        .for_each_mover(caps, &self.options, c.into(), |from, to| {
                            legal.push(from, to)
                        });
                }
            }
            Play::Deployed(h) => h.for_each_mover(|from, to| legal.push(from, to)),
            Play::Flip(_) => {}
        }
    }
}
