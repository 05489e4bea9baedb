//! The page is type-checked against static/js/messages.js; this keeps that file in step
//! with what the server really sends. Real games (flip to its end, a standard deployment
//! and play with marks, a spectator, the lobby, 四国 tables open, deploying, in play and
//! over) are played over the sockets, and every
//! message any socket received — and the replay and the game summary — must match its
//! declared type exactly: no undeclared field, no missing required one, no wrong kind
//! of value. Every message type the page declares must also have been seen.

#[macro_use]
mod support;
#[path = "support/jsdoc.rs"]
mod jsdoc;

use jsdoc::Types;
use serde_json::{Value, json};
use std::collections::BTreeSet;
use support::drawn::Drawn;
use support::{Client, Harness, Socket, TestDb};

db_tests! {
    messages_match_the_page_types => messages_match_the_page_types_sqlite, messages_match_the_page_types_postgres;
}

fn page_types() -> Types {
    jsdoc::page_types()
}

/// The latest legal actions sent on `s`, from its newest state or event.
fn latest_legal(s: &Socket) -> Vec<Value> {
    for m in s.received.iter().rev() {
        match m["t"].as_str() {
            Some("event") => return m["d"]["legal"].as_array().cloned().unwrap_or_default(),
            Some("state") if !m["d"]["view"].is_null() => {
                return m["d"]["view"]["legal"].as_array().cloned().unwrap();
            }
            _ => {}
        }
    }
    Vec::new()
}

fn message(action: &Value) -> (&'static str, Value) {
    match (action.get("flip"), action.get("move")) {
        (Some(at), _) => ("flip", json!({"at": at})),
        (_, Some(m)) => ("move", m.clone()),
        _ => panic!("legal lists flips and moves: {action}"),
    }
}

/// Waits until both sockets have been told of version `v`, so that their latest
/// legal actions are those of the game now.
async fn caught_up(sockets: &mut [Socket; 2], v: u64) {
    for s in sockets.iter_mut() {
        s.wait_version(v).await;
    }
}

/// From version `v`, where both seats' sockets have the game's running state, plays
/// the first legal action of whichever seat has some, `n` times, or until the game
/// ends. Returns the version reached.
async fn play(sockets: &mut [Socket; 2], mut v: u64, n: usize) -> u64 {
    for _ in 0..n {
        caught_up(sockets, v).await;
        let Some(i) = (0..2).find(|&i| !latest_legal(&sockets[i]).is_empty()) else {
            return v;
        };
        let (t, d) = message(&latest_legal(&sockets[i])[0]);
        v = sockets[i].act(t, d).await.expect("a legal action is taken");
    }
    caught_up(sockets, v).await;
    v
}

/// Waits for the running game's state on each of `sockets` (one connected before the
/// join also has the open game's state, at the same version 0).
async fn running(sockets: &mut [Socket; 2]) {
    for s in sockets.iter_mut() {
        let started = |m: &Value| m["t"] == "state" && m["d"]["game"]["status"] == "running";
        if !s.received.iter().any(started) {
            s.wait_for("the running game's state", started).await;
        }
    }
}

