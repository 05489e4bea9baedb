//! Guest play and the 昵称 at registration, on SQLite and PostgreSQL: a visitor plays
//! the computer and casual games as a guest (`POST /api/guest`) without registering;
//! rated games are refused; guests are not on the ladder; registering from the guest's
//! session keeps its games under the new login name and the account stops being a
//! guest; making guests is limited per address (on the frozen rate clock, so counts are
//! exact); an optional 昵称 at registration is stored, or refused with nothing created.

#[macro_use]
mod support;

use serde_json::{Value, json};
use std::time::Duration;
use support::{Client, Harness, Resp, Socket, TestDb};

db_tests! {
    a_guest_plays_the_computer_and_casual_games => a_guest_plays_the_computer_and_casual_games_sqlite, a_guest_plays_the_computer_and_casual_games_postgres;
    a_guest_plays_no_rated_game_and_is_not_on_the_ladder => a_guest_plays_no_rated_game_and_is_not_on_the_ladder_sqlite, a_guest_plays_no_rated_game_and_is_not_on_the_ladder_postgres;
    registering_claims_the_guest_and_its_games => registering_claims_the_guest_and_its_games_sqlite, registering_claims_the_guest_and_its_games_postgres;
    guests_are_limited_per_address => guests_are_limited_per_address_sqlite, guests_are_limited_per_address_postgres;
    a_display_name_at_registration => a_display_name_at_registration_sqlite, a_display_name_at_registration_postgres;
}

/// A new guest: 201, logged in.
async fn guest(h: &Harness) -> (Client, Value) {
    let mut c = h.client();
    let r = c.post_empty("/api/guest").await;
    assert_eq!(r.status, 201, "a guest: {}", r.text);
    c.name = r.json["username"].as_str().unwrap().to_string();
    (c, r.json)
}

async fn register(c: &mut Client, body: Value) -> Resp {
    c.post("/api/register", body).await
}

/// The first flip or move among `legal`, as a socket message's type and data.
fn first_step(legal: &Value) -> Option<(String, Value)> {
    let a = legal
        .as_array()?
        .iter()
        .find(|a| a.get("flip").is_some() || a.get("move").is_some())?;
    Some(match a.get("flip") {
        Some(at) => ("flip".into(), json!({"at": at})),
        None => ("move".into(), a["move"].clone()),
    })
}

/// Waits for the viewer's turn and plays its first legal step; returns the version.
async fn play_one(s: &mut Socket) -> u64 {
    let st = s.wait_state().await;
    let mut legal = st["d"]["view"]["legal"].clone();
    while first_step(&legal).is_none() {
        let m = s.recv().await;
        if m["t"] == "event" {
            legal = m["d"]["legal"].clone();
        }
    }
    let (t, d) = first_step(&legal).unwrap();
    s.act(&t, d)
        .await
        .unwrap_or_else(|e| panic!("the guest's step was refused: {e}"))
}

/// Plays the first legal step each turn, and resigns once 50 steps allow it, until the
/// game ends.
async fn play_to_the_end(s: &mut Socket) {
    let st = s.wait_state().await;
    let mut legal = st["d"]["view"]["legal"].clone();
    let mut steps = st["d"]["view"]["steps"].as_u64().unwrap_or(0);
    let mut ended = !st["d"]["result"].is_null();
    let mut ack = 1000;
    while !ended {
        if let Some((t, d)) = first_step(&legal) {
            let msg = if steps >= 50 {
                json!({"t": "resign", "a": ack})
            } else {
                json!({"t": t, "d": d, "a": ack})
            };
            ack += 1;
            s.send(msg).await;
            legal = Value::Null;
        }
        let m = s.recv().await;
        assert_ne!(m["t"], "error", "refused: {m}");
        if m["t"] == "event" {
            if let Some(n) = m["d"]["status"]["steps"].as_u64() {
                steps = n;
            }
            ended = !m["d"]["outcome"].is_null();
            legal = m["d"]["legal"].clone();
        }
    }
}

