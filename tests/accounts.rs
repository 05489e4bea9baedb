//! Accounts: server-side sessions that logout, "log out everywhere" and expiry end, and
//! that a reader of the database cannot forge; concurrent registrations on SQLite that
//! never meet "database is locked". Every test runs on SQLite and on PostgreSQL.

#[macro_use]
mod support;

use actix_web::cookie::{Cookie, CookieJar, Key};
use diesel::prelude::*;
use junqi::db::schema::{sessions, settings};
use serde_json::json;
use sha2::{Digest, Sha256};
use support::{Client, Harness, TestDb};

db_tests! {
    logout_ends_the_session => logout_ends_the_session_sqlite, logout_ends_the_session_postgres;
    logout_everywhere_ends_every_session => logout_everywhere_ends_every_session_sqlite, logout_everywhere_ends_every_session_postgres;
    sessions_expire_and_slide => sessions_expire_and_slide_sqlite, sessions_expire_and_slide_postgres;
    the_database_cannot_mint_a_cookie => the_database_cannot_mint_a_cookie_sqlite, the_database_cannot_mint_a_cookie_postgres;
    concurrent_registrations_all_succeed => concurrent_registrations_all_succeed_sqlite, concurrent_registrations_all_succeed_postgres;
}

/// 200 registrations at once (each reads whether the name is taken, then writes) all
/// answer 201; two at once for one name give one 201 and one 409, never a 500. Before
/// write transactions began IMMEDIATE, SQLite refused some with "database is locked".
async fn concurrent_registrations_all_succeed(db: TestDb) {
    let h = Harness::start(db);
    let base = h.base();
    let register = |name: String| {
        let base = base.clone();
        async move {
            let mut c = Client::new(&base);
            let r = c
                .post(
                    "/api/register",
                    json!({"username": name, "password": "correct horse"}),
                )
                .await;
            (name, r)
        }
    };
    let answers =
        futures_util::future::join_all((0..200).map(|i| register(format!("racer{i}")))).await;
    let failed: Vec<String> = answers
        .iter()
        .filter(|(_, r)| r.status != 201)
        .map(|(name, r)| format!("{name}: {} {}", r.status, r.text))
        .collect();
    assert!(
        failed.is_empty(),
        "{} of 200 registrations failed, e.g. {:?}",
        failed.len(),
        &failed[..failed.len().min(5)]
    );

    let pairs = (0..20).flat_map(|i| [format!("twin{i}"), format!("TWIN{i}")]);
    let answers = futures_util::future::join_all(pairs.map(register)).await;
    for pair in answers.chunks(2) {
        let mut statuses = [pair[0].1.status, pair[1].1.status];
        statuses.sort();
        assert_eq!(
            statuses,
            [201, 409],
            "{}: {} / {}",
            pair[0].0,
            pair[0].1.text,
            pair[1].1.text
        );
    }
}

/// A second client holding a copy of `c`'s cookie, as a stolen or forgotten one.
fn copy_of(c: &Client) -> Client {
    let mut copy = Client::new(&c.base);
    copy.cookie = c.cookie.clone();
    copy
}

async fn me(c: &mut Client) -> u16 {
    c.get("/api/me").await.status
}

async fn log_in(h: &Harness, name: &str) -> Client {
    let mut c = h.client();
    let r = c
        .post(
            "/api/login",
            json!({"username": name, "password": "correct horse"}),
        )
        .await;
    assert_eq!(r.status, 200, "login {name}: {}", r.text);
    c
}

/// After logout the old cookie no longer answers for anyone (before, it still got 200).
async fn logout_ends_the_session(db: TestDb) {
    let h = Harness::start(db);
    let mut alice = h.player("alice").await;
    let mut kept = copy_of(&alice);
    assert_eq!(me(&mut kept).await, 200);
    assert_eq!(alice.post_empty("/api/logout").await.status, 204);
    kept.get("/api/me").await.assert_error(401, "not_logged_in");
    // A new login works and gets a new token.
    let mut again = log_in(&h, "alice").await;
    assert_ne!(again.cookie, kept.cookie);
    assert_eq!(me(&mut again).await, 200);
}

