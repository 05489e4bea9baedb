//! Standard 军棋 over real sockets, on SQLite and PostgreSQL: deployment (swaps, whole
//! layouts, 出征, the time limit), play with hidden pieces, the flag shown when a
//! marshal falls, the headquarters lock, passes, the 30-step rule, and piece marks.

#[macro_use]
mod support;

use junqi::record::{Setup, layout_json, parse_layout};
use junqi::rules::{Action, EndReason, Game, Layout, Options, Piece, Seat, Square, Variant};
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde_json::{Value, json};
use support::hidden::assert_hidden;
use support::policy::{self, Rng};
use support::{Client, Harness, Socket, TestDb, action_message, check_against_rules};

/// A standard game between two players, by seat.
struct Std {
    id: String,
    clients: Vec<Client>,
    sockets: Vec<Socket>,
    version: u64,
}

impl Std {
    /// `a` opens a standard game and `b` joins; both sockets see the deployment begin.
    async fn deploying(mut a: Client, mut b: Client, rated: bool) -> Std {
        let r = a
            .post(
                "/api/games",
                json!({"variant": "standard", "seconds_per_action": 30, "rated": rated}),
            )
            .await;
        assert_eq!(r.status, 201, "create a standard game: {}", r.text);
        let id = r.json["id"].as_str().unwrap().to_string();
        let mut sa = a.game_socket(&id).await;
        let mut sb = b.game_socket(&id).await;
        for s in [&mut sa, &mut sb] {
            s.wait_state().await;
        }
        b.join(&id).await;
        let mut states = Vec::new();
        for s in [&mut sa, &mut sb] {
            states.push(
                s.wait_for("the deployment", |v| {
                    v["t"] == "state" && v["d"]["game"]["status"] == "running"
                })
                .await,
            );
        }
        let summary = a.summary(&id).await;
        assert_eq!(summary["variant"], "standard");
        let a_is_south = summary["players"]["south"]["username"] == a.name.as_str();
        for (st, seat) in states.iter().zip(if a_is_south {
            [Seat::South, Seat::North]
        } else {
            [Seat::North, Seat::South]
        }) {
            let d = &st["d"];
            assert_eq!(st["v"], 0);
            assert!(d["view"].is_null(), "no board before play: {st}");
            assert_eq!(d["you"], json!(seat));
            let deploy = &d["deploy"];
            assert_eq!(deploy["ready"], json!({"south": false, "north": false}));
            let remaining = deploy["remaining_ms"].as_i64().unwrap();
            let limit = deploy["seconds"].as_i64().unwrap() * 1000;
            assert!(remaining > 0 && remaining <= limit, "{deploy}");
            let layout = parse_layout(&deploy["layout"]).unwrap();
            assert!(
                layout.is_valid(seat),
                "a seat starts from a valid layout: {deploy}"
            );
            assert_eq!(deploy["violations"], json!([]));
            assert_eq!(
                deploy["colour"],
                json!(colour_of(seat)),
                "a player is told the colour it deploys: {deploy}"
            );
        }
        let (clients, sockets) = if a_is_south {
            (vec![a, b], vec![sa, sb])
        } else {
            (vec![b, a], vec![sb, sa])
        };
        Std {
            id,
            clients,
            sockets,
            version: 0,
        }
    }

    fn socket(&mut self, seat: Seat) -> &mut Socket {
        &mut self.sockets[seat.index()]
    }

    /// Replaces `seat`'s layout; its socket hears of the new layout.
    async fn set_layout(&mut self, seat: Seat, layout: &Layout) {
        let s = self.socket(seat);
        s.act("layout", json!({"layout": layout_json(layout)}))
            .await
            .unwrap_or_else(|e| panic!("layout refused: {e}"));
        let d = s.wait_for("the new layout", |v| v["t"] == "deploy").await;
        assert_eq!(d["d"]["layout"], layout_json(layout));
        assert_eq!(d["d"]["colour"], json!(colour_of(seat)));
    }

