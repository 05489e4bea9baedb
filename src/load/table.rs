//! `--siguo-tables`: 四国 tables beside the two-player games. Each table is one task
//! holding its four players' sockets (S, E, N, W, as the server orders the seats). It
//! sets the table up as people do (south creates it; east, north and west `sit`; all
//! four press `ready`, then `ready` again when deploying, keeping the layout the
//! server started them from), then plays at `--table-rate`: once the interval since
//! the table's last action has passed, the seat to move sends a random one of its
//! `legal` moves, or `pass` when it has none. Each action is timed to its `ack` and to
//! the first table message another seat receives after it. When the game ends the
//! same four players open a new table; a table that fails is counted and replaced.

use super::accounts::Four;
use super::protocol::Created;
use super::shared::Ctx;
use super::start::{Sock, connect};
use super::stats::micros;
use super::table_protocol::{self as tp, Incoming, Phase, TableMsg};
use actix_web::rt::time::{sleep, sleep_until};
use awc::http::header::COOKIE;
use awc::ws;
use futures_util::{SinkExt, StreamExt};
use rand::RngExt;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// With nothing heard on any of the four sockets this long, the table is taken as
/// stuck (its seat to move would have timed out twice over).
const STALLED: Duration = Duration::from_secs(75);
/// How long the set-up (seats, ready, deployment) may take before the table is
/// given up.
const SET_UP_WITHIN: Duration = Duration::from_secs(60);

/// Plays tables for one set of four players until the program ends. The spawner
/// counts the first set-up in `ctx.tables.starting`.
pub async fn table_task(ctx: Rc<Ctx>, four: Rc<Four>, client: awc::Client) {
    let mut first = true;
    // After a failed set-up, wait longer each time (up to half a minute).
    let mut backoff = Duration::from_secs(1);
    loop {
        if !first {
            ctx.tables.borrow_mut().starting += 1;
        }
        first = false;
        let began = Instant::now();
        let set_up = Table::open(&ctx, &four, &client).await;
        let set_up = match set_up {
            Ok(mut t) => t.set_up(&ctx).await.map(|()| t),
            Err(e) => Err(e),
        };
        ctx.tables.borrow_mut().starting -= 1;
        match set_up {
            Ok(mut t) => {
                backoff = Duration::from_secs(1);
                {
                    let mut stats = ctx.tables.borrow_mut();
                    stats.started += 1;
                    stats.playing += 1;
                    stats.set_up_us.push(micros(began.elapsed()));
                }
                let ended = t.play(&ctx).await;
                t.close().await;
                let mut stats = ctx.tables.borrow_mut();
                stats.playing -= 1;
                match ended {
                    Ok(()) => stats.ended += 1,
                    Err(kind) => stats.error(kind),
                }
            }
            Err(kind) => {
                ctx.tables.borrow_mut().error(kind);
                sleep(backoff).await;
                backoff = (backoff * 2).min(Duration::from_secs(30));
            }
        }
    }
}

/// An action or set-up command awaiting its answer on one socket.
struct Pending {
    a: u64,
    sent: Instant,
    /// Sent while measuring (its times are samples).
    measured: bool,
    /// A move or pass (not a set-up command).
    play: bool,
}

/// One table as its four players' task sees it; index `i` is seat `tp::SEATS[i]`.
struct Table {
    socks: [Sock; 4],
    /// The newest table message each socket received.
    seen: [Option<TableMsg>; 4],
    pending: [Option<Pending>; 4],
    /// The last action, until another seat's socket hears of it: the mover, the
    /// version the mover had seen, when it was sent, whether measured.
    event_wait: Option<(usize, u64, Instant, bool)>,
    /// A set-up command the server refused, by its code.
    refused: Option<String>,
    next_ack: u64,
    next_at: Instant,
    last_heard: Instant,
}

impl Table {
    /// Creates a casual table as south and opens the four players' sockets.
    async fn open(ctx: &Ctx, four: &Four, client: &awc::Client) -> Result<Table, String> {
        let body = serde_json::json!({
            "seconds_per_action": ctx.seconds_per_action,
            "rated": false,
        });
        let mut created = client
            .post(ctx.url("/api/tables"))
            .insert_header((COOKIE, four.seats[0].cookie.as_str()))
            .send_json(&body)
            .await
            .map_err(|_| "table_create_failed".to_string())?;
        if created.status().as_u16() != 201 {
            return Err(format!("table_create_{}", created.status().as_u16()));
        }
        let id = created
            .json::<Created>()
            .await
            .map_err(|_| "table_create_unreadable".to_string())?
            .id;
        let [s, e, n, w] = &four.seats;
        let (s, e, n, w) = futures_util::join!(
            connect(ctx, client, &id, s, None),
            connect(ctx, client, &id, e, None),
            connect(ctx, client, &id, n, None),
            connect(ctx, client, &id, w, None),
        );
        let opened = |r: Result<Sock, String>| r.map_err(|e| format!("table_{e}"));
        let socks = [opened(s)?, opened(e)?, opened(n)?, opened(w)?];
        let now = Instant::now();
        Ok(Table {
            socks,
            seen: Default::default(),
            pending: Default::default(),
            event_wait: None,
            refused: None,
            next_ack: 1,
            next_at: now,
            last_heard: now,
        })
    }

