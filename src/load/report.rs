//! The report: one row per level (and, in `--crash` mode, one per kill), as a text
//! table or JSON; and the meter that takes a level's CPU figures.

use super::server::{self, Server, TICKS_PER_SECOND};
use super::stats::{Spread, Stats, spread};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::Instant;

#[derive(Debug, Serialize)]
pub struct Report {
    pub backend: &'static str,
    pub cores: usize,
    pub rate: f64,
    /// Actions per second per 四国 table (`--table-rate`).
    pub table_rate: f64,
    pub seconds_per_action: u32,
    pub warmup_s: u64,
    pub hold_s: u64,
    pub server_args: Vec<String>,
    pub levels: Vec<Level>,
    pub crash: Option<super::crash::CrashReport>,
}

#[derive(Debug, Serialize)]
pub struct Level {
    /// Games aimed at.
    pub games: usize,
    /// Games being played at the end of the hold.
    pub live: usize,
    /// Seconds to start the level's new games.
    pub ramp_s: f64,
    /// Whether every game of the level started within `--ramp-seconds` (if not, the
    /// levels above it were not run).
    pub reached: bool,
    pub hold_s: f64,
    pub actions: u64,
    pub actions_per_s: f64,
    /// The server's CPU time (user and system, every thread) over the hold divided by
    /// the actions played in it (the games' and the 四国 tables' together), µs: the
    /// headline figure, far steadier from day to day than a percentile of latency.
    pub server_us_per_action: f64,
    /// With `--callgrind`: the server's instructions over the hold per action (user
    /// space only; the kernel's share is in `server_us_per_action`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server_instructions_per_action: Option<f64>,
    /// Send → the opponent receiving the event.
    pub latency_ms: Spread,
    /// Send → the mover's ack.
    pub ack_ms: Spread,
    pub games_started: u64,
    pub games_ended: u64,
    /// Over the whole level: ramp, warm-up and hold.
    pub errors: u64,
    pub error_kinds: BTreeMap<String, u64>,
    pub server_rss_mib: f64,
    /// The server's peak resident memory by the end of the level.
    pub server_peak_mib: f64,
    /// Percent of one core, over the hold.
    pub server_cpu_pct: f64,
    pub client_cpu_pct: f64,
    /// Percent of all the machine's cores (everything running, the database too).
    pub machine_cpu_pct: f64,
    /// The games against the computer played beside these (`--computer-games`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub computer: Option<super::computer::Figures>,
    /// The 四国 tables played beside these (`--siguo-tables`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tables: Option<super::table_stats::TableFigures>,
}

/// CPU counters at one moment.
pub struct Meter {
    at: Instant,
    server: u64,
    client: u64,
    machine: (u64, u64),
}

impl Meter {
    pub fn now(server: &Server) -> Meter {
        Meter {
            at: Instant::now(),
            server: server.cpu_ticks(),
            client: server::own_cpu_ticks(),
            machine: server::machine_ticks(),
        }
    }
}

impl Level {
    /// `table_actions`: the 四国 tables' actions over the hold, which the server's CPU
    /// per action counts too.
    #[allow(clippy::too_many_arguments)]
    pub fn measure(
        games: usize,
        live: usize,
        ramp_s: f64,
        stats: &mut Stats,
        table_actions: u64,
        from: &Meter,
        to: &Meter,
        server: &Server,
    ) -> Level {
        let secs = (to.at - from.at).as_secs_f64().max(1e-9);
        let pct = |ticks: u64| 100.0 * ticks as f64 / TICKS_PER_SECOND / secs;
        let server_ticks = to.server.saturating_sub(from.server);
        let busy = to.machine.0.saturating_sub(from.machine.0) as f64;
        let total = to.machine.1.saturating_sub(from.machine.1).max(1) as f64;
        Level {
            games,
            live,
            ramp_s: round1(ramp_s),
            reached: true,
            hold_s: round1(secs),
            actions: stats.actions,
            actions_per_s: round1(stats.actions as f64 / secs),
            server_us_per_action: round1(
                1e6 * server_ticks as f64
                    / TICKS_PER_SECOND
                    / (stats.actions + table_actions).max(1) as f64,
            ),
            server_instructions_per_action: None,
            latency_ms: spread(&mut stats.latency_us),
            ack_ms: spread(&mut stats.ack_us),
            games_started: stats.games_started,
            games_ended: stats.games_ended,
            errors: stats.error_count(),
            error_kinds: stats.errors.clone(),
            server_rss_mib: round1(server.rss_mib()),
            server_peak_mib: round1(server.peak_rss_mib()),
            server_cpu_pct: round1(pct(server_ticks)),
            client_cpu_pct: round1(pct(to.client.saturating_sub(from.client))),
            machine_cpu_pct: round1(100.0 * busy / total),
            computer: None,
            tables: None,
        }
    }

