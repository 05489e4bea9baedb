//! One pair of players: a task that owns both seats' sockets of their game, plays it
//! at the game's pace (whichever seat holds legal actions sends a random one once the
//! interval since the game's last action has passed), times each action, and starts
//! a new game when one ends. Failures are counted, never fatal.

use super::accounts::Pair;
use super::protocol::{Act, Msg, Seat};
use super::shared::{Ctx, Ledger, Sent};
use super::start::{Sock, connect, start};
use super::stats::micros;
use actix_web::rt::time::{sleep, sleep_until};
use awc::error::WsProtocolError;
use awc::ws;
use futures_util::{SinkExt, StreamExt};
use rand::RngExt;
use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// With nothing heard on either socket this long, the game is taken as stuck and its
/// sockets are opened again.
const STALLED: Duration = Duration::from_secs(75);
/// Attempts at reopening a game's sockets before giving the game up.
const RECONNECTS: usize = 10;

/// Plays games for one pair of players until the program ends. The spawner counts
/// the first start in `ctx.starting` (so that it knows of it at once).
pub async fn pair_task(ctx: Rc<Ctx>, pair: Rc<Pair>, client: awc::Client) {
    let mut first = true;
    // After a failed start, wait longer each time (up to half a minute): a server past
    // what it can take is not asked again at once.
    let mut backoff = Duration::from_secs(1);
    loop {
        if !first {
            ctx.while_paused().await;
            ctx.starting.set(ctx.starting.get() + 1);
        }
        first = false;
        let started = start(&ctx, &pair, &client)
            .await
            .map(|(id, a, b)| Table::new(&ctx, pair.index, id, a, b));
        ctx.starting.set(ctx.starting.get() - 1);
        match started {
            Ok(table) => {
                backoff = Duration::from_secs(1);
                ctx.stats.borrow_mut().games_started += 1;
                ctx.playing.set(ctx.playing.get() + 1);
                play(&ctx, &pair, &client, table).await;
                ctx.playing.set(ctx.playing.get() - 1);
            }
            Err(kind) => {
                ctx.failure(kind);
                sleep(backoff).await;
                backoff = (backoff * 2).min(Duration::from_secs(30));
            }
        }
    }
}

/// What one pass of the loop came to.
enum Flow {
    Go,
    Ended,
    Closed,
}

/// One game as the pair's task sees it. Index 0 is player `a`'s socket, 1 is `b`'s.
struct Table {
    id: String,
    ledger: Rc<RefCell<Ledger>>,
    socks: [Option<Sock>; 2],
    /// Each socket's seat, from its state.
    you: [Option<Seat>; 2],
    /// Each socket's latest version.
    v: [u64; 2],
    /// What each socket may play now (empty: not its turn).
    legal: [Vec<Act>; 2],
    /// The legal actions a seat had when it last acted.
    held: [Vec<Act>; 2],
    /// The game's next action is due then.
    next_at: Instant,
    /// Actions awaiting their ack: ack id, when sent, whether measured.
    acks: Vec<(u64, Instant, bool)>,
    /// The last action awaiting its event on the other socket: the mover's index,
    /// when sent, whether measured.
    event_wait: Option<(usize, Instant, bool)>,
    next_ack: u64,
    last_heard: Instant,
}

async fn play(ctx: &Ctx, pair: &Pair, client: &awc::Client, mut t: Table) {
    loop {
        match t.run(ctx, pair.index).await {
            Flow::Go => {}
            Flow::Ended => {
                t.close().await;
                ctx.stats.borrow_mut().games_ended += 1;
                return;
            }
            Flow::Closed => {
                t.socks = [None, None];
                ctx.while_paused().await;
                if !t.reconnect(ctx, pair, client).await {
                    ctx.failure("gave_up");
                    return;
                }
            }
        }
    }
}

impl Table {
    /// A game just started; its first action comes within an interval, at random, so
    /// that games do not move in step.
    fn new(ctx: &Ctx, pair: usize, id: String, a: Sock, b: Sock) -> Table {
        let first = ctx.interval.mul_f64(rand::rng().random::<f64>());
        Table {
            ledger: ctx.ledger(&id, pair),
            id,
            socks: [Some(a), Some(b)],
            you: [None, None],
            v: [0, 0],
            legal: [Vec::new(), Vec::new()],
            held: [Vec::new(), Vec::new()],
            next_at: Instant::now() + first,
            acks: Vec::new(),
            event_wait: None,
            next_ack: 1,
            last_heard: Instant::now(),
        }
    }

