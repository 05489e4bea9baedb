//! Live games: one task per game owns its state, clock and subscribers and is the only
//! writer of that game; the hub finds or starts those tasks and keeps the lobby list.

mod action_text;
pub mod caps;
pub mod challenges;
mod clock;
pub mod computer;
mod deploy;
mod end;
mod join;
mod load;
pub mod lobby;
mod lobby_feed;
pub mod lobby_tables;
mod marks;
pub mod messages;
mod outbox;
mod phrases;
pub mod playing;
pub mod presence;
pub mod protocol;
mod publish;
pub mod replay;
pub mod social;
mod summary;
pub mod table;
mod tally_text;
mod task;
mod tuoguan;
mod watch_list;
pub mod watch_permits;
mod watchers;

pub use lobby_tables::{OpenTable, TableSeat};
pub use summary::{GameSummary, OpenGame, PlayerInfo, PlayerRef, PlayerStanding, RankView};
pub use task::new_game_id;
pub use watch_list::LiveGame;

use crate::db::{self, Pool};
use crate::error::AppError;
use bytestring::ByteString;
use protocol::ClientMsg;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot, watch};

#[derive(Debug, Clone)]
pub struct LiveConfig {
    /// How long a player may be without a socket before losing by escape.
    pub grace: Duration,
    /// Standard 军棋's deployment time for new games.
    pub deploy_seconds: u32,
    /// How long an open game's creator may be away (no lobby socket, no socket on the
    /// game) before the game is cancelled.
    pub open_game_idle: Duration,
    /// Threads of the computer's thinking pool.
    pub think_threads: usize,
    /// The soonest the computer answers a person's action (`computer::play::paced`).
    pub computer_pace: Duration,
}

pub use outbox::{Behind, Inbox, Outbox, outbox};

pub enum Cmd {
    Connect {
        user: Option<i64>,
        since: Option<u64>,
        out: Outbox,
        reply: oneshot::Sender<u64>,
        /// Set by the game while `user` holds one of its seats (the frame budgets charge
        /// a seated player's frames to the account alone).
        seated: Arc<std::sync::atomic::AtomicBool>,
    },
    Disconnect {
        conn: u64,
    },
    Message {
        conn: u64,
        msg: ClientMsg,
    },
    Join {
        user: i64,
        reply: oneshot::Sender<Result<(), AppError>>,
    },
    Cancel {
        user: i64,
        reply: oneshot::Sender<Result<(), AppError>>,
    },
    /// The expiry sweep cancelled the game (if it was still open) in the database.
    Expired,
    /// The thinking pool's answer to the question the computer was asked at `version`
    /// of the game for `seat` (`None`: the engine failed).
    Computer {
        version: usize,
        /// The seat it plays: the computer's own, or one it stands in for (托管).
        seat: crate::rules::Seat,
        decision: Option<crate::engine::Decision>,
    },
    /// `owner`, a player of the game, changed their 指定旁观 list to `viewers`.
    Permits {
        owner: i64,
        viewers: std::collections::HashSet<i64>,
    },
    /// The thinking pool's step for a 四国 table's computer `seat`, asked at `version`.
    TableComputer {
        version: usize,
        seat: crate::rules::siguo::Seat4,
        step: Option<crate::rules::hidden_game::Step<crate::rules::siguo::Station>>,
    },
    /// The game's summary as the task holds it: a running game's stored row lacks its
    /// step count (see `db::steps`).
    Summary {
        reply: oneshot::Sender<Result<summary::GameSummary, AppError>>,
    },
    /// The game's actions as the task holds them: a running game's newer ones are only
    /// in the step log, which nothing reads by game (see `db::step_log`).
    Actions {
        reply: oneshot::Sender<Result<Vec<crate::db::games::ActionRow>, AppError>>,
    },
    /// Whether `user` is a player of the game (a seat, or the creator of an open game),
    /// whom the socket caps never keep out of it.
    IsPlayer {
        user: i64,
        reply: oneshot::Sender<Result<bool, AppError>>,
    },
}

