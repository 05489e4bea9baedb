//! 托管 in two-player games (docs/protocol.md, "托管"), against the real server over
//! real sockets, on SQLite and PostgreSQL: manual 托管 on and off for one's own seat,
//! the limit of three and the permanent 4th (kept across a restart), the computer's
//! steps marked and legal, 断线托管 after the hold-off and its end on reconnect, the
//! escape after the full grace scored as without 托管, refusals that change nothing,
//! and a standard game played out by the stand-in that tells nobody a hidden piece.
//!
//! No test waits a fixed time: each waits for the message that shows what it checks,
//! and the grace (and so the hold-off, a quarter of it) is shortened by the server's
//! `--grace-seconds`.

#[macro_use]
mod support;

use junqi::rules::{Action, Seat};
use serde_json::{Value, json};
use std::time::{Duration, Instant};
use support::computer::{self, event_action};
use support::hidden::assert_hidden;
use support::policy::Rng;
use support::{Harness, Socket, Table, TestDb, check_against_rules};

db_tests! {
    manual_on_and_off_and_the_fourth_is_for_good => manual_on_and_off_and_the_fourth_is_for_good_sqlite, manual_on_and_off_and_the_fourth_is_for_good_postgres;
    disconnect_tuoguan_after_the_hold_off_until_the_player_is_back => disconnect_tuoguan_after_the_hold_off_until_the_player_is_back_sqlite, disconnect_tuoguan_after_the_hold_off_until_the_player_is_back_postgres;
    last_seconds_on_the_clock_start_it_at_once => last_seconds_on_the_clock_start_it_at_once_sqlite, last_seconds_on_the_clock_start_it_at_once_postgres;
    escape_after_the_full_grace_scores_as_before => escape_after_the_full_grace_scores_as_before_sqlite, escape_after_the_full_grace_scores_as_before_postgres;
    bad_requests_are_refused_and_change_nothing => bad_requests_are_refused_and_change_nothing_sqlite, bad_requests_are_refused_and_change_nothing_postgres;
    the_stand_in_reveals_nothing => the_stand_in_reveals_nothing_sqlite, the_stand_in_reveals_nothing_postgres;
}

fn tuoguan(on: bool) -> Value {
    json!({ "on": on })
}

fn seat_state(on: Option<&str>, count: u8, permanent: bool) -> Value {
    json!({"on": on, "count": count, "permanent": permanent})
}

/// Waits on `s` for a presence message whose `seat` 托管 is `want`.
async fn presence_with(s: &mut Socket, seat: Seat, want: &Value) -> Value {
    let want = want.clone();
    s.wait_for(&format!("presence with {seat:?}'s 托管 {want}"), |m| {
        m["t"] == "presence" && m["d"]["tuoguan"][seat.name()] == want
    })
    .await
}

/// The stand-in's step for `seat` at the table's next version, followed in the mirror
/// (which panics on an action the rules refuse).
async fn stand_in_step(table: &mut Table, seat: Seat) -> Value {
    let v = table.version + 1;
    let ev = table.socket(seat.other()).event_at(v).await;
    assert_eq!(ev["d"]["tuoguan"], true, "marked as 托管: {ev}");
    let (by, action) = event_action(&ev).expect("a step");
    assert_eq!(by, seat, "{ev}");
    assert!(
        matches!(action, Action::Flip(_) | Action::Move { .. }),
        "the stand-in plays the seat's turn only: {ev}"
    );
    table.follow(by, action);
    // Its own seat's socket is told the same step, marked too.
    let own = table.socket(seat).event_at(v).await;
    assert_eq!(own["d"]["tuoguan"], true, "{own}");
    ev
}

/// [`stand_in_step`] while `seat` has no socket of its own: only `by` is asked.
async fn stand_in_step_seen_by(table: &mut Table, seat: Seat, by: Seat) {
    let v = table.version + 1;
    let ev = table.socket(by).event_at(v).await;
    assert_eq!(ev["d"]["tuoguan"], true, "marked as 托管: {ev}");
    let (who, action) = event_action(&ev).expect("a step");
    assert_eq!(who, seat, "{ev}");
    table.follow(who, action);
}

