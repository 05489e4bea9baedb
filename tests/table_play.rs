//! Four people at a 四国 table over the service, on SQLite and PostgreSQL, playing from
//! the legal actions they are sent: resignation and draw offers wait for 40 steps, a
//! draw needs every seat still in play to agree, a resigner alone is defeated and then
//! sees its ally's pieces (never an enemy's), 友明 shows allies to each other; a player
//! who drops is held by the server (断线托管) and the ally decides whether to play on.
//! Every message each seat received is checked against what RULES §5.3 lets it see.

#[macro_use]
mod support;

use serde_json::{Value, json};
use support::{Client, Harness, Socket, TestDb};

db_tests! {
    forty_steps_then_every_seat_in_play_agrees_a_draw => forty_steps_then_every_seat_in_play_agrees_a_draw_sqlite, forty_steps_then_every_seat_in_play_agrees_a_draw_postgres;
    a_resigner_alone_is_defeated_and_sees_its_ally => a_resigner_alone_is_defeated_and_sees_its_ally_sqlite, a_resigner_alone_is_defeated_and_sees_its_ally_postgres;
    allies_see_each_other_under_youming => allies_see_each_other_under_youming_sqlite, allies_see_each_other_under_youming_postgres;
    a_dropped_player_is_held_and_the_ally_plays_on => a_dropped_player_is_held_and_the_ally_plays_on_sqlite, a_dropped_player_is_held_and_the_ally_plays_on_postgres;
    a_dropped_player_is_held_and_the_ally_declines => a_dropped_player_is_held_and_the_ally_declines_sqlite, a_dropped_player_is_held_and_the_ally_declines_postgres;
    leaving_for_good_is_permanent_tuoguan_beside_an_ally => leaving_for_good_is_permanent_tuoguan_beside_an_ally_sqlite, leaving_for_good_is_permanent_tuoguan_beside_an_ally_postgres;
    leaving_a_free_for_all_defeats_at_once => leaving_a_free_for_all_defeats_at_once_sqlite, leaving_a_free_for_all_defeats_at_once_postgres;
    a_rated_table_scores_on_the_siguo_ladder_and_profiles => a_rated_table_scores_on_the_siguo_ladder_and_profiles_sqlite, a_rated_table_scores_on_the_siguo_ladder_and_profiles_postgres;
}

const SEATS: [&str; 4] = ["south", "east", "north", "west"];

/// The seat across the table: the ally in 对家.
fn ally(seat: usize) -> usize {
    (seat + 2) % 4
}

struct Four {
    id: String,
    /// Sockets in seat order S, E, N, W (`None`: the person has none open).
    s: Vec<Option<Socket>>,
    /// The people, in the same order.
    people: Vec<Client>,
    v: u64,
    d: Value,
}

/// Four people at a 对家 table of `options`, deployed and playing.
async fn four_people(h: &Harness, options: Value) -> Four {
    four_people_at(h, json!({"seconds_per_action": 60, "options": options})).await
}

/// Four people at a table opened with `body`, deployed and playing.
async fn four_people_at(h: &Harness, body: Value) -> Four {
    let mut ann = h.player("ann").await;
    let r = ann.post("/api/tables", body).await;
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
        table_where(sock, "deployment", |d| d["phase"] == "deploying").await;
        sock.act("ready", Value::Null).await.expect("deployed");
    }
    let m = s[0]
        .wait_for("play", |v| {
            v["t"] == "table" && v["d"]["phase"] == "playing"
        })
        .await;
    Four {
        id,
        s: s.into_iter().map(Some).collect(),
        people,
        v: m["v"].as_u64().unwrap(),
        d: m["d"].clone(),
    }
}

