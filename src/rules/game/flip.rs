//! Flip chess's own game (RULES §3) on the two-player board: face-down pieces that
//! are nobody's until flipped, colours decided by matching flips, the repetition rule,
//! the step and time caps and a limited number of draw offers. Standard 军棋 is not
//! played here but on the shared hidden-piece game (`deployed.rs`).

use crate::rules::board::Square;
use crate::rules::options::{Caps, ColourRule, Limits, Options};
use crate::rules::piece::{Colour, Piece, Seat};
use crate::rules::position::Position;

use super::repetition::{NO_MOVE, RecentMoves, move_code};
use super::{Action, Applied, Effect, EndReason, Outcome, RuleError};

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Flip {
    pub(super) caps: Caps,
    pub(super) limits: Limits,
    pub(super) options: Options,
    pub(super) pos: Position,
    pub(super) to_move: Seat,
    pub(super) colours: Option<[Colour; 2]>,
    pub(super) steps: u32,
    pub(super) quiet: u32,
    pub(super) timeouts: [u8; 2],
    pub(super) offers_made: [u8; 2],
    pub(super) open_offer: Option<Seat>,
    recent: [RecentMoves; 2],
    last_flip: Option<Colour>,
    own_last_flip: [Option<Colour>; 2],
    pub(super) outcome: Option<Outcome>,
}

impl Flip {
    pub(super) fn new(
        caps: Caps,
        limits: Limits,
        options: Options,
        pos: Position,
        to_move: Seat,
        colours: Option<[Colour; 2]>,
    ) -> Flip {
        Flip {
            caps,
            limits,
            options,
            pos,
            to_move,
            colours,
            steps: 0,
            quiet: 0,
            timeouts: [0; 2],
            offers_made: [0; 2],
            open_offer: None,
            recent: [RecentMoves::new(), RecentMoves::new()],
            last_flip: None,
            own_last_flip: [None; 2],
            outcome: None,
        }
    }

    pub(super) fn colour_of(&self, seat: Seat) -> Option<Colour> {
        self.colours.map(|c| c[seat.index()])
    }

    pub(super) fn draw_offers_left(&self, seat: Seat) -> Option<u8> {
        self.limits
            .draw_offers_per_player
            .map(|n| n.saturating_sub(self.offers_made[seat.index()]))
    }

    pub(super) fn would_repeat(&self, seat: Seat, from: Square, to: Square) -> bool {
        self.caps.repetition_loses && self.recent[seat.index()].would_repeat(move_code(from, to))
    }

    /// Whether the seat to move has a flip or a move.
    pub(super) fn has_legal_action(&self) -> bool {
        if !self.pos.hidden().is_empty() {
            return true;
        }
        match self.colour_of(self.to_move) {
            Some(c) => self.pos.has_move(self.caps, &self.options, c.into()),
            None => false,
        }
    }

