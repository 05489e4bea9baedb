//! 复盘分析 over HTTP, on SQLite and PostgreSQL: a finished game's review from either
//! side (its graph, the marked steps with the engine's best action named), kept once
//! computed; a running game and an unknown one refused; and the bounds that keep a
//! player (or everyone at once) from queuing more than a little work: one review at a
//! time per player, a limit per hour on the limits' clock, and a bounded queue.

#[macro_use]
mod support;

use junqi::engine::analysis::assess_turn;
use junqi::engine::{Information, Level, Limits};
use junqi::rules::{Action, Seat, View, Viewer};
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde_json::Value;
use std::time::{Duration, Instant};
use support::policy::{self, Rng};
use support::{Client, Harness, Resp, Table, TestDb, WAIT};

db_tests! {
    a_finished_game_is_reviewed_and_kept => reviewed_sqlite, reviewed_postgres;
    one_review_at_a_time_and_a_few_an_hour => bounded_per_player_sqlite, bounded_per_player_postgres;
    the_queue_of_reviews_is_bounded => bounded_queue_sqlite, bounded_queue_postgres;
}

fn review_path(id: &str, side: Seat) -> String {
    format!("/api/games/{id}/review?side={side}")
}

/// A move of `seat` the engine judges far worse than its best, if one stands out now
/// (a piece walked into a bigger one's reach, or thrown at it: flip chess shows both,
/// so the loss is plain from the seat's side).
fn blunder(table: &Table, seat: Seat) -> Option<Action> {
    let g = &table.game;
    if g.to_move() != seat {
        return None;
    }
    let info = Information::new(View::of(g, Viewer::Seat(seat)), *g.options());
    let limits = Limits {
        deadline: None,
        stop: None,
        share: 0.3,
    };
    let assessed = assess_turn(&info, Level::Normal, &mut StdRng::seed_from_u64(1), limits)?;
    let &(worst, value) = assessed
        .actions
        .iter()
        .filter(|(a, _)| matches!(a, Action::Move { .. }))
        .filter(|(a, _)| policy::after(g, seat, *a).is_some_and(|n| !n.is_over()))
        .min_by_key(|(_, v)| *v)?;
    (assessed.value - value > 50).then_some(worst)
}

/// Plays `table` to its end: harmless steps, `blunderer` throwing a piece away once or
/// twice when it can, then a resignation once resigning is allowed. The blundered steps.
/// With a blunderer the harmless steps flip first: a board full of face-up pieces is one
/// where a step can throw one away (and a longer one to review).
async fn finish(table: &mut Table, rng: &mut Rng, blunderer: Option<Seat>) -> Vec<u32> {
    let mut blundered = Vec::new();
    while table.game.steps() < 56 {
        let mover = table.game.to_move();
        let bad = match blunderer {
            Some(s) if s == mover && blundered.len() < 2 => blunder(table, s),
            _ => None,
        };
        let action = match bad {
            Some(a) => {
                blundered.push(table.game.steps() + 1);
                a
            }
            None => {
                policy::harmless(&table.game, rng, blunderer.is_some()).expect("a harmless step")
            }
        };
        table.step(action).await;
    }
    let quitter = table.game.to_move();
    table.play(quitter, Action::Resign).await;
    table.socket(quitter.other()).wait_event("resign").await;
    blundered
}

/// Asks until the review is done (or fails the test after a while).
async fn done(c: &mut Client, id: &str, side: Seat) -> Value {
    let deadline = Instant::now() + Duration::from_secs(240);
    loop {
        let r = c.get(&review_path(id, side)).await;
        assert!(r.status == 200 || r.status == 202, "{}", r.text);
        if r.json["status"] == "done" {
            return r.json;
        }
        assert!(
            r.json["status"] == "queued" || r.json["status"] == "running",
            "{}",
            r.text
        );
        assert!(
            Instant::now() < deadline,
            "the review did not finish: {}",
            r.text
        );
        actix_web::rt::time::sleep(Duration::from_millis(100)).await;
    }
}

fn computed(h: &Harness, id: &str) -> usize {
    h.log()
        .lines()
        .filter(|l| l.contains("review computed") && l.contains(id))
        .count()
}

