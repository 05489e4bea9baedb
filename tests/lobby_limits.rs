//! What keeps one account from taking the lobby over, on SQLite and PostgreSQL: the
//! caps on open and rated games per player, quick pairing that finds its match among
//! thousands of open games, and the expiry of games whose creator has gone.

#[macro_use]
mod support;

use diesel::Connection;
use junqi::db::games::{self, GameRow};
use junqi::db::users;
use junqi::rules::Options;
use serde_json::{Value, json};
use support::{Client, Harness, Socket, TestDb};

db_tests! {
    open_games_are_capped_per_player => open_games_are_capped_per_player_sqlite, open_games_are_capped_per_player_postgres;
    rated_games_in_hand_are_capped => rated_games_in_hand_are_capped_sqlite, rated_games_in_hand_are_capped_postgres;
    quick_pairing_finds_its_match_among_thousands => quick_pairing_finds_its_match_among_thousands_sqlite, quick_pairing_finds_its_match_among_thousands_postgres;
    abandoned_games_are_not_paired_and_expire => abandoned_games_are_not_paired_and_expire_sqlite, abandoned_games_are_not_paired_and_expire_postgres;
    rated_rematches_count_against_the_cap => rated_rematches_count_against_the_cap_sqlite, rated_rematches_count_against_the_cap_postgres;
    the_lobby_cannot_be_flooded => the_lobby_cannot_be_flooded_sqlite, the_lobby_cannot_be_flooded_postgres;
}

fn spec(spa: u32, rated: bool) -> Value {
    json!({"variant": "flip", "seconds_per_action": spa, "rated": rated})
}

/// The same player on another connection (the cookie is the session).
fn again(h: &Harness, c: &Client) -> Client {
    let mut other = h.client();
    other.cookie = c.cookie.clone();
    other
}

fn user_id(h: &Harness, name: &str) -> i64 {
    users::by_name(&mut h.conn(), name)
        .expect("read the user")
        .expect("the user exists")
        .id
}

/// An open game as stored, created at `at`.
fn open_row(creator: i64, variant: &str, spa: u32, rated: bool, at: i64) -> GameRow {
    let options = Options {
        seconds_per_action: spa,
        ..Options::default()
    };
    GameRow::open(
        junqi::live::new_game_id(),
        variant,
        rated,
        spa as i32,
        serde_json::to_string(&options).unwrap(),
        creator,
        at,
    )
}

/// Stores an open game straight into the database.
fn seed_open(h: &Harness, creator: i64, variant: &str, spa: u32, rated: bool, at: i64) -> String {
    let row = open_row(creator, variant, spa, rated, at);
    games::insert(&mut h.conn(), &row).expect("insert an open game");
    row.id
}

fn ids(list: &Value) -> Vec<String> {
    list.as_array()
        .expect("a list of open games")
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_string())
        .collect()
}

async fn open_ids(h: &Harness) -> Vec<String> {
    let r = h.client().get("/api/games/open").await;
    assert_eq!(r.status, 200, "{}", r.text);
    ids(&r.json)
}

/// (2) At most five open games a player; the sixth is refused (409), also when asked
/// for all at once, and cancelling one makes room.
async fn open_games_are_capped_per_player(db: TestDb) {
    let h = Harness::start(db);
    let mut p = h.player("opener").await;
    let mut mine = Vec::new();
    for spa in [5, 10, 20, 30, 40] {
        mine.push(p.create_game(spa, false).await);
    }
    let r = p.post("/api/games", spec(50, false)).await;
    r.assert_error(409, "too_many_open_games");
    assert!(
        r.text.contains('5'),
        "the message gives the cap: {}",
        r.text
    );
    // Quick pairing that finds nothing would open a sixth: refused alike.
    p.post("/api/games/quick", spec(50, false))
        .await
        .assert_error(409, "too_many_open_games");
    let opener = user_id(&h, "opener");
    assert_eq!(games::open_count(&mut h.conn(), opener).unwrap(), 5);
    assert_eq!(open_ids(&h).await.len(), 2, "two of one creator are listed");
    let r = p
        .post_empty(&format!("/api/games/{}/cancel", mine[0]))
        .await;
    assert_eq!(r.status, 204, "{}", r.text);
    p.create_game(50, false).await;

    // Ten requests at once from one player: exactly five games open.
    let q = h.player("hasty").await;
    let mut clients: Vec<Client> = (0..10).map(|_| again(&h, &q)).collect();
    let answers = futures_util::future::join_all(
        clients
            .iter_mut()
            .map(|c| c.post("/api/games", spec(30, false))),
    )
    .await;
    let made = answers.iter().filter(|r| r.status == 201).count();
    assert_eq!(made, 5, "{answers:?}");
    for r in answers.iter().filter(|r| r.status != 201) {
        r.assert_error(409, "too_many_open_games");
    }
}

