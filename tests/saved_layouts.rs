//! Saved standard 军棋 layouts over real HTTP, on SQLite and PostgreSQL: saving,
//! renaming, deleting, the `junqi-layout/1` file out and back in, refusals that store
//! nothing, privacy between players, the /layouts page, and standard games in the lobby.

#[macro_use]
mod support;

use awc::http::{Method, header};
use junqi::layout_file::MAX_SAVED;
use junqi::record::layout_json;
use junqi::rules::{Layout, Piece, Seat};
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde_json::{Value, json};
use std::time::Duration;
use support::{Client, Harness, TestDb};

db_tests! {
    save_list_rename_delete => save_list_rename_delete_sqlite, save_list_rename_delete_postgres;
    export_then_import_gives_the_same_layout => export_then_import_gives_the_same_layout_sqlite, export_then_import_gives_the_same_layout_postgres;
    refused_files_and_layouts_store_nothing => refused_files_and_layouts_store_nothing_sqlite, refused_files_and_layouts_store_nothing_postgres;
    another_player_cannot_touch_my_layouts => another_player_cannot_touch_my_layouts_sqlite, another_player_cannot_touch_my_layouts_postgres;
    logged_out_visitors_are_turned_away => logged_out_visitors_are_turned_away_sqlite, logged_out_visitors_are_turned_away_postgres;
    the_page_shows_my_layouts_only => the_page_shows_my_layouts_only_sqlite, the_page_shows_my_layouts_only_postgres;
    a_player_keeps_at_most_the_cap => a_player_keeps_at_most_the_cap_sqlite, a_player_keeps_at_most_the_cap_postgres;
    the_lobby_opens_standard_games => the_lobby_opens_standard_games_sqlite, the_lobby_opens_standard_games_postgres;
    hidden_and_bidi_characters_are_refused_in_names => hidden_and_bidi_characters_are_refused_in_names_sqlite, hidden_and_bidi_characters_are_refused_in_names_postgres;
}

/// Names that reorder or hide text (a right-to-left override turning "gpj.exe" into
/// "exe.jpg", bidi isolates and marks, zero-width characters, the byte-order mark) are
/// refused wherever a layout gets a name: saving, renaming, importing.
async fn hidden_and_bidi_characters_are_refused_in_names(db: TestDb) {
    let h = Harness::start(db);
    let a = h.player("tricky").await;
    let kept = saved_ok(&a, "plain", layout_value(1)).await;
    let id = kept["id"].as_i64().unwrap();
    for bad in [
        "gpj\u{202E}exe",
        "a\u{202A}b",
        "a\u{2066}b\u{2069}",
        "a\u{200E}b",
        "a\u{200F}b",
        "a\u{061C}b",
        "zero\u{200B}width",
        "join\u{200D}er",
        "bom\u{FEFF}",
        "line\u{2028}break",
        "tab\there",
        // Default-ignorable: the combining grapheme joiner, a variation selector and a
        // Khmer inherent vowel draw as nothing.
        "a\u{034F}b",
        "heart\u{FE0F}",
        "k\u{17B4}x",
    ] {
        let r = save(&a, bad, layout_value(2)).await;
        assert_eq!(r.status, 400, "save {bad:?}: {}", r.text);
        assert!(r.error_message().contains("U+"), "{}", r.text);
        let r = json_req(
            &a,
            Method::PATCH,
            &format!("/api/layouts/{id}"),
            json!({"name": bad}),
        )
        .await;
        assert_eq!(r.status, 400, "rename to {bad:?}: {}", r.text);
        let file = json!({"format": "junqi-layout/1", "name": bad, "layout": layout_value(3)});
        let r = request(
            &a,
            Method::POST,
            "/api/layouts/import",
            Some(("text/plain", file.to_string())),
        )
        .await;
        assert_eq!(r.status, 400, "import {bad:?}: {}", r.text);
    }
    assert_eq!(
        names(&list(&a).await),
        ["plain"],
        "nothing stored or renamed"
    );
    // Scripts written right to left need no control characters, and pass.
    saved_ok(&a, "هجوم", layout_value(4)).await;
    saved_ok(&a, "התקפה 2", layout_value(5)).await;
}

