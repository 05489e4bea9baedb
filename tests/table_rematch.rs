//! 再来一局 at a finished 四国 table, over the service on SQLite and PostgreSQL: when
//! every seated person agrees (the computer agrees with the first), a new table with
//! the same settings and the same people in the same seats starts deploying and every
//! socket is told its id; a decline ends the offer for everyone; a rematch past a cap
//! is refused with that cap's error and creates nothing; a rematch before the end, from
//! a spectator or asked twice is refused and changes nothing.

#[macro_use]
mod support;

use serde_json::{Value, json};
use support::{Client, Harness, Socket, TestDb};

db_tests! {
    every_person_agrees_and_the_same_seats_play_again => every_person_agrees_and_the_same_seats_play_again_sqlite, every_person_agrees_and_the_same_seats_play_again_postgres;
    a_decline_ends_the_offer_for_everyone => a_decline_ends_the_offer_for_everyone_sqlite, a_decline_ends_the_offer_for_everyone_postgres;
    a_rematch_past_a_cap_is_refused_and_creates_nothing => a_rematch_past_a_cap_is_refused_and_creates_nothing_sqlite, a_rematch_past_a_cap_is_refused_and_creates_nothing_postgres;
    a_rematch_with_the_computer_counts_against_every_persons_cap => a_rematch_with_the_computer_counts_against_every_persons_cap_sqlite, a_rematch_with_the_computer_counts_against_every_persons_cap_postgres;
    bad_rematch_requests_change_nothing => bad_rematch_requests_change_nothing_sqlite, bad_rematch_requests_change_nothing_postgres;
}

const SEATS: [&str; 4] = ["south", "east", "north", "west"];

struct Seated {
    id: String,
    /// Sockets of the people, in seat order (`None` for the computer's seat).
    s: Vec<Option<Socket>>,
    people: Vec<Option<Client>>,
}

impl Seated {
    fn sock(&mut self, seat: usize) -> &mut Socket {
        self.s[seat].as_mut().expect("a person's socket")
    }
}

/// A 混战 table opened with `body` by `names[0]` (south), the others in seat order; a
/// `None` name is the computer at `level`. Deployed, and in play.
async fn seated(h: &Harness, body: Value, names: [Option<&str>; 4], level: &str) -> Seated {
    let mut creator = h
        .player(names[0].expect("a person creates the table"))
        .await;
    let r = creator.post("/api/tables", body).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let id = r.json["id"].as_str().unwrap().to_string();
    let mut s = vec![Some(creator.game_socket(&id).await)];
    let mut people = vec![Some(creator)];
    for (i, name) in names.iter().enumerate().skip(1) {
        match name {
            Some(name) => {
                let c = h.player(name).await;
                let mut sock = c.game_socket(&id).await;
                sock.act("sit", json!({"seat": SEATS[i]}))
                    .await
                    .expect("sit");
                s.push(Some(sock));
                people.push(Some(c));
            }
            None => {
                s[0].as_mut()
                    .unwrap()
                    .act("seat_computer", json!({"seat": SEATS[i], "level": level}))
                    .await
                    .expect("the computer sits");
                s.push(None);
                people.push(None);
            }
        }
    }
    for sock in s.iter_mut().flatten() {
        sock.act("ready", Value::Null).await.expect("ready");
    }
    for sock in s.iter_mut().flatten() {
        table_where(sock, "deployment", |d| d["phase"] == "deploying").await;
        sock.act("ready", Value::Null).await.expect("deployed");
    }
    for sock in s.iter_mut().flatten() {
        table_where(sock, "play", |d| d["phase"] == "playing").await;
    }
    Seated { id, s, people }
}

