//! Applying an action: checking it, changing the game, and the end checks after
//! every step (RULES §3.3's order).

use crate::rules::board::Square;
use crate::rules::options::ColourRule;
use crate::rules::piece::{Colour, Combat, Piece, Seat, Token, resolve};

use super::repetition::{NO_MOVE, move_code};
use super::{Action, Applied, Effect, EndReason, Game, Outcome, RuleError};

impl Game {
    /// Applies `action` by `seat`. `at_ms` is the time since the start, when known.
    /// On error nothing changes.
    pub fn apply(
        &mut self,
        seat: Seat,
        action: Action,
        at_ms: Option<u64>,
    ) -> Result<Applied, RuleError> {
        if self.outcome.is_some() {
            return Err(RuleError::GameOver);
        }
        if let Some(at) = at_ms
            && at < self.elapsed_ms
        {
            return Err(RuleError::TimeWentBack {
                at_ms: at,
                last_ms: self.elapsed_ms,
            });
        }
        if action.is_step() && seat != self.to_move {
            return Err(RuleError::NotYourTurn);
        }
        let applied = match action {
            Action::Flip(at) => self.flip(seat, at)?,
            Action::Move { from, to } => self.make_move(seat, from, to)?,
            Action::Timeout => self.lose_turn(seat, Effect::TimedOut),
            Action::Pass => {
                if !self.variant.caps().passes {
                    return Err(RuleError::NoPassInVariant);
                }
                self.lose_turn(seat, Effect::Passed)
            }
            Action::OfferDraw => {
                self.check_resign_or_draw_allowed()?;
                if self.open_offer.is_some() {
                    return Err(RuleError::OfferAlreadyOpen);
                }
                if self.draw_offers_left(seat) == Some(0) {
                    return Err(RuleError::NoDrawOffersLeft);
                }
                self.offers_made[seat.index()] += 1;
                self.open_offer = Some(seat);
                self.applied(seat, Effect::DrawOffered)
            }
            Action::AcceptDraw | Action::DeclineDraw => {
                if self.open_offer != Some(seat.other()) {
                    return Err(RuleError::NoOfferToAnswer);
                }
                self.open_offer = None;
                if action == Action::AcceptDraw {
                    self.outcome = Some(Outcome::draw(EndReason::Agreed));
                    self.applied(seat, Effect::DrawAccepted)
                } else {
                    self.applied(seat, Effect::DrawDeclined)
                }
            }
            Action::Resign => {
                self.check_resign_or_draw_allowed()?;
                self.outcome = Some(Outcome::loss(seat, EndReason::Resign));
                self.applied(seat, Effect::Resigned)
            }
            Action::Escape => {
                self.outcome = Some(Outcome::loss(seat, EndReason::Escape));
                self.applied(seat, Effect::Escaped)
            }
        };
        if let Some(at) = at_ms {
            self.elapsed_ms = at;
        }
        let mut applied = applied;
        if action.is_step() {
            self.finish_step(seat, &mut applied);
        } else if self.outcome.is_none() && self.past_time_limit() {
            // The time limit is checked after every action, not only after steps.
            self.outcome = Some(Outcome::draw(EndReason::TimeLimit));
        }
        applied.outcome = self.outcome;
        Ok(applied)
    }

    /// `apply(self.to_move(), action, None)` for a flip or move taken from `legal`,
    /// `legal_into` or `legal_actions` of this very position, without checking again
    /// what listing it established. Self-play's loop; anything else is the caller's
    /// error (debug builds check that `apply` would have accepted it).
    pub fn apply_listed(&mut self, action: Action) -> Applied {
        debug_assert!(
            self.clone().apply(self.to_move, action, None).is_ok(),
            "{action:?} is not a legal action here"
        );
        let seat = self.to_move;
        let mut applied = match action {
            Action::Flip(at) => self.flip(seat, at).expect("a listed flip"),
            Action::Move { from, to } => {
                let mover = self.pos.get(from).expect("a listed move has a piece");
                self.move_piece(seat, from, to, mover)
            }
            _ => panic!("only flips and moves are listed"),
        };
        self.finish_step(seat, &mut applied);
        applied.outcome = self.outcome;
        applied
    }

    /// Ends the game if the time limit has passed with no action (flip chess's three
    /// hours). Returns the outcome when it did.
    pub fn expire(&mut self, now_ms: u64) -> Option<Outcome> {
        if self.outcome.is_some() {
            return None;
        }
        let limit = self.limits().millis_to_draw?;
        if now_ms >= limit {
            self.elapsed_ms = self.elapsed_ms.max(now_ms);
            self.outcome = Some(Outcome::draw(EndReason::TimeLimit));
        }
        self.outcome
    }

    fn applied(&self, seat: Seat, effect: Effect) -> Applied {
        Applied {
            seat,
            effect,
            colours_assigned: None,
            flags_revealed: Vec::new(),
            offer_lapsed: false,
            outcome: None,
        }
    }

    fn check_resign_or_draw_allowed(&self) -> Result<(), RuleError> {
        let needed = self.limits().steps_before_resign_or_draw;
        if self.steps < needed {
            return Err(RuleError::TooEarly {
                needed,
                steps: self.steps,
            });
        }
        Ok(())
    }

