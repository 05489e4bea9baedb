//! 大师 (`master`) is offered wherever the other levels are: the lobby's two forms and
//! the table's seat picker list it, a game against it opens (flip and standard) with
//! its own account and figure, a 四国 table's creator can give it a seat, and a table
//! opened with the computer in the other seats can be at 大师.

#[macro_use]
mod support;

use serde_json::json;
use support::computer::create;
use support::{Harness, TestDb};

db_tests! {
    master_is_offered_and_plays_two_player_games => master_is_offered_and_plays_two_player_games_sqlite, master_is_offered_and_plays_two_player_games_postgres;
    master_takes_siguo_seats => master_takes_siguo_seats_sqlite, master_takes_siguo_seats_postgres;
}

fn user_id(h: &Harness, name: &str) -> i64 {
    junqi::db::users::by_name(&mut h.conn(), name)
        .unwrap()
        .unwrap()
        .id
}

async fn master_is_offered_and_plays_two_player_games(db: TestDb) {
    let h = Harness::start(db);
    let mut c = h.player("challenger").await;
    for (path, offered) in [
        ("/", "name=\"computer\" value=\"master\""),
        ("/?lang=en", ">Master<"),
        ("/?lang=en", ">Computer, master<"),
        ("/", ">大师<"),
        ("/", ">电脑 大师<"),
    ] {
        let page = c.get(path).await;
        assert_eq!(page.status, 200);
        assert!(page.text.contains(offered), "{path} offers {offered}");
    }
    // Two radio groups list the levels: the 人机对战 form and the 四国 table's other
    // seats (which also offer people); four levels in the first.
    let page = c.get("/").await;
    assert_eq!(page.text.matches("value=\"master\"").count(), 2);

    let mut figure = String::new();
    for variant in ["flip", "standard"] {
        let r = create(&mut c, variant, 30, "master").await;
        assert_eq!(r.status, 201, "{variant} against master: {}", r.text);
        let id = r.json["id"].as_str().unwrap().to_string();
        let summary = c.summary(&id).await;
        assert_eq!(summary["status"], "running", "{summary}");
        let seats = &summary["players"];
        let it = if seats["south"]["username"] == "challenger" {
            "north"
        } else {
            "south"
        };
        assert_eq!(seats[it]["username"], "computer-master", "{summary}");
        assert_eq!(seats[it]["display_name"], "电脑·大师", "{summary}");
        assert_eq!(seats[it]["avatar"], "computer-master", "{summary}");
        figure = seats[it]["avatar_url"].as_str().unwrap().to_string();
    }
    let figure = c.get(&figure).await;
    assert_eq!(figure.status, 200);
    assert!(figure.text.starts_with("<svg"));
    let profile = c.get("/@/computer-master").await;
    assert_eq!(profile.status, 200);
    assert!(
        profile.text.contains("这是本站的电脑棋手（大师）"),
        "{}",
        profile.text
    );
    let profile = c.get("/@/computer-master?lang=en").await;
    assert!(profile.text.contains("level Master"), "{}", profile.text);
}

async fn master_takes_siguo_seats(db: TestDb) {
    let h = Harness::start(db);
    let mut host = h.player("host").await;
    let page = host.get("/?lang=en").await;
    assert!(page.text.contains("name=\"computer\" value=\"master\""));

    // The creator gives an empty seat to 大师.
    let r = host
        .post("/api/tables", json!({"seconds_per_action": 30}))
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let id = r.json["id"].as_str().unwrap().to_string();
    let table = host.get(&format!("/game/{id}")).await;
    assert!(
        table.text.contains("<option value=\"master\">"),
        "the seat picker offers 大师"
    );
    let mut s = host.game_socket(&id).await;
    s.wait_for("the table", |v| v["t"] == "table").await;
    s.act("seat_computer", json!({"seat": "north", "level": "master"}))
        .await
        .expect("大师 takes the seat");
    let master = user_id(&h, "computer-master");
    let seats = junqi::db::tables::seats(&mut h.conn(), &id).unwrap();
    assert!(
        seats
            .iter()
            .any(|r| r.seat == "north" && r.user_id == master),
        "north is 大师's"
    );
    let d = s.newest_table().await;
    let north = d["seats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["player"]["username"] == "computer-master")
        .unwrap_or_else(|| panic!("大师 seated: {d}"));
    assert_eq!(north["player"]["kind"], "computer", "{d}");

    // A table with the computer in the other seats, at 大师: it starts at once.
    let mut solo = h.player("solo").await;
    let r = solo
        .post(
            "/api/tables",
            json!({"seconds_per_action": 30, "computer": "master"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let id = r.json["id"].as_str().unwrap().to_string();
    let seats = junqi::db::tables::seats(&mut h.conn(), &id).unwrap();
    assert_eq!(seats.len(), 4);
    assert_eq!(seats.iter().filter(|r| r.user_id == master).count(), 3);
}