    /// The socket to move, if one holds legal actions.
    fn mover(&self) -> Option<usize> {
        (0..2).find(|&i| !self.legal[i].is_empty() && self.you[i].is_some())
    }

    async fn run(&mut self, ctx: &Ctx, pair: usize) -> Flow {
        loop {
            let mover = self.mover();
            let wake = match mover {
                Some(_) => self.next_at,
                None => self.last_heard + STALLED,
            };
            let [Some(s0), Some(s1)] = &mut self.socks else {
                return Flow::Closed;
            };
            let woke = tokio::select! {
                f = s0.next() => Some((0, f)),
                f = s1.next() => Some((1, f)),
                _ = sleep_until(wake.into()) => None,
            };
            let flow = match woke {
                Some((i, frame)) => self.on_frame(ctx, pair, i, frame).await,
                None => match mover {
                    Some(i) => self.act(ctx, i).await,
                    None => {
                        ctx.failure("stalled");
                        Flow::Closed
                    }
                },
            };
            if !matches!(flow, Flow::Go) {
                return flow;
            }
        }
    }

    async fn on_frame(
        &mut self,
        ctx: &Ctx,
        pair: usize,
        i: usize,
        frame: Option<Result<ws::Frame, WsProtocolError>>,
    ) -> Flow {
        match frame {
            Some(Ok(ws::Frame::Text(bytes))) => self.on_text(ctx, pair, i, &bytes),
            Some(Ok(ws::Frame::Ping(b))) => {
                let sock = self.socks[i].as_mut().expect("open");
                if sock.send(ws::Message::Pong(b)).await.is_err() {
                    ctx.failure("send_failed");
                    return Flow::Closed;
                }
                Flow::Go
            }
            Some(Ok(ws::Frame::Close(reason))) => {
                let code: u16 = reason.map_or(1005, |r| r.code.into());
                ctx.failure(format!("closed_{code}"));
                Flow::Closed
            }
            Some(Ok(_)) => Flow::Go,
            Some(Err(_)) | None => {
                ctx.failure("socket_lost");
                Flow::Closed
            }
        }
    }

    fn on_text(&mut self, ctx: &Ctx, pair: usize, i: usize, bytes: &[u8]) -> Flow {
        let now = Instant::now();
        self.last_heard = now;
        let Ok(m) = serde_json::from_slice::<Msg>(bytes) else {
            ctx.error("unreadable_message");
            return Flow::Go;
        };
        match m.t {
            "state" => {
                let d = m.d.unwrap_or_default();
                self.v[i] = m.v.unwrap_or(0);
                if d.you.is_some() {
                    self.you[i] = d.you;
                }
                let over = d.game.is_some_and(|g| g.status != "running");
                let view = d.view;
                let ended = view.as_ref().is_some_and(|v| v.outcome.is_some());
                self.legal[i] = view.map(|v| v.legal).unwrap_or_default();
                if over || ended || d.result.is_some() {
                    return Flow::Ended;
                }
            }
            "event" => {
                let v = m.v.unwrap_or(0);
                if v != self.v[i] + 1 {
                    ctx.error("version_gap");
                }
                self.v[i] = v.max(self.v[i]);
                let d = m.d.unwrap_or_default();
                self.legal[i] = d.legal.unwrap_or_default();
                if matches!(d.kind, Some("flip" | "move"))
                    && let Some((mover, sent, measured)) = self.event_wait
                    && mover != i
                {
                    self.event_wait = None;
                    if measured {
                        ctx.stats.borrow_mut().latency_us.push(micros(now - sent));
                    }
                }
                if d.result.is_some() || d.outcome.is_some() {
                    return Flow::Ended;
                }
            }
            "ack" => {
                let Some(a) = m.a else { return Flow::Go };
                if let Some(at) = self.acks.iter().position(|x| x.0 == a) {
                    let (_, sent, measured) = self.acks.swap_remove(at);
                    let mut stats = ctx.stats.borrow_mut();
                    if measured {
                        stats.ack_us.push(micros(now - sent));
                    }
                    if ctx.measuring.get() {
                        stats.actions += 1;
                    }
                }
                if let Some(s) = self
                    .ledger
                    .borrow_mut()
                    .sent
                    .iter_mut()
                    .rev()
                    .find(|s| s.ack_id == a)
                {
                    s.acked = true;
                }
                ctx.acked(pair);
            }
            "error" => {
                let code = m.d.as_ref().and_then(|d| d.code).unwrap_or("unknown");
                ctx.error(format!("server_{code}"));
                if let Some(a) = m.a {
                    // A refused action changed nothing: the seat is to move again.
                    self.acks.retain(|x| x.0 != a);
                    self.event_wait = None;
                    let mut ledger = self.ledger.borrow_mut();
                    if let Some(at) = ledger.sent.iter().rposition(|s| s.ack_id == a) {
                        let refused = ledger.sent.remove(at);
                        if self.legal[i].is_empty() {
                            self.legal[i] = std::mem::take(&mut self.held[i]);
                            self.legal[i].retain(|x| *x != refused.act);
                        }
                    }
                }
            }
            _ => {}
        }
        Flow::Go
    }

