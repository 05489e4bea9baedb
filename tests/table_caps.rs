//! 四国 tables count against the lobby's caps, on SQLite and PostgreSQL, as games do: a
//! table opened is an open game, a rated table one sits at (open or running) a rated
//! game in hand, and a table with the computer at it a game against the computer.
//! Each cap refuses whichever way one would pass it (opening, quick pairing, sitting
//! down on the table's socket, seating the computer) and changes nothing.

#[macro_use]
mod support;

use serde_json::{Value, json};
use support::{Client, Harness, Socket, TestDb};

db_tests! {
    tables_count_as_open_games => tables_count_as_open_games_sqlite, tables_count_as_open_games_postgres;
    rated_tables_count_as_rated_games_in_hand => rated_tables_count_as_rated_games_in_hand_sqlite, rated_tables_count_as_rated_games_in_hand_postgres;
    tables_with_the_computer_count_as_games_against_it => tables_with_the_computer_count_as_games_against_it_sqlite, tables_with_the_computer_count_as_games_against_it_postgres;
}

fn table(rated: bool) -> Value {
    json!({"seconds_per_action": 30, "rated": rated, "options": {"alliance": "opposite"}})
}

async fn open_table(c: &mut Client, body: Value) -> String {
    let r = c.post("/api/tables", body).await;
    assert_eq!(r.status, 201, "open a table: {}", r.text);
    r.json["id"].as_str().unwrap().to_string()
}

fn user_id(h: &Harness, name: &str) -> i64 {
    junqi::db::users::by_name(&mut h.conn(), name)
        .unwrap()
        .unwrap()
        .id
}

/// A socket on table `id` that has had the table once.
async fn at_table(c: &Client, id: &str) -> Socket {
    let mut s = c.game_socket(id).await;
    s.wait_for("the table", |v| v["t"] == "table").await;
    s
}

fn seat_count(h: &Harness, id: &str) -> usize {
    junqi::db::tables::seats(&mut h.conn(), id).unwrap().len()
}

async fn tables_count_as_open_games(db: TestDb) {
    let h = Harness::start(db);
    let mut p = h.player("opener").await;
    for spa in [10, 20, 30] {
        p.create_game(spa, false).await;
    }
    let first = open_table(&mut p, table(false)).await;
    open_table(&mut p, table(true)).await;
    p.post("/api/tables", table(false))
        .await
        .assert_error(409, "too_many_open_games");
    // Quick pairing that finds no table would open one: refused alike.
    p.post("/api/tables/quick", json!({"seconds_per_action": 60}))
        .await
        .assert_error(409, "too_many_open_games");
    p.post(
        "/api/games",
        json!({"variant": "flip", "seconds_per_action": 40, "rated": false}),
    )
    .await
    .assert_error(409, "too_many_open_games");
    let opener = user_id(&h, "opener");
    assert_eq!(
        junqi::db::games::open_count(&mut h.conn(), opener).unwrap(),
        5
    );
    // Cancelling a table makes room for one.
    let r = p.post_empty(&format!("/api/games/{first}/cancel")).await;
    assert_eq!(r.status, 204, "{}", r.text);
    open_table(&mut p, table(false)).await;
}