pub struct Hub {
    pool: Pool,
    config: LiveConfig,
    games: Mutex<HashMap<String, mpsc::UnboundedSender<Cmd>>>,
    feed: lobby_feed::LobbyFeed,
    next_conn: AtomicU64,
    /// Games ended since the start: cached pages rendered before the last end lapse.
    ended: AtomicU64,
    presence: Arc<presence::Presence>,
    playing: Arc<playing::Playing>,
    audience: watchers::Audience,
    live_cache: watch_list::LiveCache,
    /// See [`Hub::seat_lock`].
    seat_locks: Box<[tokio::sync::Mutex<()>]>,
    /// See [`Hub::pair_lock`].
    pair_locks: Box<[tokio::sync::Mutex<()>]>,
    thinkers: computer::Thinkers,
    /// Open games being started against the computer, by id: the one player (the
    /// computer) who may join each, and the lobby does not list them.
    reserved: Mutex<HashMap<String, i64>>,
    social: social::Social,
}

/// Runs blocking database work off the async threads.
pub async fn blocking<T: Send + 'static>(
    pool: &Pool,
    f: impl FnOnce(&mut db::DbConn) -> Result<T, AppError> + Send + 'static,
) -> Result<T, AppError> {
    let turn = pool.turn().await;
    let pool = pool.clone();
    actix_web::web::block(move || {
        let mut conn = pool.get().map_err(AppError::internal)?;
        let done = f(&mut conn);
        // The next in line goes as soon as the work is done, not once this request's
        // thread has been woken again.
        drop(conn);
        drop(turn);
        done
    })
    .await?
}

impl Hub {
    pub fn new(pool: Pool, config: LiveConfig) -> Arc<Hub> {
        Arc::new(Hub {
            pool,
            games: Mutex::new(HashMap::new()),
            feed: lobby_feed::LobbyFeed::new(),
            next_conn: AtomicU64::new(1),
            ended: AtomicU64::new(0),
            presence: presence::Presence::new(db::now_ms()),
            playing: playing::Playing::new(),
            audience: watchers::Audience::default(),
            live_cache: watch_list::LiveCache::default(),
            seat_locks: (0..64).map(|_| tokio::sync::Mutex::new(())).collect(),
            pair_locks: (0..64).map(|_| tokio::sync::Mutex::new(())).collect(),
            thinkers: computer::Thinkers::start(config.think_threads),
            reserved: Mutex::new(HashMap::new()),
            social: social::Social::default(),
            config,
        })
    }

    /// The computer's thinking pool.
    pub fn thinkers(&self) -> &computer::Thinkers {
        &self.thinkers
    }

    /// Who alone may join open game `id`, when it is being started against the computer.
    pub(crate) fn reserved_for(&self, id: &str) -> Option<i64> {
        self.reserved.lock().expect("hub lock").get(id).copied()
    }

    /// How many games have ended since the start.
    pub fn games_ended(&self) -> u64 {
        self.ended.load(Ordering::Acquire)
    }

    pub(crate) fn note_game_end(&self) {
        self.ended.fetch_add(1, Ordering::AcqRel);
    }

    pub fn config(&self) -> &LiveConfig {
        &self.config
    }

    pub fn pool(&self) -> &Pool {
        &self.pool
    }

    /// Who has a socket open where (the lobby's and open games' creators).
    pub fn presence(&self) -> &Arc<presence::Presence> {
        &self.presence
    }

    /// Who is seated in which running game.
    pub fn playing(&self) -> &Arc<playing::Playing> {
        &self.playing
    }

    /// How many watch each live game.
    pub(crate) fn audience(&self) -> &watchers::Audience {
        &self.audience
    }

    pub(crate) fn next_conn_id(&self) -> u64 {
        self.next_conn.fetch_add(1, Ordering::Relaxed)
    }