    /// Both seats ready, `first` first; returns the game as it starts (from the stored
    /// layouts), checked against what the sockets were told.
    async fn start(&mut self, h: &Harness, first: Seat) -> Game {
        self.socket(first).act("ready", Value::Null).await.unwrap();
        let other = first.other();
        let seen = self
            .socket(other)
            .wait_for("the other seat ready", |v| v["t"] == "deploy")
            .await;
        assert_eq!(seen["d"]["ready"][first.name()], true);
        assert_eq!(seen["d"]["ready"][other.name()], false);
        self.socket(other).act("ready", Value::Null).await.unwrap();
        for seat in Seat::BOTH {
            let st = self
                .socket(seat)
                .wait_for("the start of play", |v| v["t"] == "state" && v["v"] == 1)
                .await;
            assert!(st["d"]["deploy"].is_null());
            assert_eq!(
                st["d"]["view"]["to_move"],
                json!(first),
                "the seat ready first moves first"
            );
        }
        self.version = 1;
        game_of(h, &self.id)
    }

    async fn play(&mut self, game: &mut Game, seat: Seat, action: Action) {
        let (t, d) = match action {
            Action::Pass => ("pass", Value::Null),
            other => action_message(other),
        };
        let v = self
            .socket(seat)
            .act(t, d.clone())
            .await
            .unwrap_or_else(|e| panic!("{seat:?} {t} {d} refused: {e}"));
        game.apply(seat, action, None).unwrap();
        self.version += 1;
        assert_eq!(v, self.version, "{t} {d}");
    }

    async fn summary(&mut self) -> Value {
        let id = self.id.clone();
        self.clients[0].summary(&id).await
    }
}

/// The game as stored once play has begun: the true layouts and the first seat.
fn game_of(h: &Harness, id: &str) -> Game {
    let row = h.row(id);
    let (south, north) = layouts_of(h, id);
    let first = match row.first_seat.as_deref() {
        Some("south") => Seat::South,
        _ => Seat::North,
    };
    let options: Options = serde_json::from_str(&row.options).unwrap();
    Game::new_standard(options, &south, &north, first)
}

fn layouts_of(h: &Harness, id: &str) -> (Layout, Layout) {
    let row = h.row(id);
    let v: Value = serde_json::from_str(row.deal.as_deref().expect("layouts stored")).unwrap();
    match Setup::parse(Variant::Standard, &v).unwrap() {
        Setup::Layouts { south, north } => (south, north),
        Setup::Deal(_) => unreachable!(),
    }
}

/// The colour a standard seat plays, as the wire spells it (RULES: south red, north blue).
fn colour_of(seat: Seat) -> &'static str {
    match seat {
        Seat::South => "red",
        Seat::North => "blue",
    }
}

fn random_layout(seat: Seat, seed: u64) -> Layout {
    Layout::random(seat, &mut StdRng::seed_from_u64(seed))
}

/// Layouts and a policy seed for which South's attacker takes North's flag after
/// North's marshal has fallen, with South moving first and more than 30 steps played.
fn find_flag_win() -> (Layout, Layout, u64, Vec<(Seat, Action)>) {
    for seed in 1..400 {
        let south = random_layout(Seat::South, seed);
        let north = random_layout(Seat::North, seed + 1000);
        let mut g = Game::new_standard(Options::default(), &south, &north, Seat::South);
        let mut rng = Rng::new(seed);
        let mut actions = Vec::new();
        let mut marshal_fell = false;
        while !g.is_over() && g.steps() < 400 {
            let seat = g.to_move();
            let a = if seat == Seat::South {
                policy::attacker(&g, &mut rng)
            } else {
                policy::defender(&g, &mut rng)
            };
            let applied = g.apply(seat, a, None).unwrap();
            marshal_fell |= !applied.flags_revealed.is_empty();
            actions.push((seat, a));
        }
        let o = g.outcome();
        if marshal_fell
            && g.steps() > 30
            && o.is_some_and(|o| o.winner == Some(Seat::South) && o.reason == EndReason::Flag)
        {
            return (south, north, seed, actions);
        }
    }
    panic!("no seed gives a flag win after a marshal falls");
}

/// (1) From deployment to a flag win: layouts set whole, South ready first and moving
/// first, the flag shown to all when North's marshal falls, nothing hidden sent early,
/// score and record by the rules, and a fresh layout for each player next game.
async fn full_game_to_a_flag_win(db: TestDb) {
    flag_win_by(db, false).await;
}

