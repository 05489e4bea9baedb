//! `junqi load`'s options.

use std::time::Duration;

/// Ramps live flip games against a server it starts itself, plays them over the real
/// protocol (both seats connected, one action a second per game by default), with
/// `--siguo-tables` 四国 tables of four players beside them, and reports, per level,
/// actions/s, latencies, errors and the server's memory and CPU.
/// With `--crash`, kills the server mid-load, restarts it and checks every
/// acknowledged action against the stored records.
#[derive(Debug, Clone, clap::Args)]
pub struct LoadArgs {
    /// The server's database: `postgres://…`, or a SQLite file (created if missing).
    #[arg(long, env = "DATABASE_URL", default_value = "junqi-load.db")]
    pub database_url: String,
    /// Concurrent games to reach, one level after the other (each keeps the games of
    /// the levels before it).
    #[arg(long, value_delimiter = ',', default_values_t = vec![1000, 3000, 6000, 9000])]
    pub levels: Vec<usize>,
    /// Seconds played at each level before measuring.
    #[arg(long, default_value_t = 10)]
    pub warmup: u64,
    /// Seconds measured at each level.
    #[arg(long, default_value_t = 30)]
    pub hold: u64,
    /// Actions per second per game (both seats together; at most 8, as each socket may
    /// send 100 frames in 20 s).
    #[arg(long, default_value_t = 1.0)]
    pub rate: f64,
    /// The games' clock: seconds per action (casual games: 1 to 60).
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub seconds_per_action: u32,
    /// One more argument for the server (repeatable): `--server-arg=--workers=2`.
    #[arg(long = "server-arg", allow_hyphen_values = true)]
    pub server_args: Vec<String>,
    /// The server's port on 127.0.0.1 (0: a free one).
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// Where the server's output goes (default: a file under the temporary directory).
    #[arg(long)]
    pub server_log: Option<std::path::PathBuf>,
    /// Seconds a level's games may take to start; past them the level is measured as
    /// it stands and no higher level is run.
    #[arg(long, default_value_t = 120)]
    pub ramp_seconds: u64,
    /// Game starts (create, join, two sockets) under way at once, at most.
    #[arg(long, default_value_t = 200)]
    pub starts_in_flight: usize,
    /// Games whose sockets come from one client address (each address is 127.1.x.y;
    /// the server allows 50 sockets per address).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=25))]
    pub games_per_address: u64,
    /// Usernames are this prefix, the game's number and `a` or `b` (`load00001a`);
    /// players already in the database are reused.
    #[arg(long, default_value = "load")]
    pub prefix: String,
    /// Kill the server (SIGKILL) mid-load, restart it, and check every acknowledged
    /// action against the stored records (levels are not run).
    #[arg(long)]
    pub crash: bool,
    /// Games played in `--crash` mode.
    #[arg(long, default_value_t = 1000)]
    pub crash_games: usize,
    /// Kills and checks in `--crash` mode.
    #[arg(long, default_value_t = 3)]
    pub crash_rounds: usize,
    /// Seconds played before each kill, and after the last check.
    #[arg(long, default_value_t = 10)]
    pub crash_seconds: u64,
    /// Run the server under `valgrind --tool=callgrind`, counting its instructions
    /// over each level's hold only, and report them per action: a figure that stays put
    /// from day to day and beside other work, unlike times. Valgrind runs the server
    /// some 50× slower, so use small levels (`--levels 100`).
    #[arg(long)]
    pub callgrind: bool,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// Games against the computer played beside the levels' games, all along (each by
    /// a player of its own, who plays random legal actions at the games' pace).
    #[arg(long, default_value_t = 0)]
    pub computer_games: usize,
    /// The computer's level in those games: easy, normal, hard or master.
    #[arg(long, default_value = "hard", value_parser = parse_level)]
    pub computer_level: crate::engine::Level,
    /// 四国 tables played beside the games, one level after the other like
    /// `--levels` (the two lists are paired in order, the shorter one's last value
    /// repeated: `--levels 0 --siguo-tables 200,500` runs two levels of tables alone).
    /// Each table has four players and four sockets; a table whose game ends is
    /// replaced by a new one.
    #[arg(long, value_delimiter = ',', default_values_t = vec![0])]
    pub siguo_tables: Vec<usize>,
    /// Actions per second per table (all four seats together; at most 8).
    #[arg(long, default_value_t = 1.0)]
    pub table_rate: f64,
    /// Tables whose sockets come from one client address (four sockets a table; the
    /// server allows 50 per address).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=12))]
    pub tables_per_address: u64,
    /// Read every table message twice, by the client's scan and by serde, count any
    /// difference as an error and report what each costs (for tests and for the
    /// scan's measurement).
    #[arg(long, hide = true)]
    pub check_table_parse: bool,
}