/// (9) At most three rated games in hand (running, or open and waiting): a fourth is
/// refused whether opened, joined or quick-paired; casual games are not limited.
async fn rated_games_in_hand_are_capped(db: TestDb) {
    let h = Harness::start(db);
    let mut r1 = h.player("farmer").await;
    let mut alt = h.player("alt").await;
    let mut mine = Vec::new();
    for spa in [15, 30, 60] {
        mine.push(r1.create_game(spa, true).await);
    }
    r1.post("/api/games", spec(30, true))
        .await
        .assert_error(409, "too_many_rated_games");
    r1.create_game(30, false).await;
    let theirs = alt.create_game(30, true).await;
    let r = r1.post_empty(&format!("/api/games/{theirs}/join")).await;
    r.assert_error(409, "too_many_rated_games");
    assert!(
        r.text.contains('3'),
        "the message gives the cap: {}",
        r.text
    );
    r1.post("/api/games/quick", spec(30, true))
        .await
        .assert_error(409, "too_many_rated_games");
    assert_eq!(
        alt.summary(&theirs).await["status"],
        "open",
        "nothing joined"
    );

    // Cancelling one makes room for one: joining turns the alt's open game into a
    // running one of both.
    let r = r1
        .post_empty(&format!("/api/games/{}/cancel", mine[0]))
        .await;
    assert_eq!(r.status, 204, "{}", r.text);
    r1.join(&theirs).await;
    let next = alt.create_game(30, true).await;
    r1.post_empty(&format!("/api/games/{next}/join"))
        .await
        .assert_error(409, "too_many_rated_games");
    // Casual games are never counted.
    let casual = alt.create_game(30, false).await;
    r1.join(&casual).await;
}

/// (2) Two identical quick-pair requests meet, however many other games are open: the
/// lookup is by settings, not a scan of the oldest games. The lobby lists the newest,
/// two of any one creator.
async fn quick_pairing_finds_its_match_among_thousands(db: TestDb) {
    let h = Harness::start(db);
    h.player("flooder").await;
    let flooder = user_id(&h, "flooder");
    let now = junqi::db::now_ms();
    // 2,000 open games of other settings, recent (not abandoned), in one transaction.
    let kinds = [
        ("flip", 15, true),
        ("flip", 60, true),
        ("flip", 30, false),
        ("standard", 30, true),
    ];
    h.conn()
        .transaction(|c| {
            for i in 0..2000 {
                let (variant, spa, rated) = kinds[i % kinds.len()];
                let row = open_row(flooder, variant, spa, rated, now - 60_000 + i as i64);
                games::insert(c, &row).map_err(|_| diesel::result::Error::RollbackTransaction)?;
            }
            Ok::<_, diesel::result::Error>(())
        })
        .expect("seed 2,000 open games");
    // Players made after the seeding: their connections have not idled through it.
    let mut x = h.player("first_asker").await;
    let mut y = h.player("second_asker").await;
    let mut z = h.player("newcomer").await;
    let r = x.post("/api/games/quick", spec(30, true)).await;
    assert_eq!(r.json["joined"], false, "{}", r.text);
    let opened = r.json["id"].as_str().unwrap().to_string();
    let r = y.post("/api/games/quick", spec(30, true)).await;
    assert_eq!(r.json, json!({"id": opened, "joined": true}), "{}", r.text);

    let fresh = z.create_game(45, false).await;
    let r = h.client().get("/api/games/open").await;
    let list = r.json.as_array().unwrap();
    assert_eq!(
        list.len(),
        3,
        "two of the flooder's games, and the newcomer's"
    );
    assert_eq!(list[0]["id"], json!(fresh), "the newest game comes first");
    assert!(
        list[1..]
            .iter()
            .all(|g| g["creator"]["username"] == "flooder")
    );
    let times: Vec<i64> = list
        .iter()
        .map(|g| g["created_at"].as_i64().unwrap())
        .collect();
    assert!(times.windows(2).all(|w| w[0] >= w[1]), "newest first");
    let mut lobby = Socket::connect(&h.base(), "/ws/lobby", None, None)
        .await
        .unwrap();
    // The socket's list is refreshed shortly after changes (at most one refresh per
    // gap while they keep coming), and comes to the same list.
    let want = ids(&r.json);
    lobby
        .wait_for("the lobby socket to show the API's list", |v| {
            v["t"] == "lobby" && ids(&v["d"]["open"]) == want
        })
        .await;
}