/// A valid layout seen from its owner's side, different for each seed.
fn layout(seed: u64) -> Layout {
    Layout::random(Seat::South, &mut StdRng::seed_from_u64(seed))
}

fn layout_value(seed: u64) -> Value {
    layout_json(&layout(seed))
}

/// An answer with its headers, which the harness's client does not keep.
struct Answer {
    status: u16,
    headers: header::HeaderMap,
    text: String,
    json: Value,
}

impl Answer {
    fn error_code(&self) -> &str {
        self.json["error"]["code"].as_str().unwrap_or("")
    }

    fn error_message(&self) -> &str {
        self.json["error"]["message"].as_str().unwrap_or("")
    }

    fn header(&self, name: header::HeaderName) -> String {
        self.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string()
    }
}

/// Any method, with the client's session cookie, and redirects left unfollowed.
async fn request(c: &Client, method: Method, path: &str, body: Option<(&str, String)>) -> Answer {
    let http = awc::Client::builder()
        .disable_redirects()
        .timeout(Duration::from_secs(20))
        .finish();
    let mut req = http.request(method.clone(), format!("{}{path}", c.base));
    if let Some(cookie) = &c.cookie {
        req = req.insert_header((header::COOKIE, cookie.clone()));
    }
    let sent = match body {
        Some((ct, text)) => {
            req.insert_header((header::CONTENT_TYPE, ct.to_string()))
                .send_body(text)
                .await
        }
        None => req.send().await,
    };
    let mut resp = sent.unwrap_or_else(|e| panic!("{method} {path}: {e}"));
    let bytes = resp.body().await.expect("a body");
    let text = String::from_utf8_lossy(&bytes).into_owned();
    Answer {
        status: resp.status().as_u16(),
        headers: resp.headers().clone(),
        json: serde_json::from_str(&text).unwrap_or(Value::Null),
        text,
    }
}

async fn json_req(c: &Client, method: Method, path: &str, body: Value) -> Answer {
    request(
        c,
        method,
        path,
        Some(("application/json", body.to_string())),
    )
    .await
}

async fn save(c: &Client, name: &str, layout: Value) -> Answer {
    json_req(
        c,
        Method::POST,
        "/api/layouts",
        json!({"name": name, "layout": layout}),
    )
    .await
}

async fn saved_ok(c: &Client, name: &str, layout: Value) -> Value {
    let r = save(c, name, layout).await;
    assert_eq!(r.status, 201, "save {name}: {}", r.text);
    r.json
}

async fn list(c: &Client) -> Vec<Value> {
    let r = request(c, Method::GET, "/api/layouts", None).await;
    assert_eq!(r.status, 200, "list: {}", r.text);
    r.json.as_array().expect("a list").clone()
}

fn names(list: &[Value]) -> Vec<&str> {
    list.iter().map(|l| l["name"].as_str().unwrap()).collect()
}

