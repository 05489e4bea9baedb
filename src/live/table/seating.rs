//! Before the start (RULES §5.2): players take seats, move to another empty one or
//! stand up, the creator gives empty seats to the computer, everyone presses ready,
//! and when every seat is filled and ready the table starts deploying (三国: three
//! people who all pressed ready may start without the fourth).

use super::{Deploying, Phase, Sitter, Table};
use crate::db::games::{CANCELLED, RUNNING};
use crate::db::now_ms;
use crate::db::tables::{self, SeatRow};
use crate::error::AppError;
use crate::live::blocking;
use crate::live::messages::ErrorBody;
use crate::live::protocol::{ClientKind, DeployCmd, TableCmd};
use crate::live::summary::PlayerInfo;
use crate::rules::siguo::{Deployment4, HandDeal, Hands, Seat4};

impl Table {
    pub(super) async fn open_command(
        &mut self,
        user: i64,
        kind: ClientKind,
    ) -> Result<(), ErrorBody> {
        let mine = self.seat_of_user(Some(user));
        match kind {
            ClientKind::Table(TableCmd::Sit(seat)) => self.sit(user, seat).await?,
            ClientKind::Table(TableCmd::Stand) => {
                let s =
                    mine.ok_or_else(|| ErrorBody::new("not_a_player", "you have no seat here"))?;
                if user == self.row.creator_id {
                    return Err(ErrorBody::new(
                        "illegal",
                        "the table's creator keeps a seat; cancel the table to leave it",
                    ));
                }
                self.change_seats(|t| {
                    t.seats[s.index()] = None;
                    t.ready[s.index()] = false;
                })
                .await?;
            }
            ClientKind::Table(TableCmd::Computer(seat, level)) => {
                if user != self.row.creator_id {
                    return Err(ErrorBody::new(
                        "not_creator",
                        "only the table's creator seats the computer",
                    ));
                }
                if self.seats[seat.index()].is_some() {
                    return Err(ErrorBody::new("seat_taken", format!("{seat} is taken")));
                }
                let pool = self.hub.pool().clone();
                let info = blocking(&pool, move |c| {
                    let u = crate::db::users::computer_player(c, level)?;
                    Ok(store_player(c, u.id)?)
                })
                .await
                .map_err(refusal)?;
                self.change_seats(|t| {
                    t.seats[seat.index()] = Some(Sitter { info });
                    t.ready[seat.index()] = true;
                })
                .await?;
            }
            ClientKind::Deploy(DeployCmd::Ready) => {
                let s =
                    mine.ok_or_else(|| ErrorBody::new("not_a_player", "you have no seat here"))?;
                self.change_seats(|t| t.ready[s.index()] = true).await?;
            }
            _ => {
                return Err(ErrorBody::new(
                    "illegal",
                    "the table has not started: take a seat and press ready",
                ));
            }
        }
        self.start_if_ready().await;
        Ok(())
    }

    async fn sit(&mut self, user: i64, seat: Seat4) -> Result<(), ErrorBody> {
        if self.seats[seat.index()].is_some() {
            return Err(ErrorBody::new("seat_taken", format!("{seat} is taken")));
        }
        let moving = self.seat_of_user(Some(user));
        let info = match moving {
            Some(from) => self.seats[from.index()].take().expect("the seat held").info,
            None => {
                let pool = self.hub.pool().clone();
                blocking(&pool, move |c| Ok(store_player(c, user)?))
                    .await
                    .map_err(refusal)?
            }
        };
        if let Some(from) = moving {
            // Put back until the change is stored.
            self.seats[from.index()] = Some(Sitter { info: info.clone() });
        }
        self.change_seats(|t| {
            if let Some(from) = moving {
                t.seats[from.index()] = None;
                t.ready[from.index()] = false;
            }
            t.seats[seat.index()] = Some(Sitter { info });
            t.ready[seat.index()] = false;
        })
        .await
    }

    /// Any empty seat, for the lobby's join.
    pub(super) async fn join_any_seat(&mut self, user: i64) -> Result<(), AppError> {
        if !matches!(self.phase, Phase::Open) {
            return Err(AppError::Conflict("the table has started".into()));
        }
        if self.seat_of_user(Some(user)).is_some() {
            return Ok(());
        }
        let Some(seat) = Seat4::ALL
            .into_iter()
            .find(|s| self.seats[s.index()].is_none())
        else {
            return Err(AppError::Conflict("every seat is taken".into()));
        };
        self.sit(user, seat)
            .await
            .map_err(super::seat_caps::refused)?;
        self.start_if_ready().await;
        Ok(())
    }