/// The indices of a record's actions played by the stand-in.
fn by_tuoguan(record: &Value) -> Vec<usize> {
    let actions = record["actions"].as_array().expect("actions");
    (actions.iter().enumerate())
        .filter(|(_, a)| a["by"] == "tuoguan")
        .map(|(i, _)| i)
        .collect()
}

async fn manual_on_and_off_and_the_fourth_is_for_good(db: TestDb) {
    let mut h = Harness::start(db);
    let a = h.player("liu_bei").await;
    let b = h.player("cao_cao").await;
    let mut table = Table::open(&h, a, b, 30, false).await;
    let mut rng = Rng::new(3);
    table.harmless_steps(2, &mut rng).await;
    let me = table.game.to_move();
    let other = me.other();

    // 1st, on my turn: acknowledged at the same version (not a step), shown to both.
    let v0 = table.version;
    let v = table
        .socket(me)
        .act("tuoguan", tuoguan(true))
        .await
        .unwrap();
    assert_eq!(v, v0, "托管 is not a step");
    let on1 = seat_state(Some("manual"), 1, false);
    let p = presence_with(table.socket(other), me, &on1).await;
    assert_eq!(p["d"]["tuoguan"][other.name()], seat_state(None, 0, false));
    assert_eq!(p["d"]["can"]["tuoguan"], true, "the other may still: {p}");
    let p = presence_with(table.socket(me), me, &on1).await;
    assert_eq!(
        p["d"]["can"],
        json!({"tuoguan": false, "end_tuoguan": true, "tuoguan_permanent": false})
    );
    let first = stand_in_step(&mut table, me).await;
    table
        .socket(me)
        .act("tuoguan", tuoguan(false))
        .await
        .unwrap();
    presence_with(table.socket(other), me, &seat_state(None, 1, false)).await;
    // The other seat plays, then I do myself at the next version: no stand-in left.
    table.harmless_steps(2, &mut rng).await;
    let v = table.version;
    let mine = table.socket(other).event_at(v).await;
    assert!(mine["d"].get("tuoguan").is_none(), "my own step: {mine}");

    // 2nd and 3rd on the other's turn: taken up and ended again.
    for n in [2u8, 3] {
        table
            .socket(me)
            .act("tuoguan", tuoguan(true))
            .await
            .unwrap();
        presence_with(
            table.socket(other),
            me,
            &seat_state(Some("manual"), n, false),
        )
        .await;
        table
            .socket(me)
            .act("tuoguan", tuoguan(false))
            .await
            .unwrap();
        let p = presence_with(table.socket(me), me, &seat_state(None, n, false)).await;
        assert_eq!(p["d"]["can"]["tuoguan_permanent"], n == 3, "{p}");
    }

    // The 4th is for good: it cannot be ended, and the page was told beforehand.
    table
        .socket(me)
        .act("tuoguan", tuoguan(true))
        .await
        .unwrap();
    let forever = seat_state(Some("manual"), 4, true);
    let p = presence_with(table.socket(me), me, &forever).await;
    assert_eq!(
        p["d"]["can"],
        json!({"tuoguan": false, "end_tuoguan": false, "tuoguan_permanent": true})
    );
    let why = table
        .socket(me)
        .act_err("tuoguan", tuoguan(false), "illegal")
        .await;
    assert!(why.contains("cannot be ended"), "{why}");
    // The seat's steps are the stand-in's now: the player's own is refused.
    let why = (table.socket(me))
        .act_err("flip", json!({"at": "b3"}), "illegal")
        .await;
    assert!(why.contains("end 托管 first"), "{why}");
    table.harmless_steps(1, &mut rng).await;
    let second = stand_in_step(&mut table, me).await;

    // The record marks exactly the stand-in's steps.
    let record = table.record().await;
    let at = |ev: &Value| ev["v"].as_u64().unwrap() as usize - 1;
    assert_eq!(by_tuoguan(&record), [at(&first), at(&second)], "{record}");

    // A restart keeps the count and the permanent 托管; the stand-in plays on.
    h.server.restart_hard();
    let base = h.base();
    for s in &mut table.seats {
        s.client.base = base.clone();
        s.socket.until_closed().await;
    }
    let id = table.id.clone();
    for seat in Seat::BOTH {
        let mut s = table.seats[seat.index()].client.game_socket(&id).await;
        let st = s.wait_state().await;
        assert_eq!(st["v"], table.version, "{st}");
        assert_eq!(st["d"]["presence"]["tuoguan"][me.name()], forever, "{st}");
        let can = &st["d"]["presence"]["can"];
        assert_eq!(can["end_tuoguan"], false, "{st}");
        assert_eq!(can["tuoguan"], seat == other, "{st}");
        table.seats[seat.index()].socket = s;
    }
    table.harmless_steps(1, &mut rng).await;
    let third = stand_in_step(&mut table, me).await;
    let record = table.record().await;
    assert_eq!(
        by_tuoguan(&record),
        [at(&first), at(&second), at(&third)],
        "{record}"
    );
}

