//! Live games against the real server on a loopback port, over real WebSockets, each
//! test on its own fresh SQLite file and on its own PostgreSQL database.

#[macro_use]
mod support;

use junqi::rules::deal::FlipStart;
use junqi::rules::{Action, EndReason, Game, Options, Rank, Seat};
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};
use support::policy::{self, Rng};
use support::{Harness, Table, TestDb, check_against_rules};

db_tests! {
    flag_win => flag_win_sqlite, flag_win_postgres;
    third_timeout_loses => third_timeout_loses_sqlite, third_timeout_loses_postgres;
    resign_only_after_50_steps => resign_only_after_50_steps_sqlite, resign_only_after_50_steps_postgres;
    draw_by_agreement => draw_by_agreement_sqlite, draw_by_agreement_postgres;
    rematch_doubles_the_base => rematch_doubles_the_base_sqlite, rematch_doubles_the_base_postgres;
    reconnect_gets_exactly_the_missed_events => reconnect_gets_exactly_the_missed_events_sqlite, reconnect_gets_exactly_the_missed_events_postgres;
    far_behind_reconnect_gets_a_state => far_behind_reconnect_gets_a_state_sqlite, far_behind_reconnect_gets_a_state_postgres;
    restart_keeps_actions_and_deadline => restart_keeps_actions_and_deadline_sqlite, restart_keeps_actions_and_deadline_postgres;
    face_down_pieces_stay_hidden => face_down_pieces_stay_hidden_sqlite, face_down_pieces_stay_hidden_postgres;
    face_down_pieces_stay_hidden_from_bots => face_down_pieces_stay_hidden_from_bots_sqlite, face_down_pieces_stay_hidden_from_bots_postgres;
    escape_after_the_grace_period => escape_after_the_grace_period_sqlite, escape_after_the_grace_period_postgres;
}

/// The goal-directed attacker must take the flag in most games, or the live flag test
/// would need many rematches. Measured over random deals without the server.
#[test]
fn the_attacker_policy_usually_takes_the_flag() {
    let games = 60;
    let mut rng = StdRng::seed_from_u64(20_251_129);
    let mut outcomes: BTreeMap<String, u32> = BTreeMap::new();
    for i in 0..games {
        let start = FlipStart::random(&mut rng);
        let attacker = if i % 2 == 0 { Seat::South } else { Seat::North };
        let end = policy::play_locally(start.game(Options::default()), attacker, &mut Rng::new(i));
        let o = end.outcome().unwrap();
        let key = if o.winner == Some(attacker) && o.reason == EndReason::Flag {
            "flag".to_string()
        } else {
            format!("{:?} {}", o.winner.map(|w| w == attacker), o.reason)
        };
        *outcomes.entry(key).or_default() += 1;
    }
    let flags = outcomes.get("flag").copied().unwrap_or(0);
    assert!(
        flags * 100 >= games as u32 * 90,
        "the attacker took the flag in {flags} of {games} games: {outcomes:?}"
    );
}

/// Player totals expected from the finished games: score, wins, draws, losses, games.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Totals {
    score: i64,
    wins: i64,
    draws: i64,
    losses: i64,
    games: i64,
}

impl Totals {
    fn add(&mut self, delta: i64, result: &str, me: Seat) {
        self.score += delta;
        self.games += 1;
        match result {
            "draw" => self.draws += 1,
            r if r == me.name() => self.wins += 1,
            _ => self.losses += 1,
        }
    }
}

/// Adds a finished rated game to both players' expected totals.
fn tally(totals: &mut BTreeMap<String, Totals>, table: &Table, summary: &Value) {
    for seat in Seat::BOTH {
        let name = table.seats[seat.index()].client.name.clone();
        let delta = summary["score"][seat.name()].as_i64().expect("a score");
        totals
            .entry(name)
            .or_default()
            .add(delta, summary["result"].as_str().unwrap(), seat);
    }
}

/// `GET /api/players/{name}` agrees with the expected totals, rank included.
async fn check_players(h: &Harness, totals: &BTreeMap<String, Totals>) {
    let mut c = h.client();
    for (name, t) in totals {
        let p = c.player(name).await;
        assert_eq!(p["username"], name.as_str());
        assert_eq!(p["variant"], "flip");
        assert_eq!(p["score"], t.score, "{name}: {p}");
        assert_eq!(p["wins"], t.wins, "{name}: {p}");
        assert_eq!(p["draws"], t.draws, "{name}: {p}");
        assert_eq!(p["losses"], t.losses, "{name}: {p}");
        assert_eq!(p["games"], t.games, "{name}: {p}");
        let rank = Rank::for_score(t.score);
        assert_eq!(p["rank"]["level"], rank.level, "{name}: {p}");
        assert_eq!(p["rank"]["chinese"], rank.chinese, "{name}: {p}");
    }
}

/// Plays the attacker and defender policies over the sockets until the game ends.
/// A game that drags on past 200 steps is ended by the defender resigning.
async fn play_policies(table: &mut Table, attacker: Seat, rng: &mut Rng) {
    while !table.game.is_over() {
        if table.game.steps() >= 200 {
            table.play(attacker.other(), Action::Resign).await;
            break;
        }
        let seat = table.game.to_move();
        let action = if seat == attacker {
            policy::attacker(&table.game, rng)
        } else {
            policy::defender(&table.game, rng)
        };
        table.play(seat, action).await;
    }
}

