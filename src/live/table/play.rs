//! Play at a 四国 table: the start of play, the players' commands, the clock (timeouts,
//! the deployment's end, the grace, the ally's 20 s), the server's moves for seats in
//! 托管 (§5.5.2) and the computer's, every action stored before it is shown, and the
//! end with its scores (§5.7).

use super::{Phase, Playing, Table};
use crate::db::now_ms;
use crate::db::tables::{self, SeatEnd, TableEnd};
use crate::db::users::GameResult;
use crate::live::blocking;
use crate::live::messages::ErrorBody;
use crate::live::protocol::{ClientKind, TableCmd};
use crate::record::siguo::{commitment, reason_name, result_name};
use crate::record::{SiguoAction, SiguoRecord, SiguoTable};
use crate::rules::hidden_game::{Escape, Step, TuoguanKind};
use crate::rules::siguo::scoring::{self, Facts};
use crate::rules::siguo::{Seat4, tuoguan};
use crate::rules::{Action, Options};
use rand::RngExt;

/// A copy of the game alone, to check an action on: no minds, no record.
fn probe_of(p: &Playing) -> Playing {
    Playing {
        game: p.game.clone(),
        record: SiguoRecord {
            actions: Vec::new(),
            ..p.record.clone()
        },
        deadline: p.deadline,
        last: None,
        away_since: p.away_since,
        tuoguan_last: p.tuoguan_last,
        exited: p.exited,
        play_on_due: None,
        minds: Default::default(),
        asked: None,
        scores: None,
        stored_end: false,
    }
}

fn illegal(e: impl std::fmt::Display) -> ErrorBody {
    ErrorBody::new("illegal", e.to_string())
}

/// Each seat's score change at the end (§5.7), `None` when unscored.
pub(super) fn scores_of(p: &Playing) -> Option<[i32; 4]> {
    rows_of(p).map(|rows| rows.map(|(n, _)| n))
}

/// Each seat's score change at the end with the row of §5.7 that gave it.
pub(super) fn rows_of(p: &Playing) -> Option<[(i32, scoring::Row); 4]> {
    let g = &p.game;
    let seated = Seat4::ALL.map(|s| p.record.table.seated.contains(&s));
    let ends = Seat4::ALL.map(|s| scoring::SeatEnd {
        exited: p.exited[s.index()],
        // A defeated seat cannot enter 托管, so one still marked was in it before its
        // defeat and stays "in 托管 at the end" (§5.7.1; only leaving after the
        // defeat is spared).
        tuoguan_at_end: g.in_tuoguan(s),
    });
    Facts::of(g, ends, seated).and_then(|f| scoring::score_rows(&f))
}

impl Table {
    /// Every seat finished: the layouts are committed and play begins.
    pub(super) async fn begin_play_if_done(&mut self) {
        let Phase::Deploying(d) = &self.phase else {
            return;
        };
        if !d.deployment.is_done() {
            return;
        }
        let options = Options {
            seconds_per_action: self.row.seconds_per_action as u32,
            grace_seconds: self.options.grace_seconds,
            ..Options::default()
        };
        let game = match d.deployment.start(options, &mut rand::rng()) {
            Ok(g) => g,
            Err(e) => {
                tracing::error!(table = %self.row.id, error = %e, "cannot begin play");
                return;
            }
        };
        let table = SiguoTable {
            seated: d.deployment.seated().to_vec(),
            options: self.options.siguo,
        };
        let mut record = SiguoRecord::begin(&game, table, d.hands.clone());
        let salt = crate::rules::deal::new_salt(&mut rand::rng());
        let commit = commitment(game.position(), &salt);
        record.salt = Some(salt.clone());
        record.commitment = Some(commit.clone());
        let text = record.to_json().to_string();
        let deadline = now_ms() + self.clock_ms();
        let first = game.to_move().name();
        let id = self.row.id.clone();
        let stored = blocking(self.hub.pool(), move |c| {
            Ok(tables::begin_play(
                c, &id, first, &text, &salt, &commit, deadline,
            )?)
        })
        .await;
        if let Err(e) = stored {
            tracing::error!(table = %self.row.id, error = %e, "cannot store the start of play");
            return;
        }
        self.row.commitment = record.commitment.clone();
        let minds = Seat4::ALL.map(|s| {
            self.computer_in(s)
                .map(|_| crate::engine::siguo::SeatInfo::new(game.seat_view(s)))
        });
        let now = now_ms();
        let away_since = Seat4::ALL
            .map(|s| (self.seats[s.index()].is_some() && !self.connected(s)).then_some(now));
        self.phase = Phase::Playing(Box::new(Playing {
            game,
            record,
            deadline,
            last: None,
            away_since,
            tuoguan_last: [None; 4],
            exited: [false; 4],
            play_on_due: None,
            minds,
            asked: None,
            scores: None,
            stored_end: false,
        }));
        self.changed();
    }

