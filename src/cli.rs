//! The `junqi` command line: `verify`, `selfplay`, `seed`, `load` and `arena`.

use crate::record::{AnyRecord, RecordError, invalid_json};
use crate::record_input::read_limited;
use crate::rules::Variant;
use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, Parser)]
#[command(
    name = "junqi",
    version,
    about = "军棋翻翻棋 and standard 军棋. With no command, serves the site."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub serve: ServeArgs,
}

#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "JUNQI_BIND", default_value = "127.0.0.1:8080")]
    pub bind: String,
    /// `postgres://…` for PostgreSQL; anything else is a SQLite file, created if missing.
    #[arg(long, env = "DATABASE_URL", default_value = "junqi.db")]
    pub database_url: String,
    /// Seconds a player may be disconnected from a running game before losing by escape.
    #[arg(long, env = "JUNQI_GRACE_SECONDS", default_value_t = 60)]
    pub grace_seconds: u64,
    /// Seconds standard 军棋 players have to deploy (RULES §4.1 gives 120).
    #[arg(long, env = "JUNQI_DEPLOY_SECONDS", default_value_t = 120, value_parser = clap::value_parser!(u32).range(1..=600))]
    pub deploy_seconds: u32,
    /// Mark the session cookie Secure (serve behind HTTPS).
    #[arg(long, env = "JUNQI_SECURE_COOKIES")]
    pub secure_cookies: bool,
    /// HTTP worker threads.
    #[arg(long, env = "JUNQI_WORKERS", default_value_t = 2)]
    pub workers: usize,
    /// Database connections kept open. A few per core suit a database on the same
    /// machine (more only add switching between processes); raise it for a database
    /// elsewhere, whose round trips leave connections idle.
    #[arg(long, env = "JUNQI_DB_CONNECTIONS", default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub db_connections: u32,
    /// Seconds an open game's creator may be away (no lobby socket and no socket on the
    /// game) before the game is cancelled.
    #[arg(long, env = "JUNQI_OPEN_GAME_IDLE_SECONDS", default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub open_game_idle_seconds: u64,
    /// Behind a reverse proxy: take the client's address from the last entry of
    /// X-Forwarded-For (which the proxy must set) for the login and registration limits.
    #[arg(long, env = "JUNQI_TRUST_PROXY")]
    pub trust_proxy: bool,
    /// Turn off the login and registration limits (for load tests and the test suite).
    #[arg(long, env = "JUNQI_NO_RATE_LIMITS")]
    pub no_rate_limits: bool,
    /// For tests only: the login, registration and API-token limits run on a clock
    /// that stands still until `POST /test/rate-clock` moves it. Never in service:
    /// anyone could move it.
    #[arg(long, hide = true)]
    pub frozen_rate_clock: bool,
    /// Threads the computer opponent thinks on, apart from the game tasks and the HTTP
    /// workers (at a lowered priority). Many computer games at once share them, each
    /// thinking less rather than waiting.
    #[arg(long, env = "JUNQI_THINK_THREADS", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub think_threads: u64,
    /// The soonest, in ms, the computer answers a person's action, so that the person
    /// sees their own move arrive first (as with a person across the table). Each
    /// answer waits between this and half as long again, never past its clock. 0 for
    /// tests that play the computer through many moves.
    #[arg(long, env = "JUNQI_COMPUTER_PACE_MS", default_value_t = 600, value_parser = clap::value_parser!(u64).range(0..=5_000))]
    pub computer_pace_ms: u64,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Replay a junqi-record/1 file, check its commitment and print one line of JSON.
    /// Exit 0 when valid, 1 when not (also past 4 MiB or 10,000 actions), 2 when the
    /// input cannot be read.
    Verify {
        /// The record file, or - for standard input.
        file: PathBuf,
    },
    /// Play random games (uniform among legal flips and moves) and report outcomes and speed.
    Selfplay {
        #[arg(long, default_value_t = 1000)]
        games: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, value_enum, default_value_t = SelfplayVariant::Flip)]
        variant: SelfplayVariant,
        /// 四国: who is allied (RULES §5.2).
        #[arg(long, value_enum, default_value_t = AllianceArg::Opposite)]
        alliance: AllianceArg,
        /// 四国: 4 seats, or 3 (三国: free-for-all, West's area out of play).
        #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(3..=4))]
        seats: u8,
        /// 四国: 友明, allies see each other's pieces.
        #[arg(long)]
        allies_visible: bool,
        /// 四国: 乱战, the seated players' sets shuffled together and dealt as hands.
        #[arg(long)]
        random_pieces: bool,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Play the computer (levels easy, normal, hard, master), the frozen hard-v1 and the
    /// baselines (expectimax2, random, greedy) against each other, each game on one
    /// thread; report wins, draws, losses and think times.
    Arena {
        #[arg(long, value_enum, default_value_t = VariantArg::Flip)]
        variant: VariantArg,
        /// Player A: easy, normal, hard, master, hard-v1, expectimax2, random or
        /// greedy. 四国: team A, both of its seats (S+N in opposite, S+E in adjacent;
        /// the sides swap every other game); hard-v1 and expectimax2 play only the
        /// two-player variants.
        #[arg(long, alias = "team-a", value_parser = parse_player)]
        a: crate::engine::Player,
        /// Player B, as A. 四国: team B's two seats.
        #[arg(long, alias = "team-b", value_parser = parse_player)]
        b: crate::engine::Player,
        /// 四国: who is allied (RULES §5.2).
        #[arg(long, value_enum, default_value_t = AllianceArg::Opposite)]
        alliance: AllianceArg,
        /// 四国: 友明, allies see each other's pieces (the computer too).
        #[arg(long)]
        allies_visible: bool,
        #[arg(long, default_value_t = 100)]
        games: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games played at once, each on a thread of its own (flip and standard); the
        /// results are those of one thread, only sooner.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
        threads: u64,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Review random self-play games (复盘分析) from South's side with the server's
    /// review budget, cut to their first `steps` steps; report the time per game and
    /// per valued step on this one thread.
    ReviewBench {
        #[arg(long, value_enum, default_value_t = VariantArg::Flip)]
        variant: VariantArg,
        #[arg(long, default_value_t = 3)]
        games: u64,
        #[arg(long, default_value_t = 300)]
        steps: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The share of the review level's nodes each step gets (the server's by default).
        #[arg(long)]
        share: Option<f64>,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Fill a database with players and finished games, for measuring pages at size.
    Seed {
        #[arg(long, default_value_t = 100_000)]
        players: u64,
        #[arg(long, default_value_t = 1_000_000)]
        games: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// `postgres://…` for PostgreSQL; anything else is a SQLite file.
        #[arg(long, env = "DATABASE_URL", default_value = "junqi.db")]
        database_url: String,
    },
    /// Live games under load: starts the server on a database, ramps concurrent games
    /// played over the real protocol, and reports latency, errors, memory and CPU per
    /// level; `--crash` kills the server mid-load and checks the stored records.
    Load(Box<crate::load::LoadArgs>),
}