async fn disconnect_tuoguan_after_the_hold_off_until_the_player_is_back(db: TestDb) {
    // An 8 s grace: the hold-off is a quarter of it, 2 s.
    const HOLD_OFF: Duration = Duration::from_secs(2);
    let h = Harness::start_with_grace(db, 8);
    let a = h.player("zhuge_liang").await;
    let b = h.player("sima_yi").await;
    let mut table = Table::open(&h, a, b, 30, false).await;
    let mut rng = Rng::new(8);
    table.harmless_steps(2, &mut rng).await;
    let away = table.game.to_move();
    let other = away.other();
    let id = table.id.clone();

    let gone = std::mem::replace(table.socket(away), h.client().game_socket(&id).await);
    let left = Instant::now();
    gone.close().await;
    let p = table
        .socket(other)
        .wait_for("the absence", |m| {
            m["t"] == "presence" && m["d"]["connected"][away.name()] == false
        })
        .await;
    assert_eq!(
        p["d"]["tuoguan"][away.name()],
        seat_state(None, 0, false),
        "not before the hold-off: {p}"
    );
    let p = presence_with(
        table.socket(other),
        away,
        &seat_state(Some("disconnect"), 1, false),
    )
    .await;
    let waited = left.elapsed();
    assert!(
        waited >= HOLD_OFF - Duration::from_millis(200),
        "断线托管 after {waited:?}"
    );
    assert!(
        p["d"]["escape_ms"][away.name()].as_i64().unwrap() > 0,
        "the escape grace still runs: {p}"
    );
    // A spectator (the socket that took the absent one's place) sees the mark too, with
    // no `can` of its own.
    let seen = presence_with(
        table.socket(away),
        away,
        &seat_state(Some("disconnect"), 1, false),
    )
    .await;
    assert!(seen["d"].get("can").is_none(), "{seen}");
    stand_in_step_seen_by(&mut table, away, other).await;

    // Back: the 托管 ends by itself, its count kept, and the player plays again.
    let path = format!("/ws/game/{id}?v={}", table.version);
    let back = table.seats[away.index()].client.socket(&path).await;
    *table.socket(away) = back;
    let p = presence_with(table.socket(other), away, &seat_state(None, 1, false)).await;
    assert_eq!(p["d"]["connected"][away.name()], true, "{p}");
    presence_with(table.socket(away), away, &seat_state(None, 1, false)).await;
    table.harmless_steps(2, &mut rng).await;
    assert_eq!(table.summary().await["status"], "running");
    let record = table.record().await;
    assert_eq!(by_tuoguan(&record).len(), 1, "{record}");
}