fn seat_of(summary: &Value, name: &str) -> &'static str {
    if summary["players"]["south"]["username"] == name {
        "south"
    } else {
        assert_eq!(summary["players"]["north"]["username"], name, "{summary}");
        "north"
    }
}

async fn a_guest_plays_the_computer_and_casual_games(db: TestDb) {
    let h = Harness::start(db);
    let (mut g, made) = guest(&h).await;
    let login = made["username"].as_str().unwrap();
    assert!(login.starts_with("guest-"), "{made}");
    let shown = made["display_name"].as_str().unwrap();
    assert!(shown.starts_with("游客"), "{made}");
    assert_eq!(made["kind"], "guest");
    let me = g.get("/api/me").await;
    assert_eq!(me.json["username"], login, "{}", me.text);
    assert_eq!(me.json["kind"], "guest", "{}", me.text);
    // The button pressed twice: the same guest, nothing made.
    let again = g.post_empty("/api/guest").await;
    assert_eq!(again.status, 200, "{}", again.text);
    assert_eq!(again.json["username"], login);

    let r = support::computer::create(&mut g, "flip", 30, "easy").await;
    assert_eq!(r.status, 201, "a guest plays the computer: {}", r.text);
    let id = r.json["id"].as_str().unwrap().to_string();
    let summary = g.summary(&id).await;
    assert_eq!(summary["status"], "running", "{summary}");
    let seat = seat_of(&summary, login);
    assert_eq!(summary["players"][seat]["kind"], "guest", "{summary}");
    assert_eq!(summary["players"][seat]["display_name"], shown, "{summary}");
    let mut s = g.game_socket(&id).await;
    play_one(&mut s).await;

    // A casual game against a person, both ways: the guest opens one, and joins one.
    let casual = g.create_game(30, false).await;
    let mut alice = h.player("alice").await;
    alice.join(&casual).await;
    assert_eq!(alice.summary(&casual).await["status"], "running");
    let other = alice.create_game(30, false).await;
    g.join(&other).await;
    assert_eq!(g.summary(&other).await["status"], "running");

    // A guest has no password: its name logs nobody in (and costs no server error).
    let mut stranger = h.client();
    let r = stranger
        .post(
            "/api/login",
            json!({"username": login, "password": "correct horse"}),
        )
        .await;
    r.assert_error(401, "bad_credentials");
}

async fn a_guest_plays_no_rated_game_and_is_not_on_the_ladder(db: TestDb) {
    let h = Harness::start(db);
    let (mut g, made) = guest(&h).await;
    let login = made["username"].as_str().unwrap().to_string();
    let rated = json!({"variant": "flip", "seconds_per_action": 30, "rated": true});
    let r = g.post("/api/games", rated.clone()).await;
    r.assert_error(403, "guest_casual_only");
    let r = g.post("/api/games/quick", rated.clone()).await;
    r.assert_error(403, "guest_casual_only");
    let mut alice = h.player("alice").await;
    let alices = alice.create_game(30, true).await;
    let r = g.post_empty(&format!("/api/games/{alices}/join")).await;
    r.assert_error(403, "guest_casual_only");
    assert_eq!(
        alice.summary(&alices).await["status"],
        "open",
        "nothing changed"
    );
    // Nothing was opened for the guest by those refusals.
    let open = g.get("/api/games/open").await;
    assert!(!open.text.contains(&login), "{}", open.text);
    // Nor does a guest become a person, or a bot, but by registering.
    let r = g.post("/api/bot/kind", json!({"kind": "person"})).await;
    r.assert_error(403, "forbidden");
    let r = g.post("/api/bot/kind", json!({"kind": "bot"})).await;
    r.assert_error(403, "forbidden");
    assert_eq!(g.get("/api/me").await.json["kind"], "guest");

    // The ladder lists alice (new, 0 points) but not the guest, searched for or not.
    let mut visitor = h.client();
    for variant in ["flip", "standard"] {
        let page = visitor.get(&format!("/ladder?variant={variant}")).await;
        assert_eq!(page.status, 200);
        assert!(page.text.contains("/@/alice"), "{variant}: alice is listed");
        assert!(!page.text.contains(&login), "{variant}: the guest is not");
        let found = visitor
            .get(&format!("/ladder?variant={variant}&q=guest"))
            .await;
        assert!(!found.text.contains(&login), "{variant}: nor found by name");
    }
}

