//! What a stranger's sockets cannot do: pile up frames the server must keep (a socket
//! that never reads is closed, the others keep receiving), open sockets without limit
//! (caps per address, per player and on a game's spectators, `places`), keep a game's
//! players out of it, or send frames outside the budget (binary frames, pings, pongs
//! and fragments all count; an address's sockets share one, `budget`). On SQLite and
//! PostgreSQL.

#[macro_use]
mod support;
#[path = "socket_defences/budget.rs"]
mod budget;
#[path = "socket_defences/places.rs"]
mod places;
#[path = "socket_defences/raw.rs"]
mod raw;

use raw::{BINARY, CONTINUATION, Frame, Options, PING, PONG, Raw, Refused, TEXT};
use serde_json::Value;
use std::net::IpAddr;
use std::time::{Duration, Instant};
use support::{Harness, TestDb};

db_tests! {
    a_socket_that_never_reads_is_closed => a_socket_that_never_reads_is_closed_sqlite, a_socket_that_never_reads_is_closed_postgres;
    sockets_are_capped => sockets_are_capped_sqlite, sockets_are_capped_postgres;
    every_frame_counts => every_frame_counts_sqlite, every_frame_counts_postgres;
    behind_a_proxy_sockets_count_by_client => behind_a_proxy_sockets_count_by_client_sqlite, behind_a_proxy_sockets_count_by_client_postgres;
}

/// Each of these cycles sends every other socket of the game two `presence` frames.
const CYCLES: usize = 1200;

/// A spectator with a 4 KiB receive buffer that reads nothing while one player comes
/// and goes `CYCLES` times (2,400 frames of about 100 bytes). The server must not keep
/// what it cannot deliver, and the game must not wait for it: the spectator is cut off
/// (close 1013, reconnect with `?v=N`) long before the last frame, while a spectator
/// that reads gets every one.
async fn a_socket_that_never_reads_is_closed(db: TestDb) {
    let h = Harness::start(db);
    let mut a = h.player("comes_and_goes").await;
    let mut b = h.player("stays").await;
    let id = a.create_game(60, false).await;
    b.join(&id).await;
    let path = format!("/ws/game/{id}");
    let mut stays = b.game_socket(&id).await;
    stays.wait_state().await;
    let small = Options {
        receive_buffer: Some(4096),
        ..Options::default()
    };
    let mut laggard = Raw::connect(&h.server.addr, &path, small).expect("the upgrade");
    let mut watcher = h.client().game_socket(&id).await;
    watcher.wait_state().await;

    let started = Instant::now();
    for i in 0..CYCLES {
        let mut s = a.game_socket(&id).await;
        s.wait_state().await;
        s.close().await;
        for _ in 0..2 {
            watcher
                .wait_for(&format!("presence in cycle {i}"), |v| v["t"] == "presence")
                .await;
        }
    }
    let took = started.elapsed();
    watcher.send(serde_json::json!({"t": "ping"})).await;
    watcher.wait_for("a pong", |v| v["t"] == "pong").await;

    let (texts, end) = laggard.until_closed();
    let presence = texts
        .iter()
        .filter(|t| t.contains(r#""t":"presence""#))
        .count();
    eprintln!(
        "the laggard got {presence} of {} presence frames in {took:?}, then {end:?}",
        2 * CYCLES
    );
    // About 1,300 fit in the kernel's and actix's buffers and the socket's queue.
    assert!(
        presence < 2 * CYCLES - 500,
        "the laggard was cut off well before the end: {presence} frames, then {end:?}"
    );
    match end {
        Frame::Close(code, why) => {
            assert_eq!(code, Some(1013), "{why}");
            assert!(
                why.contains("?v="),
                "the reason says how to catch up: {why}"
            );
        }
        // The close frame waits at most 10 s for room; a slow run may see the end only.
        Frame::Eof => assert!(took > Duration::from_secs(8), "closed without a reason"),
        other => panic!("the laggard stayed open: {other:?}"),
    }
    let log = h.log();
    assert!(!log.contains("panicked"), "{log}");
}

fn refused(r: Result<Raw, Refused>, status: u16, code: &str) {
    match r {
        Ok(_) => panic!("socket {} admitted past its cap", code),
        Err(e) => {
            assert_eq!(e.status, status, "{e:?}");
            let v: Value = serde_json::from_str(&e.body).expect("a JSON error");
            assert_eq!(v["error"]["code"], code, "{e:?}");
            assert!(
                v["error"]["message"]
                    .as_str()
                    .is_some_and(|m| !m.is_empty())
            );
        }
    }
}

/// Connects, retrying for a while: a socket just closed gives its place back once the
/// server has seen it go.
fn admitted<'a>(addr: &str, path: &str, o: impl Fn() -> Options<'a>) -> Raw {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        match Raw::connect(addr, path, o()) {
            Ok(r) => return r,
            Err(e) if Instant::now() > deadline => panic!("{path} still refused: {e:?}"),
            Err(_) => std::thread::sleep(Duration::from_millis(50)),
        }
    }
}

