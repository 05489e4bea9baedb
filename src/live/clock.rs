//! The game's clocks: the action clock, the escape clock of a seat without a socket,
//! the three-hour limit and the deployment's. The server owns them; the task wakes by
//! itself when the earliest runs out.

use super::messages::{Clock, Presence};
use super::task::{Entry, Step, Task};
use crate::db::games::RUNNING;
use crate::db::now_ms;
use crate::rules::view::{SeatPair, Status};
use crate::rules::{Action, Game, Seat};
use std::time::Duration;

impl Task {
    /// Milliseconds since the start, never earlier than the last action.
    pub(super) fn at_ms(&self) -> u64 {
        let at = (now_ms() - self.started_ms()).max(0) as u64;
        at.max(self.game.as_ref().map_or(0, Game::elapsed_ms))
    }

    /// The action clock's deadline after a step taken `at_ms` into the game. It follows
    /// from the stored action alone, so a task loaded after a restart finds the same.
    pub(super) fn deadline_after(&self, at_ms: i64) -> i64 {
        self.started_ms() + at_ms + self.row.seconds_per_action as i64 * 1000
    }

    /// When the game's time began, which every action's `at_ms` counts from.
    fn started_ms(&self) -> i64 {
        self.row.started_at.unwrap_or_else(now_ms)
    }

    pub(super) fn clock(&self) -> Option<Clock> {
        match (&self.game, self.row.deadline_at) {
            (Some(g), Some(deadline)) if self.row.status == RUNNING => Some(Clock {
                to_move: g.to_move(),
                remaining_ms: (deadline - now_ms()).max(0),
                seconds_per_action: self.row.seconds_per_action,
            }),
            _ => None,
        }
    }

    fn grace_ms(&self) -> i64 {
        self.hub.config().grace.as_millis() as i64
    }

    /// Who has a socket, and how long an absent seat has before it loses by escape.
    pub(super) fn presence(&self) -> Presence {
        let playing = self.row.status == RUNNING && self.game.is_some();
        let now = now_ms();
        let escape = |seat: Seat| {
            self.away_since[seat.index()]
                .filter(|_| playing)
                .map(|away| (away + self.grace_ms() - now).max(0))
        };
        Presence {
            connected: SeatPair([self.connected(Seat::South), self.connected(Seat::North)]),
            escape_ms: SeatPair([escape(Seat::South), escape(Seat::North)]),
            watchers: self.watch.shown,
            tuoguan: self.tuoguan_view(),
            can: None,
        }
    }

    /// Starts or stops each seat's escape clock by whether it has a socket.
    pub(super) fn update_away(&mut self) {
        let now = now_ms();
        for seat in Seat::BOTH {
            let here = self.connected(seat);
            let slot = &mut self.away_since[seat.index()];
            if here {
                *slot = None;
            } else if slot.is_none() && self.row.status == RUNNING {
                *slot = Some(now);
            }
        }
    }

    /// When the task must next wake by itself.
    pub(super) fn next_wake(&self) -> Option<i64> {
        if self.row.status != RUNNING {
            return None;
        }
        if self.deploy.is_some() {
            return self.row.deadline_at;
        }
        let game = self.game.as_ref()?;
        let mut wake = self.row.deadline_at;
        let grace = self.grace_ms();
        for away in self.away_since.into_iter().flatten() {
            wake = Some(wake.map_or(away + grace, |w| w.min(away + grace)));
        }
        if let Some((at, _)) = self.tuoguan_due() {
            wake = Some(wake.map_or(at, |w| w.min(at)));
        }
        if let (Some(started), Some(limit)) = (self.row.started_at, game.variant().time_limit_ms())
        {
            let at = started + limit as i64;
            wake = Some(wake.map_or(at, |w| w.min(at)));
        }
        wake
    }

    /// A clock ran out: an escape, a timeout, or the time limit, stored and returned
    /// for publishing.
    pub(super) async fn on_timer(&mut self) -> Vec<Entry> {
        if self.deploy.is_some() {
            if self.row.deadline_at.is_some_and(|d| now_ms() >= d) {
                self.deployment_over().await;
            }
            return Vec::new();
        }
        let Some(game) = self.game.clone() else {
            return Vec::new();
        };
        if game.is_over() || self.row.status != RUNNING {
            return Vec::new();
        }
        // 断线托管 before the clocks: the seat may be to move with little time left.
        if self.tuoguan_on_timer().await {
            return Vec::new();
        }
        let now = now_ms();
        let grace = self.grace_ms();
        let at_ms = self.at_ms();
        let escaped = Seat::BOTH
            .into_iter()
            .find(|s| self.away_since[s.index()].is_some_and(|t| now >= t + grace));
        let timed_out = self.row.deadline_at.is_some_and(|d| now >= d);
        let mut next = game.clone();
        let (seat, action) = if let Some(seat) = escaped {
            (seat, Action::Escape)
        } else if timed_out {
            (game.to_move(), Action::Timeout)
        } else {
            if next.expire(at_ms).is_none() {
                return Vec::new();
            }
            let entry = Entry::Expired {
                at_ms,
                status: Status::of(&next),
            };
            return match self.commit(game.to_move(), None, next, &entry).await {
                Ok(()) => vec![entry],
                Err(e) => {
                    tracing::error!(game = %self.row.id, error = %e, "cannot store the time limit");
                    Vec::new()
                }
            };
        };
        let step = match Step::apply(&mut next, seat, action, at_ms) {
            Ok(step) => step,
            Err(e) => {
                tracing::error!(game = %self.row.id, error = %e, "the clock's action was refused");
                return Vec::new();
            }
        };
        let entry = Entry::Step(Box::new(step));
        match self.commit(seat, Some(action), next, &entry).await {
            Ok(()) => vec![entry],
            Err(e) => {
                tracing::error!(game = %self.row.id, error = %e, "cannot store a timeout");
                // Try again shortly rather than spinning.
                tokio::time::sleep(Duration::from_millis(500)).await;
                Vec::new()
            }
        }
    }
}
