//! Pieces on the board and the moves they can make (RULES §2, §3.4–§3.7, §4.5).
//!
//! The position keeps a few bitmasks beside the cells so that move generation is a
//! handful of word operations per piece; self-play leans on this.

use super::board::{SQUARES, Square, SquareSet, StationKind, tables};
use super::options::{Options, Variant};
use super::piece::{Colour, Piece, Token};

/// Why an attack is not allowed. Shown to players, so the wording matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttackRefusal {
    OwnPiece,
    FaceDown,
    InCamp,
    MineNeedsEngineerOrBomb,
    FlagGuardedByMines,
    Suicide,
}

impl AttackRefusal {
    pub fn message(self) -> &'static str {
        match self {
            AttackRefusal::OwnPiece => "a piece cannot attack a piece of its own colour",
            AttackRefusal::FaceDown => "a face-down piece cannot be attacked",
            AttackRefusal::InCamp => "a piece in a camp cannot be attacked",
            AttackRefusal::MineNeedsEngineerOrBomb => {
                "only an engineer or a bomb may attack a mine"
            }
            AttackRefusal::FlagGuardedByMines => {
                "the flag cannot be attacked while any mine of its colour is on the board"
            }
            AttackRefusal::Suicide => {
                "no_suicide is on: a piece may not attack a higher-ranked one"
            }
        }
    }
}

#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position {
    cells: [Option<Token>; SQUARES],
    occupied: u64,
    hidden: u64,
    by_colour: [u64; 2],
    mines: [u8; 2],
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut m = f.debug_map();
        for s in Square::all() {
            if let Some(t) = self.cells[s.index()] {
                m.entry(
                    &s,
                    &format_args!(
                        "{}:{}:{}",
                        t.piece,
                        t.colour,
                        if t.shown { "up" } else { "down" }
                    ),
                );
            }
        }
        m.finish()
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::empty()
    }
}

impl Position {
    pub fn empty() -> Position {
        Position {
            cells: [None; SQUARES],
            occupied: 0,
            hidden: 0,
            by_colour: [0; 2],
            mines: [0; 2],
        }
    }

    pub fn from_tokens(tokens: impl IntoIterator<Item = (Square, Token)>) -> Position {
        let mut p = Position::empty();
        for (s, t) in tokens {
            p.put(s, t);
        }
        p
    }

    pub fn get(&self, s: Square) -> Option<Token> {
        self.cells[s.index()]
    }

