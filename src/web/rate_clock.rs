//! The clock the login, registration and API-token limits run on.
//!
//! In service it is the machine's monotonic clock. A test of a limit cannot run on it:
//! the limits refill while the test's requests are answered, so how many get through
//! "at once" depends on how fast a loaded machine answers them (31 instead of 30, seen
//! beside a CPU hog). With the hidden flag `--frozen-rate-clock`, for tests only, the
//! clock stands still (governor's `FakeRelativeClock`) and moves only when
//! `POST /test/rate-clock` `{"advance_ms": N}` says so; that route exists only with the
//! flag. A limit under test then counts exactly, whatever the machine's speed.

use crate::error::AppError;
use actix_web::{HttpResponse, web};
use governor::clock::{Clock, FakeRelativeClock};
use governor::middleware::NoOpMiddleware;
use governor::nanos::Nanos;
use governor::state::keyed::DefaultKeyedStateStore;
use governor::{NotUntil, Quota, RateLimiter};
use serde::Deserialize;
use std::hash::Hash;
use std::time::{Duration, Instant};

/// The machine's monotonic clock, or a frozen one that only a test moves.
#[derive(Debug, Clone)]
pub struct RateClock {
    start: Instant,
    frozen: Option<FakeRelativeClock>,
}

impl RateClock {
    pub fn real() -> RateClock {
        RateClock {
            start: Instant::now(),
            frozen: None,
        }
    }

    /// A clock that stands still until [`RateClock::advance`] moves it.
    pub fn frozen() -> RateClock {
        RateClock {
            start: Instant::now(),
            frozen: Some(FakeRelativeClock::default()),
        }
    }

    pub fn is_frozen(&self) -> bool {
        self.frozen.is_some()
    }

    /// Moves a frozen clock on; a real one is not moved (`false`).
    pub fn advance(&self, by: Duration) -> bool {
        match &self.frozen {
            Some(f) => {
                f.advance(by);
                true
            }
            None => false,
        }
    }

    /// The seconds to wait, rounded up, before `not_until` allows another attempt.
    pub fn seconds_until(&self, not_until: &NotUntil<Nanos>) -> u64 {
        let wait = not_until.wait_time_from(self.now());
        wait.as_secs() + u64::from(wait.subsec_nanos() > 0)
    }
}

impl Clock for RateClock {
    type Instant = Nanos;

    fn now(&self) -> Nanos {
        match &self.frozen {
            Some(f) => f.now(),
            None => Nanos::from(self.start.elapsed()),
        }
    }
}

/// A keyed GCRA limiter on a [`RateClock`].
pub type KeyedLimiter<K> =
    RateLimiter<K, DefaultKeyedStateStore<K>, RateClock, NoOpMiddleware<Nanos>>;

pub fn keyed<K: Hash + Eq + Clone>(quota: Quota, clock: &RateClock) -> KeyedLimiter<K> {
    RateLimiter::dashmap_with_clock(quota, clock.clone())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Advance {
    advance_ms: u64,
}

/// `POST /test/rate-clock` `{"advance_ms": N}` (only with `--frozen-rate-clock`): moves
/// the limits' clock on by N ms, at most a day at a time.
pub async fn advance(
    clock: web::Data<RateClock>,
    body: web::Json<Advance>,
) -> Result<HttpResponse, AppError> {
    if body.advance_ms > 86_400_000 {
        return Err(AppError::BadRequest(
            "advance_ms is at most 86400000 (a day)".into(),
        ));
    }
    if !clock.advance(Duration::from_millis(body.advance_ms)) {
        return Err(AppError::NotFound("the rate clock is not frozen".into()));
    }
    let now: Duration = clock.now().into();
    Ok(HttpResponse::Ok().json(serde_json::json!({"now_ms": now.as_millis() as u64})))
}

/// The test route, for a server started with `--frozen-rate-clock`.
pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/test/rate-clock", web::post().to(advance));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frozen_clock_moves_only_when_told() {
        let clock = RateClock::frozen();
        let limiter = keyed::<u8>(Quota::with_period(Duration::from_secs(4)).unwrap(), &clock);
        assert!(limiter.check_key(&1).is_ok());
        let refused = limiter.check_key(&1).unwrap_err();
        assert_eq!(clock.seconds_until(&refused), 4, "nothing refilled");
        assert!(clock.advance(Duration::from_millis(3_500)));
        assert_eq!(clock.seconds_until(&limiter.check_key(&1).unwrap_err()), 1);
        clock.advance(Duration::from_millis(500));
        assert!(limiter.check_key(&1).is_ok());
        assert!(!RateClock::real().advance(Duration::from_secs(1)));
    }
}
