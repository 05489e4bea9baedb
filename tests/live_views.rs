//! What each viewer is told is enough to draw the game with no rules: board deltas,
//! routes, counters, the legal actions of the seat to move, the replay, analysis of a
//! partly seen position, and the phrases players send each other. Every check is
//! against the true game, mirrored here from the real deal.

#[macro_use]
mod support;

use junqi::record::Setup;
use junqi::rules::board::neighbours;
use junqi::rules::view::{self, Status};
use junqi::rules::{Action, Game, Layout, Options, Seat, Square, Variant, View, Viewer};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use support::drawn::{Drawn, apply};
use support::policy::{self, Rng};
use support::{Client, Harness, Socket, Table, TestDb, action_message};

db_tests! {
    flip_views_draw_the_game => flip_views_draw_the_game_sqlite, flip_views_draw_the_game_postgres;
    flip_views_draw_the_game_for_bots => flip_views_draw_the_game_for_bots_sqlite, flip_views_draw_the_game_for_bots_postgres;
    standard_views_draw_the_game => standard_views_draw_the_game_sqlite, standard_views_draw_the_game_postgres;
    phrases_reach_the_table => phrases_reach_the_table_sqlite, phrases_reach_the_table_postgres;
    analysis_takes_partial_views => analysis_takes_partial_views_sqlite, analysis_takes_partial_views_postgres;
}

/// A game watched by both seats and a spectator, mirrored from the true setup.
struct Watched {
    id: String,
    clients: Vec<Client>,
    sockets: Vec<Socket>,
    spectator: Client,
    watching: Socket,
    game: Game,
    version: u64,
    /// The true counters and tallies after each step, for the replay.
    statuses: Vec<Value>,
    tallies: Vec<Value>,
}

fn viewers() -> [Viewer; 3] {
    [
        Viewer::Seat(Seat::South),
        Viewer::Seat(Seat::North),
        Viewer::Spectator,
    ]
}

impl Watched {
    fn socket(&mut self, viewer: Viewer) -> &mut Socket {
        match viewer {
            Viewer::Seat(s) => &mut self.sockets[s.index()],
            _ => &mut self.watching,
        }
    }

    fn client(&self, viewer: Viewer) -> &Client {
        match viewer {
            Viewer::Seat(s) => &self.clients[s.index()],
            _ => &self.spectator,
        }
    }

    async fn play(&mut self, action: Action) {
        let seat = self.game.to_move();
        let (t, d) = match action {
            Action::Pass => ("pass", Value::Null),
            other => action_message(other),
        };
        let v = self.sockets[seat.index()]
            .act(t, d.clone())
            .await
            .unwrap_or_else(|e| panic!("{seat:?} {t} {d} refused: {e}"));
        self.game.apply(seat, action, None).unwrap();
        self.version += 1;
        assert_eq!(v, self.version);
        self.statuses
            .push(serde_json::to_value(Status::of(&self.game)).unwrap());
        self.tallies
            .push(serde_json::to_value(view::tallies(self.game.position())).unwrap());
    }

    /// A fresh state for `viewer`, from a new socket.
    async fn fresh_state(&self, viewer: Viewer) -> Value {
        let mut s = self.client(viewer).game_socket(&self.id).await;
        let st = s.wait_state().await;
        assert_eq!(st["v"], self.version, "{st}");
        st
    }

    /// Every viewer's socket, drawn from its own messages, shows exactly a fresh
    /// state's board and the true game's; the latest event's legal actions are the
    /// rules' for the seat to move and nobody else's. Returns each viewer's drawing.
    async fn check_drawn(&mut self) -> Vec<Drawn> {
        let mut drawn = Vec::new();
        for viewer in viewers() {
            let version = self.version;
            let s = self.socket(viewer);
            s.wait_for("the newest event", |m| {
                m["t"] == "event" && m["v"].as_u64() == Some(version)
            })
            .await;
            let mut d = Drawn::default();
            d.follow(&s.received);
            assert_eq!(d.v, self.version, "{viewer:?} drew every event");
            let truth = serde_json::to_value(View::of(&self.game, viewer).board).unwrap();
            assert_eq!(
                Value::Object(d.board.clone()),
                truth,
                "{viewer:?} at v{version}"
            );
            let st = self.fresh_state(viewer).await;
            assert_eq!(Value::Object(d.board.clone()), st["d"]["view"]["board"]);
            let last = d.last_event.clone().expect("an event came");
            check_legal(&self.game, viewer, &last["d"]);
            if !self.game.is_over() && viewer == Viewer::Seat(self.game.to_move()) {
                assert_eq!(last["d"]["legal"], st["d"]["view"]["legal"], "{viewer:?}");
            } else {
                assert_eq!(st["d"]["view"]["legal"], json!([]), "{viewer:?}");
            }
            assert_eq!(last["d"]["status"], json!(Status::of(&self.game)));
            // The state's `last` is the same step, as this viewer sees it.
            let mut without = last["d"].clone();
            for k in ["legal", "repetition_warnings", "clock"] {
                without.as_object_mut().unwrap().remove(k);
            }
            assert_eq!(st["d"]["last"], without, "{viewer:?}");
            drawn.push(d);
        }
        drawn
    }
}