/// (2) An open game whose creator has had no lobby socket and no socket on the game for
/// the idle time is never paired into, leaves the lobby and is cancelled; a creator
/// who is here keeps theirs, and quick pairing prefers creators who are here.
async fn abandoned_games_are_not_paired_and_expire(db: TestDb) {
    let h = Harness::start_args(db, &["--open-game-idle-seconds", "2"]);
    let mut watcher = Socket::connect(&h.base(), "/ws/lobby", None, None)
        .await
        .unwrap();
    watcher.recv().await;
    let mut in_lobby = h.player("in_lobby").await;
    let mut on_game = h.player("on_game").await;
    let mut gone = h.player("gone").await;
    let mut x = h.player("pairer").await;
    let mut y = h.player("latecomer").await;
    h.player("old").await;
    // Nobody's absence is counted from before the server started, so the old game
    // below only counts as abandoned once the server has run for the idle time.
    actix_web::rt::time::sleep(std::time::Duration::from_millis(2_200)).await;
    // A game 25 minutes old whose creator left long ago.
    let ancient = seed_open(
        &h,
        user_id(&h, "old"),
        "flip",
        30,
        true,
        junqi::db::now_ms() - 25 * 60_000,
    );
    let lobby_socket = in_lobby.socket("/ws/lobby").await;
    let kept = in_lobby.create_game(30, true).await;
    let watched = on_game.create_game(30, true).await;
    let mut on_game_socket = on_game.game_socket(&watched).await;
    on_game_socket.wait_state().await;
    actix_web::rt::time::sleep(std::time::Duration::from_millis(5)).await;
    // The newest game, but its creator has no socket anywhere.
    let left = gone.create_game(30, true).await;
    let mut spectator = gone.game_socket(&left).await;
    spectator.wait_state().await;
    spectator.close().await;
    let mut spectator = h.client().game_socket(&left).await;
    spectator.wait_state().await;

    // Quick pairing prefers creators who are here, newest first, and never takes the
    // abandoned game.
    let r = x.post("/api/games/quick", spec(30, true)).await;
    assert_eq!(r.json, json!({"id": watched, "joined": true}), "{}", r.text);
    let listed = open_ids(&h).await;
    assert!(
        !listed.contains(&ancient),
        "abandoned: not listed {listed:?}"
    );

    // After the idle time: the absent creator's game is cancelled (its sockets are told)
    // and leaves the lobby; the one whose creator keeps a lobby socket stays.
    watcher
        .wait_for("the lobby to list only the kept game", |v| {
            v["t"] == "lobby" && ids(&v["d"]["open"]) == [kept.clone()]
        })
        .await;
    spectator
        .wait_for("the game's cancellation", |v| {
            v["t"] == "state" && v["d"]["game"]["status"] == "cancelled"
        })
        .await;
    for id in [&ancient, &left] {
        assert_eq!(h.row(id).status, "cancelled", "{id}");
    }
    let r = gone.post_empty(&format!("/api/games/{left}/join")).await;
    assert_eq!(r.status, 409, "{}", r.text);

    // Someone asking now gets the game of the creator who is here.
    let r = y.post("/api/games/quick", spec(30, true)).await;
    assert_eq!(r.json, json!({"id": kept, "joined": true}), "{}", r.text);
    // Once a creator's lobby socket closes, their open game goes too.
    let again = in_lobby.create_game(60, true).await;
    watcher
        .wait_for("the new game", |v| {
            v["t"] == "lobby" && ids(&v["d"]["open"]) == [again.clone()]
        })
        .await;
    lobby_socket.close().await;
    watcher
        .wait_for("an empty lobby", |v| {
            v["t"] == "lobby" && ids(&v["d"]["open"]).is_empty()
        })
        .await;
    assert_eq!(h.row(&again).status, "cancelled");
}

