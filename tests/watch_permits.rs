//! 指定旁观 (RULES §5.6) over the service, on SQLite and PostgreSQL: a spectator whom a
//! player lists sees exactly that player's view, from the moment the player adds them
//! and no more once removed, at a 四国 table and in a two-player standard game;
//! everyone else sees backs only; the list refuses what makes no sense.

#[macro_use]
mod support;

use serde_json::{Value, json};
use support::{Client, Harness, Socket, TestDb};

db_tests! {
    a_listed_spectator_sees_that_seats_view_at_a_table => a_listed_spectator_sees_that_seats_view_at_a_table_sqlite, a_listed_spectator_sees_that_seats_view_at_a_table_postgres;
    a_listed_spectator_sees_one_side_of_a_standard_game => a_listed_spectator_sees_one_side_of_a_standard_game_sqlite, a_listed_spectator_sees_one_side_of_a_standard_game_postgres;
    the_list_refuses_nonsense_and_changes_nothing => the_list_refuses_nonsense_and_changes_nothing_sqlite, the_list_refuses_nonsense_and_changes_nothing_postgres;
}

async fn table_msg(s: &mut Socket, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
    s.wait_for(what, |v| v["t"] == "table" && pred(&v["d"]))
        .await["d"]
        .clone()
}

/// The stations whose piece a table view names while it is face down.
fn named_hidden(d: &Value) -> Vec<Value> {
    d["board"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["face"] == "down" && c.get("piece").is_some())
        .cloned()
        .collect()
}

async fn allow(c: &mut Client, name: &str) {
    let r = c.post("/api/watch-permits", json!({ "name": name })).await;
    assert_eq!(r.status, 200, "{}", r.text);
}

async fn disallow(c: &mut Client, name: &str) {
    let r = c.delete(&format!("/api/watch-permits/{name}")).await;
    assert_eq!(r.status, 200, "{}", r.text);
}