fn action_set(v: &Value) -> BTreeSet<String> {
    v.as_array()
        .map(|a| a.iter().map(Value::to_string).collect())
        .unwrap_or_default()
}

/// The latest event carries the rules' legal actions to the seat to move only, and
/// the repetition warnings among them.
fn check_legal(game: &Game, viewer: Viewer, d: &Value) {
    match viewer {
        Viewer::Seat(s) if s == game.to_move() && !game.is_over() => {
            let mut truth = Vec::new();
            game.legal_actions(&mut truth);
            assert_eq!(action_set(&d["legal"]), action_set(&json!(truth)));
            let warnings = action_set(&d["repetition_warnings"]);
            assert!(warnings.is_subset(&action_set(&d["legal"])));
        }
        _ => {
            assert!(
                d.get("legal").is_none(),
                "{viewer:?} is sent no legal actions: {d}"
            );
            assert!(d.get("repetition_warnings").is_none());
        }
    }
}

fn square(v: &Value) -> Square {
    v.as_str().unwrap().parse().unwrap()
}

/// Every move event's route runs from `from` to `to` through neighbouring stations.
fn check_routes(messages: &[Value]) -> usize {
    let mut n = 0;
    for m in messages.iter().filter(|m| m["d"]["kind"] == "move") {
        let d = &m["d"];
        let route: Vec<Square> = d["route"].as_array().unwrap().iter().map(square).collect();
        assert_eq!(route.first(), Some(&square(&d["from"])), "{d}");
        assert_eq!(route.last(), Some(&square(&d["to"])), "{d}");
        for w in route.windows(2) {
            assert!(neighbours(w[0]).contains(w[1]), "{} to {}: {d}", w[0], w[1]);
        }
        n += 1;
    }
    n
}

/// A client that missed events since `from` catches up with `?v=` and, applying only
/// their deltas, reaches the fresh state's board.
async fn check_catch_up(w: &mut Watched, viewer: Viewer, from: &Drawn) {
    let mut s = w
        .client(viewer)
        .socket(&format!("/ws/game/{}?v={}", w.id, from.v))
        .await;
    let got = s.barrier().await;
    let mut d = from.clone();
    let applied = d.follow(&got);
    assert_eq!(applied as u64, w.version - from.v, "{viewer:?}");
    let st = w.fresh_state(viewer).await;
    assert_eq!(
        Value::Object(d.board),
        st["d"]["view"]["board"],
        "{viewer:?}"
    );
    let last = d.last_event.expect("events came");
    check_legal(&w.game, viewer, &last["d"]);
}

/// The seat to move asks analysis about what it sees (and what has been removed),
/// and is answered exactly the legal actions the socket sent it.
async fn check_analysis(w: &mut Watched) {
    if w.game.is_over() {
        return;
    }
    let seat = w.game.to_move();
    let st = w.fresh_state(Viewer::Seat(seat)).await;
    let view = &st["d"]["view"];
    let mut removed = Vec::new();
    for t in view["tallies"].as_array().unwrap() {
        for _ in 0..t["removed"].as_u64().unwrap() {
            removed.push(json!({"piece": t["piece"], "colour": t["colour"]}));
        }
    }
    let ask = json!({
        "variant": view["variant"],
        "to_move": view["to_move"],
        "colours": view["colours"],
        "board": view["board"],
        "removed": removed,
    });
    let r = w.clients[0].post("/api/analysis/moves", ask).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(action_set(&r.json["legal"]), action_set(&view["legal"]));
    assert!(!view["legal"].as_array().unwrap().is_empty());
}