/// (1b) The same between two bots on their tokens: nothing hidden reaches a bot early.
async fn full_game_between_bots(db: TestDb) {
    flag_win_by(db, true).await;
}

async fn flag_win_by(db: TestDb, bots: bool) {
    let h = Harness::start(db);
    let a = h.player_or_bot("guan_yu", bots).await;
    let b = h.player_or_bot("zhang_fei", bots).await;
    let mut t = Std::deploying(a, b, true).await;
    let mut spectator = h.client().game_socket(&t.id).await;
    let st = spectator.wait_state().await;
    assert!(
        st["d"]["deploy"]["layout"].is_null(),
        "spectators see no layout"
    );
    assert!(
        st["d"]["deploy"].get("colour").is_none(),
        "spectators play no colour: {st}"
    );

    let (south, north, seed, actions) = find_flag_win();
    t.set_layout(Seat::South, &south).await;
    t.set_layout(Seat::North, &north).await;
    let mut game = t.start(&h, Seat::South).await;
    assert_eq!(layouts_of(&h, &t.id), (south.clone(), north.clone()));
    // The spectator heard that south was ready, with no layout and no colour.
    let told = spectator
        .wait_for("south ready", |v| v["t"] == "deploy")
        .await;
    assert_eq!(told["d"]["ready"]["south"], true, "{told}");
    assert!(told["d"]["layout"].is_null(), "{told}");
    assert!(told["d"].get("colour").is_none(), "{told}");
    assert!(
        h.deployment(&t.id).is_none(),
        "the deployment is dropped once play begins"
    );

    // A fresh spectator sees both sides as backs only.
    let mut late = h.client().game_socket(&t.id).await;
    let st = late.wait_state().await;
    let board = st["d"]["view"]["board"].as_object().unwrap();
    assert_eq!(board.len(), 50);
    assert!(board.values().all(|c| c.get("piece").is_none()), "{st}");

    let mut anon = h.client();
    let mut revealed_at = None;
    let last = actions.len() - 1;
    for (i, (seat, action)) in actions.into_iter().enumerate() {
        if i == last {
            // An anonymous visitor's history page is cached for a second; the game's
            // end must show on it at once all the same.
            let before = anon.get("/games?variant=standard").await;
            assert!(!before.text.contains(&format!("/game/{}", t.id)));
        }
        t.play(&mut game, seat, action).await;
        if revealed_at.is_none() {
            let v = t.version;
            let ev = t
                .socket(Seat::South)
                .wait_for("the step's event", |m| m["t"] == "event" && m["v"] == v)
                .await;
            if let Some(flags) = ev["d"]["flags_revealed"].as_array() {
                revealed_at = Some(flags[0].as_str().unwrap().to_string());
            }
        }
    }
    assert!(game.is_over(), "seed {seed}");
    let flag_sq = revealed_at.expect("a marshal fell and its side's flag was shown");
    let flag: Square = flag_sq.parse().unwrap();
    assert_eq!(
        south.0.get(&flag).or(north.0.get(&flag)),
        Some(&Piece::Flag),
        "the shown square holds a flag"
    );

    let summary = t.summary().await;
    assert_eq!(summary["status"], "finished");
    assert_eq!(summary["result"], "south");
    assert_eq!(summary["reason"], "flag");
    assert_eq!(summary["score"], json!({"south": 1, "north": -1}));
    let record = t.clients[0].record(&t.id).await;
    assert_eq!(record["ruleset"], "standard");
    assert_eq!(
        record["layouts"],
        json!({"south": layout_json(&south), "north": layout_json(&north)})
    );
    assert_eq!(record["verified"], true);
    check_against_rules(&summary, &record);
    let south_name = t.clients[0].name.clone();
    let p = t.clients[0]
        .get(&format!("/api/players/{south_name}?variant=standard"))
        .await;
    assert_eq!(p.json["score"], 1, "{}", p.text);
    assert_eq!(p.json["wins"], 1);

    // Nothing either side or a spectator got before the end names a hidden enemy piece.
    for s in t.sockets.iter_mut().chain([&mut spectator, &mut late]) {
        s.barrier().await;
    }
    assert_hidden(&t.sockets[0].received, Some("red"));
    assert_hidden(&t.sockets[1].received, Some("blue"));
    assert_hidden(&spectator.received, None);
    assert_hidden(&late.received, None);
    // The flag was shown to the spectator too.
    assert!(spectator.received.iter().any(|m| {
        m["d"]["flags_revealed"]
            .as_array()
            .is_some_and(|f| f.contains(&json!(flag_sq)))
    }));
    // After the end everyone sees everything.
    let mut after = h.client().game_socket(&t.id).await;
    let st = after.wait_state().await;
    let board = st["d"]["view"]["board"].as_object().unwrap();
    assert!(board.values().all(|c| c.get("piece").is_some()), "{st}");

    let after_end = anon.get("/games?variant=standard").await;
    assert!(
        after_end.text.contains(&format!("/game/{}", t.id)),
        "a finished game shows on a cached page at once"
    );

    // History, ladder and profile show the game under its own variant.
    let c = &mut t.clients[0];
    let page = c.get("/games?variant=standard").await;
    assert!(page.text.contains(&format!("/game/{}", t.id)), "listed");
    assert!(page.text.contains("tag-standard"));
    let page = c.get("/games?variant=flip").await;
    assert!(
        !page.text.contains(&format!("/game/{}", t.id)),
        "not a flip game"
    );
    // Its own ladder: one point for the win here, none on the flip ladder.
    let row = |score: i32| format!("data-username=\"{south_name}\" data-score=\"{score}\"");
    let page = c.get("/ladder?variant=standard").await;
    assert!(page.text.contains(&row(1)), "on the standard ladder");
    let page = c.get("/ladder?variant=flip").await;
    assert!(
        !page.text.contains(&row(1)),
        "not scored on the flip ladder"
    );
    let page = c.get(&format!("/@/{south_name}?variant=standard")).await;
    assert_eq!(page.status, 200);
    assert!(
        page.text.contains(&format!("/game/{}", t.id)),
        "in recent games"
    );

    // The next game does not start either player from the layout they went to battle
    // with, which the record above showed their opponent.
    let (a, b) = {
        let mut c = t.clients.into_iter();
        (c.next().unwrap(), c.next().unwrap())
    };
    let t2 = Std::deploying(a, b, false).await;
    for seat in Seat::BOTH {
        let name = &t2.clients[seat.index()].name;
        let (old_seat, used) = if *name == south_name {
            (Seat::South, &south)
        } else {
            (Seat::North, &north)
        };
        let expected = used.to_own_view(old_seat).from_own_view(seat);
        let st = t2.sockets[seat.index()]
            .received
            .iter()
            .rev()
            .find(|m| m["t"] == "state")
            .unwrap();
        assert_ne!(
            st["d"]["deploy"]["layout"],
            layout_json(&expected),
            "{name} starts from a fresh layout, not the one the record showed"
        );
    }
}