    pub fn tokens(&self) -> impl Iterator<Item = (Square, Token)> + '_ {
        SquareSet(self.occupied).iter().map(|s| {
            (
                s,
                self.cells[s.index()].expect("occupied square holds a token"),
            )
        })
    }

    pub fn occupied(&self) -> SquareSet {
        SquareSet(self.occupied)
    }

    /// Pieces nobody may see yet: face down in flip chess, undisclosed in standard.
    pub fn hidden(&self) -> SquareSet {
        SquareSet(self.hidden)
    }

    pub fn of_colour(&self, c: Colour) -> SquareSet {
        SquareSet(self.by_colour[c.index()])
    }

    /// Mines of a colour still on the board, face down ones included.
    pub fn mines_left(&self, c: Colour) -> u8 {
        self.mines[c.index()]
    }

    /// Sets how many mines of `c` are taken to be on the board, for analysing a
    /// position whose face-down pieces are not all known (only the flag's guard reads
    /// it). Such a position is for asking, not for playing on.
    pub fn assume_mines_left(&mut self, c: Colour, n: u8) {
        self.mines[c.index()] = n;
    }

    pub fn count(&self, c: Colour, piece: Piece) -> u8 {
        self.of_colour(c)
            .iter()
            .filter(|&s| self.cells[s.index()].is_some_and(|t| t.piece == piece))
            .count() as u8
    }

    /// Pieces of a colour no longer on the board, the flag never counted (RULES §3.3).
    pub fn lost(&self, c: Colour) -> u8 {
        let on_board = self.of_colour(c).len() as u8;
        let flag = self.count(c, Piece::Flag);
        24 - (on_board - flag)
    }

    pub(crate) fn put(&mut self, s: Square, t: Token) {
        self.take(s);
        self.cells[s.index()] = Some(t);
        self.occupied |= s.bit();
        self.by_colour[t.colour.index()] |= s.bit();
        if !t.shown {
            self.hidden |= s.bit();
        }
        if t.piece == Piece::Mine {
            self.mines[t.colour.index()] += 1;
        }
    }

    pub(crate) fn take(&mut self, s: Square) -> Option<Token> {
        let t = self.cells[s.index()].take()?;
        self.occupied &= !s.bit();
        self.hidden &= !s.bit();
        self.by_colour[t.colour.index()] &= !s.bit();
        if t.piece == Piece::Mine {
            self.mines[t.colour.index()] -= 1;
        }
        Some(t)
    }

    pub(crate) fn show(&mut self, s: Square) -> Option<Token> {
        let t = self.cells[s.index()].as_mut()?;
        t.shown = true;
        self.hidden &= !s.bit();
        Some(*t)
    }

    /// Whether `attacker` may attack whatever stands on `target`, in `variant`.
    pub fn attack_refusal(
        &self,
        variant: Variant,
        options: &Options,
        attacker: Token,
        target: Square,
    ) -> Option<AttackRefusal> {
        let defender = self.get(target)?;
        if defender.colour == attacker.colour {
            return Some(AttackRefusal::OwnPiece);
        }
        if target.kind() == StationKind::Camp {
            return Some(AttackRefusal::InCamp);
        }
        if variant == Variant::Standard {
            return None;
        }
        if !defender.shown {
            return Some(AttackRefusal::FaceDown);
        }
        match defender.piece {
            Piece::Mine if !matches!(attacker.piece, Piece::Engineer | Piece::Bomb) => {
                Some(AttackRefusal::MineNeedsEngineerOrBomb)
            }
            Piece::Flag if self.mines[defender.colour.index()] > 0 => {
                Some(AttackRefusal::FlagGuardedByMines)
            }
            _ => match (attacker.piece.rank(), defender.piece.rank()) {
                (Some(a), Some(d)) if options.no_suicide && a < d => Some(AttackRefusal::Suicide),
                _ => None,
            },
        }
    }

    /// Pieces of `colour` that the rules let move at all, before looking at where.
    pub(crate) fn movers(&self, variant: Variant, colour: Colour) -> SquareSet {
        let mut m = self.by_colour[colour.index()];
        if variant == Variant::Flip {
            m &= !self.hidden;
        }
        if variant.limits().headquarters_lock {
            m &= !HEADQUARTERS;
        }
        let mut out = SquareSet(m);
        for s in SquareSet(m).iter() {
            if !self.cells[s.index()].is_some_and(|t| t.piece.movable()) {
                out.remove(s);
            }
        }
        out
    }

    /// Every station the piece on `from` could reach if nothing barred attacks: empty
    /// stations and the first occupied station along each path.
    pub fn reach(&self, from: Square) -> SquareSet {
        let Some(t) = self.get(from) else {
            return SquareSet::EMPTY;
        };
        let tb = tables();
        let mut reach = tb.adjacent[from.index()];
        if tb.kind[from.index()] == StationKind::Rail {
            if t.piece == Piece::Engineer {
                reach |= self.flight(from);
            } else {
                for ray in tb.rays(from) {
                    for &s in ray {
                        reach |= s.bit();
                        if self.occupied & s.bit() != 0 {
                            break;
                        }
                    }
                }
            }
        }
        SquareSet(reach)
    }

    /// Rail stations an engineer on `from` reaches, turning freely, through empty stations.
    fn flight(&self, from: Square) -> u64 {
        let tb = tables();
        let empty = !self.occupied;
        let mut visited = from.bit();
        let mut frontier = tb.rail_adjacent[from.index()];
        let mut reached = 0u64;
        loop {
            let new = frontier & !visited;
            if new == 0 {
                return reached;
            }
            visited |= new;
            reached |= new;
            frontier = 0;
            for s in SquareSet(new & empty).iter() {
                frontier |= tb.rail_adjacent[s.index()];
            }
        }
    }

    /// Destinations of the piece on `from` that are legal moves or attacks.
    pub fn destinations(&self, variant: Variant, options: &Options, from: Square) -> SquareSet {
        let Some(t) = self.get(from) else {
            return SquareSet::EMPTY;
        };
        let reach = self.reach(from);
        let mut out = SquareSet(reach.0 & !self.occupied);
        for target in SquareSet(reach.0 & self.occupied).iter() {
            if self.attack_refusal(variant, options, t, target).is_none() {
                out.insert(target);
            }
        }
        out
    }

    /// Calls `out` with every legal move of `colour` as (from, to).
    pub fn for_each_move(
        &self,
        variant: Variant,
        options: &Options,
        colour: Colour,
        mut out: impl FnMut(Square, Square),
    ) {
        for from in self.movers(variant, colour).iter() {
            for to in self.destinations(variant, options, from).iter() {
                out(from, to);
            }
        }
    }

    pub fn has_move(&self, variant: Variant, options: &Options, colour: Colour) -> bool {
        self.movers(variant, colour)
            .iter()
            .any(|from| !self.destinations(variant, options, from).is_empty())
    }
}

const fn headquarters_mask() -> u64 {
    // b1 d1 b12 d12
    (1u64 << 1) | (1u64 << 3) | (1u64 << 56) | (1u64 << 58)
}

const HEADQUARTERS: u64 = headquarters_mask();
