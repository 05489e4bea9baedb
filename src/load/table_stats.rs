//! What the 四国 tables (`--siguo-tables`) count as they play, and the figures the
//! report gives of them per level.

use super::stats::{Spread, spread};
use serde::Serialize;
use std::collections::BTreeMap;

/// What the tables count; the orchestrator takes it per level ([`TableFigures::take`]).
#[derive(Default)]
pub struct TableStats {
    /// An action sent → its ack, microseconds (while measuring).
    pub ack_us: Vec<u32>,
    /// An action sent → the first table message after it on another seat's socket.
    pub seen_us: Vec<u32>,
    /// A table opened → its play began (set-up over the socket), microseconds.
    pub set_up_us: Vec<u32>,
    /// Actions (moves and passes) acknowledged while measuring.
    pub actions: u64,
    pub passes: u64,
    /// Table messages read while measuring, their bytes, and the client's time
    /// reading them: by the scan, and with `--check-table-parse` by serde too.
    pub messages: u64,
    pub bytes: u64,
    pub scan_ns: u64,
    pub serde_ns: u64,
    pub started: u64,
    pub ended: u64,
    /// Tables being set up, and being played, now.
    pub starting: usize,
    pub playing: usize,
    pub errors: BTreeMap<String, u64>,
}

impl TableStats {
    pub fn error(&mut self, kind: impl Into<String>) {
        *self.errors.entry(kind.into()).or_default() += 1;
    }

    /// The samples start afresh as a hold begins.
    pub fn reset_samples(&mut self) {
        self.ack_us.clear();
        self.seen_us.clear();
        self.actions = 0;
        self.passes = 0;
        self.messages = 0;
        self.bytes = 0;
        self.scan_ns = 0;
        self.serde_ns = 0;
    }
}

/// The tables over one level's hold (errors, set-ups and ends over the whole level).
#[derive(Debug, Serialize)]
pub struct TableFigures {
    /// Tables aimed at.
    pub tables: usize,
    /// Tables being played at the end of the hold.
    pub live: usize,
    pub actions: u64,
    pub actions_per_s: f64,
    pub passes: u64,
    /// Send → the mover's ack.
    pub ack_ms: Spread,
    /// Send → the next table message on another seat's socket.
    pub seen_ms: Spread,
    /// Create → play begins, over the level.
    pub set_up_ms: Spread,
    pub started: u64,
    pub ended: u64,
    pub errors: u64,
    pub error_kinds: BTreeMap<String, u64>,
    /// Table messages the client read a second, and their mean size.
    pub messages_per_s: f64,
    pub message_kib: f64,
    /// The client's time reading one table message, µs: the scan, and serde with
    /// borrowed types when `--check-table-parse` ran it beside.
    pub scan_us_per_message: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub serde_us_per_message: Option<f64>,
}

impl TableFigures {
    /// Takes the hold's samples and the level's counts, and starts both afresh.
    pub fn take(stats: &mut TableStats, tables: usize, hold_s: f64, checked: bool) -> Self {
        let per_message = |ns: u64| round2(ns as f64 / 1000.0 / stats.messages.max(1) as f64);
        let f = TableFigures {
            tables,
            live: stats.playing,
            actions: stats.actions,
            actions_per_s: round2(stats.actions as f64 / hold_s.max(1e-9)),
            passes: stats.passes,
            ack_ms: spread(&mut stats.ack_us),
            seen_ms: spread(&mut stats.seen_us),
            set_up_ms: spread(&mut stats.set_up_us),
            started: stats.started,
            ended: stats.ended,
            errors: stats.errors.values().sum(),
            error_kinds: std::mem::take(&mut stats.errors),
            messages_per_s: round2(stats.messages as f64 / hold_s.max(1e-9)),
            message_kib: round2(stats.bytes as f64 / 1024.0 / stats.messages.max(1) as f64),
            scan_us_per_message: per_message(stats.scan_ns),
            serde_us_per_message: checked.then(|| per_message(stats.serde_ns)),
        };
        stats.reset_samples();
        stats.set_up_us.clear();
        stats.started = 0;
        stats.ended = 0;
        f
    }

    pub fn line(&self) -> String {
        let ms = |s: &Spread| format!("{:.1} / {:.1} / {:.1}", s.p50, s.p99, s.max);
        format!(
            "  四国 tables: {} of {} live, {:.1} actions/s ({} passes), ack ms p50/p99/max \
             {}, seen by another seat {}; set-up {}; {} started, {} ended; {} errors; \
             {:.0} messages/s of {:.1} KiB read at {:.2} µs{}",
            self.live,
            self.tables,
            self.actions_per_s,
            self.passes,
            ms(&self.ack_ms),
            ms(&self.seen_ms),
            ms(&self.set_up_ms),
            self.started,
            self.ended,
            self.errors,
            self.messages_per_s,
            self.message_kib,
            self.scan_us_per_message,
            self.serde_us_per_message
                .map(|s| format!(" (serde: {s:.2} µs)"))
                .unwrap_or_default(),
        )
    }
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}