/// (1) A whole rated game to a flag win; scores and ranks applied as RULES §3.1 says.
async fn flag_win(db: TestDb) {
    let h = Harness::start(db);
    let a = h.player("attacker").await;
    let b = h.player("defender").await;
    let mut table = Table::open(&h, a, b, 30, true).await;
    let mut totals = BTreeMap::new();
    let mut rng = Rng::new(0x5EED);
    let mut attempts = 0;
    loop {
        attempts += 1;
        let attacker = table.seat_of("attacker");
        let base = attempts;
        play_policies(&mut table, attacker, &mut rng).await;
        let outcome = table.game.outcome().unwrap();
        let summary = table.summary().await;
        assert_eq!(summary["status"], "finished", "{summary}");
        // Written once, at the end, for the history pages and the ladder's records.
        let row = h.row(&table.id);
        assert_eq!(row.steps as u32, table.game.steps(), "{summary}");
        assert_eq!(summary["steps"], row.steps);
        assert_eq!(
            row.colour_south.as_deref(),
            table.game.colour_of(Seat::South).map(|c| c.name())
        );
        assert!(row.deadline_at.is_none());
        assert_eq!(
            summary["base"], base,
            "the base grows with each rematch: {summary}"
        );
        let record = table.record().await;
        let verdict = check_against_rules(&summary, &record);
        assert_eq!(
            verdict.game.outcome(),
            Some(outcome),
            "the mirror agrees with the replay"
        );
        let score = table.game.score(base).unwrap();
        assert_eq!(
            summary["score"],
            json!({"south": score[0], "north": score[1]})
        );
        // The last event tells both seats how it ended, with the score.
        let last = table.version;
        for seat in Seat::BOTH {
            let ev = table
                .socket(seat)
                .wait_for("the last event", |v| v["t"] == "event" && v["v"] == last)
                .await;
            assert_eq!(ev["d"]["outcome"]["reason"], outcome.reason.name(), "{ev}");
            assert_eq!(ev["d"]["score"], summary["score"], "{ev}");
        }
        tally(&mut totals, &table, &summary);
        if outcome.reason == EndReason::Flag {
            assert_eq!(outcome.winner, Some(attacker));
            assert_eq!(summary["result"], attacker.name());
            assert_eq!(summary["reason"], "flag");
            // The §3.1 row "B took A's flag", worked out here from the final position.
            let end = &verdict.game;
            let loser_colour = end.colour_of(attacker.other()).unwrap();
            let pieces_lost = end.position().lost(loser_colour);
            let times = match pieces_lost {
                24.. => 5,
                15..=23 => 3,
                6..=14 => 2,
                _ => 1,
            };
            let bonus = if end.position().hidden().is_empty() {
                2
            } else {
                0
            };
            let expected = times * base as i64 + bonus;
            assert_eq!(
                summary["score"],
                json!({attacker.name(): expected, attacker.other().name(): -expected}),
                "{pieces_lost} pieces lost, all face up: {}",
                bonus > 0
            );
            break;
        }
        eprintln!(
            "game {attempts} ended by {}; asking for a rematch",
            outcome.reason
        );
        assert!(attempts < 5, "no flag win in {attempts} games");
        table = table.rematch(&h).await;
    }
    check_players(&h, &totals).await;
    // Beside the finished game each player shows the score they brought to it (stored
    // with the game): today's less what this game changed.
    let summary = table.summary().await;
    for seat in Seat::BOTH {
        let name = table.seats[seat.index()].client.name.clone();
        let p = &summary["players"][seat.name()];
        let change = summary["score"][seat.name()]
            .as_i64()
            .expect("a rated game's change");
        assert_eq!(p["score"], totals[&name].score - change, "{summary}");
    }
}

