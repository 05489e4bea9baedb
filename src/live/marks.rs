//! Piece marks (子力标记) of a standard game: each player's private guesses about enemy
//! pieces. A mark belongs to a piece, not a square, so marks are kept by the square the
//! piece was deployed on and the task tracks where every piece has gone since.

use crate::rules::game::Effect;
use crate::rules::{Position, Seat, Square};
use std::collections::BTreeMap;

#[derive(Debug, Clone)]
pub(super) struct Marks {
    /// The deployment square of the piece now on each square.
    origin: [Option<Square>; 60],
    /// Per seat: deployment square → mark.
    by_seat: [BTreeMap<Square, String>; 2],
}

impl Default for Marks {
    fn default() -> Marks {
        Marks {
            origin: [None; 60],
            by_seat: [BTreeMap::new(), BTreeMap::new()],
        }
    }
}

impl Marks {
    /// Every piece at its deployment square, nothing marked yet.
    pub fn start(position: &Position) -> Marks {
        let mut m = Marks::default();
        for (s, _) in position.tokens() {
            m.origin[s.index()] = Some(s);
        }
        m
    }

    /// Moves the pieces' origins along with an accepted action. `after` is the
    /// position the action left.
    pub fn follow(&mut self, effect: &Effect, after: &Position) {
        if let Effect::Moved {
            from, to, mover, ..
        } = *effect
        {
            let moved = self.origin[from.index()].take();
            match after.get(to) {
                Some(t) if t.colour == mover.colour => self.origin[to.index()] = moved,
                Some(_) => {}
                None => self.origin[to.index()] = None,
            }
        }
    }

    pub fn origin_of(&self, at: Square) -> Option<Square> {
        self.origin[at.index()]
    }

    pub fn set(&mut self, seat: Seat, origin: Square, mark: Option<String>) {
        match mark {
            Some(m) => self.by_seat[seat.index()].insert(origin, m),
            None => self.by_seat[seat.index()].remove(&origin),
        };
    }

    pub fn clear(&mut self, seat: Seat) {
        self.by_seat[seat.index()].clear();
    }

    pub fn any(&self, seat: Seat) -> bool {
        !self.by_seat[seat.index()].is_empty()
    }

    /// A seat's marks by the square each marked piece stands on now; marks of pieces
    /// that have left the board are not shown.
    pub fn by_square(&self, seat: Seat) -> BTreeMap<Square, String> {
        let marks = &self.by_seat[seat.index()];
        let mut out = BTreeMap::new();
        for (i, o) in self.origin.iter().enumerate() {
            if let Some(m) = o.and_then(|o| marks.get(&o)) {
                let sq = Square::from_index(i).expect("a board index");
                out.insert(sq, m.clone());
            }
        }
        out
    }
}