fn from(ip: &str) -> Option<IpAddr> {
    Some(ip.parse().unwrap())
}

/// 20 sockets per player, 50 per address, 200 spectators per game (20 from one
/// address); the next one is refused with a JSON error (429, or 503 for the game), and
/// a socket that closes gives its place back.
async fn sockets_are_capped(db: TestDb) {
    let h = Harness::start(db);
    let addr = h.server.addr.clone();
    let mut p = h.player("many_tabs").await;
    let mut q = h.player("one_tab").await;
    let id = p.create_game(60, false).await;
    let other_game = q.create_game(60, false).await;
    let game = format!("/ws/game/{id}");
    let player = || Options {
        cookie: p.cookie.as_deref(),
        ..Options::default()
    };

    // One player, lobby and game sockets alike, from addresses of their own.
    let mut held: Vec<Raw> = (0..20)
        .map(|i| {
            let path = if i % 2 == 0 { "/ws/lobby" } else { &game };
            let o = Options {
                from: from(&format!("127.0.1.{i}")),
                ..player()
            };
            Raw::connect(&addr, path, o).expect("under the player's cap")
        })
        .collect();
    refused(
        Raw::connect(&addr, "/ws/lobby", player()),
        429,
        "too_many_sockets",
    );
    refused(
        Raw::connect(&addr, &game, player()),
        429,
        "too_many_sockets",
    );
    let other = Options {
        cookie: q.cookie.as_deref(),
        ..Options::default()
    };
    Raw::connect(&addr, "/ws/lobby", other).expect("another player is not held back");
    held.pop();
    held.push(admitted(&addr, "/ws/lobby", player));
    drop(held);

    // One address, anonymous.
    let here = || Options {
        from: from("127.0.0.2"),
        ..Options::default()
    };
    let mut held: Vec<Raw> = (0..50)
        .map(|_| Raw::connect(&addr, "/ws/lobby", here()).expect("under the address's cap"))
        .collect();
    refused(
        Raw::connect(&addr, "/ws/lobby", here()),
        429,
        "too_many_sockets",
    );
    refused(Raw::connect(&addr, &game, here()), 429, "too_many_sockets");
    let elsewhere = Options {
        from: from("127.0.0.3"),
        ..Options::default()
    };
    Raw::connect(&addr, "/ws/lobby", elsewhere).expect("another address is not held back");
    held.truncate(10);
    held.push(admitted(&addr, "/ws/lobby", here));
    drop(held);

    // One game, watched from ten addresses.
    let held: Vec<Raw> = (0..200)
        .map(|i| {
            let ip = format!("127.0.2.{}", i / 20);
            admitted(&addr, &game, || Options {
                from: from(&ip),
                ..Options::default()
            })
        })
        .collect();
    let late = || Options {
        from: from("127.0.2.30"),
        ..Options::default()
    };
    refused(Raw::connect(&addr, &game, late()), 503, "unavailable");
    Raw::connect(&addr, "/ws/lobby", late()).expect("the lobby is another matter");
    Raw::connect(&addr, &format!("/ws/game/{other_game}"), late()).expect("so is another game");
    drop(held);
    admitted(&addr, &game, late);
}

