//! `--computer-games`: games against the computer beside the person-to-person games.
//! Each of these players creates a casual flip game against the computer at
//! `--computer-level` and plays a random legal action at the games' pace (one every
//! interval, counted from its own last action); the computer answers through the
//! server's thinking pool. They add the thinking to the load; the report keeps their
//! figures (the computer's reply time) apart from the person games' latency.

use super::accounts::Player;
use super::protocol::{Act, Created, Msg, Seat};
use super::shared::Ctx;
use super::start::{Sock, connect};
use super::stats::{Spread, micros, spread};
use crate::engine::Level;
use actix_web::rt::time::{sleep, sleep_until};
use awc::http::header::COOKIE;
use awc::ws;
use futures_util::{SinkExt, StreamExt};
use rand::RngExt;
use serde::Serialize;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// With nothing heard this long, the game is taken as stuck and another is started.
const STALLED: Duration = Duration::from_secs(75);

/// What the games against the computer count.
#[derive(Default)]
pub struct ComputerStats {
    /// The person's action sent → the computer's answering event, microseconds: the
    /// server's handling of both actions, the queue and the thinking.
    pub reply_us: Vec<u32>,
    pub games_started: u64,
    pub games_ended: u64,
    /// Games being played now.
    pub playing: usize,
    pub errors: BTreeMap<String, u64>,
}

impl ComputerStats {
    fn error(&mut self, kind: impl Into<String>) {
        *self.errors.entry(kind.into()).or_default() += 1;
    }
}

/// The games against the computer over one level's hold.
#[derive(Debug, Serialize)]
pub struct Figures {
    pub level: &'static str,
    /// Games being played at the end of the hold.
    pub live: usize,
    pub replies_ms: Spread,
    pub games_started: u64,
    pub games_ended: u64,
    pub errors: u64,
    pub error_kinds: BTreeMap<String, u64>,
}

impl Figures {
    /// Takes the hold's samples and the level's counts, and starts both afresh.
    pub fn take(stats: &mut ComputerStats, level: Level) -> Figures {
        let f = Figures {
            level: level.name(),
            live: stats.playing,
            replies_ms: spread(&mut stats.reply_us),
            games_started: stats.games_started,
            games_ended: stats.games_ended,
            errors: stats.errors.values().sum(),
            error_kinds: std::mem::take(&mut stats.errors),
        };
        stats.reply_us.clear();
        stats.games_started = 0;
        stats.games_ended = 0;
        f
    }

    pub fn line(&self) -> String {
        let s = &self.replies_ms;
        format!(
            "  beside them: {} games against the computer ({}): {} replies, reply ms \
             p50/p99/max {:.1} / {:.1} / {:.1}; {} games ended; {} errors",
            self.live, self.level, s.samples, s.p50, s.p99, s.max, self.games_ended, self.errors
        )
    }
}

/// Plays games against the computer as `player` until the program ends.
pub async fn computer_task(ctx: Rc<Ctx>, player: Rc<Player>, client: awc::Client, level: Level) {
    let mut backoff = Duration::from_secs(1);
    loop {
        match start(&ctx, &player, &client, level).await {
            Ok(sock) => {
                backoff = Duration::from_secs(1);
                {
                    let mut stats = ctx.computer.borrow_mut();
                    stats.games_started += 1;
                    stats.playing += 1;
                }
                play(&ctx, sock).await;
                ctx.computer.borrow_mut().playing -= 1;
            }
            Err(kind) => {
                ctx.computer.borrow_mut().error(kind);
                sleep(backoff).await;
                backoff = (backoff * 2).min(Duration::from_secs(30));
            }
        }
    }
}

