//! Pieces on a board and the moves they can make (RULES §2, §3.4–§3.7, §4.5, §5.3),
//! for any board (`geometry::Board`): the two-player board and 四国's.
//!
//! The position keeps a few bitmasks beside the cells so that move generation is a
//! handful of word operations per piece; self-play leans on this.

use super::board::{Square, StationKind, TwoPlayer};
use super::geometry::{Army, Board, Each, Geometry, Place, PlaceSet};
use super::options::{Caps, Options};
use super::piece::{Combat, Piece, Token, resolve};
pub use super::side::Side;

mod moves;

/// Why an attack is not allowed. Shown to players, so the wording matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttackRefusal {
    OwnPiece,
    Ally,
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
            AttackRefusal::Ally => "a piece cannot attack an ally's piece",
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

/// A move played: the mover, the piece it met, and how the meeting went.
pub(crate) type Played<A> = (Token<A>, Option<Token<A>>, Option<Combat>);

#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position<B: Board = TwoPlayer> {
    cells: B::Cells,
    occupied: B::Set,
    hidden: B::Set,
    by_colour: Each<B, B::Set>,
    /// Mines and flags of every army: the pieces that never move.
    immobile: B::Set,
    /// Mines of every army, whatever `assume_mines_left` says of their number.
    mine_squares: B::Set,
    /// Engineers, which fly on the rail, and engineers and bombs, which may attack
    /// mines: masks so that move generation need not read each piece.
    engineers: B::Set,
    sappers: B::Set,
    mines: Each<B, u8>,
    /// Stations out of play (三国's empty area, RULES §5.2): counted as occupied, so
    /// that nothing enters or crosses them, but nobody's piece, so never a target.
    closed: B::Set,
}

impl<B: Board> std::fmt::Debug for Position<B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut m = f.debug_map();
        for (s, t) in self.tokens() {
            m.entry(
                &s,
                &format_args!(
                    "{}:{:?}:{}",
                    t.piece,
                    t.colour,
                    if t.shown { "up" } else { "down" }
                ),
            );
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
    /// An empty two-player board.
    pub fn empty() -> Position {
        Position::blank()
    }

    pub fn from_tokens(tokens: impl IntoIterator<Item = (Square, Token)>) -> Position {
        Position::with_tokens(tokens)
    }
}

impl<B: Board> Position<B> {
    /// An empty board of `B`.
    pub fn blank() -> Position<B> {
        Position {
            cells: B::empty_cells(),
            occupied: B::Set::EMPTY,
            hidden: B::Set::EMPTY,
            by_colour: B::Army::each(B::Set::EMPTY),
            immobile: B::Set::EMPTY,
            mine_squares: B::Set::EMPTY,
            engineers: B::Set::EMPTY,
            sappers: B::Set::EMPTY,
            mines: B::Army::each(0),
            closed: B::Set::EMPTY,
        }
    }

    /// Takes `stations` out of play for good; they must be empty.
    pub fn close(&mut self, stations: B::Set) {
        debug_assert!(
            (stations & self.occupied).is_empty(),
            "closing occupied stations"
        );
        self.closed |= stations;
        self.occupied |= stations;
    }

    /// Stations out of play.
    pub fn closed(&self) -> B::Set {
        self.closed
    }

    pub fn with_tokens(
        tokens: impl IntoIterator<Item = (B::Place, Token<B::Army>)>,
    ) -> Position<B> {
        let mut p = Position::blank();
        for (s, t) in tokens {
            p.put(s, t);
        }
        p
    }

    #[inline]
    pub fn get(&self, s: B::Place) -> Option<Token<B::Army>> {
        self.cells.as_ref()[s.index()]
    }

