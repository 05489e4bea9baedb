//! Display names (昵称) on SQLite and PostgreSQL: set, removed and refused through
//! `PATCH /api/me` and the profile's form, carried in the JSON of players and games,
//! and shown — escaped — beside the login name on the pages.

#[macro_use]
mod support;

use awc::http::header;
use serde_json::{Value, json};
use support::{Client, Harness, Resp, TestDb};

db_tests! {
    set_remove_and_refuse_through_the_api => set_remove_and_refuse_through_the_api_sqlite, set_remove_and_refuse_through_the_api_postgres;
    games_and_pages_show_it => games_and_pages_show_it_sqlite, games_and_pages_show_it_postgres;
    the_profile_form_sets_and_refuses => the_profile_form_sets_and_refuses_sqlite, the_profile_form_sets_and_refuses_postgres;
    no_name_passes_for_the_computer_or_breaks_the_layout => no_name_passes_for_the_computer_or_breaks_the_layout_sqlite, no_name_passes_for_the_computer_or_breaks_the_layout_postgres;
}

async fn request(c: &Client, method: &str, path: &str, body: Option<String>) -> Resp {
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
    let mut resp = match body {
        Some(b) if method == "POST" => req
            .insert_header((header::CONTENT_TYPE, "application/x-www-form-urlencoded"))
            .send_body(b),
        Some(b) => req
            .insert_header((header::CONTENT_TYPE, "application/json"))
            .send_body(b),
        None => req.send(),
    }
    .await
    .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
    let status = resp.status().as_u16();
    let location = resp
        .headers()
        .get(header::LOCATION)
        .map(|v| v.to_str().unwrap().to_string());
    let text = String::from_utf8_lossy(&resp.body().limit(4 << 20).await.unwrap()).into_owned();
    Resp {
        status,
        json: serde_json::from_str(&text).unwrap_or(Value::Null),
        text: location.map_or(text.clone(), |l| format!("Location: {l}\n{text}")),
        retry_after: None,
    }
}

async fn patch(c: &Client, body: Value) -> Resp {
    request(c, "PATCH", "/api/me", Some(body.to_string())).await
}

async fn me(c: &mut Client) -> Value {
    let r = c.get("/api/me").await;
    assert_eq!(r.status, 200, "{}", r.text);
    r.json
}