async fn flip_game(h: &Harness, out: &mut Vec<Value>, extra: &mut Vec<(&'static str, Value)>) {
    let mut a = h.player("types_a").await;
    // A bot on its token: its player references carry `"kind":"bot"`.
    let mut b = h.bot("types_b").await.client;
    let mut lobby = h.client().socket("/ws/lobby").await;
    // A player's lobby socket hears their challenges: one from a third player.
    let mut own_lobby = a.socket("/ws/lobby").await;
    let mut c = h.player("types_challenger").await;
    let r = c
        .post(
            "/api/challenges",
            json!({"to": "types_a", "variant": "flip", "seconds_per_action": 30, "rated": false}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    own_lobby
        .wait_for("the challenge", |m| {
            m["t"] == "challenges" && m["d"]["incoming"].as_array().is_some_and(|a| !a.is_empty())
        })
        .await;
    out.append(&mut own_lobby.received);
    let id = open_game(&mut a).await;
    let sa = a.game_socket(&id).await;
    let mut watcher = h.client().game_socket(&id).await;
    b.join(&id).await;
    let sb = b.game_socket(&id).await;
    let mut sockets = [sa, sb];
    running(&mut sockets).await;
    let v = play(&mut sockets, 0, 55).await;
    assert!(
        v >= 50,
        "the game ended after {v} steps, before a resignation is allowed"
    );
    // 托管: the seat to move hands it to the computer, whose step comes marked, and
    // takes it back (presence messages with each seat's 托管 and the player's `can`).
    let mover = (0..2)
        .find(|&i| !latest_legal(&sockets[i]).is_empty())
        .expect("a seat is to move");
    sockets[mover]
        .act("tuoguan", json!({"on": true}))
        .await
        .unwrap();
    let v = v + 1;
    caught_up(&mut sockets, v).await;
    sockets[mover]
        .act("tuoguan", json!({"on": false}))
        .await
        .unwrap();
    // An error, a pong and a phrase.
    sockets[0]
        .act_err("move", json!({"from": "a1", "to": "e12"}), "illegal")
        .await;
    sockets[0].send(json!({"t": "ping"})).await;
    sockets[0].wait_for("a pong", |m| m["t"] == "pong").await;
    sockets[0]
        .act("phrase", json!({"id": "hello"}))
        .await
        .unwrap();
    sockets[1]
        .wait_for("the phrase", |m| m["t"] == "phrase")
        .await;
    // Presence, as a socket goes and comes back.
    let mut gone = std::mem::replace(&mut sockets[1], h.client().socket("/ws/lobby").await);
    out.append(&mut gone.received);
    gone.close().await;
    sockets[0]
        .wait_for("presence", |m| m["t"] == "presence")
        .await;
    let mut spare = std::mem::replace(&mut sockets[1], b.game_socket(&id).await);
    spare
        .wait_for("the lobby list", |m| m["t"] == "lobby")
        .await;
    out.append(&mut spare.received);
    // The seat to move resigns (allowed after 50 steps), and the game ends.
    caught_up(&mut sockets, v).await;
    let mover = (0..2)
        .find(|&i| !latest_legal(&sockets[i]).is_empty())
        .expect("a seat is to move");
    sockets[mover].act("resign", Value::Null).await.unwrap();
    for s in sockets.iter_mut().chain([&mut watcher]) {
        s.wait_for("the end", |m| {
            m["t"] == "event" && m["d"].get("result").is_some()
        })
        .await;
        s.barrier().await;
    }
    lobby
        .wait_for("the lobby list", |m| m["t"] == "lobby")
        .await;
    // A fresh state of the finished game, as a player and as a spectator.
    for c in [&a, &h.client()] {
        let mut s = c.game_socket(&id).await;
        s.wait_state().await;
        out.append(&mut s.received);
    }
    for s in sockets.iter_mut().chain([&mut watcher, &mut lobby]) {
        out.append(&mut s.received);
    }
    let r = a.get(&format!("/api/games/{id}/replay")).await;
    assert_eq!(r.status, 200, "{}", r.text);
    extra.push(("Replay", r.json));
    let summary = a.summary(&id).await;
    let kinds: BTreeSet<&str> = ["south", "north"]
        .iter()
        .filter_map(|seat| summary["players"][*seat]["kind"].as_str())
        .collect();
    assert_eq!(kinds, BTreeSet::from(["bot", "person"]), "{summary}");
    extra.push(("GameSummary", summary));
    extra.push(("Player", a.player("types_b").await));
}

async fn standard_game(h: &Harness, out: &mut Vec<Value>) {
    let mut a = h.player("types_c").await;
    let mut b = h.player("types_d").await;
    let id = open_game_of(&mut a, "standard").await;
    let sa = a.game_socket(&id).await;
    b.join(&id).await;
    let sb = b.game_socket(&id).await;
    let mut sockets = [sa, sb];
    for s in sockets.iter_mut() {
        s.wait_for("the deployment", |m| {
            m["t"] == "state" && !m["d"]["deploy"].is_null()
        })
        .await;
        s.act("random_layout", Value::Null).await.unwrap();
        s.act("ready", Value::Null).await.unwrap();
        // A refused deployment command carries its reason.
        let e = s
            .act("swap", json!({"a": "a1", "b": "b1"}))
            .await
            .expect_err("no swap after ready");
        assert!(e["reason"].is_string(), "{e}");
    }
    for s in sockets.iter_mut() {
        let play = |m: &Value| m["t"] == "state" && m["v"] == 1;
        if !s.received.iter().any(play) {
            s.wait_for("play", play).await;
        }
    }
    play(&mut sockets, 1, 6).await;
    // A mark on an enemy piece: south marks north's half and north marks south's.
    for s in sockets.iter_mut() {
        let state_you = s
            .received
            .iter()
            .rev()
            .find(|m| m["t"] == "state")
            .map(|m| m["d"]["you"].clone())
            .unwrap();
        // The board as it stands after the moves, drawn from the state and its events.
        let mut drawn = Drawn::default();
        drawn.follow(&s.received);
        let enemy = drawn
            .board
            .iter()
            .find(|(_, c)| c.get("piece").is_none())
            .map(|(sq, _)| sq.clone())
            .expect("an enemy piece on the board");
        s.act("mark", json!({"at": enemy, "mark": "旅"}))
            .await
            .unwrap_or_else(|e| panic!("{state_you} marks {enemy}: {e}"));
        s.wait_for("marks", |m| m["t"] == "marks").await;
    }
    for s in sockets.iter_mut() {
        s.barrier().await;
        out.append(&mut s.received);
    }
}

/// 四国 tables: an open one with two people, the computer and a spectator; and a person
/// with three computers, deployed, a few moves played, then the server playing the
/// person's seat (托管) to the end, seen by a spectator in play and at the end.
async fn siguo_tables(h: &Harness, out: &mut Vec<Value>) {
    let mut e = h.player("types_e").await;
    let f = h.player("types_f").await;
    let r = e
        .post("/api/tables", json!({"seconds_per_action": 30}))
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let open = r.json["id"].as_str().unwrap().to_string();
    let mut se = e.game_socket(&open).await;
    let mut sf = f.game_socket(&open).await;
    let mut watcher = h.client().game_socket(&open).await;
    sf.act("sit", json!({"seat": "east"})).await.expect("sit");
    se.act("seat_computer", json!({"seat": "north", "level": "easy"}))
        .await
        .expect("the computer sits");
    sf.act("ready", Value::Null).await.expect("ready");
    for s in [&mut se, &mut sf, &mut watcher] {
        s.barrier().await;
        out.append(&mut s.received);
    }

    let r = e
        .post(
            "/api/tables",
            json!({"seconds_per_action": 30, "computer": "easy", "options": {"alliance": "opposite"}}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let id = r.json["id"].as_str().unwrap().to_string();
    let mut s = e.game_socket(&id).await;
    let is_table = |m: &Value, phase: &str| m["t"] == "table" && m["d"]["phase"] == phase;
    s.wait_for("the deployment", |m| is_table(m, "deploying"))
        .await;
    s.act("random_layout", Value::Null).await.unwrap();
    s.act("ready", Value::Null).await.unwrap();
    let mut moved = 0;
    loop {
        let m = s.wait_for("the table", |m| m["t"] == "table").await;
        let d = &m["d"];
        if d["phase"] == "over" {
            break;
        }
        let legal = d["legal"].as_array().cloned().unwrap_or_default();
        if d["phase"] != "playing" || legal.is_empty() || moved > 4 {
            continue;
        }
        if moved == 4 {
            // A spectator's cut of the game in play (read at once: a socket that falls
            // behind is closed).
            let mut watcher = h.client().game_socket(&id).await;
            watcher
                .wait_for("the game", |m| is_table(m, "playing"))
                .await;
            out.append(&mut watcher.received);
            s.act("tuoguan", json!({"on": true})).await.expect("托管");
        } else {
            let mv = &legal[0];
            s.act("move", json!({"from": mv[0], "to": mv[1]}))
                .await
                .expect("a legal move");
        }
        moved += 1;
    }
    let mut watcher = h.client().game_socket(&id).await;
    watcher.wait_for("the end", |m| is_table(m, "over")).await;
    // 再来一局: the computer agrees at once, so the new table follows.
    s.act("rematch", Value::Null).await.expect("a rematch");
    s.barrier().await;
    assert!(
        (s.received.iter()).any(|m| m["t"] == "table" && m["d"]["rematch"]["next"].is_string()),
        "the new table's id was sent"
    );
    for s in [&mut s, &mut watcher] {
        out.append(&mut s.received);
    }
}

async fn open_game(a: &mut Client) -> String {
    open_game_of(a, "flip").await
}

async fn open_game_of(a: &mut Client, variant: &str) -> String {
    let r = a
        .post(
            "/api/games",
            json!({"variant": variant, "seconds_per_action": 60, "rated": false}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    r.json["id"].as_str().unwrap().to_string()
}

async fn messages_match_the_page_types(db: TestDb) {
    let types = page_types();
    let h = Harness::start(db);
    let mut seen = Vec::new();
    let mut answers = Vec::new();
    flip_game(&h, &mut seen, &mut answers).await;
    standard_game(&h, &mut seen).await;
    siguo_tables(&h, &mut seen).await;

    let server_msg = types.get("ServerMsg").clone();
    let mut tags = BTreeSet::new();
    for m in &seen {
        if let Err(e) = types.check(&server_msg, m, "message") {
            let t = m["t"].as_str().unwrap_or("?");
            // The union's error lists every alternative; the one for this `t` says why.
            let name = format!("{}{}Msg", t[..1].to_uppercase(), &t[1..]);
            let why = types.check(types.get(&name), m, t).err().unwrap_or(e);
            panic!("the server sent a message the page's types do not allow:\n{why}\n{m}");
        }
        tags.insert(m["t"].as_str().unwrap().to_string());
    }
    let declared: BTreeSet<String> = types.message_tags("ServerMsg").into_iter().collect();
    assert_eq!(
        tags, declared,
        "every message type the page declares was seen, and no other"
    );
    // The page's PlayerRef names the kinds there are, and no other.
    let mut robot = answers
        .iter()
        .find(|(n, _)| *n == "GameSummary")
        .map(|(_, v)| v["creator"].clone())
        .unwrap();
    types
        .check(types.get("PlayerRef"), &robot, "PlayerRef")
        .unwrap();
    robot["kind"] = json!("robot");
    assert!(
        types
            .check(types.get("PlayerRef"), &robot, "PlayerRef")
            .is_err()
    );
    for (name, value) in &answers {
        types
            .check(types.get(name), value, name)
            .unwrap_or_else(|e| panic!("{name} does not match the page's type: {e}"));
    }
}
