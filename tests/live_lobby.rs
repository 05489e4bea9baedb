//! The lobby: its socket's live list, and quick pairing. On SQLite and PostgreSQL.

#[macro_use]
mod support;

use serde_json::{Value, json};
use std::time::Duration;
use support::{Client, Harness, Resp, Socket, TestDb};

db_tests! {
    lobby_list_updates_live => lobby_list_updates_live_sqlite, lobby_list_updates_live_postgres;
    quick_pairing => quick_pairing_sqlite, quick_pairing_postgres;
    quick_pairs_sent_at_once_meet => quick_pairs_sent_at_once_meet_sqlite, quick_pairs_sent_at_once_meet_postgres;
}

fn ids(lobby: &Value) -> Vec<String> {
    lobby["d"]["open"]
        .as_array()
        .expect("a lobby message lists open games")
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_string())
        .collect()
}

/// Waits for the lobby socket to show exactly `want`, newest first. (The list is a
/// watched value: quick changes may reach a socket as one message.)
async fn lobby_shows(s: &mut Socket, want: &[&str]) -> Value {
    let want: Vec<String> = want.iter().map(|s| s.to_string()).collect();
    s.wait_for(&format!("the lobby to list {want:?}"), |v| {
        v["t"] == "lobby" && ids(v) == want
    })
    .await
}

async fn open_list(h: &Harness) -> Vec<String> {
    let r = h.client().get("/api/games/open").await;
    assert_eq!(r.status, 200);
    r.json
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_string())
        .collect()
}

/// (10a) `/ws/lobby` lists open games, and updates when one is created, joined or
/// cancelled.
async fn lobby_list_updates_live(db: TestDb) {
    let h = Harness::start(db);
    let mut a = h.player("opener").await;
    let mut b = h.player("other_opener").await;
    let mut c = h.player("joiner").await;
    let mut lobby = Socket::connect(&h.base(), "/ws/lobby", None, None)
        .await
        .expect("the lobby socket opens");
    let first = lobby.recv().await;
    assert_eq!(first["t"], "lobby", "{first}");
    assert_eq!(first["d"]["open"], json!([]), "{first}");
    assert_eq!(
        first["d"]["live"],
        json!([]),
        "no game is being played: {first}"
    );
    lobby.send(json!({"t": "ping"})).await;
    assert_eq!(lobby.recv().await, json!({"t": "pong"}));

    let g1 = a.create_game(30, true).await;
    let msg = lobby_shows(&mut lobby, &[&g1]).await;
    let entry = &msg["d"]["open"][0];
    assert_eq!(entry["variant"], "flip");
    assert_eq!(entry["seconds_per_action"], 30);
    assert_eq!(entry["rated"], true);
    assert_eq!(entry["creator"]["username"], "opener");
    assert_eq!(entry["creator"]["score"], 0);
    assert_eq!(entry["creator"]["rank"]["level"], 0);
    // Not a wait for anything: the list is ordered by creation time in milliseconds,
    // and this makes the two differ however fast the machine.
    actix_web::rt::time::sleep(Duration::from_millis(5)).await;
    let g2 = b.create_game(7, false).await;
    let msg = lobby_shows(&mut lobby, &[&g2, &g1]).await;
    assert_eq!(msg["d"]["open"][0]["seconds_per_action"], 7);
    assert_eq!(msg["d"]["open"][0]["rated"], false);
    assert_eq!(open_list(&h).await, [g2.clone(), g1.clone()]);
    // A second lobby socket gets the current list on connect.
    let mut late = Socket::connect(&h.base(), "/ws/lobby", None, None)
        .await
        .unwrap();
    assert_eq!(ids(&late.recv().await), [g2.clone(), g1.clone()]);

    c.join(&g1).await;
    lobby_shows(&mut lobby, &[&g2]).await;
    lobby_shows(&mut late, &[&g2]).await;
    let r = b.post_empty(&format!("/api/games/{g2}/cancel")).await;
    assert_eq!(r.status, 204, "{}", r.text);
    lobby_shows(&mut lobby, &[]).await;
    lobby_shows(&mut late, &[]).await;
    assert!(open_list(&h).await.is_empty());
    // Refused requests change nothing, and the socket hears nothing of them: the next
    // thing it hears is the list of a game opened after them. (The list is worked out
    // by one refresher, in order, so a message the refusal caused would come first;
    // one merged into the next list would go unseen, but never fail the test wrongly.)
    let r = b.post_empty(&format!("/api/games/{g2}/cancel")).await;
    assert_eq!(r.status, 409);
    let g3 = a.create_game(30, true).await;
    let next = lobby.recv().await;
    assert_eq!(next["t"], "lobby", "{next}");
    assert_eq!(ids(&next), [g3], "the refusal sent nothing");
}