fn rated_in_hand(h: &Harness, name: &str) -> i64 {
    let user = user_id(h, name);
    games::rated_in_hand(&mut h.conn(), user).expect("count rated games")
}

/// (9b) A rematch of a rated game is a rated game in hand like any other: while either
/// player has three, asking is refused on the socket with `too_many_rated_games`
/// (worded for whose cap it is) and nothing changes; once there is room, it starts.
/// Before, a rematch was never counted, and a player with three rated games open got
/// a fourth in play.
async fn rated_rematches_count_against_the_cap(db: TestDb) {
    // `stays` keeps a socket on their game; `leaves` never opens one and loses it by
    // escape after the grace period (3 s here: the checks after the rematch starts,
    // while neither player is on the new game, come well within it).
    let h = Harness::start_with_grace(db, 3);
    let mut stays = h.player("stays").await;
    let mut leaves = h.player("leaves").await;
    let id = stays.create_game(30, true).await;
    let mut sa = stays.game_socket(&id).await;
    sa.wait_state().await;
    leaves.join(&id).await;
    sa.wait_for("the end by escape", |v| {
        v["t"] == "event" && v["d"]["kind"] == "escape"
    })
    .await;
    assert_eq!(leaves.summary(&id).await["status"], "finished");
    let mut mine = Vec::new();
    for spa in [15, 30, 60] {
        mine.push(stays.create_game(spa, true).await);
    }
    assert_eq!(rated_in_hand(&h, "stays"), 3);

    let mut sb = leaves.game_socket(&id).await;
    sb.wait_state().await;
    let m = sb
        .act_err("rematch", Value::Null, "too_many_rated_games")
        .await;
    assert!(m.contains("opponent") && m.contains('3'), "{m}");
    let m = sa
        .act_err("rematch", Value::Null, "too_many_rated_games")
        .await;
    assert!(m.starts_with("you already have 3"), "{m}");
    let st = h.client().game_socket(&id).await.wait_state().await;
    assert_eq!(
        st["d"]["rematch"],
        json!({"south": false, "north": false, "next": null}),
        "no offer recorded: {st}"
    );
    assert!(leaves.summary(&id).await["next_game"].is_null());
    assert_eq!(rated_in_hand(&h, "stays"), 3);

    // Room for one: the rematch starts, and is the third.
    let r = stays
        .post_empty(&format!("/api/games/{}/cancel", mine[0]))
        .await;
    assert_eq!(r.status, 204, "{}", r.text);
    sa.act("rematch", Value::Null).await.expect("an offer");
    sb.act("rematch", Value::Null).await.expect("agreed");
    let ev = sb.wait_event("rematch").await;
    let next = ev["d"]["next"].as_str().expect("the new game").to_string();
    assert_eq!(leaves.summary(&next).await["rated"], true);
    assert_eq!(rated_in_hand(&h, "stays"), 3);
    stays
        .post("/api/games", spec(30, true))
        .await
        .assert_error(409, "too_many_rated_games");
}

