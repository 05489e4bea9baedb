//! `junqi arena`: two players (engine levels or baselines) play each other; each game
//! is played on one thread, so think times are per core, and `--threads` plays that
//! many games at once. Games come in pairs on the same deal (flip
//! chess) or the same first-move draw (standard), with the seats swapped, so each
//! player meets each side of the same start. The arena is the referee: it holds the
//! game and hands each player only what a socket for its seat would be sent (its
//! `View` and each action's `EventView` cut for it), from which the player's
//! information set is built.
//! With `JUNQI_ARENA_TRACE` set, every action and each game's last position go to
//! standard error (for reading a lost game).

use super::{Information, Player};
use crate::rules::deal::FlipStart;
use crate::rules::game::Applied;
use crate::rules::view::{EventView, View, Viewer};
use crate::rules::{Action, Game, Options, Seat, SetupKind, Variant};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// A proportion with its 95% Wilson score interval.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Interval {
    pub successes: u64,
    pub trials: u64,
    pub rate: f64,
    pub low: f64,
    pub high: f64,
}

impl Interval {
    pub fn wilson(successes: u64, trials: u64) -> Interval {
        if trials == 0 {
            return Interval {
                successes,
                trials,
                rate: 0.0,
                low: 0.0,
                high: 1.0,
            };
        }
        let z = 1.96f64;
        let n = trials as f64;
        let p = successes as f64 / n;
        let denom = 1.0 + z * z / n;
        let centre = (p + z * z / (2.0 * n)) / denom;
        let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
        Interval {
            successes,
            trials,
            rate: p,
            low: (centre - half).max(0.0),
            high: (centre + half).min(1.0),
        }
    }

    fn text(&self) -> String {
        format!(
            "{}/{} = {:.1}% (95% CI {:.1}–{:.1}%)",
            self.successes,
            self.trials,
            100.0 * self.rate,
            100.0 * self.low,
            100.0 * self.high
        )
    }
}

/// Think time per decision of one player, in milliseconds.
#[derive(Debug, Clone, Serialize)]
pub struct ThinkTime {
    pub player: &'static str,
    pub decisions: u64,
    pub mean_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
}

