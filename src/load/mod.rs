//! `junqi load`: live games under load. Starts the server from this binary on the
//! given database, makes the players straight in the database, then plays casual flip
//! games over the real protocol from one client thread (so that the client takes at
//! most one of the machine's cores), ramping through the levels and measuring each;
//! or, with `--crash`, kills the server mid-load and checks the stored records.
//!
//! - `options`: the command's options;
//! - `accounts`: players, sessions and their cookies, made in the database;
//! - `server`: starting and killing the server; memory and CPU from /proc;
//! - `protocol`: the messages as the client reads and sends them;
//! - `shared`: what the game tasks and the orchestrator share;
//! - `start`: a game's start over HTTP and a seat's socket;
//! - `game`: one pair of players and their games;
//! - `stats`, `report`: counting, percentiles and the report;
//! - `levels`: the ramp and the measured levels;
//! - `computer`: games against the computer beside them (`--computer-games`);
//! - `table`, `table_protocol`, `table_stats`: 四国 tables of four players beside
//!   them (`--siguo-tables`), the cheap reading of their big messages, their figures;
//! - `crash`: the kill, the restart and the check.

pub mod accounts;
pub mod computer;
pub mod crash;
pub mod game;
pub mod levels;
pub mod options;
pub mod protocol;
pub mod report;
pub mod server;
pub mod shared;
pub mod start;
pub mod stats;
pub mod table;
pub mod table_protocol;
pub mod table_stats;

pub use options::LoadArgs;

use crate::db::{self, Backend, Pool};
use accounts::Pair;
use levels::Clients;
use report::Report;
use server::Server;
use shared::Ctx;
use std::process::ExitCode;
use std::rc::Rc;
use std::time::Instant;

pub fn run(args: LoadArgs) -> ExitCode {
    if let Some(problem) = args.problem() {
        eprintln!("junqi load: {problem}");
        return ExitCode::from(2);
    }
    match prepare_and_drive(&args) {
        Ok(report) => {
            if args.json {
                println!(
                    "{}",
                    serde_json::to_string(&report).expect("report serialises")
                );
            } else {
                print!("{}", report.text());
            }
            if report.crash.as_ref().is_some_and(|c| c.failed()) {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e) => {
            eprintln!("junqi load: {e}");
            ExitCode::FAILURE
        }
    }
}

fn prepare_and_drive(args: &LoadArgs) -> Result<Report, String> {
    let games = args.most_games();
    let tables = args.most_tables();
    let limit = server::raise_open_files();
    // Two sockets a game and four a table on each side (the server inherits this
    // limit), and some spare.
    let need = 2 * games as u64 + 4 * tables as u64 + 500;
    if limit < need {
        eprintln!(
            "junqi load: warning: the open-file limit is {limit}, and {games} games and \
             {tables} tables need about {need} (raise it with `ulimit -n`)"
        );
    }
    let pool = db::connect(&args.database_url, 2).map_err(|e| e.to_string())?;
    let made = Instant::now();
    let pairs = accounts::prepare(&pool, games, &args.prefix).map_err(|e| e.to_string())?;
    // The players against the computer: two to a made pair, under a prefix of their own.
    let against: Vec<Rc<accounts::Player>> = if args.computer_games > 0 {
        accounts::prepare(
            &pool,
            args.computer_games.div_ceil(2),
            &format!("{}x", args.prefix),
        )
        .map_err(|e| e.to_string())?
        .into_iter()
        .flat_map(|p| [p.a, p.b])
        .take(args.computer_games)
        .map(Rc::new)
        .collect()
    } else {
        Vec::new()
    };
    let fours: Vec<Rc<accounts::Four>> = accounts::prepare_tables(&pool, tables, &args.prefix)
        .map_err(|e| e.to_string())?
        .into_iter()
        .map(Rc::new)
        .collect();
    eprintln!(
        "junqi load: {} players ready in {:.1} s",
        2 * games + 4 * tables,
        made.elapsed().as_secs_f64()
    );
    let log = args.server_log.clone().unwrap_or_else(|| {
        std::env::temp_dir().join(format!("junqi-load-{}.log", std::process::id()))
    });
    eprintln!("junqi load: server log {}", log.display());
    let callgrind = args
        .callgrind
        .then(|| log.with_file_name("junqi-load-callgrind.out"));
    if let Some(out) = &callgrind {
        // The counts are read from the newest dump: none may be left from a run before.
        server::remove_dumps(out);
    }
    let mut server = Server::start(
        args.port,
        &args.database_url,
        &args.server_args,
        &log,
        callgrind,
    )?;
    eprintln!(
        "junqi load: server {} listening on {}",
        server.pid(),
        server.addr
    );
    let pairs: Vec<Rc<Pair>> = pairs.into_iter().map(Rc::new).collect();
    let players = Players {
        pairs: &pairs,
        against: &against,
        fours: &fours,
    };
    let result = actix_web::rt::System::new().block_on(drive(args, &mut server, &pool, players));
    server.kill();
    let (levels, crash) = result?;
    Ok(Report {
        backend: match Backend::of_url(&args.database_url) {
            Backend::Sqlite => "sqlite",
            Backend::Postgres => "postgres",
        },
        cores: server::cores(),
        rate: args.rate,
        table_rate: args.table_rate,
        seconds_per_action: args.seconds_per_action,
        warmup_s: args.warmup,
        hold_s: args.hold,
        server_args: args.server_args.clone(),
        levels,
        crash,
    })
}

type Outcome = (Vec<report::Level>, Option<crash::CrashReport>);

/// Everyone the load plays as.
struct Players<'a> {
    pairs: &'a [Rc<Pair>],
    /// Each against the computer.
    against: &'a [Rc<accounts::Player>],
    /// Four to a 四国 table.
    fours: &'a [Rc<accounts::Four>],
}