/// (2) Deployment refusals change nothing; after the time limit a seat with a broken
/// layout gets a random valid one, a valid one is kept, and the seat ready first
/// (North) moves first.
async fn deployment_refusals_and_time_limit(db: TestDb) {
    // Every refusal below must be made before the deployment time runs out, on the
    // server's clock: some twenty round trips, which a loaded machine may stretch to
    // seconds. Eight seconds leave room for that; the test then waits for the end.
    let h = Harness::start_with(db, 60, 8);
    let a = h.player("zhuge").await;
    let b = h.player("sima").await;
    let mut t = Std::deploying(a, b, false).await;
    let s = t.socket(Seat::South);
    let before = s.received.last().unwrap()["d"]["deploy"]["layout"].clone();
    let south = parse_layout(&before).unwrap();

    // Save the starting layout, draw a random one, and load the saved one back.
    s.act("save_layout", json!({"name": "开局"})).await.unwrap();
    s.act("random_layout", Value::Null).await.unwrap();
    let d = s.wait_for("a random layout", |v| v["t"] == "deploy").await;
    let d = if d["d"]["layout"] == before {
        s.wait_for("a random layout", |v| v["t"] == "deploy").await
    } else {
        d
    };
    assert!(
        parse_layout(&d["d"]["layout"])
            .unwrap()
            .is_valid(Seat::South)
    );
    let saved = t.clients[0].get("/api/layouts").await;
    assert_eq!(saved.json[0]["name"], "开局", "{}", saved.text);
    assert_eq!(
        saved.json[0]["layout"],
        layout_json(&south.to_own_view(Seat::South))
    );
    let saved_id = saved.json[0]["id"].as_i64().unwrap();
    let s = t.socket(Seat::South);
    s.act("load_layout", json!({"id": saved_id})).await.unwrap();
    let d = s
        .wait_for("the saved layout", |v| {
            v["t"] == "deploy" && v["d"]["layout"] == before
        })
        .await;
    assert_eq!(d["d"]["violations"], json!([]));
    // North cannot load South's layout.
    t.socket(Seat::North)
        .act_err("load_layout", json!({"id": saved_id}), "illegal")
        .await;
    let s = t.socket(Seat::South);

    // A move while deploying.
    let m = s
        .act_err("move", json!({"from": "a6", "to": "a7"}), "illegal")
        .await;
    assert!(m.contains("deploying"), "{m}");
    // A whole layout that breaks the rules: refused with its reasons.
    let flag = *south.0.iter().find(|(_, p)| **p == Piece::Flag).unwrap().0;
    let front: Square = "c6".parse().unwrap();
    let mut broken = south.clone();
    broken.swap(flag, front);
    let e = s
        .act("layout", json!({"layout": layout_json(&broken)}))
        .await
        .unwrap_err();
    assert_eq!(
        (&e["code"], &e["reason"]),
        (&json!("illegal"), &json!("invalid_layout"))
    );
    assert!(
        e["message"].as_str().unwrap().contains("headquarters"),
        "{e}"
    );
    assert!(
        e["violations"]
            .as_array()
            .unwrap()
            .iter()
            .any(|v| v["code"] == "flag_outside_headquarters"),
        "the reasons come as codes too: {e}"
    );
    // Swapping a square that is not one's own.
    s.act_err("swap", json!({"a": "a12", "b": "a1"}), "illegal")
        .await;
    s.act_err("swap", json!({"a": "z1", "b": "a1"}), "bad_message")
        .await;
    // Swaps may break the layout; the deployment says where and why.
    s.act("swap", json!({"a": flag, "b": front})).await.unwrap();
    let d = s
        .wait_for("the swapped layout", |v| v["t"] == "deploy")
        .await;
    assert_eq!(d["d"]["layout"], layout_json(&broken));
    let v = d["d"]["violations"].as_array().unwrap();
    assert!(
        v.iter()
            .any(|x| x["code"] == "flag_outside_headquarters" && x["square"] == "c6"),
        "{d}"
    );
    let m = s.act_err("ready", Value::Null, "illegal").await;
    assert!(m.contains("headquarters"), "{m}");
    let m = s
        .act_err("save_layout", json!({"name": "坏的"}), "illegal")
        .await;
    assert!(
        m.contains("headquarters"),
        "a broken layout is not saved: {m}"
    );
    assert_eq!(h.row(&t.id).first_seat, None, "nobody is ready");

    // North readies its valid layout, then may not change it.
    let north_state = t.sockets[1]
        .received
        .iter()
        .rev()
        .find(|m| m["t"] == "state")
        .unwrap();
    let north = parse_layout(&north_state["d"]["deploy"]["layout"]).unwrap();
    let n = t.socket(Seat::North);
    n.act("ready", Value::Null).await.unwrap();
    let m = n
        .act_err("swap", json!({"a": "a12", "b": "b12"}), "illegal")
        .await;
    assert!(m.contains("ready"), "{m}");
    let e = n.act("random_layout", Value::Null).await.unwrap_err();
    assert_eq!(e["reason"], "already_ready", "{e}");
    n.act_err("ready", Value::Null, "illegal").await;

    // A reconnect during deployment gets the deployment as it stands.
    let mut back = t.clients[0].socket(&format!("/ws/game/{}?v=0", t.id)).await;
    let st = back.wait_state().await;
    assert_eq!(st["d"]["deploy"]["layout"], layout_json(&broken));
    assert_eq!(
        st["d"]["deploy"]["ready"],
        json!({"south": false, "north": true})
    );

    // The clock runs out.
    let st = t
        .socket(Seat::South)
        .wait_for("the start of play", |v| v["t"] == "state" && v["v"] == 1)
        .await;
    assert_eq!(st["d"]["view"]["to_move"], "north", "North was ready first");
    let (s_used, n_used) = layouts_of(&h, &t.id);
    assert_eq!(n_used, north, "a ready layout is kept");
    assert!(s_used.is_valid(Seat::South));
    assert_ne!(s_used, broken, "a broken layout is replaced");
    // South's view shows its new pieces, North's stays hidden from it.
    for (sq, cell) in st["d"]["view"]["board"].as_object().unwrap() {
        let sq: Square = sq.parse().unwrap();
        match s_used.0.get(&sq) {
            Some(p) => assert_eq!(cell["piece"], json!(p)),
            None => assert!(cell.get("piece").is_none()),
        }
    }
    t.socket(Seat::South)
        .act_err("ready", Value::Null, "illegal")
        .await;
}

