//! The levels: start games (and 四国 tables) toward each level's counts (a bounded
//! number of starts at a time), let them play through the warm-up, then measure over
//! the hold.

use super::LoadArgs;
use super::accounts::{Four, Pair, Player};
use super::computer::{Figures, computer_task};
use super::game::pair_task;
use super::report::{Level, Meter};
use super::server::Server;
use super::shared::Ctx;
use super::table::table_task;
use super::table_stats::TableFigures;
use actix_web::rt::time::sleep;
use std::net::{IpAddr, Ipv4Addr};
use std::rc::Rc;
use std::time::{Duration, Instant};

/// The clients, one per source address: each address carries the sockets of
/// `--games-per-address` games, or of `--tables-per-address` tables after the games'
/// addresses (the server allows 50 sockets per address).
pub struct Clients {
    clients: Vec<awc::Client>,
    per_address: usize,
    /// The first tables' address, and tables per address.
    tables_from: usize,
    tables_per_address: usize,
}

impl Clients {
    pub fn new(
        games: usize,
        per_address: usize,
        tables: usize,
        tables_per_address: usize,
    ) -> Clients {
        let tables_from = games.div_ceil(per_address);
        let clients = (0..tables_from + tables.div_ceil(tables_per_address))
            .map(|k| {
                let ip = Ipv4Addr::new(127, 1, (k / 250) as u8, (k % 250 + 1) as u8);
                let connector = awc::Connector::new()
                    .local_address(IpAddr::V4(ip))
                    .timeout(Duration::from_secs(20))
                    // No cap of its own on connections: the sockets are the load.
                    .limit(0);
                awc::Client::builder()
                    .connector(connector)
                    .timeout(Duration::from_secs(60))
                    .finish()
            })
            .collect();
        Clients {
            clients,
            per_address,
            tables_from,
            tables_per_address,
        }
    }

    pub fn of_pair(&self, pair: usize) -> awc::Client {
        self.clients[pair / self.per_address].clone()
    }

    pub fn of_table(&self, table: usize) -> awc::Client {
        self.clients[self.tables_from + table / self.tables_per_address].clone()
    }
}

/// Spawns the tasks of `pairs[*spawned..until]`, at most `in_flight` starts at a time,
/// and waits for their starts to finish, until `within` has passed. Returns whether
/// every start finished in time (if not, the server is past what it can take: the
/// tasks spawned keep trying, and no more are spawned).
pub async fn start_games(
    ctx: &Rc<Ctx>,
    pairs: &[Rc<Pair>],
    clients: &Clients,
    spawned: &mut usize,
    until: usize,
    in_flight: usize,
    within: Duration,
) -> bool {
    let tasks = Tasks {
        what: "games",
        starting: &|| ctx.starting.get(),
        playing: &|| ctx.playing.get(),
        errors: &|| ctx.stats.borrow().error_count(),
        spawn: &mut |i| {
            ctx.starting.set(ctx.starting.get() + 1);
            actix_web::rt::spawn(pair_task(ctx.clone(), pairs[i].clone(), clients.of_pair(i)));
        },
    };
    start_bounded(tasks, spawned, until, in_flight, within).await
}

/// The same for the 四国 tables of `fours[*spawned..until]`.
pub async fn start_tables(
    ctx: &Rc<Ctx>,
    fours: &[Rc<Four>],
    clients: &Clients,
    spawned: &mut usize,
    until: usize,
    in_flight: usize,
    within: Duration,
) -> bool {
    let tasks = Tasks {
        what: "tables",
        starting: &|| ctx.tables.borrow().starting,
        playing: &|| ctx.tables.borrow().playing,
        errors: &|| ctx.tables.borrow().errors.values().sum(),
        spawn: &mut |i| {
            ctx.tables.borrow_mut().starting += 1;
            let client = clients.of_table(i);
            actix_web::rt::spawn(table_task(ctx.clone(), fours[i].clone(), client));
        },
    };
    start_bounded(tasks, spawned, until, in_flight, within).await
}

/// Tasks started a bounded number at a time: how many are starting and playing, and
/// how to spawn the `i`th (counting it as starting).
struct Tasks<'a> {
    what: &'static str,
    starting: &'a dyn Fn() -> usize,
    playing: &'a dyn Fn() -> usize,
    errors: &'a dyn Fn() -> u64,
    spawn: &'a mut dyn FnMut(usize),
}

async fn start_bounded(
    tasks: Tasks<'_>,
    spawned: &mut usize,
    until: usize,
    in_flight: usize,
    within: Duration,
) -> bool {
    let Tasks {
        what,
        starting,
        playing,
        errors,
        spawn,
    } = tasks;
    let began = Instant::now();
    let deadline = began + within;
    let mut told = began;
    let mut progress = |spawned: usize| {
        if told.elapsed() >= Duration::from_secs(10) {
            told = Instant::now();
            eprintln!(
                "  {:.0} s: {spawned} of {until} {what} spawned, {} starting, {} playing, {} \
                 errors",
                began.elapsed().as_secs_f64(),
                starting(),
                playing(),
                errors()
            );
        }
    };
    while *spawned < until {
        while starting() >= in_flight {
            if Instant::now() > deadline {
                return false;
            }
            progress(*spawned);
            sleep(Duration::from_millis(5)).await;
        }
        let i = *spawned;
        spawn(i);
        *spawned += 1;
        if i % 50 == 49 {
            // Let the tasks just spawned begin their starts.
            actix_web::rt::task::yield_now().await;
        }
    }
    while starting() > 0 {
        if Instant::now() > deadline {
            return false;
        }
        progress(*spawned);
        sleep(Duration::from_millis(50)).await;
    }
    true
}