fn parse_level(s: &str) -> Result<crate::engine::Level, String> {
    crate::engine::Level::from_name(s).ok_or_else(|| format!("{s:?}: easy, normal, hard or master"))
}

impl LoadArgs {
    /// The time between two actions of one game.
    pub fn interval(&self) -> Duration {
        Duration::from_secs_f64(1.0 / self.rate)
    }

    /// The time between two actions of one table.
    pub fn table_interval(&self) -> Duration {
        Duration::from_secs_f64(1.0 / self.table_rate)
    }

    /// Every game the run plays at once at most.
    pub fn most_games(&self) -> usize {
        if self.crash {
            self.crash_games
        } else {
            self.levels.iter().copied().max().unwrap_or(0)
        }
    }

    /// Every 四国 table the run plays at once at most.
    pub fn most_tables(&self) -> usize {
        self.siguo_tables.iter().copied().max().unwrap_or(0)
    }

    /// The levels in order, each as (games, tables): both lists ascending, paired in
    /// order, the shorter one's last value repeated.
    pub fn steps(&self) -> Vec<(usize, usize)> {
        let ladder = |v: &[usize]| {
            let mut v = v.to_vec();
            v.sort_unstable();
            v.dedup();
            if v.is_empty() {
                v.push(0);
            }
            v
        };
        let (games, tables) = (ladder(&self.levels), ladder(&self.siguo_tables));
        let at = |v: &[usize], i: usize| v[i.min(v.len() - 1)];
        (0..games.len().max(tables.len()))
            .map(|i| (at(&games, i), at(&tables, i)))
            .collect()
    }

    /// Why these options cannot run, if they cannot.
    pub fn problem(&self) -> Option<String> {
        // Each seat sends half a game's actions, and may send 100 frames in 20 s.
        if !(self.rate > 0.0 && self.rate <= 8.0) {
            return Some("--rate must be above 0 and at most 8".into());
        }
        if self.most_games() == 0 && (self.crash || self.most_tables() == 0) {
            return Some("no games to play (--levels, --siguo-tables or --crash-games)".into());
        }
        if self.most_games() > 99_999 || self.most_tables() > 99_999 {
            return Some("at most 99,999 games and 99,999 tables".into());
        }
        if self.most_tables() > 0 {
            if self.crash {
                return Some("--siguo-tables runs beside the levels, not with --crash".into());
            }
            // Each seat sends a quarter of the table's actions; 8 a second keeps every
            // socket well inside its 100 frames in 20 s.
            if !(self.table_rate > 0.0 && self.table_rate <= 8.0) {
                return Some("--table-rate must be above 0 and at most 8".into());
            }
            if ![15, 30, 60].contains(&self.seconds_per_action) {
                return Some(
                    "with --siguo-tables, --seconds-per-action must be 15, 30 or 60 (a \
                     table's clock)"
                        .into(),
                );
            }
        }
        if self.prefix.len() > 13 || !self.prefix.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Some("--prefix: up to 13 letters or digits".into());
        }
        if self.computer_games > 0 && self.crash {
            return Some("--computer-games runs beside the levels, not with --crash".into());
        }
        if self.starts_in_flight == 0 {
            return Some("--starts-in-flight must be at least 1".into());
        }
        None
    }
}
