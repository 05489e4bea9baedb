//! Bot accounts and their API tokens: a token is shown once and kept hashed; it acts
//! for its own bot and no one else, over HTTP and on the sockets; a revoked or unknown
//! token is a 401; an account becomes a bot (and back) only while it has no rating and
//! no game in hand; rated games never put a bot against a person; bots share the
//! people's socket caps and clocks. On SQLite and PostgreSQL.

#[macro_use]
mod support;

use awc::error::WsClientError;
use awc::http::header;
use diesel::prelude::*;
use junqi::db::schema::api_tokens;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use std::time::Duration;
use support::{Client, Harness, Resp, TestDb};

db_tests! {
    tokens_are_shown_once_and_kept_hashed => tokens_are_shown_once_and_kept_hashed_sqlite, tokens_are_shown_once_and_kept_hashed_postgres;
    a_token_acts_for_its_own_bot_only => a_token_acts_for_its_own_bot_only_sqlite, a_token_acts_for_its_own_bot_only_postgres;
    a_revoked_token_is_refused => a_revoked_token_is_refused_sqlite, a_revoked_token_is_refused_postgres;
    becoming_a_bot_and_back => becoming_a_bot_and_back_sqlite, becoming_a_bot_and_back_postgres;
    rated_games_never_mix_bots_and_people => rated_games_never_mix_bots_and_people_sqlite, rated_games_never_mix_bots_and_people_postgres;
    bots_share_the_socket_caps => bots_share_the_socket_caps_sqlite, bots_share_the_socket_caps_postgres;
    bots_play_under_the_same_clock => bots_play_under_the_same_clock_sqlite, bots_play_under_the_same_clock_postgres;
    unknown_tokens_are_throttled_per_address => unknown_tokens_are_throttled_per_address_sqlite, unknown_tokens_are_throttled_per_address_postgres;
}

/// The status an upgrade was refused with.
fn refused(r: Result<support::Socket, WsClientError>) -> u16 {
    match r {
        Err(WsClientError::InvalidResponseStatus(s)) => s.as_u16(),
        Err(e) => panic!("the upgrade failed otherwise: {e}"),
        Ok(_) => panic!("the upgrade was accepted"),
    }
}

/// Sends a new casual game's body with `c`'s token and cookie, plus these headers.
async fn raw(c: &Client, method: &str, path: &str, extra: &[(&str, &str)]) -> Resp {
    let http = awc::Client::default();
    let mut req = match method {
        "POST" => http.post(format!("{}{path}", c.base)),
        _ => http.get(format!("{}{path}", c.base)),
    };
    if let Some(t) = &c.bearer {
        req = req.insert_header((header::AUTHORIZATION, format!("Bearer {t}")));
    }
    if let Some(k) = &c.cookie {
        req = req.insert_header((header::COOKIE, k.clone()));
    }
    for (k, v) in extra {
        req = req.insert_header((*k, *v));
    }
    let mut res = req
        .send_json(&json!({"variant": "flip", "seconds_per_action": 30, "rated": false}))
        .await
        .unwrap();
    let text = String::from_utf8_lossy(&res.body().await.unwrap()).into_owned();
    Resp {
        status: res.status().as_u16(),
        json: serde_json::from_str(&text).unwrap_or(Value::Null),
        text,
        retry_after: None,
    }
}

