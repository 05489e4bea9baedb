//! Where people find each other (issue 20): following players and seeing who of them is
//! online and playing, challenging a player by name (heard live on their lobby socket,
//! accepted into a game with both seated, declined, cancelled, lapsed), blocking (no
//! challenges, no phrases shown to the blocker), and the lobby's 在线 count. Each
//! refusal changes nothing. On SQLite and PostgreSQL.

#[macro_use]
mod support;

use diesel::prelude::*;
use serde_json::{Value, json};
use support::{Client, Harness, Socket, TestDb};

db_tests! {
    followed_players_show_online_and_playing => followed_players_show_online_and_playing_sqlite, followed_players_show_online_and_playing_postgres;
    an_accepted_challenge_seats_both_players => an_accepted_challenge_seats_both_players_sqlite, an_accepted_challenge_seats_both_players_postgres;
    challenges_are_declined_cancelled_and_refused => challenges_are_declined_cancelled_and_refused_sqlite, challenges_are_declined_cancelled_and_refused_postgres;
    a_challenge_lapses_after_five_minutes => a_challenge_lapses_after_five_minutes_sqlite, a_challenge_lapses_after_five_minutes_postgres;
    a_block_stops_challenges_and_phrases => a_block_stops_challenges_and_phrases_sqlite, a_block_stops_challenges_and_phrases_postgres;
}

fn casual_flip(to: &str) -> Value {
    json!({"to": to, "variant": "flip", "seconds_per_action": 30, "rated": false})
}

async fn challenge(from: &mut Client, body: Value) -> String {
    let r = from.post("/api/challenges", body).await;
    assert_eq!(r.status, 201, "challenge: {}", r.text);
    r.json["id"].as_str().expect("a challenge id").to_string()
}

/// The friends list's row for `name`.
async fn friend(c: &mut Client, name: &str) -> Option<Value> {
    let r = c.get("/api/friends").await;
    assert_eq!(r.status, 200, "{}", r.text);
    r.json["following"]
        .as_array()
        .expect("a list")
        .iter()
        .find(|f| f["username"] == name)
        .cloned()
}

/// Waits on a lobby socket for challenge lists that satisfy `pred`.
async fn lists(s: &mut Socket, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
    s.wait_for(what, |m| m["t"] == "challenges" && pred(&m["d"]))
        .await
}

fn status_of(d: &Value, side: &str, id: &str) -> Option<String> {
    d[side]
        .as_array()?
        .iter()
        .find(|c| c["id"] == id)
        .map(|c| c["status"].as_str().unwrap_or("").to_string())
}