    /// Seats, ready, deployment: until play begins.
    async fn set_up(&mut self, ctx: &Ctx) -> Result<(), String> {
        let deadline = Instant::now() + SET_UP_WITHIN;
        self.all_answered(ctx, 1..4, tp::sit, "sit", deadline)
            .await?;
        self.all_answered(ctx, 0..4, |_, a| tp::ready(a), "ready", deadline)
            .await?;
        self.until(ctx, deadline, "deploying", |t| {
            t.seen
                .iter()
                .all(|m| m.as_ref().is_some_and(|m| m.phase != Phase::Open))
        })
        .await?;
        self.all_answered(ctx, 0..4, |_, a| tp::ready(a), "deploy", deadline)
            .await?;
        self.until(ctx, deadline, "play", |t| {
            t.seen
                .iter()
                .any(|m| m.as_ref().is_some_and(|m| m.phase != Phase::Deploying))
        })
        .await?;
        // The first action comes within an interval, at random, so that tables set
        // up together do not move in step.
        self.next_at = Instant::now() + ctx.table_interval.mul_f64(rand::rng().random::<f64>());
        Ok(())
    }

    /// Sends the sockets of `seats` each its command (`command(seat, ack id)`) and
    /// waits for every answer.
    async fn all_answered(
        &mut self,
        ctx: &Ctx,
        seats: std::ops::Range<usize>,
        command: impl Fn(usize, u64) -> String,
        what: &str,
        deadline: Instant,
    ) -> Result<(), String> {
        for i in seats {
            let a = self.next_ack;
            self.next_ack += 1;
            self.send(i, command(i, a), a, false, false).await?;
        }
        self.until(ctx, deadline, what, |t| {
            t.pending.iter().all(Option::is_none)
        })
        .await?;
        match self.refused.take() {
            Some(code) => Err(format!("table_{what}_refused_{code}")),
            None => Ok(()),
        }
    }

    /// Reads the sockets until `done` holds, or fails once `deadline` has passed.
    async fn until(
        &mut self,
        ctx: &Ctx,
        deadline: Instant,
        what: &str,
        done: impl Fn(&Table) -> bool,
    ) -> Result<(), String> {
        while !done(self) {
            if self.next_message(ctx, deadline).await?.is_none() {
                return Err(format!("table_{what}_timed_out"));
            }
        }
        Ok(())
    }

    /// The seat to move, once nothing is in flight: the one whose own newest message
    /// gives it the turn and something to do.
    fn mover(&self) -> Option<usize> {
        if self.pending.iter().any(Option::is_some) {
            return None;
        }
        (0..4).find(|&i| {
            self.seen[i].as_ref().is_some_and(|m| {
                m.phase == Phase::Playing
                    && m.to_move == Some(i)
                    && (!m.legal.is_empty() || m.can_pass)
            })
        })
    }

    /// Plays until the game is over (`Ok`) or the table fails (the kind of failure).
    async fn play(&mut self, ctx: &Ctx) -> Result<(), String> {
        loop {
            if self.over() {
                return Ok(());
            }
            let mover = self.mover();
            let wake = match mover {
                Some(_) => self.next_at,
                None => self.last_heard + STALLED,
            };
            if self.next_message(ctx, wake).await?.is_some() {
                continue;
            }
            match mover {
                Some(i) => self.act(ctx, i).await?,
                None => return Err("table_stalled".to_string()),
            }
        }
    }

    fn over(&self) -> bool {
        self.seen.iter().flatten().any(|m| m.phase == Phase::Over)
    }

