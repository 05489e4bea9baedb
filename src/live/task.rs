//! The task that runs one game: it holds the game's state, applies actions in order,
//! stores each before anyone hears of it, runs the clocks and talks to the sockets.

use super::marks::Marks;
use super::protocol::{self, ClientKind, PONG};
use super::summary::{PlayerInfo, game_summary};
use super::{Cmd, Hub, Outbox, blocking};
use crate::db::games::{self, CANCELLED, End, FINISHED, GameRow, OPEN, RUNNING, Write};
use crate::db::now_ms;
use crate::db::users::GameResult;
use crate::error::AppError;
use crate::record::{Record, Setup, action_json, deal_json, parse_action, result_name};
use crate::rules::deal::FlipStart;
use crate::rules::game::{Applied, Effect};
use crate::rules::layout::Deployment;
use crate::rules::view::EventView;
use crate::rules::{Action, Game, Options, Seat, Variant, View, Viewer};
use rand::RngExt;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

/// How many missed events a reconnecting socket is sent one by one; past this it gets
/// a fresh state instead.
const MAX_REPLAY: usize = 200;

pub(super) enum Entry {
    /// A standard game's deployment ended and play began.
    Deployed {
        first: Seat,
    },
    Step {
        applied: Applied,
        at_ms: u64,
    },
    /// The clock alone ended the game (the three-hour limit).
    Expired {
        at_ms: u64,
    },
    RematchOffer(Seat),
    Rematch(String),
}

pub(super) struct Conn {
    pub user: Option<i64>,
    pub out: Outbox,
}

pub(super) struct Task {
    pub hub: Arc<Hub>,
    pub row: GameRow,
    pub variant: Variant,
    pub creator: PlayerInfo,
    pub seats: [Option<PlayerInfo>; 2],
    pub options: Options,
    /// A standard game's deployment, while it lasts.
    pub deploy: Option<Deployment>,
    pub game: Option<Game>,
    pub actions: usize,
    pub log: Vec<Entry>,
    pub conns: HashMap<u64, Conn>,
    pub away_since: [Option<i64>; 2],
    pub rematch: [bool; 2],
    /// Who the sockets were last told is connected.
    pub shown_here: [bool; 2],
    pub marks: Marks,
}

pub(super) fn seat_name(s: &str) -> Result<Seat, AppError> {
    match s {
        "south" => Ok(Seat::South),
        "north" => Ok(Seat::North),
        other => Err(AppError::internal(format!("stored seat {other:?}"))),
    }
}

