//! `--crash`: plays games, kills the server with SIGKILL, starts it again on the same
//! database, and checks every game's stored actions against what its seats sent and
//! saw acknowledged; then every game reconnects (`?v=<last version>`) and plays on,
//! for the next round.
//!
//! The actions a game's seats send are in the game's own order (a seat acts only on
//! the legal actions the opponent's last action brought it), so the check is a
//! comparison of two sequences: the stored flips and moves (timeouts, which only the
//! server makes, are left out) and the sent ones. Every acknowledged action must be
//! stored at its place (else it is *lost*); nothing may be stored that was not sent
//! there (else it is *doubled*: beyond the sent ones, or another action in a sent
//! one's place). An action sent but not acknowledged when the server died may be
//! stored or not.

use super::LoadArgs;
use super::accounts::Pair;
use super::levels::{Clients, start_games};
use super::protocol::{Act, Seat, StoredAction};
use super::server::Server;
use super::shared::{Ctx, Ledger};
use crate::db::{self, DbError, Pool};
use actix_web::rt::time::sleep;
use serde::Serialize;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::rc::Rc;
use std::time::{Duration, Instant};

#[derive(Debug, Default, Serialize)]
pub struct Round {
    pub round: usize,
    /// Games checked (every game played so far, finished ones too).
    pub games: usize,
    /// Actions acknowledged to the seats.
    pub acked: usize,
    /// Flips and moves stored.
    pub stored: usize,
    pub lost: usize,
    pub doubled: usize,
    /// Actions in flight at the kill: stored after all, or not.
    pub in_flight_stored: usize,
    pub in_flight_dropped: usize,
    /// Seconds from the kill until the restarted server listened.
    pub restart_s: f64,
    /// Pairs that had an action acknowledged after reconnecting, and those that did
    /// not within the round's playing time.
    pub resumed: usize,
    pub stalled: usize,
}

#[derive(Debug, Default, Serialize)]
pub struct CrashReport {
    pub games: usize,
    pub rounds: Vec<Round>,
    pub lost: usize,
    pub doubled: usize,
    pub stalled: usize,
    /// Errors while the server was up (failures while it was down are expected).
    pub errors: u64,
    pub error_kinds: BTreeMap<String, u64>,
}

impl CrashReport {
    pub fn failed(&self) -> bool {
        self.lost > 0 || self.doubled > 0 || self.stalled > 0
    }

    pub fn text(&self) -> String {
        let mut out = format!(
            "crash: {} games; round: games checked, acked, stored, lost, doubled, in flight \
             stored/dropped, restart s, pairs resumed/stalled\n",
            self.games
        );
        for r in &self.rounds {
            let _ = writeln!(
                out,
                "  {}: {} games, {} acked, {} stored, {} lost, {} doubled, {}/{} in flight, \
                 {:.1} s, {}/{}",
                r.round,
                r.games,
                r.acked,
                r.stored,
                r.lost,
                r.doubled,
                r.in_flight_stored,
                r.in_flight_dropped,
                r.restart_s,
                r.resumed,
                r.stalled
            );
        }
        let _ = writeln!(
            out,
            "crash: {} lost, {} doubled, {} stalled; {} errors {:?}: {}",
            self.lost,
            self.doubled,
            self.stalled,
            self.errors,
            self.error_kinds,
            if self.failed() { "FAILED" } else { "ok" }
        );
        out
    }
}

pub async fn run(
    ctx: &Rc<Ctx>,
    args: &LoadArgs,
    server: &mut Server,
    pool: &Pool,
    pairs: &[Rc<Pair>],
    clients: &Clients,
) -> Result<CrashReport, String> {
    let mut report = CrashReport {
        games: args.crash_games,
        ..CrashReport::default()
    };
    let mut spawned = 0;
    eprintln!("crash: starting {} games", args.crash_games);
    let ramp = Duration::from_secs(args.ramp_seconds);
    let all = args.crash_games;
    if !start_games(
        ctx,
        pairs,
        clients,
        &mut spawned,
        all,
        args.starts_in_flight,
        ramp,
    )
    .await
    {
        eprintln!(
            "crash: not all games started within {} s",
            args.ramp_seconds
        );
    }
    let play = Duration::from_secs(args.crash_seconds);
    eprintln!(
        "crash: {} games playing; {} s until the kill",
        ctx.playing.get(),
        play.as_secs()
    );
    sleep(play).await;
    for round in 1..=args.crash_rounds {
        ctx.paused.set(true);
        let killed = Instant::now();
        server.kill();
        // Every task notices its sockets close and waits.
        let deadline = Instant::now() + Duration::from_secs(20);
        while ctx.parked.get() < spawned && Instant::now() < deadline {
            sleep(Duration::from_millis(20)).await;
        }
        eprintln!(
            "crash {round}: killed; {} of {spawned} games waiting",
            ctx.parked.get()
        );
        server.restart()?;
        *ctx.base.borrow_mut() = format!("http://{}", server.addr);
        let restart_s = killed.elapsed().as_secs_f64();
        let mut r = {
            let ledgers = ctx.ledgers.as_ref().expect("crash mode keeps ledgers");
            check(pool, &ledgers.borrow()).map_err(|e| format!("the check: {e}"))?
        };
        r.round = round;
        r.restart_s = (restart_s * 10.0).round() / 10.0;
        eprintln!(
            "crash {round}: restarted in {:.1} s; {} games, {} acked, {} lost, {} doubled",
            r.restart_s, r.games, r.acked, r.lost, r.doubled
        );
        let resumed_at = Instant::now();
        ctx.paused.set(false);
        sleep(play).await;
        r.resumed = ctx.last_ack.borrow()[..spawned]
            .iter()
            .filter(|t| t.is_some_and(|t| t > resumed_at))
            .count();
        r.stalled = spawned - r.resumed;
        report.lost += r.lost;
        report.doubled += r.doubled;
        report.stalled += r.stalled;
        report.rounds.push(r);
    }
    let stats = ctx.stats.borrow();
    report.errors = stats.error_count();
    report.error_kinds = stats.errors.clone();
    Ok(report)
}

