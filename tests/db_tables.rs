//! Games at tables of four (四国) keep their seats as rows of their own, on SQLite and
//! PostgreSQL: seats change only while the table is open, a start keeps each player's
//! score, an end stores each seat's result and score change and moves the 四国 scores
//! of a rated game once, and the seats' migration goes down and up again.

#[macro_use]
mod support;

use diesel::prelude::*;
use junqi::db::games::{self, GameRow};
use junqi::db::tables::{self, SeatEnd, SeatRow, TableEnd};
use junqi::db::users::{self, GameResult};
use junqi::db::{self, DbConn};
use support::TestDb;

db_tests! {
    a_tables_seats_are_rows_from_open_to_end => a_tables_seats_are_rows_from_open_to_end_sqlite, a_tables_seats_are_rows_from_open_to_end_postgres;
    the_seats_migration_goes_down_and_up => the_seats_migration_goes_down_and_up_sqlite, the_seats_migration_goes_down_and_up_postgres;
}

fn player(c: &mut DbConn, name: &str) -> i64 {
    users::create(c, name, "x")
        .expect("create a player")
        .expect("a fresh name")
        .id
}

fn table(c: &mut DbConn, creator: i64, rated: bool) -> String {
    let row = GameRow::open(
        junqi::live::new_game_id(),
        "siguo",
        rated,
        30,
        "{}".into(),
        creator,
        1,
    );
    tables::create(c, &row, &SeatRow::new(&row.id, "south", creator, 0)).expect("create");
    row.id
}

async fn a_tables_seats_are_rows_from_open_to_end(db: TestDb) {
    let pool = db::connect(&db.url, 1).unwrap();
    let mut conn = pool.get().unwrap();
    let c: &mut DbConn = &mut conn;
    let ids: Vec<i64> = ["s", "e", "n", "w"].iter().map(|n| player(c, n)).collect();
    let id = table(c, ids[0], true);
    assert_eq!(tables::seats(c, &id).unwrap().len(), 1, "the creator sits");

    let names = ["south", "east", "north", "west"];
    let seats: Vec<SeatRow> = (0..4)
        .map(|i| SeatRow::new(&id, names[i], ids[i], (i % 2) as i32))
        .collect();
    assert!(tables::set_seats(c, &id, &seats).unwrap());
    assert_eq!(tables::seats(c, &id).unwrap().len(), 4);

    assert!(tables::start(c, &id, "{}", 10, 20).unwrap());
    assert!(!tables::start(c, &id, "{}", 10, 20).unwrap(), "starts once");
    assert!(
        !tables::set_seats(c, &id, &seats[..2]).unwrap(),
        "nobody sits or stands once it runs"
    );
    let rows = tables::seats(c, &id).unwrap();
    assert_eq!(rows.len(), 4, "the refused change left every seat");
    assert!(rows.iter().all(|r| r.state == tables::PLAYING));
    assert!(rows.iter().all(|r| r.score_before == Some(0)));

    tables::add_action(
        c,
        &id,
        0,
        "south",
        r#"{"seat":"south","pass":true}"#,
        5,
        Some(9),
    )
    .unwrap();
    assert_eq!(games::actions(c, &id).unwrap().len(), 1);

    let ends: Vec<SeatEnd> = (0..4)
        .map(|i| SeatEnd {
            seat: names[i],
            user_id: ids[i],
            state: "done",
            result: Some(if i % 2 == 0 {
                GameResult::Win
            } else {
                GameResult::Loss
            }),
            score_change: Some(if i % 2 == 0 { 2 } else { -2 }),
            tuoguan_count: i as i32,
        })
        .collect();
    let end = TableEnd {
        result: "south_north",
        reason: "flag",
        steps: 50,
        ended_at: 99,
        seats: &ends,
    };
    assert!(tables::end(c, &id, &end).unwrap());
    assert!(
        !tables::end(c, &id, &end).unwrap(),
        "a second end changes nothing"
    );

    let mut rows = tables::seats(c, &id).unwrap();
    rows.sort_by_key(|r| r.user_id);
    for (i, r) in rows.iter().enumerate() {
        let want = if i % 2 == 0 { 2 } else { -2 };
        assert_eq!(r.score_change, Some(want), "{}", r.seat);
        assert_eq!(r.tuoguan_count, i as i32);
        assert_eq!(users::stats(c, ids[i], "siguo").unwrap().score, want as i64);
    }
    let row = games::get(c, &id).unwrap().unwrap();
    assert_eq!(row.status, games::FINISHED);
    assert_eq!(row.steps, 50);
}

async fn the_seats_migration_goes_down_and_up(db: TestDb) {
    let pool = db::connect(&db.url, 1).unwrap();
    let mut conn = pool.get().unwrap();
    let c: &mut DbConn = &mut conn;
    let a = player(c, "a");
    table(c, a, false);
    // Down to the migration before the seats' (later ones are undone first).
    db::revert_migrations_after(c, "2026-12-05-000000_social").expect("down");
    let gone = diesel::sql_query("SELECT seat FROM game_seats").execute(c);
    assert!(gone.is_err(), "the seats table is gone");
    db::run_migrations(c).expect("up again");
    let a2 = player(c, "a2");
    let id = table(c, a2, false);
    assert_eq!(tables::seats(c, &id).unwrap().len(), 1, "and back, in use");
}
