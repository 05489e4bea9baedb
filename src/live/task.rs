//! The task that runs one game. It alone writes that game: commands arrive in order
//! on one channel, every accepted action is stored before anyone hears of it, and
//! what a handler produced goes out through one publish step (publish.rs).

use super::marks::Marks;
use super::messages::{ErrorBody, ServerMsg};
use super::presence::Place;
use super::protocol::{ClientKind, TableCmd};
use super::summary::PlayerInfo;
use super::{Cmd, Hub, Outbox};
use crate::db::games::{ActionRow, GameRow, OPEN, RUNNING};
use crate::db::now_ms;
use crate::error::AppError;
use crate::rules::game::Applied;
use crate::rules::layout::Deployment;
use crate::rules::view::{self, Status};
use crate::rules::{Action, Game, Options, Seat, Square, Variant, Viewer};
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

pub use super::join::new_game_id;

/// One versioned entry of a game's log. It keeps only what is needed to cut the event
/// again for any viewer (a reconnecting socket's catch-up), never a whole position:
/// thousands of games share a small machine.
pub(super) enum Entry {
    /// A standard game's deployment ended and play began.
    Deployed {
        first: Seat,
        status: Status,
    },
    Step(Box<Step>),
    /// The clock alone ended the game (the three-hour limit).
    Expired {
        at_ms: u64,
        status: Status,
    },
    RematchOffer(Seat),
    Rematch(String),
}

pub(super) struct Step {
    pub applied: Applied,
    /// The action as it was taken, for the game's record when it ends.
    pub action: Action,
    pub at_ms: u64,
    /// The counters after the step.
    pub status: Status,
    /// Every station a move passed; it depends on the board before the move, which is
    /// not kept.
    pub route: Option<Box<[Square]>>,
    /// Played by the computer standing in for the seat (托管): marked on the step's
    /// event and in the stored record (`"by":"tuoguan"`).
    pub tuoguan: bool,
}

impl Step {
    /// Applies `action` to `game`, keeping what the log needs. On a refusal `game` is
    /// unchanged.
    pub fn apply(
        game: &mut Game,
        seat: Seat,
        action: Action,
        at_ms: u64,
    ) -> Result<Step, crate::rules::RuleError> {
        let route = match action {
            Action::Move { from, to } => {
                Some(view::route(game.position(), from, to).into_boxed_slice())
            }
            _ => None,
        };
        let applied = game.apply(seat, action, Some(at_ms))?;
        Ok(Step {
            applied,
            action,
            at_ms,
            status: Status::of(game),
            route,
            tuoguan: false,
        })
    }
}

pub(super) struct Conn {
    pub user: Option<i64>,
    pub out: Outbox,
    /// The creator's socket on their open game keeps the game from expiring, for as
    /// long as this connection is kept.
    pub _here: Option<super::presence::Here>,
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
    /// When each seat last sent a phrase, newest last (at most a minute's worth).
    pub phrases: [VecDeque<i64>; 2],
    /// The computer's seat, in a game against the computer.
    pub computer: Option<super::computer::Computer>,
    /// The players' places in the hub's register of running games, while it runs.
    pub seated: Option<super::playing::Seated>,
    /// The spectator count the sockets were last told (`watchers.rs`).
    pub watch: super::watchers::WatchCount,
    /// The players' 指定旁观 lists, read when a spectator first comes.
    pub permits: super::watch_permits::Permits,
    /// Each seat's 托管 and the computer standing in for it (`tuoguan.rs`).
    pub tuoguan: super::tuoguan::Tuoguan,
}

/// What a command handler gives back: the entries it added to the game, to be
/// published, or why it refused (and then nothing changed).
pub(super) type Handled = Result<Vec<Entry>, ErrorBody>;

pub(super) fn seat_name(s: &str) -> Result<Seat, AppError> {
    match s {
        "south" => Ok(Seat::South),
        "north" => Ok(Seat::North),
        other => Err(AppError::internal(format!("stored seat {other:?}"))),
    }
}