    pub(super) fn clock_ms(&self) -> i64 {
        i64::from(self.row.seconds_per_action) * 1000
    }

    pub(super) async fn play_command(
        &mut self,
        user: i64,
        kind: ClientKind,
    ) -> Result<(), ErrorBody> {
        let seat = self
            .seat_of_user(Some(user))
            .ok_or_else(ErrorBody::not_a_player)?;
        let Phase::Playing(p) = &self.phase else {
            return Err(illegal("the game has not started"));
        };
        let g = &p.game;
        let action = match kind {
            ClientKind::Table(TableCmd::Move(from, to)) => {
                SiguoAction::Step(Step::Move { from, to })
            }
            ClientKind::Act(Action::Pass) => {
                if g.to_move() == seat
                    && g.timeouts(seat) + 1 >= crate::rules::hidden_game::TIMEOUTS_TO_LOSE
                {
                    return Err(ErrorBody::new(
                        "confirm_needed",
                        "a 5th timeout-or-pass defeats you: send pass with {\"confirm\": true}",
                    ));
                }
                SiguoAction::Step(Step::Pass)
            }
            ClientKind::Table(TableCmd::ConfirmedPass) => SiguoAction::Step(Step::Pass),
            ClientKind::Act(Action::Resign) => SiguoAction::Step(Step::Resign),
            ClientKind::Act(Action::OfferDraw) => SiguoAction::Step(Step::OfferDraw),
            ClientKind::Act(Action::AcceptDraw) => SiguoAction::Step(Step::AcceptDraw),
            ClientKind::Act(Action::DeclineDraw) => SiguoAction::Step(Step::DeclineDraw),
            ClientKind::Table(TableCmd::Tuoguan(true)) => SiguoAction::Tuoguan(TuoguanKind::Manual),
            ClientKind::Table(TableCmd::Tuoguan(false)) => SiguoAction::EndTuoguan,
            ClientKind::Table(TableCmd::Leave) => SiguoAction::Escape(Escape::Left),
            ClientKind::Table(TableCmd::PlayOn(yes)) => {
                if p.play_on_due.is_none_or(|(ally, _)| ally != seat) {
                    return Err(illegal("no ally of yours is in 断线托管"));
                }
                if yes {
                    if let Phase::Playing(p) = &mut self.phase {
                        p.play_on_due = None;
                    }
                    self.changed();
                    return Ok(());
                }
                SiguoAction::DeclinePlayOn
            }
            _ => return Err(illegal("not a command of a 四国 game in play")),
        };
        if let SiguoAction::Step(Step::Move { .. } | Step::Pass) = action
            && g.in_tuoguan(seat)
        {
            return Err(illegal("the server plays your seat: end 托管 first"));
        }
        self.take(seat, action).await
    }