async fn drive(
    args: &LoadArgs,
    server: &mut Server,
    pool: &Pool,
    players: Players<'_>,
) -> Result<Outcome, String> {
    let Players {
        pairs,
        against,
        fours,
    } = players;
    let mut ctx = Ctx::new(
        format!("http://{}", server.addr),
        args.interval(),
        args.seconds_per_action,
        args.crash,
    );
    ctx.table_interval = args.table_interval();
    ctx.check_table_parse = args.check_table_parse;
    let ctx = Rc::new(ctx);
    *ctx.last_ack.borrow_mut() = vec![None; pairs.len()];
    // The games against the computer take the addresses after the pairs', the tables
    // those after them.
    let clients = Clients::new(
        pairs.len() + against.len(),
        args.games_per_address as usize,
        fours.len(),
        args.tables_per_address as usize,
    );
    let (first, client) = match (pairs.first(), fours.first()) {
        (Some(p), _) => (&p.a, clients.of_pair(0)),
        (None, Some(f)) => (&f.seats[0], clients.of_table(0)),
        (None, None) => return Err("nobody to play as".into()),
    };
    logged_in(&ctx, &client, first).await?;
    let work = async {
        if args.crash {
            let report = crash::run(&ctx, args, server, pool, pairs, &clients).await?;
            Ok((Vec::new(), Some(report)))
        } else {
            levels::start_computer_games(&ctx, args, against, &clients, pairs.len()).await;
            Ok((
                levels::run(&ctx, args, server, pairs, fours, &clients).await,
                None,
            ))
        }
    };
    // On Ctrl-C, return, so that the server started here is killed too.
    tokio::select! {
        done = work => done,
        _ = actix_web::rt::signal::ctrl_c() => Err("interrupted".to_string()),
    }
}

/// One player's cookie must be taken as a login, or nothing else will work.
async fn logged_in(
    ctx: &Ctx,
    client: &awc::Client,
    player: &accounts::Player,
) -> Result<(), String> {
    let mut me = client
        .get(ctx.url("/api/me"))
        .insert_header((awc::http::header::COOKIE, player.cookie.as_str()))
        .send()
        .await
        .map_err(|e| format!("GET /api/me: {e}"))?;
    let body = me.body().await.unwrap_or_default();
    if me.status().as_u16() != 200 {
        return Err(format!(
            "GET /api/me with {}'s cookie answered {} ({}): the server does not take the \
             sessions made for the load",
            player.username,
            me.status(),
            String::from_utf8_lossy(&body)
        ));
    }
    Ok(())
}
