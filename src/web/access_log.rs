//! The access log, kept small under a flood. Every answer was a log line: 50 minutes of
//! probing wrote 86 MB (about 240 lines a second). Now answers are logged one by one
//! while a budget lasts — a burst of [`BURST`], refilled at [`PER_SECOND`] a second
//! (governor's GCRA) — and past it only counted: once a second one line says how many
//! went unlogged. Server errors (5xx) are always logged and spend no budget. At most
//! `BURST + PER_SECOND × t` request lines and `t` count lines in `t` seconds, each
//! line's target cut to [`TARGET_CHARS`]. A line is about 80 bytes (measured by
//! tests/http_answers.rs), so the same probing now writes about 5 MB.
//!
//! The burst covers a few page views at once (a first visit to a game page is about 30
//! answers: the page, its styles and scripts, the icon, the API calls), so a quiet site
//! logs everything.

use crate::quote::clipped;
use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::StatusCode;
use actix_web::middleware::Next;
use actix_web::web;
use governor::clock::{Clock, DefaultClock};
use governor::middleware::NoOpMiddleware;
use governor::state::{InMemoryState, NotKeyed};
use governor::{Quota, RateLimiter};
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Request lines logged at once before the rate applies.
pub const BURST: u32 = 100;
/// Request lines a second past the burst.
pub const PER_SECOND: u32 = 20;
/// How much of a request's path and query a line shows.
pub const TARGET_CHARS: usize = 200;
/// How often the count of unlogged answers is written (when there are any).
pub const COUNT_EVERY: Duration = Duration::from_secs(1);

/// The tracing target of every access-log line.
pub const TARGET: &str = "junqi::access";

type Limiter<C> = RateLimiter<NotKeyed, InMemoryState, C, NoOpMiddleware<<C as Clock>::Instant>>;

/// The budget of request lines and the count of answers past it.
pub struct AccessLog<C: Clock = DefaultClock> {
    lines: Limiter<C>,
    skipped: AtomicU64,
}

impl Default for AccessLog {
    fn default() -> AccessLog {
        AccessLog::with_clock(&DefaultClock::default())
    }
}

impl<C: Clock + Clone> AccessLog<C> {
    pub fn with_clock(clock: &C) -> AccessLog<C> {
        let quota = Quota::per_second(NonZeroU32::new(PER_SECOND).expect("PER_SECOND > 0"))
            .allow_burst(NonZeroU32::new(BURST).expect("BURST > 0"));
        AccessLog {
            lines: RateLimiter::direct_with_clock(quota, clock.clone()),
            skipped: AtomicU64::new(0),
        }
    }

    /// Whether an answer with this status gets its own line; if not, it is counted.
    pub fn admit(&self, status: StatusCode) -> bool {
        if status.is_server_error() || self.lines.check().is_ok() {
            return true;
        }
        self.skipped.fetch_add(1, Ordering::Relaxed);
        false
    }

    /// How many answers went unlogged since the last call.
    pub fn take_skipped(&self) -> u64 {
        self.skipped.swap(0, Ordering::Relaxed)
    }
}

/// Writes the count of unlogged answers every [`COUNT_EVERY`], when there are any.
pub async fn count_skipped(log: web::Data<AccessLog>) {
    let mut every = tokio::time::interval(COUNT_EVERY);
    loop {
        every.tick().await;
        let skipped = log.take_skipped();
        if skipped > 0 {
            tracing::info!(target: TARGET, skipped, "{skipped} more answers not logged one by one");
        }
    }
}

/// The middleware: `GET /path?query HTTP/1.1 200 0.4ms` (the time to the answer's head).
pub async fn log(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let started = Instant::now();
    let log = req.app_data::<web::Data<AccessLog>>().cloned();
    let method = req.method().clone();
    let version = req.version();
    let target = clipped(
        req.uri()
            .path_and_query()
            .map_or_else(|| req.path(), |p| p.as_str()),
        TARGET_CHARS,
    )
    .into_owned();
    let res = next.call(req).await?;
    let status = res.status();
    if log.is_none_or(|log| log.admit(status)) {
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        tracing::info!(target: TARGET, "{method} {target} {version:?} {} {ms:.1}ms", status.as_u16());
    }
    Ok(res)
}

#[cfg(test)]
mod tests {
    use super::*;
    use governor::clock::FakeRelativeClock;

    #[test]
    fn a_burst_is_logged_then_the_rate_then_only_a_count() {
        let clock = FakeRelativeClock::default();
        let log = AccessLog::with_clock(&clock);
        let admitted = (0..BURST + 50)
            .filter(|_| log.admit(StatusCode::OK))
            .count();
        assert_eq!(admitted, BURST as usize);
        assert_eq!(log.take_skipped(), 50);
        assert_eq!(log.take_skipped(), 0, "the count starts again");
        // A second later: another PER_SECOND lines, no more.
        clock.advance(Duration::from_secs(1));
        let admitted = (0..1000)
            .filter(|_| log.admit(StatusCode::NOT_FOUND))
            .count();
        assert_eq!(admitted, PER_SECOND as usize);
        assert_eq!(log.take_skipped(), 1000 - PER_SECOND as u64);
        // Spread out: one line every 1/PER_SECOND s.
        for _ in 0..10 {
            clock.advance(Duration::from_secs(1) / PER_SECOND);
            assert!(log.admit(StatusCode::OK));
            assert!(!log.admit(StatusCode::OK));
        }
        // Quiet for long enough, the whole burst is back.
        clock.advance(Duration::from_secs(60));
        let admitted = (0..BURST * 2).filter(|_| log.admit(StatusCode::OK)).count();
        assert_eq!(admitted, BURST as usize);
    }

    #[test]
    fn server_errors_are_always_logged_and_spend_nothing() {
        let clock = FakeRelativeClock::default();
        let log = AccessLog::with_clock(&clock);
        while log.admit(StatusCode::OK) {}
        log.take_skipped();
        for _ in 0..1000 {
            assert!(log.admit(StatusCode::INTERNAL_SERVER_ERROR));
            assert!(log.admit(StatusCode::SERVICE_UNAVAILABLE));
        }
        assert_eq!(log.take_skipped(), 0);
        assert!(!log.admit(StatusCode::OK), "the budget is still spent");
        // And they did not spend what comes back.
        let fresh = AccessLog::with_clock(&clock);
        for _ in 0..1000 {
            fresh.admit(StatusCode::BAD_GATEWAY);
        }
        let admitted = (0..BURST * 2)
            .filter(|_| fresh.admit(StatusCode::OK))
            .count();
        assert_eq!(admitted, BURST as usize);
    }
}
