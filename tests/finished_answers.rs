//! A finished game's record and replay over HTTP, on SQLite and PostgreSQL: built once
//! and then served as kept (`X-Cache: hit`), compressed once with brotli and gzip as
//! the client accepts, with a weak ETag that `If-None-Match` turns into a 304; a
//! running game's record is built afresh for every request and never kept.

#[macro_use]
mod support;

use awc::http::header;
use junqi::rules::Action;
use serde_json::Value;
use std::io::Read;
use support::policy::Rng;
use support::{Harness, Table, TestDb};

db_tests! {
    kept_once_the_game_has_ended => kept_once_the_game_has_ended_sqlite, kept_once_the_game_has_ended_postgres;
}

/// One answer as it came over the wire, body undecoded.
struct Raw {
    status: u16,
    headers: header::HeaderMap,
    body: Vec<u8>,
}

impl Raw {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// The body as JSON, inflated as its Content-Encoding says.
    fn json(&self) -> Value {
        let mut plain = Vec::new();
        match self.header("content-encoding") {
            Some("br") => {
                brotli::Decompressor::new(&self.body[..], 4096)
                    .read_to_end(&mut plain)
                    .expect("brotli");
            }
            Some("gzip") => {
                flate2::read::GzDecoder::new(&self.body[..])
                    .read_to_end(&mut plain)
                    .expect("gzip");
            }
            None => plain.clone_from(&self.body),
            Some(other) => panic!("unexpected Content-Encoding {other}"),
        }
        serde_json::from_slice(&plain).unwrap_or_else(|e| panic!("JSON: {e}"))
    }
}

async fn get(base: &str, path: &str, headers: &[(&str, &str)]) -> Raw {
    let client = awc::Client::builder()
        .timeout(std::time::Duration::from_secs(20))
        .finish();
    let mut req = client.get(format!("{base}{path}")).no_decompress();
    for (k, v) in headers {
        req = req.insert_header((*k, *v));
    }
    let mut resp = req.send().await.unwrap_or_else(|e| panic!("{path}: {e}"));
    let body = resp.body().limit(4 << 20).await.expect("a body").to_vec();
    Raw {
        status: resp.status().as_u16(),
        headers: resp.headers().clone(),
        body,
    }
}

async fn kept_once_the_game_has_ended(db: TestDb) {
    let h = Harness::start(db);
    let a = h.player("keeper").await;
    let b = h.player("finder").await;
    let mut table = Table::open(&h, a, b, 30, false).await;
    let base = h.base();
    let mut rng = Rng::new(18);
    let record = format!("/api/games/{}/record", table.id);
    let replay = format!("/api/games/{}/replay", table.id);
    let plain = [("accept-encoding", "identity")];

    // Running: the record follows every action and is never kept.
    table.harmless_steps(2, &mut rng).await;
    let r = get(&base, &record, &plain).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["actions"].as_array().unwrap().len(), 2);
    assert!(r.json()["deal"].is_null(), "no deal while it runs");
    assert_eq!(
        r.header("etag"),
        None,
        "a running game's record has no ETag"
    );
    table.harmless_steps(1, &mut rng).await;
    let r = get(&base, &record, &plain).await;
    assert_eq!(
        r.json()["actions"].as_array().unwrap().len(),
        3,
        "not a stale copy"
    );
    assert_eq!(r.header("x-cache"), None);
    get(&base, &replay, &plain).await;
    let refused = get(&base, &replay, &plain).await;
    assert_eq!(refused.status, 409, "no replay while it runs");

    // Finished: built once, then kept.
    table.harmless_steps(50, &mut rng).await;
    let quitter = table.game.to_move();
    table.play(quitter, Action::Resign).await;
    table.socket(quitter.other()).wait_event("resign").await;

    for path in [&record, &replay] {
        let first = get(&base, path, &plain).await;
        assert_eq!(first.status, 200, "{path}");
        assert_eq!(first.header("x-cache"), Some("miss"), "{path}: built");
        assert_eq!(first.header("content-encoding"), None, "{path}");
        let etag = first.header("etag").expect("an ETag").to_string();
        assert!(etag.starts_with("W/\""), "{path}: a weak ETag {etag}");
        assert_eq!(first.header("vary"), Some("Accept-Encoding"), "{path}");
        let json = first.json();

        for (accept, encoding) in [
            ("br", Some("br")),
            ("gzip, deflate, br", Some("br")),
            ("gzip", Some("gzip")),
            ("br;q=0.5, gzip", Some("gzip")),
            ("identity", None),
        ] {
            let r = get(&base, path, &[("accept-encoding", accept)]).await;
            assert_eq!(r.status, 200, "{path} {accept}");
            assert_eq!(r.header("x-cache"), Some("hit"), "{path} {accept}: kept");
            assert_eq!(r.header("content-encoding"), encoding, "{path} {accept}");
            assert_eq!(r.header("etag"), Some(etag.as_str()), "{path} {accept}");
            assert_eq!(r.json(), json, "{path} {accept}: the same answer");
        }

        let unchanged = get(
            &base,
            path,
            &[("if-none-match", &etag), ("accept-encoding", "br")],
        )
        .await;
        assert_eq!(unchanged.status, 304, "{path}");
        assert!(unchanged.body.is_empty(), "{path}: no body with a 304");
        assert_eq!(unchanged.header("etag"), Some(etag.as_str()));
        let strong = etag.trim_start_matches("W/");
        let also = get(
            &base,
            path,
            &[("if-none-match", &format!("\"x\", {strong}"))],
        )
        .await;
        assert_eq!(also.status, 304, "{path}: compared weakly, among others");
        let other = get(&base, path, &[("if-none-match", "W/\"0000000000000000\"")]).await;
        assert_eq!(other.status, 200, "{path}: another ETag gets the answer");
        let bad = get(&base, path, &[("if-none-match", "not an etag")]).await;
        assert_eq!(
            bad.status, 200,
            "{path}: a header that does not parse is ignored"
        );
    }

    let rec = get(&base, &record, &plain).await.json();
    assert!(rec["deal"].is_object(), "the deal once it has ended: {rec}");
    assert_eq!(rec["verified"], true);
    assert_eq!(rec["actions"].as_array().unwrap().len(), 54);
    let rep = get(&base, &replay, &plain).await.json();
    assert_eq!(rep["steps"].as_array().unwrap().len(), 54);

    // Unknown games are still 404, and not kept.
    for _ in 0..2 {
        let r = get(&base, "/api/games/ZZZZZZZZ/replay", &plain).await;
        assert_eq!(r.status, 404);
        assert_eq!(r.header("x-cache"), None);
    }
}