fn exec(h: &Harness, sql: &str) {
    use diesel::RunQueryDsl;
    let mut c = h.conn();
    diesel::sql_query(sql)
        .execute(&mut **c)
        .unwrap_or_else(|e| panic!("{sql}: {e}"));
}

/// (11) Nobody can fill the lobby. 21 new accounts, each with a lobby socket and five
/// open games, pushed an earlier player's game off the newest 100 (before); now the
/// lobby lists at most two games of anyone, so that game stays. And established
/// players (an account a week old, or with a finished rated game) come before new
/// accounts however many those open: 70 more with five games each, newer than all,
/// leave the veterans' games at the top.
async fn the_lobby_cannot_be_flooded(db: TestDb) {
    let h = Harness::start(db);
    let mut real = h.player("real_player").await;
    let _here = real.socket("/ws/lobby").await;
    let wanted = real.create_game(30, true).await;
    let mut flooders = Vec::new();
    for i in 0..21 {
        let mut f = h.player(&format!("flood_{i}")).await;
        let socket = f.socket("/ws/lobby").await;
        for spa in [10, 20, 30, 40, 50] {
            f.create_game(spa, false).await;
        }
        flooders.push((f, socket));
    }
    let listed = h.client().get("/api/games/open").await.json;
    let list = listed.as_array().unwrap();
    assert!(ids(&listed).contains(&wanted), "the real game is listed");
    assert_eq!(list.len(), 1 + 21 * 2, "two of each flooder's five");
    let mut watcher = Socket::connect(&h.base(), "/ws/lobby", None, None)
        .await
        .unwrap();
    let want = ids(&listed);
    watcher
        .wait_for("the lobby socket to show the same list", |v| {
            v["t"] == "lobby" && ids(&v["d"]["open"]) == want
        })
        .await;

    // Two established players: one whose account is eight days old, one who has
    // finished a rated game. Their games are older than every flooder's.
    let mut veteran = h.player("veteran").await;
    let mut ranked = h.player("ranked").await;
    let _sockets = (
        veteran.socket("/ws/lobby").await,
        ranked.socket("/ws/lobby").await,
    );
    let old = junqi::db::now_ms() - 8 * 24 * 3600 * 1000;
    exec(
        &h,
        &format!("UPDATE users SET created_at = {old} WHERE username = 'veteran'"),
    );
    let ranked_id = user_id(&h, "ranked");
    exec(
        &h,
        &format!(
            "UPDATE user_stats SET games = 1 WHERE user_id = {ranked_id} AND variant = 'flip'"
        ),
    );
    let veterans = [
        veteran.create_game(60, true).await,
        ranked.create_game(15, true).await,
    ];
    // 70 new accounts with five open games each, all newer: more than the lobby reads
    // of new accounts' games.
    let now = junqi::db::now_ms();
    h.conn()
        .transaction(|c| {
            for i in 0..70 {
                let u = users::create(c, &format!("mass_{i}"), "not-a-real-hash")
                    .map_err(|_| diesel::result::Error::RollbackTransaction)?
                    .expect("a free name");
                for j in 0..5 {
                    let row = open_row(u.id, "flip", 30, false, now + 1 + i * 5 + j);
                    games::insert(c, &row)
                        .map_err(|_| diesel::result::Error::RollbackTransaction)?;
                }
            }
            Ok::<_, diesel::result::Error>(())
        })
        .expect("seed 350 open games");
    let listed = h.client().get("/api/games/open").await.json;
    let list = ids(&listed);
    assert_eq!(list.len(), 100, "the lobby is bounded");
    assert_eq!(
        list[..2],
        [veterans[1].clone(), veterans[0].clone()],
        "established players first, newest first"
    );
    let mut per: std::collections::HashMap<String, usize> = Default::default();
    for g in listed.as_array().unwrap() {
        *per.entry(g["creator"]["username"].to_string()).or_default() += 1;
    }
    assert!(per.values().all(|&n| n <= 2), "{per:?}");
}