    /// Applies `action` of `seat`: checked on a copy, stored, then made and shown.
    pub(super) async fn take(&mut self, seat: Seat4, action: SiguoAction) -> Result<(), ErrorBody> {
        let Phase::Playing(p) = &mut self.phase else {
            return Err(illegal("the game has not started"));
        };
        if p.game.is_over() {
            return Err(ErrorBody::new("game_over", "the game is over"));
        }
        // Checked on a copy first: a refused action changes nothing and stores nothing.
        super::store::make(&mut probe_of(p), seat, action).map_err(illegal)?;
        let at = now_ms();
        let stepped = matches!(action, SiguoAction::Step(s) if s.is_step());
        let deadline = if stepped {
            at + i64::from(self.row.seconds_per_action) * 1000
        } else {
            p.deadline
        };
        let idx = p.record.actions.len() as i32;
        let text = crate::record::siguo_action_json(seat, action).to_string();
        let id = self.row.id.clone();
        let seat_name = seat.name();
        let stored = (self.hub.pool())
            .write(move |c| tables::add_action(c, &id, idx, seat_name, &text, at, Some(deadline)))
            .await;
        if let Err(e) = stored {
            tracing::error!(table = %self.row.id, error = %e, "cannot store an action");
            return Err(ErrorBody::new(
                "internal",
                "the action could not be stored; try again",
            ));
        }
        let Phase::Playing(p) = &mut self.phase else {
            unreachable!("still playing");
        };
        super::store::make(p, seat, action).expect("checked on a copy");
        p.deadline = deadline;
        if matches!(action, SiguoAction::Escape(Escape::StayedAway))
            && p.game.tuoguan_kind(seat) == Some(TuoguanKind::Disconnect)
        {
            let ally = Seat4::ALL.into_iter().find(|&a| {
                a != seat && p.game.allied(seat, a) && p.game.is_in_play(a) && !p.game.in_tuoguan(a)
            });
            p.play_on_due = ally.map(|a| (a, at + super::PLAY_ON_SECONDS * 1000));
        }
        if matches!(action, SiguoAction::EndTuoguan | SiguoAction::DeclinePlayOn) {
            p.play_on_due = None;
        }
        if p.game.is_over() {
            self.finish().await;
        }
        self.changed();
        Ok(())
    }

    /// The end: each seat's result and score (§5.7), stored once with the seats.
    async fn finish(&mut self) {
        let Phase::Playing(p) = &mut self.phase else {
            return;
        };
        if p.stored_end {
            return;
        }
        let scores = scores_of(p);
        p.scores = scores;
        let g = &p.game;
        let draw = g.ending().is_some_and(|e| {
            !matches!(
                e,
                crate::rules::hidden_game::Ending::Won { .. }
                    | crate::rules::hidden_game::Ending::PlayOnDeclined { .. }
            )
        });
        let mut seat_ends = Vec::new();
        for s in Seat4::ALL {
            let Some(sitter) = &self.seats[s.index()] else {
                continue;
            };
            seat_ends.push(SeatEnd {
                seat: s.name(),
                user_id: sitter.info.id,
                state: if g.defeat(s).is_some() {
                    "defeated"
                } else if p.exited[s.index()] {
                    "exited"
                } else if g.in_tuoguan(s) {
                    "tuoguan"
                } else {
                    "done"
                },
                result: scores.map(|_| {
                    if draw {
                        GameResult::Draw
                    } else if g.won(s) {
                        GameResult::Win
                    } else {
                        GameResult::Loss
                    }
                }),
                score_change: scores.map(|sc| sc[s.index()]),
                tuoguan_count: i32::from(g.tuoguan_count(s)),
            });
        }
        let result = result_name(g).unwrap_or_default();
        let reason = g.ending().map(reason_name).unwrap_or_default().to_string();
        let steps = g.steps() as i32;
        let id = self.row.id.clone();
        let ended_at = now_ms();
        let stored = blocking(self.hub.pool(), move |c| {
            let end = TableEnd {
                result: &result,
                reason: &reason,
                steps,
                ended_at,
                seats: &seat_ends,
            };
            Ok(tables::end(c, &id, &end)?)
        })
        .await;
        match stored {
            Ok(_) => {
                p.stored_end = true;
                self.row.status = crate::db::games::FINISHED.to_string();
                self.hub.note_game_end();
            }
            Err(e) => tracing::error!(table = %self.row.id, error = %e, "cannot store the end"),
        }
    }