    /// `seat`'s action, the turn and time checks done by `Game::apply`. A step still
    /// needs `finish_step`.
    pub(super) fn act(&mut self, seat: Seat, action: Action) -> Result<Applied, RuleError> {
        Ok(match action {
            Action::Flip(at) => self.flip(seat, at)?,
            Action::Move { from, to } => self.make_move(seat, from, to)?,
            Action::Timeout => self.lose_turn(seat, Effect::TimedOut),
            Action::Pass => return Err(RuleError::NoPassInVariant),
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
                applied(seat, Effect::DrawOffered)
            }
            Action::AcceptDraw | Action::DeclineDraw => {
                if self.open_offer != Some(seat.other()) {
                    return Err(RuleError::NoOfferToAnswer);
                }
                self.open_offer = None;
                if action == Action::AcceptDraw {
                    self.outcome = Some(Outcome::draw(EndReason::Agreed));
                    applied(seat, Effect::DrawAccepted)
                } else {
                    applied(seat, Effect::DrawDeclined)
                }
            }
            Action::Resign => {
                self.check_resign_or_draw_allowed()?;
                self.outcome = Some(Outcome::loss(seat, EndReason::Resign));
                applied(seat, Effect::Resigned)
            }
            Action::Escape => {
                self.outcome = Some(Outcome::loss(seat, EndReason::Escape));
                applied(seat, Effect::Escaped)
            }
        })
    }

    /// A flip or move listed for the seat to move, without checking it again.
    pub(super) fn act_listed(&mut self, action: Action) -> Applied {
        let seat = self.to_move;
        match action {
            Action::Flip(at) => self.flip(seat, at).expect("a listed flip"),
            Action::Move { from, to } => self.move_piece(seat, from, to),
            _ => panic!("only flips and moves are listed"),
        }
    }

    fn check_resign_or_draw_allowed(&self) -> Result<(), RuleError> {
        let needed = self.limits.steps_before_resign_or_draw;
        if self.steps < needed {
            return Err(RuleError::TooEarly {
                needed,
                steps: self.steps,
            });
        }
        Ok(())
    }

    fn flip(&mut self, seat: Seat, at: Square) -> Result<Applied, RuleError> {
        let t = self.pos.get(at).ok_or(RuleError::EmptySquare(at))?;
        if t.shown {
            return Err(RuleError::NotFaceDown(at));
        }
        let token = self.pos.show(at).expect("piece checked above");
        let mut applied = applied(seat, Effect::Flipped { at, token });
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
        if !mover.shown {
            return Err(RuleError::FaceDownPiece(from));
        }
        if !mover.piece.movable() {
            return Err(RuleError::Immovable(from, mover.piece));
        }
        if !self.pos.movers(self.caps, colour).contains(from) {
            return Err(RuleError::HeadquartersLock(from));
        }
        if !self.pos.reaches(from, to) {
            return Err(RuleError::Unreachable { from, to });
        }
        if let Some(why) =
            self.pos
                .attack_refusal(self.caps, &self.options, colour.into(), mover, to)
        {
            return Err(RuleError::Attack { from, to, why });
        }
        Ok(self.move_piece(seat, from, to))
    }

    /// The move itself, once it is known to be legal.
    fn move_piece(&mut self, seat: Seat, from: Square, to: Square) -> Applied {
        let (mover, target, combat) = self.pos.play_move(from, to);
        if target.is_some_and(|d| d.piece == Piece::Flag) {
            self.outcome = Some(Outcome::win(seat, EndReason::Flag));
        }
        applied(
            seat,
            Effect::Moved {
                from,
                to,
                mover,
                target,
                combat,
            },
        )
    }

    fn lose_turn(&mut self, seat: Seat, effect: Effect) -> Applied {
        self.timeouts[seat.index()] += 1;
        if self.timeouts[seat.index()] >= self.limits.timeouts_to_lose {
            self.outcome = Some(Outcome::loss(seat, EndReason::Timeouts));
        }
        applied(seat, effect)
    }

    /// Bookkeeping common to every step, then the end checks in the order RULES §3.3
    /// gives, the step made `at_ms` into the game.
    pub(super) fn finish_step(&mut self, seat: Seat, applied: &mut Applied, at_ms: u64) {
        self.steps += 1;
        let (attack, code) = match applied.effect {
            Effect::Moved {
                from, to, target, ..
            } => (target.is_some(), move_code(from, to)),
            _ => (false, NO_MOVE),
        };
        self.quiet = if attack { 0 } else { self.quiet + 1 };
        let i = seat.index();
        let repeated =
            code != NO_MOVE && self.caps.repetition_loses && self.recent[i].would_repeat(code);
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
        let limits = self.limits;
        if self.quiet >= limits.quiet_steps_to_draw {
            self.outcome = Some(Outcome::draw(EndReason::NoCaptureLimit));
        } else if limits.steps_to_draw.is_some_and(|n| self.steps >= n) {
            self.outcome = Some(Outcome::draw(EndReason::StepLimit));
        } else if limits.millis_to_draw.is_some_and(|ms| at_ms >= ms) {
            self.outcome = Some(Outcome::draw(EndReason::TimeLimit));
        } else if !self.has_legal_action() {
            self.outcome = Some(if self.colours.is_none() {
                Outcome::draw(EndReason::NoMoves)
            } else {
                Outcome::loss(self.to_move, EndReason::NoMoves)
            });
        }
    }
}

fn applied(seat: Seat, effect: Effect) -> Applied {
    Applied {
        seat,
        effect,
        colours_assigned: None,
        flags_revealed: Vec::new(),
        offer_lapsed: false,
        outcome: None,
    }
}
