//! Reviews being computed and reviews done, and the bounds on who may start one.
//!
//! A review is a minute's work at most of a low-priority thread (background.rs), so
//! what anyone may ask for is bounded several ways, each checked before any work is
//! queued:
//! - a finished review is kept, per (game, side): asking again costs nothing, and two
//!   players asking for the same one share one computation;
//! - a player has at most one review waiting or being computed at a time;
//! - a player starts at most [`PER_HOUR_BURST`] reviews at once, then one every
//!   [`PER_HOUR_PERIOD`] (on the limits' clock, which tests freeze);
//! - at most [`MAX_PENDING`] reviews wait or run, whoever asked: past that everyone is
//!   told to come back shortly.
//!
//! Kept in memory, not in the database: a finished game's review is recomputed after a
//! restart for the price of one more review, while a stored one would need a table on
//! both backends and would go stale without a sound whenever the engine's search
//! changes (it is being rewritten).

use super::super::background::Background;
use super::super::rate_clock::{KeyedLimiter, RateClock, keyed};
use crate::db::games::{ActionRow, GameRow};
use crate::error::AppError;
use crate::review::{self, Budget};
use crate::rules::Seat;
use actix_web::web::Bytes;
use governor::Quota;
use serde_json::json;
use std::collections::HashMap;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Reviews waiting or being computed, at most (one thread computes; the rest wait).
pub const MAX_PENDING: usize = 4;

/// Reviews a player may start at once, and the period after which each more is allowed:
/// six, then one every ten minutes (about six an hour).
pub const PER_HOUR_BURST: u32 = 6;
pub const PER_HOUR_PERIOD: Duration = Duration::from_secs(600);

/// Finished reviews kept, by the bytes of their JSON: a 300-step game's is about 40 KB,
/// so some 800 of them.
const KEPT_BYTES: u64 = 32 << 20;

/// What is reviewed: a game and the side whose information is used.
pub type Key = (String, Seat);

/// How far a review being computed has come.
pub struct Progress {
    pub done: AtomicU32,
    pub total: u32,
    /// Set once a thread has taken it.
    pub running: AtomicBool,
}

#[derive(Default)]
struct Pending {
    by_key: HashMap<Key, (Arc<Progress>, i64)>,
    /// Each player's review waiting or being computed.
    by_player: HashMap<i64, Key>,
}

/// Where a review stands.
pub enum Status {
    Done(Bytes),
    Pending(Arc<Progress>),
    Failed,
    None,
}

struct Inner {
    pool: Background,
    pending: Mutex<Pending>,
    done: moka::sync::Cache<Key, Bytes>,
    /// Reviews that failed lately, so that the page can say so rather than wait.
    failed: moka::sync::Cache<Key, ()>,
    hourly: Option<KeyedLimiter<i64>>,
    budget: Budget,
}

#[derive(Clone)]
pub struct Reviews {
    inner: Arc<Inner>,
}