/// Reads the first frame (the state or the lobby list), sends `frames`, and returns
/// what came back up to the close. Each flood comes from an address of its own, so
/// that it meets its socket's budget, not the one its address's sockets share.
fn flood(addr: &str, path: &str, frames: &[(u8, bool, &[u8])]) -> (Vec<String>, usize, Frame) {
    static NEXT: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(1);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let o = Options {
        from: from(&format!("127.0.8.{n}")),
        ..Options::default()
    };
    let mut s = Raw::connect(addr, path, o).expect("the upgrade");
    assert!(matches!(s.next(), Frame::Text(_)), "the greeting");
    for &(opcode, fin, payload) in frames {
        if s.send(opcode, fin, payload).is_err() {
            break; // closed under us: what was read tells why
        }
    }
    s.set_timeout(Duration::from_secs(5));
    let mut texts = Vec::new();
    let mut pongs = 0;
    loop {
        match s.next() {
            Frame::Text(t) => texts.push(t),
            Frame::Other(PONG) => pongs += 1,
            Frame::Other(_) => {}
            end => return (texts, pongs, end),
        }
    }
}

fn closed_with(end: &Frame, code: u16, what: &str) {
    assert!(
        matches!(end, Frame::Close(Some(c), _) if *c == code),
        "{what}: expected close {code}, got {end:?}"
    );
}

/// Binary frames are refused with a close (the protocol is text); pings, pongs and the
/// pieces of a fragmented message each count against the budget of 100 frames in 20
/// seconds, on both sockets.
async fn every_frame_counts(db: TestDb) {
    let h = Harness::start(db);
    let addr = h.server.addr.clone();
    let mut p = h.player("flooder").await;
    let id = p.create_game(60, false).await;
    let game = format!("/ws/game/{id}");

    for path in [game.as_str(), "/ws/lobby"] {
        let (texts, _, end) = flood(&addr, path, &[(BINARY, true, b"\x00\x01")]);
        closed_with(&end, 1003, &format!("a binary frame on {path}"));
        if path == game {
            assert!(
                texts.iter().any(|t| t.contains("bad_message")),
                "an error says why: {texts:?}"
            );
        }

        let pings = vec![(PING, true, &b"hi"[..]); 150];
        let (texts, pongs, end) = flood(&addr, path, &pings);
        closed_with(&end, 1008, &format!("150 pings on {path}"));
        assert!(pongs <= 100, "{pongs} pongs");
        assert!(
            texts.iter().any(|t| t.contains("rate_limited")),
            "an error says why: {texts:?}"
        );

        let pongs = vec![(PONG, true, &b""[..]); 150];
        let (_, _, end) = flood(&addr, path, &pongs);
        closed_with(&end, 1008, &format!("150 pongs on {path}"));

        // One text message in 150 pieces, never finished.
        let mut pieces = vec![(TEXT, false, &b"{"[..])];
        pieces.extend(vec![(CONTINUATION, false, &b" "[..]); 149]);
        let (_, _, end) = flood(&addr, path, &pieces);
        closed_with(&end, 1008, &format!("150 fragments on {path}"));
    }

    // Within the budget, a fragmented message is read as one.
    let mut s = Raw::connect(&addr, &game, Options::default()).unwrap();
    assert!(matches!(s.next(), Frame::Text(_)));
    s.send(TEXT, false, br#"{"t":"pi"#).unwrap();
    s.send(CONTINUATION, true, br#"ng"}"#).unwrap();
    assert_eq!(s.next(), Frame::Text(r#"{"t":"pong"}"#.into()));
}

/// Behind a reverse proxy (`--trust-proxy`) every socket comes from the proxy's
/// address: the cap per address counts each client by the address the proxy adds to
/// `X-Forwarded-For`, as the login limits do, so that one client cannot take the
/// whole site's 50 and the 51st visitor is not refused for another's sockets.
async fn behind_a_proxy_sockets_count_by_client(db: TestDb) {
    let h = Harness::start_args(db, &["--trust-proxy"]);
    let addr = h.server.addr.clone();
    let proxy = from("127.0.0.4");
    let client = |ip: &'static str| {
        move || Options {
            from: proxy,
            forwarded_for: Some(ip),
            ..Options::default()
        }
    };
    let held: Vec<Raw> = (0..50)
        .map(|_| Raw::connect(&addr, "/ws/lobby", client("203.0.113.7")()).expect("under the cap"))
        .collect();
    refused(
        Raw::connect(&addr, "/ws/lobby", client("203.0.113.7")()),
        429,
        "too_many_sockets",
    );
    // The proxy's own address is not what counts: another client gets in through it.
    let other = Raw::connect(&addr, "/ws/lobby", client("198.51.100.9")())
        .expect("another client behind the same proxy");
    drop((held, other));
}