/// (1) The token is in the answer that made it and nowhere after: not in the list, the
/// overview, the page or the database, which keeps its SHA-256. Tokens are for bot
/// accounts, at most 10, named, and managed with the owner's session only.
async fn tokens_are_shown_once_and_kept_hashed(db: TestDb) {
    let h = Harness::start(db);
    let mut person = h.player("just_a_person").await;
    person
        .post("/api/bot/tokens", json!({"name": "x"}))
        .await
        .assert_error(403, "forbidden");

    let bot = h.bot("shown_once").await;
    let token = bot.token.clone();
    assert!(
        token.starts_with("junqi_bot_") && token.len() >= 64,
        "{token}"
    );
    let mut owner = bot.owner;
    let mut me = bot.client;
    assert_eq!(me.get("/api/me").await.json["username"], "shown_once");

    for path in ["/api/bot/tokens", "/api/bot", "/bot"] {
        let r = owner.get(path).await;
        assert_eq!(r.status, 200, "{path}: {}", r.text);
        assert!(!r.text.contains(&token), "{path} shows the token again");
        assert!(r.text.contains("tests"), "{path} names the token");
    }
    let list = owner.get("/api/bot/tokens").await.json;
    assert_eq!(list.as_array().unwrap().len(), 1, "{list}");
    assert!(list[0].get("token").is_none(), "{list}");
    assert!(
        list[0]["last_used_at"].is_i64(),
        "the bot's request was noted: {list}"
    );

    let rows: Vec<(String, String, i64)> = api_tokens::table
        .select((
            api_tokens::name,
            api_tokens::token_hash,
            api_tokens::user_id,
        ))
        .load(&mut **h.conn())
        .unwrap();
    assert_eq!(rows.len(), 1);
    let (name, hash, _) = &rows[0];
    assert_eq!(name, "tests");
    assert_eq!(*hash, hex::encode(Sha256::digest(token.as_bytes())));
    assert!(!hash.contains(&token[10..]));

    // A bot cannot manage tokens with a token: a leaked one cannot make more.
    me.post("/api/bot/tokens", json!({"name": "more"}))
        .await
        .assert_error(403, "forbidden");
    me.get("/api/bot/tokens")
        .await
        .assert_error(403, "forbidden");
    me.post("/api/bot/kind", json!({"kind": "person"}))
        .await
        .assert_error(403, "forbidden");

    owner
        .post("/api/bot/tokens", json!({"name": "  "}))
        .await
        .assert_error(400, "bad_request");
    // Names that hide or reorder text are refused, saying which character.
    for bad in [
        "lap\u{202E}pot",
        "a\u{200B}b",
        "x\u{FE0F}",
        "a\u{034F}b",
        "k\u{17B4}",
    ] {
        let r = owner.post("/api/bot/tokens", json!({"name": bad})).await;
        r.assert_error(400, "bad_request");
        assert!(r.text.contains("U+"), "{bad:?}: {}", r.text);
    }
    for i in 1..10 {
        let r = owner
            .post("/api/bot/tokens", json!({"name": format!("spare {i}")}))
            .await;
        assert_eq!(r.status, 201, "{}", r.text);
    }
    owner
        .post("/api/bot/tokens", json!({"name": "one too many"}))
        .await
        .assert_error(409, "too_many_tokens");
}