impl ThinkTime {
    fn of(player: Player, mut ms: Vec<f64>) -> ThinkTime {
        ms.sort_by(f64::total_cmp);
        let n = ms.len();
        let at = |q: f64| {
            if n == 0 {
                0.0
            } else {
                ms[((q * n as f64).ceil() as usize).clamp(1, n) - 1]
            }
        };
        ThinkTime {
            player: player.name(),
            decisions: n as u64,
            mean_ms: if n == 0 {
                0.0
            } else {
                ms.iter().sum::<f64>() / n as f64
            },
            p99_ms: at(0.99),
            max_ms: ms.last().copied().unwrap_or(0.0),
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub variant: Variant,
    pub a: &'static str,
    pub b: &'static str,
    pub games: u64,
    pub seed: u64,
    pub a_wins: u64,
    pub draws: u64,
    pub b_wins: u64,
    /// A's wins among all games.
    pub a_won: Interval,
    /// A's wins among decisive games.
    pub a_won_decisive: Interval,
    /// Games by end reason.
    pub reasons: BTreeMap<String, u64>,
    pub mean_steps: f64,
    pub think: [ThinkTime; 2],
    pub seconds: f64,
}

/// One game as the arena saw it.
pub(crate) struct Played {
    pub game: Game,
    /// Every action applied, in order (read by the tests that pin games down).
    #[cfg_attr(not(test), allow(dead_code))]
    pub actions: Vec<Action>,
    /// Think times of A's decisions and of B's, in milliseconds.
    think: [Vec<f64>; 2],
    a_seat: Seat,
}

/// Plays `games` games of `a` against `b` from `seed`, one after another.
pub fn run(variant: Variant, a: Player, b: Player, games: u64, seed: u64) -> Report {
    run_on_threads(variant, a, b, games, seed, 1)
}

/// [`run`] on `threads` threads at once. Each game is played on one thread from start
/// to end and seeded by its index alone, so the results are the same for any number
/// of threads (only the times differ).
pub fn run_on_threads(
    variant: Variant,
    a: Player,
    b: Player,
    games: u64,
    seed: u64,
    threads: usize,
) -> Report {
    let start = Instant::now();
    let played = play_all(variant, a, b, games, seed, threads);
    summarise(variant, [a, b], seed, played, start)
}

/// The report of a match's games, in index order.
fn summarise(
    variant: Variant,
    [a, b]: [Player; 2],
    seed: u64,
    played: Vec<Played>,
    start: Instant,
) -> Report {
    let games = played.len() as u64;
    let (mut a_wins, mut draws, mut b_wins, mut steps) = (0, 0, 0, 0u64);
    let mut reasons: BTreeMap<String, u64> = BTreeMap::new();
    let mut think: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    for p in played {
        let o = p.game.outcome().expect("played to the end");
        steps += p.game.steps() as u64;
        *reasons.entry(o.reason.name().to_string()).or_default() += 1;
        match o.winner {
            None => draws += 1,
            Some(s) if s == p.a_seat => a_wins += 1,
            Some(_) => b_wins += 1,
        }
        for (all, mine) in think.iter_mut().zip(p.think) {
            all.extend(mine);
        }
    }
    let [ta, tb] = think;
    Report {
        variant,
        a: a.name(),
        b: b.name(),
        games,
        seed,
        a_wins,
        draws,
        b_wins,
        a_won: Interval::wilson(a_wins, games),
        a_won_decisive: Interval::wilson(a_wins, a_wins + b_wins),
        reasons,
        mean_steps: steps as f64 / games.max(1) as f64,
        think: [ThinkTime::of(a, ta), ThinkTime::of(b, tb)],
        seconds: start.elapsed().as_secs_f64(),
    }
}

/// Every game of the match, in index order, played on `threads` threads: each thread
/// takes the next index not yet taken until none is left.
pub(crate) fn play_all(
    variant: Variant,
    a: Player,
    b: Player,
    games: u64,
    seed: u64,
    threads: usize,
) -> Vec<Played> {
    let next = AtomicU64::new(0);
    let worker = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= games {
                return done;
            }
            done.push((i, play_index(variant, a, b, seed, i, u32::MAX)));
        }
    };
    let mut all: Vec<(u64, Played)> = if threads <= 1 {
        worker()
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads).map(|_| scope.spawn(worker)).collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().expect("an arena thread panicked"))
                .collect()
        })
    };
    all.sort_by_key(|&(i, _)| i);
    all.into_iter().map(|(_, p)| p).collect()
}

/// Game `index` of a match of `a` against `b` from `seed`, stopped after `max_steps`
/// actions if it lasts that long. Games 2k and 2k+1 share their start; A sits South
/// in the first, North in the second.
pub(crate) fn play_index(
    variant: Variant,
    a: Player,
    b: Player,
    seed: u64,
    index: u64,
    max_steps: u32,
) -> Played {
    let a_seat = if index % 2 == 0 {
        Seat::South
    } else {
        Seat::North
    };
    let mut players = [a, b];
    if a_seat == Seat::North {
        players.swap(0, 1);
    }
    play(variant, players, seed, index, a_seat, max_steps)
}

/// One game; `players` by seat.
fn play(
    variant: Variant,
    players: [Player; 2],
    seed: u64,
    index: u64,
    a_seat: Seat,
    max_steps: u32,
) -> Played {
    let mut think: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    let mut actions = Vec::new();
    let pair = index / 2;
    let mut setup = StdRng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ pair);
    let options = Options::default();
    let mut game = match variant.caps().setup {
        SetupKind::Deal => FlipStart::random(&mut setup).game(options),
        SetupKind::Deployment => {
            let first = if setup.random::<bool>() {
                Seat::South
            } else {
                Seat::North
            };
            let mut layout_rng = StdRng::seed_from_u64(seed ^ index.wrapping_mul(0x2545_F491));
            let south = players[0].layout(Seat::South, &mut layout_rng);
            let north = players[1].layout(Seat::North, &mut layout_rng);
            Game::new_standard(options, &south, &north, first)
        }
    };
    let mut rngs = Seat::BOTH.map(|s| {
        StdRng::seed_from_u64(seed ^ (index << 8) ^ (s.index() as u64 + 1).wrapping_mul(0x51_7CC1))
    });
    let mut infos = Seat::BOTH.map(|s| Information::new(View::of(&game, Viewer::Seat(s)), options));
    while !game.is_over() && game.steps() < max_steps {
        let seat = game.to_move();
        let t0 = Instant::now();
        let decision = players[seat.index()].decide(&infos[seat.index()], &mut rngs[seat.index()]);
        let ms = t0.elapsed().as_secs_f64() * 1000.0;
        think[usize::from(seat != a_seat)].push(ms);
        let action = decision
            .action()
            .expect("the seat to move always has something to do");
        let applied = game
            .apply(seat, action, None)
            .expect("players choose legal actions");
        actions.push(action);
        for info in infos.iter_mut() {
            tell(info, &applied, &game);
        }
        if std::env::var_os("JUNQI_ARENA_TRACE").is_some() {
            eprintln!(
                "{} {} {:?} {:?}",
                game.steps(),
                seat,
                action,
                applied.effect
            );
        }
    }
    if std::env::var_os("JUNQI_ARENA_TRACE").is_some() {
        eprintln!(
            "END {:?} a_seat {a_seat}\n{:?}",
            game.outcome(),
            game.position()
        );
    }
    Played {
        game,
        actions,
        think,
        a_seat,
    }
}