    /// Sends a uniformly random one of socket `i`'s legal actions, if its time came.
    async fn act(&mut self, ctx: &Ctx, i: usize) -> Flow {
        let now = Instant::now();
        if now < self.next_at {
            return Flow::Go;
        }
        let Some(seat) = self.you[i] else {
            return Flow::Go;
        };
        let legal = std::mem::take(&mut self.legal[i]);
        let act = legal[rand::rng().random_range(0..legal.len())];
        self.held[i] = legal;
        let a = self.next_ack;
        self.next_ack += 1;
        let measured = ctx.measuring.get();
        self.next_at = now + ctx.interval;
        self.acks.push((a, now, measured));
        self.event_wait = Some((i, now, measured));
        self.ledger.borrow_mut().sent.push(Sent {
            seat,
            act,
            ack_id: a,
            acked: false,
        });
        let sock = self.socks[i].as_mut().expect("open");
        if sock
            .send(ws::Message::Text(act.command(a).into()))
            .await
            .is_err()
        {
            ctx.failure("send_failed");
            return Flow::Closed;
        }
        Flow::Go
    }

    async fn close(&mut self) {
        for s in self.socks.iter_mut() {
            if let Some(mut sock) = s.take() {
                let _ = sock
                    .send(ws::Message::Close(Some(ws::CloseCode::Normal.into())))
                    .await;
            }
        }
    }

    /// Opens both sockets again, each asking for what it missed (`?v=`).
    async fn reconnect(&mut self, ctx: &Ctx, pair: &Pair, client: &awc::Client) -> bool {
        // Answers to the old sockets will not come.
        self.acks.clear();
        self.event_wait = None;
        if let Some(seat) = self.ledger.borrow_mut().restore.take() {
            for i in 0..2 {
                if self.you[i] == Some(seat) && self.legal[i].is_empty() {
                    self.legal[i] = std::mem::take(&mut self.held[i]);
                }
            }
        }
        let since = |v: u64| (v > 0).then_some(v);
        for _ in 0..RECONNECTS {
            ctx.while_paused().await;
            let (a, b) = futures_util::join!(
                connect(ctx, client, &self.id, &pair.a, since(self.v[0])),
                connect(ctx, client, &self.id, &pair.b, since(self.v[1]))
            );
            match (a, b) {
                (Ok(a), Ok(b)) => {
                    self.socks = [Some(a), Some(b)];
                    self.last_heard = Instant::now();
                    // Games reconnecting together would otherwise all act at once
                    // from now on: spread them over an interval again.
                    self.next_at =
                        self.last_heard + ctx.interval.mul_f64(rand::rng().random::<f64>());
                    return true;
                }
                (a, b) => {
                    for e in [a.err(), b.err()].into_iter().flatten() {
                        ctx.failure(format!("re{e}"));
                    }
                    sleep(Duration::from_secs(1)).await;
                }
            }
        }
        false
    }
}