    /// Seat `i` sends a random one of its legal moves, or passes.
    async fn act(&mut self, ctx: &Ctx, i: usize) -> Result<(), String> {
        let m = self.seen[i].as_ref().expect("the mover has a table");
        let a = self.next_ack;
        self.next_ack += 1;
        let command = if m.legal.is_empty() {
            if ctx.measuring.get() {
                ctx.tables.borrow_mut().passes += 1;
            }
            tp::pass(m.pass_defeats, a)
        } else {
            let (from, to) = m.legal[rand::rng().random_range(0..m.legal.len())];
            tp::move_cmd(from, to, a)
        };
        let now = Instant::now();
        let measured = ctx.measuring.get();
        self.event_wait = Some((i, m.v, now, measured));
        self.next_at = now + ctx.table_interval;
        self.send(i, command, a, true, measured).await
    }

    async fn send(
        &mut self,
        i: usize,
        text: String,
        a: u64,
        play: bool,
        measured: bool,
    ) -> Result<(), String> {
        self.pending[i] = Some(Pending {
            a,
            sent: Instant::now(),
            measured,
            play,
        });
        if self.socks[i]
            .send(ws::Message::Text(text.into()))
            .await
            .is_err()
        {
            return Err("table_send_failed".to_string());
        }
        Ok(())
    }

    /// Waits for the next message on any socket and takes it in (`Some(seat)`), or
    /// for `wake` (`None`).
    async fn next_message(&mut self, ctx: &Ctx, wake: Instant) -> Result<Option<usize>, String> {
        let [s0, s1, s2, s3] = &mut self.socks;
        let (i, frame) = tokio::select! {
            f = s0.next() => (0, f),
            f = s1.next() => (1, f),
            f = s2.next() => (2, f),
            f = s3.next() => (3, f),
            _ = sleep_until(wake.into()) => return Ok(None),
        };
        match frame {
            Some(Ok(ws::Frame::Text(bytes))) => self.on_text(ctx, i, &bytes),
            Some(Ok(ws::Frame::Ping(b))) => {
                if self.socks[i].send(ws::Message::Pong(b)).await.is_err() {
                    return Err("table_send_failed".to_string());
                }
            }
            Some(Ok(ws::Frame::Close(reason))) => {
                let code: u16 = reason.map_or(1005, |r| r.code.into());
                return Err(format!("table_closed_{code}"));
            }
            Some(Ok(_)) => {}
            Some(Err(_)) | None => return Err("table_socket_lost".to_string()),
        }
        Ok(Some(i))
    }

    fn on_text(&mut self, ctx: &Ctx, i: usize, bytes: &[u8]) {
        let now = Instant::now();
        self.last_heard = now;
        let measuring = ctx.measuring.get();
        let read = tp::read(bytes);
        let scan_ns = now.elapsed().as_nanos() as u64;
        let mut stats = ctx.tables.borrow_mut();
        let m = match read {
            Ok(m) => m,
            Err(why) => {
                stats.error(format!("table_unreadable: {why}"));
                return;
            }
        };
        match m {
            Incoming::Table(t) => {
                if measuring {
                    stats.messages += 1;
                    stats.bytes += bytes.len() as u64;
                    stats.scan_ns += scan_ns;
                }
                if ctx.check_table_parse {
                    let began = Instant::now();
                    let by_serde = tp::read_serde(bytes);
                    if measuring {
                        stats.serde_ns += began.elapsed().as_nanos() as u64;
                    }
                    if by_serde.as_ref() != Ok(&t) {
                        stats.error("table_scan_differs_from_serde");
                    }
                }
                if self.seen[i].as_ref().is_some_and(|s| s.v >= t.v) {
                    stats.error("table_version_went_back");
                }
                if let Some((mover, v, sent, measured)) = self.event_wait
                    && mover != i
                    && t.v > v
                {
                    self.event_wait = None;
                    if measured {
                        stats.seen_us.push(micros(now - sent));
                    }
                }
                self.seen[i] = Some(t);
            }
            Incoming::Ack { a } => {
                if let Some(p) = self.pending[i].take_if(|p| p.a == a)
                    && p.play
                {
                    if measuring {
                        stats.actions += 1;
                    }
                    if p.measured {
                        stats.ack_us.push(micros(now - p.sent));
                    }
                }
            }
            Incoming::Error { a, code } => {
                stats.error(format!("table_server_{code}"));
                if a.is_some() && self.pending[i].take_if(|p| Some(p.a) == a).is_some() {
                    // A refused action changed nothing: nobody will hear of it.
                    self.event_wait = None;
                    self.refused = Some(code.to_string());
                }
            }
            Incoming::Other => {}
        }
    }

    async fn close(&mut self) {
        for sock in &mut self.socks {
            let _ = sock
                .send(ws::Message::Close(Some(ws::CloseCode::Normal.into())))
                .await;
        }
    }
}