/// Rebuilds a game's task state from the database: the row, the players, a deployment
/// in progress, and the game replayed from its stored actions.
pub(super) async fn load(hub: &Arc<Hub>, id: &str) -> Result<Task, AppError> {
    let id_owned = id.to_string();
    let (row, creator, seats, actions, deployment, marks) = blocking(hub.pool(), move |c| {
        let row = games::get(c, &id_owned)?
            .ok_or_else(|| AppError::NotFound(format!("no game {id_owned}")))?;
        let creator = PlayerInfo::load(c, row.creator_id, &row.variant)?;
        let seats = PlayerInfo::seats(c, &row)?;
        let actions = games::actions(c, &id_owned)?;
        let deployment = games::deployment(c, &id_owned)?;
        let mut marks = [Vec::new(), Vec::new()];
        for (i, user) in [row.south_id, row.north_id].into_iter().enumerate() {
            if let Some(u) = user {
                marks[i] = crate::db::marks::of(c, &id_owned, u)?;
            }
        }
        Ok((row, creator, seats, actions, deployment, marks))
    })
    .await?;
    let options: Options = serde_json::from_str(&row.options).map_err(AppError::internal)?;
    let variant = Variant::from_name(&row.variant)
        .ok_or_else(|| AppError::internal(format!("stored variant {:?}", row.variant)))?;
    let mut task = Task {
        hub: hub.clone(),
        creator,
        seats,
        options,
        variant,
        deploy: None,
        game: None,
        actions: 0,
        log: Vec::new(),
        conns: HashMap::new(),
        away_since: [None, None],
        rematch: [false, false],
        shown_here: [false, false],
        marks: Marks::default(),
        row,
    };
    if let (Some(deal), Some(first)) = (&task.row.deal, &task.row.first_seat) {
        let first = seat_name(first)?;
        let deal = serde_json::from_str::<Value>(deal).map_err(AppError::internal)?;
        let setup = Setup::parse(variant, &deal).map_err(AppError::internal)?;
        let mut game = Record::new(variant, options, task.row.base, first, Some(setup))
            .start()
            .map_err(AppError::internal)?;
        if variant == Variant::Standard {
            task.log.push(Entry::Deployed { first });
            task.marks = Marks::start(game.position());
            for (seat, rows) in Seat::BOTH.into_iter().zip(marks) {
                for (origin, mark) in rows {
                    let origin = origin.parse().map_err(AppError::internal)?;
                    task.marks.set(seat, origin, Some(mark));
                }
            }
        }
        for a in &actions {
            let v: Value = serde_json::from_str(&a.action).map_err(AppError::internal)?;
            let (seat, action) = parse_action(&v).map_err(AppError::internal)?;
            let at_ms = a.at_ms.max(0) as u64;
            let applied = game
                .apply(seat, action, Some(at_ms))
                .map_err(|e| AppError::internal(format!("stored action {} of {id}: {e}", a.idx)))?;
            task.marks.follow(&applied.effect, game.position());
            task.log.push(Entry::Step { applied, at_ms });
            task.actions += 1;
        }
        if let (None, Some(end_ms)) = (game.outcome(), task.row.end_ms) {
            game.expire(end_ms as u64);
            task.log.push(Entry::Expired {
                at_ms: end_ms as u64,
            });
        }
        task.game = Some(game);
    } else if task.row.status == RUNNING && variant == Variant::Standard {
        let text = deployment
            .ok_or_else(|| AppError::internal("a deploying game without its deployment"))?;
        task.deploy = Some(super::deploy::from_json(&text)?);
    }
    if task.row.status == RUNNING {
        // After a restart nobody is connected yet: the grace period starts now.
        let now = now_ms();
        task.away_since = [Some(now), Some(now)];
    }
    Ok(task)
}

impl Task {
    pub(super) async fn run(
        mut self,
        me: mpsc::UnboundedSender<Cmd>,
        mut rx: mpsc::UnboundedReceiver<Cmd>,
    ) {
        loop {
            let wake = self.next_wake();
            let sleep = async {
                match wake {
                    Some(at) => {
                        let ms = (at - now_ms()).max(0) as u64;
                        tokio::time::sleep(Duration::from_millis(ms)).await
                    }
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(cmd) => self.handle(cmd).await,
                    None => break,
                },
                _ = sleep => self.on_timer().await,
            }
            if self.conns.is_empty() && self.row.status != RUNNING {
                break;
            }
        }
        self.hub.forget(&self.row.id, &me);
        // Commands that raced with the exit go to a fresh task, loaded from the database.
        rx.close();
        let id = self.row.id.clone();
        while let Ok(cmd) = rx.try_recv() {
            match self.hub.handle(&id).await {
                Ok(tx) => {
                    let _ = tx.send(cmd);
                }
                Err(e) => tracing::error!(game = %id, error = %e, "cannot restart a game task"),
            }
        }
    }

