//! Pieces on the board and the moves they can make (RULES §2, §3.4–§3.7, §4.5).
//!
//! The position keeps a few bitmasks beside the cells so that move generation is a
//! handful of word operations per piece; self-play leans on this.

use super::board::{SQUARES, Square, SquareSet, StationKind};
use super::options::{Options, Variant};
use super::piece::{Colour, Piece, Token};
use super::tables::{Tables, tables};

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
    /// Mines and flags of both colours: the pieces that never move.
    immobile: u64,
    /// Mines of both colours, whatever `assume_mines_left` says of their number.
    mine_squares: u64,
    /// Engineers, which fly on the rail, and engineers and bombs, which may attack
    /// mines: masks so that move generation need not read each piece.
    engineers: u64,
    sappers: u64,
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
            immobile: 0,
            mine_squares: 0,
            engineers: 0,
            sappers: 0,
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
        if self.occupied & s.bit() != 0 {
            self.take(s);
        }
        self.cells[s.index()] = Some(t);
        self.occupied |= s.bit();
        self.by_colour[t.colour.index()] |= s.bit();
        if !t.shown {
            self.hidden |= s.bit();
        }
        if !t.piece.movable() {
            self.immobile |= s.bit();
        }
        if t.piece == Piece::Mine {
            self.mine_squares |= s.bit();
            self.mines[t.colour.index()] += 1;
        }
        if matches!(t.piece, Piece::Engineer | Piece::Bomb) {
            self.sappers |= s.bit();
            if t.piece == Piece::Engineer {
                self.engineers |= s.bit();
            }
        }
    }

    pub(crate) fn take(&mut self, s: Square) -> Option<Token> {
        let t = self.cells[s.index()].take()?;
        self.occupied &= !s.bit();
        self.hidden &= !s.bit();
        self.by_colour[t.colour.index()] &= !s.bit();
        self.immobile &= !s.bit();
        self.mine_squares &= !s.bit();
        self.engineers &= !s.bit();
        self.sappers &= !s.bit();
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
        if !variant.caps().guarded_attacks {
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
        let mut m = self.by_colour[colour.index()] & !self.immobile;
        if variant.caps().deals() {
            m &= !self.hidden;
        }
        if variant.caps().headquarters_lock {
            m &= !tables().headquarters;
        }
        SquareSet(m)
    }

    /// Every station the piece on `from` could reach if nothing barred attacks: empty
    /// stations and the first occupied station along each path.
    pub fn reach(&self, from: Square) -> SquareSet {
        match self.get(from) {
            Some(t) => SquareSet(self.reach_of(tables(), from, t.piece)),
            None => SquareSet::EMPTY,
        }
    }

    /// Whether `to` is in `reach(from)`; a step to a neighbour, the usual case, needs
    /// no slide or flight worked out.
    pub fn reaches(&self, from: Square, to: Square) -> bool {
        let tb = tables();
        match self.get(from) {
            Some(_) if tb.adjacent[from.index()] & to.bit() != 0 => true,
            Some(t) => self.reach_of(tb, from, t.piece) & to.bit() != 0,
            None => false,
        }
    }

    #[inline]
    fn reach_of(&self, tb: &Tables, from: Square, piece: Piece) -> u64 {
        let mut reach = tb.adjacent[from.index()];
        if tb.rail & from.bit() != 0 {
            reach |= if piece == Piece::Engineer {
                tb.flight_reach(from, self.occupied)
            } else {
                tb.slide_reach(from, self.occupied)
            };
        }
        reach
    }

    /// Destinations of the piece on `from` that are legal moves or attacks.
    pub fn destinations(&self, variant: Variant, options: &Options, from: Square) -> SquareSet {
        match self.get(from) {
            Some(t) => {
                let tb = tables();
                let targets = self.targets(tb, variant, t.colour);
                SquareSet(self.destinations_of(tb, variant, options, from, t, targets))
            }
            None => SquareSet::EMPTY,
        }
    }

    /// What pieces of `colour` may attack, as masks: `attack_refusal` worked out once
    /// for the whole position, so that move generation need not ask square by square.
    /// `no_suicide`, which depends on both ranks, is left to `destinations_of`.
    #[inline]
    fn targets(&self, tb: &Tables, variant: Variant, colour: Colour) -> Targets {
        let enemy = colour.other().index();
        let mut any = self.by_colour[enemy] & !tb.camps;
        if !variant.caps().guarded_attacks {
            return Targets { any, plain: any };
        }
        any &= !self.hidden;
        if self.mines[enemy] > 0 {
            // The flags, guarded while a mine of their colour is on the board.
            any &= !(self.immobile & !self.mine_squares);
        }
        Targets {
            any,
            plain: any & !self.mine_squares,
        }
    }

    #[inline]
    fn destinations_of(
        &self,
        tb: &Tables,
        variant: Variant,
        options: &Options,
        from: Square,
        t: Token,
        targets: Targets,
    ) -> u64 {
        let reach = self.reach_of(tb, from, t.piece);
        let targets = match t.piece {
            Piece::Engineer | Piece::Bomb => targets.any,
            _ => targets.plain,
        };
        let mut to = reach & (!self.occupied | targets);
        if options.no_suicide && variant.caps().guarded_attacks && t.piece.rank().is_some() {
            for target in SquareSet(to & self.occupied).iter() {
                if self.attack_refusal(variant, options, t, target).is_some() {
                    to &= !target.bit();
                }
            }
        }
        to
    }

    /// Calls `out` with every legal move of `colour` as (from, to).
    pub fn for_each_move(
        &self,
        variant: Variant,
        options: &Options,
        colour: Colour,
        mut out: impl FnMut(Square, Square),
    ) {
        self.for_each_mover(variant, options, colour, |from, to| {
            for to in to.iter() {
                out(from, to);
            }
        });
    }

    /// Calls `out` with each piece of `colour` that has a legal move, and where it
    /// may go, in square order.
    #[inline]
    pub fn for_each_mover(
        &self,
        variant: Variant,
        options: &Options,
        colour: Colour,
        mut out: impl FnMut(Square, SquareSet),
    ) {
        // `destinations_of` for every mover, with the pieces read from the masks.
        let tb = tables();
        let targets = self.targets(tb, variant, colour);
        let open = !self.occupied;
        let (allow_any, allow_plain) = (open | targets.any, open | targets.plain);
        let check_suicide = options.no_suicide && variant.caps().guarded_attacks;
        let movers = if check_suicide {
            self.movers(variant, colour).0
        } else {
            self.movers_with_moves(tb, variant, colour, allow_any, allow_plain)
        };
        for from in SquareSet(movers).iter() {
            let (i, bit) = (from.index(), from.bit());
            let mut reach = tb.adjacent[i];
            if tb.rail & bit != 0 {
                reach |= if self.engineers & bit != 0 {
                    tb.flight_reach(from, self.occupied)
                } else {
                    tb.slide_reach(from, self.occupied)
                };
            }
            let allow = if self.sappers & bit != 0 {
                allow_any
            } else {
                allow_plain
            };
            let mut to = reach & allow;
            if check_suicide {
                let t = self.cells[i].expect("a mover stands on its square");
                to = self.destinations_of(tb, variant, options, from, t, targets);
            }
            if to != 0 {
                out(from, SquareSet(to));
            }
        }
    }

    /// The movers of `colour` with at least one move, `no_suicide` aside. A piece that
    /// can go anywhere can go to a neighbour: a slide or flight passes an empty
    /// neighbour first, itself a destination. So a set of neighbours decides it, for
    /// all pieces at once.
    #[inline]
    fn movers_with_moves(
        &self,
        tb: &Tables,
        variant: Variant,
        colour: Colour,
        allow_any: u64,
        allow_plain: u64,
    ) -> u64 {
        let movers = self.movers(variant, colour).0;
        let plain = movers & !self.sappers & tb.next_to(allow_plain);
        let sappers = movers & self.sappers;
        if sappers == 0 {
            return plain;
        }
        plain | (sappers & tb.next_to(allow_any))
    }

    pub fn has_move(&self, variant: Variant, options: &Options, colour: Colour) -> bool {
        let movers = self.movers(variant, colour);
        let tb = tables();
        // A step into an empty neighbour is always legal, and most positions have one.
        if movers.0 & tb.next_to(!self.occupied) != 0 {
            return true;
        }
        let targets = self.targets(tb, variant, colour);
        movers.iter().any(|from| {
            let t = self.cells[from.index()].expect("a mover stands on its square");
            self.destinations_of(tb, variant, options, from, t, targets) != 0
        })
    }
}

/// What one colour's pieces may attack: `any` for engineers and bombs, `plain` for
/// the rest (which may not attack mines in flip chess).
#[derive(Clone, Copy)]
struct Targets {
    any: u64,
    plain: u64,
}
