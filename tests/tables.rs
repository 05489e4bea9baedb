//! 四国 tables over the service, on SQLite and PostgreSQL: one person and three
//! computers play a 混战 table to its end from the legal actions they are sent, the
//! person never seeing another seat's hidden piece before the end; four people seat
//! themselves, press ready and deploy; the table refuses what is not theirs to do.

#[macro_use]
mod support;

use serde_json::{Value, json};
use support::{Harness, Socket, TestDb};

db_tests! {
    one_person_and_three_computers_play_to_the_end => one_person_and_three_computers_play_to_the_end_sqlite, one_person_and_three_computers_play_to_the_end_postgres;
    four_people_sit_ready_and_deploy => four_people_sit_ready_and_deploy_sqlite, four_people_sit_ready_and_deploy_postgres;
    a_table_comes_back_after_a_restart_as_it_was => a_table_comes_back_after_a_restart_as_it_was_sqlite, a_table_comes_back_after_a_restart_as_it_was_postgres;
    three_tuoguan_may_end_and_the_fourth_is_for_good => three_tuoguan_may_end_and_the_fourth_is_for_good_sqlite, three_tuoguan_may_end_and_the_fourth_is_for_good_postgres;
    the_fifth_pass_needs_a_confirmation_and_defeats => the_fifth_pass_needs_a_confirmation_and_defeats_sqlite, the_fifth_pass_needs_a_confirmation_and_defeats_postgres;
}

