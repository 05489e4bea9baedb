//! `junqi load`'s options.

use std::time::Duration;

/// Ramps live flip games against a server it starts itself, plays them over the real
/// protocol (both seats connected, one action a second per game by default) and
/// reports, per level, actions/s, latencies, errors and the server's memory and CPU.
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
    /// The computer's level in those games: easy, normal or hard.
    #[arg(long, default_value = "hard", value_parser = parse_level)]
    pub computer_level: crate::engine::Level,
}

fn parse_level(s: &str) -> Result<crate::engine::Level, String> {
    crate::engine::Level::from_name(s).ok_or_else(|| format!("{s:?}: easy, normal or hard"))
}

impl LoadArgs {
    /// The time between two actions of one game.
    pub fn interval(&self) -> Duration {
        Duration::from_secs_f64(1.0 / self.rate)
    }

    /// Every game the run plays at once at most.
    pub fn most_games(&self) -> usize {
        if self.crash {
            self.crash_games
        } else {
            self.levels.iter().copied().max().unwrap_or(0)
        }
    }

    /// Why these options cannot run, if they cannot.
    pub fn problem(&self) -> Option<String> {
        // Each seat sends half a game's actions, and may send 100 frames in 20 s.
        if !(self.rate > 0.0 && self.rate <= 8.0) {
            return Some("--rate must be above 0 and at most 8".into());
        }
        if self.most_games() == 0 {
            return Some("no games to play (--levels or --crash-games)".into());
        }
        if self.most_games() > 99_999 {
            return Some("at most 99,999 games".into());
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