async fn a_listed_spectator_sees_that_seats_view_at_a_table(db: TestDb) {
    let h = Harness::start(db);
    let mut ann = h.player("ann").await;
    let cat = h.player("cat").await;
    let dan = h.player("dan").await;
    let r = ann
        .post(
            "/api/tables",
            json!({"seconds_per_action": 60, "computer": "easy"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let id = r.json["id"].as_str().unwrap().to_string();
    let mut sa = ann.game_socket(&id).await;
    table_msg(&mut sa, "deployment", |d| d["phase"] == "deploying").await;
    let mut sc = cat.game_socket(&id).await;
    let mut sd = dan.game_socket(&id).await;
    let d = table_msg(&mut sc, "the table", |_| true).await;
    assert!(d["watching"].is_null() && d["deploy"].is_null(), "{d}");

    // Listed while deploying: cat sees ann's area as ann arranges it, dan does not.
    allow(&mut ann, "cat").await;
    let d = table_msg(&mut sc, "ann's view", |d| d["watching"] == "south").await;
    assert!(d["deploy"].is_object(), "{d}");
    assert!(
        !d["can"]["deploy"].as_bool().unwrap(),
        "a spectator deploys nothing"
    );
    sa.act("ready", Value::Null).await.expect("ready");
    // The computers move at once: the views are compared at one version.
    let m = sa
        .wait_for("play", |v| {
            v["t"] == "table" && v["d"]["phase"] == "playing"
        })
        .await;
    let at = m["v"].clone();
    let mine = m["d"].clone();
    let seen = sc
        .wait_for("the same version", |v| v["t"] == "table" && v["v"] == at)
        .await["d"]
        .clone();
    let other = sd
        .wait_for("the same version", |v| v["t"] == "table" && v["v"] == at)
        .await["d"]
        .clone();
    assert_eq!(
        seen["board"], mine["board"],
        "a listed spectator sees exactly the player's view"
    );
    // South's face-down pieces, named (the computers may have taken or shown a few by
    // this version), and nobody else's.
    let named = named_hidden(&seen);
    assert!(named.len() >= 15, "{seen}");
    assert!(named.iter().all(|c| c["seat"] == "south"), "{seen}");
    assert!(seen["legal"].as_array().unwrap().is_empty());
    assert!(other["watching"].is_null());
    assert!(named_hidden(&other).is_empty(), "dan sees backs: {other}");

    // Sitting behind another seat shows that seat's backs: east has not listed cat.
    // (The table is sent before the ack, so it is waited for, not acted on.)
    sc.send(json!({"t": "behind", "d": {"seat": "east"}})).await;
    let d = table_msg(&mut sc, "behind east", |d| d["watching"].is_null()).await;
    assert!(named_hidden(&d).is_empty(), "{d}");
    sc.send(json!({"t": "behind", "d": {"seat": "south"}}))
        .await;
    table_msg(&mut sc, "behind south", |d| d["watching"] == "south").await;

    // Removed mid-game: the next message shows backs only, and so do the later ones
    // (ann hands her seat to the server so that the game goes on).
    disallow(&mut ann, "cat").await;
    let d = table_msg(&mut sc, "backs again", |d| d["watching"].is_null()).await;
    assert!(named_hidden(&d).is_empty(), "{d}");
    sa.act("tuoguan", json!({"on": true})).await.expect("托管");
    let from = d["steps"].as_u64().unwrap();
    loop {
        let d = table_msg(&mut sc, "a later step", |_| true).await;
        if d["phase"] == "over" || d["steps"].as_u64().unwrap() >= from + 4 {
            break;
        }
        assert!(named_hidden(&d).is_empty(), "{d}");
    }
}

async fn a_listed_spectator_sees_one_side_of_a_standard_game(db: TestDb) {
    let h = Harness::start(db);
    let mut ann = h.player("ann").await;
    let mut bob = h.player("bob").await;
    let cat = h.player("cat").await;
    let dan = h.player("dan").await;
    let r = ann
        .post(
            "/api/games",
            json!({"variant": "standard", "seconds_per_action": 30, "rated": false}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let id = r.json["id"].as_str().unwrap().to_string();
    bob.join(&id).await;
    let mut sa = ann.game_socket(&id).await;
    let mut sb = bob.game_socket(&id).await;
    for s in [&mut sa, &mut sb] {
        s.wait_state().await;
        s.act("ready", Value::Null).await.expect("ready");
    }
    let mine = sa
        .wait_for("play", |v| v["t"] == "state" && v["v"] == 1)
        .await;
    let ann_colour = mine["d"]["view"]["colours"][mine["d"]["you"].as_str().unwrap()].clone();
    let mut sc = cat.game_socket(&id).await;
    let mut sd = dan.game_socket(&id).await;
    let st = sc.wait_state().await;
    support::hidden::assert_hidden(std::slice::from_ref(&st), None);

    allow(&mut ann, "cat").await;
    let st = sc
        .wait_for("ann's view", |v| {
            v["t"] == "state" && v["d"]["view"]["viewer"]["behind"].is_string()
        })
        .await;
    assert_eq!(
        st["d"]["view"]["board"], mine["d"]["view"]["board"],
        "a listed spectator sees exactly the player's view"
    );
    assert!(st["d"]["you"].is_null());
    assert_eq!(st["d"]["view"]["legal"], json!([]));
    support::hidden::assert_hidden(std::slice::from_ref(&st), ann_colour.as_str());
    // dan, unlisted, sees backs in whatever he was sent meanwhile, and when he comes
    // again.
    let got = sd.drain(std::time::Duration::from_millis(200)).await;
    support::hidden::assert_hidden(&got, None);
    let mut again = dan.game_socket(&id).await;
    let st = again.wait_state().await;
    support::hidden::assert_hidden(std::slice::from_ref(&st), None);

    disallow(&mut ann, "cat").await;
    let st = sc
        .wait_for("backs again", |v| {
            v["t"] == "state" && v["d"]["view"]["viewer"] == "spectator"
        })
        .await;
    support::hidden::assert_hidden(std::slice::from_ref(&st), None);
}

async fn the_list_refuses_nonsense_and_changes_nothing(db: TestDb) {
    let h = Harness::start(db);
    let mut ann = h.player("ann").await;
    h.player("cat").await;
    let r = ann.post("/api/watch-permits", json!({"name": "ann"})).await;
    assert_eq!(r.status, 400, "{}", r.text);
    let r = ann
        .post("/api/watch-permits", json!({"name": "nobody"}))
        .await;
    assert_eq!(r.status, 404, "{}", r.text);
    let r = ann.post("/api/watch-permits", json!({"who": "cat"})).await;
    assert_eq!(r.status, 400, "{}", r.text);
    let r = ann.get("/api/watch-permits").await;
    assert_eq!(r.json["allowed"], json!([]));
    allow(&mut ann, "cat").await;
    allow(&mut ann, "cat").await;
    let r = ann.get("/api/watch-permits").await;
    let names: Vec<&str> = r.json["allowed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["username"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["cat"], "added once");
    let page = ann.get("/friends").await;
    assert!(
        page.text
            .contains("data-social=\"disallow-watch\" data-name=\"cat\"")
    );
    let mut anon = h.client();
    let r = anon
        .post("/api/watch-permits", json!({"name": "cat"}))
        .await;
    assert_eq!(r.status, 401, "{}", r.text);
}