    fn flip(&mut self, seat: Seat, at: Square) -> Result<Applied, RuleError> {
        if !self.variant.caps().deals() {
            return Err(RuleError::NoFlipInVariant);
        }
        let t = self.pos.get(at).ok_or(RuleError::EmptySquare(at))?;
        if t.shown {
            return Err(RuleError::NotFaceDown(at));
        }
        let token = self.pos.show(at).expect("piece checked above");
        let mut applied = self.applied(seat, Effect::Flipped { at, token });
        if self.colours.is_none() {
            let takes = match self.options.colour_rule {
                ColourRule::MatchPrevious => self.last_flip == Some(t.colour),
                ColourRule::TwoInARow => self.own_last_flip[seat.index()] == Some(t.colour),
                ColourRule::FirstFlip => true,
            };
            if takes {
                let mut c = [t.colour.other(); 2];
                c[seat.index()] = t.colour;
                self.colours = Some(c);
                applied.colours_assigned = Some(c);
            }
        }
        self.last_flip = Some(t.colour);
        self.own_last_flip[seat.index()] = Some(t.colour);
        Ok(applied)
    }

    fn make_move(&mut self, seat: Seat, from: Square, to: Square) -> Result<Applied, RuleError> {
        let colour = self.colour_of(seat).ok_or(RuleError::ColoursNotAssigned)?;
        let mover = self.pos.get(from).ok_or(RuleError::EmptySquare(from))?;
        if mover.colour != colour {
            return Err(RuleError::NotYourPiece(from));
        }
        if self.variant.caps().deals() && !mover.shown {
            return Err(RuleError::FaceDownPiece(from));
        }
        if !mover.piece.movable() {
            return Err(RuleError::Immovable(from, mover.piece));
        }
        if !self.pos.movers(self.variant.caps(), colour).contains(from) {
            return Err(RuleError::HeadquartersLock(from));
        }
        if !self.pos.reaches(from, to) {
            return Err(RuleError::Unreachable { from, to });
        }
        if let Some(why) =
            self.pos
                .attack_refusal(self.variant.caps(), &self.options, colour.into(), mover, to)
        {
            return Err(RuleError::Attack { from, to, why });
        }
        Ok(self.move_piece(seat, from, to, mover))
    }

    /// The move itself, once it is known to be legal.
    fn move_piece(&mut self, seat: Seat, from: Square, to: Square, mover: Token) -> Applied {
        let target = self.pos.get(to);
        self.pos.take(from);
        let combat = target.map(|d| resolve(mover.piece, d.piece));
        match combat {
            None => self.pos.put(to, mover),
            Some(Combat::AttackerWins) => {
                self.pos.take(to);
                self.pos.put(to, mover);
            }
            Some(Combat::DefenderWins) => {}
            Some(Combat::BothRemoved) => {
                self.pos.take(to);
            }
        }
        let mut applied = self.applied(
            seat,
            Effect::Moved {
                from,
                to,
                mover,
                target,
                combat,
            },
        );
        if self.variant.caps().flag_shown_when_marshal_falls
            && let (Some(d), Some(result)) = (target, combat)
        {
            let mut fallen = Vec::new();
            if result != Combat::AttackerWins && mover.piece == Piece::Marshal {
                fallen.push(mover.colour);
            }
            if result != Combat::DefenderWins && d.piece == Piece::Marshal {
                fallen.push(d.colour);
            }
            for c in fallen {
                if let Some(s) = self.flag_square(c) {
                    self.pos.show(s);
                    applied.flags_revealed.push(s);
                }
            }
        }
        if target.is_some_and(|d| d.piece == Piece::Flag) {
            self.outcome = Some(Outcome::win(seat, EndReason::Flag));
        }
        applied
    }

    fn flag_square(&self, c: Colour) -> Option<Square> {
        self.pos
            .of_colour(c)
            .iter()
            .find(|&s| self.pos.get(s).is_some_and(|t| t.piece == Piece::Flag))
    }

    fn lose_turn(&mut self, seat: Seat, effect: Effect) -> Applied {
        self.timeouts[seat.index()] += 1;
        if self.timeouts[seat.index()] >= self.limits().timeouts_to_lose {
            self.outcome = Some(Outcome::loss(seat, EndReason::Timeouts));
        }
        self.applied(seat, effect)
    }

    /// Bookkeeping common to every step, then the end checks in the order RULES §3.3 gives.
    fn finish_step(&mut self, seat: Seat, applied: &mut Applied) {
        self.steps += 1;
        let (attack, code) = match applied.effect {
            Effect::Moved {
                from, to, target, ..
            } => (target.is_some(), move_code(from, to)),
            _ => (false, NO_MOVE),
        };
        self.quiet = if attack { 0 } else { self.quiet + 1 };
        let i = seat.index();
        let repeated = code != NO_MOVE
            && self.variant.caps().repetition_loses
            && self.recent[i].would_repeat(code);
        self.recent[i].push(code);
        if self.open_offer == Some(seat.other()) {
            self.open_offer = None;
            applied.offer_lapsed = true;
        }
        self.to_move = seat.other();

        if self.outcome.is_none() && repeated {
            self.outcome = Some(Outcome::loss(seat, EndReason::Repetition));
        }
        if self.outcome.is_some() {
            return;
        }
        let limits = self.limits();
        if self.quiet >= limits.quiet_steps_to_draw {
            self.outcome = Some(Outcome::draw(EndReason::NoCaptureLimit));
        } else if limits.steps_to_draw.is_some_and(|n| self.steps >= n) {
            self.outcome = Some(Outcome::draw(EndReason::StepLimit));
        } else if self.past_time_limit() {
            self.outcome = Some(Outcome::draw(EndReason::TimeLimit));
        } else if !self.has_legal_action() {
            self.outcome = Some(if self.colours.is_none() {
                Outcome::draw(EndReason::NoMoves)
            } else {
                Outcome::loss(self.to_move, EndReason::NoMoves)
            });
        }
    }

    fn past_time_limit(&self) -> bool {
        self.limits()
            .millis_to_draw
            .is_some_and(|ms| self.elapsed_ms >= ms)
    }
}
