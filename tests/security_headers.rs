//! Every answer (pages, JSON, static files, errors) carries the security headers: a
//! strict Content-Security-Policy whose one script hash is that of the page's import
//! map as served, no framing, nosniff and a same-origin Referrer-Policy. On SQLite and
//! PostgreSQL.

#[macro_use]
mod support;

use awc::http::header;
use base64::Engine as _;
use sha2::{Digest, Sha256};
use std::time::Duration;
use support::{Harness, TestDb};

db_tests! {
    every_answer_carries_the_headers => every_answer_carries_the_headers_sqlite, every_answer_carries_the_headers_postgres;
}

#[derive(Clone)]
struct Answer {
    status: u16,
    headers: header::HeaderMap,
    body: String,
}

async fn fetch(base: &str, method: &str, path: &str, origin: Option<&str>) -> Answer {
    let http = awc::Client::builder()
        .timeout(Duration::from_secs(20))
        .finish();
    let url = format!("{base}{path}");
    let mut req = match method {
        "POST" => http.post(url),
        _ => http.get(url),
    };
    if let Some(o) = origin {
        req = req.insert_header((header::ORIGIN, o));
    }
    let mut resp = req.send().await.unwrap_or_else(|e| panic!("{path}: {e}"));
    let body = resp.body().limit(4 << 20).await.unwrap();
    Answer {
        status: resp.status().as_u16(),
        headers: resp.headers().clone(),
        body: String::from_utf8_lossy(&body).into_owned(),
    }
}

fn header<'a>(a: &'a Answer, name: &str, what: &str) -> &'a str {
    a.headers
        .get(name)
        .unwrap_or_else(|| panic!("{what}: no {name}"))
        .to_str()
        .unwrap()
}

async fn every_answer_carries_the_headers(db: TestDb) {
    let h = Harness::start(db);
    let base = h.base();
    let page = fetch(&base, "GET", "/", None).await;
    let start = page
        .body
        .find(r#"<script type="importmap">"#)
        .expect("an import map")
        + 25;
    let end = start + page.body[start..].find("</script>").unwrap();
    let map = &page.body[start..end];
    let hash = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(map));
    let stylesheet = page
        .body
        .split('"')
        .find(|s| s.starts_with("/static/style.") && s.ends_with(".css"))
        .expect("a hashed stylesheet link")
        .to_string();

    let answers = [
        ("/", "GET", None, 200),
        ("/games?variant=flip", "GET", None, 200),
        ("/rules", "GET", None, 200),
        ("/api/games/open", "GET", None, 200),
        ("/api/me", "GET", None, 401),
        ("/healthz", "GET", None, 200),
        ("/static/style.css", "GET", None, 200),
        (stylesheet.as_str(), "GET", None, 200),
        ("/static/js/board.js", "GET", None, 200),
        ("/favicon.ico", "GET", None, 200),
        ("/game/nosuch", "GET", None, 404),
        ("/api/logout", "POST", Some("https://evil.example"), 403),
    ];
    for (path, method, origin, status) in answers {
        let a = if path == "/" {
            page.clone()
        } else {
            fetch(&base, method, path, origin).await
        };
        let what = format!("{method} {path}");
        assert_eq!(a.status, status, "{what}: {}", a.body);
        let csp = header(&a, "content-security-policy", &what);
        for part in [
            "default-src 'self'",
            &format!("script-src 'self' 'sha256-{hash}';"),
            "style-src 'self'",
            "object-src 'none'",
            "base-uri 'none'",
            "frame-ancestors 'none'",
        ] {
            assert!(csp.contains(part), "{what}: {part} in {csp}");
        }
        assert!(!csp.contains("unsafe"), "{what}: {csp}");
        assert_eq!(header(&a, "x-frame-options", &what), "DENY");
        assert_eq!(header(&a, "x-content-type-options", &what), "nosniff");
        assert_eq!(header(&a, "referrer-policy", &what), "same-origin");
    }
    // No page sets a style attribute or an inline script other than the import map.
    h.player("styler").await;
    for path in [
        "/",
        "/games",
        "/ladder",
        "/rules",
        "/login",
        "/register",
        "/@/styler",
    ] {
        let a = fetch(&base, "GET", path, None).await;
        assert!(!a.body.contains(" style="), "{path} has a style attribute");
        let scripts = a.body.matches("<script").count();
        let external = a
            .body
            .matches(r#"<script type="module" src="/static/"#)
            .count();
        assert_eq!(
            scripts,
            external + 1,
            "{path}: the import map is the one inline script"
        );
    }
}