    pub fn tokens(&self) -> impl Iterator<Item = (B::Place, Token<B::Army>)> + '_ {
        self.occupied()
            .places()
            .map(|s| (s, self.get(s).expect("occupied square holds a token")))
    }

    /// Stations that hold a piece.
    pub fn occupied(&self) -> B::Set {
        self.occupied & !self.closed
    }

    /// Pieces nobody may see yet: face down in flip chess, undisclosed in standard.
    pub fn hidden(&self) -> B::Set {
        self.hidden
    }

    pub fn of_colour(&self, c: B::Army) -> B::Set {
        self.by_colour.as_ref()[c.index()]
    }

    /// Mines of an army still on the board, face down ones included.
    pub fn mines_left(&self, c: B::Army) -> u8 {
        self.mines.as_ref()[c.index()]
    }

    /// Sets how many mines of `c` are taken to be on the board, for analysing a
    /// position whose face-down pieces are not all known (only the flag's guard reads
    /// it). Such a position is for asking, not for playing on.
    pub fn assume_mines_left(&mut self, c: B::Army, n: u8) {
        self.mines.as_mut()[c.index()] = n;
    }

    pub fn count(&self, c: B::Army, piece: Piece) -> u8 {
        self.of_colour(c)
            .places()
            .filter(|&s| self.get(s).is_some_and(|t| t.piece == piece))
            .count() as u8
    }

    /// Pieces of an army no longer on the board, the flag never counted (RULES §3.3).
    pub fn lost(&self, c: B::Army) -> u8 {
        let on_board = self.of_colour(c).len() as u8;
        let flag = self.count(c, Piece::Flag);
        24 - (on_board - flag)
    }

    pub(crate) fn put(&mut self, s: B::Place, t: Token<B::Army>) {
        if self.occupied.contains(s) {
            self.take(s);
        }
        self.cells.as_mut()[s.index()] = Some(t);
        self.occupied.insert(s);
        self.by_colour.as_mut()[t.colour.index()].insert(s);
        if !t.shown {
            self.hidden.insert(s);
        }
        if !t.piece.movable() {
            self.immobile.insert(s);
        }
        if t.piece == Piece::Mine {
            self.mine_squares.insert(s);
            self.mines.as_mut()[t.colour.index()] += 1;
        }
        if matches!(t.piece, Piece::Engineer | Piece::Bomb) {
            self.sappers.insert(s);
            if t.piece == Piece::Engineer {
                self.engineers.insert(s);
            }
        }
    }

    pub(crate) fn take(&mut self, s: B::Place) -> Option<Token<B::Army>> {
        let t = self.cells.as_mut()[s.index()].take()?;
        // One word of each set, not all of them: on 四国's four-word sets, clearing
        // through a whole mask cost self-play 62 instructions per action (2,627 against
        // 2,565 in 对家, callgrind).
        self.occupied.remove(s);
        self.hidden.remove(s);
        self.by_colour.as_mut()[t.colour.index()].remove(s);
        self.immobile.remove(s);
        self.mine_squares.remove(s);
        self.engineers.remove(s);
        self.sappers.remove(s);
        if t.piece == Piece::Mine {
            self.mines.as_mut()[t.colour.index()] -= 1;
        }
        Some(t)
    }

    /// Moves the piece on `from` to `to`, a legal move, and settles the meeting with
    /// whatever stood there (RULES §2): the mover, the piece met, and how it went.
    /// Every variant's moves come here.
    #[inline]
    pub(crate) fn play_move(&mut self, from: B::Place, to: B::Place) -> Played<B::Army> {
        let mover = self.get(from).expect("a legal move has a mover");
        let Some(d) = self.get(to) else {
            self.relocate(from, to, mover);
            return (mover, None, None);
        };
        let combat = resolve(mover.piece, d.piece);
        match combat {
            Combat::AttackerWins => {
                self.take(to);
                self.relocate(from, to, mover);
            }
            Combat::DefenderWins => {
                self.take(from);
            }
            Combat::BothRemoved => {
                self.take(from);
                self.take(to);
            }
        }
        (mover, Some(d), Some(combat))
    }

    /// `t`, the piece on `from`, moved to the empty `to`: `take` then `put`, for only
    /// the sets a piece that moves can be in (never a mine's or a flag's). Taking and
    /// putting cost standard self-play 1,542 instructions per action, this 1,4xx.
    #[inline]
    fn relocate(&mut self, from: B::Place, to: B::Place, t: Token<B::Army>) {
        let cells = self.cells.as_mut();
        cells[from.index()] = None;
        cells[to.index()] = Some(t);
        let shift = |set: &mut B::Set| {
            set.remove(from);
            set.insert(to);
        };
        shift(&mut self.occupied);
        shift(&mut self.by_colour.as_mut()[t.colour.index()]);
        if !t.shown {
            shift(&mut self.hidden);
        }
        if matches!(t.piece, Piece::Engineer | Piece::Bomb) {
            shift(&mut self.sappers);
            if t.piece == Piece::Engineer {
                shift(&mut self.engineers);
            }
        }
    }

    pub(crate) fn show(&mut self, s: B::Place) -> Option<Token<B::Army>> {
        let t = self.cells.as_mut()[s.index()].as_mut()?;
        t.shown = true;
        self.hidden.remove(s);
        Some(*t)
    }

    /// Whether `attacker`, moving for `side`, may attack whatever stands on `target`.
    pub fn attack_refusal(
        &self,
        caps: Caps,
        options: &Options,
        side: Side<B::Army>,
        attacker: Token<B::Army>,
        target: B::Place,
    ) -> Option<AttackRefusal> {
        let defender = self.get(target)?;
        if defender.colour == attacker.colour {
            return Some(AttackRefusal::OwnPiece);
        }
        if !side.is_foe(defender.colour) {
            return Some(AttackRefusal::Ally);
        }
        if B::geometry().kind(target) == StationKind::Camp {
            return Some(AttackRefusal::InCamp);
        }
        if !caps.guarded_attacks {
            return None;
        }
        if !defender.shown {
            return Some(AttackRefusal::FaceDown);
        }
        match defender.piece {
            Piece::Mine if !matches!(attacker.piece, Piece::Engineer | Piece::Bomb) => {
                Some(AttackRefusal::MineNeedsEngineerOrBomb)
            }
            Piece::Flag if self.mines_left(defender.colour) > 0 => {
                Some(AttackRefusal::FlagGuardedByMines)
            }
            _ => match (attacker.piece.rank(), defender.piece.rank()) {
                (Some(a), Some(d)) if options.no_suicide && a < d => Some(AttackRefusal::Suicide),
                _ => None,
            },
        }
    }

    /// Pieces of `army` that the rules let move at all, before looking at where.
    #[inline(always)]
    pub(crate) fn movers(&self, caps: Caps, army: B::Army) -> B::Set {
        self.movers_on(B::geometry(), caps, army)
    }

    /// `movers` with the board's tables at hand: fetching them again costs a check of
    /// their one-time initialisation (about 10 instructions per standard action).
    #[inline(always)]
    fn movers_on(&self, tb: &B::Geometry, caps: Caps, army: B::Army) -> B::Set {
        let mut m = self.of_colour(army) & !self.immobile;
        if caps.deals() {
            m &= !self.hidden;
        }
        if caps.headquarters_lock {
            m &= !tb.headquarters();
        }
        m
    }

    /// Every station the piece on `from` could reach if nothing barred attacks: empty
    /// stations and the first occupied station along each path.
    pub fn reach(&self, from: B::Place) -> B::Set {
        match self.get(from) {
            Some(t) => self.reach_of(B::geometry(), from, t.piece),
            None => B::Set::EMPTY,
        }
    }

    /// Whether `to` is in `reach(from)`; a step to a neighbour, the usual case, needs
    /// no slide or flight worked out.
    pub fn reaches(&self, from: B::Place, to: B::Place) -> bool {
        let tb = B::geometry();
        match self.get(from) {
            _ if self.closed.contains(to) => false,
            Some(_) if tb.neighbours(from).contains(to) => true,
            Some(t) => self.reach_of(tb, from, t.piece).contains(to),
            None => false,
        }
    }

    #[inline]
    fn reach_of(&self, tb: &B::Geometry, from: B::Place, piece: Piece) -> B::Set {
        let mut reach = tb.neighbours(from);
        if tb.rail().contains(from) {
            reach |= if piece == Piece::Engineer {
                tb.flight_reach(from, self.occupied)
            } else {
                tb.slide_reach(from, self.occupied)
            };
        }
        reach
    }
}