/// Tells the player of `info`'s seat of `applied`, as its socket would be told: the
/// event and the view after it, both cut for that seat.
fn tell(info: &mut Information, applied: &Applied, game: &Game) {
    let viewer = Viewer::Seat(info.seat());
    let event = EventView::of(applied, game.variant(), game.colours(), viewer);
    info.observe(&event, View::of(game, viewer));
}

impl Report {
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "{} games of {}: {} (A) against {} (B), seed {}, {:.1} s\n",
            self.games,
            self.variant.name(),
            self.a,
            self.b,
            self.seed,
            self.seconds
        );
        s += &format!(
            "A won {}, drew {}, lost {}\n",
            self.a_wins, self.draws, self.b_wins
        );
        s += &format!("A's wins among all games:      {}\n", self.a_won.text());
        s += &format!(
            "A's wins among decisive games: {}\n",
            self.a_won_decisive.text()
        );
        let reasons: Vec<String> = self
            .reasons
            .iter()
            .map(|(r, n)| format!("{r} {n}"))
            .collect();
        s += &format!(
            "endings: {}; mean length {:.1} steps\n",
            reasons.join(", "),
            self.mean_steps
        );
        for t in &self.think {
            s += &format!(
                "think time {:<7} {:>7} decisions, mean {:.2} ms, p99 {:.2} ms, max {:.2} ms\n",
                t.player, t.decisions, t.mean_ms, t.p99_ms, t.max_ms
            );
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_play_the_same_games_as_one() {
        use crate::engine::Level;
        let cases = [
            (
                Variant::Flip,
                Player::Engine(Level::Easy),
                Player::Greedy,
                4,
            ),
            (Variant::Standard, Player::Expectimax2, Player::Random, 3),
        ];
        for (variant, a, b, games) in cases {
            let one = play_all(variant, a, b, games, 7, 1);
            let three = play_all(variant, a, b, games, 7, 3);
            assert_eq!(one.len(), games as usize);
            for (x, y) in one.iter().zip(&three) {
                assert_eq!(x.actions, y.actions);
                assert_eq!(x.game.outcome(), y.game.outcome());
                assert_eq!(x.a_seat, y.a_seat);
            }
            let now = Instant::now();
            let r1 = summarise(variant, [a, b], 7, one, now);
            let r3 = summarise(variant, [a, b], 7, three, now);
            assert_eq!(
                (r1.a_wins, r1.draws, r1.b_wins, &r1.reasons, r1.mean_steps),
                (r3.a_wins, r3.draws, r3.b_wins, &r3.reasons, r3.mean_steps)
            );
            assert_eq!(r1.think[0].decisions, r3.think[0].decisions);
        }
    }

    #[test]
    fn wilson_interval_matches_known_values() {
        let i = Interval::wilson(50, 100);
        assert!((i.low - 0.4038).abs() < 1e-3 && (i.high - 0.5962).abs() < 1e-3);
        let i = Interval::wilson(100, 100);
        assert!((i.low - 0.9630).abs() < 1e-3 && (i.high - 1.0).abs() < 1e-9);
    }
}
