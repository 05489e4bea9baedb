//! Requests that change something, sent with a player's cookie from another site's page
//! (a foreign `Origin`; without one, `Sec-Fetch-Site: cross-site` or a foreign
//! `Referer`), are refused with 403 `bad_origin` and change nothing; from the site's own
//! pages, or from clients that send none of those headers, they work. On SQLite and
//! PostgreSQL.

#[macro_use]
mod support;

use awc::http::{Method, header};
use serde_json::{Value, json};
use std::time::Duration;
use support::{Client, Harness, Resp, TestDb};

db_tests! {
    foreign_pages_change_nothing => foreign_pages_change_nothing_sqlite, foreign_pages_change_nothing_postgres;
    forwarded_hosts_count_behind_a_trusted_proxy_only => forwarded_hosts_count_behind_a_trusted_proxy_only_sqlite, forwarded_hosts_count_behind_a_trusted_proxy_only_postgres;
}

/// Where a request says it comes from.
#[derive(Clone, Copy, Debug)]
enum From {
    ForeignOrigin,
    NullOrigin,
    CrossSite,
    ForeignReferer,
    OwnOrigin,
    OwnReferer,
}

const FOREIGN: [From; 4] = [
    From::ForeignOrigin,
    From::NullOrigin,
    From::CrossSite,
    From::ForeignReferer,
];

async fn send(
    c: &Client,
    from: From,
    method: Method,
    path: &str,
    body: Option<(&str, String)>,
) -> Resp {
    let http = awc::Client::builder()
        .timeout(Duration::from_secs(20))
        .finish();
    let own = c.base.clone();
    let mut req = http.request(method, format!("{}{path}", c.base));
    req = match from {
        From::ForeignOrigin => req.insert_header((header::ORIGIN, "https://evil.example")),
        From::NullOrigin => req.insert_header((header::ORIGIN, "null")),
        From::CrossSite => req.insert_header(("sec-fetch-site", "cross-site")),
        From::ForeignReferer => req.insert_header((header::REFERER, "https://evil.example/x")),
        From::OwnOrigin => req
            .insert_header((header::ORIGIN, own.clone()))
            .insert_header(("sec-fetch-site", "same-origin")),
        From::OwnReferer => req.insert_header((header::REFERER, format!("{own}/layouts"))),
    };
    if let Some(cookie) = &c.cookie {
        req = req.insert_header((header::COOKIE, cookie.clone()));
    }
    let mut resp = match body {
        Some((ct, b)) => req.insert_header((header::CONTENT_TYPE, ct)).send_body(b),
        None => req.send(),
    }
    .await
    .unwrap_or_else(|e| panic!("{path}: {e}"));
    let bytes = resp.body().await.unwrap();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    Resp {
        status: resp.status().as_u16(),
        json: serde_json::from_str(&text).unwrap_or(Value::Null),
        text,
        retry_after: None,
    }
}

async fn status_of(c: &mut Client, id: &str) -> Value {
    c.summary(id).await["status"].clone()
}