    /// The soonest moment the clock acts.
    pub(super) fn next_wake(&self) -> Option<i64> {
        match &self.phase {
            Phase::Open => None,
            Phase::Deploying(d) => Some(d.deadline),
            Phase::Playing(p) if p.game.is_over() => None,
            Phase::Playing(p) => {
                let g = &p.game;
                let mut at = p.deadline;
                if g.in_tuoguan(g.to_move()) {
                    let last = self.last_step_at().unwrap_or(0);
                    at = at.min(last + self.tuoguan_pace_ms());
                }
                let grace = i64::from(self.options.grace_seconds) * 1000;
                for s in Seat4::ALL {
                    if let Some(since) = p.away_since[s.index()]
                        && g.is_in_play(s)
                        && g.tuoguan_kind(s).is_none()
                    {
                        at = at.min(since + grace);
                    }
                }
                if let Some((_, due)) = p.play_on_due {
                    at = at.min(due);
                }
                Some(at)
            }
        }
    }

    /// How soon after the last step the server moves for a seat in 托管: the
    /// computer's pace, so that people can follow both.
    fn tuoguan_pace_ms(&self) -> i64 {
        self.hub.config().computer_pace.as_millis() as i64
    }

    fn last_step_at(&self) -> Option<i64> {
        let Phase::Playing(p) = &self.phase else {
            return None;
        };
        Some(p.deadline - self.clock_ms())
    }

    pub(super) async fn on_timer(&mut self) {
        let now = now_ms();
        match &mut self.phase {
            Phase::Open => {}
            Phase::Deploying(d) => {
                if now >= d.deadline {
                    d.deployment.expire(&mut rand::rng());
                    self.begin_play_if_done().await;
                }
            }
            Phase::Playing(p) => {
                if p.game.is_over() {
                    return;
                }
                if let Some((ally, due)) = p.play_on_due
                    && now >= due
                {
                    let _ = self.take(ally, SiguoAction::DeclinePlayOn).await;
                    return;
                }
                let grace = i64::from(self.options.grace_seconds) * 1000;
                let away = Seat4::ALL.into_iter().find(|&s| {
                    p.away_since[s.index()].is_some_and(|since| now >= since + grace)
                        && p.game.is_in_play(s)
                        && p.game.tuoguan_kind(s).is_none()
                });
                if let Some(s) = away {
                    let _ = self.take(s, SiguoAction::Escape(Escape::StayedAway)).await;
                    return;
                }
                let seat = p.game.to_move();
                if now >= p.deadline {
                    let _ = self.take(seat, SiguoAction::Step(Step::Timeout)).await;
                    return;
                }
                if p.game.in_tuoguan(seat) {
                    let step =
                        tuoguan::step(&p.game, seat, &mut p.tuoguan_last[seat.index()], |n| {
                            rand::rng().random_range(0..n)
                        });
                    let _ = self.take(seat, SiguoAction::Step(step)).await;
                }
            }
        }
    }

    /// A seat's player came back: a 断线托管 ends (§5.5.1).
    pub(super) async fn returned(&mut self) {
        let Phase::Playing(p) = &self.phase else {
            return;
        };
        let back: Vec<Seat4> = Seat4::ALL
            .into_iter()
            .filter(|&s| {
                p.away_since[s.index()].is_none()
                    && p.game.tuoguan_kind(s) == Some(TuoguanKind::Disconnect)
                    && !p.game.tuoguan_is_permanent(s)
            })
            .collect();
        for s in back {
            let _ = self.take(s, SiguoAction::EndTuoguan).await;
        }
    }
}