/// A person in the south seat of a 对家 table with three computers, deployed and
/// playing; the socket and the table's id.
async fn south_against_computers(h: &Harness) -> (Socket, String) {
    let mut ann = h.player("ann").await;
    let r = ann
        .post(
            "/api/tables",
            json!({"seconds_per_action": 60, "computer": "easy"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let id = r.json["id"].as_str().unwrap().to_string();
    let mut s = ann.game_socket(&id).await;
    table_msg(&mut s, "deployment", |d| d["phase"] == "deploying").await;
    s.act("ready", Value::Null).await.expect("ready");
    (s, id)
}

fn south(d: &Value) -> &Value {
    &d["seats"][0]
}

async fn three_tuoguan_may_end_and_the_fourth_is_for_good(db: TestDb) {
    let h = Harness::start(db);
    let (mut s, id) = south_against_computers(&h).await;
    for n in 1..=3 {
        s.act("tuoguan", json!({"on": true}))
            .await
            .expect("托管 on");
        let d = table_msg(&mut s, "托管", |d| south(d)["tuoguan"] == "manual").await;
        assert_eq!(south(&d)["tuoguan_count"], n);
        assert!(
            d["can"]["end_tuoguan"].as_bool().unwrap(),
            "托管 {n} may end"
        );
        s.act("tuoguan", json!({"on": false}))
            .await
            .expect("托管 off");
    }
    s.act("tuoguan", json!({"on": true}))
        .await
        .expect("a 4th 托管");
    let d = table_msg(&mut s, "the 4th", |d| south(d)["tuoguan_count"] == 4).await;
    assert!(
        !d["can"]["end_tuoguan"].as_bool().unwrap(),
        "the 4th is for good"
    );
    s.act_err("tuoguan", json!({"on": false}), "illegal").await;
    // The server plays the seat to the end; a seat in 托管 at the end pays twice the
    // unit (RULES §5.7.1), whatever the result.
    let end = loop {
        let d = table_msg(&mut s, "the end", |_| true).await;
        if d["phase"] == "over" {
            break d;
        }
    };
    if end["reason"] != "all_in_tuoguan" {
        assert_eq!(south(&end)["score"], -4, "{end}");
    }
    let seats = junqi::db::tables::seats(&mut h.conn(), &id).unwrap();
    let me = seats.iter().find(|r| r.seat == "south").unwrap();
    assert_eq!(me.tuoguan_count, 4);
}

async fn the_fifth_pass_needs_a_confirmation_and_defeats(db: TestDb) {
    let h = Harness::start(db);
    let (mut s, _id) = south_against_computers(&h).await;
    let mut passes = 0;
    loop {
        let d = table_msg(&mut s, "my turn", |d| {
            d["phase"] == "playing" && d["to_move"] == "south" && d["can"]["pass"] == true
        })
        .await;
        assert_eq!(south(&d)["timeouts"], passes);
        if passes == 4 {
            assert!(
                d["can"]["pass_defeats"].as_bool().unwrap(),
                "the client is warned"
            );
            s.act_err("pass", Value::Null, "confirm_needed").await;
            s.act("pass", json!({"confirm": true}))
                .await
                .expect("a confirmed 5th pass");
            break;
        }
        assert!(!d["can"]["pass_defeats"].as_bool().unwrap());
        s.act("pass", Value::Null).await.expect("pass");
        passes += 1;
    }
    let d = table_msg(&mut s, "the defeat", |d| south(d)["defeat"].is_string()).await;
    assert_eq!(south(&d)["defeat"], "timeouts");
    assert_eq!(south(&d)["state"], "defeated");
}

async fn a_table_comes_back_after_a_restart_as_it_was(db: TestDb) {
    let mut h = Harness::start(db);
    let mut ann = h.player("ann").await;
    let r = ann
        .post(
            "/api/tables",
            json!({"seconds_per_action": 60, "computer": "easy"}),
        )
        .await;
    let id = r.json["id"].as_str().unwrap().to_string();
    let mut s = ann.game_socket(&id).await;
    table_msg(&mut s, "deployment", |d| d["phase"] == "deploying").await;
    s.act("ready", Value::Null).await.expect("ready");
    let mut moved = 0;
    let seen = loop {
        let d = table_msg(&mut s, "play", |d| d["phase"] != "deploying").await;
        assert_eq!(d["phase"], "playing", "{d}");
        if d["to_move"] == "south" && !d["legal"].as_array().unwrap().is_empty() {
            if moved == 3 {
                break d;
            }
            let mv = &d["legal"][0];
            s.act("move", json!({"from": mv[0], "to": mv[1]}))
                .await
                .expect("move");
            moved += 1;
        }
    };
    h.server.restart_hard();
    ann.base = h.base();
    let mut s = ann.game_socket(&id).await;
    let back = table_msg(&mut s, "the table again", |_| true).await;
    for key in ["phase", "to_move", "steps", "board", "legal", "seats"] {
        if key == "seats" {
            // The person's socket came back; everything else on the cards is as it was.
            let strip = |v: &Value| {
                v.as_array()
                    .unwrap()
                    .iter()
                    .map(|c| {
                        let mut c = c.clone();
                        c.as_object_mut().unwrap().remove("connected");
                        c
                    })
                    .collect::<Vec<_>>()
            };
            assert_eq!(strip(&back[key]), strip(&seen[key]), "{key}");
        } else {
            assert_eq!(back[key], seen[key], "{key}");
        }
    }
    let mv = &back["legal"][0];
    s.act("move", json!({"from": mv[0], "to": mv[1]}))
        .await
        .expect("play goes on");
}

async fn table_msg(s: &mut Socket, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
    s.wait_for(what, |v| v["t"] == "table" && pred(&v["d"]))
        .await["d"]
        .clone()
}

/// Every piece the viewer in `you` is shown of another seat is face up (a flag shown
/// when its marshal fell), until the game is over.
fn hides_the_others(d: &Value) {
    if d["phase"] == "over" {
        return;
    }
    let you = d["you"].as_str().unwrap_or("");
    for c in d["board"].as_array().unwrap() {
        if c["seat"] != you && c.get("piece").is_some() {
            assert_eq!(c["face"], "up", "{you} was shown a hidden piece: {c}");
        }
    }
}

async fn one_person_and_three_computers_play_to_the_end(db: TestDb) {
    let h = Harness::start(db);
    let mut ann = h.player("ann").await;
    let r = ann
        .post(
            "/api/tables",
            json!({"seconds_per_action": 15, "computer": "easy", "options": {"alliance": "none"}}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let id = r.json["id"].as_str().unwrap().to_string();
    let mut s = ann.game_socket(&id).await;
    let d = table_msg(&mut s, "deployment", |d| d["phase"] == "deploying").await;
    assert_eq!(d["you"], "south");
    assert!(d["can"]["deploy"].as_bool().unwrap());
    // During deployment a seat sees only its own area (§5.8).
    let pieces = d["deploy"]["pieces"].as_object().unwrap();
    assert_eq!(pieces.len(), 25);
    assert!(pieces.keys().all(|k| k.starts_with('S')), "{pieces:?}");
    assert!(d["board"].as_array().unwrap().is_empty());
    s.act("ready", Value::Null).await.expect("ready");

    let mut own_moves = 0;
    let mut last_v = 0;
    let end = loop {
        let m = s.wait_for("the table", |v| v["t"] == "table").await;
        let v = m["v"].as_u64().unwrap();
        assert!(v > last_v, "versions only grow: {v} after {last_v}");
        last_v = v;
        let d = m["d"].clone();
        hides_the_others(&d);
        if d["phase"] == "over" {
            break d;
        }
        if d["phase"] != "playing"
            || d["to_move"] != "south"
            || d["legal"].as_array().unwrap().is_empty()
        {
            continue;
        }
        if own_moves == 6 {
            // The server plays the rest of the game for the person (手动托管).
            s.act("tuoguan", json!({"on": true}))
                .await
                .expect("托管 on");
            own_moves += 1;
            continue;
        }
        if own_moves > 6 {
            continue;
        }
        let mv = &d["legal"][0];
        s.act("move", json!({"from": mv[0], "to": mv[1]}))
            .await
            .expect("a legal move is taken");
        own_moves += 1;
    };
    assert!(end["result"].is_string(), "{end}");
    assert!(end["reason"].is_string(), "{end}");
    // Every seat's card says how it ended, and the game is stored with its seats.
    let cards = end["seats"].as_array().unwrap();
    assert_eq!(cards.len(), 4);
    assert!(cards.iter().all(|c| c["player"].is_object()));
    let row = h.row(&id);
    assert_eq!(row.status, "finished");
    assert_eq!(row.variant, "siguo");
    let seats = junqi::db::tables::seats(&mut h.conn(), &id).unwrap();
    assert_eq!(seats.len(), 4);
    assert!(seats.iter().all(|s| s.state != "playing"), "{seats:?}");
    let actions = junqi::db::games::actions(&mut h.conn(), &id).unwrap();
    assert!(
        actions.len() as u64 >= end["steps"].as_u64().unwrap(),
        "every step is stored"
    );
    // At the end every piece is shown to all.
    assert!(
        end["board"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c.get("piece").is_some())
    );
}

async fn four_people_sit_ready_and_deploy(db: TestDb) {
    let h = Harness::start(db);
    let mut names = ["sam", "eve", "nia", "wes"].into_iter();
    let mut creator = h.player(names.next().unwrap()).await;
    let r = creator
        .post("/api/tables", json!({"seconds_per_action": 30}))
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let id = r.json["id"].as_str().unwrap().to_string();
    let mut cs = creator.game_socket(&id).await;
    let d = table_msg(&mut cs, "the open table", |d| d["phase"] == "open").await;
    assert_eq!(d["you"], "south");
    assert!(d["can"]["seat_computer"].as_bool().unwrap());

    let mut others = Vec::new();
    for (name, seat) in names.zip(["east", "north", "west"]) {
        let c = h.player(name).await;
        let mut s = c.game_socket(&id).await;
        table_msg(&mut s, "the table", |d| d["phase"] == "open").await;
        s.act_err(
            "seat_computer",
            json!({"seat": "west", "level": "easy"}),
            "not_creator",
        )
        .await;
        s.act("sit", json!({"seat": seat})).await.expect("sit");
        others.push(s);
    }
    // A taken seat stays its owner's.
    others[0]
        .act_err("sit", json!({"seat": "north"}), "seat_taken")
        .await;
    for s in others.iter_mut().chain(std::iter::once(&mut cs)) {
        s.act("ready", Value::Null).await.expect("ready");
    }
    // A socket opened now is greeted with the table as it is.
    let d = table_msg(&mut creator.game_socket(&id).await, "deployment", |d| {
        d["phase"] == "deploying"
    })
    .await;
    assert!(
        d["seats"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["player"].is_object())
    );
    let seats = junqi::db::tables::seats(&mut h.conn(), &id).unwrap();
    assert_eq!(seats.len(), 4);
    assert!(seats.iter().all(|s| s.state == "playing"));

    // Moves wait for deployment; a swap of two own pieces is taken.
    cs.act_err("move", json!({"from": "Sa1", "to": "Sa2"}), "illegal")
        .await;
    // Swapped back after: the swap alone may take the flag out of its headquarters.
    let at = |d: &Value, sq: &str| d["deploy"]["pieces"][sq].clone();
    let before = [at(&d, "Sa1"), at(&d, "Sb1")];
    assert!(before.iter().all(Value::is_string), "{}", d["deploy"]);
    cs.act("swap", json!({"a": "a1", "b": "b1"}))
        .await
        .expect("swap");
    let d = table_msg(&mut creator.game_socket(&id).await, "the swap", |_| true).await;
    assert_eq!(
        [at(&d, "Sb1"), at(&d, "Sa1")],
        before,
        "the two changed places"
    );
    cs.act("swap", json!({"a": "a1", "b": "b1"}))
        .await
        .expect("swap back");
    for (i, s) in others
        .iter_mut()
        .chain(std::iter::once(&mut cs))
        .enumerate()
    {
        if let Err(e) = s.act("ready", Value::Null).await {
            panic!("socket {i} could not finish deploying: {e}");
        }
    }
    let d = table_msg(&mut creator.game_socket(&id).await, "play", |d| {
        d["phase"] == "playing"
    })
    .await;
    hides_the_others(&d);
    assert_eq!(d["board"].as_array().unwrap().len(), 100);
    let first = d["to_move"].as_str().unwrap().to_string();
    // Only the seat to move moves; a spectator cannot.
    let mut watcher = h.player("watcher").await.game_socket(&id).await;
    let w = table_msg(&mut watcher, "the table", |d| d["phase"] == "playing").await;
    assert!(
        w["board"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c.get("piece").is_none())
    );
    watcher
        .act_err("move", json!({"from": "Sa1", "to": "Sa2"}), "not_a_player")
        .await;
    let idle = if first == "south" {
        &mut others[0]
    } else {
        &mut cs
    };
    idle.act_err("pass", Value::Null, "illegal").await;
    // Nothing the API answers about a running table carries its layouts.
    let salt = h.row(&id).salt.expect("play began with a committed salt");
    for path in ["", "/record", "/replay"] {
        let r = creator.get(&format!("/api/games/{id}{path}")).await;
        assert!(!r.text.contains(&salt), "{path}: {}", r.text);
        assert!(!r.text.contains("layouts"), "{path}: {}", r.text);
    }
    // Resigning waits for 40 steps (§5.4.4).
    idle.act_err("resign", Value::Null, "illegal").await;
}