/// What self-play plays: the two-player variants, or 四国.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum SelfplayVariant {
    Flip,
    Standard,
    Siguo,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum AllianceArg {
    Opposite,
    Adjacent,
    None,
}

impl From<AllianceArg> for crate::rules::siguo::Alliance {
    fn from(a: AllianceArg) -> crate::rules::siguo::Alliance {
        use crate::rules::siguo::Alliance;
        match a {
            AllianceArg::Opposite => Alliance::Opposite,
            AllianceArg::Adjacent => Alliance::Adjacent,
            AllianceArg::None => Alliance::None,
        }
    }
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum VariantArg {
    Flip,
    Standard,
    Siguo,
}

fn parse_player(s: &str) -> Result<crate::engine::Player, String> {
    crate::engine::Player::from_name(s).ok_or_else(|| {
        format!(
            "unknown player {s:?}: {}",
            crate::engine::Player::NAMES.join(", ")
        )
    })
}

pub fn run(cli: Cli) -> ExitCode {
    let Some(command) = cli.command else {
        return serve(cli.serve);
    };
    match command {
        Command::Verify { file } => verify(&file),
        Command::Load(args) => crate::load::run(*args),
        Command::Seed {
            players,
            games,
            seed,
            database_url,
        } => {
            if players < 2 {
                eprintln!("junqi seed: at least 2 players are needed for a game");
                return ExitCode::from(2);
            }
            let done = crate::db::connect(&database_url, 2)
                .and_then(|pool| crate::seed::run(&pool, players, games, seed));
            match done {
                Ok(report) => {
                    println!(
                        "{}",
                        serde_json::to_string(&report).expect("report serialises")
                    );
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("junqi seed: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Command::ReviewBench {
            variant,
            games,
            steps,
            seed,
            share,
            json,
        } => {
            let variant = match variant {
                VariantArg::Flip => Variant::Flip,
                VariantArg::Standard => Variant::Standard,
                VariantArg::Siguo => {
                    eprintln!("junqi review-bench: 四国 tables are not reviewed");
                    return ExitCode::from(2);
                }
            };
            let mut budget = crate::review::REVIEW_BUDGET;
            if let Some(share) = share {
                budget.share = share.clamp(0.01, 1.0);
            }
            // Node counts alone, as a measure of work that does not depend on the load.
            budget.step_time = None;
            let report = crate::review::bench::run(variant, games, steps, seed, budget);
            print_report(json, &report, || report.to_text());
            ExitCode::SUCCESS
        }
        Command::Arena {
            variant,
            a,
            b,
            alliance,
            allies_visible,
            games,
            seed,
            threads,
            json,
        } => {
            let two = |v: Variant| {
                let report =
                    crate::engine::arena::run_on_threads(v, a, b, games, seed, threads as usize);
                print_report(json, &report, || report.to_text());
            };
            match variant {
                VariantArg::Flip => two(Variant::Flip),
                VariantArg::Standard => two(Variant::Standard),
                VariantArg::Siguo => {
                    if let Some(p) = [a, b].into_iter().find(|p| !p.plays_siguo()) {
                        eprintln!(
                            "junqi arena: {} plays only flip and standard (--variant flip or standard), not 四国",
                            p.name()
                        );
                        return ExitCode::from(2);
                    }
                    if threads > 1 {
                        eprintln!(
                            "junqi arena: --threads is for flip and standard; 四国 plays on one thread"
                        );
                        return ExitCode::from(2);
                    }
                    let table = crate::selfplay_siguo::Table {
                        alliance: alliance.into(),
                        seats: 4,
                        allies_visible,
                    };
                    let report =
                        crate::engine::siguo::arena::run(table, [a; 2], [b; 2], games, seed);
                    print_report(json, &report, || report.to_text());
                }
            }
            ExitCode::SUCCESS
        }
        Command::Selfplay {
            games,
            seed,
            variant,
            alliance,
            seats,
            allies_visible,
            random_pieces,
            json,
        } => {
            let two = |v: Variant| {
                let report = crate::selfplay::run(v, games, seed);
                print_report(json, &report, || report.to_text());
            };
            if random_pieces && !matches!(variant, SelfplayVariant::Siguo) {
                eprintln!(
                    "junqi selfplay: --random-pieces (乱战) is a 四国 option (--variant siguo)"
                );
                return ExitCode::from(2);
            }
            match variant {
                SelfplayVariant::Flip => two(Variant::Flip),
                SelfplayVariant::Standard => two(Variant::Standard),
                SelfplayVariant::Siguo => {
                    let alliance = alliance.into();
                    if seats == 3 && alliance != crate::rules::siguo::Alliance::None {
                        eprintln!(
                            "junqi selfplay: three seats play free-for-all (--alliance none)"
                        );
                        return ExitCode::from(2);
                    }
                    let table = crate::selfplay_siguo::Table {
                        alliance,
                        seats,
                        allies_visible,
                    };
                    let report = crate::selfplay_siguo::run(table, random_pieces, games, seed);
                    print_report(json, &report, || report.to_text());
                }
            }
            ExitCode::SUCCESS
        }
    }
}

/// The file's text, or why it is refused (too large: read no further); the outer
/// error when it cannot be read.
fn read_input(file: &PathBuf) -> std::io::Result<Result<String, RecordError>> {
    if file.as_os_str() == "-" {
        read_limited(std::io::stdin().lock())
    } else {
        read_limited(std::fs::File::open(file)?)
    }
}

fn verify(file: &PathBuf) -> ExitCode {
    let text = match read_input(file) {
        // A record too large to be a game's is an invalid record (exit 1), not an
        // unreadable file.
        Ok(Err(e)) => {
            println!("{}", invalid_json(&e));
            return ExitCode::from(1);
        }
        Ok(Ok(t)) => t,
        Err(e) => {
            let msg = format!("cannot read {}: {e}", file.display());
            println!(
                "{}",
                serde_json::json!({"valid": false, "action": null, "error": msg})
            );
            return ExitCode::from(2);
        }
    };
    match AnyRecord::parse_str(&text).and_then(|r| r.verify()) {
        Ok(v) => {
            println!("{}", v.to_json());
            ExitCode::SUCCESS
        }
        Err(e) => {
            println!("{}", invalid_json(&e));
            ExitCode::from(1)
        }
    }
}

fn serve(args: ServeArgs) -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .init();
    let config = crate::web::server::ServeConfig {
        bind: args.bind,
        database_url: args.database_url,
        grace: std::time::Duration::from_secs(args.grace_seconds),
        deploy_seconds: args.deploy_seconds,
        secure_cookies: args.secure_cookies,
        workers: args.workers.max(1),
        db_connections: args.db_connections,
        open_game_idle: std::time::Duration::from_secs(args.open_game_idle_seconds),
        trust_proxy: args.trust_proxy,
        rate_limits: !args.no_rate_limits,
        frozen_rate_clock: args.frozen_rate_clock,
        think_threads: args.think_threads as usize,
        computer_pace: std::time::Duration::from_millis(args.computer_pace_ms),
    };
    match actix_web::rt::System::new().block_on(crate::web::server::run(config)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("junqi: {e}");
            ExitCode::FAILURE
        }
    }
}

/// A report as one line of JSON, or as text for people.
fn print_report(json: bool, report: &impl serde::Serialize, text: impl FnOnce() -> String) {
    if json {
        println!(
            "{}",
            serde_json::to_string(report).expect("report serialises")
        );
    } else {
        print!("{}", text());
    }
}
