//! The lobby's 观战 list: the running games most worth watching, rated first and then
//! by the players' standing, each with how many watch it (`watchers.rs`).
//!
//! The rows come from the database (`games::running_top`, one read of the running
//! games and two lookups of their players) at most once per [`FRESH_FOR`]; between
//! reads the same rows go out with the audience counts of the moment, which live in
//! memory. The lobby's frame is worked out again at most five times a second
//! (`lobby_feed.rs`), so without this a busy site would read every running game five
//! times a second for a list nobody needs fresher than that.

use super::summary::{PlayerInfo, PlayerRef};
use super::{Hub, blocking};
use crate::db::games::{self, GameRow};
use crate::db::schema::{user_stats, users};
use crate::db::users::User;
use crate::error::AppError;
use crate::rules::view::SeatPair;
use diesel::prelude::*;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How many live games the lobby lists.
pub const LIVE_LIMIT: i64 = 20;
/// How long one read of the running games serves the lobby.
pub const FRESH_FOR: Duration = Duration::from_secs(2);
/// How often the lobby is worked out again while nothing else changes it, so that new
/// games and audiences show there.
pub const TICK: Duration = Duration::from_secs(5);

/// One row of the lobby's list of live games: the page's `LiveGame`.
#[derive(Debug, Clone, Serialize)]
pub struct LiveGame {
    pub id: String,
    pub variant: String,
    pub rated: bool,
    pub seconds_per_action: i32,
    /// South then north.
    pub players: SeatPair<Option<PlayerRef>>,
    pub watchers: u32,
    pub started_at: Option<i64>,
}

#[derive(Default)]
pub struct LiveCache {
    rows: Mutex<Option<(Instant, Vec<LiveGame>)>>,
}

impl Hub {
    /// The lobby's list of live games, the audiences as they are now.
    pub async fn live_list(&self) -> Result<Vec<LiveGame>, AppError> {
        let cached = {
            let rows = self.live_cache.rows.lock().expect("live cache lock");
            rows.as_ref()
                .filter(|(at, _)| at.elapsed() < FRESH_FOR)
                .map(|(_, rows)| rows.clone())
        };
        let mut rows = match cached {
            Some(rows) => rows,
            None => {
                let rows = blocking(&self.pool, read_live).await?;
                *self.live_cache.rows.lock().expect("live cache lock") =
                    Some((Instant::now(), rows.clone()));
                rows
            }
        };
        for row in &mut rows {
            row.watchers = self.audience().of(&row.id);
        }
        Ok(rows)
    }

    /// Works the lobby out again every [`TICK`] while somebody is in it.
    pub fn start_lobby_tick(self: &Arc<Self>) {
        let hub = self.clone();
        actix_web::rt::spawn(async move {
            loop {
                actix_web::rt::time::sleep(TICK).await;
                if hub.lobby_watched() {
                    hub.lobby_changed();
                }
            }
        });
    }
}

fn read_live(c: &mut crate::db::DbConn) -> Result<Vec<LiveGame>, AppError> {
    let rows = games::running_top(c, LIVE_LIMIT)?;
    let ids: Vec<i64> = rows
        .iter()
        .flat_map(|r| [r.south_id, r.north_id])
        .flatten()
        .collect();
    let people: HashMap<i64, User> = users::table
        .filter(users::id.eq_any(&ids))
        .select(User::as_select())
        .load(c)?
        .into_iter()
        .map(|u| (u.id, u))
        .collect();
    let scores: HashMap<(i64, String), i64> = user_stats::table
        .filter(user_stats::user_id.eq_any(&ids))
        .select((user_stats::user_id, user_stats::variant, user_stats::score))
        .load::<(i64, String, i64)>(c)?
        .into_iter()
        .map(|(u, v, s)| ((u, v), s))
        .collect();
    let player = |row: &GameRow, id: Option<i64>| {
        let user = people.get(&id?)?;
        let score = scores.get(&(user.id, row.variant.clone())).copied();
        let info = PlayerInfo {
            id: user.id,
            username: user.username.clone(),
            display_name: user.display_name.clone(),
            kind: user.kind.clone(),
            score: score.unwrap_or(0),
            computer: user.computer_level(),
            avatar: crate::avatars::Avatar::of_user(user),
        };
        Some(PlayerRef::of(&info))
    };
    Ok(rows
        .iter()
        .map(|r| LiveGame {
            id: r.id.clone(),
            variant: r.variant.clone(),
            rated: r.rated,
            seconds_per_action: r.seconds_per_action,
            players: SeatPair([player(r, r.south_id), player(r, r.north_id)]),
            watchers: 0,
            started_at: r.started_at,
        })
        .collect())
}