/// (3) A piece deployed in a headquarters never moves; the refusal says so and changes
/// nothing.
async fn headquarters_lock(db: TestDb) {
    let h = Harness::start(db);
    let a = h.player("lock_a").await;
    let b = h.player("lock_b").await;
    let mut t = Std::deploying(a, b, false).await;
    let (south, guard) = (1..)
        .map(|seed| random_layout(Seat::South, seed))
        .find_map(|l| {
            ["b1", "d1"].into_iter().find_map(|s| {
                let sq: Square = s.parse().unwrap();
                matches!(l.0[&sq], Piece::Lieutenant | Piece::Captain).then(|| (l.clone(), sq))
            })
        })
        .unwrap();
    t.set_layout(Seat::South, &south).await;
    let mut game = t.start(&h, Seat::South).await;
    let to = Square::new(guard.file(), 2).unwrap();
    let m = t
        .socket(Seat::South)
        .act_err("move", json!({"from": guard, "to": to}), "illegal")
        .await;
    assert!(m.contains("headquarters"), "{m}");
    // Resignation and draw offers wait for 40 steps in standard 军棋.
    for t_ in ["resign", "offer_draw"] {
        let m = t
            .socket(Seat::North)
            .act_err(t_, Value::Null, "illegal")
            .await;
        assert!(m.contains("40"), "{m}");
    }
    let summary = t.summary().await;
    assert_eq!(summary["steps"], 0, "the refusals changed nothing");
    // Any other legal move is still taken.
    let mut rng = Rng::new(5);
    let a = policy::harmless(&game, &mut rng, false).unwrap();
    t.play(&mut game, Seat::South, a).await;
}