async fn save_list_rename_delete(db: TestDb) {
    let h = Harness::start(db);
    let a = h.player("saver").await;
    assert!(list(&a).await.is_empty(), "a new player has no layouts");

    let first = saved_ok(&a, "铁桶阵", layout_value(1)).await;
    assert_eq!(first["name"], "铁桶阵");
    assert_eq!(first["layout"], layout_value(1));
    assert!(
        first["id"].is_i64() && first["updated_at"].is_i64(),
        "{first}"
    );
    assert_eq!(
        list(&a).await,
        vec![first.clone()],
        "the list shows what was saved"
    );

    // Saving under the same name replaces that layout, keeping its id.
    let replaced = saved_ok(&a, "铁桶阵", layout_value(2)).await;
    assert_eq!(replaced["id"], first["id"]);
    let after = list(&a).await;
    assert_eq!(after.len(), 1);
    assert_eq!(after[0]["layout"], layout_value(2));

    // A layout sent with the long piece form is stored like any other.
    let long: serde_json::Map<String, Value> = layout(3)
        .0
        .iter()
        .map(|(s, p)| (s.to_string(), json!({"piece": p})))
        .collect();
    let second = saved_ok(&a, "left hook", Value::Object(long)).await;
    assert_eq!(second["layout"], layout_value(3));
    assert_eq!(names(&list(&a).await), ["left hook", "铁桶阵"], "by name");

    let id = first["id"].as_i64().unwrap();
    let r = json_req(
        &a,
        Method::PATCH,
        &format!("/api/layouts/{id}"),
        json!({"name": "  右翼突破 "}),
    )
    .await;
    assert_eq!(r.status, 200, "rename: {}", r.text);
    assert_eq!(r.json["name"], "右翼突破", "the name is trimmed");
    assert_eq!(
        r.json["layout"],
        layout_value(2),
        "renaming keeps the layout"
    );
    assert_eq!(names(&list(&a).await), ["left hook", "右翼突破"]);

    // The other layout's name is taken.
    let r = json_req(
        &a,
        Method::PATCH,
        &format!("/api/layouts/{id}"),
        json!({"name": "left hook"}),
    )
    .await;
    assert_eq!(r.status, 409, "{}", r.text);
    assert_eq!(r.error_code(), "conflict");
    assert!(r.error_message().contains("left hook"), "{}", r.text);
    let now = list(&a).await;
    assert_eq!(names(&now), ["left hook", "右翼突破"], "nothing renamed");
    assert_eq!(now[1]["layout"], layout_value(2));

    let r = json_req(
        &a,
        Method::PATCH,
        &format!("/api/layouts/{id}"),
        json!({"name": ""}),
    )
    .await;
    assert_eq!(r.status, 400, "an empty name is refused: {}", r.text);

    let r = request(&a, Method::DELETE, &format!("/api/layouts/{id}"), None).await;
    assert_eq!(r.status, 204, "{}", r.text);
    assert_eq!(names(&list(&a).await), ["left hook"], "deleted");
    let r = request(&a, Method::DELETE, &format!("/api/layouts/{id}"), None).await;
    assert_eq!(r.status, 404, "deleting twice: {}", r.text);
    let r = request(&a, Method::DELETE, "/api/layouts/nonsense", None).await;
    assert_eq!(r.status, 404, "{}", r.text);
}

