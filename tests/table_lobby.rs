//! 四国 tables in the lobby, on SQLite and PostgreSQL: the lobby's socket lists an open
//! table with its settings and seats and follows who sits down; quick pairing fills a
//! compatible table's free seat (creators who are here first) before it opens one, and
//! requests sent at once never share a seat; bad settings are refused in words and
//! change nothing. The caps' count of tables is in tests/table_caps.rs.

#[macro_use]
mod support;
#[path = "support/jsdoc.rs"]
mod jsdoc;

use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use support::{Client, Harness, Socket, TestDb};

db_tests! {
    the_lobby_lists_a_table_and_who_sits_there => the_lobby_lists_a_table_and_who_sits_there_sqlite, the_lobby_lists_a_table_and_who_sits_there_postgres;
    quick_pairing_fills_a_compatible_table_or_opens_one => quick_pairing_fills_a_compatible_table_or_opens_one_sqlite, quick_pairing_fills_a_compatible_table_or_opens_one_postgres;
    requests_at_once_never_share_a_seat => requests_at_once_never_share_a_seat_sqlite, requests_at_once_never_share_a_seat_postgres;
    bad_settings_are_refused_and_change_nothing => bad_settings_are_refused_and_change_nothing_sqlite, bad_settings_are_refused_and_change_nothing_postgres;
}

/// The settings body of a casual 对家 table at 30 s, with `extra` laid over it.
fn table(extra: Value) -> Value {
    let mut body =
        json!({"seconds_per_action": 30, "rated": false, "options": {"alliance": "opposite"}});
    for (k, v) in extra.as_object().expect("an object") {
        body[k] = v.clone();
    }
    body
}

async fn open_table(c: &mut Client, body: Value) -> String {
    let r = c.post("/api/tables", body).await;
    assert_eq!(r.status, 201, "open a table: {}", r.text);
    r.json["id"].as_str().unwrap().to_string()
}

/// The lobby frame's entry for table `id`, once the socket lists it as `pred` wants.
async fn listed(s: &mut Socket, id: &str, pred: impl Fn(&Value) -> bool) -> (Value, Value) {
    let frame = s
        .wait_for(&format!("the lobby to list table {id}"), |v| {
            v["t"] == "lobby" && entry(v, id).is_some_and(|t| pred(&t))
        })
        .await;
    (entry(&frame, id).unwrap(), frame)
}

fn entry(frame: &Value, id: &str) -> Option<Value> {
    frame["d"]["tables"]
        .as_array()?
        .iter()
        .find(|t| t["id"] == id)
        .cloned()
}

