//! Outside bots play whole games with nothing but their API tokens and the documented
//! protocol (the example client in tests/bot_client/client.rs). Two bot accounts play
//! each other, and one plays the site's computer; the client does not care who sits
//! opposite.

#[macro_use]
mod support;
#[path = "bot_client/client.rs"]
mod client;

use client::BotClient;
use serde_json::{Value, json};
use support::{Harness, TestDb, check_against_rules};

db_tests! {
    two_bots_play_a_rated_flip_game => two_bots_play_a_rated_flip_game_sqlite, two_bots_play_a_rated_flip_game_postgres;
    two_bots_play_a_standard_game => two_bots_play_a_standard_game_sqlite, two_bots_play_a_standard_game_postgres;
    a_bot_plays_the_computer => a_bot_plays_the_computer_sqlite, a_bot_plays_the_computer_postgres;
}

/// (1) Two bots, each knowing only its token, play a rated flip game to its end over
/// their sockets, one of them dropping its socket now and then and catching up with
/// `?v=N`. Both see the same end; what each drew from the messages alone is the
/// board of a fresh state; the record replays to the summary's result; the game is
/// scored as any rated game; and the bots carry their badge on the pages.
async fn two_bots_play_a_rated_flip_game(db: TestDb) {
    let h = Harness::start(db);
    let red = h.bot("robot_red").await;
    let blue = h.bot("robot_blue").await;
    let mut a = BotClient::new(&h.base(), &red.token, 7);
    let mut b = BotClient::new(&h.base(), &blue.token, 11);
    b.drop_every = Some(7);
    let me = a.me().await.expect("the token logs the bot in");
    assert_eq!(me["username"], "robot_red");
    assert_eq!(me["kind"], "bot");

    let id = a.open_game("flip", 15, true).await;
    b.join(&id)
        .await
        .expect("a bot joins another bot's rated game");
    let (fa, fb) = futures_util::join!(a.play(&id), b.play(&id));

    assert_ne!(fa.seat, fb.seat, "{} and {}", fa.seat, fb.seat);
    assert_eq!(fa.version, fb.version, "both saw the game to the same end");
    assert_eq!(fa.result, fb.result);
    assert!(fb.reconnects > 0, "the dropping bot reconnected");

    let mut anyone = h.client();
    let summary = anyone.summary(&id).await;
    assert_eq!(summary["status"], "finished", "{summary}");
    assert_eq!(summary["steps"], fa.version, "{summary}");
    check_against_rules(&summary, &anyone.record(&id).await);
    for seat in ["south", "north"] {
        assert_eq!(summary["players"][seat]["kind"], "bot", "{summary}");
    }

    // Nothing a bot received names a face-down piece.
    for finished in [&fa, &fb] {
        assert!(finished.received.len() as u64 > fa.version);
        finished.received.iter().for_each(face_down_stays_hidden);
    }

    // What each bot drew is what a fresh state shows that seat.
    for (bot, finished) in [(&red, &fa), (&blue, &fb)] {
        let mut s = bot.client.game_socket(&id).await;
        let st = s.wait_state().await;
        assert_eq!(st["d"]["you"], finished.seat.as_str());
        assert_eq!(
            Value::Object(finished.board.clone()),
            st["d"]["view"]["board"],
            "{} drew the board from the messages",
            finished.seat
        );
    }

    // Scored as usual: each bot's rating moved by its seat's score.
    for (name, finished) in [("robot_red", &fa), ("robot_blue", &fb)] {
        let p = anyone.player(name).await;
        assert_eq!(p["games"], 1, "{p}");
        assert_eq!(p["kind"], "bot");
        assert_eq!(p["score"], summary["score"][finished.seat.as_str()], "{p}");
    }

    // The badge beside their names on the history and the ladder.
    for page in ["/games", "/ladder", "/@/robot_red"] {
        let r = anyone.get(page).await;
        assert_eq!(r.status, 200, "{page}");
        assert!(
            r.text.contains("kind-badge kind-bot") && r.text.contains("机器人"),
            "{page} shows the bot badge"
        );
    }

    // A rated bot stays a bot: its rating was earned among bots.
    let mut owner = red.owner;
    owner
        .post("/api/bot/kind", json!({"kind": "person"}))
        .await
        .assert_error(409, "conflict");
}

/// (2) Standard 军棋: the same client deploys (a random layout, then ready) and plays
/// casual to the end.
async fn two_bots_play_a_standard_game(db: TestDb) {
    let h = Harness::start(db);
    let red = h.bot("deploy_red").await;
    let blue = h.bot("deploy_blue").await;
    let mut a = BotClient::new(&h.base(), &red.token, 5);
    let mut b = BotClient::new(&h.base(), &blue.token, 9);
    let id = a.open_game("standard", 30, false).await;
    b.join(&id).await.expect("join");
    let (fa, fb) = futures_util::join!(a.play(&id), b.play(&id));
    assert_eq!(fa.version, fb.version);
    assert_eq!(fa.result, fb.result);
    let summary = h.client().summary(&id).await;
    assert_eq!(summary["status"], "finished", "{summary}");
    assert!(fa.version > 1, "the game was played after its deployment");
}

/// (3) The same client, knowing only its token, plays a whole flip game against the
/// site's computer: the computer answers every turn over the same protocol, nothing the
/// bot receives names a face-down piece, and the game is casual with the computer
/// shown as such.
async fn a_bot_plays_the_computer(db: TestDb) {
    let h = Harness::start(db);
    let bot = h.bot("robot_solo").await;
    let mut a = BotClient::new(&h.base(), &bot.token, 13);
    let id = a.challenge_computer("flip", 15, "easy").await;
    let finished = a.play(&id).await;
    finished.received.iter().for_each(face_down_stays_hidden);
    let summary = h.client().summary(&id).await;
    assert_eq!(summary["status"], "finished", "{summary}");
    assert_eq!(summary["rated"], false, "{summary}");
    assert!(finished.version > 2, "both sides played: {summary}");
    let other = if finished.seat.as_str() == "south" {
        "north"
    } else {
        "south"
    };
    assert_eq!(summary["players"][other]["kind"], "computer", "{summary}");
    assert_eq!(
        summary["players"][other]["username"], "computer-easy",
        "{summary}"
    );
    assert_eq!(
        summary["players"][finished.seat.as_str()]["kind"],
        "bot",
        "{summary}"
    );
}

/// Every cell of a face-down flip-chess piece is `{"face":"down"}` and nothing more.
fn face_down_stays_hidden(v: &Value) {
    match v {
        Value::Object(m) => {
            if m.get("face").and_then(Value::as_str) == Some("down") {
                assert!(
                    !m.contains_key("piece") && !m.contains_key("colour"),
                    "a face-down cell says what it is: {v}"
                );
            }
            m.values().for_each(face_down_stays_hidden);
        }
        Value::Array(a) => a.iter().for_each(face_down_stays_hidden),
        _ => {}
    }
}
