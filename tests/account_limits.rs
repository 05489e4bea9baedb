//! What a stranger can do to accounts: a flood of wrong-password logins does not slow
//! health checks or game actions (hashing holds no database connection and runs on
//! slots of its own); failed logins are throttled by address and by account with
//! 429 and Retry-After, without locking the player out; registrations are limited per
//! address; the commonest passwords are refused; a browser that has logged in before
//! (its device cookie) gets in while strangers guess the account from everywhere. Every
//! test runs on SQLite and on PostgreSQL; the servers run with their limits on and
//! `--trust-proxy`, so that each client can come from an address of its own
//! (X-Forwarded-For), and `--frozen-rate-clock`, so that no limit refills while a test
//! runs, however slowly the machine answers: each count is exact.

#[macro_use]
mod support;

use serde_json::json;
use std::cell::Cell;
use std::rc::Rc;
use std::time::{Duration, Instant};
use support::policy::Rng;
use support::{Client, Harness, Table, TestDb};
use tokio::sync::Notify;

db_tests! {
    login_flood_leaves_games_and_health_checks_quick => login_flood_leaves_games_and_health_checks_quick_sqlite, login_flood_leaves_games_and_health_checks_quick_postgres;
    failed_logins_are_throttled_without_locking_the_player_out => failed_logins_are_throttled_without_locking_the_player_out_sqlite, failed_logins_are_throttled_without_locking_the_player_out_postgres;
    registrations_are_limited_per_address => registrations_are_limited_per_address_sqlite, registrations_are_limited_per_address_postgres;
    common_passwords_are_refused => common_passwords_are_refused_sqlite, common_passwords_are_refused_postgres;
    guessing_from_everywhere_leaves_the_owner_a_browser_they_used => guessing_from_everywhere_leaves_the_owner_a_browser_they_used_sqlite, guessing_from_everywhere_leaves_the_owner_a_browser_they_used_postgres;
    a_full_hashing_queue_leaves_the_owner_a_browser_they_used => a_full_hashing_queue_leaves_the_owner_a_browser_they_used_sqlite, a_full_hashing_queue_leaves_the_owner_a_browser_they_used_postgres;
}

const LIMITED: &[&str] = &["--trust-proxy", "--frozen-rate-clock"];

fn from(h: &Harness, ip: &str) -> Client {
    let mut c = h.client();
    c.forwarded_for = Some(ip.to_string());
    c
}

async fn register(h: &Harness, ip: &str, name: &str) -> Client {
    let mut c = from(h, ip);
    let r = c
        .post(
            "/api/register",
            json!({"username": name, "password": "correct horse"}),
        )
        .await;
    assert_eq!(r.status, 201, "register {name}: {}", r.text);
    c.name = name.to_string();
    c
}