/// The replay of the finished game: its deltas, laid over the start, give the final
/// position with every piece named, and its counters are the rules' at each step.
async fn check_replay(w: &mut Watched) {
    let r = w.clients[0]
        .get(&format!("/api/games/{}/replay", w.id))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let replay = r.json;
    let mut board = replay["start"]["board"].as_object().unwrap().clone();
    assert!(
        board
            .values()
            .all(|c| c["piece"].is_string() && c["colour"].is_string())
    );
    let steps = replay["steps"].as_array().unwrap();
    assert_eq!(steps.len(), w.statuses.len());
    for (i, step) in steps.iter().enumerate() {
        apply(&mut board, &step["board"]);
        assert_eq!(step["status"], w.statuses[i], "step {i}");
        if let Some(t) = step.get("tallies") {
            assert_eq!(t, &w.tallies[i], "step {i}");
        }
    }
    let truth: serde_json::Map<String, Value> = w
        .game
        .position()
        .tokens()
        .map(|(s, t)| {
            let face = if t.shown { "up" } else { "down" };
            (
                s.to_string(),
                json!({"piece": t.piece, "colour": t.colour, "face": face}),
            )
        })
        .collect();
    assert_eq!(board, truth);
    let result = &replay["result"];
    assert_eq!(
        result["score"],
        json!(
            w.game
                .score(1)
                .map(|s| json!({"south": s[0], "north": s[1]}))
        )
    );
    assert!(result["rule"]["code"].is_string(), "{result}");
    assert_eq!(steps.last().unwrap()["result"], *result);
}

async fn watched_flip(h: &Harness) -> Watched {
    watched_flip_by(h, false).await
}

/// Two players and a spectator: people (the spectator logged out), or bots on their
/// tokens (the spectator a third bot).
async fn watched_flip_by(h: &Harness, bots: bool) -> Watched {
    let a = h.player_or_bot("south_or_north", bots).await;
    let b = h.player_or_bot("north_or_south", bots).await;
    let table = Table::open(h, a, b, 60, false).await;
    let spectator = if bots {
        h.player_or_bot("bot_spectator", true).await
    } else {
        h.client()
    };
    let mut watching = spectator.game_socket(&table.id).await;
    watching.wait_state().await;
    let Table {
        id, seats, game, ..
    } = table;
    let (clients, sockets) = seats.into_iter().map(|s| (s.client, s.socket)).unzip();
    Watched {
        id,
        clients,
        sockets,
        spectator,
        watching,
        game,
        version: 0,
        statuses: Vec::new(),
        tallies: Vec::new(),
    }
}

async fn play_checked(w: &mut Watched, h: &Harness, rng: &mut Rng, standard: bool) {
    let checkpoints = [3u32, 12, 40];
    let mut saved: Option<Vec<Drawn>> = None;
    while !w.game.is_over() {
        let action = if w.game.steps() >= 160 && !standard {
            Action::Resign
        } else if standard {
            standard_choice(&w.game, rng)
        } else if w.game.to_move() == Seat::South {
            policy::attacker(&w.game, rng)
        } else {
            policy::defender(&w.game, rng)
        };
        w.play(action).await;
        if checkpoints.contains(&w.game.steps()) && !w.game.is_over() {
            let drawn = w.check_drawn().await;
            if let Some(before) = saved.take() {
                for (viewer, d) in viewers().into_iter().zip(&before) {
                    check_catch_up(w, viewer, d).await;
                }
            }
            check_analysis(w).await;
            saved = Some(drawn);
        }
    }
    w.check_drawn().await;
    if let Some(before) = saved {
        for (viewer, d) in viewers().into_iter().zip(&before) {
            check_catch_up(w, viewer, d).await;
        }
    }
    let mut moves = 0;
    for viewer in viewers() {
        moves += check_routes(&w.socket(viewer).received.clone());
    }
    assert!(moves > 0, "some moves were made");
    let _ = h;
}

/// In standard 军棋: a capture when one is open, else any move; resign past 150 steps.
fn standard_choice(game: &Game, rng: &mut Rng) -> Action {
    let legal = policy::legal(game);
    if game.steps() >= 150 {
        return Action::Resign;
    }
    let captures: Vec<Action> = legal
        .iter()
        .copied()
        .filter(|&a| policy::is_attack(game, a))
        .collect();
    let pool = if !captures.is_empty() && rng.below(3) > 0 {
        captures
    } else {
        legal
    };
    pool[rng.below(pool.len())]
}

