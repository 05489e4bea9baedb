//! Saved layouts at a 四国 table's deployment, over the service on SQLite and
//! PostgreSQL: one saved layout (seat-relative, South's squares) loads onto each of the
//! four seats' own areas and is legal there; each seat saves its arrangement in the
//! same frame; under 乱战 a layout of other pieces than the dealt hand is refused
//! (`not_your_hand`); and no seat is ever sent another seat's arrangement.

#[macro_use]
mod support;

use junqi::record::layout_json;
use junqi::rules::{Layout, Seat};
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde_json::{Map, Value, json};
use support::{Client, Harness, Socket, TestDb};

db_tests! {
    a_saved_layout_fits_every_seat => a_saved_layout_fits_every_seat_sqlite, a_saved_layout_fits_every_seat_postgres;
    each_seat_saves_in_its_own_frame => each_seat_saves_in_its_own_frame_sqlite, each_seat_saves_in_its_own_frame_postgres;
    luanzhan_loads_only_the_dealt_hand => luanzhan_loads_only_the_dealt_hand_sqlite, luanzhan_loads_only_the_dealt_hand_postgres;
}

const SEATS: [&str; 4] = ["south", "east", "north", "west"];
const LETTERS: [char; 4] = ['S', 'E', 'N', 'W'];

struct Four {
    s: Vec<Socket>,
    people: Vec<Client>,
}

