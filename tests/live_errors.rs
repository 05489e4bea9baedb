//! Bad input, over HTTP and the game socket: each refused with a clear error, and
//! nothing changed. Every test runs on SQLite and on PostgreSQL.

#[macro_use]
mod support;

use awc::error::WsClientError;
use junqi::rules::{Action, Seat};
use serde_json::{Value, json};
use std::time::Duration;
use support::policy::Rng;
use support::{Harness, Incoming, Socket, Table, TestDb};

db_tests! {
    http_refuses_bad_input => http_refuses_bad_input_sqlite, http_refuses_bad_input_postgres;
    socket_refuses_bad_input => socket_refuses_bad_input_sqlite, socket_refuses_bad_input_postgres;
    socket_limits => socket_limits_sqlite, socket_limits_postgres;
}

/// Accounts and games over HTTP: malformed bodies, bad fields, taken and invalid
/// names, other people's games, unknown ids.
async fn http_refuses_bad_input(db: TestDb) {
    let h = Harness::start(db);
    let mut alice = h.player("Alice").await;
    let mut bob = h.player("bob_2").await;
    let mut anon = h.client();

    // Names are unique without regard to case; invalid names and passwords are refused.
    for name in ["alice", "ALICE", "Bob_2"] {
        anon.post(
            "/api/register",
            json!({"username": name, "password": "long enough"}),
        )
        .await
        .assert_error(409, "username_taken");
    }
    for name in [
        "ab",
        "",
        "a_name_that_is_far_too_long",
        "has space",
        "ünïcode",
        "semi;colon",
    ] {
        anon.post(
            "/api/register",
            json!({"username": name, "password": "long enough"}),
        )
        .await
        .assert_error(400, "invalid_username");
    }
    anon.post(
        "/api/register",
        json!({"username": "carol", "password": "short"}),
    )
    .await
    .assert_error(400, "invalid_password");
    anon.post(
        "/api/login",
        json!({"username": "alice", "password": "wrong password"}),
    )
    .await
    .assert_error(401, "bad_credentials");
    assert_eq!(
        anon.get("/api/players/carol").await.status,
        404,
        "nobody was created"
    );
    anon.get("/api/me").await.assert_error(401, "not_logged_in");
    // Login is case-insensitive too, and gives the name as registered.
    let mut again = h.client();
    let r = again
        .post(
            "/api/login",
            json!({"username": "alice", "password": "correct horse"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["username"], "Alice");

    // Malformed bodies and bad fields.
    let bodies: Vec<(&str, Vec<u8>, u16, &str)> = vec![
        (
            "application/json",
            b"{not json".to_vec(),
            400,
            "bad_request",
        ),
        ("application/json", b"".to_vec(), 400, "bad_request"),
        ("application/json", b"[1,2]".to_vec(), 400, "bad_request"),
        (
            "text/plain",
            br#"{"variant":"flip","seconds_per_action":30,"rated":true}"#.to_vec(),
            400,
            "bad_request",
        ),
        (
            "application/json",
            br#"{"variant":"flip","rated":true}"#.to_vec(),
            400,
            "bad_request",
        ),
        (
            "application/json",
            br#"{"variant":"chess","seconds_per_action":30,"rated":true}"#.to_vec(),
            400,
            "bad_request",
        ),
        (
            "application/json",
            br#"{"variant":"flip","seconds_per_action":"30","rated":true}"#.to_vec(),
            400,
            "bad_request",
        ),
        (
            "application/json",
            br#"{"variant":"flip","seconds_per_action":-5,"rated":true}"#.to_vec(),
            400,
            "bad_request",
        ),
        (
            "application/json",
            br#"{"variant":"flip","seconds_per_action":30,"rated":true,"extra":1}"#.to_vec(),
            400,
            "bad_request",
        ),
        (
            "application/json",
            br#"{"variant":"four_player","seconds_per_action":30,"rated":true}"#.to_vec(),
            400,
            "bad_request",
        ),
        (
            "application/json",
            br#"{"variant":"flip","seconds_per_action":20,"rated":true}"#.to_vec(),
            400,
            "bad_option",
        ),
        // A variant the rules know whose tables the site does not seat yet.
        (
            "application/json",
            br#"{"variant":"siguo","seconds_per_action":30,"rated":false}"#.to_vec(),
            400,
            "bad_option",
        ),
        (
            "application/json",
            br#"{"variant":"flip","seconds_per_action":0,"rated":false}"#.to_vec(),
            400,
            "bad_option",
        ),
        (
            "application/json",
            br#"{"variant":"flip","seconds_per_action":61,"rated":false}"#.to_vec(),
            400,
            "bad_option",
        ),
    ];
    for (ct, body, status, code) in bodies {
        let what = String::from_utf8_lossy(&body).into_owned();
        let r = alice.post_raw("/api/games", ct, body).await;
        assert_eq!(r.status, status, "{ct} {what}: {}", r.text);
        r.assert_error(status, code);
        let r = alice
            .post_raw("/api/games/quick", ct, what.clone().into_bytes())
            .await;
        r.assert_error(status, code);
    }
    let big = json!({"username": "x".repeat(17 * 1024), "password": "long enough"});
    anon.post("/api/register", big)
        .await
        .assert_error(413, "too_large");
    anon.post_raw(
        "/api/register",
        "application/json",
        b"{\"username\":1}".to_vec(),
    )
    .await
    .assert_error(400, "bad_request");
    anon.post(
        "/api/games",
        json!({"variant": "flip", "seconds_per_action": 30, "rated": true}),
    )
    .await
    .assert_error(401, "not_logged_in");
    anon.get("/api/ladder?variant=chess")
        .await
        .assert_error(400, "bad_request");
    anon.post("/api/analysis/moves", json!({"variant": "flip"}))
        .await
        .assert_error(400, "bad_request");
    let open = anon.get("/api/games/open").await;
    assert_eq!(open.json, json!([]), "no game was opened by any of that");

    // Unknown games and players.
    for path in [
        "/api/games/ZZZZZZZZ",
        "/api/games/nope",
        "/api/games/ZZZZZZZZ/record",
        "/api/players/nobody",
    ] {
        anon.get(path).await.assert_error(404, "not_found");
    }
    alice
        .post_empty("/api/games/ZZZZZZZZ/join")
        .await
        .assert_error(404, "not_found");
    alice
        .post_empty("/api/games/ZZZZZZZZ/cancel")
        .await
        .assert_error(404, "not_found");

    // Other people's games, one's own game, games no longer open.
    let id = alice.create_game(30, true).await;
    alice
        .post_empty(&format!("/api/games/{id}/join"))
        .await
        .assert_error(409, "conflict");
    bob.post_empty(&format!("/api/games/{id}/cancel"))
        .await
        .assert_error(403, "forbidden");
    anon.post_empty(&format!("/api/games/{id}/join"))
        .await
        .assert_error(401, "not_logged_in");
    // The record of a game that has not started does not exist yet.
    anon.get(&format!("/api/games/{id}/record"))
        .await
        .assert_error(409, "conflict");
    let s = anon.summary(&id).await;
    assert_eq!(s["status"], "open", "refusals changed nothing: {s}");
    assert_eq!(s["players"], json!({"south": null, "north": null}));
    bob.join(&id).await;
    let mut carol = h.player("carol").await;
    carol
        .post_empty(&format!("/api/games/{id}/join"))
        .await
        .assert_error(409, "conflict");
    alice
        .post_empty(&format!("/api/games/{id}/cancel"))
        .await
        .assert_error(409, "conflict");
    let s = anon.summary(&id).await;
    assert_eq!(s["status"], "running");
    let mut names = [
        s["players"]["south"]["username"].as_str().unwrap(),
        s["players"]["north"]["username"].as_str().unwrap(),
    ];
    names.sort();
    assert_eq!(names, ["Alice", "bob_2"], "carol did not get in");
    // A cancelled game cannot be joined or cancelled again.
    let id2 = alice.create_game(60, false).await;
    let r = alice.post_empty(&format!("/api/games/{id2}/cancel")).await;
    assert_eq!(r.status, 204, "{}", r.text);
    bob.post_empty(&format!("/api/games/{id2}/join"))
        .await
        .assert_error(409, "conflict");
    alice
        .post_empty(&format!("/api/games/{id2}/cancel"))
        .await
        .assert_error(409, "conflict");
    assert_eq!(anon.summary(&id2).await["status"], "cancelled");
}

/// The current state as a fresh spectator sees it.
async fn fresh_state(h: &Harness, id: &str) -> Value {
    let mut s = h.client().game_socket(id).await;
    s.wait_state().await
}

/// Nothing changed: the server is still at `table.version` with the mirror's steps.
async fn unchanged(h: &Harness, table: &mut Table) {
    let st = fresh_state(h, &table.id).await;
    assert_eq!(st["v"], table.version, "no event was added");
    assert_eq!(st["d"]["view"]["steps"], table.game.steps());
    assert_eq!(table.summary().await["steps"], table.game.steps());
    let record = table.record().await;
    assert_eq!(
        record["actions"].as_array().unwrap().len() as u64,
        table.version
    );
}

/// Malformed and unknown messages, illegal and out-of-turn actions, spectators and
/// non-players acting, acting after the end.
async fn socket_refuses_bad_input(db: TestDb) {
    let h = Harness::start(db);
    let a = h.player("one").await;
    let b = h.player("two").await;
    let outsider = h.player("outsider").await;
    let mut table = Table::open(&h, a, b, 60, true).await;
    let id = table.id.clone();
    let mover = table.game.to_move();

    // Malformed and unknown messages.
    let s = table.socket(mover);
    let bad: [(&str, Option<u64>); 11] = [
        ("not json", None),
        ("[]", None),
        (r#"{"d":{"at":"a1"}}"#, None),
        (r#"{"t":"fly","a":5}"#, Some(5)),
        (r#"{"t":"flip","a":6}"#, Some(6)),
        (r#"{"t":"flip","d":{"at":"z9"},"a":7}"#, Some(7)),
        (r#"{"t":"flip","d":{"at":7},"a":8}"#, Some(8)),
        (r#"{"t":"move","d":{"from":"a2"},"a":9}"#, Some(9)),
        (r#"{"t":"flip","d":{"at":"a1"},"a":-1}"#, None),
        (r#"{"t":"flip","d":{"at":"a1"},"a":"x"}"#, None),
        (r#"{"t":42}"#, None),
    ];
    for (text, ack) in bad {
        s.send_text(text.to_string()).await;
        let e = s.wait_for("an error", |v| v["t"] == "error").await;
        assert_eq!(e["d"]["code"], "bad_message", "{text}: {e}");
        assert!(!e["d"]["message"].as_str().unwrap().is_empty());
        assert_eq!(e.get("a").and_then(Value::as_u64), ack, "{text}: {e}");
    }
    // A ping is answered, with or without an ack id.
    s.send(json!({"t": "ping"})).await;
    assert_eq!(s.recv().await, json!({"t": "pong"}));
    unchanged(&h, &mut table).await;

    // Illegal actions: a camp holds nothing, moves before colours, resigning early.
    let s = table.socket(mover);
    let m = s.act_err("flip", json!({"at": "b3"}), "illegal").await;
    assert!(m.contains("b3"), "{m}");
    s.act_err("move", json!({"from": "a1", "to": "a2"}), "illegal")
        .await;
    s.act_err("resign", Value::Null, "illegal").await;
    s.act_err("accept_draw", Value::Null, "illegal").await;
    s.act_err("rematch", Value::Null, "illegal").await;
    // Out of turn.
    let m = table
        .socket(mover.other())
        .act_err("flip", json!({"at": "a1"}), "illegal")
        .await;
    assert!(m.contains("turn"), "{m}");
    unchanged(&h, &mut table).await;

    // Spectators, anonymous or logged in, are not players.
    let mut watchers = vec![
        outsider.game_socket(&id).await,
        h.client().game_socket(&id).await,
    ];
    for w in &mut watchers {
        let st = w.wait_state().await;
        assert_eq!(st["d"]["you"], Value::Null);
        assert_eq!(
            st["d"]["view"]["legal"],
            json!([]),
            "a spectator has no legal actions"
        );
        for (t, d) in [
            ("flip", json!({"at": "a1"})),
            ("resign", Value::Null),
            ("offer_draw", Value::Null),
            ("rematch", Value::Null),
        ] {
            w.act_err(t, d, "not_a_player").await;
        }
    }
    unchanged(&h, &mut table).await;

    // Play goes on at the next version after all of that.
    let mut rng = Rng::new(9);
    table.harmless_steps(2, &mut rng).await;
    assert_eq!(table.version, 2);
    // An illegal move with colours known: a face-down piece cannot move.
    let mover = table.game.to_move();
    let hidden = table.game.position().hidden().iter().next().unwrap();
    let m = table
        .socket(mover)
        .act_err("move", json!({"from": hidden, "to": "c6"}), "illegal")
        .await;
    assert!(!m.is_empty());
    unchanged(&h, &mut table).await;

    // A finished game takes no more actions.
    table.harmless_steps(48, &mut rng).await;
    table.play(Seat::South, Action::Resign).await;
    for seat in Seat::BOTH {
        let s = table.socket(seat);
        s.act_err("flip", json!({"at": "a1"}), "game_over").await;
        s.act_err("resign", Value::Null, "game_over").await;
        s.act_err("offer_draw", Value::Null, "game_over").await;
    }
    watchers[0]
        .act_err("flip", json!({"at": "a1"}), "not_a_player")
        .await;
    unchanged(&h, &mut table).await;
    assert_eq!(table.summary().await["status"], "finished");
}

/// Unknown games and foreign origins are refused at the upgrade; a frame over 16 KiB
/// and too many messages get an error and a close.
async fn socket_limits(db: TestDb) {
    let h = Harness::start(db);
    let base = h.base();
    let a = h.player("sender").await;
    let b = h.player("receiver").await;

    for path in [
        "/ws/game/ZZZZZZZZ",
        "/ws/game/nope",
        "/ws/game/ZZZZZZZZ?v=3",
    ] {
        match Socket::connect(&base, path, a.cookie.as_deref(), None).await {
            Err(WsClientError::InvalidResponseStatus(s)) => assert_eq!(s.as_u16(), 404, "{path}"),
            Err(e) => panic!("{path}: {e}"),
            Ok(_) => panic!("{path}: the upgrade was accepted"),
        }
    }
    let mut table = Table::open(&h, a, b, 60, false).await;
    let id = table.id.clone();
    let path = format!("/ws/game/{id}");
    for origin in [
        "http://evil.example",
        "https://127.0.0.1.evil.example",
        "null",
    ] {
        match Socket::connect(
            &base,
            &path,
            table.seats[0].client.cookie.as_deref(),
            Some(origin),
        )
        .await
        {
            Err(WsClientError::InvalidResponseStatus(s)) => assert_eq!(s.as_u16(), 403, "{origin}"),
            Err(e) => panic!("{origin}: {e}"),
            Ok(_) => panic!("a socket from {origin} was accepted"),
        }
    }
    assert!(matches!(
        Socket::connect(&base, "/ws/lobby", None, Some("http://evil.example")).await,
        Err(WsClientError::InvalidResponseStatus(s)) if s.as_u16() == 403
    ));
    // The server's own origin is fine.
    let own = format!("http://{}", h.server.addr);
    let mut s = Socket::connect(&base, &path, None, Some(&own))
        .await
        .expect("same origin");
    s.wait_state().await;

    // A frame over 16 KiB: an error, then the socket is closed (1009).
    let mover = table.game.to_move();
    let huge = json!({"t": "flip", "d": {"at": "a1", "pad": "x".repeat(17 * 1024)}, "a": 1});
    let sock = table.socket(mover);
    sock.send(huge).await;
    let e = sock.wait_for("an error", |v| v["t"] == "error").await;
    assert_eq!(e["d"]["code"], "too_large", "{e}");
    loop {
        match sock.incoming(Duration::from_secs(5)).await {
            Incoming::Json(v) => assert_ne!(v["t"], "ack", "the big frame was not acted on"),
            Incoming::Closed(reason) => {
                if let Some(r) = reason {
                    assert_eq!(u16::from(r.code), 1009, "{r:?}");
                }
                break;
            }
            Incoming::Timeout => panic!("the socket stayed open after a frame over 16 KiB"),
        }
    }
    let st = fresh_state(&h, &id).await;
    assert_eq!(st["v"], 0, "nothing was played");
    // A frame just under the limit is read (and refused as a bad message, not too large).
    let seat_client = &table.seats[mover.index()].client;
    let mut sock = seat_client.game_socket(&id).await;
    sock.wait_state().await;
    let filler = "x".repeat(16 * 1024 - 100);
    sock.send_text(format!(r#"{{"t":"nope","a":3,"pad":"{filler}"}}"#))
        .await;
    let e = sock.wait_for("an error", |v| v["t"] == "error").await;
    assert_eq!(e["d"]["code"], "bad_message", "{e}");

    // More than 100 messages in 20 seconds: rate_limited, then closed.
    let mut spam = h.client().game_socket(&id).await;
    spam.wait_state().await;
    let mut limited = false;
    for _ in 0..101 {
        spam.send_unlimited(r#"{"t":"ping"}"#.to_string()).await;
    }
    loop {
        match spam.incoming(Duration::from_secs(5)).await {
            Incoming::Json(v) if v["t"] == "pong" => {}
            Incoming::Json(v) => {
                assert_eq!(v["d"]["code"], "rate_limited", "{v}");
                limited = true;
            }
            Incoming::Closed(_) => break,
            Incoming::Timeout => panic!("the socket stayed open past the budget"),
        }
    }
    assert!(limited, "the 101st message got a rate_limited error");
    // The game itself is fine and playable.
    let mut rng = Rng::new(10);
    let old = std::mem::replace(table.socket(mover), sock);
    drop(old);
    table.harmless_steps(2, &mut rng).await;
    assert_eq!(table.version, 2);
}