/// Ends a 混战 game at once: every person but the last one left leaves (托管退出
/// defeats at once in a free-for-all), so the last seat standing wins.
async fn end_by_leaving(t: &mut Seated) {
    let people: Vec<usize> = (0..4).filter(|&i| t.s[i].is_some()).collect();
    let stay = if people.len() == 4 { Some(0) } else { None };
    for &i in &people {
        if Some(i) == stay {
            continue;
        }
        let d = table_where(t.sock(i), "the game", |d| d["phase"] != "deploying").await;
        if d["phase"] == "over" {
            break;
        }
        t.sock(i).act("leave", Value::Null).await.expect("leave");
    }
    for sock in t.s.iter_mut().flatten() {
        table_where(sock, "the end", |d| d["phase"] == "over").await;
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

fn seats_of(h: &Harness, id: &str) -> Vec<(String, i64)> {
    let mut seats: Vec<(String, i64)> = junqi::db::tables::seats(&mut h.conn(), id)
        .unwrap()
        .into_iter()
        .map(|s| (s.seat, s.user_id))
        .collect();
    seats.sort();
    seats
}

fn free_for_all(rated: bool) -> Value {
    json!({"seconds_per_action": 60, "rated": rated, "options": {"alliance": "none"}})
}

async fn every_person_agrees_and_the_same_seats_play_again(db: TestDb) {
    let h = Harness::start(db);
    let mut t = seated(
        &h,
        free_for_all(false),
        [Some("ann"), Some("bob"), Some("cat"), None],
        "hard",
    )
    .await;
    end_by_leaving(&mut t).await;
    let over = t.sock(0).newest_table().await;
    assert_eq!(
        over["rematch"],
        json!({"by": [], "agreed": false, "declined": [], "next": null}),
        "{over}"
    );
    assert_eq!(over["can"]["rematch"], true);
    assert_eq!(over["can"]["decline_rematch"], false, "no offer yet");

    // The first to ask brings the computer's seat with it.
    t.sock(1)
        .act("rematch", Value::Null)
        .await
        .expect("east asks");
    for i in [0, 1, 2] {
        let d = table_where(t.sock(i), "the offer", |d| {
            d["rematch"]["by"] == json!(["east", "west"])
        })
        .await;
        assert_eq!(d["can"]["rematch"], i != 1, "{}: {d}", SEATS[i]);
        assert_eq!(d["can"]["decline_rematch"], true);
    }
    t.sock(0)
        .act("rematch", Value::Null)
        .await
        .expect("south asks");
    assert!(h.row(&t.id).next_game.is_none(), "north has not agreed");
    t.sock(2)
        .act("rematch", Value::Null)
        .await
        .expect("north asks");

    let next = h.row(&t.id).next_game.expect("the new table");
    for i in [0, 1, 2] {
        let d = table_where(t.sock(i), "the new table", |d| d["rematch"]["next"] == next).await;
        assert_eq!(d["rematch"]["agreed"], true);
        assert_eq!(d["rematch"]["by"], json!(SEATS));
        assert_eq!(d["can"]["rematch"], false);
    }
    // The same people in the same seats, the computer at the same level.
    assert_eq!(seats_of(&h, &next), seats_of(&h, &t.id));
    let old = h.row(&t.id);
    let new = h.row(&next);
    assert_eq!(new.options, old.options);
    assert_eq!(new.rated, old.rated);
    assert_eq!(new.seconds_per_action, old.seconds_per_action);
    assert_eq!(new.creator_id, old.creator_id);
    assert_eq!(new.previous_game.as_deref(), Some(t.id.as_str()));
    let hard = junqi::db::users::computer_player(&mut h.conn(), junqi::engine::Level::Hard)
        .unwrap()
        .id;
    assert!(seats_of(&h, &next).contains(&("west".into(), hard)));
    // Every seat is ready: the new table deploys at once.
    let c = t.people[0].as_ref().unwrap();
    let mut s = c.game_socket(&next).await;
    let d = table_where(&mut s, "deployment", |d| d["phase"] == "deploying").await;
    assert_eq!(d["you"], "south");
    let names: Vec<Value> = (0..4)
        .map(|i| d["seats"][i]["player"]["username"].clone())
        .collect();
    assert_eq!(names[..3], [json!("ann"), json!("bob"), json!("cat")]);
    assert_eq!(d["seats"][3]["player"]["kind"], "computer", "{d}");
    // Asking again at the old table is refused: it is done.
    t.sock(0)
        .act_err("rematch", Value::Null, "rematch_started")
        .await;
}

async fn a_decline_ends_the_offer_for_everyone(db: TestDb) {
    let h = Harness::start(db);
    let names = [Some("ann"), Some("bob"), Some("cat"), Some("dan")];
    let mut t = seated(&h, free_for_all(false), names, "easy").await;
    end_by_leaving(&mut t).await;
    t.sock(0)
        .act("rematch", Value::Null)
        .await
        .expect("south asks");
    t.sock(3)
        .act("rematch", Value::Null)
        .await
        .expect("west asks");
    t.sock(2)
        .act("decline_rematch", Value::Null)
        .await
        .expect("north declines");
    for i in 0..4 {
        let d = table_where(t.sock(i), "the decline", |d| {
            d["rematch"]["declined"] == json!(["north"])
        })
        .await;
        assert_eq!(d["rematch"]["by"], json!([]), "the offer is over: {d}");
        assert_eq!(d["can"]["rematch"], false);
        assert_eq!(d["can"]["decline_rematch"], false);
    }
    let m = t
        .sock(1)
        .act_err("rematch", Value::Null, "rematch_declined")
        .await;
    assert!(m.contains("declined"), "{m}");
    t.sock(0)
        .act_err("decline_rematch", Value::Null, "rematch_declined")
        .await;
    assert!(h.row(&t.id).next_game.is_none(), "no table was created");
}

async fn a_rematch_past_a_cap_is_refused_and_creates_nothing(db: TestDb) {
    let h = Harness::start(db);
    let names = [Some("ann"), Some("bob"), Some("cat"), Some("dan")];
    let mut t = seated(&h, free_for_all(true), names, "easy").await;
    // While the table runs it is one of ann's three rated games in hand.
    let ann = t.people[0].as_mut().unwrap();
    ann.create_game(15, true).await;
    ann.create_game(30, true).await;
    end_by_leaving(&mut t).await;
    let ann = t.people[0].as_mut().unwrap();
    let third = ann.create_game(60, true).await;
    let ann_id = h.row(&t.id).creator_id;
    let games_before = junqi::db::games::open_count(&mut h.conn(), ann_id).unwrap();

    let m = t
        .sock(0)
        .act_err("rematch", Value::Null, "too_many_rated_games")
        .await;
    assert!(m.contains('3'), "the message gives the cap: {m}");
    // Anyone's agreement is checked against every seat's caps, and told whose it is.
    let m = t
        .sock(1)
        .act_err("rematch", Value::Null, "too_many_rated_games")
        .await;
    assert!(m.contains("ann already has"), "{m}");
    let d = t.sock(0).newest_table().await;
    assert_eq!(d["rematch"]["by"], json!([]), "{d}");
    assert_eq!(d["can"]["rematch"], true, "it may be asked again");
    assert!(h.row(&t.id).next_game.is_none());
    assert_eq!(
        junqi::db::games::open_count(&mut h.conn(), ann_id).unwrap(),
        games_before,
        "no table was created"
    );

    // With room again, all four agree and the rated table is played again.
    let ann = t.people[0].as_mut().unwrap();
    let r = ann.post_empty(&format!("/api/games/{third}/cancel")).await;
    assert_eq!(r.status, 204, "{}", r.text);
    for i in 0..4 {
        t.sock(i).act("rematch", Value::Null).await.expect("agree");
    }
    let next = h.row(&t.id).next_game.expect("the new table");
    assert!(h.row(&next).rated);
    assert_eq!(seats_of(&h, &next), seats_of(&h, &t.id));
}

async fn a_rematch_with_the_computer_counts_against_every_persons_cap(db: TestDb) {
    let h = Harness::start(db);
    let names = [Some("ann"), Some("bob"), Some("cat"), None];
    let mut t = seated(&h, free_for_all(false), names, "easy").await;
    end_by_leaving(&mut t).await;
    // Bob plays three games against the computer elsewhere: a fourth is past his cap.
    let bob = t.people[1].as_mut().unwrap();
    for _ in 0..3 {
        let r = bob
            .post(
                "/api/tables",
                json!({"seconds_per_action": 60, "computer": "easy"}),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.text);
    }
    let m = t
        .sock(0)
        .act_err("rematch", Value::Null, "too_many_computer_games")
        .await;
    assert!(m.contains("bob already plays"), "{m}");
    let m = t
        .sock(1)
        .act_err("rematch", Value::Null, "too_many_computer_games")
        .await;
    assert!(
        m.starts_with("you already play"),
        "his own cap in his words: {m}"
    );
    let d = t.sock(2).newest_table().await;
    assert_eq!(
        d["rematch"]["by"],
        json!([]),
        "nothing recorded, not even the computer's: {d}"
    );
    assert!(h.row(&t.id).next_game.is_none(), "no table was created");
}

async fn bad_rematch_requests_change_nothing(db: TestDb) {
    let h = Harness::start(db);
    let names = [Some("ann"), Some("bob"), Some("cat"), Some("dan")];
    let mut t = seated(&h, free_for_all(false), names, "easy").await;
    // In play: not yet.
    let m = t.sock(0).act_err("rematch", Value::Null, "not_over").await;
    assert!(m.contains("over"), "{m}");
    t.sock(1)
        .act_err("decline_rematch", Value::Null, "not_over")
        .await;
    let playing = t.sock(0).newest_table().await;
    assert!(playing["rematch"].is_null(), "{playing}");
    assert_eq!(playing["can"]["rematch"], false);
    end_by_leaving(&mut t).await;

    // A spectator, logged in or not, has no say.
    let watcher = h.player("eve").await;
    let mut w = watcher.game_socket(&t.id).await;
    w.act_err("rematch", Value::Null, "not_a_player").await;
    w.act_err("decline_rematch", Value::Null, "not_a_player")
        .await;
    let d = w.newest_table().await;
    assert_eq!(d["can"]["rematch"], false);
    let mut anon = h.client().game_socket(&t.id).await;
    anon.act_err("rematch", Value::Null, "not_logged_in").await;
    // Declining what nobody offered.
    t.sock(2)
        .act_err("decline_rematch", Value::Null, "no_rematch_offer")
        .await;
    // Twice.
    t.sock(0).act("rematch", Value::Null).await.expect("asks");
    let before = t.sock(0).newest_table().await;
    t.sock(0)
        .act_err("rematch", Value::Null, "already_agreed")
        .await;
    let after = t.sock(0).newest_table().await;
    assert_eq!(after["rematch"], before["rematch"]);
    assert_eq!(after["rematch"]["by"], json!(["south"]));
    // A two-player game does not take a table's decline.
    let mut a = h.player("fay").await;
    let g = a.create_game(30, false).await;
    let mut s = a.game_socket(&g).await;
    s.act_err("decline_rematch", Value::Null, "illegal").await;
    assert!(h.row(&t.id).next_game.is_none());
}