/// Creates a game against the computer and opens the player's socket on it.
async fn start(
    ctx: &Ctx,
    player: &Player,
    client: &awc::Client,
    level: Level,
) -> Result<Sock, String> {
    let body = serde_json::json!({
        "variant": "flip",
        "seconds_per_action": ctx.seconds_per_action,
        "rated": false,
        "computer": level.name(),
    });
    let mut created = client
        .post(ctx.url("/api/games"))
        .insert_header((COOKIE, player.cookie.as_str()))
        .send_json(&body)
        .await
        .map_err(|_| "computer_create_failed".to_string())?;
    if created.status().as_u16() != 201 {
        return Err(format!("computer_create_{}", created.status().as_u16()));
    }
    let id = created
        .json::<Created>()
        .await
        .map_err(|_| "computer_create_unreadable".to_string())?
        .id;
    connect(ctx, client, &id, player, None)
        .await
        .map_err(|e| format!("computer_{e}"))
}

/// Plays one game to its end (or until it stalls or its socket fails).
async fn play(ctx: &Ctx, mut sock: Sock) {
    let mut you: Option<Seat> = None;
    let mut legal: Vec<Act> = Vec::new();
    let mut last_act = Instant::now();
    let mut next_ack = 1u64;
    // When the person's last action went out, until the computer answers.
    let mut waiting: Option<(Instant, bool)> = None;
    let mut heard = Instant::now();
    loop {
        let due = if legal.is_empty() {
            heard + STALLED
        } else {
            last_act + ctx.interval
        };
        let frame = tokio::select! {
            f = sock.next() => f,
            _ = sleep_until(due.into()) => {
                if legal.is_empty() {
                    ctx.computer.borrow_mut().error("computer_stalled");
                    return;
                }
                let act = legal[rand::rng().random_range(0..legal.len())];
                legal.clear();
                last_act = Instant::now();
                waiting = Some((last_act, ctx.measuring.get()));
                let sent = sock.send(ws::Message::Text(act.command(next_ack).into())).await;
                next_ack += 1;
                if sent.is_err() {
                    ctx.computer.borrow_mut().error("computer_send_failed");
                    return;
                }
                continue;
            }
        };
        let bytes = match frame {
            Some(Ok(ws::Frame::Text(b))) => b,
            Some(Ok(ws::Frame::Ping(b))) => {
                let _ = sock.send(ws::Message::Pong(b)).await;
                continue;
            }
            Some(Ok(ws::Frame::Close(_))) | Some(Err(_)) | None => {
                ctx.computer.borrow_mut().error("computer_socket_lost");
                return;
            }
            Some(Ok(_)) => continue,
        };
        heard = Instant::now();
        let Ok(m) = serde_json::from_slice::<Msg>(&bytes) else {
            ctx.computer
                .borrow_mut()
                .error("computer_unreadable_message");
            continue;
        };
        let d = m.d.unwrap_or_default();
        match m.t {
            "state" => {
                you = d.you.or(you);
                let running = d.game.is_none_or(|g| g.status == "running");
                let view = d.view;
                if !running
                    || d.result.is_some()
                    || view.as_ref().is_some_and(|v| v.outcome.is_some())
                {
                    break;
                }
                legal = view.map(|v| v.legal).unwrap_or_default();
            }
            "event" => {
                legal = d.legal.unwrap_or_default();
                if d.seat.is_some()
                    && d.seat != you
                    && matches!(d.kind, Some("flip" | "move"))
                    && let Some((sent, measured)) = waiting.take()
                    && measured
                {
                    ctx.computer
                        .borrow_mut()
                        .reply_us
                        .push(micros(heard - sent));
                }
                if d.result.is_some() || d.outcome.is_some() {
                    break;
                }
            }
            "error" => {
                let code = d.code.unwrap_or("unknown");
                ctx.computer
                    .borrow_mut()
                    .error(format!("computer_server_{code}"));
            }
            _ => {}
        }
    }
    ctx.computer.borrow_mut().games_ended += 1;
    let _ = sock
        .send(ws::Message::Close(Some(ws::CloseCode::Normal.into())))
        .await;
}