    pub fn line(&self) -> String {
        let ms = |s: &Spread| format!("{:.1} / {:.1} / {:.1}", s.p50, s.p99, s.max);
        format!(
            "{:>6} {:>6} {:>9.1} {:>10.1} {:>22} {:>22} {:>6} {:>9.0} {:>9.0} {:>8.0} {:>8.0} {:>8.0}{}",
            self.games,
            self.live,
            self.actions_per_s,
            self.server_us_per_action,
            ms(&self.latency_ms),
            ms(&self.ack_ms),
            self.errors,
            self.server_rss_mib,
            self.server_peak_mib,
            self.server_cpu_pct,
            self.client_cpu_pct,
            self.machine_cpu_pct,
            self.server_instructions_per_action
                .map(|n| format!("   {n:.0} instructions/action"))
                .unwrap_or_default(),
        )
    }
}

pub const HEADER: &str = " games   live actions/s srv µs/act latency ms p50/p99/max     ack ms p50/p99/max errors  srv MiB  peak MiB  srv CPU  cli CPU  all CPU";

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

fn kinds(k: &BTreeMap<String, u64>) -> String {
    k.iter()
        .map(|(kind, n)| format!("{kind} × {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Report {
    pub fn text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "junqi load on {}: {} action(s)/s per game, {} s per action, {} cores shared by \
             server, database and this client; warm-up {} s, hold {} s; server args {:?}",
            self.backend,
            self.rate,
            self.seconds_per_action,
            self.cores,
            self.warmup_s,
            self.hold_s,
            self.server_args
        );
        if self.levels.iter().any(|l| l.tables.is_some()) {
            let _ = writeln!(
                out,
                "四国 tables beside them: {} action(s)/s per table, four players each",
                self.table_rate
            );
        }
        if !self.levels.is_empty() {
            let _ = writeln!(out, "{HEADER}");
            let _ = writeln!(
                out,
                "(srv µs/act: the server's CPU time per action; CPU: % of one core for the server and this client, % of all cores for the machine)"
            );
            for l in &self.levels {
                let _ = writeln!(out, "{}", l.line());
                if let Some(c) = &l.computer {
                    let _ = writeln!(out, "{}", c.line());
                }
                if let Some(t) = &l.tables {
                    let _ = writeln!(out, "{}", t.line());
                }
            }
            for l in self.levels.iter().filter(|l| !l.reached) {
                let tables = l.tables.as_ref().map_or(0, |t| t.tables);
                let _ = writeln!(
                    out,
                    "{} games and {tables} tables: not all started within the ramp's time \
                     (the server is past what it can take); no higher level was run",
                    l.games
                );
            }
            for l in self.levels.iter().filter(|l| l.errors > 0) {
                let _ = writeln!(
                    out,
                    "errors at {} games: {}",
                    l.games,
                    kinds(&l.error_kinds)
                );
            }
            for (l, t) in self
                .levels
                .iter()
                .filter_map(|l| Some((l, l.tables.as_ref()?)))
            {
                if t.errors > 0 {
                    let _ = writeln!(
                        out,
                        "table errors at {} games and {} tables: {}",
                        l.games,
                        t.tables,
                        kinds(&t.error_kinds)
                    );
                }
            }
        }
        if let Some(c) = &self.crash {
            out.push_str(&c.text());
        }
        out
    }
}
