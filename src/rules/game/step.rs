//! Applying an action: what every variant checks first (the game over, time going
//! back, whose turn), then the variant's rules, then the time limit.

use crate::rules::piece::Seat;

use super::{Action, Applied, EndReason, Game, Outcome, Play, RuleError, deployed};

impl Game {
    /// Applies `action` by `seat`. `at_ms` is the time since the start, when known.
    /// On error nothing changes.
    pub fn apply(
        &mut self,
        seat: Seat,
        action: Action,
        at_ms: Option<u64>,
    ) -> Result<Applied, RuleError> {
        if self.is_over() {
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
        let at = at_ms.unwrap_or(self.elapsed_ms);
        let applied = self.act(seat, action, at)?;
        // Only once the action stands: a refused one changes nothing.
        self.elapsed_ms = at;
        Ok(self.finish(seat, action, applied))
    }

    /// The variant's rules for `action`, steps finished, with the time at `at_ms`.
    fn act(&mut self, seat: Seat, action: Action, at_ms: u64) -> Result<Applied, RuleError> {
        match &mut self.play {
            Play::Flip(f) => {
                let mut applied = f.act(seat, action)?;
                if action.is_step() {
                    f.finish_step(seat, &mut applied, at_ms);
                }
                Ok(applied)
            }
            Play::Deployed(h) => deployed::act(h, seat, action),
        }
    }

    /// After an accepted action: whose turn it is, and the time limit, which is
    /// checked after every action, not only after steps.
    fn finish(&mut self, seat: Seat, action: Action, mut applied: Applied) -> Applied {
        self.after(seat, action);
        if !self.is_over() && self.past_time_limit(self.elapsed_ms) {
            if let Play::Flip(f) = &mut self.play {
                f.outcome = Some(Outcome::draw(EndReason::TimeLimit));
            }
        }
        applied.outcome = self.outcome();
        applied
    }

    /// `apply(self.to_move(), action, None)` for a flip or move taken from `legal`,
    /// `legal_into` or `legal_actions` of this very position, without checking again
    /// what listing it established, and without telling what it did beyond how the
    /// game stands: self-play's loop, which told nobody (turning the shared game's
    /// answer into two-player words cost standard self-play about 60 instructions per
    /// action). Anything else is the caller's error (debug builds check that `apply`
    /// would have accepted it).
    pub fn apply_listed(&mut self, action: Action) -> Option<Outcome> {
        debug_assert!(
            self.clone().apply(self.to_move, action, None).is_ok(),
            "{action:?} is not a legal action here"
        );
        let seat = self.to_move;
        match (&mut self.play, action) {
            (Play::Flip(f), _) => {
                let mut applied = f.act_listed(action);
                f.finish_step(seat, &mut applied, self.elapsed_ms);
                self.to_move = f.to_move;
                f.outcome
            }
            (Play::Deployed(h), Action::Move { from, to }) => {
                deployed::act_listed(h, from, to);
                self.after(seat, action);
                self.outcome()
            }
            (Play::Deployed(_), _) => panic!("only moves are listed in a deployed game"),
        }
    }

    /// The turn after `seat`'s accepted action: a step passes it on (to the other
    /// seat even when the step ended the game, as it always has).
    fn after(&mut self, seat: Seat, action: Action) {
        self.to_move = match &self.play {
            Play::Flip(f) => f.to_move,
            Play::Deployed(h) if h.is_over() && action.is_step() => seat.other(),
            Play::Deployed(h) if h.is_over() => self.to_move,
            Play::Deployed(h) => deployed::seat_of(h.to_move()),
        };
    }

    /// Ends the game if the time limit has passed with no action (flip chess's three
    /// hours). Returns the outcome when it did.
    pub fn expire(&mut self, now_ms: u64) -> Option<Outcome> {
        if self.is_over() || !self.past_time_limit(now_ms) {
            return None;
        }
        self.elapsed_ms = self.elapsed_ms.max(now_ms);
        if let Play::Flip(f) = &mut self.play {
            f.outcome = Some(Outcome::draw(EndReason::TimeLimit));
        }
        self.outcome()
    }

    fn past_time_limit(&self, at_ms: u64) -> bool {
        self.limits().millis_to_draw.is_some_and(|ms| at_ms >= ms)
    }
}
