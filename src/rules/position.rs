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
        let gone = !B::Set::single(s);
        self.occupied &= gone;
        self.hidden &= gone;
        self.by_colour.as_mut()[t.colour.index()] &= gone;
        self.immobile &= gone;
        self.mine_squares &= gone;
        self.engineers &= gone;
        self.sappers &= gone;
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

    /// Destinations of the piece on `from` that are legal moves or attacks for `side`.
    pub fn destinations(
        &self,
        caps: Caps,
        options: &Options,
        side: Side<B::Army>,
        from: B::Place,
    ) -> B::Set {
        match self.get(from) {
            Some(t) => {
                let tb = B::geometry();
                let targets = self.targets(tb, caps, side);
                self.destinations_of(tb, caps, options, side, from, t, targets)
            }
            None => B::Set::EMPTY,
        }
    }

    /// What pieces of `side` may attack, as masks: `attack_refusal` worked out once
    /// for the whole position, so that move generation need not ask square by square.
    /// `no_suicide`, which depends on both ranks, is left to `destinations_of`.
    #[inline(always)]
    fn targets(&self, tb: &B::Geometry, caps: Caps, side: Side<B::Army>) -> Targets<B::Set> {
        let mut any = self.occupied & !self.of_colour(side.army) & !tb.camps() & !self.closed;
        if side.allies != 0 {
            for &army in B::Army::ALL {
                if side.allies & (1 << army.index()) != 0 {
                    any &= !self.of_colour(army);
                }
            }
        }
        if !caps.guarded_attacks {
            return Targets { any, plain: any };
        }
        any &= !self.hidden;
        // The flags, guarded while a mine of their army is on the board.
        let mut guarded = B::Set::EMPTY;
        match side.only_foe {
            Some(foe) if self.mines_left(foe) > 0 => guarded = self.of_colour(foe),
            Some(_) => {}
            None => {
                for &army in B::Army::ALL {
                    if side.is_foe(army) && self.mines_left(army) > 0 {
                        guarded |= self.of_colour(army);
                    }
                }
            }
        }
        any &= !(guarded & self.immobile & !self.mine_squares);
        Targets {
            any,
            plain: any & !self.mine_squares,
        }
    }

    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn destinations_of(
        &self,
        tb: &B::Geometry,
        caps: Caps,
        options: &Options,
        side: Side<B::Army>,
        from: B::Place,
        t: Token<B::Army>,
        targets: Targets<B::Set>,
    ) -> B::Set {
        let reach = self.reach_of(tb, from, t.piece);
        let targets = match t.piece {
            Piece::Engineer | Piece::Bomb => targets.any,
            _ => targets.plain,
        };
        let mut to = reach & (!self.occupied | targets);
        if options.no_suicide && caps.guarded_attacks && t.piece.rank().is_some() {
            for target in (to & self.occupied).places() {
                if self
                    .attack_refusal(caps, options, side, t, target)
                    .is_some()
                {
                    to.remove(target);
                }
            }
        }
        to
    }

    /// Calls `out` with every legal move of `side` as (from, to).
    pub fn for_each_move(
        &self,
        caps: Caps,
        options: &Options,
        side: Side<B::Army>,
        mut out: impl FnMut(B::Place, B::Place),
    ) {
        self.for_each_mover(caps, options, side, |from, to| {
            for to in to.places() {
                out(from, to);
            }
        });
    }

    /// Calls `out` with each piece of `side` that has a legal move, and where it may
    /// go, in station order.
    #[inline]
    pub fn for_each_mover(
        &self,
        caps: Caps,
        options: &Options,
        side: Side<B::Army>,
        mut out: impl FnMut(B::Place, B::Set),
    ) {
        // `destinations_of` for every mover, with the pieces read from the masks.
        let tb = B::geometry();
        let targets = self.targets(tb, caps, side);
        let open = !self.occupied;
        let (allow_any, allow_plain) = (open | targets.any, open | targets.plain);
        let check_suicide = options.no_suicide && caps.guarded_attacks;
        // Where `next_to` is a loop over the movers (四国), sifting them first walks
        // them twice: each mover's neighbours are tested as it comes instead. This and
        // `any_next_to` in `has_move`: 四国 self-play 3,875 → 3,599 instructions per
        // action (callgrind), nearly all of it in `has_move`.
        let sift = B::Geometry::NEXT_TO_BY_SHIFTS && !check_suicide;
        let movers = if sift {
            self.movers_with_moves(tb, caps, side.army, allow_any, allow_plain)
        } else {
            self.movers_on(tb, caps, side.army)
        };
        let rail = tb.rail();
        for from in movers.places() {
            // The station's bit, worked out once for four sets.
            let here = B::Set::probe(from);
            let allow_of = |here| {
                if self.sappers.hits(here) {
                    allow_any
                } else {
                    allow_plain
                }
            };
            let mut reach = tb.neighbours(from);
            // No move to a neighbour, no move at all (see `movers_with_moves`).
            let early = (!B::Geometry::NEXT_TO_BY_SHIFTS).then(|| allow_of(here));
            if early.is_some_and(|allow| (reach & allow).is_empty()) {
                continue;
            }
            if rail.hits(here) {
                reach |= if self.engineers.hits(here) {
                    tb.flight_reach(from, self.occupied)
                } else {
                    tb.slide_reach(from, self.occupied)
                };
            }
            // On the two-player board worked out only here: above, it cost standard
            // self-play 16 instructions per action more (register pressure, callgrind).
            let mut to = reach & early.unwrap_or_else(|| allow_of(here));
            if check_suicide {
                let t = self.get(from).expect("a mover stands on its square");
                to = self.destinations_of(tb, caps, options, side, from, t, targets);
            }
            if !to.is_empty() {
                out(from, to);
            }
        }
    }

    /// The movers of `army` with at least one move, `no_suicide` aside. A piece that
    /// can go anywhere can go to a neighbour: a slide or flight passes an empty
    /// neighbour first, itself a destination. So a set of neighbours decides it, for
    /// all pieces at once.
    #[inline(always)]
    fn movers_with_moves(
        &self,
        tb: &B::Geometry,
        caps: Caps,
        army: B::Army,
        allow_any: B::Set,
        allow_plain: B::Set,
    ) -> B::Set {
        let movers = self.movers_on(tb, caps, army);
        let plain = tb.next_to(movers & !self.sappers, allow_plain);
        let sappers = movers & self.sappers;
        if sappers.is_empty() {
            return plain;
        }
        plain | tb.next_to(sappers, allow_any)
    }

    #[inline]
    pub fn has_move(&self, caps: Caps, options: &Options, side: Side<B::Army>) -> bool {
        let tb = B::geometry();
        let movers = self.movers_on(tb, caps, side.army);
        // A step into an empty neighbour is always legal, and most positions have one.
        if tb.any_next_to(movers, !self.occupied) {
            return true;
        }
        let targets = self.targets(tb, caps, side);
        movers.places().any(|from| {
            let t = self.get(from).expect("a mover stands on its square");
            !self
                .destinations_of(tb, caps, options, side, from, t, targets)
                .is_empty()
        })
    }
}

/// What one side's pieces may attack: `any` for engineers and bombs, `plain` for the
/// rest (which may not attack mines in flip chess).
#[derive(Clone, Copy)]
struct Targets<S> {
    any: S,
    plain: S,
}
