//! The profile's record against the site's computer players, on SQLite and PostgreSQL.
//! Games are played over the real sockets between a person and a stand-in account that
//! becomes a computer account afterwards (the record is read from the finished games and
//! the accounts' kinds when the page is drawn), so the counting is tested apart from the
//! engine that plays the real computer's moves; then one game against the real computer
//! player, started and played over the API.

#[macro_use]
mod support;

use diesel::prelude::*;
use junqi::db::schema::users;
use junqi::rules::{Action, Seat};
use serde_json::{Value, json};
use support::policy::Rng;
use support::{Harness, Table, TestDb};

/// The `<tr>` of the record table whose `data-computer` is `name`.
fn computer_row<'a>(html: &'a str, name: &str) -> &'a str {
    let at = html
        .find(&format!("data-computer=\"{name}\""))
        .unwrap_or_else(|| panic!("a record row for {name}"));
    let end = at + html[at..].find("</tr>").expect("the row ends");
    &html[at..end]
}

/// The number in the cell marked with these data attributes.
fn cell(row: &str, attrs: &str) -> i64 {
    let at = row
        .find(attrs)
        .unwrap_or_else(|| panic!("a cell {attrs} in {row}"));
    let rest = &row[at + attrs.len()..];
    let rest = &rest[rest.find('>').expect("the cell's tag ends") + 1..];
    rest[..rest.find('<').expect("the cell ends")]
        .trim()
        .parse()
        .unwrap_or_else(|e| panic!("a number in {attrs}: {e}"))
}

/// The row of a person's record (战绩) for `variant` against `against` (`people`,
/// `computer`, `all`): its games, wins, draws, losses, and the win rate as shown.
fn record(html: &str, variant: &str, against: &str) -> ([i64; 4], String) {
    let key = format!("data-variant=\"{variant}\" data-against=\"{against}\"");
    let at = html
        .find(&key)
        .unwrap_or_else(|| panic!("a record row {key}"));
    let row = &html[at..at + html[at..].find("</tr>").expect("the row ends")];
    let n = ["games", "win", "draw", "loss"].map(|o| cell(row, &format!("data-outcome=\"{o}\"")));
    let rate = &row[row.find("data-outcome=\"rate\">").expect("a win rate") + 20..];
    (n, rate[..rate.find('<').unwrap()].trim().to_string())
}

/// Wins, draws and losses in one variant's cells of a row.
fn tally(row: &str, variant: &str) -> [i64; 3] {
    ["win", "draw", "loss"].map(|o| {
        cell(
            row,
            &format!("data-variant=\"{variant}\" data-outcome=\"{o}\""),
        )
    })
}

/// 50 harmless steps, then `loser` resigns (`None`: a draw is offered and taken).
async fn finish(table: &mut Table, loser: Option<Seat>, rng: &mut Rng) {
    table.harmless_steps(50, rng).await;
    match loser {
        Some(seat) => {
            table.play(seat, Action::Resign).await;
        }
        None => {
            let seat = table.game.to_move();
            table.play(seat, Action::OfferDraw).await;
            table.play(seat.other(), Action::AcceptDraw).await;
        }
    }
    let summary = table.summary().await;
    assert_eq!(summary["status"], "finished", "{summary}");
}

