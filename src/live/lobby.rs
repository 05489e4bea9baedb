//! The lobby's rules against one player taking it over: at most [`MAX_OPEN_GAMES`]
//! open games and [`MAX_RATED_GAMES`] rated games in hand per player (checked, with
//! every other cap, in `caps`); a list that shows at most [`LISTED_PER_CREATOR`] games
//! of anyone, established players' before new accounts'; open games whose creator has
//! gone (no lobby socket, no socket on the game, for the idle time) are neither listed
//! nor paired, and the sweep cancels them; quick pairing finds games by their settings,
//! creators who are here first, newest first.

use super::presence::Presence;
use super::summary::{OpenGame, PlayerInfo};
use super::{Cmd, Hub, blocking};
use crate::db::games::{self, GameRow, Wanted};
use crate::db::now_ms;
use crate::db::open_lists::{self, Creators, Listing};
use crate::error::AppError;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

/// Open games one player may have at once: enough to offer several clocks or both
/// variants, too few to fill the lobby.
pub const MAX_OPEN_GAMES: i64 = 5;
/// Rated games one player may have in hand at once (running, or open and waiting):
/// a person plays one or two at a time; more is an account farming rating with alts.
pub const MAX_RATED_GAMES: i64 = 3;
/// The most games the lobby lists.
pub const LOBBY_LIMIT: usize = 100;
/// The most games of one creator the lobby lists (their newest): 21 accounts with five
/// open games each filled the newest 100 and pushed everyone else's off the list. A
/// player's other open games are still found by quick pairing and invitations.
pub const LISTED_PER_CREATOR: usize = 2;
/// How old an account must be for its games to be listed among established players'
/// without a finished rated game: new accounts cost a flooder nothing, week-old ones
/// (at the registration limit of five an hour per address) a week of waiting.
pub const ESTABLISHED_AFTER: Duration = Duration::from_secs(7 * 24 * 3600);
/// Open games read to fill the list, of established creators and of new ones each:
/// more than it shows, for those skipped as abandoned or past a creator's share (at
/// least 60 creators' games among 300, since each has at most five open).
const LOBBY_SCAN: i64 = 300;
/// Compatible games quick pairing tries, newest first.
pub(super) const PAIR_SCAN: i64 = 50;
/// Old open games the sweep reads at a time.
const SWEEP_PAGE: i64 = 500;

/// Whether an open game has been abandoned: its creator has been away from the lobby
/// and from the game for `idle`, counting from its creation at the earliest.
pub(super) fn abandoned(
    p: &Presence,
    idle: i64,
    creator: i64,
    id: &str,
    created_at: i64,
    now: i64,
) -> bool {
    match p.away_since(creator, id) {
        None => false,
        Some(since) => since.max(created_at) + idle <= now,
    }
}

/// What the lobby lists of `tiers` (established creators' open games, then new
/// accounts', each newest first): those `keep` keeps, at most [`LISTED_PER_CREATOR`]
/// per creator, in that order, at most `limit`. One player cannot fill the list, and
/// accounts made for flooding it come after everyone with a standing.
pub(super) fn listed(
    tiers: [Vec<GameRow>; 2],
    keep: impl Fn(&GameRow) -> bool,
    limit: usize,
) -> Vec<GameRow> {
    let mut shown: HashMap<i64, usize> = HashMap::new();
    tiers
        .into_iter()
        .flatten()
        .filter(|r| keep(r))
        .filter(|r| {
            let n = shown.entry(r.creator_id).or_default();
            *n += 1;
            *n <= LISTED_PER_CREATOR
        })
        .take(limit)
        .collect()
}

/// A new open game of these settings by `creator_id` (already checked: see the API's
/// `NewGame`), as the lobby's form, quick pairing and challenges open them.
pub fn open_row(
    variant: &str,
    rated: bool,
    seconds_per_action: u32,
    creator_id: i64,
    config: &super::LiveConfig,
) -> GameRow {
    let options = crate::rules::Options {
        seconds_per_action,
        deploy_seconds: config.deploy_seconds,
        ..crate::rules::Options::default()
    };
    GameRow::open(
        super::new_game_id(),
        variant,
        rated,
        seconds_per_action as i32,
        serde_json::to_string(&options).expect("options serialise"),
        creator_id,
        now_ms(),
    )
}

