//! The step log of running games, on SQLite and PostgreSQL: trimming its front never
//! loses an action of a game still being played, a log of long games is not copied
//! over and over, and after a crash every running game's actions are found where a
//! restarted server loads them from, in order and once.

#[macro_use]
mod support;

use diesel::prelude::*;
use junqi::db::games::{self, GameRow};
use junqi::db::schema::games as games_table;
use junqi::db::step_log::{self, Trimmer};
use junqi::db::steps::{self, Step};
use junqi::db::{DbConn, users};
use support::TestDb;

db_tests! {
    trimming_drops_finished_games_and_keeps_running_ones => trimming_drops_finished_games_and_keeps_running_ones_sqlite, trimming_drops_finished_games_and_keeps_running_ones_postgres;
    a_log_of_running_games_is_not_copied_over_and_over => a_log_of_running_games_is_not_copied_over_and_over_sqlite, a_log_of_running_games_is_not_copied_over_and_over_postgres;
}

/// A game stored with `status`, between two fresh players.
fn game(c: &mut DbConn, name: &str, status: &str) -> String {
    let a = users::create(c, &format!("{name}_a"), "x")
        .expect("create a player")
        .expect("a fresh name");
    let b = users::create(c, &format!("{name}_b"), "x")
        .expect("create a player")
        .expect("a fresh name");
    let row = GameRow::open(
        junqi::live::new_game_id(),
        "flip",
        false,
        30,
        "{}".into(),
        a.id,
        1,
    );
    games::insert(c, &row).expect("insert the game");
    diesel::update(games_table::table.find(&row.id))
        .set((
            games_table::status.eq(status),
            games_table::south_id.eq(a.id),
            games_table::north_id.eq(b.id),
        ))
        .execute(c)
        .expect("seat the game");
    row.id
}

fn step(game_id: &str, idx: i32) -> Step {
    Step {
        game_id: game_id.to_string(),
        idx,
        seat: if idx % 2 == 0 { "south" } else { "north" },
        action: format!(r#"{{"seat":"x","flip":"a{idx}"}}"#),
        at_ms: 1000 + idx as i64,
    }
}

/// Appends `n` actions of each of `ids` to the log, interleaved as the writer's
/// batches interleave the games that acted together.
fn play(c: &mut DbConn, ids: &[&str], n: i32) {
    let all: Vec<Step> = (0..n)
        .flat_map(|i| ids.iter().map(move |id| step(id, i)))
        .collect();
    for batch in all.chunks(1000) {
        let batch: Vec<&Step> = batch.iter().collect();
        junqi::db::write_transaction(c, |c| steps::write(c, &batch)).expect("append");
    }
}

fn log_rows(c: &mut DbConn, game_id: &str) -> Vec<(i32, String)> {
    use junqi::db::schema::live_steps::dsl;
    let mut rows: Vec<(i32, String)> = dsl::live_steps
        .filter(dsl::game_id.eq(game_id))
        .select((dsl::idx, dsl::action))
        .load(c)
        .expect("read the log");
    rows.sort();
    rows
}

fn log_len(c: &mut DbConn) -> i64 {
    use junqi::db::schema::live_steps::dsl;
    dsl::live_steps
        .count()
        .get_result(c)
        .expect("count the log")
}

fn trim_until_short(c: &mut DbConn, t: &mut Trimmer) -> usize {
    let mut trims = 0;
    while t.run(c).expect("trim").is_some() {
        trims += 1;
        assert!(trims < 1000, "the log never got short");
    }
    trims
}

/// Two games acted side by side, 30,000 actions each; one of them has ended (its
/// record stored whole), the other is still played. Trimming the log's front drops the
/// finished game's rows and moves the running game's to the end, so after the trims
/// and a crash (the log folded into the record as a restart does) the running game
/// has every action, once and in order.
async fn trimming_drops_finished_games_and_keeps_running_ones(db: TestDb) {
    let pool = junqi::db::connect(&db.url, 1).expect("open the database");
    let mut c = pool.get().unwrap();
    let running = game(&mut c, "runs", games::RUNNING);
    let done = game(&mut c, "ended", games::FINISHED);
    play(&mut c, &[&running, &done], 30_000);
    let record: Vec<Step> = (0..30_000).map(|i| step(&done, i)).collect();
    junqi::db::write_transaction(&mut c, |c| steps::write_record(c, &record)).expect("end");
    let expected: Vec<(i32, String)> = (0..30_000).map(|i| (i, step(&running, i).action)).collect();

    let mut t = Trimmer::default();
    let trims = trim_until_short(&mut c, &mut t);
    assert!(trims > 0, "a log of 60,000 rows is trimmed");
    assert_eq!(
        log_rows(&mut c, &running),
        expected,
        "the running game keeps every action in the log"
    );
    let left = log_rows(&mut c, &done).len();
    assert!(
        left < 30_000,
        "the finished game's rows leave the log's front ({left} left)"
    );
    assert!(
        log_len(&mut c) <= t.limit(),
        "the log is back under its limit"
    );

    // The crash: what a restarted server loads is the record and the folded log.
    let moved = step_log::fold(&mut c).expect("fold");
    assert_eq!(moved, 30_000 + left);
    assert_eq!(log_len(&mut c), 0, "the log is empty after the fold");
    for (id, n) in [(&running, 30_000), (&done, 30_000)] {
        let actions = games::actions(&mut c, id).expect("read the actions");
        assert_eq!(actions.len(), n, "each action once");
        assert!(
            actions
                .iter()
                .enumerate()
                .all(|(i, a)| a.idx == i as i32 && a.action == step(id, i as i32).action),
            "in order, as played"
        );
    }
    // A game ending after the restart writes its whole record again: what is already
    // there stays as it is, nothing is doubled.
    let whole: Vec<Step> = (0..30_001).map(|i| step(&running, i)).collect();
    junqi::db::write_transaction(&mut c, |c| steps::write_record(c, &whole)).expect("end");
    assert_eq!(games::actions(&mut c, &running).unwrap().len(), 30_001);
}

/// A log made only of running games' actions (many long games) would be copied whole
/// by every trim if its limit stayed put: the first trim finds its front all alive,
/// doubles the limit, and the log is left alone from then on, every row still there.
async fn a_log_of_running_games_is_not_copied_over_and_over(db: TestDb) {
    let pool = junqi::db::connect(&db.url, 1).expect("open the database");
    let mut c = pool.get().unwrap();
    let ids: Vec<String> = (0..3)
        .map(|i| game(&mut c, &format!("long{i}"), games::RUNNING))
        .collect();
    let refs: Vec<&str> = ids.iter().map(String::as_str).collect();
    play(&mut c, &refs, 20_000);
    let mut t = Trimmer::default();
    let before = t.limit();
    let trims = trim_until_short(&mut c, &mut t);
    assert_eq!(trims, 1, "one trim, then the log is within its new limit");
    assert!(t.limit() > before, "the limit grew with the live games");
    assert_eq!(log_len(&mut c), 60_000);
    for id in &ids {
        assert_eq!(
            log_rows(&mut c, id).len(),
            20_000,
            "{id} keeps every action"
        );
    }
}