/// Four people at a table of `options`, deploying.
async fn deploying(h: &Harness, options: Value) -> Four {
    let mut ann = h.player("ann").await;
    let r = ann
        .post(
            "/api/tables",
            json!({"seconds_per_action": 60, "options": options}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let id = r.json["id"].as_str().unwrap().to_string();
    let mut s = vec![ann.game_socket(&id).await];
    let mut people = vec![ann];
    for (name, seat) in ["bob", "cat", "dan"].into_iter().zip(&SEATS[1..]) {
        let c = h.player(name).await;
        let mut sock = c.game_socket(&id).await;
        sock.act("sit", json!({ "seat": seat })).await.expect("sit");
        s.push(sock);
        people.push(c);
    }
    for sock in &mut s {
        sock.act("ready", Value::Null).await.expect("ready");
    }
    for sock in &mut s {
        let d = sock.newest_table().await;
        if d["phase"] != "deploying" {
            sock.wait_for("deployment", |v| {
                v["t"] == "table" && v["d"]["phase"] == "deploying"
            })
            .await;
        }
    }
    Four { s, people }
}

/// A valid standard layout seen from its owner's side.
fn standard(seed: u64) -> Value {
    layout_json(&Layout::random(
        Seat::South,
        &mut StdRng::seed_from_u64(seed),
    ))
}

/// A seat-relative layout as it stands on seat `i`'s own stations (`a1` → `Ea1`).
fn on_seat(layout: &Value, i: usize) -> Value {
    let m: Map<String, Value> = layout
        .as_object()
        .unwrap()
        .iter()
        .map(|(sq, p)| (format!("{}{sq}", LETTERS[i]), p.clone()))
        .collect();
    Value::Object(m)
}

/// Seat `i`'s area as a seat-relative layout (`Ea1` → `a1`).
fn relative(pieces: &Value, i: usize) -> Value {
    let m: Map<String, Value> = pieces
        .as_object()
        .unwrap()
        .iter()
        .map(|(st, p)| {
            let sq = st
                .strip_prefix(LETTERS[i])
                .expect("a station of the seat's own area");
            (sq.to_string(), p.clone())
        })
        .collect();
    Value::Object(m)
}

async fn save(c: &mut Client, name: &str, layout: &Value) -> i64 {
    let r = c
        .post("/api/layouts", json!({"name": name, "layout": layout}))
        .await;
    assert_eq!(r.status, 201, "save {name}: {}", r.text);
    r.json["id"].as_i64().unwrap()
}

async fn saved(c: &mut Client, name: &str) -> Value {
    let r = c.get("/api/layouts").await;
    assert_eq!(r.status, 200, "{}", r.text);
    r.json
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["name"] == name)
        .unwrap_or_else(|| panic!("no layout {name}: {}", r.text))["layout"]
        .clone()
}

/// No message a seat received before play names a station of another seat's area:
/// while deploying a seat is sent its own arrangement only (RULES §5.8).
fn nothing_of_the_others(f: &Four) {
    for (me, sock) in f.s.iter().enumerate() {
        for m in &sock.received {
            if m["t"] == "table" && m["d"]["phase"] != "deploying" && m["d"]["phase"] != "open" {
                continue;
            }
            if let Some(dep) = m["d"]["deploy"].as_object() {
                assert_eq!(dep["seat"], SEATS[me], "{m}");
            }
            let text = m.to_string();
            for (other, letter) in LETTERS.iter().enumerate() {
                if other == me {
                    continue;
                }
                for file in ["a", "b", "c", "d", "e"] {
                    for rank in 1..=6 {
                        let station = format!("\"{letter}{file}{rank}\"");
                        assert!(
                            !text.contains(&station),
                            "{} was sent {station} of {}: {m}",
                            SEATS[me],
                            SEATS[other]
                        );
                    }
                }
            }
        }
    }
}

async fn a_saved_layout_fits_every_seat(db: TestDb) {
    let h = Harness::start(db);
    let mut f = deploying(&h, json!({"alliance": "opposite"})).await;
    // The same seat-relative layout, saved by each of the four people.
    let layout = standard(7);
    let mut ids = Vec::new();
    for c in &mut f.people {
        ids.push(save(c, "wall", &layout).await);
    }
    for i in 0..4 {
        let d = f.s[i].newest_table().await;
        assert_eq!(d["can"]["load_layout"], true, "{}", SEATS[i]);
        assert_ne!(
            d["deploy"]["pieces"],
            on_seat(&layout, i),
            "a fresh random layout"
        );
        f.s[i]
            .act("load_layout", json!({"id": ids[i]}))
            .await
            .unwrap_or_else(|e| panic!("{} loads: {e}", SEATS[i]));
        let d = f.s[i].newest_table().await;
        assert_eq!(
            d["deploy"]["pieces"],
            on_seat(&layout, i),
            "turned onto {}'s own area",
            SEATS[i]
        );
        assert_eq!(
            d["can"]["save_layout"], true,
            "a loaded layout breaks no rule"
        );
    }
    // Another person's layout is not yours to load.
    f.s[1]
        .act_err("load_layout", json!({"id": ids[0]}), "not_found")
        .await;
    f.s[1]
        .act_err("load_layout", json!({"id": 987_654}), "not_found")
        .await;
    // Each loaded layout is legal where it stands: every seat goes to battle with it.
    for (sock, seat) in f.s.iter_mut().zip(SEATS) {
        sock.act("ready", Value::Null)
            .await
            .unwrap_or_else(|e| panic!("{seat} is ready: {e}"));
    }
    let mut d = json!({"d": f.s[0].newest_table().await});
    if d["d"]["phase"] != "playing" {
        d = f.s[0]
            .wait_for("play", |v| {
                v["t"] == "table" && v["d"]["phase"] == "playing"
            })
            .await;
    }
    assert!(d["d"]["can"]["load_layout"] == false);
    // Once ready (or in play) nothing more is loaded.
    let e = f.s[0].act("load_layout", json!({"id": ids[0]})).await;
    assert!(e.is_err(), "loaded in play");
    nothing_of_the_others(&f);
    // In play south sees its own pieces where the layout put them, and no other seat's.
    let board = d["d"]["board"].as_array().unwrap();
    for c in board {
        let st = c["at"].as_str().unwrap();
        if c["seat"] == "south" {
            assert_eq!(c["piece"], on_seat(&layout, 0)[st], "{c}");
        } else {
            assert!(c["piece"].is_null(), "south sees {c}");
        }
    }
}

async fn each_seat_saves_in_its_own_frame(db: TestDb) {
    let h = Harness::start(db);
    let mut f = deploying(&h, json!({"alliance": "adjacent"})).await;
    #[allow(clippy::needless_range_loop)] // the seat's index names its stations too
    for i in 0..4 {
        f.s[i]
            .act("random_layout", Value::Null)
            .await
            .expect("random");
        let d = f.s[i].newest_table().await;
        assert_eq!(d["can"]["save_layout"], true);
        let mine = relative(&d["deploy"]["pieces"], i);
        f.s[i]
            .act("save_layout", json!({"name": "mine"}))
            .await
            .unwrap_or_else(|e| panic!("{} saves: {e}", SEATS[i]));
        // Stored seat-relative: South's squares, whichever seat saved it.
        assert_eq!(saved(&mut f.people[i], "mine").await, mine, "{}", SEATS[i]);
        // Changed, then loaded back.
        f.s[i]
            .act("random_layout", Value::Null)
            .await
            .expect("random");
        let r = f.people[i].get("/api/layouts").await;
        let id = r.json[0]["id"].as_i64().unwrap();
        f.s[i]
            .act("load_layout", json!({"id": id}))
            .await
            .expect("load");
        let d = f.s[i].newest_table().await;
        assert_eq!(relative(&d["deploy"]["pieces"], i), mine);
    }
    // A layout that breaks a rule is not kept: the flag out of its headquarters.
    let d = f.s[2].newest_table().await;
    let mine = relative(&d["deploy"]["pieces"], 2);
    let flag = ["b1", "d1"]
        .into_iter()
        .find(|sq| mine[*sq] == "flag")
        .expect("the flag in a headquarters");
    f.s[2]
        .act("swap", json!({"a": flag, "b": "a6"}))
        .await
        .expect("a swap may break a rule for a while");
    let d = f.s[2].newest_table().await;
    assert_eq!(d["can"]["save_layout"], false);
    assert_eq!(d["can"]["load_layout"], true);
    let e = f.s[2]
        .act("save_layout", json!({"name": "broken"}))
        .await
        .expect_err("a broken layout");
    assert_eq!(e["reason"], "invalid_layout", "{e}");
    let r = f.people[2].get("/api/layouts").await;
    assert_eq!(r.json.as_array().unwrap().len(), 1, "nothing saved");
    // A spectator has no area to load into.
    let mut w = h.player("eve").await;
    let id = save(&mut w, "eve's", &standard(3)).await;
    let table = f.s[0].received.iter().find(|m| m["t"] == "table").unwrap()["d"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let mut ws = w.game_socket(&table).await;
    let d = ws.newest_table().await;
    assert_eq!(d["can"]["load_layout"], false);
    ws.act_err("load_layout", json!({"id": id}), "not_a_player")
        .await;
    ws.act_err("save_layout", json!({"name": "x"}), "not_a_player")
        .await;
    nothing_of_the_others(&f);
}

async fn luanzhan_loads_only_the_dealt_hand(db: TestDb) {
    let h = Harness::start(db);
    let mut f = deploying(&h, json!({"alliance": "opposite", "random_pieces": true})).await;
    let standard_id = save(&mut f.people[1], "standard", &standard(11)).await;
    let before = f.s[1].newest_table().await;
    let m = f.s[1]
        .act_err("load_layout", json!({"id": standard_id}), "not_your_hand")
        .await;
    assert!(m.contains("dealt"), "{m}");
    let after = f.s[1].newest_table().await;
    assert_eq!(
        after["deploy"]["pieces"], before["deploy"]["pieces"],
        "nothing changed"
    );
    // The seat's own hand, saved and loaded back, fits.
    let mine = relative(&before["deploy"]["pieces"], 1);
    f.s[1]
        .act("save_layout", json!({"name": "dealt"}))
        .await
        .expect("save the dealt hand");
    assert_eq!(saved(&mut f.people[1], "dealt").await, mine);
    f.s[1]
        .act("random_layout", Value::Null)
        .await
        .expect("random");
    let r = f.people[1].get("/api/layouts").await;
    let id = (r.json.as_array().unwrap().iter())
        .find(|l| l["name"] == "dealt")
        .unwrap()["id"]
        .as_i64()
        .unwrap();
    f.s[1]
        .act("load_layout", json!({"id": id}))
        .await
        .expect("load the dealt hand");
    let d = f.s[1].newest_table().await;
    assert_eq!(relative(&d["deploy"]["pieces"], 1), mine);
    nothing_of_the_others(&f);
}