async fn export_then_import_gives_the_same_layout(db: TestDb) {
    let h = Harness::start(db);
    let a = h.player("exporter").await;
    let saved = saved_ok(&a, "三角雷 v2", layout_value(7)).await;
    let id = saved["id"].as_i64().unwrap();

    let file = request(&a, Method::GET, &format!("/api/layouts/{id}/export"), None).await;
    assert_eq!(file.status, 200, "{}", file.text);
    assert!(
        file.header(header::CONTENT_TYPE)
            .starts_with("application/json"),
        "{:?}",
        file.headers
    );
    let disposition = file.header(header::CONTENT_DISPOSITION);
    assert!(disposition.starts_with("attachment"), "{disposition}");
    // The name in UTF-8 for browsers that read filename*, and an ASCII stand-in.
    assert!(
        disposition.contains("filename*=UTF-8''%E4%B8%89%E8%A7%92%E9%9B%B7%20v2.json"),
        "{disposition}"
    );
    assert!(
        disposition.contains("filename=\"___ v2.json\""),
        "{disposition}"
    );
    assert_eq!(file.json["format"], "junqi-layout/1");
    assert_eq!(file.json["name"], "三角雷 v2");
    assert_eq!(file.json["layout"], layout_value(7));

    // Gone from the account, then back from the file.
    let r = request(&a, Method::DELETE, &format!("/api/layouts/{id}"), None).await;
    assert_eq!(r.status, 204);
    assert!(list(&a).await.is_empty());
    let r = request(
        &a,
        Method::POST,
        "/api/layouts/import",
        Some(("text/plain;charset=UTF-8", file.text.clone())),
    )
    .await;
    assert_eq!(r.status, 201, "import: {}", r.text);
    assert_eq!(r.json["name"], "三角雷 v2");
    assert_eq!(
        r.json["layout"],
        layout_value(7),
        "the same layout came back"
    );
    let now = list(&a).await;
    assert_eq!(now.len(), 1);
    assert_eq!(now[0]["layout"], layout_value(7));

    // Another player can take the file into their own account.
    let b = h.player("importer").await;
    let r = request(
        &b,
        Method::POST,
        "/api/layouts/import",
        Some(("application/json", file.text.clone())),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(names(&list(&b).await), ["三角雷 v2"]);
    assert_eq!(list(&b).await[0]["layout"], layout_value(7));
}

async fn refused_files_and_layouts_store_nothing(db: TestDb) {
    let h = Harness::start(db);
    let a = h.player("careful").await;
    let import = |text: String| {
        let a = &a;
        async move {
            request(
                a,
                Method::POST,
                "/api/layouts/import",
                Some(("text/plain", text)),
            )
            .await
        }
    };

    let r = import("this is not a layout".into()).await;
    assert_eq!(r.status, 400, "{}", r.text);
    assert_eq!(r.error_code(), "bad_request");
    assert!(r.error_message().contains("not JSON"), "{}", r.text);

    let r = import(
        json!({"format": "junqi-record/1", "name": "x", "layout": layout_value(1)}).to_string(),
    )
    .await;
    assert_eq!(r.status, 400);
    assert!(r.error_message().contains("junqi-layout/1"), "{}", r.text);

    let mut bad_piece = layout_value(1);
    bad_piece["a1"] = json!("tank");
    let r =
        import(json!({"format": "junqi-layout/1", "name": "x", "layout": bad_piece}).to_string())
            .await;
    assert_eq!(r.status, 400);
    assert!(
        r.error_message().contains("a1: unknown piece"),
        "{}",
        r.text
    );

    // A mine on the front rank and a bomb there too: both reasons are given.
    let mut broken = layout(4);
    let mine = *broken.0.iter().find(|(_, p)| **p == Piece::Mine).unwrap().0;
    let bomb = *broken.0.iter().find(|(_, p)| **p == Piece::Bomb).unwrap().0;
    broken.swap(mine, "a6".parse().unwrap());
    broken.swap(bomb, "e6".parse().unwrap());
    let r = import(
        json!({"format": "junqi-layout/1", "name": "x", "layout": layout_json(&broken)})
            .to_string(),
    )
    .await;
    assert_eq!(r.status, 400);
    assert!(r.error_message().contains("mine on a6"), "{}", r.text);
    assert!(r.error_message().contains("bomb on e6"), "{}", r.text);

    let r = save(&a, "x", layout_json(&broken)).await;
    assert_eq!(r.status, 400, "{}", r.text);
    assert!(r.error_message().contains("mine on a6"), "{}", r.text);
    assert!(r.error_message().contains("bomb on e6"), "{}", r.text);

    let mut short = layout_value(5);
    short.as_object_mut().unwrap().remove("c1");
    let r = save(&a, "x", short).await;
    assert_eq!(r.status, 400);
    assert!(r.error_message().contains("c1 is empty"), "{}", r.text);

    let mut camped = layout_value(5);
    let flag_hq = if camped["b1"] == "flag" { "b1" } else { "d1" };
    camped.as_object_mut().unwrap().remove(flag_hq);
    camped["c4"] = json!("flag");
    let r = save(&a, "x", camped).await;
    assert_eq!(r.status, 400);
    assert!(r.error_message().contains("c4 is a camp"), "{}", r.text);
    assert!(
        r.error_message().contains(&format!("{flag_hq} is empty")),
        "{}",
        r.text
    );

    let r = save(&a, &"名".repeat(41), layout_value(1)).await;
    assert_eq!(r.status, 400);
    assert!(r.error_message().contains("at most 40"), "{}", r.text);

    let r = request(
        &a,
        Method::POST,
        "/api/layouts/import",
        Some(("text/plain", "x".repeat(20_000))),
    )
    .await;
    assert_eq!(r.status, 413, "{}", r.text);
    assert_eq!(r.error_code(), "too_large");

    assert!(list(&a).await.is_empty(), "nothing refused was stored");
}

async fn another_player_cannot_touch_my_layouts(db: TestDb) {
    let h = Harness::start(db);
    let a = h.player("owner").await;
    let b = h.player("snoop").await;
    let mine = saved_ok(&a, "secret plan", layout_value(9)).await;
    let id = mine["id"].as_i64().unwrap();

    assert!(list(&b).await.is_empty(), "B sees none of A's layouts");
    let r = request(&b, Method::GET, &format!("/api/layouts/{id}/export"), None).await;
    assert_eq!(r.status, 404, "{}", r.text);
    assert!(!r.text.contains("secret plan"));
    let r = json_req(
        &b,
        Method::PATCH,
        &format!("/api/layouts/{id}"),
        json!({"name": "mine now"}),
    )
    .await;
    assert_eq!(r.status, 404, "{}", r.text);
    let r = request(&b, Method::DELETE, &format!("/api/layouts/{id}"), None).await;
    assert_eq!(r.status, 404, "{}", r.text);

    // B saving a layout of the same name makes a layout of B's own.
    let theirs = saved_ok(&b, "secret plan", layout_value(10)).await;
    assert_ne!(theirs["id"], mine["id"]);

    assert_eq!(list(&a).await, vec![mine], "A's layout is untouched");
    let page = request(&b, Method::GET, "/layouts", None).await;
    assert_eq!(page.status, 200);
    assert!(!page.text.contains(&format!("data-layout-id=\"{id}\"")));
}

async fn logged_out_visitors_are_turned_away(db: TestDb) {
    let h = Harness::start(db);
    let a = h.player("member").await;
    let id = saved_ok(&a, "plan", layout_value(1)).await["id"]
        .as_i64()
        .unwrap();
    let anon = h.client();
    let calls = [
        (Method::GET, "/api/layouts".to_string(), None),
        (
            Method::POST,
            "/api/layouts".to_string(),
            Some(json!({"name": "x", "layout": layout_value(1)}).to_string()),
        ),
        (
            Method::PATCH,
            format!("/api/layouts/{id}"),
            Some(json!({"name": "x"}).to_string()),
        ),
        (Method::DELETE, format!("/api/layouts/{id}"), None),
        (Method::GET, format!("/api/layouts/{id}/export"), None),
        (
            Method::POST,
            "/api/layouts/import".to_string(),
            Some(String::from("{}")),
        ),
    ];
    for (method, path, body) in calls {
        let r = request(
            &anon,
            method.clone(),
            &path,
            body.map(|b| ("application/json", b)),
        )
        .await;
        assert_eq!(r.status, 401, "{method} {path}: {}", r.text);
        assert_eq!(r.error_code(), "not_logged_in");
    }
    let page = request(&anon, Method::GET, "/layouts", None).await;
    assert_eq!(page.status, 303, "{}", page.text);
    assert_eq!(page.header(header::LOCATION), "/login?next=%2Flayouts");
    assert_eq!(names(&list(&a).await), ["plan"], "nothing changed");

    // Logging out ends access too.
    let mut a = a;
    let r = a.post_empty("/api/logout").await;
    assert_eq!(r.status, 204);
    let r = request(&a, Method::GET, "/api/layouts", None).await;
    assert_eq!(r.status, 401);
}

async fn the_page_shows_my_layouts_only(db: TestDb) {
    let h = Harness::start(db);
    let a = h.player("viewer").await;
    let b = h.player("neighbour").await;
    let l = layout(12);
    let saved = saved_ok(&a, "<b>铁桶</b>", layout_json(&l)).await;
    let id = saved["id"].as_i64().unwrap();
    saved_ok(&b, "neighbour's own", layout_value(13)).await;

    let page = request(&a, Method::GET, "/layouts", None).await;
    assert_eq!(page.status, 200);
    let html = &page.text;
    assert!(html.contains("我的布阵"), "Chinese by default");
    assert!(
        html.contains("&#60;b&#62;铁桶&#60;/b&#62;"),
        "the name, escaped"
    );
    assert!(!html.contains("<b>铁桶"), "never as markup");
    assert!(html.contains(&format!("href=\"/api/layouts/{id}/export\"")));
    assert!(
        !html.contains("neighbour&#39;s own"),
        "B's layout is not on A's page"
    );
    assert!(
        html.contains("href=\"/layouts\""),
        "the header links the page"
    );
    // The preview places each piece on its square, in Chinese.
    let flag = l.0.iter().find(|(_, p)| **p == Piece::Flag).unwrap().0;
    assert!(
        html.contains(&format!(
            "data-square=\"{flag}\" data-piece=\"flag\">军旗</span>"
        )),
        "the flag on {flag}"
    );
    for camp in ["b3", "d3", "c4", "b5", "d5"] {
        assert!(
            html.contains(&format!("lb-camp\" data-square=\"{camp}\"></span>")),
            "camp {camp} is empty"
        );
    }
    // Front rank first: a6 comes before a1.
    assert!(html.find("data-square=\"a6\"").unwrap() < html.find("data-square=\"a1\"").unwrap());

    let en = request(&a, Method::GET, "/layouts?lang=en", None).await;
    assert!(en.text.contains("My layouts"), "English on request");
    assert!(en.text.contains("军旗"), "pieces keep their Chinese names");

    let theirs = request(&b, Method::GET, "/layouts", None).await;
    assert_eq!(theirs.status, 200);
    assert!(theirs.text.contains("neighbour&#39;s own"));
    assert!(
        !theirs.text.contains("铁桶"),
        "A's layout is not on B's page"
    );

    // The header's link is for players only.
    let front = request(&h.client(), Method::GET, "/", None).await;
    assert!(!front.text.contains("href=\"/layouts\""));
}

async fn a_player_keeps_at_most_the_cap(db: TestDb) {
    let h = Harness::start(db);
    let a = h.player("hoarder").await;
    for i in 0..MAX_SAVED {
        saved_ok(&a, &format!("plan {i:02}"), layout_value(i as u64)).await;
    }
    let r = save(&a, "one too many", layout_value(99)).await;
    assert_eq!(r.status, 400, "{}", r.text);
    assert!(r.error_message().contains("at most 50"), "{}", r.text);
    // Overwriting an existing name is still allowed.
    let r = save(&a, "plan 00", layout_value(99)).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let all = list(&a).await;
    assert_eq!(all.len(), MAX_SAVED);
    assert!(!names(&all).contains(&"one too many"));
    assert_eq!(all[0]["layout"], layout_value(99));
}

async fn the_lobby_opens_standard_games(db: TestDb) {
    let h = Harness::start(db);
    let mut a = h.player("general").await;
    let page = a.get("/").await;
    assert!(
        page.text
            .contains("<option value=\"standard\">标准军棋</option>"),
        "the create form offers standard 军棋"
    );
    let r = a
        .post(
            "/api/games",
            json!({"variant": "standard", "seconds_per_action": 30, "rated": true}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let id = r.json["id"].as_str().unwrap().to_string();
    let open = h.client().get("/api/games/open").await;
    let game = open
        .json
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == id.as_str())
        .cloned()
        .expect("the standard game is listed");
    assert_eq!(game["variant"], "standard");
}
