//! Avatars (角色秀) on SQLite and PostgreSQL: a player who has not picked shows a
//! default from the set, the same on every request; a pick (`PATCH /api/me` or the
//! profile's form) shows in `GET /api/me`, `/api/players/NAME`, the open-games list, a
//! game's summary and socket state for both seats, the profile and the ladder; an
//! unknown figure is refused and changes nothing; no one changes another player's
//! figure; the computer players always show their level's own, a bot the robot until
//! its program picks (with its token); picks are limited per player (on the frozen
//! rate clock, so the counts are exact).

#[macro_use]
mod support;

use awc::http::header;
use serde_json::{Value, json};
use std::time::Duration;
use support::{Client, Harness, Resp, TestDb};

db_tests! {
    the_default_is_stable_and_a_pick_shows_everywhere => the_default_is_stable_and_a_pick_shows_everywhere_sqlite, the_default_is_stable_and_a_pick_shows_everywhere_postgres;
    an_unknown_figure_is_refused_and_changes_nothing => an_unknown_figure_is_refused_and_changes_nothing_sqlite, an_unknown_figure_is_refused_and_changes_nothing_postgres;
    no_one_picks_for_another_player => no_one_picks_for_another_player_sqlite, no_one_picks_for_another_player_postgres;
    the_computer_shows_its_levels_figure => the_computer_shows_its_levels_figure_sqlite, the_computer_shows_its_levels_figure_postgres;
    picks_are_limited_per_player => picks_are_limited_per_player_sqlite, picks_are_limited_per_player_postgres;
    a_bot_shows_the_robot_until_its_program_picks => a_bot_shows_the_robot_until_its_program_picks_sqlite, a_bot_shows_the_robot_until_its_program_picks_postgres;
}

/// The figures a player may pick (src/avatars.rs).
const SET: [&str; 12] = [
    "soldier-red",
    "soldier-blue",
    "scout",
    "engineer",
    "medic",
    "signaller",
    "tanker",
    "pilot",
    "sailor",
    "officer",
    "colonel",
    "general",
];

