//! Finding a game and finding the way back to one: the lobby's 观战 list of running
//! games with how many watch each, the spectator count on a game's own sockets, and the
//! "你有一局正在进行" banner every page shows a player with a running game. On SQLite
//! and PostgreSQL.

#[macro_use]
mod support;

use serde_json::Value;
use support::{Harness, Socket, TestDb};

db_tests! {
    spectators_are_counted_on_the_game_and_in_the_lobby => spectators_are_counted_sqlite, spectators_are_counted_postgres;
    live_games_are_listed_rated_first => live_games_are_listed_rated_first_sqlite, live_games_are_listed_rated_first_postgres;
    every_page_offers_the_way_back_to_a_running_game => every_page_offers_the_way_back_sqlite, every_page_offers_the_way_back_postgres;
}

/// The lobby frame's row for game `id`, if it lists it among the live games.
fn live_row<'a>(lobby: &'a Value, id: &str) -> Option<&'a Value> {
    lobby["d"]["live"]
        .as_array()?
        .iter()
        .find(|g| g["id"] == id)
}

async fn lobby_shows_watchers(lobby: &mut Socket, id: &str, n: u64) -> Value {
    lobby
        .wait_for(&format!("the lobby to list {id} with {n} watching"), |v| {
            v["t"] == "lobby" && live_row(v, id).is_some_and(|g| g["watchers"] == n)
        })
        .await
}

async fn game_shows_watchers(s: &mut Socket, n: u64) -> Value {
    s.wait_for(&format!("the game's sockets to hear {n} watching"), |v| {
        v["t"] == "presence" && v["d"]["watchers"] == n
    })
    .await
}

/// A rated game between two new players, started.
async fn started_game(h: &Harness, a: &str, b: &str, rated: bool) -> String {
    let mut a = h.player(a).await;
    let mut b = h.player(b).await;
    let id = a.create_game(30, rated).await;
    b.join(&id).await;
    id
}

/// Anyone's socket on a game that is not a player's counts as watching it: the players
/// hear the count (a change at most once a second), and the lobby lists it beside the
/// game. A player's own second socket does not count.
async fn spectators_are_counted_on_the_game_and_in_the_lobby(db: TestDb) {
    let h = Harness::start(db);
    let mut alice = h.player("alice").await;
    let mut bob = h.player("bob").await;
    let id = alice.create_game(30, true).await;
    bob.join(&id).await;
    let mut player = alice.game_socket(&id).await;
    let st = player.wait_state().await;
    assert_eq!(st["d"]["presence"]["watchers"], 0, "{st}");

    let mut lobby = Socket::connect(&h.base(), "/ws/lobby", None, None)
        .await
        .expect("the lobby socket opens");
    let row = lobby_shows_watchers(&mut lobby, &id, 0).await;
    let row = live_row(&row, &id).unwrap().clone();
    assert_eq!(row["rated"], true, "{row}");
    assert_eq!(row["variant"], "flip", "{row}");
    let names = [
        row["players"]["south"]["username"].as_str().unwrap(),
        row["players"]["north"]["username"].as_str().unwrap(),
    ];
    assert!(names.contains(&"alice") && names.contains(&"bob"), "{row}");
    assert!(
        row["players"]["south"]["rank"]["chinese"].is_string(),
        "{row}"
    );

    // A stranger without an account, and a logged-in one.
    let stranger = h.client();
    let mut anon = stranger.game_socket(&id).await;
    let st = anon.wait_state().await;
    assert!(st["d"]["you"].is_null(), "a spectator has no seat: {st}");
    game_shows_watchers(&mut player, 1).await;
    lobby_shows_watchers(&mut lobby, &id, 1).await;
    let carol = h.player("carol").await;
    let mut watcher = carol.game_socket(&id).await;
    watcher.wait_state().await;
    game_shows_watchers(&mut player, 2).await;
    lobby_shows_watchers(&mut lobby, &id, 2).await;

    // The player's second tab is no spectator; the count it is greeted with is the
    // one last told.
    let mut second = alice.game_socket(&id).await;
    let st = second.wait_state().await;
    assert_eq!(st["d"]["presence"]["watchers"], 2, "{st}");

    anon.close().await;
    game_shows_watchers(&mut player, 1).await;
    lobby_shows_watchers(&mut lobby, &id, 1).await;
    watcher.close().await;
    game_shows_watchers(&mut player, 0).await;
    lobby_shows_watchers(&mut lobby, &id, 0).await;
}

/// The list puts rated games before casual ones, and lists no open game.
async fn live_games_are_listed_rated_first(db: TestDb) {
    let h = Harness::start(db);
    let casual = started_game(&h, "cas_a", "cas_b", false).await;
    let rated = started_game(&h, "rat_a", "rat_b", true).await;
    let mut opener = h.player("opener").await;
    let open = opener.create_game(30, true).await;
    // One read of the running games serves the list for a moment
    // (`watch_list::FRESH_FOR`): ask until it has caught up.
    let deadline = std::time::Instant::now() + support::WAIT;
    let ids = loop {
        let r = h.client().get("/api/games/live").await;
        assert_eq!(r.status, 200, "{}", r.text);
        let ids: Vec<String> = (r.json.as_array().unwrap().iter())
            .map(|g| g["id"].as_str().unwrap().to_string())
            .collect();
        if ids.len() >= 2 || std::time::Instant::now() > deadline {
            break ids;
        }
        actix_web::rt::time::sleep(std::time::Duration::from_millis(100)).await;
    };
    assert_eq!(ids, [rated.clone(), casual], "rated first");
    assert!(!ids.contains(&open));
}

/// A player with a running game sees the way back on every page, and no longer once it
/// has ended; nobody else sees it.
async fn every_page_offers_the_way_back_to_a_running_game(db: TestDb) {
    let h = Harness::start_with_grace(db, 2);
    let mut alice = h.player("alice").await;
    let mut bob = h.player("bob").await;
    let carol = h.player("carol").await;
    let id = alice.create_game(30, true).await;
    for path in ["/", "/rules"] {
        let page = alice.get(path).await;
        assert!(
            !page.text.contains("back-banner"),
            "an open game is not running: {path}"
        );
    }
    bob.join(&id).await;
    let mut sa = alice.game_socket(&id).await;
    sa.wait_state().await;
    let sb = bob.game_socket(&id).await;
    let link = format!("id=\"back-to-game\" href=\"/game/{id}\"");
    for path in ["/", "/rules", "/ladder", "/games", "/@/alice"] {
        for who in [&mut alice, &mut bob] {
            let page = who.get(path).await;
            assert_eq!(page.status, 200, "{path}");
            assert!(
                page.text.contains(&link),
                "{path} shows the way back: {}",
                page.text
            );
            assert!(page.text.contains("你有一局正在进行"), "{path}");
        }
    }
    let mut carol = carol;
    let page = carol.get("/").await;
    assert!(!page.text.contains("back-banner"), "carol plays nothing");

    // Bob leaves for good: after the grace he loses by escape, and the game is over.
    sb.close().await;
    sa.wait_for("the game to end", |v| {
        v["t"] == "event" && !v["d"]["outcome"].is_null()
    })
    .await;
    for who in [&mut alice, &mut bob] {
        let page = who.get("/").await;
        assert!(!page.text.contains("back-banner"), "the game has ended");
    }
}