/// Compares every game's sent actions with its stored ones, and settles the actions
/// that were in flight: stored ones count as acknowledged from now on, the others
/// are forgotten (their seat is to move again).
pub fn check(pool: &Pool, ledgers: &[Rc<RefCell<Ledger>>]) -> Result<Round, DbError> {
    let mut conn = pool.get()?;
    let mut r = Round {
        games: ledgers.len(),
        ..Round::default()
    };
    for ledger in ledgers {
        let mut l = ledger.borrow_mut();
        let stored: Vec<(Seat, Act)> = db::games::actions(&mut conn, &l.game_id)?
            .iter()
            .filter_map(|row| serde_json::from_str::<StoredAction>(&row.action).ok())
            .filter_map(|s| Some((s.seat, s.act()?)))
            .collect();
        compare(&mut l, &stored, &mut r);
    }
    Ok(r)
}

fn compare(l: &mut Ledger, stored: &[(Seat, Act)], r: &mut Round) {
    r.stored += stored.len();
    let sent = l.sent.len();
    let mut keep = sent;
    for (i, s) in l.sent.iter_mut().enumerate() {
        let here = stored
            .get(i)
            .is_some_and(|&(seat, act)| seat == s.seat && act == s.act);
        if s.acked {
            r.acked += 1;
            if !here {
                r.lost += 1;
            }
        } else if here {
            r.in_flight_stored += 1;
            s.acked = true;
        } else if keep == sent {
            r.in_flight_dropped += 1;
            keep = i;
            l.restore = Some(s.seat);
        }
        if !here && i < stored.len() {
            r.doubled += 1;
        }
    }
    r.doubled += stored.len().saturating_sub(sent);
    l.sent.truncate(keep);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::shared::Sent;

    fn act(s: &str) -> Act {
        Act::Flip(serde_json::from_value(serde_json::json!(s)).unwrap())
    }

    fn ledger(sent: &[(&str, bool)]) -> Ledger {
        Ledger {
            game_id: "g".into(),
            pair: 0,
            sent: sent
                .iter()
                .enumerate()
                .map(|(i, &(a, acked))| Sent {
                    seat: if i % 2 == 0 { Seat::South } else { Seat::North },
                    act: act(a),
                    ack_id: i as u64 + 1,
                    acked,
                })
                .collect(),
            restore: None,
        }
    }

    fn stored(acts: &[&str]) -> Vec<(Seat, Act)> {
        acts.iter()
            .enumerate()
            .map(|(i, a)| (if i % 2 == 0 { Seat::South } else { Seat::North }, act(a)))
            .collect()
    }

    #[test]
    fn in_flight_actions_may_go_either_way() {
        let mut r = Round::default();
        let mut l = ledger(&[("a1", true), ("b1", true), ("c1", false)]);
        compare(&mut l, &stored(&["a1", "b1", "c1"]), &mut r);
        assert_eq!((r.lost, r.doubled, r.in_flight_stored), (0, 0, 1));
        assert!(l.sent.iter().all(|s| s.acked));

        let mut r = Round::default();
        let mut l = ledger(&[("a1", true), ("b1", false)]);
        compare(&mut l, &stored(&["a1"]), &mut r);
        assert_eq!((r.lost, r.doubled, r.in_flight_dropped), (0, 0, 1));
        assert_eq!((l.sent.len(), l.restore), (1, Some(Seat::North)));
    }

    #[test]
    fn finds_lost_and_doubled_actions() {
        let mut r = Round::default();
        compare(
            &mut ledger(&[("a1", true), ("b1", true)]),
            &stored(&["a1"]),
            &mut r,
        );
        assert_eq!((r.lost, r.doubled), (1, 0));

        let mut r = Round::default();
        compare(&mut ledger(&[("a1", true)]), &stored(&["a1", "a1"]), &mut r);
        assert_eq!((r.lost, r.doubled), (0, 1));

        let mut r = Round::default();
        compare(
            &mut ledger(&[("a1", true), ("b1", true)]),
            &stored(&["a1", "c1"]),
            &mut r,
        );
        assert_eq!((r.lost, r.doubled), (1, 1));
    }
}
