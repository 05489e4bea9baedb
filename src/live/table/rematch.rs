//! 再来一局 at a finished 四国 table: the same settings, the same people in the same
//! seats, the computer at the same levels. Each seated person asks (`rematch`); the
//! computer's seats agree with the first who does. When every person has, a new table
//! is created in one write with its seats filled and ready, so that its task starts
//! deploying as soon as it loads, and every socket is told its id (`next`). One
//! `decline_rematch` ends the offer for everyone, for good.
//!
//! A rematch is a new table like any other: the caps (`caps`) are checked as if its
//! creator opened it and every other seat sat down at it — when each person agrees
//! (so that a refusal is heard at once, and the agreement is not recorded) and again,
//! with the creation, through the database's one writer when the last one does.

use super::{Phase, Table};
use crate::db::games::{self, FINISHED, GameRow};
use crate::db::now_ms;
use crate::db::tables;
use crate::error::AppError;
use crate::live::caps::{self, Start, TableSeating};
use crate::live::messages::ErrorBody;
use crate::rules::siguo::Seat4;
use serde::Serialize;

/// The offer at a finished table, in memory: a table whose last socket goes forgets it
/// (the new table's id stays in the stored row's `next_game`).
#[derive(Debug, Default)]
pub(in crate::live) struct RematchState {
    /// Seats that agreed, the computer's included.
    by: [bool; 4],
    /// Seats that declined; one ends the offer.
    declined: [bool; 4],
}

/// What every viewer is sent about the offer once the game is over.
#[derive(Debug, Serialize)]
pub struct RematchView {
    /// Seats that agreed (the computer's agree with the first person who does).
    pub by: Vec<Seat4>,
    /// Every seat agreed: `next` names the new table.
    pub agreed: bool,
    /// Seats that declined: the offer is over.
    pub declined: Vec<Seat4>,
    pub next: Option<String>,
}

fn err(code: &'static str, message: &str) -> ErrorBody {
    ErrorBody::new(code, message)
}

/// What the asker of a refused rematch hears: the cap it would break (as opening or
/// sitting down would say it), or that it could not be created (the cause is logged).
fn refusal(e: AppError) -> ErrorBody {
    match e {
        AppError::Internal(_) => {
            tracing::error!(error = %e, "cannot create a 四国 rematch");
            err("internal", "the rematch could not be created; ask again")
        }
        e => ErrorBody::new(e.code(), e.message()),
    }
}

impl Table {
    fn is_over(&self) -> bool {
        matches!(&self.phase, Phase::Playing(p) if p.game.is_over()) && self.row.status == FINISHED
    }