/// A request as a browser's form or script sends it, redirects not followed.
async fn request(c: &Client, method: &str, path: &str, body: Option<(&str, String)>) -> Resp {
    let http = awc::Client::builder().disable_redirects().finish();
    let url = format!("{}{path}", c.base);
    let mut req = match method {
        "PATCH" => http.patch(url),
        "POST" => http.post(url),
        _ => http.get(url),
    };
    if let Some(cookie) = &c.cookie {
        req = req.insert_header((header::COOKIE, cookie.clone()));
    }
    if let Some(token) = &c.bearer {
        req = req.insert_header((header::AUTHORIZATION, format!("Bearer {token}")));
    }
    if let Some(ip) = &c.forwarded_for {
        req = req.insert_header(("x-forwarded-for", ip.clone()));
    }
    let mut resp = match body {
        Some((ct, b)) => req
            .insert_header((header::CONTENT_TYPE, ct.to_string()))
            .send_body(b),
        None => req.send(),
    }
    .await
    .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
    let location = resp
        .headers()
        .get(header::LOCATION)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let retry_after = resp
        .headers()
        .get(header::RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let bytes = resp.body().limit(4 << 20).await.unwrap();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    Resp {
        status: resp.status().as_u16(),
        json: serde_json::from_str(&text).unwrap_or(Value::Null),
        text: location.map_or(text.clone(), |l| format!("Location: {l}\n{text}")),
        retry_after,
    }
}

async fn patch(c: &Client, body: Value) -> Resp {
    request(
        c,
        "PATCH",
        "/api/me",
        Some(("application/json", body.to_string())),
    )
    .await
}

/// The profile's picker, as the form posts it.
async fn pick_by_form(c: &Client, profile: &str, avatar: &str) -> Resp {
    let body = format!("avatar={avatar}");
    let path = format!("/@/{profile}/avatar");
    request(
        c,
        "POST",
        &path,
        Some(("application/x-www-form-urlencoded", body)),
    )
    .await
}

/// The figure `GET /api/me` shows.
async fn my_avatar(c: &mut Client) -> String {
    let me = c.get("/api/me").await;
    assert_eq!(me.status, 200, "{}", me.text);
    me.json["avatar"].as_str().expect("an avatar").to_string()
}

/// A player shape's figure, checked to come with its image URL.
fn figure(p: &Value) -> &str {
    let name = p["avatar"]
        .as_str()
        .unwrap_or_else(|| panic!("no avatar: {p}"));
    let url = p["avatar_url"].as_str().unwrap_or_default();
    assert!(
        url.starts_with(&format!("/static/avatars/{name}.")) && url.ends_with(".svg"),
        "the image of {name} is its own hashed file: {p}"
    );
    name
}

async fn the_default_is_stable_and_a_pick_shows_everywhere(db: TestDb) {
    let h = Harness::start(db);
    let mut alice = h.player("alice").await;
    let mut bob = h.player("bob").await;

    // Before picking: a figure of the set, the same on every page and request.
    let me = alice.get("/api/me").await;
    let first = figure(&me.json).to_string();
    assert!(SET.contains(&first.as_str()), "{first} is of the set");
    assert_eq!(my_avatar(&mut alice).await, first);
    assert_eq!(figure(&alice.player("alice").await), first);
    let image = alice.get(me.json["avatar_url"].as_str().unwrap()).await;
    assert_eq!(image.status, 200);
    assert!(
        image.text.starts_with("<svg"),
        "the figure is drawn: {}",
        image.text
    );
    let page = alice.get("/@/alice").await;
    assert!(
        page.text.contains("id=\"profile-avatar\"")
            && page.text.contains(&format!("data-avatar=\"{first}\"")),
        "the profile shows the default"
    );
    // A guest gets one of the set as well.
    let mut guest = h.client();
    assert_eq!(guest.post_empty("/api/guest").await.status, 201);
    assert!(SET.contains(&my_avatar(&mut guest).await.as_str()));

    // Picking: shown at once in the answer, then everywhere.
    let picked = if first == "medic" { "pilot" } else { "medic" };
    let r = patch(&alice, json!({"avatar": picked})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(figure(&r.json), picked);
    assert_eq!(my_avatar(&mut alice).await, picked);
    assert_eq!(figure(&bob.player("alice").await), picked);
    assert_eq!(
        figure(&bob.get("/api/players/alice?variant=standard").await.json),
        picked
    );
    let r = pick_by_form(&bob, "bob", "general").await;
    assert_eq!(r.status, 303, "{}", r.text);
    assert!(r.text.starts_with("Location: /@/bob"), "{}", r.text);
    assert_eq!(my_avatar(&mut bob).await, "general");

    // In the lobby's open games, and in the game for both seats.
    let id = alice.create_game(30, true).await;
    let open = bob.get("/api/games/open").await;
    let row = open
        .json
        .as_array()
        .and_then(|games| games.iter().find(|g| g["id"] == id.as_str()))
        .unwrap_or_else(|| panic!("the open game is listed: {}", open.text));
    assert_eq!(figure(&row["creator"]), picked);
    let mut lobby = bob.socket("/ws/lobby").await;
    let listed = lobby
        .wait_for("the lobby's open games", |m| m.to_string().contains(&id))
        .await;
    assert!(
        listed
            .to_string()
            .contains(&format!("\"avatar\":\"{picked}\"")),
        "{listed}"
    );
    bob.join(&id).await;
    let summary = alice.summary(&id).await;
    let seats = &summary["players"];
    let (a, b) = if seats["south"]["username"] == "alice" {
        ("south", "north")
    } else {
        ("north", "south")
    };
    assert_eq!(figure(&seats[a]), picked, "{summary}");
    assert_eq!(figure(&seats[b]), "general", "{summary}");
    assert_eq!(figure(&summary["creator"]), picked);
    let mut s = bob.game_socket(&id).await;
    let state = s.wait_state().await;
    let players = &state["d"]["game"]["players"];
    assert_eq!(figure(&players[a]), picked, "{state}");
    assert_eq!(figure(&players[b]), "general", "{state}");

    // The profile shows the pick checked in its picker; the ladder beside the name.
    let page = alice.get("/@/alice").await;
    assert!(page.text.contains(&format!("data-avatar=\"{picked}\"")));
    assert!(
        page.text.contains(&format!("value=\"{picked}\" checked")),
        "the picker has the pick checked"
    );
    let others = bob.get("/@/alice").await;
    assert!(
        others.text.contains(&format!("data-avatar=\"{picked}\""))
            && !others.text.contains("id=\"avatar-form\""),
        "others see the figure, not the picker"
    );
    let ladder = bob.get("/ladder").await;
    let row = ladder
        .text
        .split("data-username=\"alice\"")
        .nth(1)
        .and_then(|rest| rest.split("</tr>").next())
        .expect("alice on the ladder");
    assert!(row.contains(&format!("data-avatar=\"{picked}\"")), "{row}");
}

async fn an_unknown_figure_is_refused_and_changes_nothing(db: TestDb) {
    let h = Harness::start(db);
    let mut alice = h.player("alice").await;
    assert_eq!(patch(&alice, json!({"avatar": "scout"})).await.status, 200);
    assert_eq!(
        patch(&alice, json!({"display_name": "小明"})).await.status,
        200
    );
    for (body, code) in [
        (json!({"avatar": "admiral"}), "invalid_avatar"),
        (json!({"avatar": "computer-hard"}), "invalid_avatar"),
        (json!({"avatar": "bot"}), "invalid_avatar"),
        (json!({"avatar": ""}), "invalid_avatar"),
        (json!({"avatar": 5}), "bad_request"),
        (json!({"avatar": null}), "bad_request"),
        (json!({"avatar": "medic", "colour": "red"}), "bad_request"),
        // The name is refused, so the good figure beside it is not stored either.
        (
            json!({"avatar": "medic", "display_name": "<b>"}),
            "invalid_display_name",
        ),
    ] {
        let r = patch(&alice, body.clone()).await;
        assert_eq!(r.status, 400, "{body}: {}", r.text);
        assert_eq!(r.json["error"]["code"], code, "{body}: {}", r.text);
    }
    let r = patch(&alice, json!({"avatar": "admiral"})).await;
    assert!(
        r.json["error"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("soldier-red"),
        "the refusal names the choices: {}",
        r.text
    );
    let malformed = request(
        &alice,
        "PATCH",
        "/api/me",
        Some(("application/json", "{\"avatar\":".into())),
    )
    .await;
    assert_eq!(malformed.status, 400, "{}", malformed.text);
    let r = pick_by_form(&alice, "alice", "admiral").await;
    assert_eq!(r.status, 400, "{}", r.text);
    let r = request(
        &alice,
        "POST",
        "/@/alice/avatar",
        Some(("application/x-www-form-urlencoded", "colour=red".into())),
    )
    .await;
    assert_eq!(r.status, 400, "a form without a figure: {}", r.text);
    let me = alice.get("/api/me").await;
    assert_eq!(me.json["avatar"], "scout", "{}", me.text);
    assert_eq!(me.json["display_name"], "小明", "{}", me.text);
    assert!(
        h.log().find("panicked").is_none(),
        "no bad input panics the server"
    );
}

async fn no_one_picks_for_another_player(db: TestDb) {
    let h = Harness::start(db);
    let mut alice = h.player("alice").await;
    let bob = h.player("bob").await;
    let before = my_avatar(&mut alice).await;
    let other = SET.iter().find(|a| **a != before).unwrap();
    let r = pick_by_form(&bob, "alice", other).await;
    assert_eq!(r.status, 403, "{}", r.text);
    let anon = h.client();
    let r = pick_by_form(&anon, "alice", other).await;
    assert_eq!(r.status, 401, "{}", r.text);
    let r = patch(&anon, json!({"avatar": other})).await;
    assert_eq!(r.status, 401, "{}", r.text);
    let r = pick_by_form(&alice, "nobody-here", other).await;
    assert_eq!(r.status, 403, "{}", r.text);
    assert_eq!(my_avatar(&mut alice).await, before, "alice keeps hers");
    // Bob's own pick changes only his.
    assert_eq!(patch(&bob, json!({"avatar": other})).await.status, 200);
    assert_eq!(my_avatar(&mut alice).await, before);
}

async fn the_computer_shows_its_levels_figure(db: TestDb) {
    let h = Harness::start(db);
    let mut alice = h.player("alice").await;
    assert_eq!(patch(&alice, json!({"avatar": "sailor"})).await.status, 200);
    for level in ["easy", "normal", "hard", "master"] {
        let name = format!("computer-{level}");
        assert_eq!(figure(&alice.player(&name).await), name);
    }
    // Even a figure written into the computer's row by hand is not shown for it.
    {
        use diesel::prelude::*;
        use junqi::db::schema::users;
        diesel::update(users::table.filter(users::username.eq("computer-normal")))
            .set(users::avatar.eq("medic"))
            .execute(&mut **h.conn())
            .unwrap();
    }
    let r = support::computer::create(&mut alice, "flip", 30, "normal").await;
    assert_eq!(r.status, 201, "{}", r.text);
    let id = r.json["id"].as_str().unwrap().to_string();
    let summary = alice.summary(&id).await;
    let seats = &summary["players"];
    let (me, it) = if seats["south"]["username"] == "alice" {
        ("south", "north")
    } else {
        ("north", "south")
    };
    assert_eq!(seats[it]["username"], "computer-normal", "{summary}");
    assert_eq!(figure(&seats[it]), "computer-normal", "{summary}");
    assert_eq!(figure(&seats[me]), "sailor", "{summary}");
    let page = alice.get("/@/computer-hard").await;
    assert!(page.text.contains("data-avatar=\"computer-hard\""));
}

async fn picks_are_limited_per_player(db: TestDb) {
    let h = Harness::start_with_flags(db, &["--trust-proxy", "--frozen-rate-clock"]);
    let mut alice = h.client();
    alice.forwarded_for = Some("10.9.0.1".into());
    let r = alice
        .post(
            "/api/register",
            json!({"username": "alice", "password": "correct horse"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let mut bob = h.client();
    bob.forwarded_for = Some("10.9.0.2".into());
    let r = bob
        .post(
            "/api/register",
            json!({"username": "bob", "password": "correct horse"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);

    // A burst of picks goes through (trying the set on), by the API and the form alike.
    for i in 0..12 {
        let a = SET[i % SET.len()];
        let r = if i % 2 == 0 {
            patch(&alice, json!({"avatar": a})).await.status
        } else {
            pick_by_form(&alice, "alice", a).await.status
        };
        assert!(r == 200 || r == 303, "pick {i}: {r}");
    }
    let r = patch(&alice, json!({"avatar": "medic"})).await;
    assert_eq!(r.status, 429, "past the burst: {}", r.text);
    assert_eq!(r.retry_after.as_deref(), Some("5"), "{}", r.text);
    assert_eq!(pick_by_form(&alice, "alice", "medic").await.status, 429);
    assert_eq!(
        my_avatar(&mut alice).await,
        SET[11],
        "the refused picks changed nothing"
    );
    // Others pick freely, and the display name is not held back.
    assert_eq!(patch(&bob, json!({"avatar": "medic"})).await.status, 200);
    assert_eq!(
        patch(&alice, json!({"display_name": "小明"})).await.status,
        200
    );
    support::advance_rate_clock(&h.base(), Duration::from_secs(5)).await;
    assert_eq!(patch(&alice, json!({"avatar": "medic"})).await.status, 200);
    assert_eq!(my_avatar(&mut alice).await, "medic");
    assert_eq!(patch(&alice, json!({"avatar": "pilot"})).await.status, 429);
}

async fn a_bot_shows_the_robot_until_its_program_picks(db: TestDb) {
    let h = Harness::start(db);
    let mut bot = h.bot("robo").await;
    assert_eq!(figure(&bot.client.player("robo").await), "bot");
    let r = patch(&bot.client, json!({"avatar": "tanker"})).await;
    assert_eq!(
        r.status, 200,
        "the bot's program picks with its token: {}",
        r.text
    );
    assert_eq!(figure(&bot.owner.player("robo").await), "tanker");
}