/// (2) With one-second clocks, a player who never acts loses on the third timeout.
/// The other player's clock is one second too: on a machine slow enough that its
/// answer comes too late, its own timeout is followed like any event rather than
/// failing the test (it takes three of those to change the outcome).
async fn third_timeout_loses(db: TestDb) {
    let h = Harness::start(db);
    let a = h.player("sleepy").await;
    let b = h.player("awake").await;
    let mut table = Table::open(&h, a, b, 1, false).await;
    assert_eq!(table.row.seconds_per_action, 1);
    let idle = table.seat_of("sleepy");
    let active = idle.other();
    let mut rng = Rng::new(2);
    let mut timeouts = Vec::new();
    let started = Instant::now();
    let mut late = 0;
    while !table.game.is_over() {
        let next = table.version + 1;
        if table.game.to_move() == active {
            let a = policy::harmless(&table.game, &mut rng, true).unwrap();
            match table.try_play(active, a).await {
                Ok(_) => continue,
                // Refused as out of turn: the active seat's own clock ran out first.
                Err(e) => assert_eq!(e["code"], "illegal", "{e}"),
            }
        }
        // The timeout may have come before the refusal.
        let ev = table.socket(active).event_at(next).await;
        assert_eq!(ev["d"]["kind"], "timeout", "{ev}");
        if ev["d"]["seat"] == active.name() {
            late += 1;
            eprintln!("the active seat answered too late ({late}): {ev}");
            table.follow(active, Action::Timeout);
            continue;
        }
        assert_eq!(ev["d"]["seat"], idle.name(), "{ev}");
        table.follow(idle, Action::Timeout);
        timeouts.push(ev);
    }
    assert_eq!(
        timeouts.len(),
        3,
        "the third timeout loses ({late} late answers)"
    );
    assert!(
        started.elapsed() >= Duration::from_secs(2),
        "the clock waited"
    );
    let last = timeouts.last().unwrap();
    assert_eq!(
        last["d"]["outcome"],
        json!({"winner": active.name(), "reason": "timeouts"})
    );
    // Each timeout comes a second after the step before it.
    let record = table.record().await;
    let at: Vec<u64> = record["at_ms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    let actions = record["actions"].as_array().unwrap();
    for (i, act) in actions.iter().enumerate() {
        if act.get("timeout").is_some() {
            let before = if i == 0 { 0 } else { at[i - 1] };
            assert!(
                at[i] >= before + 900,
                "timeout {i} at {} ms after {before} ms",
                at[i]
            );
        }
    }
    let summary = table.summary().await;
    assert_eq!(summary["result"], active.name());
    assert_eq!(summary["reason"], "timeouts");
    let verdict = check_against_rules(&summary, &record);
    assert_eq!(verdict.game.timeouts(idle), 3);
    // A casual game changes nobody's score or counters.
    let totals = BTreeMap::from([
        ("sleepy".to_string(), Totals::default()),
        ("awake".to_string(), Totals::default()),
    ]);
    check_players(&h, &totals).await;
}

/// (3) Resigning is refused before 50 steps (`illegal`) and accepted after.
async fn resign_only_after_50_steps(db: TestDb) {
    let h = Harness::start(db);
    let a = h.player("quitter").await;
    let b = h.player("stayer").await;
    let mut table = Table::open(&h, a, b, 30, true).await;
    let mut rng = Rng::new(3);
    let quitter = table.seat_of("quitter");
    for _ in 0..2 {
        let m = table
            .socket(quitter)
            .act_err("resign", Value::Null, "illegal")
            .await;
        assert!(m.contains("50"), "the refusal says why: {m}");
    }
    table.harmless_steps(49, &mut rng).await;
    // On either seat's turn, still too early at 49 steps.
    for seat in Seat::BOTH {
        table
            .socket(seat)
            .act_err("resign", Value::Null, "illegal")
            .await;
    }
    let summary = table.summary().await;
    assert_eq!(summary["status"], "running");
    assert_eq!(summary["steps"], 49, "refusals change nothing");
    table.harmless_steps(1, &mut rng).await;
    assert_eq!(table.game.steps(), 50);
    // Resigning is allowed on either seat's turn.
    table.play(quitter, Action::Resign).await;
    let summary = table.summary().await;
    assert_eq!(summary["status"], "finished");
    assert_eq!(summary["result"], quitter.other().name());
    assert_eq!(summary["reason"], "resign");
    // Harmless play captures nothing: the loser lost ≤ 5 pieces, so ±1 × base 1.
    assert_eq!(
        summary["score"],
        json!({quitter.name(): -1, quitter.other().name(): 1})
    );
    let record = table.record().await;
    check_against_rules(&summary, &record);
    let mut totals = BTreeMap::new();
    tally(&mut totals, &table, &summary);
    check_players(&h, &totals).await;
    // The other player sees the end too.
    let ev = table.socket(quitter.other()).wait_event("resign").await;
    assert_eq!(
        ev["d"]["outcome"],
        json!({"winner": quitter.other().name(), "reason": "resign"})
    );
}

/// (4) A draw offered and accepted after 50 steps: 0 : 0, a draw for both.
async fn draw_by_agreement(db: TestDb) {
    let h = Harness::start(db);
    let a = h.player("dove").await;
    let b = h.player("hawk").await;
    let mut table = Table::open(&h, a, b, 30, true).await;
    let mut rng = Rng::new(4);
    let dove = table.seat_of("dove");
    table
        .socket(dove)
        .act_err("offer_draw", Value::Null, "illegal")
        .await;
    table.harmless_steps(50, &mut rng).await;
    // Nothing to accept yet.
    table
        .socket(dove.other())
        .act_err("accept_draw", Value::Null, "illegal")
        .await;
    table.play(dove, Action::OfferDraw).await;
    let ev = table.socket(dove.other()).wait_event("offer_draw").await;
    assert_eq!(ev["d"]["seat"], dove.name());
    // One offer at a time.
    table
        .socket(dove)
        .act_err("offer_draw", Value::Null, "illegal")
        .await;
    table.play(dove.other(), Action::AcceptDraw).await;
    let ev = table.socket(dove).wait_event("accept_draw").await;
    assert_eq!(
        ev["d"]["outcome"],
        json!({"winner": null, "reason": "agreed"})
    );
    assert_eq!(ev["d"]["score"], json!({"south": 0, "north": 0}));
    let summary = table.summary().await;
    assert_eq!(summary["result"], "draw");
    assert_eq!(summary["reason"], "agreed");
    assert_eq!(summary["score"], json!({"south": 0, "north": 0}));
    check_against_rules(&summary, &table.record().await);
    let mut totals = BTreeMap::new();
    tally(&mut totals, &table, &summary);
    assert_eq!(totals["dove"].draws, 1);
    check_players(&h, &totals).await;
}

/// Ends a game quickly: 50 harmless steps, then `loser` resigns.
async fn fifty_steps_and_resign(table: &mut Table, loser: Seat, rng: &mut Rng) {
    table.harmless_steps(50, rng).await;
    table.play(loser, Action::Resign).await;
}

/// (5) A rematch is a new game at base 2 between the same two, and it is playable.
async fn rematch_doubles_the_base(db: TestDb) {
    let h = Harness::start(db);
    let a = h.player("first").await;
    let b = h.player("second").await;
    let mut table = Table::open(&h, a, b, 30, true).await;
    let mut rng = Rng::new(5);
    table
        .socket(Seat::South)
        .act_err("rematch", Value::Null, "illegal")
        .await;
    let loser = table.seat_of("first");
    fifty_steps_and_resign(&mut table, loser, &mut rng).await;
    let old = table.id.clone();
    let mut totals = BTreeMap::new();
    let summary = table.summary().await;
    assert_eq!(summary["base"], 1);
    tally(&mut totals, &table, &summary);

    // One seat asks: the other hears of it; asking twice changes nothing.
    let v = table
        .socket(loser)
        .act("rematch", Value::Null)
        .await
        .unwrap();
    assert_eq!(v, table.version + 1);
    let ev = table
        .socket(loser.other())
        .wait_event("rematch_offer")
        .await;
    assert_eq!(ev["d"]["seat"], loser.name());
    let again = table
        .socket(loser)
        .act("rematch", Value::Null)
        .await
        .unwrap();
    assert_eq!(again, v, "a second ask is acknowledged without a new event");
    let v2 = table
        .socket(loser.other())
        .act("rematch", Value::Null)
        .await
        .unwrap();
    assert_eq!(v2, v + 1);
    let ev = table.socket(loser).wait_event("rematch").await;
    assert_eq!(ev["v"], v2 + 1);
    let next = ev["d"]["next"].as_str().unwrap().to_string();
    // A socket opened now on the old game sees the rematch in its state.
    let watcher = h.client();
    let mut s = watcher.game_socket(&old).await;
    let st = s.wait_state().await;
    assert_eq!(
        st["d"]["rematch"],
        json!({"south": true, "north": true, "next": next})
    );
    assert_eq!(st["d"]["game"]["next_game"], next.as_str());

    let mut seats = table.seats.into_iter();
    let (x, y) = (seats.next().unwrap(), seats.next().unwrap());
    let mut table = Table::seat(&h, &next, x.client, y.client).await;
    let summary = table.summary().await;
    assert_eq!(summary["base"], 2, "{summary}");
    assert_eq!(summary["previous_game"], old.as_str());
    assert_eq!(summary["rated"], true);
    assert_eq!(summary["seconds_per_action"], 30);
    let mut names: Vec<&str> = ["south", "north"]
        .iter()
        .map(|s| summary["players"][s]["username"].as_str().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["first", "second"]);
    // Playable: flips and moves are acknowledged, and the loser pays twice the base.
    let loser = table.seat_of("second");
    fifty_steps_and_resign(&mut table, loser, &mut rng).await;
    let summary = table.summary().await;
    assert_eq!(summary["reason"], "resign");
    assert_eq!(
        summary["score"],
        json!({loser.name(): -2, loser.other().name(): 2})
    );
    check_against_rules(&summary, &table.record().await);
    tally(&mut totals, &table, &summary);
    check_players(&h, &totals).await;
}

/// An event's `d` without what only the newest event carries: the clock, and the
/// legal actions of the seat to move.
fn without_clock(ev: &Value) -> Value {
    let mut ev = ev.clone();
    if let Some(d) = ev["d"].as_object_mut() {
        for k in ["clock", "legal", "repetition_warnings"] {
            d.remove(k);
        }
    }
    ev
}

/// (6) A socket that reconnects with `?v=N` gets exactly events N+1 … current, in
/// order, and nothing else; one whose `v` is ahead of the server gets a state.
async fn reconnect_gets_exactly_the_missed_events(db: TestDb) {
    let h = Harness::start(db);
    let a = h.player("leaver").await;
    let b = h.player("player").await;
    let mut table = Table::open(&h, a, b, 60, false).await;
    let mut rng = Rng::new(6);
    let spectator = h.client();
    let mut spec = spectator.game_socket(&table.id).await;
    spec.wait_state().await;
    table.harmless_steps(6, &mut rng).await;
    let n = table.version;
    let leaver = table.seat_of("leaver");
    let id = table.id.clone();

    // The leaver's socket goes; a second socket of theirs plays on, caught up.
    let mut second = table
        .seated(leaver)
        .client
        .socket(&format!("/ws/game/{id}?v={n}"))
        .await;
    let old = std::mem::replace(table.socket(leaver), second);
    old.close().await;
    assert_eq!(
        table.socket(leaver).barrier().await,
        Vec::<Value>::new(),
        "a socket already at the current version is sent nothing"
    );
    let live_from = table.socket(leaver).received.len();
    table.harmless_steps(7, &mut rng).await;
    let current = table.version;
    assert_eq!(current, n + 7);
    // What the leaver's live socket saw, in order.
    table.socket(leaver).wait_version(current).await;
    let live: Vec<Value> = table.socket(leaver).received[live_from..]
        .iter()
        .filter(|m| m["t"] == "event")
        .cloned()
        .collect();
    assert_eq!(live.len(), 7, "{live:#?}");

    // A player's socket and a spectator's socket catching up from N.
    let leaver_client = &table.seats[leaver.index()].client;
    second = leaver_client.socket(&format!("/ws/game/{id}?v={n}")).await;
    let mut spec2 = spectator.socket(&format!("/ws/game/{id}?v={n}")).await;
    let got = second.barrier().await;
    let versions: Vec<u64> = got.iter().map(|m| m["v"].as_u64().unwrap_or(0)).collect();
    assert_eq!(
        versions,
        ((n + 1)..=current).collect::<Vec<_>>(),
        "{got:#?}"
    );
    assert!(
        got.iter().all(|m| m["t"] == "event"),
        "only events: {got:#?}"
    );
    for (replayed, seen) in got.iter().zip(&live) {
        assert_eq!(without_clock(replayed), without_clock(seen));
    }
    assert!(
        got.last().unwrap()["d"]["clock"].is_object(),
        "the newest event has the clock"
    );
    let spec_got = spec2.barrier().await;
    let spec_versions: Vec<u64> = spec_got
        .iter()
        .map(|m| m["v"].as_u64().unwrap_or(0))
        .collect();
    assert_eq!(spec_versions, versions, "{spec_got:#?}");
    // The spectator's live socket saw the same events as its replay.
    spec.wait_version(current).await;
    let spec_live: Vec<Value> = spec
        .received
        .iter()
        .filter(|m| m["t"] == "event" && m["v"].as_u64().unwrap() > n)
        .cloned()
        .collect();
    let mut spec_live_by_v = BTreeMap::new();
    for m in spec_live {
        spec_live_by_v.insert(m["v"].as_u64().unwrap(), without_clock(&m));
    }
    for m in &spec_got {
        assert_eq!(
            Some(&without_clock(m)),
            spec_live_by_v.get(&m["v"].as_u64().unwrap())
        );
    }

    // Play goes on from the caught-up socket.
    let old = std::mem::replace(table.socket(leaver), second);
    old.close().await;
    table.harmless_steps(2, &mut rng).await;
    let current = table.version;

    // Ahead of the server: a state. At the current version: nothing. From 0: all.
    let mut ahead = table.seats[leaver.index()]
        .client
        .socket(&format!("/ws/game/{id}?v={}", current + 5))
        .await;
    let st = ahead.recv().await;
    assert_eq!(st["t"], "state", "{st}");
    assert_eq!(st["v"], current);
    assert_eq!(st["d"]["you"], leaver.name());
    assert_eq!(ahead.barrier().await, Vec::<Value>::new(), "nothing else");
    let mut now = table.seats[leaver.index()]
        .client
        .socket(&format!("/ws/game/{id}?v={current}"))
        .await;
    assert_eq!(now.barrier().await, Vec::<Value>::new());
    let mut all = spectator.socket(&format!("/ws/game/{id}?v=0")).await;
    let got = all.barrier().await;
    let versions: Vec<u64> = got.iter().map(|m| m["v"].as_u64().unwrap()).collect();
    assert_eq!(versions, (1..=current).collect::<Vec<_>>());
    // Without v: a state.
    let mut fresh = spectator.game_socket(&id).await;
    let st = fresh.recv().await;
    assert_eq!(
        (st["t"].as_str(), st["v"].as_u64()),
        (Some("state"), Some(current))
    );
    assert_eq!(st["d"]["you"], Value::Null);
}

/// (6b) A socket more than 200 events behind gets one state instead of the events;
/// exactly 200 behind still gets them one by one.
async fn far_behind_reconnect_gets_a_state(db: TestDb) {
    let h = Harness::start(db);
    let a = h.player("long").await;
    let b = h.player("game").await;
    let mut table = Table::open(&h, a, b, 60, false).await;
    let id = table.id.clone();
    let mut rng = Rng::new(66);
    while table.version < 205 {
        if table.version % 70 == 69 {
            // Fresh sockets (caught up, so sent nothing) keep each under the server's
            // message budget without waiting.
            for seat in Seat::BOTH {
                let path = format!("/ws/game/{id}?v={}", table.version);
                let fresh = table.seats[seat.index()].client.socket(&path).await;
                std::mem::replace(table.socket(seat), fresh).close().await;
            }
        }
        let action = policy::long_game(&table.game, &mut rng);
        table.step(action).await;
    }
    assert!(!table.game.is_over(), "{:?}", table.game.outcome());
    let current = table.version;
    let watcher = h.client();
    let mut s = watcher
        .socket(&format!("/ws/game/{id}?v={}", current - 200))
        .await;
    let got = s.barrier().await;
    let versions: Vec<u64> = got.iter().map(|m| m["v"].as_u64().unwrap()).collect();
    assert_eq!(versions, ((current - 199)..=current).collect::<Vec<_>>());
    assert!(got.iter().all(|m| m["t"] == "event"));
    for behind in [201, current] {
        let mut s = watcher
            .socket(&format!("/ws/game/{id}?v={}", current - behind))
            .await;
        let st = s.recv().await;
        assert_eq!(st["t"], "state", "{behind} behind: {st}");
        assert_eq!(st["v"], current);
        assert_eq!(st["d"]["view"]["steps"], table.game.steps());
        assert_eq!(s.barrier().await, Vec::<Value>::new(), "nothing else");
    }
}

/// (7) After a SIGKILL and a restart on the same database the game goes on: every
/// acknowledged action is still there and the action clock keeps its deadline.
async fn restart_keeps_actions_and_deadline(db: TestDb) {
    let mut h = Harness::start(db);
    let a = h.player("north_star").await;
    let b = h.player("south_wind").await;
    // The kill, the restart and the reconnects must all come before the clock runs
    // out; ten seconds leave room for a loaded machine.
    let spa = 10;
    let mut table = Table::open(&h, a, b, spa, false).await;
    let mut rng = Rng::new(7);
    table.harmless_steps(8, &mut rng).await;
    let before = table.record().await;
    assert_eq!(before["actions"].as_array().unwrap().len(), 8);
    // The action clock's deadline as a seat sees it: a running game's row keeps only
    // its actions, and the deadline follows from the last one's time.
    let (_, _, lo, hi) = clock_deadline(&table.seats[0].client, &table.id).await;
    assert_eq!(
        h.row(&table.id).steps,
        0,
        "steps are not written one by one"
    );

    h.server.restart_hard();
    let base = h.base();
    for s in &mut table.seats {
        s.client.base = base.clone();
        s.socket.until_closed().await;
    }
    let after = table.record().await;
    assert_eq!(
        after["actions"], before["actions"],
        "every acknowledged action survives"
    );
    assert_eq!(after["at_ms"], before["at_ms"]);
    let summary = table.summary().await;
    assert_eq!(summary["status"], "running");
    assert_eq!(summary["steps"], 8);

    let id = table.id.clone();
    for seat in Seat::BOTH {
        let (s, st, lo_now, hi_now) = clock_deadline(&table.seats[seat.index()].client, &id).await;
        table.seats[seat.index()].socket = s;
        assert_eq!(st["v"], 8, "{st}");
        assert_eq!(st["d"]["view"]["steps"], 8);
        // A fresh deadline would lie after the restart, past `hi`.
        let remaining = st["d"]["clock"]["remaining_ms"].as_i64().unwrap();
        assert!(
            lo_now <= hi && lo <= hi_now && remaining < spa as i64 * 1000,
            "the clock continues: deadline between {lo_now} and {hi_now}, \
             before the restart between {lo} and {hi}"
        );
    }
    // Nobody acts: the timeout comes at the old deadline, never before it. (How late
    // a loaded machine delivers it has no bound but the wait's; the state's clock
    // above is what tells the old deadline from a fresh one.)
    let idle = table.game.to_move();
    let ev = table.socket(idle.other()).wait_event("timeout").await;
    let at = junqi::db::now_ms();
    assert!(
        at >= lo,
        "the timeout came {} ms before the deadline",
        lo - at
    );
    assert_eq!(ev["v"], 9);
    assert_eq!(ev["d"]["seat"], idle.name());
    table.follow(idle, Action::Timeout);
    // And play goes on.
    table.harmless_steps(3, &mut rng).await;
    let last = table.record().await;
    let actions = last["actions"].as_array().unwrap();
    assert_eq!(actions.len(), 12);
    assert_eq!(actions[..8], before["actions"].as_array().unwrap()[..]);
    assert_eq!(actions[8], json!({"seat": idle.name(), "timeout": true}));
    assert_eq!(table.summary().await["steps"], 12);
}

/// A new socket of `client` on game `id`, its state, and bounds (ms since the epoch) of the
/// action clock's deadline it shows: the server worked `remaining_ms` out between the
/// socket's connect and the state's arrival, so the deadline lies in that window moved
/// on by `remaining_ms`. A slow machine widens the bounds but cannot break them.
async fn clock_deadline(client: &support::Client, id: &str) -> (support::Socket, Value, i64, i64) {
    let asked = junqi::db::now_ms();
    let mut s = client.game_socket(id).await;
    let st = s.wait_state().await;
    let got = junqi::db::now_ms();
    let remaining = st["d"]["clock"]["remaining_ms"]
        .as_i64()
        .unwrap_or_else(|| panic!("a clock in {st}"));
    (s, st, asked + remaining, got + remaining)
}

/// The scanner looks everywhere a message can hold a cell: a delta, the state's last
/// event, a route. A leaked identity in any of them fails the test.
#[test]
fn the_scanner_catches_leaks_in_deltas_and_last() {
    for leaked in [
        json!({"t": "event", "v": 3, "d": {"board": {"c3": {"piece": "mine", "colour": "red", "face": "down"}}}}),
        json!({"t": "state", "v": 3, "d": {"last": {"board": {"c3": {"colour": "blue", "face": "down"}}}}}),
    ] {
        let caught = std::panic::catch_unwind(|| scan_for_hidden(&leaked, ""));
        assert!(caught.is_err(), "not caught: {leaked}");
    }
    scan_for_hidden(
        &json!({"d": {"board": {"c3": {"face": "down"}, "a1": null}, "route": ["a2", "a3"]}}),
        "",
    );
}

/// Every cell of a face-down piece is `{"face":"down"}` and nothing more, anywhere.
fn scan_for_hidden(v: &Value, path: &str) {
    match v {
        Value::Object(m) => {
            if m.get("face").and_then(Value::as_str) == Some("down") {
                assert!(
                    !m.contains_key("piece") && !m.contains_key("colour"),
                    "a face-down cell says what it is at {path}: {v}"
                );
            }
            for (k, x) in m {
                scan_for_hidden(x, &format!("{path}.{k}"));
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                scan_for_hidden(x, &format!("{path}[{i}]"));
            }
        }
        _ => {}
    }
}

fn cell_of(token: junqi::rules::Token) -> Value {
    if token.shown {
        json!({"piece": token.piece, "colour": token.colour, "face": "up"})
    } else {
        json!({"face": "down"})
    }
}

/// Checks one message against the true game at its version.
fn check_message(msg: &Value, snapshots: &[Game], secrets: &[String]) {
    let text = msg.to_string();
    for s in secrets {
        assert!(
            !text.contains(s.as_str()),
            "a message holds a secret: {text}"
        );
    }
    scan_for_hidden(msg, "");
    let Some(v) = msg["v"].as_u64().map(|v| v as usize) else {
        return;
    };
    match msg["t"].as_str() {
        Some("state") if msg["d"]["view"].is_null() => {
            assert_eq!(
                msg["d"]["game"]["status"], "open",
                "only an open game has no view"
            );
        }
        Some("state") => {
            let game = &snapshots[v];
            let board = msg["d"]["view"]["board"].as_object().expect("a board");
            let tokens: Vec<_> = game.position().tokens().collect();
            assert_eq!(board.len(), tokens.len(), "one cell per piece");
            for (sq, t) in tokens {
                assert_eq!(board[&sq.to_string()], cell_of(t), "{sq} at version {v}");
            }
        }
        Some("event") if v >= 1 && v < snapshots.len() => {
            let before = &snapshots[v - 1];
            let d = &msg["d"];
            // The delta shows each square it names exactly as the game now has it.
            for (sq, cell) in d["board"].as_object().into_iter().flatten() {
                let at: junqi::rules::Square = sq.parse().unwrap();
                let truth = snapshots[v].position().get(at).map_or(Value::Null, cell_of);
                assert_eq!(cell, &truth, "{sq} in the delta of version {v}");
            }
            match d["kind"].as_str() {
                Some("flip") => {
                    let at: junqi::rules::Square = d["at"].as_str().unwrap().parse().unwrap();
                    let t = before.position().get(at).expect("a piece was there");
                    assert!(!t.shown, "only a face-down piece is flipped");
                    assert_eq!(d["piece"], json!(t.piece));
                    assert_eq!(d["colour"], json!(t.colour));
                }
                Some("move") => {
                    for key in ["from", "to"] {
                        let sq: junqi::rules::Square = d[key].as_str().unwrap().parse().unwrap();
                        if let Some(t) = before.position().get(sq) {
                            assert!(t.shown, "a move involves face-up pieces only");
                        }
                    }
                    assert_eq!(d["mover"]["face"], "up");
                }
                _ => {}
            }
        }
        _ => {}
    }
}

/// (8) Nothing a player or a spectator receives names a face-down piece; the record
/// holds no deal or salt before the end; the log never holds the salt or the deal.
async fn face_down_pieces_stay_hidden(db: TestDb) {
    hidden_from(db, false).await;
}

/// (8b) The same when the players and a watcher are bots on their API tokens.
async fn face_down_pieces_stay_hidden_from_bots(db: TestDb) {
    hidden_from(db, true).await;
}

async fn hidden_from(db: TestDb, bots: bool) {
    let h = Harness::start(db);
    let a = h.player_or_bot("red_team", bots).await;
    let b = h.player_or_bot("blue_team", bots).await;
    let watcher = h.player_or_bot("watcher", bots).await;
    let mut table = Table::open(&h, a, b, 30, false).await;
    let id = table.id.clone();
    let mut spectators = [
        watcher.game_socket(&id).await,
        h.client().game_socket(&id).await,
    ];
    let salt = table.row.salt.clone().unwrap();
    let deal_text = table.row.deal.clone().unwrap();
    // The commitment's pre-image starts with the first squares' entries.
    let preimage: Vec<String> = junqi::rules::Square::all()
        .filter_map(|s| table.deal.get(s).map(|(p, c)| format!("{s}:{p}:{c}")))
        .take(4)
        .collect();
    let preimage = preimage.join(";");
    let secrets = vec![salt.clone(), deal_text.clone(), preimage.clone()];

    let mut snapshots = vec![table.game.clone()];
    let mut rng = Rng::new(8);
    let attacker = Seat::South;
    let mut checked_midgame = false;
    while !table.game.is_over() {
        let seat = table.game.to_move();
        let action = if table.game.steps() >= 200 {
            Action::Resign
        } else if seat == attacker {
            policy::attacker(&table.game, &mut rng)
        } else {
            policy::defender(&table.game, &mut rng)
        };
        table.play(seat, action).await;
        snapshots.push(table.game.clone());
        // The deal is random, so a game may end early; a few steps in, every deal
        // is still running (colours need two flips and a flag must be turned up).
        if !checked_midgame && table.game.steps() >= 4 && !table.game.is_over() {
            checked_midgame = true;
            let rec = table.record().await;
            assert!(rec.get("deal").is_none(), "no deal before the end: {rec}");
            assert!(rec.get("salt").is_none(), "no salt before the end: {rec}");
            assert_eq!(
                rec["commitment"],
                table.row.commitment.clone().unwrap().as_str()
            );
            assert_eq!(
                rec["actions"].as_array().unwrap().len(),
                table.game.steps() as usize
            );
            // A state in mid-game, for a spectator and a player.
            let mut s = h.client().game_socket(&id).await;
            let st = s.wait_state().await;
            check_message(&st, &snapshots, &secrets);
        }
    }
    assert!(checked_midgame);
    let mut all = Vec::new();
    for s in table
        .seats
        .iter_mut()
        .map(|s| &mut s.socket)
        .chain(spectators.iter_mut())
    {
        s.barrier().await;
        all.extend(s.received.iter().cloned());
    }
    assert!(
        all.len() > 4 * (table.version as usize),
        "every socket heard every event"
    );
    for msg in &all {
        check_message(msg, &snapshots, &secrets);
    }
    // Fresh states after the end, too.
    for c in [&watcher, &table.seats[0].client] {
        let mut s = c.game_socket(&id).await;
        check_message(&s.wait_state().await, &snapshots, &secrets);
    }
    // After the end the record gives deal and salt, and they match the commitment.
    let rec = table.record().await;
    assert!(rec.get("deal").is_some() && rec["salt"] == salt.as_str());
    check_against_rules(&table.summary().await, &rec);
    let log = h.log();
    assert!(log.contains("junqi listening on"), "the log is captured");
    for s in &secrets {
        assert!(!log.contains(s.as_str()), "the log holds a secret ({s})");
    }
}

/// A step the computer played for `seat` in 托管, followed in the mirror.
fn follow_stand_in(table: &mut Table, seat: Seat, ev: &Value) {
    assert_eq!(ev["d"]["tuoguan"], true, "only 托管 plays meanwhile: {ev}");
    let (by, action) = support::computer::event_action(ev).expect("a step");
    assert_eq!(by, seat, "{ev}");
    assert_eq!(ev["v"], table.version + 1, "{ev}");
    table.follow(by, action);
}

/// A player without a socket for the grace period (3 s here) loses by escape; coming
/// back in time cancels it. The escaper pays 10 × base (RULES §3.1). Meanwhile the
/// computer stands in for the absent seat from a quarter of the grace on (断线托管,
/// tests/tuoguan_two_player.rs): its steps are the only events before the ruling.
///
/// The grace runs on the server's clock, so the test keeps its own waits off the path
/// to it: away and back takes a few round trips and one short pause (a loaded machine
/// has all of the 3 s for them), and "nothing happened" is checked once the first
/// absence's deadline, as the presence message gave it, has passed.
async fn escape_after_the_grace_period(db: TestDb) {
    const GRACE_MS: i64 = 3_000;
    let h = Harness::start_with_grace(db, GRACE_MS as u64 / 1000);
    let a = h.player("runner").await;
    let b = h.player("stayer").await;
    let mut table = Table::open(&h, a, b, 30, true).await;
    let mut rng = Rng::new(12);
    table.harmless_steps(4, &mut rng).await;
    let runner = table.seat_of("runner");
    let id = table.id.clone();
    let path = format!("/ws/game/{id}?v={}", table.version);

    // Away for a moment, then back: nothing happens.
    let gone = std::mem::replace(table.socket(runner), h.client().game_socket(&id).await);
    gone.close().await;
    let p = table
        .socket(runner.other())
        .wait_for("presence", |v| v["t"] == "presence")
        .await;
    let told = Instant::now();
    assert_eq!(p["d"]["connected"][runner.name()], false, "{p}");
    assert_eq!(p["d"]["connected"][runner.other().name()], true, "{p}");
    // The present seat sees the countdown to the escape ruling, counting down.
    let first = p["d"]["escape_ms"][runner.name()]
        .as_i64()
        .expect("a countdown");
    assert!(first > GRACE_MS - 1000 && first <= GRACE_MS, "{p}");
    assert_eq!(
        p["d"]["escape_ms"][runner.other().name()],
        Value::Null,
        "{p}"
    );
    // Not a wait for anything: the countdown must have moved by at least this pause,
    // however long a slow machine makes it.
    let pause = Duration::from_millis(100);
    actix_web::rt::time::sleep(pause).await;
    let mut watcher = h.client().game_socket(&id).await;
    let st = watcher.wait_state().await;
    let later = st["d"]["presence"]["escape_ms"][runner.name()]
        .as_i64()
        .expect("the state carries the countdown");
    assert!(
        later <= first - pause.as_millis() as i64 && later > 0,
        "{first} then {later}"
    );
    assert_eq!(st["d"]["connected"][runner.name()], false, "{st}");
    let back = table.seats[runner.index()].client.socket(&path).await;
    *table.socket(runner) = back;
    // (A slow machine may have let 断线托管 begin meanwhile, after a quarter of the
    // grace: its presence message comes first then.)
    let p = table
        .socket(runner.other())
        .wait_for("presence", |v| {
            v["t"] == "presence" && v["d"]["connected"][runner.name()] == true
        })
        .await;
    assert!(
        told.elapsed() < Duration::from_millis(first as u64),
        "back in {:?}, past the grace: the machine is too slow for this test",
        told.elapsed()
    );
    assert_eq!(p["d"]["connected"][runner.name()], true, "{p}");
    assert_eq!(p["d"]["escape_ms"][runner.name()], Value::Null, "{p}");
    // The first absence would have ended the game `first` ms after the presence
    // message was written (before it came). Once that has passed, a barrier through
    // the game's task shows that no escape was sent. (A server running late could
    // only make this pass wrongly, never fail wrongly.)
    let ruling = told + Duration::from_millis(first as u64) + Duration::from_millis(500);
    actix_web::rt::time::sleep_until(ruling.into()).await;
    let heard = table.socket(runner.other()).barrier().await;
    let (stood_in, others): (Vec<&Value>, Vec<&Value>) = (heard.iter())
        .filter(|m| m["t"] == "event")
        .partition(|m| m["d"]["tuoguan"] == true);
    assert!(others.is_empty(), "back within the grace period: {heard:?}");
    for ev in stood_in {
        follow_stand_in(&mut table, runner, ev);
    }
    assert_eq!(
        table.summary().await["status"],
        "running",
        "back within the grace period"
    );
    table.harmless_steps(2, &mut rng).await;

    // Away for good: after a quarter of the grace the computer stands in for the runner
    // (断线托管) and plays their turn if it is theirs; the escape comes at the grace.
    let gone = std::mem::replace(table.socket(runner), h.client().game_socket(&id).await);
    let left = Instant::now();
    gone.close().await;
    let ev = table.socket(runner.other()).wait_event("escape").await;
    let seen = table.version;
    let before: Vec<Value> = (table.socket(runner.other()).received.iter())
        .filter(|m| m["t"] == "event" && m["v"].as_u64() < ev["v"].as_u64())
        .filter(|m| m["v"].as_u64() > Some(seen))
        .cloned()
        .collect();
    for step in &before {
        follow_stand_in(&mut table, runner, step);
    }
    // Never early; how late a loaded machine may make it is bounded by the wait alone.
    let waited = left.elapsed();
    assert!(
        waited >= Duration::from_millis(GRACE_MS as u64 - 200),
        "escape after {waited:?}"
    );
    assert_eq!(ev["v"], table.version + 1);
    assert_eq!(ev["d"]["seat"], runner.name());
    assert_eq!(
        ev["d"]["outcome"],
        json!({"winner": runner.other().name(), "reason": "escape"})
    );
    table.follow(runner, Action::Escape);
    let summary = table.summary().await;
    assert_eq!(summary["reason"], "escape");
    // Harmless play took nothing, and the stand-in played one step at most (the other
    // seat waited): the winner gets 0 × base, the escaper −10 × base.
    assert_eq!(
        summary["score"],
        json!({runner.name(): -10, runner.other().name(): 0})
    );
    assert_eq!(ev["d"]["score"], summary["score"]);
    let rule = &ev["d"]["result"]["rule"];
    assert_eq!(rule["code"], "escape", "{ev}");
    assert_eq!(
        (rule["times"].as_i64(), rule["loser_times"].as_i64()),
        (Some(0), Some(10))
    );
    // The band of lost pieces that made the winner's multiplier 0, for the page to say.
    assert_eq!(rule["band"], json!({"from": 0, "to": 5}), "{ev}");
    assert_eq!(ev["d"]["result"]["score"], summary["score"]);
    check_against_rules(&summary, &table.record().await);
    let mut totals = BTreeMap::new();
    tally(&mut totals, &table, &summary);
    check_players(&h, &totals).await;
}
