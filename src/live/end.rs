//! The end of every step and of the game: storing an accepted action (and, when it
//! ends the game, the result and both players' new scores) in one write, and the
//! result as players see it.

use super::blocking;
use super::messages::GameResult;
use super::summary::PlayerInfo;
use super::task::{Entry, Task};
use crate::db::games::{self, End, FINISHED};
use crate::db::now_ms;
use crate::db::steps::Step;
use crate::db::users::GameResult as PlayerResult;
use crate::error::AppError;
use crate::record::{action_json, result_name};
use crate::rules::view::SeatPair;
use crate::rules::{Action, Game, Seat};

impl Task {
    /// Stores the change that turns the current game into `next`, then adopts it. On a
    /// storage error nothing changes.
    pub(super) async fn commit(
        &mut self,
        seat: Seat,
        action: Option<Action>,
        next: Game,
        entry: &Entry,
    ) -> Result<(), AppError> {
        let now = now_ms();
        let at_ms = match entry {
            Entry::Step(step) => step.at_ms as i64,
            _ => 0,
        };
        let deadline = match (next.is_over(), action) {
            (true, _) => None,
            (false, Some(a)) if a.is_step() => Some(self.deadline_after(at_ms)),
            _ => self.row.deadline_at,
        };
        let outcome = next.outcome();
        let score = outcome.map(|_| {
            next.score(self.row.base)
                .expect("a finished game has a score")
        });
        let colour_south = next.colour_of(Seat::South).map(|c| c.name().to_string());
        let (south_id, north_id) = (
            self.row.south_id.unwrap_or_default(),
            self.row.north_id.unwrap_or_default(),
        );
        let end_ms = match entry {
            Entry::Expired { at_ms, .. } => Some(*at_ms as i64),
            _ => None,
        };
        let game_id = self.row.id.clone();
        let steps = next.steps() as i32;
        let colour = colour_south.clone();
        let end_of = move |(o, score): (crate::rules::Outcome, [i32; 2])| {
            let result_of = |s: Seat| match o.winner {
                None => PlayerResult::Draw,
                Some(w) if w == s => PlayerResult::Win,
                Some(_) => PlayerResult::Loss,
            };
            End {
                result: result_name(o),
                reason: o.reason.name(),
                score,
                ended_at: now,
                end_ms,
                steps,
                colour_south: colour,
                players: [
                    (south_id, result_of(Seat::South)),
                    (north_id, result_of(Seat::North)),
                ],
            }
        };
        let by_tuoguan = matches!(entry, Entry::Step(s) if s.tuoguan);
        let step = action.map(|a| Step {
            game_id: game_id.clone(),
            idx: self.actions as i32,
            seat: seat.name(),
            action: stored_action(seat, a, by_tuoguan),
            at_ms,
        });
        // The action is acknowledged and shown only after the writer's commit that
        // holds it: an ack always means "stored".
        let pool = self.hub.pool();
        match (outcome.zip(score).map(end_of), step) {
            (None, Some(step)) => pool.write_step(step).await,
            (Some(end), step) => {
                let record = self.record(step);
                pool.write(move |c| games::end(c, &game_id, &record, &end))
                    .await
            }
            // Every change that neither ends the game nor adds an action is the
            // task's own (a clock, a presence): nothing of it is stored.
            (None, None) => Ok(()),
        }
        .map_err(AppError::internal)?;

        if action.is_some() {
            self.actions += 1;
        }
        self.row.steps = steps;
        self.row.deadline_at = deadline;
        self.row.colour_south = colour_south;
        if let (Some(o), Some(score)) = (outcome, score) {
            self.row.status = FINISHED.to_string();
            self.row.result = Some(result_name(o).to_string());
            self.row.reason = Some(o.reason.name().to_string());
            self.row.score_south = Some(score[0]);
            self.row.score_north = Some(score[1]);
            self.row.ended_at = Some(now);
            self.row.end_ms = end_ms;
            self.away_since = [None, None];
            self.seated = None;
            self.hub.note_game_end();
            self.refresh_players().await;
        }
        if let Entry::Step(step) = entry {
            self.marks.follow(&step.applied.effect, next.position());
            if let Some(c) = &mut self.computer {
                c.observe(&step.applied, &next);
            }
            for c in self.tuoguan.standins.iter_mut().flatten() {
                c.observe(&step.applied, &next);
            }
        }
        self.game = Some(next);
        Ok(())
    }

    /// Every action of the game as stored, `last` (the one that ends it, if any) after
    /// those taken before: each step of the log is a stored action, in order.
    pub(super) fn record(&self, last: Option<Step>) -> Vec<Step> {
        let game_id = &self.row.id;
        let mut record: Vec<Step> = self
            .log
            .iter()
            .filter_map(|e| match e {
                Entry::Step(s) => Some(s),
                _ => None,
            })
            .enumerate()
            .map(|(idx, s)| Step {
                game_id: game_id.clone(),
                idx: idx as i32,
                seat: s.applied.seat.name(),
                action: stored_action(s.applied.seat, s.action, s.tuoguan),
                at_ms: s.at_ms as i64,
            })
            .collect();
        debug_assert_eq!(record.len(), self.actions, "one log step per stored action");
        record.extend(last);
        record
    }

    pub(super) async fn refresh_players(&mut self) {
        let row = self.row.clone();
        let loaded = blocking(self.hub.pool(), move |c| Ok(PlayerInfo::seats(c, &row)?)).await;
        match loaded {
            Ok(seats) => self.seats = seats,
            Err(e) => tracing::error!(error = %e, "cannot reload players"),
        }
    }

    /// How the game ended, with the row of the score table that applied; `None`
    /// while it is played.
    pub(super) fn result(&self) -> Option<GameResult> {
        super::replay::result_of(self.game.as_ref()?, self.row.base)
    }

    pub(super) fn final_score(&self) -> SeatPair<Option<i32>> {
        SeatPair([self.row.score_south, self.row.score_north])
    }
}

/// An action as stored: the record's form, with `"by":"tuoguan"` when the computer
/// standing in for the seat played it.
fn stored_action(seat: Seat, a: Action, tuoguan: bool) -> String {
    let mut v = action_json(seat, a);
    if tuoguan {
        v["by"] = serde_json::json!("tuoguan");
    }
    v.to_string()
}
