//! `junqi arena`: two players (engine levels or baselines) play each other on one
//! thread, so think times are per core. Games come in pairs on the same deal (flip
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
use crate::rules::{Game, Options, Seat, SetupKind, Variant};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serde::Serialize;
use std::collections::BTreeMap;
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

/// Plays `games` games of `a` against `b` from `seed`, one after another.
pub fn run(variant: Variant, a: Player, b: Player, games: u64, seed: u64) -> Report {
    let start = Instant::now();
    let (mut a_wins, mut draws, mut b_wins, mut steps) = (0, 0, 0, 0u64);
    let mut reasons: BTreeMap<String, u64> = BTreeMap::new();
    let mut think: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    for i in 0..games {
        // Game 2k and 2k+1 share their start; A sits South in the first, North in
        // the second.
        let a_seat = if i % 2 == 0 { Seat::South } else { Seat::North };
        let mut players = [a, b];
        if a_seat == Seat::North {
            players.swap(0, 1);
        }
        let game = play(variant, players, seed, i, &mut think, a_seat);
        let o = game.outcome().expect("played to the end");
        steps += game.steps() as u64;
        *reasons.entry(o.reason.name().to_string()).or_default() += 1;
        match o.winner {
            None => draws += 1,
            Some(s) if s == a_seat => a_wins += 1,
            Some(_) => b_wins += 1,
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

/// One game; `players` by seat. Think times go to `think[0]` for A, `think[1]` for B.
fn play(
    variant: Variant,
    players: [Player; 2],
    seed: u64,
    index: u64,
    think: &mut [Vec<f64>; 2],
    a_seat: Seat,
) -> Game {
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
    while !game.is_over() {
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
    game
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
    fn wilson_interval_matches_known_values() {
        let i = Interval::wilson(50, 100);
        assert!((i.low - 0.4038).abs() < 1e-3 && (i.high - 0.5962).abs() < 1e-3);
        let i = Interval::wilson(100, 100);
        assert!((i.low - 0.9630).abs() < 1e-3 && (i.high - 1.0).abs() < 1e-9);
    }
}
