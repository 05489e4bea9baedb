//! `POST /api/analysis/evaluate`: the engine's judgement of a two-player position as the
//! seat to move sees it (the input of `/api/analysis/moves`), at a fixed modest budget:
//! `{"value": n, "best": [{"action", "value"}, …]}`, best first.
//!
//! A search costs a tenth of a second of a core, so the path is guarded: each client
//! (its account, or its address without one) gets a burst of [`BURST`] and then one
//! every [`PERIOD`]; the searches run on one low-priority thread of their own
//! (background.rs) with [`WAITING`] places to wait, past which a request is told to
//! come back in a second rather than queued.

use super::analysis_position::{AnalysisRequest, read};
use super::api::malformed;
use super::background::Background;
use super::bearer::Caller;
use super::rate_clock::{KeyedLimiter, RateClock, keyed};
use super::throttle::Guard;
use crate::engine::analysis::assess_turn;
use crate::engine::{Information, Level, Limits};
use crate::error::AppError;
use crate::rules::Action;
use actix_web::{HttpRequest, HttpResponse, web};
use governor::Quota;
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde::Serialize;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::time::{Duration, Instant};

/// Evaluations a client may ask for at once, then one every `PERIOD`.
pub const BURST: u32 = 10;
pub const PERIOD: Duration = Duration::from_secs(3);

/// Searches waiting for the thread, at most.
const WAITING: usize = 8;

/// 普通's search at its whole budget (40,000 nodes in flip chess, four worlds of 3,000
/// in standard): about a tenth of a second, and a fair judgement of one position.
const LEVEL: Level = Level::Normal;

/// A search stops by then at the latest, on a starved machine.
const MOST: Duration = Duration::from_secs(2);

/// Actions listed by default, and at most (a flip-chess position has fewer legal ones).
const TOP: usize = 5;
const MOST_LISTED: usize = 100;

/// Who a limit counts: an account, or an address for those without one.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Client {
    Account(i64),
    Address(IpAddr),
}

pub struct Evaluator {
    pool: Background,
    limit: Option<KeyedLimiter<Client>>,
}

impl Evaluator {
    pub fn new(rate_limits: bool, clock: &RateClock) -> Evaluator {
        let quota = Quota::with_period(PERIOD)
            .expect("a period above zero")
            .allow_burst(NonZeroU32::new(BURST).expect("a burst above zero"));
        Evaluator {
            pool: Background::start("junqi-evaluate", 1, WAITING),
            limit: rate_limits.then(|| keyed(quota, clock)),
        }
    }

    pub fn forget_recovered(&self) {
        if let Some(l) = &self.limit {
            l.retain_recent();
            l.shrink_to_fit();
        }
    }
}

#[derive(Serialize)]
struct Valued {
    action: Action,
    value: i32,
}

#[derive(Serialize)]
struct Evaluation {
    /// The seat's value of the position with its best action, in evaluation points;
    /// null when there is nothing to choose from yet (flip chess before colours).
    value: Option<i32>,
    best: Vec<Valued>,
}

pub async fn evaluate(
    req: HttpRequest,
    evaluator: web::Data<Evaluator>,
    guard: web::Data<Guard>,
    caller: Caller,
    body: web::Json<serde_json::Value>,
) -> Result<HttpResponse, AppError> {
    if let Some(limit) = &evaluator.limit {
        let who = match caller.id() {
            Some(id) => Client::Account(id),
            None => Client::Address(guard.client_ip(&req)),
        };
        limit
            .check_key(&who)
            .map_err(|n| AppError::RateLimited(limit.clock().seconds_until(&n)))?;
    }
    let body = body.into_inner();
    if body.get("variant").and_then(|v| v.as_str()) == Some("siguo") {
        return Err(AppError::BadRequest(
            "evaluate answers flip chess and standard positions; 四国 is not evaluated".into(),
        ));
    }
    let request: AnalysisRequest = serde_json::from_value(body).map_err(malformed)?;
    let top = request.top.unwrap_or(TOP);
    if !(1..=MOST_LISTED).contains(&top) {
        return Err(AppError::BadRequest(format!(
            "top is a number from 1 to {MOST_LISTED}"
        )));
    }
    let seen = read(&request)?;
    let info = Information::new(seen.seat_view()?, *seen.game.options());
    let (tx, rx) = tokio::sync::oneshot::channel();
    evaluator
        .pool
        .try_run(move || {
            // Seeded, so the same position gets the same answer.
            let mut rng = StdRng::seed_from_u64(0x006a_756e_7169);
            let limits = Limits {
                deadline: Some(Instant::now() + MOST),
                stop: None,
                share: 1.0,
            };
            let _ = tx.send(assess_turn(&info, LEVEL, &mut rng, limits));
        })
        .map_err(|_| AppError::RateLimited(1))?;
    let assessed = rx
        .await
        .map_err(|_| AppError::internal("the evaluation did not finish"))?;
    let answer = match assessed {
        Some(a) => Evaluation {
            value: Some(a.value),
            best: a
                .actions
                .into_iter()
                .take(top)
                .map(|(action, value)| Valued { action, value })
                .collect(),
        },
        None => Evaluation {
            value: None,
            best: Vec::new(),
        },
    };
    Ok(HttpResponse::Ok().json(answer))
}