async fn a_finished_game_is_reviewed_and_kept(db: TestDb) {
    let h = Harness::start(db);
    let a = h.player("rv_alice").await;
    let b = h.player("rv_bob").await;
    let mut table = Table::open(&h, a, b, 30, false).await;
    let mut rng = Rng::new(23);
    let alice = table.seat_of("rv_alice");
    let id = table.id.clone();

    // While it runs: refused, and nothing is computed.
    table.harmless_steps(4, &mut rng).await;
    let r = table
        .client(alice)
        .post_empty(&review_path(&id, alice))
        .await;
    r.assert_error(409, "game_not_finished");
    let r = table
        .client(alice)
        .post_empty("/api/games/NOSUCHGM/review")
        .await;
    r.assert_error(404, "not_found");

    let blundered = finish(&mut table, &mut rng, Some(alice)).await;
    assert!(!blundered.is_empty(), "alice found a piece to throw away");

    // Anonymous visitors may read a review, not start one.
    let mut stranger = h.client();
    stranger
        .post_empty(&review_path(&id, alice))
        .await
        .assert_error(401, "not_logged_in");
    let r = stranger.get(&review_path(&id, alice)).await;
    assert_eq!(r.json["status"], "none", "{}", r.text);

    // Alice's own side by default.
    let r = table
        .client(alice)
        .post_empty(&format!("/api/games/{id}/review"))
        .await;
    assert_eq!(r.status, 202, "{}", r.text);
    assert_eq!(r.json["side"], alice.to_string());
    assert!(r.json["total"].as_u64().unwrap() >= 25, "{}", r.text);
    let answer = done(table.client(alice), &id, alice).await;
    let review = &answer["review"];
    assert_eq!(review["side"], alice.to_string());
    let entries = review["entries"].as_array().unwrap();
    assert!(entries.len() >= 20, "{} entries", entries.len());
    let clamp = review["clamp"].as_i64().unwrap();
    let mut last = 0;
    for e in entries {
        let step = e["step"].as_u64().unwrap();
        assert!(step > last, "steps in order");
        last = step;
        assert!(e["shown"].as_i64().unwrap().abs() <= clamp);
        assert!(
            e["best_text"].as_str().unwrap().starts_with("最佳："),
            "{e}"
        );
        assert!(
            e["best_value"].as_i64() >= e["played_value"].as_i64(),
            "{e}"
        );
    }
    for step in &blundered {
        let e = entries
            .iter()
            .find(|e| e["step"] == *step)
            .unwrap_or_else(|| panic!("step {step} reviewed"));
        assert!(!e["mark"].is_null(), "the thrown-away piece is marked: {e}");
        let best = e["best_text"].as_str().unwrap();
        assert!(
            best.starts_with("最佳：翻 ") || best.contains('→'),
            "the best action in words: {best}"
        );
    }

    // Kept: asked again (by anyone), nothing is computed again.
    assert_eq!(computed(&h, &id), 1);
    let again = table
        .client(alice)
        .post_empty(&review_path(&id, alice))
        .await;
    assert_eq!(again.status, 200, "{}", again.text);
    assert_eq!(again.json, answer);
    let r = stranger.get(&review_path(&id, alice)).await;
    assert_eq!(r.json, answer);
    assert_eq!(computed(&h, &id), 1, "a kept review is not computed again");

    // 从对方视角: the other side's review, its own entries.
    let bob = alice.other();
    let r = table.client(alice).post_empty(&review_path(&id, bob)).await;
    assert_eq!(r.status, 202, "{}", r.text);
    let theirs = done(table.client(alice), &id, bob).await;
    assert_eq!(theirs["review"]["side"], bob.to_string());
    assert_ne!(theirs["review"]["entries"], review["entries"]);
    assert_eq!(computed(&h, &id), 2);
}