/// (4) Passes count like timeouts: the 5th loses. Decided within 30 steps, the winner
/// gains nothing while the loser still loses a point.
async fn fifth_pass_loses_and_early_wins_score_nothing(db: TestDb) {
    let h = Harness::start(db);
    let a = h.player("passer").await;
    let b = h.player("waiter").await;
    let mut t = Std::deploying(a, b, true).await;
    let mut game = t.start(&h, Seat::South).await;
    let mut rng = Rng::new(9);
    for i in 1..=5 {
        t.play(&mut game, Seat::South, Action::Pass).await;
        let ev = t.socket(Seat::North).wait_event("pass").await;
        assert_eq!(ev["d"]["seat"], "south");
        if i < 5 {
            let st = h.client().game_socket(&t.id).await.wait_state().await;
            assert_eq!(st["d"]["view"]["timeouts"]["south"], i);
            assert_eq!(st["d"]["view"]["timeouts_to_lose"], 5);
            let a = policy::harmless(&game, &mut rng, false).unwrap();
            t.play(&mut game, Seat::North, a).await;
        } else {
            assert_eq!(ev["d"]["outcome"]["winner"], "north");
            assert_eq!(ev["d"]["outcome"]["reason"], "timeouts");
        }
    }
    let summary = t.summary().await;
    assert_eq!(summary["result"], "north");
    assert_eq!(summary["steps"], 9);
    assert_eq!(
        summary["score"],
        json!({"south": -1, "north": 0}),
        "a win within 30 steps scores nothing"
    );
    let record = t.clients[0].record(&t.id).await;
    check_against_rules(&summary, &record);
    for (seat, score) in [(Seat::South, -1), (Seat::North, 0)] {
        let name = t.clients[seat.index()].name.clone();
        let p = t.clients[0]
            .get(&format!("/api/players/{name}?variant=standard"))
            .await;
        assert_eq!(p.json["score"], score, "{}", p.text);
    }
}