impl Hub {
    pub(super) fn idle_ms(&self) -> i64 {
        self.config.open_game_idle.as_millis() as i64
    }

    /// The lobby's list (see [`listed`]) of open games that are not abandoned, at most
    /// [`LOBBY_LIMIT`].
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
            let made_by = now - ESTABLISHED_AFTER.as_millis() as i64;
            let tiers = [
                open_lists::open_newest(
                    c,
                    Creators::Established { made_by },
                    Listing::Games,
                    LOBBY_SCAN,
                )?,
                open_lists::open_newest(c, Creators::New { made_by }, Listing::Games, LOBBY_SCAN)?,
            ];
            let keep = |r: &GameRow| {
                !abandoned(&presence, idle, r.creator_id, &r.id, r.created_at, now)
                    && !reserved.contains(&r.id)
            };
            let mut open = Vec::new();
            for row in listed(tiers, keep, LOBBY_LIMIT) {
                let creator = PlayerInfo::load(c, row.creator_id, &row.variant)?;
                open.push(OpenGame::of(&row, &creator));
            }
            Ok(open)
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
                Some(super::caps::rated_pool(c, user)?)
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
        Ok(self.here_first(rows))
    }

    /// The ids of `rows` (open games, newest first) in the order pairing tries them:
    /// those whose creator is here now, then the others that are not abandoned, newest
    /// first within each; none being started against the computer.
    pub(super) fn here_first(&self, rows: Vec<GameRow>) -> Vec<String> {
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
        here
    }

    /// Serialises what one player opens and joins, so that two requests at once cannot
    /// both pass a cap. Striped: players share a lock now and then, which costs only a
    /// short wait.
    pub async fn seat_lock(&self, user: i64) -> tokio::sync::MutexGuard<'_, ()> {
        let i = user.rem_euclid(self.seat_locks.len() as i64) as usize;
        self.seat_locks[i].lock().await
    }

    /// The newest open game `user` created with these settings that still waits for
    /// an opponent (not abandoned, not being started against the computer).
    pub async fn own_waiting(
        &self,
        user: i64,
        variant: &'static str,
        seconds_per_action: i32,
        rated: bool,
    ) -> Result<Option<String>, AppError> {
        let rows = blocking(&self.pool, move |c| {
            Ok(games::open_own_with(
                c,
                user,
                variant,
                seconds_per_action,
                rated,
            )?)
        })
        .await?;
        let now = now_ms();
        let idle = self.idle_ms();
        Ok(rows
            .into_iter()
            .find(|r| {
                self.reserved_for(&r.id).is_none()
                    && !abandoned(&self.presence, idle, r.creator_id, &r.id, r.created_at, now)
            })
            .map(|r| r.id))
    }

    /// Serialises quick pairings that look for the same settings, from looking to
    /// opening: two identical requests at once would each find nothing and each open a
    /// game (10 times in 10); one after the other, the second finds the first's game
    /// and joins it. Taken after [`Hub::seat_lock`], never before. Striped, as seat
    /// locks are: settings that share a stripe wait a moment for each other.
    pub async fn pair_lock(
        &self,
        variant: &str,
        seconds_per_action: i32,
        rated: bool,
    ) -> tokio::sync::MutexGuard<'_, ()> {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (variant, seconds_per_action, rated).hash(&mut h);
        let i = (h.finish() % self.pair_locks.len() as u64) as usize;
        self.pair_locks[i].lock().await
    }

    /// Cancels abandoned open games every so often (a quarter of the idle time, between
    /// a quarter of a second and half a minute), for as long as the process runs.
    pub fn start_expiry(self: &Arc<Self>) {
        self.start_lobby_tick();
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
        let hub = self.clone();
        actix_web::rt::spawn(async move {
            loop {
                actix_web::rt::time::sleep(super::challenges::SWEEP).await;
                if let Err(e) = hub.expire_challenges().await {
                    tracing::error!(error = %e, "cannot expire challenges");
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