/// (V1) Flip chess, both seats and a spectator: deltas draw exactly the fresh states,
/// at several points and after catching up; legal actions, routes, analysis, replay.
async fn flip_views_draw_the_game(db: TestDb) {
    let h = Harness::start(db);
    let mut w = watched_flip(&h).await;
    let running = w.clients[0]
        .get(&format!("/api/games/{}/replay", w.id))
        .await;
    running.assert_error(409, "conflict");
    w.clients[0]
        .get("/api/games/ZZZZZZZZ/replay")
        .await
        .assert_error(404, "not_found");
    let mut rng = Rng::new(91);
    play_checked(&mut w, &h, &mut rng, false).await;
    check_replay(&mut w).await;
}

/// (V1b) The same with bots in both seats and watching, each on its token alone: no
/// socket of a bot is told more than its seat (or a spectator) may see.
async fn flip_views_draw_the_game_for_bots(db: TestDb) {
    let h = Harness::start(db);
    let mut w = watched_flip_by(&h, true).await;
    let mut rng = Rng::new(93);
    play_checked(&mut w, &h, &mut rng, false).await;
    check_replay(&mut w).await;
}

/// (V2) The same in standard 军棋, deployed with random layouts; the end reveals
/// every piece through the deltas too.
async fn standard_views_draw_the_game(db: TestDb) {
    let h = Harness::start(db);
    let mut a = h.player("deployer_a").await;
    let b = h.player("deployer_b").await;
    let r = a
        .post(
            "/api/games",
            json!({"variant": "standard", "seconds_per_action": 60, "rated": false}),
        )
        .await;
    let id = r.json["id"].as_str().unwrap().to_string();
    let mut sa = a.game_socket(&id).await;
    let mut sb = b.game_socket(&id).await;
    sa.wait_state().await;
    sb.wait_state().await;
    let mut b = b;
    b.join(&id).await;
    let summary = a.summary(&id).await;
    let a_south = summary["players"]["south"]["username"] == a.name.as_str();
    let (clients, mut sockets) = if a_south {
        (vec![a, b], vec![sa, sb])
    } else {
        (vec![b, a], vec![sb, sa])
    };
    for s in &mut sockets {
        s.act("random_layout", Value::Null).await.unwrap();
        s.act("ready", Value::Null).await.unwrap();
    }
    for s in &mut sockets {
        s.wait_for("play", |m| m["t"] == "state" && m["v"] == 1)
            .await;
    }
    let row = h.row(&id);
    let v: Value = serde_json::from_str(row.deal.as_deref().unwrap()).unwrap();
    let Setup::Layouts { south, north } = Setup::parse(Variant::Standard, &v).unwrap() else {
        unreachable!()
    };
    let first = if row.first_seat.as_deref() == Some("south") {
        Seat::South
    } else {
        Seat::North
    };
    let options: Options = serde_json::from_str(&row.options).unwrap();
    let game = Game::new_standard(options, &south, &north, first);
    let _: (&Layout, &Layout) = (&south, &north);
    let spectator = h.client();
    let mut watching = spectator.game_socket(&id).await;
    watching.wait_state().await;
    let mut w = Watched {
        id,
        clients,
        sockets,
        spectator,
        watching,
        game,
        version: 1,
        statuses: Vec::new(),
        tallies: Vec::new(),
    };
    let mut rng = Rng::new(17);
    play_checked(&mut w, &h, &mut rng, true).await;
    // The end shows everyone every piece, through the last delta alone.
    for viewer in viewers() {
        let st = w.fresh_state(viewer).await;
        let board = st["d"]["view"]["board"].as_object().unwrap();
        assert!(board.values().all(|c| c["piece"].is_string()), "{viewer:?}");
        assert!(st["d"]["result"]["rule"]["code"].is_string(), "{st}");
    }
    check_replay(&mut w).await;
}