/// The table as `sock` was last sent it at version `at` or later, waiting for it if
/// it has not come yet.
async fn table_since(sock: &mut Socket, at: u64) -> Value {
    let seen = sock
        .received
        .iter()
        .rev()
        .find(|m| m["t"] == "table")
        .filter(|m| m["v"].as_u64().unwrap() >= at)
        .cloned();
    match seen {
        Some(m) => m["d"].clone(),
        None => sock
            .wait_for("the table", |v| {
                v["t"] == "table" && v["v"].as_u64().unwrap() >= at
            })
            .await["d"]
            .clone(),
    }
}

/// The newest table `sock` received that satisfies `pred`, if any did, else the next.
async fn table_where(sock: &mut Socket, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
    let seen = (sock.received.iter().rev())
        .find(|m| m["t"] == "table" && pred(&m["d"]))
        .cloned();
    match seen {
        Some(m) => m["d"].clone(),
        None => sock
            .wait_for(what, |v| v["t"] == "table" && pred(&v["d"]))
            .await["d"]
            .clone(),
    }
}

impl Four {
    fn sock(&mut self, seat: usize) -> &mut Socket {
        self.s[seat].as_mut().expect("an open socket")
    }

    /// The newest table south's socket has, waiting for a version past `after`.
    async fn next(&mut self, after: u64) -> Value {
        let d = table_since(self.sock(0), after + 1).await;
        let m = self
            .sock(0)
            .received
            .iter()
            .rev()
            .find(|m| m["t"] == "table");
        self.v = m.expect("a table")["v"].as_u64().unwrap();
        self.d = d.clone();
        d
    }

    /// The seat to move takes its first legal move (or passes) until `stop` holds
    /// for the table or the game is over.
    async fn play_until(&mut self, stop: impl Fn(&Value) -> bool) -> Value {
        loop {
            if stop(&self.d) || self.d["phase"] == "over" {
                return self.d.clone();
            }
            let seat = SEATS
                .iter()
                .position(|s| self.d["to_move"] == *s)
                .expect("a seat to move");
            let at = self.v;
            // A seat without a socket is the server's to play (断线托管).
            if let Some(sock) = self.s[seat].as_mut() {
                let mine = table_since(sock, at).await;
                match mine["legal"].as_array().unwrap().first() {
                    Some(mv) => sock
                        .act("move", json!({"from": mv[0], "to": mv[1]}))
                        .await
                        .expect("a legal move"),
                    None => sock.act("pass", Value::Null).await.expect("pass"),
                };
            }
            self.next(at).await;
        }
    }

    /// Every table message each seat received names a face-down piece only where
    /// RULES §5.3 lets that seat know it: its own, its ally's under 友明 or once the
    /// seat itself is defeated (§5.4.2); never an enemy's.
    fn check_sight(&self, youming: bool) {
        for (me, sock) in self.s.iter().enumerate() {
            let Some(sock) = sock else { continue };
            for m in sock.received.iter().filter(|m| m["t"] == "table") {
                let d = &m["d"];
                if d["phase"] == "over" {
                    continue;
                }
                let defeated = d["seats"][me]["defeat"].is_string();
                let mut named = Vec::new();
                collect_named(d, &mut named);
                for seat in named {
                    let allowed =
                        seat == SEATS[me] || (seat == SEATS[ally(me)] && (youming || defeated));
                    assert!(
                        allowed,
                        "{} was shown a hidden piece of {seat}: {m}",
                        SEATS[me]
                    );
                }
            }
        }
    }
}