/// (10b) Quick pairing joins the newest compatible open game of someone else, or opens
/// a game.
async fn quick_pairing(db: TestDb) {
    let h = Harness::start(db);
    let mut a = h.player("early").await;
    let mut b = h.player("later").await;
    let mut c = h.player("quick").await;
    let mut d = h.player("fourth").await;
    let mut lobby = Socket::connect(&h.base(), "/ws/lobby", None, None)
        .await
        .unwrap();
    lobby.recv().await;
    let spec = json!({"variant": "flip", "seconds_per_action": 30, "rated": true});

    // Open games of several kinds; created a few ms apart so their order is certain
    // (creation times are in milliseconds; the pause is not a wait for anything, and a
    // slow machine only lengthens it).
    let mut made = Vec::new();
    for (by_a, spa, rated) in [
        (true, 15, true),  // wrong clock
        (true, 30, false), // casual
        (true, 30, true),  // compatible, older
        (false, 30, true), // the newest compatible one
    ] {
        let who = if by_a { &mut a } else { &mut b };
        made.push(who.create_game(spa, rated).await);
        actix_web::rt::time::sleep(Duration::from_millis(5)).await;
    }
    // The lobby lists two games of anyone, their newest: early's third is not shown.
    lobby_shows(&mut lobby, &[&made[3], &made[2], &made[1]]).await;

    // Someone else pairs with the newest compatible game.
    let r = c.post("/api/games/quick", spec.clone()).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json, json!({"id": made[3], "joined": true}));
    let s = c.summary(&made[3]).await;
    assert_eq!(s["status"], "running");
    let mut players = [
        s["players"]["south"]["username"].as_str().unwrap(),
        s["players"]["north"]["username"].as_str().unwrap(),
    ];
    players.sort();
    assert_eq!(players, ["later", "quick"]);
    lobby_shows(&mut lobby, &[&made[2], &made[1]]).await;

    // One's own open games are never joined: `early` finds no one else's, and gets
    // back the game of theirs that already waits with these settings, not another.
    let r = a.post("/api/games/quick", spec.clone()).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json, json!({"id": made[2], "joined": false}));
    assert_eq!(open_list(&h).await, [made[2].clone(), made[1].clone()]);
    // `later` pairs with it; now `early` has none waiting and opens one.
    let r = b.post("/api/games/quick", spec.clone()).await;
    assert_eq!(r.json, json!({"id": made[2], "joined": true}));
    let r = a.post("/api/games/quick", spec.clone()).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["joined"], false);
    let opened = r.json["id"].as_str().unwrap().to_string();
    assert!(!made.contains(&opened));
    let s = a.summary(&opened).await;
    assert_eq!(s["status"], "open");
    assert_eq!(s["seconds_per_action"], 30);
    assert_eq!(s["rated"], true);
    assert_eq!(s["creator"]["username"], "early");
    lobby_shows(&mut lobby, &[&opened, &made[1]]).await;
    let r = d.post("/api/games/quick", spec.clone()).await;
    assert_eq!(r.json, json!({"id": opened, "joined": true}));
    lobby_shows(&mut lobby, &[&made[1], &made[0]]).await;
    // And the casual one is found by a casual request.
    let r = c
        .post(
            "/api/games/quick",
            json!({"variant": "flip", "seconds_per_action": 30, "rated": false}),
        )
        .await;
    assert_eq!(r.json, json!({"id": made[1], "joined": true}));
    lobby_shows(&mut lobby, &[&made[0]]).await;
}

/// Both answers of two quick pairings sent together, in the order sent.
async fn together(a: &mut Client, b: &mut Client, spec: &Value) -> (Resp, Resp) {
    futures_util::future::join(
        a.post("/api/games/quick", spec.clone()),
        b.post("/api/games/quick", spec.clone()),
    )
    .await
}

/// (10c) Two identical quick pairings sent at the same moment meet: one opens the game
/// and the other joins it, never two games waiting for each other (before, 10 of 10
/// pairs sent at once opened two). The same player asking twice at once gets one game.
async fn quick_pairs_sent_at_once_meet(db: TestDb) {
    let h = Harness::start(db);
    for round in 0..10 {
        let mut x = h.player(&format!("eager_{round}")).await;
        let mut y = h.player(&format!("keen_{round}")).await;
        // A clock of its own per round: no game of an earlier round is compatible.
        let spec = json!({"variant": "flip", "seconds_per_action": 10 + round, "rated": false});
        let (rx, ry) = together(&mut x, &mut y, &spec).await;
        assert_eq!(rx.status, 200, "{}", rx.text);
        assert_eq!(ry.status, 200, "{}", ry.text);
        assert_eq!(rx.json["id"], ry.json["id"], "round {round}: {rx:?} {ry:?}");
        let mut joined = [&rx, &ry].map(|r| r.json["joined"].as_bool().unwrap());
        joined.sort();
        assert_eq!(joined, [false, true], "one opens, one joins: {rx:?} {ry:?}");
        let id = rx.json["id"].as_str().unwrap();
        assert_eq!(x.summary(id).await["status"], "running");
    }
    assert!(open_list(&h).await.is_empty(), "no game left waiting");

    // One player, the same request twice at once (a double click): one game.
    let p = h.player("double_clicker").await;
    let mut again = h.client();
    again.cookie = p.cookie.clone();
    let mut p = p;
    let spec = json!({"variant": "standard", "seconds_per_action": 30, "rated": false});
    let (r1, r2) = together(&mut p, &mut again, &spec).await;
    assert_eq!(r1.json["joined"], false, "{}", r1.text);
    assert_eq!(r2.json["joined"], false, "{}", r2.text);
    assert_eq!(r1.json["id"], r2.json["id"], "{} {}", r1.text, r2.text);
    assert_eq!(open_list(&h).await.len(), 1);
}