async fn last_seconds_on_the_clock_start_it_at_once(db: TestDb) {
    // The default 60 s grace holds 断线托管 off for 10 s, far longer than the 5 s clock:
    // with 3 s or less left, the computer takes the seat to move at once and plays
    // before the timeout.
    let h = Harness::start(db);
    let a = h.player("guan_yu").await;
    let b = h.player("zhang_fei").await;
    let mut table = Table::open(&h, a, b, 5, false).await;
    let mut rng = Rng::new(4);
    table.harmless_steps(1, &mut rng).await;
    let moved = Instant::now();
    let away = table.game.to_move();
    let id = table.id.clone();
    let gone = std::mem::replace(table.socket(away), h.client().game_socket(&id).await);
    gone.close().await;
    presence_with(
        table.socket(away.other()),
        away,
        &seat_state(Some("disconnect"), 1, false),
    )
    .await;
    let waited = moved.elapsed();
    assert!(
        waited >= Duration::from_millis(1800) && waited < Duration::from_secs(5),
        "taken {waited:?} after the last step"
    );
    stand_in_step(&mut table, away).await;
}

async fn escape_after_the_full_grace_scores_as_before(db: TestDb) {
    const GRACE: Duration = Duration::from_secs(4);
    let h = Harness::start_with_grace(db, GRACE.as_secs());
    let a = h.player("runner").await;
    let b = h.player("stayer").await;
    let mut table = Table::open(&h, a, b, 30, true).await;
    let mut rng = Rng::new(12);
    table.harmless_steps(4, &mut rng).await;
    let away = table.game.to_move();
    let other = away.other();
    let id = table.id.clone();
    let gone = std::mem::replace(table.socket(away), h.client().game_socket(&id).await);
    let left = Instant::now();
    gone.close().await;
    presence_with(
        table.socket(other),
        away,
        &seat_state(Some("disconnect"), 1, false),
    )
    .await;
    // The stand-in plays the seat's turn; the other seat then waits for the ruling.
    stand_in_step(&mut table, away).await;
    let ev = table.socket(other).wait_event("escape").await;
    let waited = left.elapsed();
    assert!(
        waited >= GRACE - Duration::from_millis(200),
        "escape after {waited:?}"
    );
    assert_eq!(ev["v"], table.version + 1);
    assert!(
        ev["d"].get("tuoguan").is_none(),
        "the clock's, not 托管's: {ev}"
    );
    assert_eq!(
        ev["d"]["outcome"],
        json!({"winner": other.name(), "reason": "escape"})
    );
    table.follow(away, Action::Escape);
    let summary = table.summary().await;
    assert_eq!(summary["reason"], "escape");
    assert_eq!(summary["score"][away.name()], -10, "{summary}");
    check_against_rules(&summary, &table.record().await);
    // Over: 托管 is refused.
    let why = table
        .socket(other)
        .act_err("tuoguan", tuoguan(true), "game_over")
        .await;
    assert!(why.contains("over"), "{why}");
}

async fn bad_requests_are_refused_and_change_nothing(db: TestDb) {
    let h = Harness::start(db);
    let mut creator = h.player("sun_quan").await;
    let open = creator.create_game(30, false).await;
    let mut s = creator.game_socket(&open).await;
    s.wait_state().await;
    let why = s.act_err("tuoguan", tuoguan(true), "illegal").await;
    assert!(why.contains("not started"), "{why}");
    drop(s);

    let a = h.player("zhou_yu").await;
    let b = h.player("lu_su").await;
    let mut table = Table::open(&h, a, b, 30, false).await;
    let me = table.game.to_move();
    let mut spectator = h.client().game_socket(&table.id).await;
    spectator.wait_state().await;
    for d in [
        json!({"on": true, "seat": me.other().name()}),
        json!({"on": true, "seat": me.name()}),
        json!({"on": true, "for": "north"}),
        json!({}),
        json!({"on": "yes"}),
    ] {
        let why = table
            .socket(me)
            .act_err("tuoguan", d.clone(), "bad_message")
            .await;
        assert!(why.contains("tuoguan"), "{d}: {why}");
    }
    let why = table
        .socket(me)
        .act_err("tuoguan", tuoguan(false), "illegal")
        .await;
    assert!(why.contains("does not play"), "{why}");
    let why = spectator
        .act_err("tuoguan", tuoguan(true), "not_a_player")
        .await;
    assert!(why.contains("spectator"), "{why}");

    // Nothing changed: no message but the refusals, nothing stored, and a fresh state
    // shows no 托管.
    for seat in Seat::BOTH {
        let heard = table.socket(seat).barrier().await;
        assert!(
            heard.iter().all(|m| m["t"] == "error"),
            "only refusals: {heard:?}"
        );
    }
    let stored = junqi::db::games::tuoguan(&mut h.conn(), &table.id).unwrap();
    assert_eq!(stored, None);
    let mut fresh = h.client().game_socket(&table.id).await;
    let st = fresh.wait_state().await;
    assert_eq!(
        st["d"]["presence"]["tuoguan"],
        json!({"south": seat_state(None, 0, false), "north": seat_state(None, 0, false)})
    );
    assert!(
        st["d"]["presence"].get("can").is_none(),
        "a spectator's: {st}"
    );
    assert_eq!(st["v"], 0);
}

