//! Applying an action to a hidden-piece game, and the checks after it in the order
//! RULES §5.4.3 gives.

use super::{Ending, HiddenGame};
use crate::rules::geometry::{Army, Board, PlaceSet};
use crate::rules::piece::{Combat, Piece, Token};
use crate::rules::position::AttackRefusal;
use std::fmt;

/// What a seat does. Moves, passes and timeouts are steps (§5.2: one turn of one
/// seat); resigning and the draw's offers and answers are not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Step<P> {
    Move { from: P, to: P },
    Pass,
    Timeout,
    Resign,
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
}

impl<P> Step<P> {
    pub fn is_step(&self) -> bool {
        matches!(self, Step::Move { .. } | Step::Pass | Step::Timeout)
    }
}

/// Why a seat left play (RULES §5.4.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Defeat {
    FlagTaken,
    NoMoves,
    Timeouts,
    Resigned,
    /// Left or stayed away with no ally playing on (§5.5.1).
    Escaped,
}

/// Why an action was refused. Nothing changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepError<P> {
    GameOver,
    NotInPlay,
    NotYourTurn,
    NoPassInVariant,
    EmptyStation(P),
    NotYourPiece(P),
    Immovable(P),
    HeadquartersLock(P),
    Unreachable { from: P, to: P },
    Attack { to: P, why: AttackRefusal },
    TooEarly { needed: u32, steps: u32 },
    OfferAlreadyOpen,
    OfferedSinceOwnStep,
    NoOfferToAnswer,
}

impl<P: fmt::Display> fmt::Display for StepError<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StepError::GameOver => write!(f, "the game is over"),
            StepError::NotInPlay => write!(f, "this seat is not in play"),
            StepError::NotYourTurn => write!(f, "it is not this seat's turn"),
            StepError::NoPassInVariant => write!(f, "this variant has no pass"),
            StepError::EmptyStation(p) => write!(f, "{p} is empty"),
            StepError::NotYourPiece(p) => write!(f, "the piece on {p} is not this seat's"),
            StepError::Immovable(p) => write!(f, "the piece on {p} never moves"),
            StepError::HeadquartersLock(p) => {
                write!(
                    f,
                    "the piece on {p} is in a headquarters and never moves again"
                )
            }
            StepError::Unreachable { from, to } => write!(f, "{from} cannot reach {to}"),
            StepError::Attack { to, why } => write!(f, "{to}: {}", why.message()),
            StepError::TooEarly { needed, steps } => {
                write!(f, "not before {needed} steps ({steps} played)")
            }
            StepError::OfferAlreadyOpen => write!(f, "a draw offer is already open"),
            StepError::OfferedSinceOwnStep => {
                write!(f, "one draw offer per own step: take a step first")
            }
            StepError::NoOfferToAnswer => write!(f, "no draw offer awaits this seat's answer"),
        }
    }
}

/// What an accepted action did, with full identities: callers cut it per viewer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied<B: Board> {
    pub seat: B::Army,
    pub step: Step<B::Place>,
    /// For a move: the piece that moved, what stood on its destination, and how the
    /// meeting went.
    pub mover: Option<Token<B::Army>>,
    pub target: Option<Token<B::Army>>,
    pub combat: Option<Combat>,
    /// Flags shown because their seat's last marshal fell (§5.3).
    pub flags_shown: Vec<B::Place>,
    /// Seats defeated by this action, in the order the checks found them; their
    /// pieces left the board unrevealed, from the stations listed.
    pub defeated: Vec<(B::Army, Defeat, Vec<B::Place>)>,
    /// The pieces those defeats took off the board, with their identities.
    pub cleared: Vec<(B::Place, Token<B::Army>)>,
    /// The open draw offer lapsed: an addressee declined or stepped without agreeing.
    pub offer_lapsed: bool,
    pub ending: Option<Ending>,
}

impl<B: Board> Applied<B> {
    pub(super) fn new(seat: B::Army, step: Step<B::Place>) -> Applied<B> {
        Applied {
            seat,
            step,
            mover: None,
            target: None,
            combat: None,
            flags_shown: Vec::new(),
            defeated: Vec::new(),
            cleared: Vec::new(),
            offer_lapsed: false,
            ending: None,
        }
    }
}