async fn foreign_pages_change_nothing(db: TestDb) {
    let h = Harness::start(db);
    let mut alice = h.player("alice").await;
    let mut bob = h.player("bob").await;
    let open = alice.create_game(30, true).await;
    let json_body = |v: Value| Some(("application/json", v.to_string()));

    for from in FOREIGN {
        // Joining someone's rated game (the attack: seat a victim, who then loses by escape).
        let path = format!("/api/games/{open}/join");
        send(&bob, from, Method::POST, &path, None)
            .await
            .assert_error(403, "bad_origin");
        assert_eq!(status_of(&mut bob, &open).await, "open", "{from:?}");
        // Cancelling one's own game.
        let path = format!("/api/games/{open}/cancel");
        send(&alice, from, Method::POST, &path, None)
            .await
            .assert_error(403, "bad_origin");
        assert_eq!(status_of(&mut alice, &open).await, "open", "{from:?}");
        // Logging out.
        send(&alice, from, Method::POST, "/api/logout", None)
            .await
            .assert_error(403, "bad_origin");
        assert_eq!(alice.get("/api/me").await.status, 200, "{from:?}");
        // A layout file as text/plain (a form can send that without a preflight).
        let r = send(
            &alice,
            from,
            Method::POST,
            "/api/layouts/import",
            Some(("text/plain", "{}".into())),
        )
        .await;
        r.assert_error(403, "bad_origin");
        // And the others: new games, display names, layouts, the profile form, logins.
        let body = json!({"variant": "flip", "seconds_per_action": 30, "rated": true});
        send(&alice, from, Method::POST, "/api/games", json_body(body))
            .await
            .assert_error(403, "bad_origin");
        let body = json!({"display_name": "被改了"});
        send(&alice, from, Method::PATCH, "/api/me", json_body(body))
            .await
            .assert_error(403, "bad_origin");
        send(&alice, from, Method::DELETE, "/api/layouts/1", None)
            .await
            .assert_error(403, "bad_origin");
        let form = Some((
            "application/x-www-form-urlencoded",
            "display_name=x".to_string(),
        ));
        send(&alice, from, Method::POST, "/@/alice", form)
            .await
            .assert_error(403, "bad_origin");
        let login = json!({"username": "alice", "password": "correct horse"});
        let anon = h.client();
        send(&anon, from, Method::POST, "/api/login", json_body(login))
            .await
            .assert_error(403, "bad_origin");
        // Reading is anyone's.
        let r = send(&anon, from, Method::GET, "/api/games/open", None).await;
        assert_eq!(r.status, 200, "{from:?}: {}", r.text);
    }
    assert_eq!(alice.get("/api/me").await.json["display_name"], Value::Null);
    assert_eq!(
        alice
            .get("/api/games/open")
            .await
            .json
            .as_array()
            .unwrap()
            .len(),
        1,
        "no game was opened"
    );

    // From the site's own pages everything goes through to the handlers.
    let r = send(
        &alice,
        From::OwnReferer,
        Method::POST,
        "/api/layouts/import",
        Some(("text/plain", "{}".into())),
    )
    .await;
    r.assert_error(400, "bad_request");
    let body = json!({"display_name": "小明"});
    let r = send(
        &alice,
        From::OwnOrigin,
        Method::PATCH,
        "/api/me",
        json_body(body),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let path = format!("/api/games/{open}/join");
    let r = send(&bob, From::OwnOrigin, Method::POST, &path, None).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(status_of(&mut bob, &open).await, "running");
    // And from clients that send no such header (curl, bots, the other tests).
    let id = alice.create_game(30, false).await;
    let r = alice.post_empty(&format!("/api/games/{id}/cancel")).await;
    assert_eq!(r.status, 204, "{}", r.text);
    let r = send(&alice, From::OwnOrigin, Method::POST, "/api/logout", None).await;
    assert_eq!(r.status, 204, "{}", r.text);
}

/// `POST /api/logout` with the client's cookie, from `origin`, with these headers too.
async fn logout_from(c: &Client, origin: &str, extra: &[(&str, &str)]) -> u16 {
    let http = awc::Client::builder()
        .timeout(Duration::from_secs(20))
        .finish();
    let mut req = http
        .post(format!("{}/api/logout", c.base))
        .insert_header((header::ORIGIN, origin.to_string()))
        .insert_header((header::COOKIE, c.cookie.clone().unwrap()));
    for &(k, v) in extra {
        req = req.insert_header((k, v.to_string()));
    }
    req.send().await.unwrap().status().as_u16()
}

/// A foreign page cannot make its request pass by naming its own host in
/// `X-Forwarded-Host` or `Forwarded`: without `--trust-proxy` those are anyone's
/// words, and the Origin is compared with the Host header. Behind a trusted proxy
/// the host it forwards is the site's.
async fn forwarded_hosts_count_behind_a_trusted_proxy_only(db: TestDb) {
    let h = Harness::start(db);
    let mut alice = h.player("alice").await;
    for forwarded in [
        ("x-forwarded-host", "evil.example"),
        ("forwarded", "host=evil.example;proto=https"),
    ] {
        assert_eq!(
            logout_from(&alice, "https://evil.example", &[forwarded]).await,
            403,
            "{forwarded:?}"
        );
        assert_eq!(alice.get("/api/me").await.status, 200, "{forwarded:?}");
    }

    let url = h.db.url.clone();
    drop(h.server);
    let server = support::Server::start_with_flags(&url, &["--no-rate-limits", "--trust-proxy"]);
    let mut alice = Client::new(&server.base());
    let r = alice
        .post(
            "/api/login",
            json!({"username": "alice", "password": "correct horse"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let proxied = [("x-forwarded-host", "junqi.example")];
    assert_eq!(
        logout_from(&alice, "https://evil.example", &proxied).await,
        403
    );
    assert_eq!(
        logout_from(&alice, "https://junqi.example", &proxied).await,
        204
    );
    assert_eq!(alice.get("/api/me").await.status, 401, "logged out");
}