async fn the_stand_in_reveals_nothing(db: TestDb) {
    // Two people in standard 军棋 both hand their seats over: each stand-in plays from
    // its own seat's view, and each person's socket is the opponent's of the other's
    // stand-in. Neither, nor a spectator, may be told a hidden piece before the end.
    let h = Harness::start(db);
    let mut a = h.player("huang_zhong").await;
    let b = h.player("ma_chao").await;
    let r = a
        .post(
            "/api/games",
            json!({"variant": "standard", "seconds_per_action": 10, "rated": false}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let id = r.json["id"].as_str().unwrap().to_string();
    let mut b = b;
    b.join(&id).await;
    let mut sockets = Vec::new();
    for c in [&a, &b] {
        let mut s = c.game_socket(&id).await;
        s.wait_for("the deployment", |m| {
            m["t"] == "state" && !m["d"]["deploy"].is_null()
        })
        .await;
        sockets.push(s);
    }
    // Each keeps the layout it was given.
    for s in &mut sockets {
        s.act("ready", Value::Null).await.unwrap();
    }
    for s in &mut sockets {
        s.wait_for("the start of play", |v| v["t"] == "state" && v["v"] == 1)
            .await;
    }
    let mut spectator = h.client().game_socket(&id).await;
    spectator.wait_state().await;
    let mut truth = computer::stored_game(&h, &id);
    let south = a.summary(&id).await["players"]["south"]["username"] == a.name.as_str();
    let seat_of = |i: usize| {
        if (i == 0) == south {
            Seat::South
        } else {
            Seat::North
        }
    };
    for s in &mut sockets {
        s.act("tuoguan", tuoguan(true)).await.unwrap();
    }
    // Every step from here is the computer's for one seat or the other, each legal by
    // the rules on the true position (the mirror panics otherwise).
    let mut v = 1;
    while !truth.is_over() {
        v += 1;
        let ev = sockets[0].event_at(v).await;
        let Some((seat, action)) = event_action(&ev) else {
            panic!("only steps while both seats are in 托管: {ev}");
        };
        truth
            .apply(seat, action, None)
            .unwrap_or_else(|e| panic!("the rules refuse {ev}: {e}"));
        if action != Action::Timeout {
            assert_eq!(ev["d"]["tuoguan"], true, "{ev}");
            assert!(
                matches!(action, Action::Move { .. } | Action::Pass),
                "a stand-in never resigns or draws for the person: {ev}"
            );
        }
    }
    // (The first socket's wait above already read the end.)
    for s in sockets.iter_mut().chain([&mut spectator]) {
        s.event_at(v).await;
    }
    for (i, s) in sockets.iter().enumerate() {
        let own = match seat_of(i) {
            Seat::South => "red",
            Seat::North => "blue",
        };
        assert_hidden(&s.received, Some(own));
    }
    assert_hidden(&spectator.received, None);
    let summary = a.summary(&id).await;
    let record = a.record(&id).await;
    assert_eq!(record["verified"], true, "{record}");
    check_against_rules(&summary, &record);
    for act in record["actions"].as_array().unwrap() {
        assert_eq!(
            act["by"] == "tuoguan",
            act.get("timeout").is_none(),
            "{act}"
        );
    }
}