impl<B: Board> HiddenGame<B> {
    /// Applies `step` by `seat`. On error nothing changes.
    pub fn apply(
        &mut self,
        seat: B::Army,
        step: Step<B::Place>,
    ) -> Result<Applied<B>, StepError<B::Place>> {
        if self.ending.is_some() {
            return Err(StepError::GameOver);
        }
        if !self.is_in_play(seat) {
            return Err(StepError::NotInPlay);
        }
        let mut applied = Applied::new(seat, step);
        if matches!(step, Step::OfferDraw | Step::AcceptDraw | Step::DeclineDraw) {
            self.draw_action(seat, step, &mut applied)?;
            applied.ending = self.ending;
            return Ok(applied);
        }
        if step == Step::Resign {
            let needed = self.limits.steps_before_resign_or_draw;
            if self.steps < needed {
                return Err(StepError::TooEarly {
                    needed,
                    steps: self.steps,
                });
            }
            self.defeat_seat(seat, Defeat::Resigned, &mut applied);
            self.after_leaving_play(seat, &mut applied);
            return Ok(applied);
        }
        if seat != self.to_move {
            return Err(StepError::NotYourTurn);
        }
        match step {
            Step::Move { from, to } => {
                self.check_move(seat, from, to)?;
                self.move_piece(from, to, &mut applied);
            }
            Step::Pass if !self.caps.passes => return Err(StepError::NoPassInVariant),
            Step::Pass | Step::Timeout => {
                self.quiet += 1;
                let t = &mut self.timeouts.as_mut()[seat.index()];
                *t += 1;
                if *t >= self.limits.timeouts_to_lose {
                    self.defeat_seat(seat, Defeat::Timeouts, &mut applied);
                }
            }
            Step::Resign | Step::OfferDraw | Step::AcceptDraw | Step::DeclineDraw => {
                unreachable!("handled above")
            }
        }
        self.finish_step(seat, &mut applied);
        Ok(applied)
    }

    /// `apply(self.to_move(), Step::Move { from, to })` for a move taken from
    /// `for_each_move` or `for_each_mover` of this very position, without checking it
    /// again: self-play's loop (debug builds check that `apply` would accept it).
    pub fn apply_listed(&mut self, from: B::Place, to: B::Place) -> Applied<B> {
        let seat = self.to_move;
        debug_assert!(
            self.check_move(seat, from, to).is_ok() && self.ending.is_none(),
            "{from:?}-{to:?} is not a listed move"
        );
        let mut applied = Applied::new(seat, Step::Move { from, to });
        self.move_piece(from, to, &mut applied);
        self.finish_step(seat, &mut applied);
        applied
    }

    /// The checks after every step, in §5.4.3's order from (2) on.
    fn finish_step(&mut self, seat: B::Army, applied: &mut Applied<B>) {
        self.steps += 1;
        self.offered.as_mut()[seat.index()] = false;
        self.lapse_if_addressee(seat, applied);
        // (2) one alliance left, (3) the quiet steps, (4) the next seat's moves.
        if !self.one_alliance_left() {
            if self.quiet >= self.limits.quiet_steps_to_draw {
                self.ending = Some(Ending::QuietDraw);
            } else {
                self.pass_turn(seat, applied);
            }
        }
        if self.ending.is_none() {
            // A defeat may have left every remaining voter agreed.
            self.recheck_draw();
        }
        applied.ending = self.ending;
    }

    fn check_move(
        &self,
        seat: B::Army,
        from: B::Place,
        to: B::Place,
    ) -> Result<(), StepError<B::Place>> {
        let mover = self.pos.get(from).ok_or(StepError::EmptyStation(from))?;
        if mover.colour != seat {
            return Err(StepError::NotYourPiece(from));
        }
        if !mover.piece.movable() {
            return Err(StepError::Immovable(from));
        }
        if !self.pos.movers(self.caps, seat).contains(from) {
            return Err(StepError::HeadquartersLock(from));
        }
        if !self.pos.reaches(from, to) {
            return Err(StepError::Unreachable { from, to });
        }
        let side = self.side(seat);
        match self
            .pos
            .attack_refusal(self.caps, &self.options, side, mover, to)
        {
            Some(why) => Err(StepError::Attack { to, why }),
            None => Ok(()),
        }
    }