async fn login(c: &mut Client, name: &str, password: &str) -> support::Resp {
    c.post(
        "/api/login",
        json!({"username": name, "password": password}),
    )
    .await
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// `loops` clients log in to names nobody has with a wrong password, each try from an
/// address of its own (so no limit stops them; the server still hashes, against a
/// dummy), until `stop`; `seen` gets every answer. A refused try is sent again 20 ms
/// later: a flood that keeps the queue full, not one that spins on the refusals.
fn ghost_logins(
    h: &Harness,
    loops: u32,
    stop: &Rc<Cell<bool>>,
    seen: impl Fn(&support::Resp) + Clone + 'static,
) -> Vec<actix_web::rt::task::JoinHandle<()>> {
    (0..loops)
        .map(|f| {
            let (stop, seen, base) = (stop.clone(), seen.clone(), h.base());
            actix_web::rt::spawn(async move {
                let mut i = 0u32;
                while !stop.get() {
                    let mut c = Client::new(&base);
                    c.forwarded_for = Some(format!("10.{}.{}.{}", 100 + f, i / 250, i % 250 + 1));
                    let r = login(&mut c, &format!("ghost{f}x{i}"), "wrong password").await;
                    i += 1;
                    seen(&r);
                    if r.status == 429 {
                        actix_web::rt::time::sleep(Duration::from_millis(20)).await;
                    }
                }
            })
        })
        .collect()
}

/// Times `n` health checks and `n` acknowledged game actions.
async fn probe(h: &Harness, table: &mut Table, rng: &mut Rng, n: usize) -> (Duration, Duration) {
    let mut health = Vec::new();
    let mut acks = Vec::new();
    let mut c = h.client();
    for _ in 0..n {
        let t = Instant::now();
        assert_eq!(c.get("/healthz").await.status, 200);
        health.push(t.elapsed());
        let t = Instant::now();
        table.harmless_steps(1, rng).await;
        acks.push(t.elapsed());
    }
    (median(health), median(acks))
}

/// With one database connection and 32 clients, each from addresses of its own (so no
/// limit stops them), sending wrong-password logins without pause, health checks and
/// move acks stay within a few times what they take on an idle server. Before, each
/// login hashed (~16 ms) holding the connection and a place in its queue, and every
/// health check and ack waited behind the logins: hundreds of milliseconds here.
async fn login_flood_leaves_games_and_health_checks_quick(db: TestDb) {
    let h = Harness::start_with_flags(db, &["--trust-proxy", "--db-connections", "1"]);
    let a = register(&h, "10.1.0.1", "alice").await;
    let b = register(&h, "10.1.0.2", "bobby").await;
    let mut table = Table::open(&h, a, b, 60, false).await;
    let mut rng = Rng::new(7);
    table.harmless_steps(2, &mut rng).await;
    let (health_idle, ack_idle) = probe(&h, &mut table, &mut rng, 9).await;

    let stop = Rc::new(Cell::new(false));
    let sent = Rc::new(Cell::new(0u32));
    let counted = sent.clone();
    let flooders = ghost_logins(&h, 32, &stop, move |r| {
        assert_eq!(r.status, 401, "{}", r.text);
        counted.set(counted.get() + 1);
    });
    actix_web::rt::time::sleep(Duration::from_millis(500)).await;
    let (health_flood, ack_flood) = probe(&h, &mut table, &mut rng, 9).await;
    stop.set(true);
    for f in flooders {
        f.await.unwrap();
    }
    eprintln!(
        "idle: health {health_idle:?}, ack {ack_idle:?}; under {} logins: health \
         {health_flood:?}, ack {ack_flood:?}",
        sent.get()
    );
    assert!(sent.get() >= 32, "the flood ran");
    // Generous: the hashing slot still takes a core of this machine's two.
    let bound = |idle: Duration| idle * 5 + Duration::from_millis(60);
    assert!(
        health_flood <= bound(health_idle),
        "health checks slowed from {health_idle:?} to {health_flood:?}"
    );
    assert!(
        ack_flood <= bound(ack_idle),
        "acks slowed from {ack_idle:?} to {ack_flood:?}"
    );
}

async fn failed_logins_are_throttled_without_locking_the_player_out(db: TestDb) {
    let h = Harness::start_with_flags(db, LIMITED);
    register(&h, "10.0.0.1", "alice").await;
    let mut mallory = from(&h, "10.6.6.6");
    // The first few guesses are answered; then the address waits for this account.
    for _ in 0..5 {
        login(&mut mallory, "alice", "wrong password")
            .await
            .assert_error(401, "bad_credentials");
    }
    for password in ["wrong password", "correct horse"] {
        let r = login(&mut mallory, "ALICE", password).await;
        r.assert_error(429, "rate_limited");
        assert_eq!(r.retry_after.as_deref(), Some("20"), "one more in 20 s");
    }
    // 20 s later, one more guess; then the address waits again.
    support::advance_rate_clock(&h.base(), Duration::from_secs(20)).await;
    login(&mut mallory, "alice", "wrong password")
        .await
        .assert_error(401, "bad_credentials");
    login(&mut mallory, "alice", "wrong password")
        .await
        .assert_error(429, "rate_limited");
    // Alice, from anywhere else, is not locked out.
    let mut phone = from(&h, "10.0.0.2");
    assert_eq!(
        login(&mut phone, "alice", "correct horse").await.status,
        200
    );
    assert_eq!(phone.get("/api/me").await.status, 200);

    // One address trying many accounts (names no one has, each hashed against a
    // dummy) meets the address's own limit.
    let mut sprayer = from(&h, "10.7.7.7");
    let mut refused_at = None;
    for i in 0..40 {
        let r = login(&mut sprayer, &format!("nobody{i}"), "wrong password").await;
        if r.status == 429 {
            refused_at = Some(i);
            assert!(r.retry_after.is_some());
            break;
        }
        r.assert_error(401, "bad_credentials");
    }
    assert_eq!(refused_at, Some(30), "30 at once from one address");
    // The address is limited, not the accounts: alice still logs in elsewhere.
    let mut laptop = from(&h, "10.0.0.3");
    assert_eq!(
        login(&mut laptop, "alice", "correct horse").await.status,
        200
    );
}

/// Three registrations at once from one address, then 5 an hour; another address is
/// not affected. Without `--trust-proxy` the header is ignored: a client cannot pick
/// its address.
async fn registrations_are_limited_per_address(db: TestDb) {
    let h = Harness::start_with_flags(db, LIMITED);
    for i in 0..3 {
        register(&h, "10.2.0.1", &format!("farm{i}")).await;
    }
    let farm3 = json!({"username": "farm3", "password": "correct horse"});
    let r = from(&h, "10.2.0.1")
        .post("/api/register", farm3.clone())
        .await;
    r.assert_error(429, "rate_limited");
    assert_eq!(r.retry_after.as_deref(), Some("720"), "five an hour");
    // Twelve minutes on, one more.
    support::advance_rate_clock(&h.base(), Duration::from_secs(719)).await;
    let r = from(&h, "10.2.0.1")
        .post("/api/register", farm3.clone())
        .await;
    assert_eq!(r.retry_after.as_deref(), Some("1"), "{}", r.text);
    support::advance_rate_clock(&h.base(), Duration::from_secs(1)).await;
    register(&h, "10.2.0.1", "farm3").await;
    register(&h, "10.2.0.2", "farm4").await;

    drop(h.server);
    let server = support::Server::start_with_flags(&h.db.url, &["--frozen-rate-clock"]);
    for i in 0..4 {
        let mut c = Client::new(&server.base());
        c.forwarded_for = Some(format!("10.3.0.{i}"));
        let r = c
            .post(
                "/api/register",
                json!({"username": format!("sybil{i}"), "password": "correct horse"}),
            )
            .await;
        if i < 3 {
            assert_eq!(r.status, 201, "{}", r.text);
        } else {
            r.assert_error(429, "rate_limited");
        }
    }
}

async fn common_passwords_are_refused(db: TestDb) {
    let h = Harness::start_with_flags(db, &["--no-rate-limits"]);
    let mut c = h.client();
    for password in [
        "password",
        "12345678",
        "Password1",
        "QWERTYUIOP",
        "iloveyou",
        "woaini1314",
        "carol_01",
    ] {
        c.post(
            "/api/register",
            json!({"username": "carol_01", "password": password}),
        )
        .await
        .assert_error(400, "invalid_password");
    }
    let r = c
        .post(
            "/api/register",
            json!({"username": "carol_01", "password": "ten green bottles"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
}

/// Logs in `c` with the right password, expecting `status`.
async fn owner_logs_in(c: &mut Client, status: u16) -> support::Resp {
    let r = login(c, "alice", "correct horse").await;
    assert_eq!(r.status, status, "{}", r.text);
    r
}

/// Guessing one account from many addresses uses up the account's shared ceiling (60
/// at once), which once locked the owner out too: with 25 addresses the owner got in 6
/// times of 30, with a fresh address per guess never. A browser that has logged in to
/// the account before carries a signed device cookie, and its attempts count on that
/// device's own allowance: the owner gets in from it, from home or from elsewhere,
/// every time, while every other attempt waits. A device cookie that keeps failing is
/// held back in its turn; a forged one, or one for another account, counts for nothing.
async fn guessing_from_everywhere_leaves_the_owner_a_browser_they_used(db: TestDb) {
    let h = Harness::start_with_flags(db, LIMITED);
    register(&h, "10.0.0.1", "alice").await;
    let mut mallory = register(&h, "10.6.0.1", "mallory").await;
    // The owner's laptop has logged in before, and keeps the device cookie it got.
    let mut laptop = from(&h, "10.0.0.1");
    owner_logs_in(&mut laptop, 200).await;
    assert!(laptop.device.is_some(), "a login leaves a device cookie");

    // 25 addresses guess, five each (each address's own allowance for the account).
    let mut answered = 0;
    for a in 0..25 {
        let mut guesser = from(&h, &format!("10.66.0.{}", a + 1));
        for _ in 0..5 {
            let r = login(&mut guesser, "alice", "wrong password").await;
            match r.status {
                401 => answered += 1,
                429 => assert_eq!(r.retry_after.as_deref(), Some("1"), "{}", r.text),
                _ => panic!("{}", r.text),
            }
        }
        if a % 5 == 4 {
            owner_logs_in(&mut laptop, 200).await;
        }
    }
    // The ceiling was the account's 60, less the owner's own first login.
    assert_eq!(answered, 59, "the account's ceiling held the guessers");
    // Then a fresh address per guess: all of them wait.
    for g in 0..20 {
        let mut guesser = from(&h, &format!("10.67.{}.1", g + 1));
        login(&mut guesser, "alice", "wrong password")
            .await
            .assert_error(429, "rate_limited");
        owner_logs_in(&mut laptop, 200).await;
    }

    // The same browser on another network (a phone's carrier) is still trusted.
    let mut away = from(&h, "10.99.0.1");
    away.device = laptop.device.clone();
    owner_logs_in(&mut away, 200).await;
    // A browser that never logged in here waits with the guessers, even with the
    // right password; so do a forged cookie and one for another account.
    let mut new_browser = from(&h, "10.0.0.1");
    owner_logs_in(&mut new_browser, 429).await;
    let mut forged = from(&h, "10.0.0.1");
    let value = laptop.device.clone().unwrap();
    forged.device = Some(value.replacen("alice.", "alice.f", 1));
    owner_logs_in(&mut forged, 429).await;
    let mut borrowed = from(&h, "10.0.0.1");
    login(&mut mallory, "mallory", "correct horse").await;
    borrowed.device = mallory.device.clone();
    owner_logs_in(&mut borrowed, 429).await;

    // A device cookie that keeps failing is held back: 5 attempts, then one every 20 s.
    let mut stolen = from(&h, "10.5.5.5");
    stolen.device = away.device.clone();
    for _ in 0..5 {
        login(&mut stolen, "alice", "wrong password")
            .await
            .assert_error(401, "bad_credentials");
    }
    let r = owner_logs_in(&mut stolen, 429).await;
    assert_eq!(r.retry_after.as_deref(), Some("20"));
    support::advance_rate_clock(&h.base(), Duration::from_secs(20)).await;
    owner_logs_in(&mut stolen, 200).await;
}

/// Strangers who try names nobody has, each from a fresh address, pass every limit by
/// address and by account, and keep the logins waiting for a hashing slot at the cap:
/// the owner's login was turned away with theirs (429, Retry-After: 1), from outside 0
/// times in 20 through. A browser that has logged in before waits in a room of its
/// own, and gets in every time while the strangers are still being turned away.
async fn a_full_hashing_queue_leaves_the_owner_a_browser_they_used(db: TestDb) {
    let h = Harness::start_with_flags(db, LIMITED);
    register(&h, "10.0.0.1", "alice").await;
    let mut laptop = from(&h, "10.0.0.1");
    owner_logs_in(&mut laptop, 200).await;

    let stop = Rc::new(Cell::new(false));
    let refused = Rc::new(Cell::new(0u32));
    let room_full = Rc::new(Notify::new());
    let (counted, full) = (refused.clone(), room_full.clone());
    let flooders = ghost_logins(&h, 128, &stop, move |r| match r.status {
        401 => {}
        429 => {
            assert_eq!(r.retry_after.as_deref(), Some("1"), "{}", r.text);
            counted.set(counted.get() + 1);
            full.notify_one();
        }
        _ => panic!("{}", r.text),
    });
    // The room is full once strangers are turned away for want of a place in it.
    room_full.notified().await;
    // A device's own allowance is 5 at once (the clock stands still).
    for _ in 0..5 {
        let before = refused.get();
        owner_logs_in(&mut laptop, 200).await;
        assert!(
            refused.get() > before,
            "strangers were still turned away while the owner waited"
        );
    }
    stop.set(true);
    for f in flooders {
        f.await.unwrap();
    }
}