async fn registering_claims_the_guest_and_its_games(db: TestDb) {
    let h = Harness::start(db);
    let (mut g, made) = guest(&h).await;
    let login = made["username"].as_str().unwrap().to_string();
    let r = support::computer::create(&mut g, "flip", 30, "easy").await;
    assert_eq!(r.status, 201, "{}", r.text);
    let vs_computer = r.json["id"].as_str().unwrap().to_string();
    let mut s = g.game_socket(&vs_computer).await;
    play_one(&mut s).await;
    drop(s);
    let casual = g.create_game(30, false).await;
    // And one finished: against the computer, played until resigning is allowed.
    let r = support::computer::create(&mut g, "flip", 30, "easy").await;
    assert_eq!(r.status, 201, "{}", r.text);
    let finished = r.json["id"].as_str().unwrap().to_string();
    let mut s = g.game_socket(&finished).await;
    play_to_the_end(&mut s).await;
    drop(s);
    assert_eq!(g.summary(&finished).await["status"], "finished");

    // A name someone holds is refused, and the guest stays a guest.
    let _bob = h.player("bobby").await;
    let r = register(
        &mut g,
        json!({"username": "bobby", "password": "correct horse"}),
    )
    .await;
    r.assert_error(409, "username_taken");
    assert_eq!(g.get("/api/me").await.json["kind"], "guest");

    let r = register(
        &mut g,
        json!({"username": "claimer", "password": "correct horse", "display_name": "小明"}),
    )
    .await;
    assert_eq!(r.status, 201, "claim: {}", r.text);
    let me = g.get("/api/me").await;
    assert_eq!(me.json["username"], "claimer", "{}", me.text);
    assert_eq!(me.json["display_name"], "小明", "{}", me.text);
    assert_eq!(me.json["kind"], "person", "no longer a guest: {}", me.text);
    // Its games are its own under the new name: the same account. (A running game's
    // task keeps the names it started with, as it does when a 昵称 changes.)
    let summary = g.summary(&finished).await;
    let seat = seat_of(&summary, "claimer");
    assert_eq!(summary["players"][seat]["kind"], "person", "{summary}");
    assert_eq!(
        summary["players"][seat]["display_name"], "小明",
        "{summary}"
    );
    let history = g.get("/@/claimer/games").await;
    assert!(
        history.text.contains(&finished),
        "in the history: {}",
        history.text
    );
    let summary = g.summary(&casual).await;
    assert_eq!(summary["creator"]["username"], "claimer", "{summary}");
    let mut s = g.game_socket(&vs_computer).await;
    play_one(&mut s).await;
    // The guest's name is gone; the account logs in with its password now; rated
    // games are open to it.
    assert_eq!(g.get(&format!("/@/{login}")).await.status, 404);
    let mut again = h.client();
    let r = again
        .post(
            "/api/login",
            json!({"username": "claimer", "password": "correct horse"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    again.create_game(30, true).await;
    let ladder = h.client().get("/ladder").await;
    assert!(ladder.text.contains("/@/claimer"), "on the ladder now");
    // Registering again from that session makes a new account, as it always did.
    let r = register(
        &mut g,
        json!({"username": "second", "password": "correct horse"}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(g.get("/api/me").await.json["username"], "second");
    assert_eq!(again.get("/api/me").await.json["username"], "claimer");
}

async fn guests_are_limited_per_address(db: TestDb) {
    let h = Harness::start_with_flags(db, &["--trust-proxy", "--frozen-rate-clock"]);
    let from = |ip: &str| {
        let mut c = h.client();
        c.forwarded_for = Some(ip.to_string());
        c
    };
    for _ in 0..5 {
        let r = from("10.7.0.1").post_empty("/api/guest").await;
        assert_eq!(r.status, 201, "{}", r.text);
    }
    let r = from("10.7.0.1").post_empty("/api/guest").await;
    r.assert_error(429, "rate_limited");
    assert_eq!(r.retry_after.as_deref(), Some("360"), "ten an hour");
    // A guest already logged in is answered without counting (nor being refused).
    let mut kept = from("10.7.0.2");
    assert_eq!(kept.post_empty("/api/guest").await.status, 201);
    kept.forwarded_for = Some("10.7.0.1".into());
    assert_eq!(kept.post_empty("/api/guest").await.status, 200);
    support::advance_rate_clock(&h.base(), Duration::from_secs(359)).await;
    let r = from("10.7.0.1").post_empty("/api/guest").await;
    assert_eq!(r.retry_after.as_deref(), Some("1"), "{}", r.text);
    support::advance_rate_clock(&h.base(), Duration::from_secs(1)).await;
    let r = from("10.7.0.1").post_empty("/api/guest").await;
    assert_eq!(r.status, 201, "six minutes on, one more: {}", r.text);
    assert_eq!(from("10.7.0.3").post_empty("/api/guest").await.status, 201);
    // Guests are counted apart from registrations: the address may still register.
    let mut c = from("10.7.0.1");
    let r = register(
        &mut c,
        json!({"username": "after_guests", "password": "correct horse"}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text);
}

async fn a_display_name_at_registration(db: TestDb) {
    let h = Harness::start(db);
    let mut c = h.client();
    let r = register(
        &mut c,
        json!({"username": "xiaoming", "password": "correct horse", "display_name": " 小明 "}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let me = c.get("/api/me").await;
    assert_eq!(me.json["display_name"], "小明", "trimmed: {}", me.text);
    let mut c = h.client();
    let r = register(
        &mut c,
        json!({"username": "no_name", "password": "correct horse", "display_name": null}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(c.get("/api/me").await.json["display_name"], Value::Null);

    // Refused as PATCH /api/me refuses it; nothing is created, so the name stays free.
    for refused in [
        "电脑·困难",
        "十三个字的名字是太长了的啦",
        "a\u{200b}b",
        "  ",
        "小明🙂",
    ] {
        let mut c = h.client();
        let r = register(
            &mut c,
            json!({"username": "refused", "password": "correct horse", "display_name": refused}),
        )
        .await;
        r.assert_error(400, "invalid_display_name");
        assert!(c.cookie.is_none(), "not logged in");
        assert_eq!(c.get("/@/refused").await.status, 404, "{refused:?}");
    }
    // In the page language: Chinese unless the visitor chose English.
    let mut c = h.client();
    let r = register(
        &mut c,
        json!({"username": "refused", "password": "correct horse", "display_name": "电脑"}),
    )
    .await;
    assert!(
        r.json["error"]["message"]
            .as_str()
            .unwrap()
            .contains("昵称"),
        "{}",
        r.text
    );

    // A login name in Chinese is refused with a pointer to the 昵称.
    let r = register(
        &mut h.client(),
        json!({"username": "小明", "password": "correct horse"}),
    )
    .await;
    r.assert_error(400, "invalid_username");
    let message = r.json["error"]["message"].as_str().unwrap();
    assert!(message.contains("display name (昵称)"), "{message}");
    assert!(message.contains("\"小明\""), "{message}");
    // And the guests' names are kept for guests.
    for name in ["guest-00001234", "Guest_42", "guest"] {
        let r = register(
            &mut h.client(),
            json!({"username": name, "password": "correct horse"}),
        )
        .await;
        r.assert_error(400, "invalid_username");
    }
    let r = register(
        &mut h.client(),
        json!({"username": "guesthouse", "password": "correct horse"}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text);
}