async fn set_remove_and_refuse_through_the_api(db: TestDb) {
    let h = Harness::start(db);
    let mut alice = h.player("alice").await;
    assert_eq!(me(&mut alice).await["display_name"], Value::Null);

    let r = patch(&alice, json!({"display_name": "  小明·Li 2 "})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["display_name"], "小明·Li 2", "stored trimmed");
    assert_eq!(r.json["username"], "alice");
    assert_eq!(me(&mut alice).await["display_name"], "小明·Li 2");
    let public = alice.player("alice").await;
    assert_eq!(public["display_name"], "小明·Li 2");

    // Refused, each with a clear message, and nothing changes.
    for (bad, code) in [
        (
            json!({"display_name": "<script>alert(1)</script>"}),
            "invalid_display_name",
        ),
        (
            json!({"display_name": "一二三四五六七八九十一二三"}),
            "invalid_display_name",
        ),
        (
            json!({"display_name": "a\u{200b}b"}),
            "invalid_display_name",
        ),
        (
            json!({"display_name": "a\u{202e}b"}),
            "invalid_display_name",
        ),
        (json!({"display_name": "tab\there"}), "invalid_display_name"),
        // A letter that draws as nothing (Hangul filler): the shared name check.
        (
            json!({"display_name": "\u{3164}\u{3164}"}),
            "invalid_display_name",
        ),
        (json!({"display_name": "   "}), "invalid_display_name"),
        (json!({"display_name": "🙂"}), "invalid_display_name"),
        (json!({"display_name": 7}), "bad_request"),
        (json!({}), "bad_request"),
        (
            json!({"display_name": "ok", "username": "root"}),
            "bad_request",
        ),
        (json!(["小明"]), "bad_request"),
    ] {
        let r = patch(&alice, bad.clone()).await;
        r.assert_error(400, code);
        assert_eq!(
            me(&mut alice).await["display_name"],
            "小明·Li 2",
            "{bad} changed nothing"
        );
    }
    let r = request(&alice, "PATCH", "/api/me", Some("{not json".into())).await;
    assert_eq!(r.status, 400, "{}", r.text);
    let long = patch(
        &alice,
        json!({"display_name": "一二三四五六七八九十一二三"}),
    )
    .await;
    assert!(
        long.json["error"]["message"]
            .as_str()
            .unwrap()
            .contains("12")
    );

    // Twelve characters exactly is fine; null removes.
    let r = patch(&alice, json!({"display_name": "一二三四五六七八九十一二"})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = patch(&alice, json!({"display_name": null})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["display_name"], Value::Null);
    assert_eq!(me(&mut alice).await["display_name"], Value::Null);

    // Logged out: 401, whatever the body.
    let anon = h.client();
    patch(&anon, json!({"display_name": "小明"}))
        .await
        .assert_error(401, "not_logged_in");
}

async fn games_and_pages_show_it(db: TestDb) {
    let h = Harness::start(db);
    let mut alice = h.player("alice").await;
    let mut bob = h.player("bob").await;
    let r = patch(&alice, json!({"display_name": "小明"})).await;
    assert_eq!(r.status, 200, "{}", r.text);

    // The open game's creator, then the seated players of the game summary.
    let id = alice.create_game(30, true).await;
    let open = alice.get("/api/games/open").await;
    let listed = open.json.as_array().unwrap();
    let game = listed.iter().find(|g| g["id"] == id.as_str()).unwrap();
    assert_eq!(game["creator"]["display_name"], "小明");
    bob.join(&id).await;
    let summary = bob.summary(&id).await;
    let players = &summary["players"];
    let names: Vec<(&Value, &Value)> = ["south", "north"]
        .iter()
        .map(|s| (&players[s]["username"], &players[s]["display_name"]))
        .collect();
    assert!(
        names.contains(&(&json!("alice"), &json!("小明"))),
        "{summary}"
    );
    assert!(names.contains(&(&json!("bob"), &Value::Null)), "{summary}");
    assert_eq!(summary["creator"]["display_name"], "小明");

    // Pages: the header, the profile and the ladder show it beside the login name.
    let header = alice.get("/ladder").await;
    assert!(
        header
            .text
            .contains("<bdi class=\"display-name\">小明</bdi>")
    );
    let profile = bob.get("/@/alice").await;
    assert_eq!(profile.status, 200);
    assert!(
        profile.text.contains("id=\"display-name\">小明</bdi>"),
        "profile"
    );
    assert!(profile.text.contains("alice"));
    assert!(
        !profile.text.contains("display-name-form"),
        "not bob's own profile"
    );
    let own = alice.get("/@/alice").await;
    assert!(
        own.text.contains("id=\"display-name-form\""),
        "own profile has the form"
    );
    let ladder = bob.get("/ladder?lang=en").await;
    let row = ladder
        .text
        .find("data-username=\"alice\"")
        .expect("alice on the ladder");
    let row = &ladder.text[row..row + 600];
    assert!(
        row.contains("<bdi class=\"display-name\">小明</bdi>"),
        "{row}"
    );

    // History rows: seeded finished games, one of their players with a display name.
    let pool = junqi::db::connect(&h.db.url, 1).unwrap();
    junqi::seed::run(&pool, 4, 6, 3).unwrap();
    let mut conn = pool.get().unwrap();
    let lines = junqi::db::history::page(&mut conn, &Default::default(), None, 1).unwrap();
    let south = lines[0].game.south_id.unwrap();
    let south_name = lines[0].south_name.clone().unwrap();
    junqi::db::users::set_display_name(&mut conn, south, Some("南方 老王")).unwrap();
    for path in [
        "/games".to_string(),
        format!("/@/{south_name}/games"),
        format!("/@/{south_name}"),
    ] {
        let page = alice.get(&path).await;
        assert_eq!(page.status, 200, "{path}");
        assert!(
            page.text.contains(&format!(
                "<bdi class=\"display-name\">南方 老王</bdi> <span class=\"login-name\">{south_name}</span>"
            )),
            "{path} shows the display name in the history rows"
        );
    }

    // A name stored past the checks (an older release, a hand edit) is still escaped.
    let alice_id = junqi::db::users::by_name(&mut conn, "alice")
        .unwrap()
        .unwrap()
        .id;
    junqi::db::users::set_display_name(&mut conn, alice_id, Some("<script>x()</script>")).unwrap();
    for path in ["/@/alice", "/ladder", "/games"] {
        let page = alice.get(path).await;
        assert_eq!(page.status, 200, "{path}");
        assert!(
            !page.text.contains("<script>x()"),
            "{path} escapes the name"
        );
        if path != "/games" {
            assert!(
                page.text.contains("&#60;script&#62;x()")
                    || page.text.contains("&lt;script&gt;x()"),
                "{path} shows it escaped"
            );
        }
    }
}

async fn the_profile_form_sets_and_refuses(db: TestDb) {
    let h = Harness::start(db);
    let mut alice = h.player("alice").await;
    let bob = h.player("bob").await;

    let r = request(
        &alice,
        "POST",
        "/@/alice",
        Some("display_name=%E5%B0%8F%E6%98%8E".into()),
    )
    .await;
    assert_eq!(r.status, 303, "{}", r.text);
    assert!(r.text.starts_with("Location: /@/alice"), "{}", r.text);
    assert_eq!(me(&mut alice).await["display_name"], "小明");

    // Refused: the profile again with the message and what was typed; nothing stored.
    let r = request(
        &alice,
        "POST",
        "/@/alice?lang=en",
        Some("display_name=a%3Cb".into()),
    )
    .await;
    assert_eq!(r.status, 400, "{}", r.text);
    assert!(r.text.contains("id=\"display-name-error\""), "{}", r.text);
    assert!(
        r.text.contains("value=\"a&#60;b\"") || r.text.contains("value=\"a&lt;b\""),
        "typed value kept, escaped"
    );
    assert_eq!(me(&mut alice).await["display_name"], "小明");

    // Someone else's profile, or logged out: refused.
    let r = request(&bob, "POST", "/@/alice", Some("display_name=x".into())).await;
    r.assert_error_page(403, "forbidden");
    let r = request(
        &h.client(),
        "POST",
        "/@/alice",
        Some("display_name=x".into()),
    )
    .await;
    r.assert_error_page(401, "not_logged_in");
    assert_eq!(me(&mut alice).await["display_name"], "小明");

    // The remove button, and an empty box, remove it.
    let r = request(
        &alice,
        "POST",
        "/@/alice",
        Some("display_name=%E5%B0%8F%E6%98%8E&remove=1".into()),
    )
    .await;
    assert_eq!(r.status, 303, "{}", r.text);
    assert_eq!(me(&mut alice).await["display_name"], Value::Null);
    request(&alice, "POST", "/@/alice", Some("display_name=Ann".into())).await;
    assert_eq!(me(&mut alice).await["display_name"], "Ann");
    let r = request(&alice, "POST", "/@/alice", Some("display_name=+".into())).await;
    assert_eq!(r.status, 303, "{}", r.text);
    assert_eq!(me(&mut alice).await["display_name"], Value::Null);
}

/// The computer players' names and the badges' (电脑, 机器人, computer, bot) are kept, in
/// any width, case or separator; a name may draw no wider than twelve Chinese
/// characters (twelve 𒈙 draw as wide as forty); the computer players' usernames cannot
/// be registered in another case or spelling; and pages isolate a right-to-left name
/// so it cannot reorder what is around it.
async fn no_name_passes_for_the_computer_or_breaks_the_layout(db: TestDb) {
    let h = Harness::start(db);
    let mut alice = h.player("alice").await;
    for bad in [
        "电脑·困难",
        "电脑・困难",
        "电 脑 普通",
        "電腦",
        "机器人",
        "小明的机器人",
        "ｃｏｍｐｕｔｅｒ",
        "Computer Ez",
        "𝐜𝐨𝐦𝐩𝐮𝐭𝐞𝐫",
        "bot",
        "小明 BOT",
    ] {
        let r = patch(&alice, json!({"display_name": bad})).await;
        r.assert_error(400, "invalid_display_name");
        // Kept for the computer, or (・) a character display names never use.
        let why = r.json["error"]["message"].as_str().unwrap();
        assert!(
            why.contains("computer") || why.contains("U+30FB"),
            "{bad}: {why}"
        );
        assert_eq!(me(&mut alice).await["display_name"], Value::Null, "{bad}");
    }
    let wide = "𒈙".repeat(12);
    let r = patch(&alice, json!({"display_name": wide})).await;
    r.assert_error(400, "invalid_display_name");
    assert!(r.text.contains("wide"), "{}", r.text);
    // Twelve Chinese characters still fit, and so do ordinary names near the badges'.
    for fine in ["一二三四五六七八九十一二", "电视迷", "Abbott"] {
        let r = patch(&alice, json!({"display_name": fine})).await;
        assert_eq!(r.status, 200, "{fine}: {}", r.text);
    }
    // The profile's form says why, in the page's language.
    let r = request(
        &alice,
        "POST",
        "/@/alice",
        Some("display_name=%E7%94%B5%E8%84%91".into()),
    )
    .await;
    assert_eq!(r.status, 400, "{}", r.text);
    assert!(r.text.contains("留给本站的电脑棋手"), "{}", r.text);

    for name in ["computer_hard", "Computer-Easy", "COMPUTERnormal"] {
        let r = h
            .client()
            .post(
                "/api/register",
                json!({"username": name, "password": "correct horse"}),
            )
            .await;
        r.assert_error(400, "invalid_username");
        assert!(r.text.contains("computer"), "{}", r.text);
    }
    // The computer players themselves are still found by their names.
    assert_eq!(alice.get("/@/computer-hard").await.status, 200);

    // A right-to-left name is isolated wherever a page shows it.
    let r = patch(&alice, json!({"display_name": "مرحبا 12"})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    for path in ["/@/alice", "/ladder"] {
        let page = alice.get(path).await;
        assert!(
            page.text.contains("<bdi class=\"display-name\"")
                && page.text.contains(">مرحبا 12</bdi>"),
            "{path} isolates the name"
        );
        assert!(!page.text.contains(">مرحبا 12</span>"), "{path}");
    }
    let profile = alice.get("/@/alice").await;
    assert!(
        profile
            .text
            .contains("<title>\u{2068}مرحبا 12\u{2069} (alice)"),
        "the title isolates it too"
    );
}