/// (2) A token is its own bot and nothing else: not another bot, not the person whose
/// cookie rides along, not a seat it does not hold. With it, a foreign `Origin` does
/// not matter (there is no cookie to protect); a cookie alone is still checked.
async fn a_token_acts_for_its_own_bot_only(db: TestDb) {
    let h = Harness::start(db);
    let a = h.bot("bot_alpha").await;
    let b = h.bot("bot_beta").await;
    let c = h.bot("bot_gamma").await;
    let mut person = h.player("cookie_person").await;
    let (mut ca, mut cb) = (a.client, b.client);

    let their = cb.create_game(30, false).await;
    ca.post_empty(&format!("/api/games/{their}/cancel"))
        .await
        .assert_error(403, "forbidden");
    assert_eq!(ca.summary(&their).await["status"], "open");

    // The token wins over a cookie; the cookie's person is not touched.
    let mut both = h.token_client("bot_alpha", &a.token);
    both.cookie = person.cookie.clone();
    assert_eq!(both.get("/api/me").await.json["username"], "bot_alpha");
    both.post_empty("/api/logout-all")
        .await
        .assert_error(403, "forbidden");
    assert_eq!(
        person.get("/api/me").await.json["username"],
        "cookie_person"
    );

    let foreign = [("origin", "https://evil.example")];
    let r = raw(&ca, "POST", "/api/games", &foreign).await;
    assert_eq!(
        r.status, 201,
        "a token's request needs no Origin: {}",
        r.text
    );
    let mine = r.json["id"].as_str().unwrap().to_string();
    assert_eq!(ca.summary(&mine).await["creator"]["username"], "bot_alpha");
    raw(&person, "POST", "/api/games", &foreign)
        .await
        .assert_error(403, "bad_origin");
    let mut forged = h.token_client("nobody", "junqi_bot_forged");
    forged.cookie = person.cookie.clone();
    raw(&forged, "POST", "/api/games", &foreign)
        .await
        .assert_error(401, "bad_token");

    // On the socket each token is its own seat; a third bot only watches.
    ca.join(&their).await;
    let mut sa = ca.game_socket(&their).await;
    let mut sb = cb.game_socket(&their).await;
    let mut sc = h
        .token_client("bot_gamma", &c.token)
        .game_socket(&their)
        .await;
    let summary = ca.summary(&their).await;
    let sa_state = sa.wait_state().await;
    let seat_a = sa_state["d"]["you"].as_str().unwrap().to_string();
    assert_eq!(summary["players"][&seat_a]["username"], "bot_alpha");
    let seat_b = sb.wait_state().await["d"]["you"].clone();
    assert_ne!(seat_b, json!(seat_a));
    assert!(seat_b.is_string());
    assert_eq!(sc.wait_state().await["d"]["you"], Value::Null);
    sc.act_err("resign", Value::Null, "not_a_player").await;
    let to_move = sa_state["d"]["view"]["to_move"].as_str().unwrap();
    let (idle, _) = if to_move == seat_a {
        (&mut sb, &mut sa)
    } else {
        (&mut sa, &mut sb)
    };
    let legal_elsewhere = json!({"at": "c3"});
    idle.act("flip", legal_elsewhere)
        .await
        .expect_err("a seat cannot act on the other's turn");
}

/// (3) A revoked token is refused at once, on HTTP (any route) and on the socket
/// upgrade, with 401 `bad_token`; so is an unknown one. The bot's other tokens, and
/// tokens of others' bots, are not touched, and no one else can revoke them.
async fn a_revoked_token_is_refused(db: TestDb) {
    let h = Harness::start(db);
    let bot = h.bot("revoked_bot").await;
    let mut owner = bot.owner;
    let mut me = bot.client;
    let id = me.create_game(30, false).await;
    let spare = owner
        .post("/api/bot/tokens", json!({"name": "spare"}))
        .await;
    let spare_id = spare.json["id"].as_i64().unwrap();
    let spare = spare.json["token"].as_str().unwrap().to_string();

    assert_eq!(
        owner
            .delete(&format!("/api/bot/tokens/{}", bot.token_id))
            .await
            .status,
        204
    );
    owner
        .delete(&format!("/api/bot/tokens/{}", bot.token_id))
        .await
        .assert_error(404, "not_found");
    for path in ["/api/me", "/api/games/open", "/api/layouts"] {
        let r = me.get(path).await;
        r.assert_error(401, "bad_token");
        assert!(r.text.contains("revoked"), "{}", r.text);
    }
    me.post_empty(&format!("/api/games/{id}/cancel"))
        .await
        .assert_error(401, "bad_token");
    assert_eq!(refused(me.try_socket(&format!("/ws/game/{id}")).await), 401);
    assert_eq!(refused(me.try_socket("/ws/lobby").await), 401);
    for bad in ["junqi_bot_0000", ""] {
        let mut c = h.token_client("x", bad);
        c.get("/api/me").await.assert_error(401, "bad_token");
        assert_eq!(refused(c.try_socket("/ws/lobby").await), 401);
    }

    // Another player cannot revoke this bot's spare token.
    let mut stranger = h.player("stranger").await;
    stranger
        .delete(&format!("/api/bot/tokens/{spare_id}"))
        .await
        .assert_error(404, "not_found");
    let mut still = h.token_client("revoked_bot", &spare);
    assert_eq!(still.get("/api/me").await.status, 200);
    let mut s = still.game_socket(&id).await;
    assert_eq!(s.wait_state().await["d"]["game"]["id"], id.as_str());
}

