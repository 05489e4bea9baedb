//! Playing the computer over the real socket, on SQLite and PostgreSQL: a flip game
//! against each level to the end, a standard game with the computer's own layout and
//! nothing of its hidden pieces shown, draw offers answered as the engine weighs them,
//! rematches accepted, the computer's clock never running out, a restart mid-game, and
//! the API's refusals (rated, past the cap, logging in as the computer).

#[macro_use]
mod support;

use junqi::engine::{self, Decision, Information, Level};
use junqi::rules::view::{View, Viewer};
use junqi::rules::{Action, Game, Piece, Seat};
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde_json::{Value, json};
use std::io::Write;
use std::process::Command;
use support::computer::{VsComputer, create, stored_layouts};
use support::hidden::assert_hidden;
use support::policy::{self, Rng};
use support::{Client, Harness, TestDb, check_against_rules};

db_tests! {
    flip_against_each_level => flip_against_each_level_sqlite, flip_against_each_level_postgres;
    standard_against_the_computer => standard_against_the_computer_sqlite, standard_against_the_computer_postgres;
    draw_offers_answered_and_rematch_accepted => draw_offers_answered_and_rematch_accepted_sqlite, draw_offers_answered_and_rematch_accepted_postgres;
    never_times_out_under_a_short_clock => never_times_out_under_a_short_clock_sqlite, never_times_out_under_a_short_clock_postgres;
    restart_mid_game_resumes => restart_mid_game_resumes_sqlite, restart_mid_game_resumes_postgres;
    casual_only_and_capped => casual_only_and_capped_sqlite, casual_only_and_capped_postgres;
    rematches_count_against_the_cap => rematches_count_against_the_cap_sqlite, rematches_count_against_the_cap_postgres;
    answers_only_after_the_persons_move_was_seen => answers_only_after_the_persons_move_was_seen_sqlite, answers_only_after_the_persons_move_was_seen_postgres;
}

/// The person's play: the goal-directed attacker of the other live tests (it may pass
/// in standard 军棋 when nothing moves).
fn person(rng: &mut Rng) -> impl FnMut(&Game) -> Action + '_ {
    move |g: &Game| {
        if policy::legal(g).is_empty() {
            Action::Pass
        } else {
            policy::attacker(g, rng)
        }
    }
}

fn colour_of(seat: Seat) -> &'static str {
    match seat {
        Seat::South => "red",
        Seat::North => "blue",
    }
}

/// Creates a game against the computer and returns its id, checking the answer.
async fn start(client: &mut Client, variant: &str, spa: u32, level: &str) -> String {
    let r = create(client, variant, spa, level).await;
    assert_eq!(r.status, 201, "create against {level}: {}", r.text);
    let id = r.json["id"].as_str().expect("an id").to_string();
    let summary = client.summary(&id).await;
    assert_eq!(summary["status"], "running", "started at once: {summary}");
    assert_eq!(summary["rated"], false, "{summary}");
    id
}

/// A standard game against the computer, deployed: the person keeps the layout it was
/// given and gets ready; play begins. Returns the table and what the person's socket
/// received during the deployment.
async fn deployed(
    h: &Harness,
    mut client: Client,
    level: &str,
    spa: u32,
) -> (VsComputer, Vec<Value>) {
    let id = start(&mut client, "standard", spa, level).await;
    let mut s = client.game_socket(&id).await;
    let st = s.wait_state().await;
    assert!(st["d"]["view"].is_null(), "deploying: {st}");
    assert!(st["d"]["deploy"].is_object(), "deploying: {st}");
    s.act("ready", Value::Null)
        .await
        .unwrap_or_else(|e| panic!("ready refused: {e}"));
    s.wait_for("the start of play", |v| v["t"] == "state" && v["v"] == 1)
        .await;
    let received = s.received.clone();
    s.close().await;
    (VsComputer::seat(h, client, &id).await, received)
}