async fn the_profile_counts_games_against_the_computer(db: TestDb) {
    let h = Harness::start(db);
    let mut rng = Rng::new(11);

    // Three casual games between a person and the stand-in: a win, a draw and a loss
    // for the person, each ended from the game's own sockets.
    let person = h.player("vs_person").await;
    let machine = h.player("vs_machine").await;
    let mut table = Table::open(&h, person, machine, 30, false).await;
    let person_seat = table.seat_of("vs_person");
    finish(&mut table, Some(person_seat.other()), &mut rng).await;
    let mut table = table.rematch(&h).await;
    finish(&mut table, None, &mut rng).await;
    let mut table = table.rematch(&h).await;
    let person_seat = table.seat_of("vs_person");
    finish(&mut table, Some(person_seat), &mut rng).await;

    // A game between two people is no game against the computer.
    let friend = h.player("vs_friend").await;
    let other = h.player("vs_other").await;
    let mut table2 = Table::open(&h, friend, other, 30, false).await;
    let friend_seat = table2.seat_of("vs_friend");
    finish(&mut table2, Some(friend_seat), &mut rng).await;

    let before = h.client().get("/@/vs_person").await;
    assert_eq!(before.status, 200);
    // Until then its games are against a person: the record says so, casual games too.
    assert_eq!(
        record(&before.text, "flip", "people"),
        ([3, 1, 1, 1], "33%".into())
    );
    assert_eq!(
        record(&before.text, "flip", "computer"),
        ([0, 0, 0, 0], "—".into())
    );
    assert!(
        !before.text.contains("data-computer=\"vs_machine\""),
        "a person's account is not listed as a computer"
    );

    // The stand-in becomes one of the site's computer players.
    let changed = diesel::update(users::table.filter(users::username.eq("vs_machine")))
        .set(users::kind.eq("computer"))
        .execute(&mut **h.conn())
        .expect("mark the account as a computer");
    assert_eq!(changed, 1);

    // The person's profile: one row per computer account, flip and standard apart.
    let mut c = h.client();
    let page = c.get("/@/vs_person").await;
    assert_eq!(page.status, 200, "{}", page.text);
    assert!(
        page.text.contains("id=\"vs-computer\""),
        "the record is shown"
    );
    assert!(page.text.contains("人机战绩"));
    let row = computer_row(&page.text, "vs_machine");
    assert_eq!(
        tally(row, "flip"),
        [1, 1, 1],
        "won, drawn, lost in flip chess"
    );
    assert!(
        row.contains("data-outcome=\"rate\">33%<"),
        "the level's win rate: {row}"
    );
    // The record splits the same games by opponent, with win rates.
    assert_eq!(
        record(&page.text, "flip", "people"),
        ([0, 0, 0, 0], "—".into())
    );
    assert_eq!(
        record(&page.text, "flip", "computer"),
        ([3, 1, 1, 1], "33%".into())
    );
    assert_eq!(
        record(&page.text, "flip", "all"),
        ([3, 1, 1, 1], "33%".into())
    );
    assert_eq!(
        record(&page.text, "standard", "all"),
        ([0, 0, 0, 0], "—".into())
    );
    assert!(page.text.contains("胜率"));
    assert_eq!(tally(row, "standard"), [0, 0, 0], "no standard games");
    assert!(
        row.contains("href=\"/@/vs_machine\""),
        "the row links the computer"
    );
    // The rated standing is untouched by casual games.
    assert!(page.text.contains("id=\"stat-games\">0<"), "{}", page.text);

    // Every computer the site has is listed, met or not; other rows hold nothing but the
    // computer accounts the server made itself (none met here).
    let rows = page.text.matches("data-computer=\"").count();
    let computers: i64 = users::table
        .filter(users::kind.eq("computer"))
        .count()
        .get_result(&mut **h.conn())
        .unwrap();
    assert_eq!(rows as i64, computers);
    for level in ["easy", "normal", "hard", "master"] {
        let name = format!("computer-{level}");
        if page.text.contains(&format!("data-computer=\"{name}\"")) {
            let row = computer_row(&page.text, &name);
            assert_eq!(tally(row, "flip"), [0, 0, 0]);
            assert_eq!(tally(row, "standard"), [0, 0, 0]);
        }
    }

    // The friend never met the computer: a row of zeros.
    let page = c.get("/@/vs_friend").await;
    let row = computer_row(&page.text, "vs_machine");
    assert_eq!(tally(row, "flip"), [0, 0, 0]);
    assert_eq!(
        record(&page.text, "flip", "people"),
        ([1, 0, 0, 1], "0%".into())
    );
    let page = c.get("/@/vs_other").await;
    assert_eq!(
        record(&page.text, "flip", "people"),
        ([1, 1, 0, 0], "100%".into())
    );

    // English.
    let page = c.get("/@/vs_person?lang=en").await;
    assert!(page.text.contains("Against the computer"));

    // One's own profile points the way to the computer until one has played it.
    let mut newbie = h.player("vs_newbie").await;
    let page = newbie.get("/@/vs_newbie").await;
    assert!(page.text.contains("id=\"vs-computer-hint\""));
    let person_seat = table.seat_of("vs_person");
    let page = table.client(person_seat).get("/@/vs_person").await;
    assert!(page.text.contains("id=\"vs-computer\""));
    assert!(!page.text.contains("id=\"vs-computer-hint\""));

    // The computer's own profile says what it is and gives its record from its side,
    // instead of a rank and score its casual games never move.
    let page = c.get("/@/vs_machine").await;
    assert_eq!(page.status, 200, "{}", page.text);
    assert!(page.text.contains("id=\"computer-note\""));
    assert!(page.text.contains("这是本站的电脑棋手"));
    assert!(!page.text.contains("id=\"rank\""), "no rank for a computer");
    assert!(!page.text.contains("id=\"vs-computer\""));
    let record = &page.text[page
        .text
        .find("id=\"computer-record\"")
        .expect("the computer's record")..];
    let flip = &record[record.find("data-variant=\"flip\"").unwrap()..];
    assert_eq!(cell(flip, "data-outcome=\"games\""), 3);
    assert_eq!(cell(flip, "data-outcome=\"win\""), 1);
    assert_eq!(cell(flip, "data-outcome=\"draw\""), 1);
    assert_eq!(cell(flip, "data-outcome=\"loss\""), 1);
    let standard = &record[record.find("data-variant=\"standard\"").unwrap()..];
    assert_eq!(cell(standard, "data-outcome=\"games\""), 0);

    // The API still answers for the account.
    let api: Value = c.player("vs_machine").await;
    assert_eq!(api["username"], "vs_machine");
}