/// Four finished games between the same two players.
async fn four_games(h: &Harness) -> (Table, Vec<String>) {
    let a = h.player("rv_carol").await;
    let b = h.player("rv_dave").await;
    let mut table = Table::open(h, a, b, 30, false).await;
    let mut rng = Rng::new(31);
    let mut ids = Vec::new();
    for i in 0..4 {
        if i > 0 {
            table = table.rematch(h).await;
        }
        finish(&mut table, &mut rng, None).await;
        ids.push(table.id.clone());
    }
    (table, ids)
}

fn refused(r: &Resp, status: u16, code: &str) {
    r.assert_error(status, code);
}

async fn one_review_at_a_time_and_a_few_an_hour(db: TestDb) {
    // The limits on, on a clock that only the test moves.
    let h = Harness::start_with_flags(db, &["--frozen-rate-clock"]);
    let (mut table, ids) = four_games(&h).await;
    let carol = table.seat_of("rv_carol");
    let c = table.client(carol);
    let pairs: Vec<(String, Seat)> = ids
        .iter()
        .flat_map(|id| Seat::BOTH.map(|s| (id.clone(), s)))
        .collect();

    // One at a time: a second review while the first is under way is refused.
    let (id0, s0) = &pairs[0];
    assert_eq!(c.post_empty(&review_path(id0, *s0)).await.status, 202);
    let (id1, s1) = &pairs[1];
    refused(
        &c.post_empty(&review_path(id1, *s1)).await,
        409,
        "review_in_progress",
    );
    // Asking for the same one again is no second review (202 while it is computed, 200
    // if it has just been kept).
    let again = c.post_empty(&review_path(id0, *s0)).await;
    assert!(again.status == 202 || again.status == 200, "{}", again.text);
    done(c, id0, *s0).await;

    // Six in all may start at once (the first counted), then one every ten minutes.
    for (id, side) in &pairs[1..6] {
        let r = c.post_empty(&review_path(id, *side)).await;
        assert_eq!(r.status, 202, "{}", r.text);
        done(c, id, *side).await;
    }
    let (id6, s6) = &pairs[6];
    let r = c.post_empty(&review_path(id6, *s6)).await;
    refused(&r, 429, "rate_limited");
    let wait: u64 = r.retry_after.as_deref().unwrap().parse().unwrap();
    assert!((1..=600).contains(&wait), "Retry-After {wait}");
    // A kept review is no new work: still answered.
    let (id5, s5) = &pairs[5];
    assert_eq!(c.post_empty(&review_path(id5, *s5)).await.status, 200);
    support::advance_rate_clock(&h.base(), Duration::from_secs(wait)).await;
    assert_eq!(c.post_empty(&review_path(id6, *s6)).await.status, 202);
    // Another player has an allowance of their own.
    let dave = carol.other();
    let r = table
        .client(dave)
        .post_empty(&review_path(&pairs[7].0, pairs[7].1))
        .await;
    assert_eq!(r.status, 202, "{}", r.text);
}

async fn the_queue_of_reviews_is_bounded(db: TestDb) {
    let h = Harness::start(db);
    let (table, ids) = four_games(&h).await;
    drop(table);
    // Five players, each asking for a review of their own at once: four may wait or run
    // (jobs::MAX_PENDING), the fifth is told to come back.
    let mut askers = Vec::new();
    for i in 0..5 {
        askers.push(h.player(&format!("rv_asker{i}")).await);
    }
    let mut answers = Vec::new();
    for (i, c) in askers.iter_mut().enumerate() {
        let (id, side) = (&ids[i / 2], Seat::BOTH[i % 2]);
        answers.push(c.post_empty(&review_path(id, side)).await);
    }
    for r in &answers[..4] {
        assert_eq!(r.status, 202, "{}", r.text);
    }
    refused(&answers[4], 429, "rate_limited");
    // Once the queue has room again, the fifth gets in.
    let deadline = Instant::now() + WAIT * 16;
    let (id, side) = (&ids[2], Seat::BOTH[0]);
    loop {
        let r = askers[4].post_empty(&review_path(id, side)).await;
        if r.status == 202 || r.status == 200 {
            break;
        }
        assert_eq!(r.status, 429, "{}", r.text);
        assert!(Instant::now() < deadline, "the queue never had room");
        actix_web::rt::time::sleep(Duration::from_millis(200)).await;
    }
}