    /// Applies `change` to the seats and stores them; on a failure to store, the seats
    /// are as they were.
    async fn change_seats(&mut self, change: impl FnOnce(&mut Table)) -> Result<(), ErrorBody> {
        let before: Vec<_> = self
            .seats
            .iter()
            .map(|s| s.as_ref().map(|p| p.info.clone()))
            .collect();
        let ready_before = self.ready;
        change(self);
        if let Err(why) = self.store_seats(&before).await {
            for (i, p) in before.into_iter().enumerate() {
                self.seats[i] = p.map(|info| Sitter { info });
            }
            self.ready = ready_before;
            return Err(why);
        }
        self.changed();
        // The lobby lists open tables with who sits where.
        self.hub.lobby_changed();
        Ok(())
    }

    pub(super) fn seat_rows(&self) -> Vec<SeatRow> {
        let opts = self.options.siguo;
        Seat4::ALL
            .into_iter()
            .filter_map(|s| {
                let p = self.seats[s.index()].as_ref()?;
                let mut row = SeatRow::new(
                    &self.row.id,
                    s.name(),
                    p.info.id,
                    super::view::side_of(opts, s).into(),
                );
                if self.ready[s.index()] {
                    row.state = tables::READY.to_string();
                }
                Some(row)
            })
            .collect()
    }

    /// Four seats filled and ready (or three people in 混战, 三国): deployment starts.
    pub(super) async fn start_if_ready(&mut self) {
        let seated: Vec<Seat4> = Seat4::ALL
            .into_iter()
            .filter(|s| self.seats[s.index()].is_some())
            .collect();
        let all_ready = seated.iter().all(|s| self.ready[s.index()]);
        let three =
            seated.len() == 3 && self.options.siguo.alliance == crate::rules::siguo::Alliance::None;
        if !all_ready || !(seated.len() == 4 || three) || !matches!(self.phase, Phase::Open) {
            return;
        }
        let mut rng = rand::rng();
        let hands = self
            .options
            .siguo
            .random_pieces
            .then(|| HandDeal::random(&seated, &mut rng));
        let dealt = hands
            .as_ref()
            .map_or_else(|| Hands::standard(&seated), |d| d.hands);
        let deployment = match Deployment4::new(self.options.siguo, &seated, dealt, &mut rng) {
            Ok(d) => d,
            Err(e) => {
                tracing::error!(table = %self.row.id, error = %e, "cannot start deploying");
                return;
            }
        };
        let now = now_ms();
        let deadline = now + i64::from(self.options.deploy_seconds) * 1000;
        let deploying = Deploying {
            deployment,
            hands,
            deadline,
        };
        let text = super::store::deployment_json(&deploying);
        let id = self.row.id.clone();
        let started = blocking(self.hub.pool(), move |c| {
            Ok(tables::start(c, &id, &text, now, deadline)?)
        })
        .await;
        if !matches!(started, Ok(true)) {
            tracing::error!(table = %self.row.id, "cannot store the table's start");
            return;
        }
        self.row.status = RUNNING.to_string();
        self.row.started_at = Some(now);
        self.phase = Phase::Deploying(Box::new(deploying));
        self.hub.lobby_changed();
        // The computer's seats finish at once.
        for s in seated {
            if self.computer_in(s).is_some()
                && let Phase::Deploying(d) = &mut self.phase
            {
                let _ = d.deployment.ready(s);
            }
        }
        self.changed();
        self.begin_play_if_done().await;
    }

    pub(super) async fn cancel(&mut self, user: i64) -> Result<(), AppError> {
        if user != self.row.creator_id {
            return Err(AppError::Forbidden(
                "only the table's creator cancels it".into(),
            ));
        }
        if !matches!(self.phase, Phase::Open) {
            return Err(AppError::Conflict("the table has started".into()));
        }
        let id = self.row.id.clone();
        let done = blocking(self.hub.pool(), move |c| {
            Ok(crate::db::games::cancel(c, &id, user)?)
        })
        .await?;
        if !done {
            return Err(AppError::Conflict("the table is no longer open".into()));
        }
        self.row.status = CANCELLED.to_string();
        self.changed();
        self.hub.lobby_changed();
        Ok(())
    }

    pub(super) fn expired(&mut self) {
        if matches!(self.phase, Phase::Open) {
            self.row.status = CANCELLED.to_string();
            self.changed();
        }
    }
}

/// A player as a table shows them, scored in 四国 (0 before their first 四国 game).
pub(super) fn store_player(
    c: &mut crate::db::DbConn,
    user: i64,
) -> Result<PlayerInfo, crate::db::DbError> {
    match PlayerInfo::load(c, user, "siguo") {
        Ok(p) => Ok(p),
        Err(_) => {
            let mut p = PlayerInfo::load(c, user, "flip")?;
            p.score = 0;
            Ok(p)
        }
    }
}

fn refusal(e: AppError) -> ErrorBody {
    ErrorBody::new("internal", e.to_string())
}
