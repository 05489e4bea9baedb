//! The lobby's rules against one player taking it over: at most [`MAX_OPEN_GAMES`]
//! open games and [`MAX_RATED_GAMES`] rated games in hand per player; open games whose
//! creator has gone (no lobby socket, no socket on the game, for the idle time) are
//! neither listed nor paired, and the sweep cancels them; quick pairing finds games by
//! their settings, creators who are here first, newest first.

use super::presence::Presence;
use super::summary::{self, OpenGame};
use super::{Cmd, Hub, blocking};
use crate::db::games::{self, GameRow, Wanted};
use crate::db::{DbConn, kinds, now_ms};
use crate::error::AppError;
use std::sync::Arc;
use std::time::Duration;

/// Open games one player may have at once: enough to offer several clocks or both
/// variants, too few to fill the lobby.
pub const MAX_OPEN_GAMES: i64 = 5;
/// Rated games one player may have in hand at once (running, or open and waiting):
/// a person plays one or two at a time; more is an account farming rating with alts.
pub const MAX_RATED_GAMES: i64 = 3;
/// The most games the lobby lists, newest first.
pub const LOBBY_LIMIT: usize = 100;
/// Open games read to fill the list: more than it shows, for those skipped as abandoned.
const LOBBY_SCAN: i64 = 300;
/// Compatible games quick pairing tries, newest first.
const PAIR_SCAN: i64 = 50;
/// Old open games the sweep reads at a time.
const SWEEP_PAGE: i64 = 500;

/// Refuses a new open game past [`MAX_OPEN_GAMES`].
pub fn check_open_room(c: &mut DbConn, user: i64) -> Result<(), AppError> {
    if games::open_count(c, user)? >= MAX_OPEN_GAMES {
        return Err(AppError::Limit(
            "too_many_open_games",
            format!(
                "you already have {MAX_OPEN_GAMES} open games; cancel one or wait for an \
                 opponent before opening another"
            ),
        ));
    }
    Ok(())
}

/// Refuses a rated game (opened or joined) past [`MAX_RATED_GAMES`] in hand.
pub fn check_rated_room(c: &mut DbConn, user: i64) -> Result<(), AppError> {
    if games::rated_in_hand(c, user)? >= MAX_RATED_GAMES {
        return Err(AppError::Limit(
            "too_many_rated_games",
            format!(
                "you already have {MAX_RATED_GAMES} rated games open or in play; finish or \
                 cancel one first (casual games are not limited)"
            ),
        ));
    }
    Ok(())
}

/// The kind of player `user` may meet in a rated game (their own: people meet people,
/// bots meet bots), or 403 `not_rated_together` for the computer, which plays casual
/// games only.
pub fn rated_pool(c: &mut DbConn, user: i64) -> Result<&'static str, AppError> {
    let kind = kinds::of(c, user)?.ok_or(AppError::NotLoggedIn)?;
    kinds::rated_pool(&kind)
        .ok_or_else(|| AppError::NotRatedTogether("the computer plays casual games only".into()))
}

/// Refuses a rated game between `creator` and `joiner` unless they are of one kind:
/// ratings of bots and of people are kept apart, so that no person's rating is won or
/// lost against a program.
pub fn check_rated_together(c: &mut DbConn, creator: i64, joiner: i64) -> Result<(), AppError> {
    let (a, b) = (rated_pool(c, creator)?, rated_pool(c, joiner)?);
    if a == b {
        return Ok(());
    }
    Err(AppError::NotRatedTogether(
        "rated games are between two people or two bots: a bot and a person play casual          games only"
            .into(),
    ))
}

/// Whether an open game has been abandoned: its creator has been away from the lobby
/// and from the game for `idle`, counting from its creation at the earliest.
fn abandoned(p: &Presence, idle: i64, creator: i64, id: &str, created_at: i64, now: i64) -> bool {
    match p.away_since(creator, id) {
        None => false,
        Some(since) => since.max(created_at) + idle <= now,
    }
}

impl Hub {
    fn idle_ms(&self) -> i64 {
        self.config.open_game_idle.as_millis() as i64
    }