/// The seed of a game's review from one side: the same after a restart, so that a
/// review computed again says the same.
fn seed(id: &str, side: Seat) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in id.bytes().chain([side.index() as u8]) {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

impl Reviews {
    /// `rate_limits` off (`--no-rate-limits`) lifts the hourly limit only: the other
    /// bounds are what keep the machine's share for games, not limits on people.
    pub fn new(rate_limits: bool, clock: &RateClock, budget: Budget) -> Reviews {
        let quota = Quota::with_period(PER_HOUR_PERIOD)
            .expect("a period above zero")
            .allow_burst(NonZeroU32::new(PER_HOUR_BURST).expect("a burst above zero"));
        Reviews {
            inner: Arc::new(Inner {
                // One thread: reviews take turns rather than a second core.
                pool: Background::start("junqi-review", 1, MAX_PENDING),
                pending: Mutex::new(Pending::default()),
                done: moka::sync::Cache::builder()
                    .max_capacity(KEPT_BYTES)
                    .weigher(|_: &Key, b: &Bytes| u32::try_from(b.len() + 64).unwrap_or(u32::MAX))
                    .build(),
                failed: moka::sync::Cache::builder()
                    .max_capacity(1_000)
                    .time_to_live(Duration::from_secs(60))
                    .build(),
                hourly: rate_limits.then(|| keyed(quota, clock)),
                budget,
            }),
        }
    }

    pub fn status(&self, key: &Key) -> Status {
        if let Some(b) = self.inner.done.get(key) {
            return Status::Done(b);
        }
        let pending = self.inner.pending.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((p, _)) = pending.by_key.get(key) {
            return Status::Pending(p.clone());
        }
        drop(pending);
        if self.inner.failed.contains_key(key) {
            return Status::Failed;
        }
        Status::None
    }

    /// Whether `player` could start a review now as far as the bounds that need no
    /// game tell (one at a time, the queue's room): checked before the game's actions
    /// are read, so that a refused request costs no more than a look here.
    pub fn may_start(&self, key: &Key, player: i64) -> Result<(), AppError> {
        let pending = self.inner.pending.lock().unwrap_or_else(|p| p.into_inner());
        if pending.by_key.contains_key(key) {
            return Ok(());
        }
        Self::refuse(&pending, player)
    }

    fn refuse(pending: &Pending, player: i64) -> Result<(), AppError> {
        if let Some((id, side)) = pending.by_player.get(&player) {
            return Err(AppError::Limit(
                "review_in_progress",
                format!(
                    "one review at a time: your review of game {id} ({side}) is not finished yet"
                ),
            ));
        }
        if pending.by_key.len() >= MAX_PENDING {
            return Err(AppError::RateLimited(30));
        }
        Ok(())
    }

    /// Starts the review of `key` for `player`, unless it is done or under way (then its
    /// status), within the bounds above. `row` and `actions` are the finished game.
    pub fn start(
        &self,
        key: Key,
        player: i64,
        row: GameRow,
        actions: Vec<ActionRow>,
    ) -> Result<Status, AppError> {
        let inner = &self.inner;
        let mut pending = inner.pending.lock().unwrap_or_else(|p| p.into_inner());
        // Looked at under the lock, so that two requests cannot both start it.
        if let Some(b) = inner.done.get(&key) {
            return Ok(Status::Done(b));
        }
        if let Some((p, _)) = pending.by_key.get(&key) {
            return Ok(Status::Pending(p.clone()));
        }
        Self::refuse(&pending, player)?;
        if let Some(limiter) = &inner.hourly {
            limiter
                .check_key(&player)
                .map_err(|n| AppError::RateLimited(limiter.clock().seconds_until(&n)))?;
        }
        let (game, played) = review::stored::load(&row, &actions).map_err(AppError::internal)?;
        let progress = Arc::new(Progress {
            done: AtomicU32::new(0),
            total: review::own_steps(&played, key.1),
            running: Default::default(),
        });
        let job = {
            let this = self.clone();
            let key = key.clone();
            let progress = progress.clone();
            move || this.compute(key, game, played, &progress)
        };
        inner
            .pool
            .try_run(job)
            .map_err(|_| AppError::RateLimited(30))?;
        pending
            .by_key
            .insert(key.clone(), (progress.clone(), player));
        pending.by_player.insert(player, key);
        Ok(Status::Pending(progress))
    }

    /// On a review thread: the review itself, kept when done.
    fn compute(
        &self,
        key: Key,
        game: crate::rules::Game,
        played: Vec<review::Played>,
        progress: &Progress,
    ) {
        progress.running.store(true, Ordering::Relaxed);
        let t0 = Instant::now();
        let (id, side) = (key.0.as_str(), key.1);
        let done = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            review::review(
                game,
                &played,
                side,
                self.inner.budget,
                seed(id, side),
                &mut |d, _| {
                    progress.done.store(d, Ordering::Relaxed);
                },
            )
        }));
        let json = match done {
            Ok(Ok(r)) => serde_json::to_vec(&json!({"status": "done", "side": side, "review": r}))
                .map_err(|e| e.to_string()),
            Ok(Err(e)) => Err(e),
            Err(_) => Err("the review panicked".into()),
        };
        match json {
            Ok(bytes) => {
                // One line per review computed (the tests count them).
                tracing::info!(game = id, side = %side, ms = t0.elapsed().as_millis() as u64,
                    steps = progress.total, "review computed");
                // Kept before it stops being pending, so that it is never neither.
                self.inner.done.insert(key.clone(), Bytes::from(bytes));
            }
            Err(e) => {
                tracing::error!(game = id, side = %side, error = %e, "review failed");
                self.inner.failed.insert(key.clone(), ());
            }
        }
        let mut pending = self.inner.pending.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((_, player)) = pending.by_key.remove(&key) {
            pending.by_player.remove(&player);
        }
    }

    /// Drops the hourly limit's state of players whose allowance has refilled.
    pub fn forget_recovered(&self) {
        if let Some(l) = &self.inner.hourly {
            l.retain_recent();
            l.shrink_to_fit();
        }
    }
}