/// "Log out everywhere" ends the player's sessions on every device, and no one else's.
async fn logout_everywhere_ends_every_session(db: TestDb) {
    let h = Harness::start(db);
    let mut phone = h.player("alice").await;
    let mut laptop = log_in(&h, "alice").await;
    let mut cafe = log_in(&h, "alice").await;
    let mut bob = h.player("bob").await;
    for c in [&mut phone, &mut laptop, &mut cafe] {
        assert_eq!(me(c).await, 200);
    }
    h.client()
        .post_empty("/api/logout-all")
        .await
        .assert_error(401, "not_logged_in");
    assert_eq!(laptop.post_empty("/api/logout-all").await.status, 204);
    for c in [&mut phone, &mut cafe] {
        c.get("/api/me").await.assert_error(401, "not_logged_in");
    }
    assert!(laptop.cookie.is_none(), "the answer clears this cookie");
    let mut rows = sessions::table
        .inner_join(junqi::db::schema::users::table)
        .filter(junqi::db::schema::users::username.eq("alice"))
        .count()
        .get_result::<i64>(&mut **h.conn())
        .unwrap();
    assert_eq!(rows, 0, "alice has no session left");
    assert_eq!(me(&mut bob).await, 200, "bob's session is not touched");
    let mut back = log_in(&h, "alice").await;
    assert_eq!(me(&mut back).await, 200);
    rows = sessions::table.count().get_result(&mut **h.conn()).unwrap();
    assert_eq!(rows, 2, "bob's and alice's new session");

    // The button on the player's own profile page, not on anyone else's.
    let page = back.get("/@/alice").await;
    assert!(page.text.contains(r#"id="logout-all""#), "{}", page.text);
    let page = back.get("/@/bob").await;
    assert!(!page.text.contains(r#"id="logout-all""#));
}

/// A session past its expiry is refused; one in use slides its expiry forward.
async fn sessions_expire_and_slide(db: TestDb) {
    let h = Harness::start(db);
    let mut alice = h.player("alice").await;
    let mut bob = h.player("bob").await;
    let now = junqi::db::now_ms();
    let hour = 3600 * 1000;
    let bob_id: i64 = junqi::db::schema::users::table
        .filter(junqi::db::schema::users::username.eq("bob"))
        .select(junqi::db::schema::users::id)
        .first(&mut **h.conn())
        .unwrap();
    // Alice's session has expired; bob's was last used two hours ago and ends in a minute.
    diesel::update(sessions::table.filter(sessions::user_id.ne(bob_id)))
        .set(sessions::expires_at.eq(now - 1))
        .execute(&mut **h.conn())
        .unwrap();
    diesel::update(sessions::table.filter(sessions::user_id.eq(bob_id)))
        .set((
            sessions::last_seen_at.eq(now - 2 * hour),
            sessions::expires_at.eq(now + 60_000),
        ))
        .execute(&mut **h.conn())
        .unwrap();
    alice
        .get("/api/me")
        .await
        .assert_error(401, "not_logged_in");
    assert_eq!(me(&mut bob).await, 200);
    let (seen, expires): (i64, i64) = sessions::table
        .filter(sessions::user_id.eq(bob_id))
        .select((sessions::last_seen_at, sessions::expires_at))
        .first(&mut **h.conn())
        .unwrap();
    assert!(seen >= now, "last seen moved to the request");
    assert!(
        expires >= now + 29 * 24 * hour,
        "the expiry slid to 30 days from the request"
    );
    // A login clears expired rows away.
    log_in(&h, "alice").await;
    let expired: i64 = sessions::table
        .filter(sessions::expires_at.le(now))
        .count()
        .get_result(&mut **h.conn())
        .unwrap();
    assert_eq!(expired, 0);
}

/// The database keeps the token's SHA-256, never the token: a reader of every table,
/// the cookie's key included, cannot make a cookie that logs in. (Before, the
/// key in `settings` sealed a cookie that carried the user id itself.)
async fn the_database_cannot_mint_a_cookie(db: TestDb) {
    let h = Harness::start(db);
    let mut alice = h.player("alice").await;
    let cookie = alice.cookie.clone().expect("a session cookie");
    let key: String = settings::table
        .filter(settings::key.eq("session_key"))
        .select(settings::value)
        .first(&mut **h.conn())
        .unwrap();
    let key = Key::from(&hex::decode(key).unwrap());
    let mut jar = CookieJar::new();
    // The Set-Cookie value is percent-encoded; actix-session encrypts the token with the
    // key (its "private" cookies), and the key is in the database.
    jar.add_original(Cookie::parse_encoded(cookie).unwrap());
    let token = jar
        .private(&key)
        .get("junqi_session")
        .expect("the cookie is sealed with the stored key")
        .value()
        .to_string();
    assert!(token.len() >= 32, "at least 128 random bits: {token}");

    let rows: Vec<(String, i64, Option<String>)> = sessions::table
        .select((
            sessions::token_hash,
            sessions::user_id,
            sessions::user_agent,
        ))
        .load(&mut **h.conn())
        .unwrap();
    assert_eq!(rows.len(), 1);
    let (hash, user, _) = &rows[0];
    assert_eq!(*hash, hex::encode(Sha256::digest(token.as_bytes())));
    assert!(!hash.contains(&token));

    // Everything a reader could try to seal: the hash, the user id, the old cookie's
    // state. None logs in.
    for value in [
        hash.clone(),
        user.to_string(),
        format!(r#"{{"uid":"{user}"}}"#),
    ] {
        let mut jar = CookieJar::new();
        jar.private_mut(&key)
            .add(Cookie::new("junqi_session", value.clone()));
        let forged = jar.get("junqi_session").unwrap().encoded().to_string();
        let mut mallory = h.client();
        mallory.cookie = Some(forged);
        assert_eq!(me(&mut mallory).await, 401, "sealed {value:?}");
    }
    assert_eq!(me(&mut alice).await, 200);
}