    /// A legal move, and (1) what it decides: a flag taken defeats its seat.
    fn move_piece(&mut self, from: B::Place, to: B::Place, applied: &mut Applied<B>) {
        let (mover, target, combat) = self.pos.play_move(from, to);
        (applied.mover, applied.target, applied.combat) = (Some(mover), target, combat);
        let Some(d) = target else {
            self.quiet += 1;
            return;
        };
        self.quiet = 0;
        if self.caps.flag_shown_when_marshal_falls {
            // Only when the seat's last marshal is gone, and then every flag it holds:
            // a 乱战 hand may hold several of each, or none (§5.3, §5.9 point 17).
            for fallen in [mover, d] {
                if fallen.piece == Piece::Marshal
                    && self.pos.count(fallen.colour, Piece::Marshal) == 0
                {
                    let flags: Vec<B::Place> = self.flags(fallen.colour).collect();
                    for &f in &flags {
                        if !self.pos.get(f).is_some_and(|t| t.shown) {
                            self.pos.show(f);
                            applied.flags_shown.push(f);
                        }
                    }
                }
            }
        }
        // Any flag: a seat dealt two falls with either, one dealt none never this way.
        if d.piece == Piece::Flag {
            self.defeat_seat(d.colour, Defeat::FlagTaken, applied);
        }
    }

    /// Takes a seat out of play: its pieces leave the board (§5.4.2) and the quiet
    /// count starts again.
    pub(super) fn defeat_seat(&mut self, seat: B::Army, why: Defeat, applied: &mut Applied<B>) {
        let left: Vec<B::Place> = self.pos.of_colour(seat).places().collect();
        for &s in &left {
            if let Some(t) = self.pos.take(s) {
                applied.cleared.push((s, t));
            }
        }
        self.in_play.as_mut()[seat.index()] = false;
        self.defeats.as_mut()[seat.index()] = Some(why);
        // An offer goes with its maker.
        if self.draw_offer.is_some_and(|(by, _)| by == seat) {
            self.draw_offer = None;
            applied.offer_lapsed = true;
        }
        self.quiet = 0;
        applied.defeated.push((seat, why, left));
    }

    /// Puts back the pieces that the action which ended the game took off with its
    /// defeats (`Applied::cleared`), so that the final position shows the last army
    /// defeated as it stood. Nothing plays on to need the stations clear; two-player
    /// games show both armies at the end. Does nothing while the game goes on.
    pub fn restore_cleared(&mut self, cleared: &[(B::Place, Token<B::Army>)]) {
        if self.ending.is_some() {
            for &(s, t) in cleared {
                self.pos.put(s, t);
            }
        }
    }

    /// After `seat` left play outside its own step (resigned, escaped): the checks from
    /// (2), the turn passed on if it was `seat`'s.
    pub(super) fn after_leaving_play(&mut self, seat: B::Army, applied: &mut Applied<B>) {
        if !self.one_alliance_left() && seat == self.to_move {
            self.pass_turn(seat, applied);
        }
        self.recheck_draw();
        applied.ending = self.ending;
    }

    /// (2): when every seat in play is of one alliance, it wins.
    fn one_alliance_left(&mut self) -> bool {
        let all = B::Army::ALL;
        let Some(&first) = all.iter().find(|&&s| self.is_in_play(s)) else {
            return false;
        };
        if all
            .iter()
            .any(|&s| self.is_in_play(s) && !self.allied(first, s))
        {
            return false;
        }
        let winners = all
            .iter()
            .filter(|&&s| self.allied(first, s))
            .fold(0u8, |m, s| m | 1 << s.index());
        self.ending = Some(Ending::Won { winners });
        true
    }

    /// (4): the turn goes to the next seat in play; one with no move is defeated and
    /// the checks go on from (2) with the seat after it. The common case (the next
    /// seat can move) is inlined and the defeats kept out of line: a call that had to
    /// save the registers for the loop cost standard self-play 25 instructions a step.
    #[inline]
    fn pass_turn(&mut self, seat: B::Army, applied: &mut Applied<B>) {
        let next = self.next_in_play(seat);
        if self.has_move(next) {
            self.to_move = next;
        } else {
            self.defeat_the_stuck(next, applied);
        }
    }

    #[cold]
    #[inline(never)]
    fn defeat_the_stuck(&mut self, mut next: B::Army, applied: &mut Applied<B>) {
        loop {
            self.defeat_seat(next, Defeat::NoMoves, applied);
            if self.one_alliance_left() {
                return;
            }
            self.recheck_draw();
            if self.ending.is_some() {
                return;
            }
            next = self.next_in_play(next);
            if self.has_move(next) {
                self.to_move = next;
                return;
            }
        }
    }
}