    /// The lobby's list: open games not abandoned, newest first, at most [`LOBBY_LIMIT`].
    pub async fn open_list(&self) -> Result<Vec<OpenGame>, AppError> {
        let presence = self.presence.clone();
        let idle = self.idle_ms();
        // Games being started against the computer (seldom more than a few).
        let reserved: Vec<String> = self
            .reserved
            .lock()
            .expect("hub lock")
            .keys()
            .cloned()
            .collect();
        blocking(&self.pool, move |c| {
            let now = now_ms();
            let keep = |r: &GameRow| {
                !abandoned(&presence, idle, r.creator_id, &r.id, r.created_at, now)
                    && !reserved.contains(&r.id)
            };
            Ok(summary::open_games(c, LOBBY_SCAN, LOBBY_LIMIT, keep)?)
        })
        .await
    }

    /// Games `user` may be paired into with these settings, best first: not abandoned,
    /// those whose creator is here now before the others, newest first within each;
    /// rated ones only by creators of `user`'s kind.
    pub async fn pair_candidates(
        &self,
        user: i64,
        variant: &'static str,
        seconds_per_action: i32,
        rated: bool,
    ) -> Result<Vec<String>, AppError> {
        let rows = blocking(&self.pool, move |c| {
            let creator_kind = if rated {
                Some(rated_pool(c, user)?)
            } else {
                None
            };
            let wanted = Wanted {
                variant,
                seconds_per_action,
                rated,
                not_by: user,
                creator_kind,
            };
            Ok(games::open_compatible(c, &wanted, PAIR_SCAN)?)
        })
        .await?;
        let now = now_ms();
        let idle = self.idle_ms();
        let (mut here, mut away) = (Vec::new(), Vec::new());
        for r in rows {
            if self.reserved_for(&r.id).is_some() {
                continue;
            }
            match self.presence.away_since(r.creator_id, &r.id) {
                None => here.push(r.id),
                Some(_)
                    if !abandoned(&self.presence, idle, r.creator_id, &r.id, r.created_at, now) =>
                {
                    away.push(r.id)
                }
                Some(_) => {}
            }
        }
        here.append(&mut away);
        Ok(here)
    }

    /// Serialises what one player opens and joins, so that two requests at once cannot
    /// both pass a cap. Striped: players share a lock now and then, which costs only a
    /// short wait.
    pub async fn seat_lock(&self, user: i64) -> tokio::sync::MutexGuard<'_, ()> {
        let i = user.rem_euclid(self.seat_locks.len() as i64) as usize;
        self.seat_locks[i].lock().await
    }

    /// Cancels abandoned open games every so often (a quarter of the idle time, between
    /// a quarter of a second and half a minute), for as long as the process runs.
    pub fn start_expiry(self: &Arc<Self>) {
        let hub = self.clone();
        let period = (self.config.open_game_idle / 4)
            .clamp(Duration::from_millis(250), Duration::from_secs(30));
        actix_web::rt::spawn(async move {
            loop {
                actix_web::rt::time::sleep(period).await;
                if let Err(e) = hub.expire_abandoned().await {
                    tracing::error!(error = %e, "cannot expire abandoned games");
                }
            }
        });
    }

    /// One sweep: cancels every abandoned open game, tells the sockets on it, and
    /// refreshes the lobby. Returns how many were cancelled.
    pub async fn expire_abandoned(self: &Arc<Self>) -> Result<usize, AppError> {
        let now = now_ms();
        let idle = self.idle_ms();
        let cutoff = now - idle;
        let mut after = None;
        let mut gone = Vec::new();
        loop {
            let from = after.clone();
            let page = blocking(&self.pool, move |c| {
                Ok(games::open_created_before(c, cutoff, from, SWEEP_PAGE)?)
            })
            .await?;
            let full = page.len() as i64 == SWEEP_PAGE;
            for (id, creator, created_at) in &page {
                if abandoned(&self.presence, idle, *creator, id, *created_at, now) {
                    gone.push(id.clone());
                }
            }
            after = page.last().map(|(id, _, at)| (*at, id.clone()));
            if !full {
                break;
            }
        }
        // Places left before the cutoff decide nothing any more.
        self.presence.forget_before(cutoff);
        if gone.is_empty() {
            return Ok(0);
        }
        let ids = gone.clone();
        let n = blocking(&self.pool, move |c| Ok(games::expire(c, &ids)?)).await?;
        // A game with a live task (a socket on it) shows the cancellation at once; the
        // task changes nothing unless its game was still open.
        for id in &gone {
            if let Some(tx) = self.live_handle(id) {
                let _ = tx.send(Cmd::Expired);
            }
        }
        tracing::info!(expired = n, "abandoned open games cancelled");
        self.lobby_changed();
        Ok(n)
    }
}
