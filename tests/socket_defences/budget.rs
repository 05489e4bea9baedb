//! The frame budget an address's sockets share: opening a fresh socket whenever one's
//! own budget runs low does not renew it, and the game's players are not held up.

use super::from;
use super::raw::{Frame, Options, Raw, TEXT};
use crate::support::policy::Rng;
use crate::support::{Harness, Table, TestDb};
use serde_json::Value;
use std::time::{Duration, Instant};

db_tests! {
    reconnecting_does_not_renew_an_address_s_budget => reconnecting_does_not_renew_an_address_s_budget_sqlite, reconnecting_does_not_renew_an_address_s_budget_postgres;
}

/// docs/protocol.md: one address's sockets together, 200 frames at once, then 10 a
/// second (an upgrade counts as one).
const ADDRESS_BURST: f64 = 200.0;
const ADDRESS_PER_SECOND: f64 = 10.0;
/// Rounds of reconnecting: 9,000 commands, far past the budget.
const ROUNDS: usize = 100;
/// Commands per socket, under a socket's own budget of 100.
const PER_SOCKET: usize = 90;

#[derive(Debug)]
struct Flood {
    /// Upgrades let in and commands the game answered.
    accepted: usize,
    took: Duration,
    /// How it ended: refused at an upgrade, or closed after an error.
    end: String,
}

/// Spectators from one address, one socket after another, each sending `PER_SOCKET`
/// commands (a spectator's `pass`: the game answers `not_a_player`) and opening the next.
fn flood_by_reconnecting(addr: &str, path: &str) -> Flood {
    let started = Instant::now();
    let mut accepted = 0;
    let o = || Options {
        from: from("127.0.7.1"),
        ..Options::default()
    };
    for _ in 0..ROUNDS {
        let mut s = match Raw::connect(addr, path, o()) {
            Ok(s) => s,
            Err(e) => {
                let v: Value = serde_json::from_str(&e.body).expect("a JSON error");
                assert_eq!(e.status, 429, "{e:?}");
                assert_eq!(v["error"]["code"], "rate_limited", "{e:?}");
                return Flood {
                    accepted,
                    took: started.elapsed(),
                    end: format!("refused: {}", e.body),
                };
            }
        };
        accepted += 1;
        assert!(matches!(s.next(), Frame::Text(_)), "the greeting");
        for i in 0..PER_SOCKET {
            let command = format!(r#"{{"t":"pass","a":{i}}}"#);
            if s.send(TEXT, true, command.as_bytes()).is_err() {
                break; // closed under us: what comes back says why
            }
        }
        let mut answered = 0;
        while answered < PER_SOCKET {
            match s.next() {
                Frame::Text(t) if t.contains("not_a_player") => answered += 1,
                Frame::Text(t) if t.contains("rate_limited") => {
                    let end = s.until_closed().1;
                    assert!(matches!(end, Frame::Close(Some(1008), _)), "{end:?}");
                    return Flood {
                        accepted: accepted + answered,
                        took: started.elapsed(),
                        end: t,
                    };
                }
                Frame::Text(_) | Frame::Other(_) => {}
                other => panic!("the spectator's socket ended with {other:?}"),
            }
        }
        accepted += answered;
    }
    Flood {
        accepted,
        took: started.elapsed(),
        end: "never refused".into(),
    }
}

/// Spectators from one address reconnect whenever their socket's budget runs low and
/// send commands into a running game. Past the address's budget they are refused with
/// `rate_limited` (an error and close 1008, or 429 at the upgrade), however often they
/// open a new socket; all the while the players' moves are acknowledged.
async fn reconnecting_does_not_renew_an_address_s_budget(db: TestDb) {
    let h = Harness::start(db);
    let a = h.player("mover").await;
    let b = h.player("answerer").await;
    let mut t = Table::open(&h, a, b, 60, false).await;
    let (addr, path) = (h.server.addr.clone(), format!("/ws/game/{}", t.id));
    let flood = std::thread::spawn(move || flood_by_reconnecting(&addr, &path));

    let mut rng = Rng::new(5);
    let mut acks = Vec::new();
    while !flood.is_finished() && acks.len() < 40 {
        let sent = Instant::now();
        t.harmless_steps(1, &mut rng).await;
        acks.push(sent.elapsed());
    }
    let flood = flood.join().expect("the flood's thread");
    acks.sort();
    eprintln!(
        "{flood:?}; {} moves acknowledged meanwhile, median {:?}, slowest {:?}",
        acks.len(),
        acks.get(acks.len() / 2),
        acks.last()
    );
    assert!(
        flood.end.contains("rate_limited"),
        "past the address's budget: {flood:?}"
    );
    let allowed = ADDRESS_BURST + ADDRESS_PER_SECOND * (flood.took.as_secs_f64() + 1.0);
    assert!(
        (flood.accepted as f64) <= allowed,
        "{} let in, at most {allowed:.0} in {:?}",
        flood.accepted,
        flood.took
    );
    // The game goes on.
    t.harmless_steps(2, &mut rng).await;
}