fn seated(entry: &Value) -> Vec<Option<String>> {
    entry["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["player"]["username"].as_str().map(str::to_string))
        .collect()
}

async fn quick(c: &mut Client, body: Value) -> (String, String) {
    let r = c.post("/api/tables/quick", body).await;
    assert_eq!(r.status, 200, "quick pairing: {}", r.text);
    let id = r.json["id"].as_str().unwrap().to_string();
    (id, r.json["seat"].as_str().unwrap().to_string())
}

/// The table's seats as stored: seat → username.
fn stored_seats(h: &Harness, id: &str) -> BTreeMap<String, String> {
    let mut c = h.conn();
    junqi::db::tables::seats(&mut c, id)
        .unwrap()
        .into_iter()
        .map(|s| {
            let u = junqi::db::users::by_id(&mut c, s.user_id).unwrap().unwrap();
            (s.seat, u.username)
        })
        .collect()
}

async fn the_lobby_lists_a_table_and_who_sits_there(db: TestDb) {
    let h = Harness::start(db);
    let mut lobby = Socket::connect(&h.base(), "/ws/lobby", None, None)
        .await
        .unwrap();
    let first = lobby.recv().await;
    assert_eq!(first["d"]["tables"], json!([]), "{first}");
    let mut ann = h.player("ann").await;
    let ben = h.player("ben").await;
    let id = open_table(
        &mut ann,
        table(json!({
            "grace_seconds": 120,
            "options": {"alliance": "opposite", "random_pieces": true, "allies_visible": true,
                        "bombs_on_front_row": true},
        })),
    )
    .await;
    let (t, frame) = listed(&mut lobby, &id, |_| true).await;
    assert_eq!(t["variant"], "siguo");
    assert_eq!(
        t["options"],
        json!({"alliance": "opposite", "allies_visible": true, "random_pieces": true,
               "first_mover": "first_deployed", "bombs_on_front_row": true})
    );
    assert_eq!(t["seconds_per_action"], 30);
    assert_eq!(t["grace_seconds"], 120);
    assert_eq!(t["rated"], false);
    assert_eq!(t["to_start"], 4);
    assert_eq!(t["creator"]["username"], "ann");
    let seats: Vec<&str> = t["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["seat"].as_str().unwrap())
        .collect();
    assert_eq!(seats, ["south", "east", "north", "west"], "in turn order");
    assert_eq!(seated(&t), [Some("ann".into()), None, None, None]);
    assert!(
        frame["d"]["open"].as_array().unwrap().is_empty(),
        "a table is not an open two-player game: {frame}"
    );
    // The frame is what the page's types say it is.
    let types = jsdoc::page_types();
    types
        .check(types.get("LobbyMsg"), &frame, "lobby")
        .unwrap_or_else(|e| panic!("the lobby frame does not match the page's types: {e}"));

    // Ben sits north on the table's socket: the lobby shows him there, then ready.
    let mut s = ben.game_socket(&id).await;
    s.wait_for("the table", |v| v["t"] == "table").await;
    s.act("sit", json!({"seat": "north"})).await.expect("sit");
    let (t, _) = listed(&mut lobby, &id, |t| seated(t)[2].is_some()).await;
    assert_eq!(
        seated(&t),
        [Some("ann".into()), None, Some("ben".into()), None]
    );
    assert_eq!(t["seats"][2]["ready"], false);
    s.act("ready", Value::Null).await.expect("ready");
    listed(&mut lobby, &id, |t| t["seats"][2]["ready"] == true).await;
    let r = h.client().get("/api/tables/open").await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json.as_array().unwrap().len(), 1);
    assert_eq!(seated(&r.json[0]), seated(&t));

    // The server's grace when none is asked for; 混战 starts with three.
    let other = open_table(
        &mut ann,
        table(json!({"seconds_per_action": 15, "options": {"alliance": "none"}})),
    )
    .await;
    let (t, _) = listed(&mut lobby, &other, |_| true).await;
    assert_eq!(t["grace_seconds"], 60);
    assert_eq!(t["to_start"], 3);
    assert_eq!(t["options"]["alliance"], "none");
    // A table that starts, or is cancelled, leaves the list.
    let r = ann.post_empty(&format!("/api/games/{other}/cancel")).await;
    assert_eq!(r.status, 204, "{}", r.text);
    lobby
        .wait_for("the cancelled table to go", |v| {
            v["t"] == "lobby" && entry(v, &other).is_none() && entry(v, &id).is_some()
        })
        .await;
}

async fn quick_pairing_fills_a_compatible_table_or_opens_one(db: TestDb) {
    let h = Harness::start(db);
    let mut ann = h.player("ann").await;
    let _here = ann.socket("/ws/lobby").await;
    let mut cat = h.player("cat").await;
    let mut ben = h.player("ben").await;
    let mut dan = h.player("dan").await;
    let wanted = table(json!({}));
    // Ann's table waits with her in the lobby; newer ones of other settings, and a
    // newer compatible one whose creator has no socket anywhere (away, not abandoned).
    let anns = open_table(&mut ann, wanted.clone()).await;
    open_table(
        &mut ann,
        table(json!({"options": {"alliance": "adjacent"}})),
    )
    .await;
    open_table(&mut ann, table(json!({"seconds_per_action": 60}))).await;
    open_table(&mut ann, table(json!({"rated": true}))).await;
    open_table(
        &mut cat,
        table(json!({"options": {"alliance": "opposite", "random_pieces": true}})),
    )
    .await;
    actix_web::rt::time::sleep(std::time::Duration::from_millis(5)).await;
    let cats = open_table(&mut cat, table(json!({"grace_seconds": 180}))).await;

    // The table whose creator is here, though older; the first free seat.
    let (id, seat) = quick(&mut ben, wanted.clone()).await;
    assert_eq!((id.as_str(), seat.as_str()), (anns.as_str(), "east"));
    // Asked again (a double click): the seat he has, not a second one.
    assert_eq!(
        quick(&mut ben, wanted.clone()).await,
        (anns.clone(), "east".into())
    );
    assert_eq!(
        quick(&mut dan, wanted.clone()).await,
        (anns.clone(), "north".into())
    );
    let mut eve = h.player("eve").await;
    assert_eq!(
        quick(&mut eve, wanted.clone()).await,
        (anns.clone(), "west".into())
    );
    // Ann's is full: then the table whose creator is away. The grace is not among the
    // settings matched.
    let mut fay = h.player("fay").await;
    assert_eq!(
        quick(&mut fay, wanted.clone()).await,
        (cats.clone(), "east".into())
    );
    assert_eq!(
        stored_seats(&h, &anns),
        BTreeMap::from([
            ("south".into(), "ann".into()),
            ("east".into(), "ben".into()),
            ("north".into(), "dan".into()),
            ("west".into(), "eve".into()),
        ])
    );
    // Nothing fits 混战 at 30 s: a new table, with the asker in the south seat.
    let before = h.client().get("/api/tables/open").await.json;
    let mut gus = h.player("gus").await;
    let none = table(json!({"options": {"alliance": "none"}, "grace_seconds": 30}));
    let (new, seat) = quick(&mut gus, none).await;
    assert_eq!(seat, "south");
    assert!(
        before.as_array().unwrap().iter().all(|t| t["id"] != new),
        "a new table"
    );
    let row = h.row(&new);
    assert_eq!(
        (row.status.as_str(), row.creator_id),
        ("open", user_id(&h, "gus"))
    );
    assert!(
        row.options.contains("\"grace_seconds\":30"),
        "{}",
        row.options
    );
    assert_eq!(stored_seats(&h, &new).len(), 1);
}

fn user_id(h: &Harness, name: &str) -> i64 {
    junqi::db::users::by_name(&mut h.conn(), name)
        .unwrap()
        .unwrap()
        .id
}

async fn requests_at_once_never_share_a_seat(db: TestDb) {
    let h = Harness::start(db);
    let mut players = Vec::new();
    for i in 0..10 {
        players.push(h.player(&format!("quick_{i}")).await);
    }
    let answers = futures_util::future::join_all(
        players
            .iter_mut()
            .map(|p| p.post("/api/tables/quick", table(json!({})))),
    )
    .await;
    let mut taken = BTreeSet::new();
    let mut per_table: BTreeMap<String, usize> = BTreeMap::new();
    for r in &answers {
        assert_eq!(r.status, 200, "{}", r.text);
        let at = (
            r.json["id"].as_str().unwrap().to_string(),
            r.json["seat"].as_str().unwrap().to_string(),
        );
        assert!(taken.insert(at.clone()), "two players given {at:?}");
        *per_table.entry(at.0).or_default() += 1;
    }
    // One at a time from looking to opening: full tables before a new one.
    let mut sizes: Vec<usize> = per_table.values().copied().collect();
    sizes.sort();
    assert_eq!(sizes, [2, 4, 4], "{per_table:?}");
    let mut everyone = BTreeSet::new();
    for id in per_table.keys() {
        let seats = stored_seats(&h, id);
        assert_eq!(seats.len(), per_table[id], "{id}: {seats:?}");
        for name in seats.values() {
            assert!(everyone.insert(name.clone()), "{name} sits twice");
        }
    }
    // Joins sent at once to one table's free seats: the table takes as many as it has.
    let (two, _) = per_table.iter().find(|(_, n)| **n == 2).unwrap();
    let mut late = Vec::new();
    for i in 0..5 {
        late.push(h.player(&format!("late_{i}")).await);
    }
    let path = format!("/api/games/{two}/join");
    let answers =
        futures_util::future::join_all(late.iter_mut().map(|p| p.post_empty(&path))).await;
    let joined = answers.iter().filter(|r| r.status == 200).count();
    assert_eq!(joined, 2, "{answers:?}");
    for r in answers.iter().filter(|r| r.status != 200) {
        r.assert_error(409, "conflict");
    }
    let seats = stored_seats(&h, two);
    assert_eq!(seats.len(), 4, "{seats:?}");
    let names: BTreeSet<&String> = seats.values().collect();
    assert_eq!(names.len(), 4, "four people in four seats: {seats:?}");
}

async fn bad_settings_are_refused_and_change_nothing(db: TestDb) {
    let h = Harness::start(db);
    let mut ann = h.player("ann").await;
    let bad = [
        (
            table(json!({"options": {"alliance": "triple"}})),
            "alliance",
        ),
        (table(json!({"seconds_per_action": 45})), "15, 30 or 60"),
        (table(json!({"grace_seconds": 5})), "grace_seconds"),
        (table(json!({"grace_seconds": 600})), "grace_seconds"),
        (table(json!({"rated": true, "computer": "easy"})), "casual"),
        (
            table(json!({"options": {"alliance": "none", "fog": true}})),
            "fog",
        ),
    ];
    for path in ["/api/tables", "/api/tables/quick"] {
        for (body, says) in &bad {
            let r = ann.post(path, body.clone()).await;
            r.assert_error(400, "bad_option");
            let m = r.json["error"]["message"].as_str().unwrap();
            assert!(m.contains(says), "{path} {body}: {m}");
        }
    }
    // Quick pairing finds people: the computer is asked for by opening a table.
    let r = ann
        .post("/api/tables/quick", table(json!({"computer": "easy"})))
        .await;
    r.assert_error(400, "bad_option");
    let ann_id = user_id(&h, "ann");
    let mine = junqi::db::games::open_count(&mut h.conn(), ann_id).unwrap();
    assert_eq!(mine, 0, "nothing was opened");
    let r = h.client().get("/api/tables/open").await;
    assert_eq!(r.json, json!([]));
    // Nothing is asked of a visitor who is not logged in but to log in.
    h.client()
        .post("/api/tables/quick", table(json!({})))
        .await
        .assert_error(401, "not_logged_in");
}