    fn person_seats(&self) -> impl Iterator<Item = Seat4> + '_ {
        Seat4::ALL.into_iter().filter(|&s| {
            self.seats[s.index()]
                .as_ref()
                .is_some_and(|p| p.info.computer.is_none())
        })
    }

    fn offer_open(&self) -> bool {
        self.person_seats().any(|s| self.rematch.by[s.index()])
    }

    fn rematch_declined(&self) -> bool {
        self.rematch.declined.iter().any(|&d| d)
    }

    /// The offer as the view shows it; `None` before the end.
    pub(super) fn rematch_view(&self) -> Option<RematchView> {
        if !self.is_over() {
            return None;
        }
        let pick = |flags: [bool; 4]| -> Vec<Seat4> {
            Seat4::ALL
                .into_iter()
                .filter(|s| flags[s.index()])
                .collect()
        };
        // A rematch created before this task loaded (a restart, a reopened finished
        // table) was agreed by every seat.
        let by = match self.row.next_game {
            Some(_) => Seat4::ALL.map(|s| self.seats[s.index()].is_some()),
            None => self.rematch.by,
        };
        Some(RematchView {
            by: pick(by),
            agreed: self.row.next_game.is_some(),
            declined: pick(self.rematch.declined),
            next: self.row.next_game.clone(),
        })
    }

    /// Whether `seat` may ask for, or decline, a rematch now.
    pub(super) fn rematch_can(&self, seat: Seat4) -> (bool, bool) {
        let person = self.seats[seat.index()]
            .as_ref()
            .is_some_and(|p| p.info.computer.is_none());
        let live =
            person && self.is_over() && self.row.next_game.is_none() && !self.rematch_declined();
        (
            live && !self.rematch.by[seat.index()],
            live && self.offer_open(),
        )
    }

    /// `rematch` or `decline_rematch` from `user`.
    pub(super) async fn rematch_command(&mut self, user: i64, yes: bool) -> Result<(), ErrorBody> {
        let seat = self.seat_of_user(Some(user)).ok_or_else(|| {
            err(
                "not_a_player",
                "only the table's players are asked to play again",
            )
        })?;
        if !self.is_over() {
            return Err(err(
                "not_over",
                "a rematch can be asked for once the game is over",
            ));
        }
        if self.row.next_game.is_some() {
            return Err(err(
                "rematch_started",
                "everyone agreed: the rematch has started",
            ));
        }
        if self.rematch_declined() {
            return Err(err(
                "rematch_declined",
                "a player declined the rematch; there is no offer any more",
            ));
        }
        if !yes {
            if !self.offer_open() {
                return Err(err("no_rematch_offer", "nobody has asked for a rematch"));
            }
            self.rematch.by = [false; 4];
            self.rematch.declined[seat.index()] = true;
            self.changed();
            return Ok(());
        }
        if self.rematch.by[seat.index()] {
            return Err(err(
                "already_agreed",
                "you already asked for a rematch; waiting for the others",
            ));
        }
        let mut by = self.rematch.by;
        by[seat.index()] = true;
        for s in Seat4::ALL {
            if self.computer_in(s).is_some() {
                by[s.index()] = true;
            }
        }
        let all = Seat4::ALL
            .into_iter()
            .all(|s| self.seats[s.index()].is_none() || by[s.index()]);
        let seating = self.rematch_caps(user);
        if !all {
            // A read: said now, and checked again with the creation in the writer.
            crate::live::blocking(self.hub.pool(), move |c| check(c, &seating))
                .await
                .map_err(refusal)?;
            self.rematch.by = by;
            self.changed();
            return Ok(());
        }
        let next = self.create_rematch(seating).await.map_err(refusal)?;
        self.rematch.by = by;
        self.row.next_game = Some(next.clone());
        if let Err(e) = self.hub.handle(&next).await {
            tracing::error!(table = %next, error = %e, "cannot start the rematch's task");
        }
        self.hub.lobby_changed();
        self.changed();
        Ok(())
    }

    /// The new table as the caps see it: its creator opens it and the others sit down.
    fn rematch_caps(&self, asker: i64) -> RematchCaps {
        let computer = self
            .seats
            .iter()
            .flatten()
            .any(|s| s.info.computer.is_some());
        let mut newcomers: Vec<i64> = self
            .seats
            .iter()
            .flatten()
            .map(|s| s.info.id)
            .filter(|&id| id != self.row.creator_id)
            .collect();
        // The computer may hold several seats: one newcomer.
        newcomers.sort_unstable();
        newcomers.dedup();
        let names = (self.seats.iter().flatten())
            .map(|s| (s.info.id, s.info.username.clone()))
            .collect();
        let seating = TableSeating {
            creator: self.row.creator_id,
            rated: self.row.rated,
            newcomers,
            // Opened with the computer at it, as 人机 四国 is: `Start::Open` counts it
            // for the creator, and each person sitting down is counted beside it.
            computer_before: computer,
            computer_after: computer,
        };
        RematchCaps {
            seating,
            asker,
            names,
        }
    }

    /// Creates the rematch's table within the caps, in one write: the same settings,
    /// every seat filled as now and ready.
    async fn create_rematch(&self, seating: RematchCaps) -> Result<String, AppError> {
        let now = now_ms();
        let mut row = GameRow::open(
            crate::live::new_game_id(),
            &self.row.variant,
            self.row.rated,
            self.row.seconds_per_action,
            self.row.options.clone(),
            self.row.creator_id,
            now,
        );
        row.previous_game = Some(self.row.id.clone());
        let mut seats = self.seat_rows();
        for s in &mut seats {
            s.game_id = row.id.clone();
            s.state = tables::READY.to_string();
        }
        let creator_seat = seats
            .iter()
            .find(|s| s.user_id == self.row.creator_id)
            .cloned()
            .ok_or_else(|| AppError::internal("a finished table without its creator"))?;
        let old = self.row.id.clone();
        let id = row.id.clone();
        self.hub
            .pool()
            .write(move |c| -> Result<(), AppError> {
                check(c, &seating)?;
                tables::create(c, &row, &creator_seat)?;
                if !tables::set_seats(c, &row.id, &seats)? {
                    return Err(AppError::internal("a new table that is not open"));
                }
                games::set_next(c, &old, &row.id)?;
                Ok(())
            })
            .await?;
        Ok(id)
    }
}

/// Who the new table's caps are checked for, and who asked.
struct RematchCaps {
    seating: TableSeating,
    asker: i64,
    names: Vec<(i64, String)>,
}

impl RematchCaps {
    /// A refusal about another seat's cap names that player: the asker is not the one
    /// who has too many games.
    fn whose(&self, user: i64, e: AppError) -> AppError {
        let AppError::Limit(code, message) = e else {
            return e;
        };
        if user == self.asker {
            return AppError::Limit(code, message);
        }
        let name = (self.names.iter())
            .find(|(id, _)| *id == user)
            .map_or("another player", |(_, n)| n.as_str());
        let message = message
            .replacen("you already have", &format!("{name} already has"), 1)
            .replacen("you already play", &format!("{name} already plays"), 1);
        AppError::Limit(code, message)
    }
}

/// The caps of a new table whose creator opens it and whose other seats sit down, one
/// player at a time so that a refusal says whose cap it is.
fn check(c: &mut crate::db::DbConn, caps: &RematchCaps) -> Result<(), AppError> {
    let s = &caps.seating;
    let opening = Start::Open {
        creator: s.creator,
        rated: s.rated,
        computer: s.computer_after,
    };
    caps::check(c, &opening).map_err(|e| caps.whose(s.creator, e))?;
    for &user in &s.newcomers {
        let one = TableSeating {
            newcomers: vec![user],
            ..s.clone()
        };
        caps::seat_at_table(c, &one).map_err(|e| caps.whose(user, e))?;
    }
    Ok(())
}
