//! A 四国 table's task (RULES §5): four seats filled by people or the computer, then
//! deployment, then play on the shared hidden-piece rules, with the clock, passes,
//! draws, 托管 and escape. Like a two-player game's task it alone writes its game and
//! stores every action before anyone hears of it; it answers the same commands on the
//! same socket, and each socket is sent the whole table as its viewer may see it
//! (view.rs), so a reconnecting client needs nothing but the newest message.

mod computer;
mod deploying;
mod play;
mod rematch;
mod seat_caps;
mod seating;
mod spectators;
mod store;
mod view;

pub use rematch::RematchView;
pub(super) use store::load;
pub use store::{NewTable, create};
pub use view::TableView;

use super::messages::{ErrorBody, ServerMsg};
use super::protocol::{ClientKind, TableCmd};
use super::summary::PlayerInfo;
use super::{Cmd, Hub, Outbox};
use crate::db::games::{GameRow, OPEN, RUNNING};
use crate::db::now_ms;
use crate::engine::Level;
use crate::engine::siguo::SeatInfo;
use crate::record::SiguoRecord;
use crate::rules::hidden_game::{Applied, HiddenGame};
use crate::rules::siguo::{Deployment4, FourPlayer, HandDeal, Seat4, SiguoOptions, Station};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use tokio::sync::mpsc;

/// A table's settings as stored in its row's `options`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableOptions {
    pub siguo: SiguoOptions,
    pub grace_seconds: u32,
    pub deploy_seconds: u32,
}

/// How long the ally of a seat in 断线托管 has to say whether to play on (§5.5.1).
pub const PLAY_ON_SECONDS: i64 = 20;

pub(super) struct Sitter {
    pub info: PlayerInfo,
}

pub(super) struct Deploying {
    pub deployment: Deployment4,
    pub hands: Option<HandDeal>,
    pub deadline: i64,
}

pub(super) struct Playing {
    pub game: HiddenGame<FourPlayer>,
    pub record: SiguoRecord,
    /// When the seat to move times out.
    pub deadline: i64,
    /// The last step with the route it took, cut per viewer when sent.
    pub last: Option<(Applied<FourPlayer>, Option<Vec<Station>>)>,
    /// When each person's last socket went, while they have none.
    pub away_since: [Option<i64>; 4],
    /// The move each 托管 seat made last, to be undone next (§5.5.2).
    pub tuoguan_last: [Option<(Station, Station)>; 4],
    /// Seats that left before their own defeat (§5.7.1's double loss).
    pub exited: [bool; 4],
    /// The ally asked whether to play on after 断线托管, and until when.
    pub play_on_due: Option<(Seat4, i64)>,
    /// The computer's seats: what each has been sent.
    pub minds: [Option<SeatInfo>; 4],
    /// The question the computer is thinking over: at which version, for which seat.
    pub asked: Option<(usize, Seat4, Arc<AtomicBool>)>,
    /// Each seat's score change once the game is over (`None`: unscored).
    pub scores: Option<[i32; 4]>,
    pub stored_end: bool,
}

pub(super) enum Phase {
    Open,
    Deploying(Box<Deploying>),
    Playing(Box<Playing>),
}

pub(super) struct Conn {
    pub user: Option<i64>,
    pub out: Outbox,
    /// The seat a spectator sits behind (`behind`), if it chose one.
    pub behind: Option<Seat4>,
    /// Kept set while the user holds a seat (see `Cmd::Connect`).
    pub seated: Arc<std::sync::atomic::AtomicBool>,
}

pub(super) struct Table {
    pub hub: Arc<Hub>,
    pub row: GameRow,
    pub options: TableOptions,
    pub creator: String,
    pub seats: [Option<Sitter>; 4],
    /// Pressed ready before the start.
    pub ready: [bool; 4],
    pub phase: Phase,
    pub conns: HashMap<u64, Conn>,
    pub version: usize,
    /// The seated players' 指定旁观 lists (spectators.rs).
    pub permits: crate::live::watch_permits::Permits,
    /// The people's places in the hub's register of running games, while it runs.
    pub seated: Option<crate::live::playing::Seated>,
    /// The 再来一局 offer once the game is over (rematch.rs).
    pub rematch: rematch::RematchState,
}