/// The finished game by the rules: summary, record, replay and `junqi verify`.
async fn check_finished(t: &mut VsComputer) -> Value {
    let id = t.id.clone();
    let summary = t.client.summary(&id).await;
    assert_eq!(summary["status"], "finished", "{summary}");
    let record = t.client.record(&id).await;
    assert_eq!(record["verified"], true, "{record}");
    let verdict = check_against_rules(&summary, &record);
    assert_eq!(
        verdict.game.outcome(),
        t.game.outcome(),
        "the mirror agrees"
    );
    let replay = t.client.get(&format!("/api/games/{id}/replay")).await;
    assert_eq!(replay.status, 200, "{}", replay.text);
    let path = std::env::temp_dir().join(format!("junqi_computer_{id}.json"));
    std::fs::File::create(&path)
        .and_then(|mut f| f.write_all(record.to_string().as_bytes()))
        .expect("write the record");
    let out = Command::new(env!("CARGO_BIN_EXE_junqi"))
        .arg("verify")
        .arg(&path)
        .output()
        .expect("run junqi verify");
    let _ = std::fs::remove_file(&path);
    assert!(
        out.status.success(),
        "junqi verify: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    summary
}

/// No face-down piece is ever named to the person (flip chess: nobody knows them).
fn assert_face_down_unnamed(messages: &[Value]) {
    fn scan(v: &Value, msg: &Value) {
        match v {
            Value::Object(o) => {
                if o.get("face") == Some(&json!("down")) {
                    assert!(o.get("piece").is_none(), "a face-down piece named in {msg}");
                }
                o.values().for_each(|x| scan(x, msg));
            }
            Value::Array(a) => a.iter().for_each(|x| scan(x, msg)),
            _ => {}
        }
    }
    messages.iter().for_each(|m| scan(m, m));
}

/// (1) A flip game against each level, played to the end (the person resigns a game
/// still going after 60 steps): the computer answers every turn of its own with a legal
/// action; the game is casual, stored, verifiable and in the person's history.
async fn flip_against_each_level(db: TestDb) {
    let h = Harness::start(db);
    let mut rng = Rng::new(41);
    for level in Level::ALL {
        let name = format!("vs_{}", level.name());
        let mut c = h.player(&name).await;
        let id = start(&mut c, "flip", 3, level.name()).await;
        let mut t = VsComputer::seat(&h, c, &id).await;
        let summary = t.client.summary(&id).await;
        let them = &summary["players"][t.computer().name()];
        assert_eq!(them["username"], format!("computer-{}", level.name()));
        assert_eq!(
            them["display_name"],
            format!("电脑·{}", level.chinese()),
            "{summary}"
        );
        t.play_out(60, person(&mut rng)).await;
        t.settle().await;
        eprintln!(
            "{}: {} steps, {} by the computer, {:?}",
            level.name(),
            t.game.steps(),
            t.computer_events.len(),
            t.game.outcome()
        );
        assert!(
            t.computer_events.len() >= 10 || t.game.steps() < 20,
            "the computer played its turns: {} events",
            t.computer_events.len()
        );
        assert_face_down_unnamed(&t.socket.received);
        let summary = check_finished(&mut t).await;
        assert_eq!(summary["rated"], false);
        // Casual: nobody's score or tally moved.
        for who in [name.as_str(), &format!("computer-{}", level.name())] {
            let p = t.client.player(who).await;
            assert_eq!(
                (p["score"].as_i64(), p["games"].as_i64()),
                (Some(0), Some(0)),
                "{p}"
            );
        }
        let page = t.client.get(&format!("/@/{name}/games")).await;
        assert_eq!(page.status, 200);
        assert!(
            page.text.contains(&id),
            "the game is in the person's history"
        );
    }
}

/// (2) Standard 军棋: the computer deploys a layout of its own (valid, its flag in a
/// headquarters guarded by mines), plays to the end, and nothing the person's socket
/// received names one of its hidden pieces before the end.
async fn standard_against_the_computer(db: TestDb) {
    let h = Harness::start(db);
    let c = h.player("general_li").await;
    let (mut t, deploying) = deployed(&h, c, "normal", 5).await;
    let seat = t.computer();
    let (south, north) = stored_layouts(&h, &t.id);
    let theirs = if seat == Seat::South { south } else { north };
    assert!(theirs.is_valid(seat), "{:?}", theirs.violations(seat));
    let own = theirs.to_own_view(seat);
    let flag = own.0.iter().find(|(_, p)| **p == Piece::Flag).unwrap().0;
    for n in junqi::rules::board::neighbours(*flag).iter() {
        assert_eq!(
            own.0[&n],
            Piece::Mine,
            "the computer's flag is guarded at {n}"
        );
    }
    let salt = h.row(&t.id).salt.expect("a salt once play began");
    let mut rng = Rng::new(42);
    t.play_out(60, person(&mut rng)).await;
    t.settle().await;
    assert!(!t.computer_events.is_empty(), "the computer moved");
    let mine = Some(colour_of(t.me));
    assert_hidden(&deploying, mine);
    assert_hidden(&t.socket.received, mine);
    for m in deploying.iter().chain(&t.socket.received) {
        if m["d"]["outcome"].is_object() {
            break;
        }
        assert!(
            !m.to_string().contains(&salt),
            "the salt before the end: {m}"
        );
    }
    check_finished(&mut t).await;
}

/// The attacker's choice, unless it would end the game (then a harmless step).
fn grind(g: &Game, rng: &mut Rng) -> Action {
    let a = person(rng)(g);
    let ends = policy::after(g, g.to_move(), a).is_none_or(|n| n.is_over());
    match ends {
        true => policy::harmless(g, rng, false).unwrap_or(a),
        false => a,
    }
}

/// The computer's answer to a draw offer the person would make now, as the engine
/// weighs it from the computer's seat (flip chess: no chance involved).
fn expected_answer(t: &VsComputer, level: Level) -> Decision {
    let mut offered = t.game.clone();
    offered.apply(t.me, Action::OfferDraw, None).unwrap();
    let view = View::of(&offered, Viewer::Seat(t.computer()));
    let info = Information::new(view, *offered.options());
    engine::choose(&info, level, &mut StdRng::seed_from_u64(0))
}

/// (3) Draw offers are answered at once and as the engine weighs the position (one
/// declined while the computer is not behind, one accepted once it is lost, over as
/// many games as it takes); a rematch is accepted, and the computer plays the new game.
async fn draw_offers_answered_and_rematch_accepted(db: TestDb) {
    let h = Harness::start(db);
    let mut c = h.player("peacemaker").await;
    // A long game: the client keeps under the socket's budget of 100 frames in 20 s by
    // waiting, so the clock must outlast such a wait.
    let id = start(&mut c, "flip", 30, "easy").await;
    let mut t = VsComputer::seat(&h, c, &id).await;
    let mut rng = Rng::new(43);
    let (mut declined, mut accepted) = (false, false);
    // The computer plays with its own randomness and a clock-bounded search, so how soon
    // it falls far enough behind to accept varies from run to run.
    for game in 0..8 {
        t.until_my_turn().await;
        while !t.game.is_over() {
            let may_offer = t.game.steps() >= 50
                && t.game.open_offer().is_none()
                && t.game.draw_offers_left(t.me) != Some(0);
            let answer = may_offer.then(|| expected_answer(&t, Level::Easy));
            let action = match answer {
                Some(Decision::AcceptDraw) if declined => Action::OfferDraw,
                Some(Decision::DeclineDraw) if !declined => Action::OfferDraw,
                _ if t.game.steps() >= 250 => Action::Resign,
                // Quiet play until an offer was declined; then material, but never
                // the game, so that the computer falls behind.
                _ if !declined => policy::harmless(&t.game, &mut rng, false)
                    .unwrap_or_else(|| person(&mut rng)(&t.game)),
                _ => grind(&t.game, &mut rng),
            };
            t.play(action).await;
            if action == Action::OfferDraw {
                let (ev, done) = t.next_event().await;
                let want = answer.and_then(Decision::action).unwrap();
                assert_eq!(done, Some((t.computer(), want)), "{ev}");
                declined |= want == Action::DeclineDraw;
                accepted |= want == Action::AcceptDraw;
            }
            t.until_my_turn().await;
        }
        if accepted {
            let summary = check_finished(&mut t).await;
            assert_eq!(summary["result"], "draw");
            assert_eq!(summary["reason"], "agreed");
        }
        // A rematch: the computer agrees at once, and the new game starts.
        let v = t.socket.act("rematch", Value::Null).await.expect("rematch");
        t.version += 1;
        assert_eq!(v, t.version);
        let (ev, _) = t.next_event().await;
        assert_eq!(ev["d"]["kind"], "rematch_offer", "{ev}");
        assert_eq!(ev["d"]["seat"], t.computer().name(), "{ev}");
        let (ev, _) = t.next_event().await;
        assert_eq!(ev["d"]["kind"], "rematch", "{ev}");
        let next = ev["d"]["next"].as_str().unwrap().to_string();
        let old = t.id.clone();
        t = VsComputer::seat(&h, t.client, &next).await;
        let summary = t.client.summary(&next).await;
        assert_eq!(summary["previous_game"], old.as_str());
        assert_eq!(summary["base"], game + 2, "{summary}");
        assert_eq!(summary["rated"], false);
        if accepted && declined {
            break;
        }
    }
    assert!(
        declined && accepted,
        "declined {declined}, accepted {accepted}"
    );
    // The computer plays the rematch too.
    while t.computer_events.is_empty() {
        t.until_my_turn().await;
        let a = person(&mut rng)(&t.game);
        t.play(a).await;
        t.next_event().await;
    }
}

/// (4) Two seconds an action against 困难: the computer thinks within its clock and
/// never times out; and it never counts as away (the escape grace here is 2 s, far
/// shorter than the game).
async fn never_times_out_under_a_short_clock(db: TestDb) {
    let h = Harness::start_with_grace(db, 2);
    let mut c = h.player("blitzer").await;
    let id = start(&mut c, "flip", 2, "hard").await;
    let mut t = VsComputer::seat(&h, c, &id).await;
    let mut look = t.client.game_socket(&id).await;
    let st = look.wait_state().await;
    let presence = &st["d"]["presence"];
    assert_eq!(presence["connected"][t.computer().name()], true, "{st}");
    assert_eq!(
        presence["escape_ms"][t.computer().name()],
        Value::Null,
        "{st}"
    );
    look.close().await;
    let began = std::time::Instant::now();
    let mut rng = Rng::new(44);
    // The person takes half their clock three times, each time just after the
    // computer's move restarted it: the game outlasts the grace.
    let mut slow = 0;
    while slow < 3 && !t.game.is_over() {
        t.until_my_turn().await;
        if t.game.steps() > 0 && !t.game.is_over() {
            actix_web::rt::time::sleep(std::time::Duration::from_millis(1000)).await;
            slow += 1;
        }
        if !t.game.is_over() {
            let a = person(&mut rng)(&t.game);
            t.play(a).await;
        }
    }
    t.play_out(60, person(&mut rng)).await;
    assert!(began.elapsed() > std::time::Duration::from_secs(3));
    assert!(t.computer_events.len() >= 5 || t.game.steps() < 10);
    for ev in &t.computer_events {
        assert_ne!(ev["d"]["kind"], "timeout", "the computer timed out: {ev}");
    }
    let outcome = t.game.outcome().unwrap();
    assert_ne!(outcome.reason.name(), "escape", "{outcome:?}");
    eprintln!(
        "{} steps in {:.1} s, {:?}",
        t.game.steps(),
        began.elapsed().as_secs_f64(),
        outcome
    );
    check_finished(&mut t).await;
}

/// (5) The server is killed mid-game; after the restart the computer takes up the game
/// where it stood (its beliefs rebuilt from the stored actions) and plays it out.
async fn restart_mid_game_resumes(db: TestDb) {
    let mut h = Harness::start(db);
    let c = h.player("comeback").await;
    let (mut t, _) = deployed(&h, c, "normal", 5).await;
    let mut rng = Rng::new(45);
    t.until_my_turn().await;
    for _ in 0..8 {
        if t.game.is_over() {
            break;
        }
        let a = person(&mut rng)(&t.game);
        t.play(a).await;
        t.until_my_turn().await;
    }
    assert!(!t.game.is_over(), "the game still runs at the kill");
    let before = t.computer_events.len();
    h.server.restart_hard();
    // Before the person is back, a watcher's greeting shows the person's escape clock
    // running, and the computer present.
    let mut watcher = h.client().game_socket(&t.id).await;
    let st = watcher.wait_state().await;
    let p = &st["d"]["presence"];
    assert_eq!(p["connected"][t.computer().name()], true, "{st}");
    assert_eq!(p["escape_ms"][t.computer().name()], Value::Null, "{st}");
    assert!(p["escape_ms"][t.me.name()].is_i64(), "{st}");
    watcher.close().await;
    t.client.base = h.base();
    let path = format!("/ws/game/{}?v={}", t.id, t.version);
    t.socket = t.client.socket(&path).await;
    t.play_out(60, person(&mut rng)).await;
    assert!(
        t.computer_events.len() > before,
        "the computer played after the restart"
    );
    check_finished(&mut t).await;
}

/// (6) Games against the computer are casual, capped per person, and its accounts
/// cannot be logged in to or taken.
async fn casual_only_and_capped(db: TestDb) {
    let h = Harness::start(db);
    let mut c = h.player("greedy_guy").await;
    let rated = c
        .post(
            "/api/games",
            json!({"variant": "flip", "seconds_per_action": 30, "rated": true, "computer": "hard"}),
        )
        .await;
    rated.assert_error(400, "bad_option");
    assert!(rated.text.contains("casual"), "{}", rated.text);
    let odd = create(&mut c, "flip", 30, "grandmaster").await;
    odd.assert_error(400, "bad_request");
    let quick = c
        .post(
            "/api/games/quick",
            json!({"variant": "flip", "seconds_per_action": 30, "rated": false, "computer": "easy"}),
        )
        .await;
    quick.assert_error(400, "bad_option");
    let anon = create(&mut h.client(), "flip", 30, "easy").await;
    assert_eq!(anon.status, 401, "{}", anon.text);

    let mut ids = Vec::new();
    for (variant, level) in [("flip", "easy"), ("standard", "normal"), ("flip", "hard")] {
        ids.push(start(&mut c, variant, 30, level).await);
    }
    let fourth = create(&mut c, "flip", 30, "easy").await;
    fourth.assert_error(409, "too_many_computer_games");
    // A game against a person is another matter.
    let r = c
        .post(
            "/api/games",
            json!({"variant": "flip", "seconds_per_action": 30, "rated": false}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let open = c.get("/api/games/open").await;
    for id in &ids {
        assert!(
            !open.text.contains(id.as_str()),
            "a computer game is not listed"
        );
    }

    for level in Level::ALL {
        let name = format!("computer-{}", level.name());
        let login = h
            .client()
            .post(
                "/api/login",
                json!({"username": name, "password": "correct horse"}),
            )
            .await;
        login.assert_error(401, "bad_credentials");
        let kept = h
            .client()
            .post(
                "/api/register",
                json!({"username": name, "password": "correct horse"}),
            )
            .await;
        // Refused as a kept name (said so), before the database could say it is taken.
        kept.assert_error(400, "invalid_username");
        assert!(kept.text.contains("computer"), "{}", kept.text);
        let mut conn = h.conn();
        let user = junqi::db::users::computer_player(&mut conn, level).unwrap();
        assert_eq!(user.kind, "computer");
        assert_eq!(user.computer_level(), Some(level));
    }
}

/// The same player on another connection (the cookie is the session).
fn same_player(h: &Harness, c: &Client) -> Client {
    let mut other = h.client();
    other.cookie = c.cookie.clone();
    other.name = c.name.clone();
    other
}

/// How many games `name` plays against the computer now, as stored.
fn computer_games_running(h: &Harness, name: &str) -> i64 {
    let mut conn = h.conn();
    let user = junqi::db::users::by_name(&mut conn, name)
        .unwrap()
        .expect("the player exists");
    let computers = junqi::db::users::computer_ids(&mut conn).unwrap();
    junqi::db::games::computer_games_running(&mut conn, user.id, &computers).unwrap()
}

/// Waits, as a spectator, for game `id` to end: its person, who has no socket on it,
/// loses by escape once the grace period has passed. Where the person's socket closed
/// during play, 断线托管 plays their seat until then, and two computers moving a
/// millisecond apart may end the game first (an 80-step draw takes well under a
/// second): any ending event counts. Waiting for the escape alone once failed a run
/// after the stand-in's game ended by a move.
async fn ended(h: &Harness, id: &str) {
    h.client()
        .game_socket(id)
        .await
        .wait_for("the end", |v| {
            v["t"] == "state" && v["d"]["game"]["status"] == "finished"
                || v["t"] == "event" && v["d"]["result"].is_object()
        })
        .await;
}

/// (5b) A rematch is a new game against the computer and counts against the cap of
/// three running: with three running, rematching a finished one is refused on the
/// socket with `too_many_computer_games` and changes nothing (no offer, no new game);
/// once one of the three ends, one rematch starts and the next is refused again.
/// Before, three finished games rematched made six running.
async fn rematches_count_against_the_cap(db: TestDb) {
    // The person stays away from the games that are to end, and loses them by escape
    // (after 3 s: the person's socket on a running game, and a new game's, comes well
    // within that even on a loaded machine).
    let h = Harness::start_with_grace(db, 3);
    let c = h.player("rematcher").await;
    let mut finished = Vec::new();
    for _ in 0..3 {
        finished.push(start(&mut same_player(&h, &c), "flip", 30, "easy").await);
    }
    for id in &finished {
        ended(&h, id).await;
    }
    // Three running, the person on each.
    let mut running = Vec::new();
    for _ in 0..3 {
        let id = start(&mut same_player(&h, &c), "flip", 30, "easy").await;
        let mut s = c.game_socket(&id).await;
        s.wait_state().await;
        running.push((id, s));
    }
    assert_eq!(computer_games_running(&h, "rematcher"), 3);

    let mut sockets = Vec::new();
    for id in &finished {
        let mut s = c.game_socket(id).await;
        let st = s.wait_state().await;
        assert_eq!(st["d"]["game"]["status"], "finished", "{st}");
        let m = s
            .act_err("rematch", Value::Null, "too_many_computer_games")
            .await;
        assert!(m.contains('3'), "the message gives the cap: {m}");
        sockets.push(s);
    }
    let mut viewer = h.client();
    for id in &finished {
        let summary = viewer.summary(id).await;
        assert!(summary["next_game"].is_null(), "no new game: {summary}");
        let st = viewer.game_socket(id).await.wait_state().await;
        assert_eq!(
            st["d"]["rematch"],
            json!({"south": false, "north": false, "next": null}),
            "no offer recorded: {st}"
        );
    }
    assert_eq!(computer_games_running(&h, "rematcher"), 3);

    // One of the three ends: room for one rematch, and for no more.
    let (id, s) = running.remove(0);
    s.close().await;
    ended(&h, &id).await;
    sockets[0]
        .act("rematch", Value::Null)
        .await
        .unwrap_or_else(|e| panic!("rematch refused with room for one: {e}"));
    let ev = sockets[0].wait_event("rematch").await;
    let next = ev["d"]["next"].as_str().expect("the new game");
    // The person takes their seat in it, so that it keeps running.
    let mut on_next = c.game_socket(next).await;
    on_next.wait_state().await;
    assert_eq!(computer_games_running(&h, "rematcher"), 3);
    sockets[1]
        .act_err("rematch", Value::Null, "too_many_computer_games")
        .await;
    assert_eq!(computer_games_running(&h, "rematcher"), 3);
}

/// (8) The computer's answer waits until the person has seen their own move arrive (the
/// server's pace, here 700 ms): never sooner than the pace after the person's action
/// was sent, and still a flip or move of its own rather than a timeout.
async fn answers_only_after_the_persons_move_was_seen(db: TestDb) {
    const PACE: std::time::Duration = std::time::Duration::from_millis(700);
    let h = Harness::start_args(db, &["--computer-pace-ms", "700"]);
    let mut rng = Rng::new(8);
    let mut c = h.player("paced").await;
    let id = start(&mut c, "flip", 30, "easy").await;
    let mut t = VsComputer::seat(&h, c, &id).await;
    let mut choose = person(&mut rng);
    t.until_my_turn().await;
    let mut answers = 0;
    while answers < 3 && !t.game.is_over() {
        let action = choose(&t.game);
        let sent = std::time::Instant::now();
        t.play(action).await;
        let (ev, acted) = t.next_event().await;
        let after = sent.elapsed();
        let Some((seat, _)) = acted else {
            continue;
        };
        assert_eq!(seat, t.computer(), "the computer answers: {ev}");
        assert!(
            ["flip", "move"].contains(&ev["d"]["kind"].as_str().unwrap_or("")),
            "a step of its own, not a timeout: {ev}"
        );
        assert!(
            after >= PACE,
            "answered {after:?} after the person's action, before the pace"
        );
        answers += 1;
        t.until_my_turn().await;
    }
    assert_eq!(answers, 3, "three answers were timed");
}