/// (4) A person becomes a bot only with no game in hand, and may go back while unrated;
/// going back revokes every token. The header shows the badge.
async fn becoming_a_bot_and_back(db: TestDb) {
    let h = Harness::start(db);
    h.client()
        .post("/api/bot/kind", json!({"kind": "bot"}))
        .await
        .assert_error(401, "not_logged_in");
    let mut p = h.player("changeling").await;
    let open = p.create_game(30, false).await;
    p.post("/api/bot/kind", json!({"kind": "bot"}))
        .await
        .assert_error(409, "conflict");
    p.post("/api/bot/kind", json!({"kind": "computer"}))
        .await
        .assert_error(400, "bad_request");
    assert_eq!(
        p.post_empty(&format!("/api/games/{open}/cancel"))
            .await
            .status,
        204
    );
    let r = p.post("/api/bot/kind", json!({"kind": "bot"})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(p.get("/api/me").await.json["kind"], "bot");
    let page = p.get("/").await.text;
    assert!(
        page.contains("kind-badge kind-bot"),
        "the header shows the badge"
    );

    let token = p.post("/api/bot/tokens", json!({"name": "t"})).await.json["token"]
        .as_str()
        .unwrap()
        .to_string();
    let mut as_bot = h.token_client("changeling", &token);
    assert_eq!(as_bot.get("/api/me").await.status, 200);
    let r = p.post("/api/bot/kind", json!({"kind": "person"})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    as_bot.get("/api/me").await.assert_error(401, "bad_token");
    assert_eq!(p.get("/api/bot").await.json["tokens"], json!([]));
    p.post("/api/bot/tokens", json!({"name": "t"}))
        .await
        .assert_error(403, "forbidden");
    assert_eq!(p.get("/api/me").await.json["kind"], "person");
}

/// (5) A rated game between a bot and a person cannot happen: joining is 403
/// `not_rated_together`, quick pairing passes over the other kind's rated games, and
/// the lobby shows each creator's kind. Casual games mix freely.
async fn rated_games_never_mix_bots_and_people(db: TestDb) {
    let h = Harness::start(db);
    let mut bot = h.bot("rated_bot").await.client;
    let mut other_bot = h.bot("rated_bot_two").await.client;
    let mut person = h.player("rated_person").await;
    let mut another = h.player("rated_person_two").await;

    let bots_game = bot.create_game(15, true).await;
    person
        .post_empty(&format!("/api/games/{bots_game}/join"))
        .await
        .assert_error(403, "not_rated_together");
    assert_eq!(person.summary(&bots_game).await["status"], "open");

    let quick = json!({"variant": "flip", "seconds_per_action": 15, "rated": true});
    let r = person.post("/api/games/quick", quick.clone()).await;
    assert_eq!(
        r.json["joined"], false,
        "not into the bot's game: {}",
        r.text
    );
    let persons_game = r.json["id"].as_str().unwrap().to_string();
    other_bot
        .post_empty(&format!("/api/games/{persons_game}/join"))
        .await
        .assert_error(403, "not_rated_together");
    // The person's game is the newer; a bot's quick pairing still takes the bot's.
    let r = other_bot.post("/api/games/quick", quick.clone()).await;
    assert_eq!(
        r.json,
        json!({"id": bots_game, "joined": true}),
        "{}",
        r.text
    );
    let r = another.post("/api/games/quick", quick).await;
    assert_eq!(
        r.json,
        json!({"id": persons_game, "joined": true}),
        "{}",
        r.text
    );

    let casual = bot.create_game(30, false).await;
    let open = person.get("/api/games/open").await.json;
    let listed = open
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == casual.as_str())
        .expect("the bot's casual game is listed");
    assert_eq!(listed["creator"]["kind"], "bot", "{listed}");
    person.join(&casual).await;
    let s = person.summary(&casual).await;
    let kinds: Vec<&Value> = ["south", "north"]
        .iter()
        .map(|seat| &s["players"][*seat]["kind"])
        .collect();
    assert!(
        kinds.contains(&&json!("bot")) && kinds.contains(&&json!("person")),
        "{s}"
    );
}

/// (6) A bot's sockets count against the same per-player cap as a person's.
async fn bots_share_the_socket_caps(db: TestDb) {
    let h = Harness::start(db);
    let bot = h.bot("many_sockets").await.client;
    let mut open = Vec::new();
    for _ in 0..20 {
        open.push(bot.socket("/ws/lobby").await);
    }
    assert_eq!(refused(bot.try_socket("/ws/lobby").await), 429);
    open.pop().unwrap().close().await;
    actix_web::rt::time::sleep(Duration::from_millis(200)).await;
    open.push(bot.socket("/ws/lobby").await);
}

/// (7) The clock runs for bots as for people: with one-second actions, bots that never
/// act lose on timeouts.
async fn bots_play_under_the_same_clock(db: TestDb) {
    let h = Harness::start(db);
    let mut a = h.bot("idle_one").await.client;
    let mut b = h.bot("idle_two").await.client;
    let id = a.create_game(1, false).await;
    let mut s = a.game_socket(&id).await;
    b.join(&id).await;
    let end = s
        .wait_for("the end", |m| {
            m["t"] == "event" && m["d"]["result"].is_object()
        })
        .await;
    assert_eq!(end["d"]["result"]["reason"], "timeouts", "{end}");
    assert_eq!(b.summary(&id).await["reason"], "timeouts");
}

/// A flood of made-up tokens from one address (2,800 a second once, each a database
/// lookup) is throttled like failed logins: 10 at once, then one every 6 s, 429 with
/// Retry-After; refused before the token is looked up, so the address is held back
/// whatever token it sends. Other addresses are not. The limits run on a frozen clock.
async fn unknown_tokens_are_throttled_per_address(db: TestDb) {
    let h = Harness::start_with_flags(db, &["--trust-proxy", "--frozen-rate-clock"]);
    let bot = h.bot("busy_bot").await;
    let mut guesser = h.token_client("guesser", "");
    guesser.forwarded_for = Some("10.8.0.1".into());
    for i in 0..10 {
        guesser.bearer = Some(format!("junqi_bot_{i:064}"));
        guesser.get("/api/me").await.assert_error(401, "bad_token");
    }
    for i in 10..60 {
        guesser.bearer = Some(format!("junqi_bot_{i:064}"));
        let r = guesser.get("/api/games/open").await;
        r.assert_error(429, "rate_limited");
        assert_eq!(r.retry_after.as_deref(), Some("6"), "{}", r.text);
    }
    let mut same_address = h.token_client("busy_bot", &bot.token);
    same_address.forwarded_for = Some("10.8.0.1".into());
    same_address
        .get("/api/me")
        .await
        .assert_error(429, "rate_limited");
    let mut elsewhere = h.token_client("busy_bot", &bot.token);
    elsewhere.forwarded_for = Some("10.8.0.2".into());
    let r = elsewhere.get("/api/me").await;
    assert_eq!(r.json["username"], "busy_bot", "{}", r.text);

    // 6 s on, the address may try once more.
    support::advance_rate_clock(&h.base(), Duration::from_secs(6)).await;
    assert_eq!(same_address.get("/api/me").await.status, 200);
    guesser.get("/api/me").await.assert_error(401, "bad_token");
    guesser
        .get("/api/me")
        .await
        .assert_error(429, "rate_limited");
}