async fn rated_tables_count_as_rated_games_in_hand(db: TestDb) {
    let h = Harness::start(db);
    let mut farmer = h.player("farmer").await;
    let mut alt = h.player("alt").await;
    farmer.create_game(15, true).await;
    farmer.create_game(60, true).await;
    // At 60 s: quick pairing for the 30 s tables below does not give it back.
    let mine = open_table(
        &mut farmer,
        json!({"seconds_per_action": 60, "rated": true}),
    )
    .await;
    let farmer_id = user_id(&h, "farmer");
    let in_hand = |h: &Harness| junqi::db::games::rated_in_hand(&mut h.conn(), farmer_id).unwrap();
    assert_eq!(in_hand(&h), 3, "the open rated table is the third");
    for (path, body) in [
        ("/api/tables", table(true)),
        ("/api/tables/quick", table(true)),
        (
            "/api/games",
            json!({"variant": "flip", "seconds_per_action": 30, "rated": true}),
        ),
    ] {
        let r = farmer.post(path, body).await;
        r.assert_error(409, "too_many_rated_games");
        assert!(
            r.text.contains('3'),
            "the message gives the cap: {}",
            r.text
        );
    }
    // Casual tables are not counted.
    open_table(&mut farmer, table(false)).await;

    // Sitting down at someone else's rated table is taking a rated game in hand:
    // refused on the table's socket, by the join and by quick pairing, which would
    // otherwise have found it.
    let theirs = open_table(&mut alt, table(true)).await;
    let mut s = at_table(&farmer, &theirs).await;
    s.act_err("sit", json!({"seat": "east"}), "too_many_rated_games")
        .await;
    farmer
        .post_empty(&format!("/api/games/{theirs}/join"))
        .await
        .assert_error(409, "too_many_rated_games");
    farmer
        .post("/api/tables/quick", table(true))
        .await
        .assert_error(409, "too_many_rated_games");
    assert_eq!(seat_count(&h, &theirs), 1, "nobody sat down");
    assert_eq!(in_hand(&h), 3);

    // With room (his own rated table cancelled), he sits, and that seat is the third.
    let r = farmer
        .post_empty(&format!("/api/games/{mine}/cancel"))
        .await;
    assert_eq!(r.status, 204, "{}", r.text);
    s.act("sit", json!({"seat": "east"})).await.expect("a seat");
    assert_eq!(in_hand(&h), 3);
    farmer
        .post(
            "/api/games",
            json!({"variant": "flip", "seconds_per_action": 30, "rated": true}),
        )
        .await
        .assert_error(409, "too_many_rated_games");
    // A rated table is played by people only: not by the computer.
    let mut a = at_table(&alt, &theirs).await;
    a.act_err(
        "seat_computer",
        json!({"seat": "west", "level": "easy"}),
        "not_rated_together",
    )
    .await;
    assert_eq!(seat_count(&h, &theirs), 2);
}

async fn tables_with_the_computer_count_as_games_against_it(db: TestDb) {
    let h = Harness::start(db);
    let mut p = h.player("solo").await;
    let against = json!({"seconds_per_action": 60, "computer": "easy"});
    for _ in 0..3 {
        open_table(&mut p, against.clone()).await;
    }
    let r = p.post("/api/tables", against.clone()).await;
    r.assert_error(409, "too_many_computer_games");
    assert!(
        r.text.contains('3'),
        "the message gives the cap: {}",
        r.text
    );
    p.post(
        "/api/games",
        json!({"variant": "flip", "seconds_per_action": 30, "rated": false, "computer": "easy"}),
    )
    .await
    .assert_error(409, "too_many_computer_games");
    // Seating the computer at an open table is a game against it too.
    let open = open_table(&mut p, table(false)).await;
    let mut s = at_table(&p, &open).await;
    s.act_err(
        "seat_computer",
        json!({"seat": "north", "level": "easy"}),
        "too_many_computer_games",
    )
    .await;
    assert_eq!(seat_count(&h, &open), 1);

    // An open table with the computer at it counts from then on: for its creator, and
    // for a person who sits down with it.
    let mut q = h.player("host").await;
    let hosted = open_table(&mut q, table(false)).await;
    let mut hs = at_table(&q, &hosted).await;
    hs.act("seat_computer", json!({"seat": "north", "level": "easy"}))
        .await
        .expect("the computer takes a seat");
    for _ in 0..2 {
        open_table(&mut q, against.clone()).await;
    }
    q.post("/api/tables", against.clone())
        .await
        .assert_error(409, "too_many_computer_games");
    let mut ps = at_table(&p, &hosted).await;
    ps.act_err("sit", json!({"seat": "east"}), "too_many_computer_games")
        .await;
    assert_eq!(seat_count(&h, &hosted), 2, "the host and the computer");
}