    async fn handle(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Connect {
                user,
                since,
                out,
                reply,
            } => {
                let conn = self.hub.next_conn_id();
                self.conns.insert(conn, Conn { user, out });
                let _ = reply.send(conn);
                self.greet(conn, since);
                self.presence_changed(Some(conn));
            }
            Cmd::Disconnect { conn } => {
                if self.conns.remove(&conn).is_some() {
                    self.presence_changed(None);
                }
            }
            Cmd::Message { conn, msg } => match msg.kind {
                ClientKind::Ping => self.send(conn, PONG.to_string()),
                ClientKind::Act(action) => self.act(conn, msg.ack, action).await,
                ClientKind::Deploy(cmd) => self.deploy_cmd(conn, msg.ack, cmd).await,
                ClientKind::Mark(cmd) => self.mark_cmd(conn, msg.ack, cmd).await,
                ClientKind::Rematch => self.rematch(conn, msg.ack).await,
            },
            Cmd::Join { user, reply } => {
                let r = self.join(user).await;
                let _ = reply.send(r);
            }
            Cmd::Cancel { user, reply } => {
                let r = self.cancel(user).await;
                let _ = reply.send(r);
            }
        }
    }

    pub(super) fn seat_of_user(&self, user: Option<i64>) -> Option<Seat> {
        let user = user?;
        if self.row.south_id == Some(user) {
            Some(Seat::South)
        } else if self.row.north_id == Some(user) {
            Some(Seat::North)
        } else {
            None
        }
    }

    pub(super) fn seat_of(&self, conn: u64) -> Option<Seat> {
        self.seat_of_user(self.conns.get(&conn)?.user)
    }

    /// The seat and user of a player's socket.
    pub(super) fn player(&self, conn: u64) -> Option<(Seat, i64)> {
        let user = self.conns.get(&conn)?.user?;
        Some((self.seat_of_user(Some(user))?, user))
    }

    pub(super) fn viewer(&self, conn: u64) -> Viewer {
        match self.seat_of(conn) {
            Some(s) => Viewer::Seat(s),
            None => Viewer::Spectator,
        }
    }

    pub(super) fn send(&self, conn: u64, text: String) {
        if let Some(c) = self.conns.get(&conn) {
            let _ = c.out.send(text);
        }
    }

    pub(super) fn error(&self, conn: u64, code: &str, message: &str, ack: Option<u64>) {
        self.send(conn, protocol::error_json(code, message, ack));
    }

    pub(super) fn version(&self) -> usize {
        self.log.len()
    }

    pub(super) fn connected(&self, seat: Seat) -> bool {
        self.conns
            .values()
            .any(|c| self.seat_of_user(c.user) == Some(seat))
    }

    /// A new socket gets the events it missed, or the whole state.
    fn greet(&self, conn: u64, since: Option<u64>) {
        let v = self.version();
        // A standard game's version 1 is the end of its deployment, which only a
        // state can convey.
        let floor = usize::from(self.variant == Variant::Standard && self.game.is_some());
        match since {
            // A deployment has no events: only a state shows it.
            _ if self.deploy.is_some() => self.send(conn, self.state_json(conn)),
            Some(n)
                if (n as usize) >= floor && (n as usize) <= v && v - (n as usize) <= MAX_REPLAY =>
            {
                let viewer = self.viewer(conn);
                for i in n as usize..v {
                    self.send(conn, self.event_json(i, viewer));
                }
            }
            _ => self.send(conn, self.state_json(conn)),
        }
        if let Some(seat) = self.seat_of(conn)
            && self.variant == Variant::Standard
            && self.game.is_some()
        {
            self.send(conn, self.marks_json(seat));
        }
    }

    /// A seat's marks message.
    pub(super) fn marks_json(&self, seat: Seat) -> String {
        json!({"t": "marks", "d": self.marks.json(seat)}).to_string()
    }

    /// Sends `text` to every socket of `seat`.
    pub(super) fn send_to_seat(&self, seat: Seat, text: &str) {
        for c in self.conns.values() {
            if self.seat_of_user(c.user) == Some(seat) {
                let _ = c.out.send(text.to_string());
            }
        }
    }

    pub(super) fn ack(&self, conn: u64, ack: Option<u64>) {
        if let Some(a) = ack {
            self.send(
                conn,
                json!({"t": "ack", "a": a, "v": self.version()}).to_string(),
            );
        }
    }

    /// Sockets came or went: the escape clock, and a fresh state for the other sockets
    /// when who is connected changed. The socket that just connected (`new`) is left
    /// out: its greeting is all it gets, so a client that reconnects with `?v=N`
    /// receives exactly the events it missed.
    fn presence_changed(&mut self, new: Option<u64>) {
        self.update_away();
        let here = [self.connected(Seat::South), self.connected(Seat::North)];
        if here == self.shown_here {
            return;
        }
        self.shown_here = here;
        for &conn in self.conns.keys() {
            if Some(conn) != new {
                self.send(conn, self.state_json(conn));
            }
        }
    }

    /// Starts or stops each seat's escape clock by whether it has a socket.
    pub(super) fn update_away(&mut self) {
        let now = now_ms();
        for seat in Seat::BOTH {
            let here = self.connected(seat);
            let slot = &mut self.away_since[seat.index()];
            if here {
                *slot = None;
            } else if slot.is_none() && self.row.status == RUNNING {
                *slot = Some(now);
            }
        }
    }

    pub(super) fn broadcast_state(&self) {
        for &conn in self.conns.keys() {
            self.send(conn, self.state_json(conn));
        }
    }

    pub(super) fn broadcast_event(&self, index: usize) {
        for &conn in self.conns.keys() {
            self.send(conn, self.event_json(index, self.viewer(conn)));
        }
        // A move may carry a marked piece along or take it off the board.
        if let Some(Entry::Step { applied, .. }) = self.log.get(index)
            && matches!(applied.effect, Effect::Moved { .. })
        {
            for seat in Seat::BOTH {
                if self.marks.any(seat) {
                    self.send_to_seat(seat, &self.marks_json(seat));
                }
            }
        }
    }

    pub(super) fn clock_json(&self) -> Value {
        match (&self.game, self.row.deadline_at) {
            (Some(g), Some(deadline)) if self.row.status == RUNNING => json!({
                "to_move": g.to_move(),
                "remaining_ms": (deadline - now_ms()).max(0),
                "seconds_per_action": self.row.seconds_per_action,
            }),
            _ => Value::Null,
        }
    }

    pub(super) fn summary(&self) -> Value {
        game_summary(&self.row, &self.creator, &self.seats)
    }

    pub(super) fn state_json(&self, conn: u64) -> String {
        let viewer = self.viewer(conn);
        let view = self.game.as_ref().map(|g| View::of(g, viewer));
        json!({
            "t": "state",
            "v": self.version(),
            "d": {
                "game": self.summary(),
                "you": self.seat_of(conn),
                "view": view,
                "clock": self.clock_json(),
                "connected": {
                    "south": self.connected(Seat::South),
                    "north": self.connected(Seat::North),
                },
                "rematch": {
                    "south": self.rematch[0],
                    "north": self.rematch[1],
                    "next": self.row.next_game,
                },
                "deploy": self.deploy_json(conn),
                "marks": match (self.seat_of(conn), &self.game) {
                    (Some(seat), Some(_)) if self.variant == Variant::Standard => self.marks.json(seat),
                    _ => Value::Null,
                },
            }
        })
        .to_string()
    }

    fn final_score(&self) -> Value {
        json!({"south": self.row.score_south, "north": self.row.score_north})
    }

    fn event_json(&self, index: usize, viewer: Viewer) -> String {
        let last = index + 1 == self.log.len();
        let mut d = match &self.log[index] {
            Entry::Deployed { first } => json!({"kind": "start", "first": first}),
            Entry::Step { applied, at_ms } => {
                let game = self.game.as_ref().expect("steps belong to a started game");
                let mut d = serde_json::to_value(EventView::of(
                    applied,
                    game.variant(),
                    game.colours(),
                    viewer,
                ))
                .expect("event serialises");
                d["at_ms"] = json!(at_ms);
                if applied.outcome.is_some() {
                    d["score"] = self.final_score();
                }
                d
            }
            Entry::Expired { at_ms } => json!({
                "kind": "time_limit",
                "at_ms": at_ms,
                "outcome": self.game.as_ref().and_then(Game::outcome),
                "score": self.final_score(),
            }),
            Entry::RematchOffer(seat) => json!({"kind": "rematch_offer", "seat": seat}),
            Entry::Rematch(next) => json!({"kind": "rematch", "next": next}),
        };
        if last {
            d["clock"] = self.clock_json();
        }
        json!({"t": "event", "v": index + 1, "d": d}).to_string()
    }

    async fn act(&mut self, conn: u64, ack: Option<u64>, action: Action) {
        let Some(seat) = self.seat_of(conn) else {
            return self.error(
                conn,
                "not_a_player",
                "you are not playing in this game",
                ack,
            );
        };
        let Some(game) = &self.game else {
            let why = if self.deploy.is_some() {
                "the players are still deploying; moves start when both are ready"
            } else {
                "the game has not started"
            };
            return self.error(conn, "illegal", why, ack);
        };
        if game.is_over() {
            return self.error(conn, "game_over", "the game is over", ack);
        }
        let at_ms = self.at_ms();
        let mut next = game.clone();
        match next.apply(seat, action, Some(at_ms)) {
            Ok(applied) => {
                if let Err(e) = self
                    .commit(seat, Some(action), next, Entry::Step { applied, at_ms })
                    .await
                {
                    tracing::error!(game = %self.row.id, error = %e, "cannot store an action");
                    return self.error(
                        conn,
                        "internal",
                        "the action could not be stored; try again",
                        ack,
                    );
                }
                self.ack(conn, ack);
                self.broadcast_event(self.log.len() - 1);
            }
            Err(e) => self.error(conn, "illegal", &e.to_string(), ack),
        }
    }

    /// Milliseconds since the start, never earlier than the last action.
    pub(super) fn at_ms(&self) -> u64 {
        let started = self.row.started_at.unwrap_or_else(now_ms);
        let at = (now_ms() - started).max(0) as u64;
        at.max(self.game.as_ref().map_or(0, Game::elapsed_ms))
    }

    /// Stores the change that turns the current game into `next`, then adopts it. On a
    /// storage error nothing changes.
    async fn commit(
        &mut self,
        seat: Seat,
        action: Option<Action>,
        next: Game,
        entry: Entry,
    ) -> Result<(), AppError> {
        let now = now_ms();
        let deadline = match (next.is_over(), action) {
            (true, _) => None,
            (false, Some(a)) if a.is_step() => {
                Some(now + self.row.seconds_per_action as i64 * 1000)
            }
            _ => self.row.deadline_at,
        };
        let outcome = next.outcome();
        let score = outcome.map(|_| {
            next.score(self.row.base)
                .expect("a finished game has a score")
        });
        let colour_south = next.colour_of(Seat::South).map(|c| c.name().to_string());
        let (south_id, north_id) = (
            self.row.south_id.unwrap_or_default(),
            self.row.north_id.unwrap_or_default(),
        );
        let end_ms = match &entry {
            Entry::Expired { at_ms } => Some(*at_ms as i64),
            _ => None,
        };
        let at_ms = match &entry {
            Entry::Step { at_ms, .. } => *at_ms as i64,
            _ => 0,
        };
        let game_id = self.row.id.clone();
        let idx = self.actions as i32;
        let steps = next.steps() as i32;
        let action_text = action.map(|a| action_json(seat, a).to_string());
        let colour = colour_south.clone();
        blocking(self.hub.pool(), move |c| {
            let end = match (outcome, score) {
                (Some(o), Some(score)) => {
                    let result_of = |s: Seat| match o.winner {
                        None => GameResult::Draw,
                        Some(w) if w == s => GameResult::Win,
                        Some(_) => GameResult::Loss,
                    };
                    Some(End {
                        result: result_name(o),
                        reason: o.reason.name(),
                        score,
                        ended_at: now,
                        end_ms,
                        players: [
                            (south_id, result_of(Seat::South)),
                            (north_id, result_of(Seat::North)),
                        ],
                    })
                }
                _ => None,
            };
            games::write(
                c,
                &Write {
                    game_id: &game_id,
                    action: action_text.as_deref().map(|t| (idx, seat.name(), t, at_ms)),
                    steps,
                    deadline_at: deadline,
                    colour_south: colour.as_deref(),
                    end,
                },
            )?;
            Ok(())
        })
        .await?;

        if action.is_some() {
            self.actions += 1;
        }
        self.row.steps = steps;
        self.row.deadline_at = deadline;
        self.row.colour_south = colour_south;
        if let (Some(o), Some(score)) = (outcome, score) {
            self.row.status = FINISHED.to_string();
            self.row.result = Some(result_name(o).to_string());
            self.row.reason = Some(o.reason.name().to_string());
            self.row.score_south = Some(score[0]);
            self.row.score_north = Some(score[1]);
            self.row.ended_at = Some(now);
            self.row.end_ms = end_ms;
            self.away_since = [None, None];
            self.hub.note_game_end();
            self.refresh_players().await;
        }
        if let Entry::Step { applied, .. } = &entry {
            self.marks.follow(&applied.effect, next.position());
        }
        self.game = Some(next);
        self.log.push(entry);
        Ok(())
    }

    pub(super) async fn refresh_players(&mut self) {
        let row = self.row.clone();
        let loaded = blocking(self.hub.pool(), move |c| Ok(PlayerInfo::seats(c, &row)?)).await;
        match loaded {
            Ok(seats) => self.seats = seats,
            Err(e) => tracing::error!(error = %e, "cannot reload players"),
        }
    }

    /// When the task must next wake by itself: the action clock, an escape, or the
    /// three-hour limit.
    fn next_wake(&self) -> Option<i64> {
        if self.row.status != RUNNING {
            return None;
        }
        if self.deploy.is_some() {
            return self.row.deadline_at;
        }
        let game = self.game.as_ref()?;
        let mut wake = self.row.deadline_at;
        let grace = self.hub.config.grace.as_millis() as i64;
        for away in self.away_since.into_iter().flatten() {
            wake = Some(wake.map_or(away + grace, |w| w.min(away + grace)));
        }
        if let (Some(started), Some(limit)) = (self.row.started_at, game.variant().time_limit_ms())
        {
            let at = started + limit as i64;
            wake = Some(wake.map_or(at, |w| w.min(at)));
        }
        wake
    }

    async fn on_timer(&mut self) {
        if self.deploy.is_some() {
            if self.row.deadline_at.is_some_and(|d| now_ms() >= d) {
                self.deployment_over().await;
            }
            return;
        }
        let Some(game) = self.game.clone() else {
            return;
        };
        if game.is_over() || self.row.status != RUNNING {
            return;
        }
        let now = now_ms();
        let grace = self.hub.config.grace.as_millis() as i64;
        let at_ms = self.at_ms();
        let escaped = Seat::BOTH
            .into_iter()
            .find(|s| self.away_since[s.index()].is_some_and(|t| now >= t + grace));
        let timed_out = self.row.deadline_at.is_some_and(|d| now >= d);
        let mut next = game.clone();
        let (seat, action) = if let Some(seat) = escaped {
            (seat, Action::Escape)
        } else if timed_out {
            (game.to_move(), Action::Timeout)
        } else {
            if next.expire(at_ms).is_some() {
                let seat = game.to_move();
                if let Err(e) = self
                    .commit(seat, None, next, Entry::Expired { at_ms })
                    .await
                {
                    tracing::error!(game = %self.row.id, error = %e, "cannot store the time limit");
                    return;
                }
                self.broadcast_event(self.log.len() - 1);
            }
            return;
        };
        match next.apply(seat, action, Some(at_ms)) {
            Ok(applied) => {
                if let Err(e) = self
                    .commit(seat, Some(action), next, Entry::Step { applied, at_ms })
                    .await
                {
                    tracing::error!(game = %self.row.id, error = %e, "cannot store a timeout");
                    // Try again shortly rather than spinning.
                    tokio::time::sleep(Duration::from_millis(500)).await;
                    return;
                }
                self.broadcast_event(self.log.len() - 1);
            }
            Err(e) => {
                tracing::error!(game = %self.row.id, error = %e, "the clock's action was refused")
            }
        }
    }

    /// Seats drawn at random for two players.
    fn draw_seats(a: i64, b: i64) -> (i64, i64) {
        if rand::rng().random::<bool>() {
            (a, b)
        } else {
            (b, a)
        }
    }

    /// How a new game between `south` and `north` opens: a flip deal, or a standard
    /// deployment from each player's last layout.
    async fn opening(&self, south: i64, north: i64) -> Result<Opening, AppError> {
        match self.variant {
            Variant::Flip => Ok(Opening::Flip(FlipStart::random(&mut rand::rng()))),
            Variant::Standard => {
                let d = blocking(self.hub.pool(), move |c| {
                    super::deploy::initial(c, south, north)
                })
                .await?;
                Ok(Opening::Standard(d))
            }
        }
    }

    /// When the opening's clock runs out: the first action's, or the deployment's.
    fn opening_deadline(&self, opening: &Opening, now: i64) -> i64 {
        let seconds = match opening {
            Opening::Flip(_) => self.row.seconds_per_action as i64,
            Opening::Standard(_) => self.options.deploy_seconds as i64,
        };
        now + seconds * 1000
    }

    async fn join(&mut self, user: i64) -> Result<(), AppError> {
        if self.row.status != OPEN {
            return Err(AppError::Conflict("the game is no longer open".into()));
        }
        if user == self.row.creator_id {
            return Err(AppError::Conflict("you cannot join your own game".into()));
        }
        let (south, north) = Self::draw_seats(self.row.creator_id, user);
        let opening = self.opening(south, north).await?;
        let now = now_ms();
        let deadline = self.opening_deadline(&opening, now);
        let id = self.row.id.clone();
        let fields = OpeningFields::of(&opening);
        let stored = fields.clone();
        let started = blocking(self.hub.pool(), move |c| {
            Ok(games::start(
                c,
                &id,
                &games::Start {
                    south_id: south,
                    north_id: north,
                    first_seat: stored.first_seat,
                    deal: stored.deal.as_deref(),
                    salt: stored.salt.as_deref(),
                    commitment: stored.commitment.as_deref(),
                    deployment: stored.deployment.as_deref(),
                    started_at: now,
                    deadline_at: deadline,
                },
            )?)
        })
        .await?;
        if !started {
            return Err(AppError::Conflict("the game is no longer open".into()));
        }
        self.row.status = RUNNING.to_string();
        self.row.south_id = Some(south);
        self.row.north_id = Some(north);
        self.row.first_seat = fields.first_seat.map(str::to_string);
        self.row.deal = fields.deal;
        self.row.salt = fields.salt;
        self.row.commitment = fields.commitment;
        self.row.started_at = Some(now);
        self.row.deadline_at = Some(deadline);
        match opening {
            Opening::Flip(start) => self.game = Some(start.game(self.options)),
            Opening::Standard(d) => self.deploy = Some(d),
        }
        self.refresh_players().await;
        // The game starts: the escape clocks of absent seats run, and every socket
        // hears of it.
        self.update_away();
        self.shown_here = [self.connected(Seat::South), self.connected(Seat::North)];
        self.broadcast_state();
        self.hub.lobby_changed().await;
        Ok(())
    }

    async fn cancel(&mut self, user: i64) -> Result<(), AppError> {
        if user != self.row.creator_id {
            return Err(AppError::Forbidden(
                "only its creator may cancel a game".into(),
            ));
        }
        if self.row.status != OPEN {
            return Err(AppError::Conflict(
                "only an open game can be cancelled".into(),
            ));
        }
        let id = self.row.id.clone();
        let done = blocking(self.hub.pool(), move |c| Ok(games::cancel(c, &id, user)?)).await?;
        if !done {
            return Err(AppError::Conflict(
                "only an open game can be cancelled".into(),
            ));
        }
        self.row.status = CANCELLED.to_string();
        self.broadcast_state();
        self.hub.lobby_changed().await;
        Ok(())
    }

    async fn rematch(&mut self, conn: u64, ack: Option<u64>) {
        let Some(seat) = self.seat_of(conn) else {
            return self.error(
                conn,
                "not_a_player",
                "you are not playing in this game",
                ack,
            );
        };
        if self.row.status != FINISHED {
            return self.error(
                conn,
                "illegal",
                "a rematch can be asked for once the game is over",
                ack,
            );
        }
        if self.row.next_game.is_some() || self.rematch[seat.index()] {
            return self.ack(conn, ack);
        }
        self.rematch[seat.index()] = true;
        self.log.push(Entry::RematchOffer(seat));
        self.ack(conn, ack);
        self.broadcast_event(self.log.len() - 1);
        if self.rematch != [true, true] {
            return;
        }
        match self.start_rematch().await {
            Ok(next) => {
                self.row.next_game = Some(next.clone());
                self.log.push(Entry::Rematch(next.clone()));
                self.broadcast_event(self.log.len() - 1);
                if let Err(e) = self.hub.handle(&next).await {
                    tracing::error!(game = %next, error = %e, "cannot start the rematch task");
                }
            }
            Err(e) => {
                tracing::error!(game = %self.row.id, error = %e, "cannot create a rematch");
                self.rematch = [false, false];
                self.error(
                    conn,
                    "internal",
                    "the rematch could not be created; ask again",
                    None,
                );
            }
        }
    }

    /// The same pair, the same table: a new game whose base is one higher (RULES §3.1).
    async fn start_rematch(&mut self) -> Result<String, AppError> {
        let (Some(a), Some(b)) = (self.row.south_id, self.row.north_id) else {
            return Err(AppError::internal("a finished game without players"));
        };
        let (south, north) = Self::draw_seats(a, b);
        let opening = self.opening(south, north).await?;
        let now = now_ms();
        let deadline = self.opening_deadline(&opening, now);
        let fields = OpeningFields::of(&opening);
        let row = GameRow {
            id: new_game_id(),
            variant: self.row.variant.clone(),
            status: RUNNING.to_string(),
            rated: self.row.rated,
            seconds_per_action: self.row.seconds_per_action,
            options: self.row.options.clone(),
            base: self.row.base + 1,
            creator_id: self.row.creator_id,
            south_id: Some(south),
            north_id: Some(north),
            first_seat: fields.first_seat.map(str::to_string),
            deal: fields.deal,
            salt: fields.salt,
            commitment: fields.commitment,
            previous_game: Some(self.row.id.clone()),
            next_game: None,
            result: None,
            reason: None,
            score_south: None,
            score_north: None,
            colour_south: None,
            steps: 0,
            created_at: now,
            started_at: Some(now),
            ended_at: None,
            deadline_at: Some(deadline),
            end_ms: None,
        };
        let id = row.id.clone();
        let old = self.row.id.clone();
        let deployment = fields.deployment;
        blocking(self.hub.pool(), move |c| {
            use diesel::Connection;
            let fail = |_| diesel::result::Error::RollbackTransaction;
            c.transaction(|c| {
                games::insert(c, &row).map_err(fail)?;
                if let Some(d) = &deployment {
                    games::set_deployment(c, &row.id, d).map_err(fail)?;
                }
                games::set_next(c, &old, &row.id).map_err(fail)?;
                Ok::<_, diesel::result::Error>(())
            })
            .map_err(AppError::internal)
        })
        .await?;
        Ok(id)
    }
}

/// How a new game opens.
enum Opening {
    Flip(FlipStart),
    Standard(Deployment),
}

/// The stored columns of an opening: a flip game's deal, first seat and commitment,
/// or a standard game's deployment.
#[derive(Clone)]
struct OpeningFields {
    first_seat: Option<&'static str>,
    deal: Option<String>,
    salt: Option<String>,
    commitment: Option<String>,
    deployment: Option<String>,
}

impl OpeningFields {
    fn of(opening: &Opening) -> OpeningFields {
        match opening {
            Opening::Flip(start) => OpeningFields {
                first_seat: Some(start.first.name()),
                deal: Some(deal_json(&start.deal).to_string()),
                salt: Some(start.salt.clone()),
                commitment: Some(start.commitment.clone()),
                deployment: None,
            },
            Opening::Standard(d) => OpeningFields {
                first_seat: None,
                deal: None,
                salt: None,
                commitment: None,
                deployment: Some(super::deploy::to_json(d)),
            },
        }
    }
}

/// A game id: 8 characters from a 62-letter alphabet, drawn from the system's
/// cryptographic generator so that ids cannot be guessed from one another.
pub fn new_game_id() -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let mut rng = rand::rng();
    (0..8)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}