/// (V3) Phrases go to every socket of the game; spectators may not send them, unknown
/// ids are refused, and a flood is rate-limited without reaching anyone.
async fn phrases_reach_the_table(db: TestDb) {
    let h = Harness::start(db);
    let mut w = watched_flip(&h).await;
    let s = Seat::South;
    w.sockets[s.index()]
        .act("phrase", json!({"id": "hello"}))
        .await
        .expect("a player's phrase is acknowledged");
    // The second phrase goes at once: the limit (one every 3 s) runs on the server's
    // clock, so nothing slow may come between the two.
    w.sockets[s.index()]
        .act_err("phrase", json!({"id": "thanks"}), "rate_limited")
        .await;
    let want = json!({"t": "phrase", "d": {"seat": "south", "id": "hello"}});
    for viewer in viewers() {
        // South's own copy came before the refusal, and was passed over waiting for it.
        let s = w.socket(viewer);
        let got = match s.received.iter().find(|m| m["t"] == "phrase") {
            Some(m) => m.clone(),
            None => s.wait_for("the phrase", |m| m["t"] == "phrase").await,
        };
        assert_eq!(got, want, "{viewer:?}");
    }
    w.watching
        .act_err("phrase", json!({"id": "hello"}), "not_a_player")
        .await;
    w.sockets[s.index()]
        .act_err("phrase", json!({"id": "insult"}), "bad_message")
        .await;
    // Every refusal has been handled: whatever it sent has reached each socket.
    for viewer in viewers() {
        let s = w.socket(viewer);
        s.barrier().await;
        let phrases: Vec<&Value> = s.received.iter().filter(|m| m["t"] == "phrase").collect();
        assert_eq!(phrases, [&want], "{viewer:?} heard only the first phrase");
    }
    // The other seat has its own allowance.
    w.sockets[s.other().index()]
        .act("phrase", json!({"id": "thumbs_up"}))
        .await
        .expect("north may speak");
    let got = w
        .watching
        .wait_for("north's phrase", |m| m["t"] == "phrase")
        .await;
    assert_eq!(got["d"], json!({"seat": "north", "id": "thumbs_up"}));
}

/// (V4) Analysis of partial views: bad cells are a clear 400 and change nothing; a
/// flag stays guarded while a mine of its colour may still be face down.
async fn analysis_takes_partial_views(db: TestDb) {
    let h = Harness::start(db);
    let mut c = h.client();
    for (body, says) in [
        (
            json!({"variant": "flip", "to_move": "south", "board": {"a2": {"face": "up"}}}),
            "a2",
        ),
        (
            json!({"variant": "flip", "to_move": "south", "board": {"a2": {"piece": "mine", "face": "down"}}}),
            "a2",
        ),
        (
            json!({"variant": "standard", "to_move": "south", "board": {"a2": {"colour": "red", "face": "down"}}}),
            "name them",
        ),
        (
            json!({"variant": "standard", "to_move": "south", "board": {"a2": {"face": "down"}}}),
            "a2",
        ),
        (
            json!({"variant": "flip", "to_move": "south", "board": {}, "removed": [{"piece": "marshal", "colour": "red"}, {"piece": "marshal", "colour": "red"}]}),
            "marshal",
        ),
        (
            json!({"variant": "flip", "to_move": "south", "board": {"z9": {"face": "down"}}}),
            "z9",
        ),
    ] {
        let r = c.post("/api/analysis/moves", body.clone()).await;
        r.assert_error(400, "bad_request");
        assert!(r.text.contains(says), "{body}: {}", r.text);
    }
    // Red's flag on b1, a red engineer beside it, blue to attack with its marshal on
    // a1; one face-down piece somewhere could be a blue mine.
    let board = json!({
        "b1": {"piece": "flag", "colour": "blue", "face": "up"},
        "a1": {"piece": "marshal", "colour": "red", "face": "up"},
        "e12": {"face": "down"},
    });
    let ask = |removed: Value| {
        json!({"variant": "flip", "to_move": "south", "colours": {"south": "red", "north": "blue"},
               "board": board, "removed": removed})
    };
    let attack = json!({"move": {"from": "a1", "to": "b1"}});
    let r = c.post("/api/analysis/moves", ask(Value::Null)).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(
        !r.json["legal"].as_array().unwrap().contains(&attack),
        "guarded: {}",
        r.json
    );
    let all_blue_mines = json!([{"piece": "mine", "colour": "blue"}, {"piece": "mine", "colour": "blue"}, {"piece": "mine", "colour": "blue"}]);
    let r = c.post("/api/analysis/moves", ask(all_blue_mines)).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(
        r.json["legal"].as_array().unwrap().contains(&attack),
        "unguarded: {}",
        r.json
    );
    assert!(
        r.json["legal"]
            .as_array()
            .unwrap()
            .contains(&json!({"flip": "e12"}))
    );
}
