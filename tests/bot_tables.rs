//! Outside bots at 四国 tables, knowing only their API tokens and docs/protocol.md (the
//! example client in tests/bot_client/table.rs): four bots fill a 对家 table and play it
//! to its end, and one bot plays a 混战 table against three computers. Whatever each
//! received says no more than RULES §5.3 lets its seat know, and the finished table's
//! record replays and verifies.

#[macro_use]
mod support;
#[path = "bot_client/table.rs"]
mod table;

use serde_json::{Value, json};
use support::{Harness, TestDb};
use table::{TableBot, TableEnd};

db_tests! {
    four_bots_fill_a_table_and_play_it_out => four_bots_fill_a_table_and_play_it_out_sqlite, four_bots_fill_a_table_and_play_it_out_postgres;
    a_bot_plays_three_computers_at_a_table => a_bot_plays_three_computers_at_a_table_sqlite, a_bot_plays_three_computers_at_a_table_postgres;
}

const SEATS: [&str; 4] = ["south", "east", "north", "west"];

fn ally(seat: &str) -> &'static str {
    match seat {
        "south" => "north",
        "north" => "south",
        "east" => "west",
        _ => "east",
    }
}

/// Every table message `end`'s seat received while the game ran names only its own
/// pieces, pieces shown face up, and (once it is defeated, in a team mode) its ally's.
fn saw_only_what_it_may(end: &TableEnd, team: bool) {
    let mut checked = 0;
    for d in &end.received {
        if d["phase"] != "playing" {
            continue;
        }
        let me = d["seats"]
            .as_array()
            .and_then(|s| s.iter().find(|c| c["seat"] == end.seat.as_str()))
            .expect("its own seat card");
        let defeated = me["state"] == "defeated";
        for c in d["board"].as_array().expect("a board") {
            if c.get("piece").is_none() {
                continue;
            }
            let seat = c["seat"].as_str().unwrap_or("");
            let may = seat == end.seat
                || c["face"] == "up"
                || (team && defeated && seat == ally(&end.seat));
            assert!(may, "{} was told {c} in {d}", end.seat);
            checked += 1;
        }
    }
    assert!(checked > 0, "{} saw its own pieces", end.seat);
}

/// The finished table's record replays and verifies, and names the same result.
async fn record_verifies(h: &Harness, id: &str, result: &Value) {
    let mut anyone = h.client();
    let record = anyone.get(&format!("/api/games/{id}/record")).await;
    assert_eq!(record.status, 200, "{}", record.text);
    assert_eq!(record.json["verified"], true, "{}", record.text);
    assert_eq!(&record.json["result"], result, "{}", record.text);
}

/// (1) Four bots, one opening the table through the API and the others taking their
/// seats over the socket, press ready, deploy and play from `legal` to the end.
async fn four_bots_fill_a_table_and_play_it_out(db: TestDb) {
    let h = Harness::start(db);
    let mut bots = Vec::new();
    for (i, seat) in SEATS.iter().enumerate() {
        let b = h.bot(&format!("table_{seat}")).await;
        bots.push(TableBot::new(&h.base(), &b.token, 3 + 2 * i as u64));
    }
    let id = bots[0]
        .open_table(json!({"seconds_per_action": 30, "options": {"alliance": "opposite"}}))
        .await;
    let [mut s, mut e, mut n, mut w]: [TableBot; 4] = bots.try_into().ok().expect("four bots");
    let (fs, fe, fn_, fw) = futures_util::join!(
        s.play(&id, "south"),
        e.play(&id, "east"),
        n.play(&id, "north"),
        w.play(&id, "west")
    );
    let ends = [fs, fe, fn_, fw];
    for end in &ends {
        assert!(
            end.cut_off.is_none(),
            "{}: the socket ended early ({:?}) at step {}:\n{}",
            end.seat,
            end.cut_off,
            end.last["steps"],
            h.log()
        );
    }
    let result = ends[0].last["result"].clone();
    for end in &ends {
        assert_eq!(end.last["result"], result, "every seat sees the same end");
        assert_eq!(end.last["steps"], ends[0].last["steps"]);
        saw_only_what_it_may(end, true);
    }
    assert!(
        ends.iter().all(|e| e.moves > 0),
        "every bot played: {:?}",
        ends.iter().map(|e| e.moves).collect::<Vec<_>>()
    );
    // At the end every layout is shown to everyone.
    let last = &ends[1].last;
    assert!(
        last["board"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c.get("piece").is_some()),
        "{last}"
    );
    record_verifies(&h, &id, &result).await;
}

/// (2) One bot and three computers at a 混战 table: the table starts at once, the
/// computers answer over the same protocol, and the bot sees only its own army.
async fn a_bot_plays_three_computers_at_a_table(db: TestDb) {
    let h = Harness::start(db);
    let b = h.bot("table_solo").await;
    let mut bot = TableBot::new(&h.base(), &b.token, 17);
    let id = bot
        .open_table(json!({"seconds_per_action": 30, "computer": "easy",
                           "options": {"alliance": "none"}}))
        .await;
    let end = bot.play(&id, "south").await;
    assert!(end.cut_off.is_none(), "{:?}:\n{}", end.cut_off, h.log());
    saw_only_what_it_may(&end, false);
    assert!(end.moves > 0, "the bot played");
    for c in end.last["seats"].as_array().unwrap() {
        if c["seat"] != "south" {
            assert_eq!(c["player"]["kind"], "computer", "{c}");
        }
    }
    record_verifies(&h, &id, &end.last["result"]).await;
}
