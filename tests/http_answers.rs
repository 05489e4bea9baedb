//! The HTTP answers around the pages and the API, from the real binary: HEAD answers
//! as GET does without a body; the pages answer errors as pages of the site (in the
//! visitor's language, with the header and a way back) and the API as JSON; errors
//! quote only a short prefix of what was sent; and a flood of requests writes a
//! bounded access log that still counts every answer.

#[macro_use]
mod support;

use awc::http::{Method, header};
use junqi::web::access_log;
use serde_json::json;
use std::time::{Duration, Instant};
use support::{Client, Harness, TestDb, WAIT};

/// An answer with the headers HEAD must repeat, and its body as sent.
#[derive(Debug)]
struct Answer {
    status: u16,
    headers: Vec<(&'static str, String)>,
    body: Vec<u8>,
}

/// The headers a HEAD answer must carry as the GET answer does.
const SAME: [header::HeaderName; 7] = [
    header::CONTENT_TYPE,
    header::CONTENT_LENGTH,
    header::CONTENT_ENCODING,
    header::ETAG,
    header::CACHE_CONTROL,
    header::VARY,
    header::TRANSFER_ENCODING,
];

async fn answer(
    c: &Client,
    method: Method,
    path: &str,
    headers: &[(header::HeaderName, &str)],
) -> Answer {
    let http = awc::Client::builder().disable_redirects().finish();
    let mut req = http
        .request(method.clone(), format!("{}{path}", c.base))
        .no_decompress();
    if let Some(cookie) = &c.cookie {
        req = req.insert_header((header::COOKIE, cookie.clone()));
    }
    for (name, value) in headers {
        req = req.insert_header((name.clone(), *value));
    }
    let mut resp = req
        .send()
        .await
        .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
    let headers = SAME
        .iter()
        .map(|name| {
            let value = resp
                .headers()
                .get(name)
                .map(|v| v.to_str().unwrap().to_string())
                .unwrap_or_default();
            (name.as_str(), value)
        })
        .collect();
    let body = resp.body().limit(8 << 20).await.unwrap().to_vec();
    Answer {
        status: resp.status().as_u16(),
        headers,
        body,
    }
}

/// HEAD answers `path` as GET does, with no body.
async fn head_matches_get(c: &Client, path: &str, headers: &[(header::HeaderName, &str)]) {
    let get = answer(c, Method::GET, path, headers).await;
    let head = answer(c, Method::HEAD, path, headers).await;
    assert_eq!(head.status, get.status, "HEAD {path} {headers:?}");
    assert_eq!(head.headers, get.headers, "HEAD {path} {headers:?}");
    assert!(head.body.is_empty(), "HEAD {path} sent a body");
    let length = &get.headers[1].1;
    if !length.is_empty() {
        assert_eq!(
            length,
            &get.body.len().to_string(),
            "{path}: Content-Length is the GET body's"
        );
    }
}

async fn head_answers_as_get_without_the_body(db: TestDb) {
    let h = Harness::start(db);
    let mut alice = h.player("alice").await;
    let game = alice.create_game(30, false).await;
    let r = alice
        .post("/api/tables", json!({"seconds_per_action": 30}))
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let table = r.json["id"].as_str().unwrap().to_string();
    // A 四国 table's page is the table's own, with its own script; a two-player game's is
    // not (both pages' import maps name every module).
    let script = "<script type=\"module\" src=\"/static/js/table/main.";
    let drawn = alice.get(&format!("/game/{table}")).await;
    assert_eq!(drawn.status, 200, "{}", drawn.text);
    assert!(drawn.text.contains(script), "the table's script");
    assert!(drawn.text.contains("id=\"card-bottom\""), "the seat cards");
    let two = alice.get(&format!("/game/{game}")).await;
    assert!(!two.text.contains(script), "a two-player game's page");
    let anon = h.client();
    let page = alice.get("/").await;
    let stylesheet = page
        .text
        .split('"')
        .find(|s| s.starts_with("/static/style.") && s.ends_with(".css"))
        .expect("a hashed stylesheet link")
        .to_string();
    let paths = [
        "/",
        "/login",
        "/register",
        "/rules",
        "/games",
        "/ladder?variant=standard",
        "/@/alice",
        "/@/alice/games",
        &format!("/game/{game}"),
        &format!("/game/{table}"),
        "/static/style.css",
        &stylesheet,
        "/static/js/board.js",
        "/favicon.ico",
        "/healthz",
        "/api/games/open",
        &format!("/api/games/{game}"),
        "/api/players/alice",
        "/api/ladder",
        "/api/board",
        "/api/board?variant=siguo",
        // Errors too: a page's, the API's, a static file's.
        "/game/NOPE",
        "/@/nobody",
        "/api/games/NOPE",
        "/static/nope.css",
        "/nothing/here",
    ];
    let identity = [(header::ACCEPT_ENCODING, "identity")];
    let brotli = [(header::ACCEPT_ENCODING, "br")];
    for path in paths {
        head_matches_get(&anon, path, &identity).await;
        head_matches_get(&anon, path, &brotli).await;
    }
    // A logged-in player's own pages.
    for path in ["/", "/layouts", "/bot", "/api/me", "/api/layouts"] {
        head_matches_get(&alice, path, &identity).await;
    }
    // Revalidating with HEAD: 304, no body.
    let get = answer(&anon, Method::GET, "/static/style.css", &identity).await;
    let etag = get.headers[3].1.clone();
    assert!(!etag.is_empty());
    let head = answer(
        &anon,
        Method::HEAD,
        "/static/style.css",
        &[(header::IF_NONE_MATCH, etag.as_str())],
    )
    .await;
    assert_eq!(head.status, 304);
    assert!(head.body.is_empty());
    // HEAD is no socket handshake; methods that change something are not GETs.
    let ws = answer(&anon, Method::HEAD, "/ws/lobby", &identity).await;
    assert_ne!(ws.status, 101);
    assert_ne!(ws.status, 200);
    let post = answer(&anon, Method::HEAD, "/api/games/quick", &identity).await;
    assert!(
        post.status >= 400,
        "HEAD of a POST-only route: {}",
        post.status
    );
}

/// An error answered as a page: its status, HTML, the site header, a way back, the
/// code; returns the body.
fn error_page(r: &support::Resp, status: u16, code: &str) -> String {
    r.assert_error_page(status, code);
    for part in ["class=\"site-header\"", "id=\"error-back\" href=\"/\""] {
        assert!(r.text.contains(part), "{part} in {}", r.text);
    }
    r.text.clone()
}

async fn pages_answer_errors_as_pages_and_the_api_as_json(db: TestDb) {
    let h = Harness::start(db);
    let mut anon = h.client();
    let mut alice = h.player("alice").await;

    // Unknown game, player and history: 404 pages, in Chinese by default.
    for path in [
        "/game/NOPE",
        "/@/nobody",
        "/@/nobody/games",
        "/no/such/page",
    ] {
        let page = error_page(&anon.get(path).await, 404, "not_found");
        assert!(page.contains("找不到页面"), "{path}: {page}");
        assert!(page.contains("<html lang=\"zh-CN\">"), "{path}");
    }
    let page = error_page(&anon.get("/game/NOPE").await, 404, "not_found");
    assert!(page.contains("no game &quot;NOPE&quot;") || page.contains("no game &#34;NOPE&#34;"));
    // In English on request; the header knows who is logged in.
    let page = error_page(&alice.get("/@/nobody?lang=en").await, 404, "not_found");
    assert!(page.contains("Not found") && page.contains("<html lang=\"en\">"));
    assert!(
        page.contains("id=\"account-name\""),
        "the header shows alice"
    );
    // A bad filter: 400, as a page.
    let page = error_page(&anon.get("/games?reason=zzz").await, 400, "bad_request");
    assert!(page.contains("请求有误") && page.contains("zzz"), "{page}");
    // Logged out at the profile form: 401 with a way to log in.
    let r = anon
        .post_raw(
            "/@/alice",
            "application/x-www-form-urlencoded",
            b"display_name=x".to_vec(),
        )
        .await;
    let page = error_page(&r, 401, "not_logged_in");
    assert!(page.contains("id=\"error-login\" href=\"/login\""));
    // Another method on a page's address: still a page.
    error_page(&anon.delete("/games").await, 404, "not_found");

    // The API answers JSON, unknown routes included.
    anon.get("/api/games/NOPE")
        .await
        .assert_error(404, "not_found");
    anon.get("/api/players/nobody")
        .await
        .assert_error(404, "not_found");
    anon.get("/api/no/such/route")
        .await
        .assert_error(404, "not_found");
    anon.get("/api/me").await.assert_error(401, "not_logged_in");
    // Static files keep their short text answer.
    let r = anon.get("/static/nope.css").await;
    assert_eq!((r.status, r.text.as_str()), (404, "no such file"));
}

async fn errors_quote_only_a_short_prefix_of_what_was_sent(db: TestDb) {
    let h = Harness::start(db);
    let mut anon = h.client();
    let mut alice = h.player("alice").await;
    // A long id in an address (URL-safe, 6,000 characters).
    let long = format!("Q{}", "将".repeat(2000));
    let escaped: String = long
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect();
    for path in [
        format!("/api/games/{escaped}"),
        format!("/api/players/{escaped}"),
        format!("/api/games/{escaped}/record"),
    ] {
        let r = anon.get(&path).await;
        r.assert_error(404, "not_found");
        let message = r.json["error"]["message"].as_str().unwrap();
        assert!(message.contains("Q将将"), "{message}");
        assert!(message.chars().count() <= 100, "{message}");
    }
    for path in [
        format!("/game/{escaped}"),
        format!("/@/{escaped}"),
        format!("/@/{escaped}/games"),
    ] {
        let page = error_page(&anon.get(&path).await, 404, "not_found");
        assert!(page.contains("Q将将"));
        assert!(
            !page.contains(&"将".repeat(100)),
            "the page echoes the whole id"
        );
    }
    let r = anon.get(&format!("/games?reason={escaped}")).await;
    let page = error_page(&r, 400, "bad_request");
    assert!(page.contains("Q将将") && !page.contains(&"将".repeat(100)));
    // A JSON body's bad value (the body is at most 16 KiB).
    let r = alice
        .post(
            "/api/games",
            json!({"variant": "x".repeat(10_000), "seconds_per_action": 30, "rated": false}),
        )
        .await;
    assert_eq!(r.status, 400, "{}", r.text);
    assert!(
        r.text.len() < 1024,
        "{} bytes: {}",
        r.text.len(),
        &r.text[..200]
    );
    // A socket message: the error quotes a prefix of the unknown type.
    let id = alice.create_game(30, false).await;
    let mut s = alice.game_socket(&id).await;
    s.wait_state().await;
    s.send_text(json!({"t": "x".repeat(10_000), "a": 1}).to_string())
        .await;
    let error = s.wait_for("the error", |m| m["t"] == "error").await;
    let text = error.to_string();
    assert!(
        text.contains("xxxx") && text.len() < 1024,
        "{} bytes",
        text.len()
    );
}

/// Everything the server logged, without terminal colours.
fn plain_log(h: &Harness) -> String {
    let log = h.log();
    let mut out = String::with_capacity(log.len());
    let mut chars = log.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            // ESC [ … letter
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The access log's request lines for `path`, and the answers it counted unlogged.
fn access_lines(h: &Harness, path: &str) -> (usize, u64, usize) {
    let log = plain_log(h);
    let target = format!("{}: ", access_log::TARGET);
    let mut lines = 0;
    let mut bytes = 0;
    let mut skipped = 0;
    for line in log.lines() {
        let Some((_, rest)) = line.split_once(&target) else {
            continue;
        };
        if let Some((n, _)) = rest.split_once(" more answers not logged one by one") {
            skipped += n.parse::<u64>().unwrap();
        } else if rest.starts_with(&format!("GET {path} ")) {
            lines += 1;
            bytes += line.len() + 1;
        }
    }
    (lines, skipped, bytes)
}

async fn a_flood_of_requests_writes_a_bounded_access_log(db: TestDb) {
    const FLOOD: usize = 1200;
    const CALLERS: usize = 8;
    let h = Harness::start(db);
    let started = Instant::now();
    let callers = (0..CALLERS).map(|_| {
        let mut c = h.client();
        async move {
            for _ in 0..FLOOD / CALLERS {
                assert_eq!(c.get("/healthz").await.status, 200);
            }
        }
    });
    futures_util::future::join_all(callers).await;
    let took = started.elapsed().as_secs_f64();
    // Every answer is accounted for: logged, or counted within a second or so.
    let deadline = Instant::now() + WAIT;
    let (lines, skipped, bytes) = loop {
        let (lines, skipped, bytes) = access_lines(&h, "/healthz");
        if lines as u64 + skipped >= FLOOD as u64 || Instant::now() > deadline {
            break (lines, skipped, bytes);
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(
        lines as u64 + skipped,
        FLOOD as u64,
        "logged {lines}, counted {skipped}"
    );
    let most = access_log::BURST as f64 + access_log::PER_SECOND as f64 * (took + 1.0);
    assert!(
        (lines as f64) <= most,
        "{lines} lines for {FLOOD} requests in {took:.2} s (at most {most})"
    );
    eprintln!(
        "{FLOOD} requests in {took:.2} s: {lines} lines ({} bytes each), {skipped} counted",
        bytes / lines.max(1)
    );
    // At most one count line a second.
    let counts = plain_log(&h).matches("more answers not logged").count();
    let so_far = started.elapsed().as_secs_f64();
    assert!(
        counts as f64 <= so_far + 1.0,
        "{counts} count lines in {so_far:.2} s"
    );
}

db_tests! {
    head_answers_as_get_without_the_body =>
        head_answers_as_get_without_the_body_sqlite,
        head_answers_as_get_without_the_body_postgres;
    pages_answer_errors_as_pages_and_the_api_as_json =>
        pages_answer_errors_as_pages_and_the_api_as_json_sqlite,
        pages_answer_errors_as_pages_and_the_api_as_json_postgres;
    errors_quote_only_a_short_prefix_of_what_was_sent =>
        errors_quote_only_a_short_prefix_of_what_was_sent_sqlite,
        errors_quote_only_a_short_prefix_of_what_was_sent_postgres;
}

#[actix_web::test]
async fn a_flood_of_requests_writes_a_bounded_access_log_sqlite() {
    let db = TestDb::new(support::Backend::Sqlite).expect("SQLite is always available");
    a_flood_of_requests_writes_a_bounded_access_log(db).await;
}