/// Starts the games against the computer (`--computer-games`), which play beside the
/// levels from then on, and waits (up to `--ramp-seconds`) for them to be playing.
/// Their players' sockets come from the addresses after the first `offset` games'.
pub async fn start_computer_games(
    ctx: &Rc<Ctx>,
    args: &LoadArgs,
    players: &[Rc<Player>],
    clients: &Clients,
    offset: usize,
) {
    if players.is_empty() {
        return;
    }
    eprintln!(
        "starting {} games against the computer ({})",
        players.len(),
        args.computer_level.name()
    );
    for (i, p) in players.iter().enumerate() {
        let client = clients.of_pair(offset + i);
        actix_web::rt::spawn(computer_task(
            ctx.clone(),
            p.clone(),
            client,
            args.computer_level,
        ));
    }
    let deadline = Instant::now() + Duration::from_secs(args.ramp_seconds);
    while ctx.computer.borrow().playing < players.len() && Instant::now() < deadline {
        sleep(Duration::from_millis(50)).await;
    }
    eprintln!(
        "{} games against the computer playing",
        ctx.computer.borrow().playing
    );
}

pub async fn run(
    ctx: &Rc<Ctx>,
    args: &LoadArgs,
    server: &Server,
    pairs: &[Rc<Pair>],
    fours: &[Rc<Four>],
    clients: &Clients,
) -> Vec<Level> {
    let mut spawned = 0;
    let mut tables_spawned = 0;
    let mut rows = Vec::new();
    for (level, tables) in args.steps() {
        ctx.stats.borrow_mut().reset_counts();
        let ramp = Instant::now();
        eprintln!(
            "level {level}: starting {} games and {} 四国 tables",
            level - spawned,
            tables - tables_spawned
        );
        let ramp_limit = Duration::from_secs(args.ramp_seconds);
        let mut reached = start_games(
            ctx,
            pairs,
            clients,
            &mut spawned,
            level,
            args.starts_in_flight,
            ramp_limit,
        )
        .await;
        if reached {
            reached = start_tables(
                ctx,
                fours,
                clients,
                &mut tables_spawned,
                tables,
                args.starts_in_flight,
                ramp_limit.saturating_sub(ramp.elapsed()),
            )
            .await;
        }
        let ramp_s = ramp.elapsed().as_secs_f64();
        if !reached {
            eprintln!(
                "level {level}: not all games and tables started within {} s: measuring \
                 what plays, then stopping",
                args.ramp_seconds
            );
        }
        eprintln!(
            "level {level}: {} games and {} tables playing after {ramp_s:.1} s; warming up \
             for {} s",
            ctx.playing.get(),
            ctx.tables.borrow().playing,
            args.warmup
        );
        sleep(Duration::from_secs(args.warmup)).await;
        ctx.stats.borrow_mut().reset_samples();
        ctx.tables.borrow_mut().reset_samples();
        let from = Meter::now(server);
        if let Err(e) = server.zero_counts() {
            eprintln!("level {level}: {e}");
        }
        ctx.measuring.set(true);
        sleep(Duration::from_secs(args.hold)).await;
        ctx.measuring.set(false);
        let to = Meter::now(server);
        let instructions = server.dump_instructions().unwrap_or_else(|e| {
            eprintln!("level {level}: {e}");
            None
        });
        let table_actions = ctx.tables.borrow().actions;
        let mut row = Level::measure(
            level,
            ctx.playing.get(),
            ramp_s,
            &mut ctx.stats.borrow_mut(),
            table_actions,
            &from,
            &to,
            server,
        );
        row.reached = reached;
        let all_actions = row.actions + table_actions;
        row.server_instructions_per_action = instructions
            .filter(|_| all_actions > 0)
            .map(|n| (n as f64 / all_actions as f64).round());
        if args.computer_games > 0 {
            let mut stats = ctx.computer.borrow_mut();
            row.computer = Some(Figures::take(&mut stats, args.computer_level));
        }
        if args.most_tables() > 0 {
            let mut stats = ctx.tables.borrow_mut();
            row.tables = Some(TableFigures::take(
                &mut stats,
                tables,
                row.hold_s,
                ctx.check_table_parse,
            ));
        }
        eprintln!("{}", super::report::HEADER);
        eprintln!("{}", row.line());
        if let Some(c) = &row.computer {
            eprintln!("{}", c.line());
        }
        if let Some(t) = &row.tables {
            eprintln!("{}", t.line());
        }
        rows.push(row);
        if !reached {
            break;
        }
    }
    rows
}