    /// The task of game `id`, started (and its state loaded from the database) if needed.
    pub async fn handle(
        self: &Arc<Self>,
        id: &str,
    ) -> Result<mpsc::UnboundedSender<Cmd>, AppError> {
        if let Some(tx) = self.live_handle(id) {
            return Ok(tx);
        }
        let loaded = load::load_any(self, id).await?;
        let mut games = self.games.lock().expect("hub lock");
        if let Some(tx) = games.get(id).filter(|tx| !tx.is_closed()) {
            return Ok(tx.clone());
        }
        let (tx, rx) = mpsc::unbounded_channel();
        games.insert(id.to_string(), tx.clone());
        drop(games);
        actix_web::rt::spawn(loaded.run(tx.clone(), rx));
        Ok(tx)
    }

    fn live_handle(&self, id: &str) -> Option<mpsc::UnboundedSender<Cmd>> {
        let games = self.games.lock().expect("hub lock");
        games.get(id).filter(|tx| !tx.is_closed()).cloned()
    }

    /// Sends a command built by `make` to game `id`, restarting its task once if it had
    /// just stopped.
    pub async fn send(self: &Arc<Self>, id: &str, make: impl Fn() -> Cmd) -> Result<(), AppError> {
        for _ in 0..2 {
            let tx = self.handle(id).await?;
            if tx.send(make()).is_ok() {
                return Ok(());
            }
        }
        Err(AppError::internal("the game task stopped"))
    }

    /// Sends a command that answers through a oneshot and waits for the answer.
    pub async fn ask<T>(
        self: &Arc<Self>,
        id: &str,
        make: impl Fn(oneshot::Sender<Result<T, AppError>>) -> Cmd,
    ) -> Result<T, AppError> {
        for _ in 0..2 {
            let tx = self.handle(id).await?;
            let (reply, answer) = oneshot::channel();
            if tx.send(make(reply)).is_ok()
                && let Ok(result) = answer.await
            {
                return result;
            }
        }
        Err(AppError::internal("the game task stopped"))
    }

    /// Like [`Hub::ask`], but only of a task already running: `None` when game `id` has
    /// none, rather than loading it.
    pub async fn ask_if_live<T>(
        &self,
        id: &str,
        make: impl FnOnce(oneshot::Sender<Result<T, AppError>>) -> Cmd,
    ) -> Option<Result<T, AppError>> {
        let tx = self.live_handle(id)?;
        let (reply, answer) = oneshot::channel();
        tx.send(make(reply)).ok()?;
        answer.await.ok()
    }

    pub(crate) fn forget(&self, id: &str, tx: &mpsc::UnboundedSender<Cmd>) {
        let mut games = self.games.lock().expect("hub lock");
        if games.get(id).is_some_and(|t| t.same_channel(tx)) {
            games.remove(id);
        }
    }

    /// Starts the task of every running game, so clocks run without anyone connected.
    /// The actions the last server appended to the step log are first moved to where a
    /// task loads them from (see `db::step_log`).
    pub async fn resume_running(self: &Arc<Self>) -> Result<usize, AppError> {
        let began = std::time::Instant::now();
        let folded = blocking(&self.pool, |c| Ok(db::step_log::fold(c)?)).await?;
        if folded > 0 {
            let ms = began.elapsed().as_millis() as u64;
            tracing::info!(actions = folded, ms, "moved the step log of running games");
        }
        // Before any game's task: their phrases ask who blocks whom.
        self.load_blocks().await?;
        let ids = blocking(&self.pool, |c| Ok(db::games::running_ids(c)?)).await?;
        for id in &ids {
            self.handle(id).await?;
        }
        self.refresh_lobby().await;
        Ok(ids.len())
    }

    /// The lobby list as a frame: one copy, shared by every lobby socket's queue.
    pub fn lobby(&self) -> watch::Receiver<ByteString> {
        self.feed.subscribe()
    }
}