/// The seats of the face-down pieces `v` names, wherever they are in it.
fn collect_named(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(o) => {
            if let (Some(_), Some(Value::String(seat)), Some(face)) =
                (o.get("piece"), o.get("seat"), o.get("face"))
                && face == "down"
            {
                out.push(seat.clone());
            }
            o.values().for_each(|x| collect_named(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| collect_named(x, out)),
        _ => {}
    }
}

fn named_of(d: &Value, seat: &str) -> usize {
    d["board"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["seat"] == seat && c["face"] == "down" && c.get("piece").is_some())
        .count()
}

async fn forty_steps_then_every_seat_in_play_agrees_a_draw(db: TestDb) {
    let h = Harness::start(db);
    let mut f = four_people(&h, json!({"alliance": "opposite"})).await;
    // Before 40 steps neither a draw offer nor a resignation is taken.
    assert!(!f.d["can"]["offer_draw"].as_bool().unwrap());
    f.sock(1)
        .act_err("offer_draw", Value::Null, "illegal")
        .await;
    f.sock(2).act_err("resign", Value::Null, "illegal").await;
    let d = f.play_until(|d| d["steps"].as_u64().unwrap() >= 40).await;
    assert_eq!(
        d["phase"], "playing",
        "40 steps of first moves end nothing: {d}"
    );
    let offerer = SEATS.iter().position(|s| d["to_move"] == *s).unwrap();
    let at = f.v;
    let mine = table_since(f.sock(offerer), at).await;
    assert!(mine["can"]["offer_draw"].as_bool().unwrap(), "{mine}");
    f.sock(offerer)
        .act("offer_draw", Value::Null)
        .await
        .expect("an offer after 40 steps");
    // Two of the three agree: still playing; the third makes it a draw.
    let others: Vec<usize> = (1..4).map(|k| (offerer + k) % 4).collect();
    for (n, &seat) in others.iter().enumerate() {
        let asked = f
            .sock(seat)
            .wait_for("the offer", |v| {
                v["t"] == "table" && v["d"]["can"]["answer_draw"] == true
            })
            .await;
        assert_eq!(asked["d"]["draw"]["by"], SEATS[offerer]);
        f.sock(seat)
            .act("accept_draw", Value::Null)
            .await
            .expect("accept");
        let d = table_where(f.sock(0), "the answer", |d| {
            d["phase"] == "over" || d["draw"]["agreed"].as_array().map(Vec::len) == Some(n + 1)
        })
        .await;
        if n < 2 {
            assert_eq!(d["phase"], "playing", "{n} agreed: {d}");
        } else {
            assert_eq!(d["phase"], "over", "{d}");
            assert_eq!(d["result"], "draw", "{d}");
        }
    }
    f.check_sight(false);
    let row = h.row(&f.id);
    assert_eq!(row.status, "finished");
}

async fn a_resigner_alone_is_defeated_and_sees_its_ally(db: TestDb) {
    let h = Harness::start(db);
    let mut f = four_people(&h, json!({"alliance": "opposite"})).await;
    f.play_until(|d| d["steps"].as_u64().unwrap() >= 40).await;
    let east = 1;
    f.sock(east)
        .act("resign", Value::Null)
        .await
        .expect("resign");
    let d = table_where(f.sock(east), "the defeat", |d| {
        d["seats"][1]["defeat"] == "resigned"
    })
    .await;
    assert_eq!(d["phase"], "playing", "the others play on: {d}");
    assert_eq!(named_of(&d, "east"), 0, "east's pieces left the board");
    assert!(
        named_of(&d, "west") > 0,
        "the defeated seat sees its ally's pieces"
    );
    assert_eq!(named_of(&d, "south") + named_of(&d, "north"), 0);
    // West, still in play, does not see east's (gone) nor anyone else's.
    f.play_until(|d| d["steps"].as_u64().unwrap() >= 48).await;
    f.check_sight(false);
}

async fn allies_see_each_other_under_youming(db: TestDb) {
    let h = Harness::start(db);
    let mut f = four_people(&h, json!({"alliance": "opposite", "allies_visible": true})).await;
    let at = f.v;
    let d = table_since(f.sock(0), at).await;
    assert_eq!(
        named_of(&d, "north"),
        25,
        "south sees north's pieces under 友明"
    );
    assert_eq!(named_of(&d, "east") + named_of(&d, "west"), 0);
    f.play_until(|d| d["steps"].as_u64().unwrap() >= 12).await;
    f.check_sight(true);
}

/// East drops; after the grace the server holds the seat (断线托管) and west, its
/// ally, is asked whether to play on.
async fn east_drops(f: &mut Four) -> Value {
    let east = f.s[1].take().expect("east's socket");
    east.close().await;
    f.sock(3)
        .wait_for("the question", |v| {
            v["t"] == "table" && v["d"]["can"]["play_on"] == true
        })
        .await["d"]
        .clone()
}

async fn a_dropped_player_is_held_and_the_ally_plays_on(db: TestDb) {
    let h = Harness::start_with_grace(db, 1);
    let mut f = four_people(&h, json!({"alliance": "opposite"})).await;
    let d = east_drops(&mut f).await;
    assert_eq!(d["seats"][1]["tuoguan"], "disconnect", "{d}");
    assert!(!d["seats"][1]["connected"].as_bool().unwrap());
    f.sock(3)
        .act("play_on", json!({"yes": true}))
        .await
        .expect("play on");
    let from = d["steps"].as_u64().unwrap();
    f.next(0).await;
    let d = f
        .play_until(|d| d["steps"].as_u64().unwrap() >= from + 6)
        .await;
    assert_eq!(d["phase"], "playing", "{d}");
    assert!(
        f.sock(0)
            .received
            .iter()
            .any(|m| m["d"]["last"]["seat"] == "east"),
        "the server moved for east"
    );
    assert_eq!(d["seats"][1]["tuoguan"], "disconnect");
    // East comes back: the seat is theirs again.
    let mut s = f.people[1].game_socket(&f.id).await;
    let d = s
        .wait_for("back", |v| {
            v["t"] == "table" && v["d"]["seats"][1]["tuoguan"].is_null()
        })
        .await["d"]
        .clone();
    assert_eq!(d["you"], "east");
    assert_eq!(
        d["seats"][1]["tuoguan_count"], 1,
        "断线托管 counts towards the three"
    );
}

async fn a_dropped_player_is_held_and_the_ally_declines(db: TestDb) {
    let h = Harness::start_with_grace(db, 1);
    let mut f = four_people(&h, json!({"alliance": "opposite"})).await;
    east_drops(&mut f).await;
    f.sock(3)
        .act("play_on", json!({"yes": false}))
        .await
        .expect("no");
    let d = f
        .sock(0)
        .wait_for("the end", |v| {
            v["t"] == "table" && v["d"]["phase"] == "over"
        })
        .await["d"]
        .clone();
    assert_eq!(d["reason"], "play_on_declined", "{d}");
    // South and north win; east and west lose, scored (RULES §5.7.1).
    let won: Vec<bool> = (0..4)
        .map(|i| d["seats"][i]["won"].as_bool().unwrap())
        .collect();
    assert_eq!(won, [true, false, true, false], "{d}");
    let scores: Vec<i64> = (0..4)
        .map(|i| d["seats"][i]["score"].as_i64().unwrap())
        .collect();
    // Within the first 40 steps the opponents score nothing; the escaped seat pays
    // twice the unit and its ally, who declined, nothing.
    assert!(d["steps"].as_u64().unwrap() < 40);
    assert_eq!(scores, [0, -4, 0, 0], "{d}");
    assert_eq!(h.row(&f.id).status, "finished");
}

async fn leaving_for_good_is_permanent_tuoguan_beside_an_ally(db: TestDb) {
    let h = Harness::start(db);
    let mut f = four_people(&h, json!({"alliance": "opposite"})).await;
    // East leaves (托管退出): with west in play the server holds the seat for good.
    f.sock(1).act("leave", Value::Null).await.expect("leave");
    let d = table_where(f.sock(0), "east gone", |d| {
        d["seats"][1]["tuoguan"] == "exit"
    })
    .await;
    assert_eq!(d["phase"], "playing", "{d}");
    assert_eq!(d["seats"][1]["state"], "tuoguan");
    let d = table_where(f.sock(1), "east's own view", |d| {
        d["seats"][1]["tuoguan"] == "exit"
    })
    .await;
    assert!(
        !d["can"]["end_tuoguan"].as_bool().unwrap(),
        "exit is for good"
    );
    assert!(d["legal"].as_array().unwrap().is_empty());
    f.sock(1)
        .act_err("tuoguan", json!({"on": false}), "illegal")
        .await;
    f.s[1] = None;
    f.play_until(|d| d["steps"].as_u64().unwrap() >= 8).await;
    assert!(
        f.sock(0)
            .received
            .iter()
            .any(|m| m["d"]["last"]["seat"] == "east"),
        "the server plays for east"
    );
    f.check_sight(false);
}

async fn leaving_a_free_for_all_defeats_at_once(db: TestDb) {
    let h = Harness::start(db);
    let mut f = four_people(&h, json!({"alliance": "none"})).await;
    f.sock(2).act("leave", Value::Null).await.expect("leave");
    let d = table_where(f.sock(0), "north defeated", |d| {
        d["seats"][2]["defeat"] == "escaped"
    })
    .await;
    assert_eq!(d["phase"], "playing", "the other three play on: {d}");
    assert!(
        d["board"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["seat"] != "north"),
        "north's pieces left the board"
    );
}

async fn a_rated_table_scores_on_the_siguo_ladder_and_profiles(db: TestDb) {
    let h = Harness::start_with_grace(db, 1);
    let mut f = four_people_at(
        &h,
        json!({"seconds_per_action": 60, "rated": true, "options": {"alliance": "opposite"}}),
    )
    .await;
    // Past the first 40 steps, whose wins score nothing.
    f.play_until(|d| d["steps"].as_u64().unwrap() > 40).await;
    // Then east drops and west will not play on: south and north score the
    // unit, east pays twice it, west nothing (RULES §5.7.1).
    east_drops(&mut f).await;
    f.sock(3)
        .act("play_on", json!({"yes": false}))
        .await
        .expect("no");
    let d = table_where(f.sock(0), "the end", |d| d["phase"] == "over").await;
    let scores: Vec<i64> = (0..4)
        .map(|i| d["seats"][i]["score"].as_i64().unwrap())
        .collect();
    assert_eq!(scores, [2, -4, 2, 0], "{d}");
    // Each seat is told the row of §5.7 that scored it.
    let rows: Vec<&str> = (0..4)
        .map(|i| d["seats"][i]["score_row"].as_str().unwrap())
        .collect();
    assert_eq!(rows, ["win", "escaped", "win", "declined_play_on"], "{d}");
    // The 四国 ladder and each profile's 四国 tab carry the scores; the two-player
    // standings are untouched.
    let mut anon = h.client();
    let ladder = anon.get("/ladder?variant=siguo").await;
    assert_eq!(ladder.status, 200);
    assert!(
        ladder
            .text
            .contains(r#"data-username="ann" data-score="2""#),
        "{}",
        ladder.text
    );
    let flip = anon.get("/ladder?variant=flip").await;
    assert!(flip.text.contains(r#"data-username="ann" data-score="0""#));
    let profile = anon.get("/@/cat?variant=siguo").await;
    assert_eq!(profile.status, 200);
    let stats = anon.get("/api/players/cat?variant=siguo").await;
    assert_eq!(stats.status, 200, "{}", stats.text);
    assert_eq!(stats.json["score"], 2, "{}", stats.text);
    // The history lists the table with its four seats and their score changes, and
    // each player's own list reads it from their side.
    let all = anon.get("/games?variant=siguo").await;
    assert_eq!(all.status, 200);
    let row = row_of(&all.text, &f.id);
    for (name, delta) in [("ann", "+2"), ("bob", "-4"), ("cat", "+2"), ("dan", "0")] {
        assert!(row.contains(&format!("/@/{name}?variant=siguo")), "{row}");
        assert!(
            row.contains(&format!(r#"data-delta="{delta}""#)),
            "{name}: {row}"
        );
    }
    let flip = anon.get("/games?variant=flip").await;
    assert!(!flip.text.contains(&f.id), "a table is not a flip game");
    // The table's end stored its mode: the 对家 list has it, the 并肩 list does not.
    assert!(row.contains(r#"data-alliance="opposite""#), "{row}");
    let mode = anon.get("/games?variant=siguo&alliance=opposite").await;
    assert!(mode.text.contains(&f.id));
    let other = anon
        .get("/@/ann/games?variant=siguo&alliance=adjacent")
        .await;
    assert!(!other.text.contains(&f.id), "{}", other.text);
    let own = anon.get("/@/bob/games").await;
    assert!(
        row_of(&own.text, &f.id).contains(r#"data-outcome="loss""#),
        "{}",
        own.text
    );
    let own = anon.get("/@/dan/games?variant=siguo").await;
    assert!(row_of(&own.text, &f.id).contains(r#"data-outcome="loss""#));
    let own = anon.get("/@/ann/games?variant=siguo").await;
    assert!(row_of(&own.text, &f.id).contains(r#"data-outcome="win""#));
    // The profile's record (战绩) counts the table as 四国, not as flip chess.
    let page = anon.get("/@/ann").await;
    let row = |variant: &str| {
        let key = format!(r#"data-variant="{variant}" data-against="all""#);
        let at = page.text.find(&key).unwrap_or_else(|| panic!("{key}"));
        let end = at + page.text[at..].find("</tr>").unwrap();
        page.text[at..end].to_string()
    };
    assert!(
        row("siguo").contains(r#"data-outcome="win">1<"#),
        "{}",
        row("siguo")
    );
    assert!(
        row("flip").contains(r#"data-outcome="games">0<"#),
        "{}",
        row("flip")
    );
    // The record shows every layout and checks out; the replay's changes, applied to
    // its start, give the board the table ended with.
    let record = anon.get(&format!("/api/games/{}/record", f.id)).await;
    assert_eq!(record.status, 200, "{}", record.text);
    assert_eq!(record.json["verified"], true, "{}", record.text);
    assert_eq!(record.json["layouts"].as_object().map(|l| l.len()), Some(4));
    let replay = anon.get(&format!("/api/games/{}/replay", f.id)).await;
    assert_eq!(replay.status, 200, "{}", replay.text);
    let mut board: std::collections::BTreeMap<String, Value> = replay.json["start"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["at"].as_str().unwrap().to_string(), c.clone()))
        .collect();
    assert_eq!(board.len(), 100);
    assert!(
        board.values().all(|c| c.get("piece").is_some()),
        "all four layouts"
    );
    let steps = replay.json["steps"].as_array().unwrap();
    assert_eq!(
        steps.len(),
        record.json["actions"].as_array().unwrap().len()
    );
    for st in steps {
        for ch in st["changes"].as_array().unwrap() {
            let at = ch["at"].as_str().unwrap().to_string();
            match ch["cell"].clone() {
                Value::Null => {
                    board.remove(&at);
                }
                mut c => {
                    c["at"] = json!(at);
                    board.insert(at, c);
                }
            }
        }
    }
    let end: std::collections::BTreeMap<String, Value> = d["board"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["at"].as_str().unwrap().to_string(), c.clone()))
        .collect();
    assert_eq!(board, end, "the replay ends where the table did");
}

/// The history row of game `id` in a page.
fn row_of(page: &str, id: &str) -> String {
    let at = page
        .find(&format!(r#"data-game-id="{id}""#))
        .unwrap_or_else(|| panic!("no row of {id} in {page}"));
    let end = page[at..].find("</tr>").map_or(page.len(), |e| at + e);
    page[at..end].to_string()
}