/// (5) Marks: private to their player, kept across a reconnect and a restart, moving
/// with their piece; refused on one's own pieces.
async fn marks_follow_pieces_and_stay_private(db: TestDb) {
    let mut h = Harness::start(db);
    let a = h.player("marker").await;
    let b = h.player("marked").await;
    let mut t = Std::deploying(a, b, false).await;
    let mut spectator = h.client().game_socket(&t.id).await;
    let mut game = t.start(&h, Seat::North).await;

    // A North piece about to move (into a camp); South marks it first.
    let mut rng = Rng::new(3);
    let step = policy::harmless(&game, &mut rng, false).unwrap();
    let Action::Move { from, to } = step else {
        panic!("a quiet move")
    };
    let s = t.socket(Seat::South);
    s.act("mark", json!({"at": from, "mark": "旅"}))
        .await
        .unwrap();
    let m = s.wait_for("marks", |v| v["t"] == "marks").await;
    assert_eq!(m["d"], json!({from.to_string(): "旅"}));
    let own = game
        .position()
        .tokens()
        .find(|(_, tk)| tk.colour == junqi::rules::Colour::Red)
        .unwrap()
        .0;
    let e = s
        .act_err("mark", json!({"at": own, "mark": "司"}), "illegal")
        .await;
    assert!(e.contains("own"), "{e}");
    s.act_err("mark", json!({"at": "c9", "mark": "司"}), "illegal")
        .await;
    s.act_err("mark", json!({"at": from, "mark": "将"}), "bad_message")
        .await;
    // A second mark, then one cleared with 清.
    let other = game
        .position()
        .tokens()
        .find(|(sq, tk)| tk.colour == junqi::rules::Colour::Blue && *sq != from)
        .unwrap()
        .0;
    s.act("mark", json!({"at": other, "mark": "雷"}))
        .await
        .unwrap();
    let m = s.wait_for("marks", |v| v["t"] == "marks").await;
    assert_eq!(
        m["d"],
        json!({from.to_string(): "旅", other.to_string(): "雷"})
    );
    s.act("mark", json!({"at": other, "mark": "清"}))
        .await
        .unwrap();
    let m = s.wait_for("marks", |v| v["t"] == "marks").await;
    assert_eq!(m["d"], json!({from.to_string(): "旅"}));

    t.play(&mut game, Seat::North, step).await;
    let m = t
        .socket(Seat::South)
        .wait_for("marks after the move", |v| v["t"] == "marks")
        .await;
    assert_eq!(m["d"], json!({to.to_string(): "旅"}), "the mark follows");

    // A reconnect, and a restart, keep it.
    let mut again = t.clients[0]
        .socket(&format!("/ws/game/{}?v={}", t.id, t.version))
        .await;
    let m = again.wait_for("marks", |v| v["t"] == "marks").await;
    assert_eq!(m["d"], json!({to.to_string(): "旅"}));
    h.server.restart_hard();
    let base = h.base();
    for c in &mut t.clients {
        c.base = base.clone();
    }
    let mut fresh = t.clients[0].game_socket(&t.id).await;
    let st = fresh.wait_state().await;
    assert_eq!(st["d"]["marks"], json!({to.to_string(): "旅"}));

    // Neither the opponent nor a spectator ever heard of a mark.
    let mut north = t.clients[1].game_socket(&t.id).await;
    north.barrier().await;
    // These two were on the killed server: all they will ever get is in by its close.
    spectator.until_closed().await;
    t.sockets[1].until_closed().await;
    // North hears only of its own marks (none); spectators of none at all.
    for m in north.received.iter().chain(&t.sockets[1].received) {
        assert!(!m.to_string().contains('旅'), "a mark leaked: {m}");
        if m["t"] == "marks" {
            assert_eq!(m["d"], json!({}), "{m}");
        }
        if m["t"] == "state" {
            assert!(
                m["d"]["marks"].is_null() || m["d"]["marks"] == json!({}),
                "{m}"
            );
        }
    }
    for m in &spectator.received {
        assert!(m["t"] != "marks" && m["d"]["marks"].is_null(), "{m}");
    }
    // 全清 clears everything.
    fresh.act("mark", json!({"mark": "全清"})).await.unwrap();
    let m = fresh.wait_for("marks", |v| v["t"] == "marks").await;
    assert_eq!(m["d"], json!({}));
}

