//! What the game tasks and the orchestrator share on the client's one thread: the
//! counters, the phase (measuring, paused for a crash), and in `--crash` mode each
//! game's ledger of the actions its seats sent.

use super::protocol::{Act, Seat};
use super::stats::Stats;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::time::{Duration, Instant};

pub struct Ctx {
    /// `http://127.0.0.1:PORT`.
    pub base: RefCell<String>,
    pub interval: Duration,
    pub seconds_per_action: u32,
    pub stats: RefCell<Stats>,
    /// Samples are taken only while this is on (the hold of a level).
    pub measuring: Cell<bool>,
    /// The server is being killed and restarted: socket and HTTP failures are
    /// expected, not errors, and the games wait for the word to reconnect.
    pub paused: Cell<bool>,
    /// Games whose start (create, join, sockets) is under way.
    pub starting: Cell<usize>,
    /// Games being played (sockets open or reconnecting).
    pub playing: Cell<usize>,
    /// Games waiting for the pause to end.
    pub parked: Cell<usize>,
    /// `--crash` mode: every game's ledger, for the check.
    pub ledgers: Option<RefCell<Vec<Rc<RefCell<Ledger>>>>>,
    /// Per pair: when it last had an action acknowledged.
    pub last_ack: RefCell<Vec<Option<Instant>>>,
    /// The games against the computer (`--computer-games`).
    pub computer: RefCell<super::computer::ComputerStats>,
    /// The 四国 tables (`--siguo-tables`): the time between two actions of one
    /// table, whether to read their messages twice (`--check-table-parse`), and what
    /// they count.
    pub table_interval: Duration,
    pub check_table_parse: bool,
    pub tables: RefCell<super::table_stats::TableStats>,
}

impl Ctx {
    pub fn new(base: String, interval: Duration, seconds_per_action: u32, crash: bool) -> Ctx {
        Ctx {
            base: RefCell::new(base),
            interval,
            seconds_per_action,
            stats: RefCell::default(),
            measuring: Cell::new(false),
            paused: Cell::new(false),
            starting: Cell::new(0),
            playing: Cell::new(0),
            parked: Cell::new(0),
            ledgers: crash.then(RefCell::default),
            last_ack: RefCell::default(),
            computer: RefCell::default(),
            table_interval: interval,
            check_table_parse: false,
            tables: RefCell::default(),
        }
    }

    pub fn error(&self, kind: impl Into<String>) {
        self.stats.borrow_mut().error(kind);
    }

    /// Counts a failure as an error unless the server is down on purpose.
    pub fn failure(&self, kind: impl Into<String>) {
        if !self.paused.get() {
            self.error(kind);
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base.borrow())
    }

    /// Waits while the server is down on purpose.
    pub async fn while_paused(&self) {
        if !self.paused.get() {
            return;
        }
        self.parked.set(self.parked.get() + 1);
        while self.paused.get() {
            actix_web::rt::time::sleep(Duration::from_millis(50)).await;
        }
        self.parked.set(self.parked.get() - 1);
    }

    pub fn ledger(&self, game_id: &str, pair: usize) -> Rc<RefCell<Ledger>> {
        let ledger = Rc::new(RefCell::new(Ledger {
            game_id: game_id.to_string(),
            pair,
            sent: Vec::new(),
            restore: None,
        }));
        if let Some(all) = &self.ledgers {
            all.borrow_mut().push(ledger.clone());
        }
        ledger
    }

    pub fn acked(&self, pair: usize) {
        if let Some(t) = self.last_ack.borrow_mut().get_mut(pair) {
            *t = Some(Instant::now());
        }
    }
}

/// One action a seat sent, in the order sent: a seat acts only once it has seen the
/// opponent's last action, so this is the game's own order.
#[derive(Debug, Clone)]
pub struct Sent {
    pub seat: Seat,
    pub act: Act,
    pub ack_id: u64,
    pub acked: bool,
}

/// The actions of one game's seats, for the crash check.
#[derive(Debug)]
pub struct Ledger {
    pub game_id: String,
    pub pair: usize,
    pub sent: Vec<Sent>,
    /// Set by the check: this seat's action was in flight and is not stored, so the
    /// seat is to move again with the legal actions it had.
    pub restore: Option<Seat>,
}
