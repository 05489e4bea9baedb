//! Draw offers and votes (RULES §5.4.4) and the ends when only 托管 seats are left
//! (§5.5.3).
//!
//! Voters are the seats in play and not in 托管, the offerer aside; defeated and 托管
//! seats count as agreeing (§5.9 point 10). An offer lapses when an addressee declines
//! or takes a step without having agreed. 四国 allows one offer per own step; standard
//! 军棋 any number (its capabilities say which).

use super::step::{Applied, Step, StepError};
use super::{Ending, HiddenGame};
use crate::rules::geometry::{Army, Board};

impl<B: Board> HiddenGame<B> {
    /// The open draw offer's maker, if any.
    pub fn draw_offer(&self) -> Option<B::Army> {
        self.draw_offer.map(|(by, _)| by)
    }

    /// Whether `seat` has agreed to the open offer (its maker has).
    pub fn has_agreed(&self, seat: B::Army) -> bool {
        self.draw_offer
            .is_some_and(|(by, agreed)| by == seat || agreed & (1 << seat.index()) != 0)
    }

    pub fn in_tuoguan(&self, seat: B::Army) -> bool {
        self.tuoguan.as_ref()[seat.index()].is_some()
    }

    /// Whether `seat`'s answer is needed for the open offer to pass.
    pub fn votes(&self, seat: B::Army) -> bool {
        self.draw_offer.is_some_and(|(by, _)| by != seat)
            && self.is_in_play(seat)
            && !self.in_tuoguan(seat)
    }

    /// Whether `seat` may offer a draw now (the 40-step gate, no offer open, and where
    /// the variant says so one offer per own step).
    pub fn may_offer_draw(&self, seat: B::Army) -> bool {
        self.ending.is_none()
            && self.is_in_play(seat)
            && self.steps >= self.limits.steps_before_resign_or_draw
            && self.draw_offer.is_none()
            && !(self.caps.draw_offer_once_per_own_step && self.offered.as_ref()[seat.index()])
    }

    pub(super) fn draw_action(
        &mut self,
        seat: B::Army,
        step: Step<B::Place>,
        applied: &mut Applied<B>,
    ) -> Result<(), StepError<B::Place>> {
        match step {
            Step::OfferDraw => {
                let needed = self.limits.steps_before_resign_or_draw;
                if self.steps < needed {
                    return Err(StepError::TooEarly {
                        needed,
                        steps: self.steps,
                    });
                }
                if self.draw_offer.is_some() {
                    return Err(StepError::OfferAlreadyOpen);
                }
                if self.caps.draw_offer_once_per_own_step && self.offered.as_ref()[seat.index()] {
                    return Err(StepError::OfferedSinceOwnStep);
                }
                self.offered.as_mut()[seat.index()] = true;
                self.draw_offer = Some((seat, 0));
            }
            Step::AcceptDraw | Step::DeclineDraw => {
                if !self.votes(seat) || self.has_agreed(seat) {
                    return Err(StepError::NoOfferToAnswer);
                }
                if step == Step::DeclineDraw {
                    self.draw_offer = None;
                    applied.offer_lapsed = true;
                    return Ok(());
                }
                if let Some((_, agreed)) = &mut self.draw_offer {
                    *agreed |= 1 << seat.index();
                }
            }
            _ => unreachable!("only the draw's actions come here"),
        }
        self.recheck_draw();
        Ok(())
    }

    /// Ends the game in a draw when every voter has agreed.
    pub(super) fn recheck_draw(&mut self) {
        if self.ending.is_some() || self.draw_offer.is_none() {
            return;
        }
        let all_agreed = B::Army::ALL
            .iter()
            .all(|&s| !self.votes(s) || self.has_agreed(s));
        if all_agreed {
            self.draw_offer = None;
            self.ending = Some(Ending::AgreedDraw);
        }
    }

    /// An addressee that steps without having agreed lets the offer lapse.
    pub(super) fn lapse_if_addressee(&mut self, seat: B::Army, applied: &mut Applied<B>) {
        if self.votes(seat) && !self.has_agreed(seat) {
            self.draw_offer = None;
            applied.offer_lapsed = true;
        }
    }
}