db_tests! {
    full_game_to_a_flag_win => full_game_sqlite, full_game_postgres;
    full_game_between_bots => full_game_bots_sqlite, full_game_bots_postgres;
    deployment_refusals_and_time_limit => deployment_time_limit_sqlite, deployment_time_limit_postgres;
    headquarters_lock => headquarters_lock_sqlite, headquarters_lock_postgres;
    fifth_pass_loses_and_early_wins_score_nothing => fifth_pass_sqlite, fifth_pass_postgres;
    marks_follow_pieces_and_stay_private => marks_sqlite, marks_postgres;
    rematches_deploy_from_fresh_layouts => rematch_layouts_sqlite, rematch_layouts_postgres;
}

/// The layout `seat`'s socket was given in the latest state, in its own view.
fn offered(socket: &Socket, seat: Seat) -> Layout {
    let st = socket
        .received
        .iter()
        .rev()
        .find(|m| m["t"] == "state")
        .expect("a state");
    parse_layout(&st["d"]["deploy"]["layout"])
        .expect("a layout offered")
        .to_own_view(seat)
}

/// (8) Game after game of a rematch series, each seat's deployment starts from a fresh
/// random layout, never the one it just played: that one is in the finished game's
/// record, which its opponent reads, so a player who keeps what they are given would
/// go to battle with a layout the opponent knows. Before, each seat started from the
/// layout it last played. The new game's record says nothing before play begins.
async fn rematches_deploy_from_fresh_layouts(db: TestDb) {
    // Each game ends by escape: North leaves, and is gone after the grace period (3 s:
    // both sockets on each new game come well within it, even on a loaded machine).
    let h = Harness::start_with(db, 3, 120);
    let mut t = Std::deploying(h.player("sun_quan").await, h.player("lu_su").await, false).await;
    for round in 0..3 {
        t.start(&h, Seat::South).await;
        t.sockets.pop().unwrap().close().await;
        t.socket(Seat::South).wait_event("escape").await;
        // What everyone may read now: both layouts, by the players' names.
        let record = t.clients[0].record(&t.id).await;
        let played: Vec<(String, Layout)> = Seat::BOTH
            .into_iter()
            .map(|s| {
                let l = parse_layout(&record["layouts"][s.name()]).expect("the layouts");
                (t.clients[s.index()].name.clone(), l.to_own_view(s))
            })
            .collect();

        let mut back = t.clients[1].game_socket(&t.id).await;
        back.wait_state().await;
        t.sockets.push(back);
        for seat in Seat::BOTH {
            t.socket(seat)
                .act("rematch", Value::Null)
                .await
                .unwrap_or_else(|e| panic!("rematch refused: {e}"));
        }
        let ev = t.socket(Seat::South).wait_event("rematch").await;
        let next = ev["d"]["next"].as_str().unwrap().to_string();
        let mut clients = std::mem::take(&mut t.clients);
        let mut sockets = Vec::new();
        for c in &clients {
            let mut s = c.game_socket(&next).await;
            s.wait_state().await;
            sockets.push(s);
        }
        let summary = clients[0].summary(&next).await;
        if summary["players"]["south"]["username"] != clients[0].name.as_str() {
            clients.reverse();
            sockets.reverse();
        }
        for seat in Seat::BOTH {
            let name = &clients[seat.index()].name;
            let now = offered(&sockets[seat.index()], seat);
            assert!(now.from_own_view(seat).is_valid(seat));
            for (who, layout) in &played {
                if who == name {
                    assert_ne!(
                        &now, layout,
                        "round {round}: {name} is offered the layout the record showed"
                    );
                }
            }
        }
        h.client()
            .get(&format!("/api/games/{next}/record"))
            .await
            .assert_error(409, "conflict");
        t = Std {
            id: next,
            clients,
            sockets,
            version: 0,
        };
    }
}