/// One action of `legal` (a flip or move, else nothing), as a message to send.
fn first_step(legal: &Value) -> Option<Value> {
    let a = legal
        .as_array()?
        .iter()
        .find(|a| a.get("flip").is_some() || a.get("move").is_some())?;
    Some(match a.get("flip") {
        Some(at) => json!({"t": "flip", "d": {"at": at}}),
        None => json!({"t": "move", "d": a["move"]}),
    })
}

/// A person starts a flip game against the real computer player at 入门 over HTTP,
/// plays it over the socket (the first legal action each turn) and resigns once 50
/// steps allow it, unless the game ends first: the profile counts that one game.
async fn a_game_against_the_computer_is_counted(db: TestDb) {
    let h = Harness::start(db);
    let mut c = h.player("vs_real").await;
    let r = c
        .post(
            "/api/games",
            json!({"variant": "flip", "seconds_per_action": 30, "rated": false, "computer": "easy"}),
        )
        .await;
    assert_eq!(
        r.status, 201,
        "start a game against the computer: {}",
        r.text
    );
    let id = r.json["id"].as_str().expect("a game id").to_string();
    let summary = c.summary(&id).await;
    assert_eq!(summary["status"], "running", "{summary}");
    let me = if summary["players"]["south"]["username"] == "vs_real" {
        "south"
    } else {
        "north"
    };
    let other = if me == "south" { "north" } else { "south" };
    assert_eq!(summary["players"][other]["username"], "computer-easy");

    let mut s = c.game_socket(&id).await;
    let state = s.wait_state().await;
    let mut legal = state["d"]["view"]["legal"].clone();
    let mut steps = state["d"]["view"]["steps"].as_u64().unwrap_or(0);
    let mut ended = !state["d"]["result"].is_null();
    let mut ack = 1000;
    while !ended {
        if let Some(step) = first_step(&legal) {
            let mut msg = if steps >= 50 {
                json!({"t": "resign"})
            } else {
                step
            };
            msg["a"] = json!(ack);
            ack += 1;
            s.send(msg).await;
            legal = Value::Null;
        }
        // Acks and the other messages pass; events say where the game stands.
        let m = s.recv().await;
        assert_ne!(m["t"], "error", "refused: {m}");
        if m["t"] == "event" {
            let d = &m["d"];
            if let Some(n) = d["status"]["steps"].as_u64() {
                steps = n;
            }
            ended = !d["outcome"].is_null();
            legal = d["legal"].clone();
        }
    }
    let summary = c.summary(&id).await;
    assert_eq!(summary["status"], "finished", "{summary}");
    let outcome = match summary["result"].as_str() {
        Some("draw") => "draw",
        Some(w) if w == me => "win",
        _ => "loss",
    };

    let page = c.get("/@/vs_real").await;
    let row = computer_row(&page.text, "computer-easy");
    assert!(row.contains("电脑·入门"), "{row}");
    let expected = ["win", "draw", "loss"].map(|o| i64::from(o == outcome));
    assert_eq!(tally(row, "flip"), expected, "one {outcome} in flip chess");
    assert_eq!(tally(row, "standard"), [0, 0, 0]);
    for name in ["computer-normal", "computer-hard", "computer-master"] {
        assert_eq!(tally(computer_row(&page.text, name), "flip"), [0, 0, 0]);
    }
    // The computer's page says what it is and counts the game from its side.
    let page = c.get("/@/computer-easy").await;
    assert_eq!(page.status, 200);
    assert!(page.text.contains("这是本站的电脑棋手（入门）"));
    let record = &page.text[page.text.find("id=\"computer-record\"").unwrap()..];
    let flip = &record[record.find("data-variant=\"flip\"").unwrap()..];
    assert_eq!(cell(flip, "data-outcome=\"games\""), 1);
}

db_tests! {
    the_profile_counts_games_against_the_computer => computer_record_sqlite, computer_record_postgres;
    a_game_against_the_computer_is_counted => real_computer_sqlite, real_computer_postgres;
}