async fn followed_players_show_online_and_playing(db: TestDb) {
    let h = Harness::start(db);
    let mut alice = h.player("alice").await;
    let mut bob = h.player("bob").await;
    let mut carol = h.player("carol").await;

    // Refusals change nothing.
    alice
        .post("/api/follows", json!({"name": "alice"}))
        .await
        .assert_error(400, "bad_request");
    alice
        .post("/api/follows", json!({"name": "nobody"}))
        .await
        .assert_error(404, "not_found");
    alice
        .post("/api/follows", json!({"name": "bob", "extra": 1}))
        .await
        .assert_error(400, "bad_request");
    let mut guest = h.client();
    assert_eq!(guest.post_empty("/api/guest").await.status, 201);
    guest
        .post("/api/follows", json!({"name": "bob"}))
        .await
        .assert_error(403, "guest_no_friends");
    h.client()
        .get("/api/friends")
        .await
        .assert_error(401, "not_logged_in");
    assert!(friend(&mut alice, "bob").await.is_none());

    for name in ["bob", "bob", "carol"] {
        let r = alice.post("/api/follows", json!({"name": name})).await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
    let listed = alice.get("/api/friends").await.json["following"].clone();
    assert_eq!(
        listed.as_array().unwrap().len(),
        2,
        "followed once each: {listed}"
    );
    let b = friend(&mut alice, "bob").await.unwrap();
    assert_eq!(b["online"], false, "{b}");
    assert!(b["playing"].is_null(), "{b}");

    // Bob comes to the lobby: online. The lobby counts him (and the visitor).
    let bob_lobby = bob.socket("/ws/lobby").await;
    let mut visitor = Socket::connect(&h.base(), "/ws/lobby", None, None)
        .await
        .expect("a visitor's lobby socket");
    assert_eq!(friend(&mut alice, "bob").await.unwrap()["online"], true);
    let counted = visitor
        .wait_for("the lobby to count two here", |m| {
            m["t"] == "lobby" && m["d"]["online"].as_u64() == Some(2)
        })
        .await;
    assert_eq!(counted["d"]["online"], 2);

    // Bob and Carol play: both show the game.
    let id = bob.create_game(30, false).await;
    carol.join(&id).await;
    for name in ["bob", "carol"] {
        let f = friend(&mut alice, name).await.unwrap();
        assert_eq!(f["playing"], id.as_str(), "{f}");
    }
    // The page says so too.
    let page = alice.get("/friends").await;
    assert_eq!(page.status, 200);
    assert!(page.text.contains(&format!("/game/{id}")), "{}", page.text);
    assert!(page.text.contains("data-state=\"playing\""));

    drop(bob_lobby);
    let r = alice.delete("/api/follows/carol").await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(friend(&mut alice, "carol").await.is_none());
    assert!(friend(&mut alice, "bob").await.is_some());
}

async fn an_accepted_challenge_seats_both_players(db: TestDb) {
    let h = Harness::start(db);
    let mut alice = h.player("alice").await;
    let mut bob = h.player("bob").await;
    let mut carol = h.player("carol").await;
    let mut bob_lobby = bob.socket("/ws/lobby").await;
    let mut alice_lobby = alice.socket("/ws/lobby").await;
    lists(&mut bob_lobby, "bob's first lists", |d| {
        d["incoming"].as_array().is_some_and(|a| a.is_empty())
    })
    .await;

    let body = json!({"to": "bob", "variant": "standard", "seconds_per_action": 15, "rated": true});
    let id = challenge(&mut alice, body).await;
    let heard = lists(&mut bob_lobby, "bob to hear the challenge", |d| {
        status_of(d, "incoming", &id).as_deref() == Some("pending")
    })
    .await;
    let c = &heard["d"]["incoming"][0];
    assert_eq!(c["from"]["username"], "alice", "{c}");
    assert_eq!(c["variant"], "standard");
    assert_eq!(c["seconds_per_action"], 15);
    assert_eq!(c["rated"], true);
    lists(&mut alice_lobby, "alice to see it sent", |d| {
        status_of(d, "outgoing", &id).as_deref() == Some("pending")
    })
    .await;

    // Only Bob may accept; a stranger's try changes nothing.
    carol
        .post_empty(&format!("/api/challenges/{id}/accept"))
        .await
        .assert_error(404, "not_found");
    alice
        .post_empty(&format!("/api/challenges/{id}/accept"))
        .await
        .assert_error(403, "forbidden");
    let r = bob
        .post_empty(&format!("/api/challenges/{id}/accept"))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let game = r.json["game"].as_str().expect("the game").to_string();
    let row = h.row(&game);
    assert_eq!(row.status, "running", "the game has started");
    assert_eq!(row.variant, "standard");
    assert!(row.rated);
    assert_eq!(row.seconds_per_action, 15);
    let mut seated = [row.south_id.unwrap(), row.north_id.unwrap()];
    seated.sort_unstable();
    let ids = {
        use junqi::db::schema::users;
        let mut c = h.conn();
        let mut ids: Vec<i64> = users::table
            .filter(users::username.eq_any(["alice", "bob"]))
            .select(users::id)
            .load(&mut **c)
            .unwrap();
        ids.sort_unstable();
        ids
    };
    assert_eq!(seated.to_vec(), ids, "both players are seated");

    // Alice hears the answer with the game, and the game is not in the open list.
    let told = lists(&mut alice_lobby, "alice to hear the acceptance", |d| {
        status_of(d, "outgoing", &id).as_deref() == Some("accepted")
    })
    .await;
    assert_eq!(told["d"]["outgoing"][0]["game"], game.as_str());
    let open = h.client().get("/api/games/open").await.json;
    assert!(!open.to_string().contains(&game), "{open}");
    // Twice is once.
    bob.post_empty(&format!("/api/challenges/{id}/accept"))
        .await
        .assert_error(409, "challenge_answered");
}

async fn challenges_are_declined_cancelled_and_refused(db: TestDb) {
    let h = Harness::start(db);
    let mut alice = h.player("alice").await;
    let mut bob = h.player("bob").await;
    let mut alice_lobby = alice.socket("/ws/lobby").await;

    for (body, status, code) in [
        (casual_flip("alice"), 400, "bad_request"),
        (casual_flip("nobody"), 404, "not_found"),
        (casual_flip("computer-easy"), 400, "bad_request"),
        (
            json!({"to": "bob", "variant": "siguo", "seconds_per_action": 30, "rated": false}),
            400,
            "bad_option",
        ),
        (
            json!({"to": "bob", "variant": "flip", "seconds_per_action": 20, "rated": true}),
            400,
            "bad_option",
        ),
        (
            json!({"to": "bob", "variant": "flip", "seconds_per_action": 30, "rated": false, "colour": "red"}),
            400,
            "bad_request",
        ),
        (
            json!({"variant": "flip", "seconds_per_action": 30, "rated": false}),
            400,
            "bad_request",
        ),
    ] {
        let r = alice.post("/api/challenges", body.clone()).await;
        let kind = r.json["error"]["code"].clone();
        // An unknown computer name is not found; the site's own are refused by kind.
        if body["to"] == "computer-easy" && r.status == 404 {
            continue;
        }
        assert_eq!(
            (r.status, kind.as_str().unwrap_or("")),
            (status, code),
            "{body}: {}",
            r.text
        );
    }
    let none = bob.get("/api/challenges").await.json;
    assert_eq!(
        none["d"]["incoming"],
        json!([]),
        "refusals stored nothing: {none}"
    );

    // Declined: Alice hears it.
    let first = challenge(&mut alice, casual_flip("bob")).await;
    alice
        .post("/api/challenges", casual_flip("bob"))
        .await
        .assert_error(409, "challenge_waiting");
    alice
        .post_empty(&format!("/api/challenges/{first}/decline"))
        .await
        .assert_error(403, "forbidden");
    let r = bob
        .post_empty(&format!("/api/challenges/{first}/decline"))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    lists(&mut alice_lobby, "alice to hear the decline", |d| {
        status_of(d, "outgoing", &first).as_deref() == Some("declined")
    })
    .await;
    bob.post_empty(&format!("/api/challenges/{first}/accept"))
        .await
        .assert_error(409, "challenge_answered");

    // Cancelled by Alice: gone from Bob's list; Bob cannot cancel it.
    let second = challenge(&mut alice, casual_flip("bob")).await;
    bob.post_empty(&format!("/api/challenges/{second}/cancel"))
        .await
        .assert_error(403, "forbidden");
    let r = alice
        .post_empty(&format!("/api/challenges/{second}/cancel"))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let left = bob.get("/api/challenges").await.json;
    assert_eq!(left["d"]["incoming"], json!([]), "{left}");

    // At most five waiting at once.
    for i in 0..5 {
        let name = format!("friend{i}");
        h.player(&name).await;
        challenge(&mut alice, casual_flip(&name)).await;
    }
    h.player("friend5").await;
    alice
        .post("/api/challenges", casual_flip("friend5"))
        .await
        .assert_error(409, "too_many_challenges");

    // Accepting keeps to the caps: Bob with three rated games in hand cannot accept a
    // rated challenge, and it waits on for a later try.
    let rated = challenge(
        &mut bob,
        json!({"to": "alice", "variant": "flip", "seconds_per_action": 30, "rated": true}),
    )
    .await;
    for _ in 0..3 {
        bob.create_game(30, true).await;
    }
    alice
        .post_empty(&format!("/api/challenges/{rated}/accept"))
        .await
        .assert_error(409, "too_many_rated_games");
    let still = alice.get("/api/challenges").await.json;
    assert_eq!(
        status_of(&still["d"], "incoming", &rated).as_deref(),
        Some("pending"),
        "{still}"
    );
}

async fn a_challenge_lapses_after_five_minutes(db: TestDb) {
    let h = Harness::start(db);
    let mut alice = h.player("alice").await;
    let mut bob = h.player("bob").await;
    let mut alice_lobby = alice.socket("/ws/lobby").await;
    let id = challenge(&mut alice, casual_flip("bob")).await;
    // Made five minutes and a second ago.
    {
        use junqi::db::schema::challenges;
        let mut c = h.conn();
        let old = junqi::db::now_ms() - 5 * 60 * 1000 - 1000;
        diesel::update(challenges::table.find(&id))
            .set(challenges::created_at.eq(old))
            .execute(&mut **c)
            .unwrap();
    }
    bob.post_empty(&format!("/api/challenges/{id}/accept"))
        .await
        .assert_error(409, "challenge_answered");
    // The sweep marks it, and Alice hears that nobody answered.
    lists(&mut alice_lobby, "alice to hear it lapsed", |d| {
        status_of(d, "outgoing", &id).as_deref() == Some("expired")
    })
    .await;
    let l = bob.get("/api/challenges").await.json;
    assert_eq!(l["d"]["incoming"], json!([]), "{l}");
    // It no longer counts as waiting: Alice may challenge Bob again.
    challenge(&mut alice, casual_flip("bob")).await;
}

async fn a_block_stops_challenges_and_phrases(db: TestDb) {
    let h = Harness::start(db);
    let mut alice = h.player("alice").await;
    let mut bob = h.player("bob").await;
    let waiting = challenge(&mut alice, casual_flip("bob")).await;

    let r = bob.post("/api/blocks", json!({"name": "alice"})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let page = bob.get("/friends").await;
    assert!(page.text.contains("id=\"blocked-list\""), "{}", page.text);
    // What waited is cancelled; no new one goes through, either way.
    let l = bob.get("/api/challenges").await.json;
    assert_eq!(l["d"]["incoming"], json!([]), "{l}");
    bob.post_empty(&format!("/api/challenges/{waiting}/accept"))
        .await
        .assert_error(409, "challenge_answered");
    alice
        .post("/api/challenges", casual_flip("bob"))
        .await
        .assert_error(403, "blocked");
    bob.post("/api/challenges", casual_flip("alice"))
        .await
        .assert_error(403, "you_blocked");

    // In a game between them, Alice's phrases reach everyone but Bob.
    let id = alice.create_game(30, false).await;
    bob.join(&id).await;
    let mut a = alice.game_socket(&id).await;
    let mut b = bob.game_socket(&id).await;
    let mut watcher = Socket::connect(&h.base(), &format!("/ws/game/{id}"), None, None)
        .await
        .expect("a spectator's socket");
    for s in [&mut a, &mut b, &mut watcher] {
        s.wait_state().await;
    }
    a.act("phrase", json!({"id": "hello"}))
        .await
        .expect("the phrase is acknowledged as ever");
    watcher
        .wait_for("the spectator to hear alice", |m| m["t"] == "phrase")
        .await;
    // Bob's own phrase goes through, and Alice hears it: after it, Bob's socket has had
    // everything sent before, and no phrase of Alice's among it.
    b.act("phrase", json!({"id": "thanks"}))
        .await
        .expect("bob may speak");
    let heard = a
        .wait_for("alice to hear bob", |m| {
            m["t"] == "phrase" && m["d"]["id"] == "thanks"
        })
        .await;
    assert_eq!(heard["t"], "phrase");
    b.barrier().await;
    let to_bob: Vec<&Value> = b.received.iter().filter(|m| m["t"] == "phrase").collect();
    assert!(
        to_bob.iter().all(|m| m["d"]["id"] != "hello"),
        "the blocker does not see the blocked player's phrases: {to_bob:?}"
    );

    // Unblocked, challenges go through again.
    let r = bob.delete("/api/blocks/alice").await;
    assert_eq!(r.status, 200, "{}", r.text);
    challenge(&mut alice, casual_flip("bob")).await;
}
