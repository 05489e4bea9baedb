//! A game's players always get a socket on it, however many watch; spectators share
//! the places left, one address at most a share of them.

use super::raw::{Frame, Options, Raw};
use super::{admitted, from, refused};
use crate::support::policy::Rng;
use crate::support::{Harness, Seated, Socket, Table, TestDb};
use serde_json::json;

db_tests! {
    a_joiner_gets_in_to_a_game_full_of_spectators => a_joiner_gets_in_to_a_game_full_of_spectators_sqlite, a_joiner_gets_in_to_a_game_full_of_spectators_postgres;
    a_player_reloads_into_a_game_full_of_spectators => a_player_reloads_into_a_game_full_of_spectators_sqlite, a_player_reloads_into_a_game_full_of_spectators_postgres;
    one_address_takes_only_its_share_of_a_game => one_address_takes_only_its_share_of_a_game_sqlite, one_address_takes_only_its_share_of_a_game_postgres;
}

/// A game's spectator places (200, at most 20 from one address).
const SPECTATORS: usize = 200;
const SHARE: usize = 20;

/// Anonymous spectators on `path` from addresses 127.0.`block`.x, as many from each as
/// it lets in, until the game has no place left (503). Some addresses may be left
/// without a share; 20 are enough to fill the game however the share is set.
fn crowd(addr: &str, path: &str, block: u8) -> Vec<Raw> {
    let mut held = Vec::new();
    for host in 1..=20u8 {
        let o = || Options {
            from: from(&format!("127.0.{block}.{host}")),
            ..Options::default()
        };
        for _ in 0..SHARE {
            match Raw::connect(addr, path, o()) {
                Ok(s) => held.push(s),
                Err(e) if e.status == 503 => {
                    assert!(
                        held.len() >= SPECTATORS - 2,
                        "full at {}: {e:?}",
                        held.len()
                    );
                    return held;
                }
                Err(e) => panic!("spectator {} refused: {e:?}", held.len() + 1),
            }
        }
    }
    panic!("{} spectators and still room", held.len());
}

/// Waits on `socket` (the other player's) until it hears that both players are
/// connected, and checks that nobody is counting down to an escape.
async fn both_here(socket: &mut Socket) {
    let both = json!({"south": true, "north": true});
    let presence = socket
        .wait_for("both players connected", |v| {
            v["t"] == "presence" && v["d"]["connected"] == both
        })
        .await;
    assert_eq!(
        presence["d"]["escape_ms"],
        json!({"south": null, "north": null}),
        "{presence}"
    );
}

/// An open rated game is full of anonymous spectators (the creator waits on its page);
/// someone joins. The joiner's socket is a seat's and gets in: both are connected, no
/// one is losing by escape, and the game is played.
async fn a_joiner_gets_in_to_a_game_full_of_spectators(db: TestDb) {
    let h = Harness::start(db);
    let addr = h.server.addr.clone();
    let mut a = h.player("opener").await;
    let mut b = h.player("joiner").await;
    let id = a.create_game(60, true).await;
    let path = format!("/ws/game/{id}");
    let mut waiting = a.game_socket(&id).await;
    waiting.wait_state().await;
    let crowd = crowd(&addr, &path, 3);
    eprintln!("{} spectators", crowd.len());

    b.join(&id).await;
    let mut joined: Socket = b
        .try_socket(&path)
        .await
        .unwrap_or_else(|e| panic!("the joiner's socket is refused: {e}"));
    let state = joined.wait_state().await;
    assert_eq!(state["d"]["game"]["status"], "running", "{state}");
    assert!(
        state["d"]["you"].is_string(),
        "the joiner sees a seat's view"
    );
    both_here(&mut waiting).await;

    let mut t = Table::seat(&h, &id, a, b).await;
    t.harmless_steps(2, &mut Rng::new(1)).await;
    drop((waiting, joined, crowd));
}

/// A running game is full of spectators. A player reloads: their socket closes (the
/// other player hears them go), a spectator tries for the freed place and is refused,
/// and the player's new socket gets in.
async fn a_player_reloads_into_a_game_full_of_spectators(db: TestDb) {
    let h = Harness::start(db);
    let addr = h.server.addr.clone();
    let a = h.player("reloader").await;
    let b = h.player("stayer").await;
    let mut t = Table::open(&h, a, b, 60, false).await;
    let path = format!("/ws/game/{}", t.id);
    let crowd = crowd(&addr, &path, 3);

    let reloader = t.seat_of("reloader");
    let i = reloader.index();
    let Seated { client, socket } = t.seats.remove(i);
    socket.close().await;
    t.seats[0]
        .socket
        .wait_for("the reloader gone", |v| {
            v["t"] == "presence" && v["d"]["connected"][reloader.name()] == false
        })
        .await;
    let late = || Options {
        from: from("127.0.9.1"),
        ..Options::default()
    };
    refused(Raw::connect(&addr, &path, late()), 503, "unavailable");

    let socket = client
        .try_socket(&path)
        .await
        .unwrap_or_else(|e| panic!("the reloading player is refused: {e}"));
    t.seats.insert(i, Seated { client, socket });
    let state = t.socket(reloader).wait_state().await;
    assert_eq!(state["d"]["you"], reloader.name(), "{state}");
    both_here(t.socket(reloader.other())).await;
    t.harmless_steps(2, &mut Rng::new(2)).await;
    drop(crowd);
}

/// One address gets at most its share of a game's spectator places, logged in or not,
/// while others can still watch it and the address can still watch other games.
async fn one_address_takes_only_its_share_of_a_game(db: TestDb) {
    let h = Harness::start(db);
    let addr = h.server.addr.clone();
    let mut p = h.player("host").await;
    let q = h.player("watcher").await;
    let id = p.create_game(60, false).await;
    let other_game = p.create_game(60, false).await;
    let path = format!("/ws/game/{id}");
    let here = || Options {
        from: from("127.0.6.1"),
        ..Options::default()
    };
    let mut held: Vec<Raw> = (0..SHARE)
        .map(|_| Raw::connect(&addr, &path, here()).expect("within the address's share"))
        .collect();
    refused(Raw::connect(&addr, &path, here()), 429, "too_many_sockets");
    let logged_in = Options {
        cookie: q.cookie.as_deref(),
        ..here()
    };
    refused(
        Raw::connect(&addr, &path, logged_in),
        429,
        "too_many_sockets",
    );

    let elsewhere = Options {
        from: from("127.0.6.2"),
        ..Options::default()
    };
    let mut other = Raw::connect(&addr, &path, elsewhere).expect("another address watches");
    assert!(matches!(other.next(), Frame::Text(_)), "its greeting");
    Raw::connect(&addr, &format!("/ws/game/{other_game}"), here()).expect("another game");
    Raw::connect(&addr, "/ws/lobby", here()).expect("the lobby");
    held.pop();
    held.push(admitted(&addr, &path, here));
}