impl Task {
    pub(super) async fn run(
        mut self,
        me: mpsc::UnboundedSender<Cmd>,
        mut rx: mpsc::UnboundedReceiver<Cmd>,
    ) {
        // Here rather than at loading: a task loaded twice at once is dropped unrun.
        self.take_seats();
        self.prompt_computer(&me).await;
        loop {
            let wake = self.next_wake();
            let audience = self.watch.due;
            let show_audience = async {
                match audience {
                    Some(at) => {
                        let ms = (at - now_ms()).max(0) as u64;
                        tokio::time::sleep(Duration::from_millis(ms)).await
                    }
                    None => std::future::pending().await,
                }
            };
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
                _ = sleep => {
                    let entries = self.on_timer().await;
                    self.publish(entries, None);
                }
                _ = show_audience => self.show_audience(),
            }
            if self.conns.is_empty() && self.row.status != RUNNING {
                break;
            }
            self.prompt_computer(&me).await;
        }
        self.hub.forget(&self.row.id, &me);
        self.audience_gone();
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
                ..
            } => {
                let conn = self.hub.next_conn_id();
                let here =
                    (self.row.status == OPEN && user == Some(self.row.creator_id)).then(|| {
                        let place = Place::Game(self.row.id.clone());
                        self.hub.presence().enter(self.row.creator_id, place)
                    });
                self.conns.insert(
                    conn,
                    Conn {
                        user,
                        out,
                        _here: here,
                    },
                );
                let _ = reply.send(conn);
                if self.seat_of_user(user).is_none() {
                    self.read_permits().await;
                }
                self.greet(conn, since);
                self.presence_changed(Some(conn));
                self.audience_changed();
                self.tuoguan_back().await;
            }
            Cmd::Disconnect { conn } => {
                let before = Seat::BOTH.map(|s| self.connected(s));
                if self.conns.remove(&conn).is_some() {
                    self.tuoguan_dropped(before);
                    self.presence_changed(None);
                    self.audience_changed();
                }
            }
            Cmd::Message { conn, msg } => {
                let done = match msg.kind {
                    ClientKind::Ping => {
                        self.send(conn, &ServerMsg::Pong);
                        return;
                    }
                    // Deployment, marks and phrases answer with their own unversioned messages.
                    ClientKind::Deploy(cmd) => return self.deploy_cmd(conn, msg.ack, cmd).await,
                    ClientKind::Mark(cmd) => return self.mark_cmd(conn, msg.ack, cmd).await,
                    ClientKind::Phrase(id) => return self.phrase(conn, msg.ack, id),
                    // 托管 answers with an ack and a presence message: it is not a step.
                    ClientKind::Table(TableCmd::Tuoguan(on)) => {
                        return self.tuoguan_cmd(conn, msg.ack, on).await;
                    }
                    ClientKind::Act(action) => self.act(conn, action).await,
                    ClientKind::Rematch => self.rematch(conn).await,
                    ClientKind::Table(_) => Err(ErrorBody::new(
                        "illegal",
                        "seats, stations and leaving with 托管 belong to 四国 tables; this is a \
                         two-player game",
                    )),
                };
                match done {
                    Ok(entries) => self.publish(entries, Some((conn, msg.ack))),
                    Err(why) => self.send(conn, &ServerMsg::error(why, msg.ack)),
                }
            }
            Cmd::Join { user, reply } => {
                let r = self.join(user).await;
                let _ = reply.send(r);
            }
            Cmd::Cancel { user, reply } => {
                let r = self.cancel(user).await;
                let _ = reply.send(r);
            }
            Cmd::Expired => self.expired(),
            Cmd::Computer {
                version,
                seat,
                decision,
            } => self.computer_answer(version, seat, decision).await,
            Cmd::TableComputer { .. } => {}
            Cmd::Permits { owner, viewers } => self.permits_changed(owner, viewers).await,
            Cmd::Summary { reply } => {
                let _ = reply.send(Ok(self.summary()));
            }
            Cmd::Actions { reply } => {
                let rows = self.record(None).into_iter().map(ActionRow::from).collect();
                let _ = reply.send(Ok(rows));
            }
            Cmd::IsPlayer { user, reply } => {
                let player = user == self.row.creator_id || self.seat_of_user(Some(user)).is_some();
                let _ = reply.send(Ok(player));
            }
        }
    }

    /// Keeps the hub's register of running games (`playing.rs`) in step with the row:
    /// the players are seated while the game runs. The computer is left out: it sits
    /// in every game against it.
    pub(super) fn take_seats(&mut self) {
        if self.row.status != RUNNING {
            self.seated = None;
            return;
        }
        let users = (self.seats.iter().flatten())
            .filter(|p| p.computer.is_none())
            .map(|p| p.id)
            .collect();
        let started = self.row.started_at.unwrap_or(self.row.created_at);
        self.seated = Some(self.hub.playing().seat(&self.row.id, started, users));
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
            None => self.behind(conn).map_or(Viewer::Spectator, Viewer::Behind),
        }
    }

    pub(super) fn send(&self, conn: u64, msg: &ServerMsg) {
        if let Some(c) = self.conns.get(&conn) {
            c.out.push(msg.frame());
        }
    }

    pub(super) fn error(&self, conn: u64, code: &'static str, message: &str, ack: Option<u64>) {
        self.send(conn, &ServerMsg::error(ErrorBody::new(code, message), ack));
    }

    pub(super) fn version(&self) -> usize {
        self.log.len()
    }

    /// Whether `seat` has a socket on the game; the computer is always there.
    pub(super) fn connected(&self, seat: Seat) -> bool {
        self.computer.as_ref().is_some_and(|c| c.seat == seat)
            || self
                .conns
                .values()
                .any(|c| self.seat_of_user(c.user) == Some(seat))
    }

    /// Sends `msg` to every socket of `seat`.
    pub(super) fn send_to_seat(&self, seat: Seat, msg: &ServerMsg) {
        let text = msg.frame();
        for c in self.conns.values() {
            if self.seat_of_user(c.user) == Some(seat) {
                c.out.push(text.clone());
            }
        }
    }

    pub(super) fn ack(&self, conn: u64, ack: Option<u64>) {
        if let Some(a) = ack {
            self.send(
                conn,
                &ServerMsg::Ack {
                    a,
                    v: self.version(),
                },
            );
        }
    }

    /// An action by a player's socket: checked by the rules, stored, then published.
    async fn act(&mut self, conn: u64, action: Action) -> Handled {
        let seat = self.seat_of(conn).ok_or_else(ErrorBody::not_a_player)?;
        // As at 四国 tables: while the computer holds the seat, its steps are the
        // computer's, or the two would race for one turn. Resigning and draws stay the
        // player's own.
        if action.is_step() && self.tuoguan.seats[seat.index()].on.is_some() {
            return Err(ErrorBody::new(
                "illegal",
                "the server plays your seat: end 托管 first",
            ));
        }
        self.act_as(seat, action).await
    }

    /// An action by `seat`, a person's or the computer's: checked by the rules, stored,
    /// then published by the caller.
    pub(super) async fn act_as(&mut self, seat: Seat, action: Action) -> Handled {
        self.act_by(seat, action, false).await
    }

    /// [`Task::act_as`], `tuoguan` when the computer standing in for the seat plays it.
    pub(super) async fn act_by(&mut self, seat: Seat, action: Action, tuoguan: bool) -> Handled {
        let Some(game) = &self.game else {
            let why = if self.deploy.is_some() {
                "the players are still deploying; moves start when both are ready"
            } else {
                "the game has not started"
            };
            return Err(ErrorBody::new("illegal", why));
        };
        if game.is_over() {
            return Err(ErrorBody::new("game_over", "the game is over"));
        }
        let at_ms = self.at_ms();
        let mut next = game.clone();
        let mut step = Step::apply(&mut next, seat, action, at_ms)
            .map_err(|e| ErrorBody::new("illegal", e.to_string()))?;
        step.tuoguan = tuoguan;
        let entry = Entry::Step(Box::new(step));
        if let Err(e) = self.commit(seat, Some(action), next, &entry).await {
            tracing::error!(game = %self.row.id, error = %e, "cannot store an action");
            return Err(ErrorBody::new(
                "internal",
                "the action could not be stored; try again",
            ));
        }
        Ok(vec![entry])
    }
}