impl Table {
    pub(super) async fn run(
        mut self,
        me: mpsc::UnboundedSender<Cmd>,
        mut rx: mpsc::UnboundedReceiver<Cmd>,
    ) {
        // A table filled at its creation (人机 四国) starts here.
        self.start_if_ready().await;
        self.prompt(&me);
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
            // An open table keeps its task (its seats are in memory) until it starts,
            // is cancelled or expires; a finished one ends with its last socket.
            if self.conns.is_empty() && self.row.status != RUNNING && self.row.status != OPEN {
                break;
            }
            self.prompt(&me);
        }
        self.hub.forget(&self.row.id, &me);
        rx.close();
        let id = self.row.id.clone();
        while let Ok(cmd) = rx.try_recv() {
            match self.hub.handle(&id).await {
                Ok(tx) => {
                    let _ = tx.send(cmd);
                }
                Err(e) => tracing::error!(table = %id, error = %e, "cannot restart a table task"),
            }
        }
    }

    async fn handle(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Connect {
                user,
                out,
                reply,
                seated,
                ..
            } => {
                let conn = self.hub.next_conn_id();
                self.conns.insert(
                    conn,
                    Conn {
                        user,
                        out,
                        behind: None,
                        seated,
                    },
                );
                let _ = reply.send(conn);
                if user.is_some() && self.seat_of_user(user).is_none() {
                    self.read_permits().await;
                }
                // Every socket hears of the newcomer; the newcomer gets the table.
                self.presence_changed().await;
            }
            Cmd::Disconnect { conn } => {
                if self.conns.remove(&conn).is_some() {
                    self.presence_changed().await;
                }
            }
            Cmd::Message { conn, msg } => {
                let user = self.conns.get(&conn).and_then(|c| c.user);
                let done = match msg.kind {
                    ClientKind::Ping => return self.send(conn, &ServerMsg::Pong),
                    // Anyone watching may choose where to sit; it changes their own view only.
                    ClientKind::Table(TableCmd::Behind(seat)) => {
                        self.sit_behind(conn, seat);
                        Ok(())
                    }
                    kind => self.command(user, kind).await,
                };
                match done {
                    Ok(()) => {
                        if let Some(a) = msg.ack {
                            self.send(conn, &ServerMsg::Ack { a, v: self.version });
                        }
                    }
                    Err(why) => self.send(conn, &ServerMsg::error(why, msg.ack)),
                }
            }
            Cmd::Join { user, reply } => {
                let r = self.join_any_seat(user).await;
                let _ = reply.send(r);
            }
            Cmd::Cancel { user, reply } => {
                let r = self.cancel(user).await;
                let _ = reply.send(r);
            }
            Cmd::Expired => self.expired(),
            Cmd::Computer { .. } => {}
            Cmd::Permits { owner, viewers } => self.permits_changed(owner, viewers).await,
            Cmd::TableComputer {
                version,
                seat,
                step,
            } => self.computer_answer(version, seat, step).await,
            Cmd::Summary { reply } => {
                let _ = reply.send(Err(crate::error::AppError::BadRequest(
                    "a 四国 table's summary is its socket's table message".into(),
                )));
            }
            Cmd::Actions { reply } => {
                let _ = reply.send(Ok(Vec::new()));
            }
            Cmd::IsPlayer { user, reply } => {
                let _ = reply.send(Ok(
                    self.seat_of_user(Some(user)).is_some() || user == self.row.creator_id
                ));
            }
        }
    }

    /// One command of a socket's user.
    async fn command(&mut self, user: Option<i64>, kind: ClientKind) -> Result<(), ErrorBody> {
        let user =
            user.ok_or_else(|| ErrorBody::new("not_logged_in", "log in to sit at a table"))?;
        match kind {
            ClientKind::Rematch => return self.rematch_command(user, true).await,
            ClientKind::Table(TableCmd::DeclineRematch) => {
                return self.rematch_command(user, false).await;
            }
            _ => {}
        }
        match &self.phase {
            Phase::Open => self.open_command(user, kind).await,
            Phase::Deploying(_) => self.deploy_command(user, kind).await,
            Phase::Playing(_) => self.play_command(user, kind).await,
        }
    }

    pub(super) fn seat_of_user(&self, user: Option<i64>) -> Option<Seat4> {
        let user = user?;
        Seat4::ALL.into_iter().find(|s| {
            self.seats[s.index()]
                .as_ref()
                .is_some_and(|p| p.info.id == user)
        })
    }

    pub(super) fn is_creator(&self, you: Option<Seat4>) -> bool {
        you.and_then(|s| self.seats[s.index()].as_ref())
            .is_some_and(|p| p.info.id == self.row.creator_id)
    }

    /// The computer's level in `seat`, if the computer sits there.
    pub(super) fn computer_in(&self, seat: Seat4) -> Option<Level> {
        self.seats[seat.index()].as_ref()?.info.computer
    }

    /// Whether `seat` is held: by the computer, or by a person with a socket here.
    pub(super) fn connected(&self, seat: Seat4) -> bool {
        let Some(p) = &self.seats[seat.index()] else {
            return false;
        };
        p.info.computer.is_some() || self.conns.values().any(|c| c.user == Some(p.info.id))
    }

    pub(super) fn send(&self, conn: u64, msg: &ServerMsg) {
        if let Some(c) = self.conns.get(&conn) {
            c.out.push(msg.frame());
        }
    }

    /// A change: the version moves on and every socket is sent its cut of the table,
    /// one cut per seat, one per seat a listed spectator sees and one for the rest.
    pub(super) fn changed(&mut self) {
        self.version += 1;
        self.take_seats();
        type Cut = (Option<Seat4>, Option<Seat4>);
        let mut frames: HashMap<Cut, bytestring::ByteString> = HashMap::new();
        for (&id, c) in &self.conns {
            let you = self.seat_of_user(c.user);
            c.seated
                .store(you.is_some(), std::sync::atomic::Ordering::Relaxed);
            let sight = self.sight_of(id);
            let frame = frames.entry((you, sight)).or_insert_with(|| {
                ServerMsg::Table {
                    v: self.version,
                    d: Box::new(self.view(you, sight)),
                }
                .frame()
            });
            c.out.push(frame.clone());
        }
    }

    /// A socket came or went: the seats' connected marks, and for a running game the
    /// grace of a person without a socket (§5.5.1).
    async fn presence_changed(&mut self) {
        let now = now_ms();
        let here: [bool; 4] = Seat4::ALL.map(|s| self.connected(s));
        if let Phase::Playing(p) = &mut self.phase {
            for s in Seat4::ALL {
                let i = s.index();
                match (here[i], p.away_since[i]) {
                    (true, Some(_)) => p.away_since[i] = None,
                    (false, None) if self.seats[i].is_some() => p.away_since[i] = Some(now),
                    _ => {}
                }
            }
        }
        self.changed();
        if here.iter().any(|&h| h) {
            self.returned().await;
        }
    }
}
