//! `junqi review-bench`: how long a review takes on one thread, over random self-play
//! games cut to their first `steps` steps (random games run long: flip chess to its
//! 300-step draw, standard 军棋 far longer), from South's side, with the budget the
//! server reviews with. The figure BENCHMARKS.md ("Game review") quotes.

use super::{Budget, Played, review};
use crate::rules::{Seat, Variant};
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde::Serialize;
use std::time::Instant;

#[derive(Debug, Clone, Serialize)]
pub struct BenchReport {
    pub variant: Variant,
    pub games: u64,
    pub seed: u64,
    /// Mean steps per game reviewed (both sides).
    pub mean_steps: f64,
    /// South's steps valued, over all games.
    pub valued: u64,
    pub marks: u64,
    pub mean_seconds_per_game: f64,
    pub max_seconds_per_game: f64,
    pub mean_ms_per_valued_step: f64,
}

pub fn run(variant: Variant, games: u64, steps: u32, seed: u64, budget: Budget) -> BenchReport {
    let mut rng = StdRng::seed_from_u64(seed);
    let (mut total_steps, mut valued, mut marks) = (0u64, 0u64, 0u64);
    let (mut seconds, mut max) = (0f64, 0f64);
    for i in 0..games {
        let (_, record) = crate::selfplay::random_game(variant, &mut rng);
        let start = record.start().expect("a self-play record starts");
        let mut played: Vec<Played> = Vec::new();
        let mut taken = 0;
        for &(seat, action) in &record.actions {
            if taken == steps {
                break;
            }
            taken += u32::from(action.is_step());
            played.push((seat, action, 0));
        }
        let t0 = Instant::now();
        let r = review(start, &played, Seat::South, budget, i, &mut |_, _| {})
            .expect("a self-play game replays");
        let s = t0.elapsed().as_secs_f64();
        seconds += s;
        max = max.max(s);
        total_steps += u64::from(r.steps);
        valued += r.entries.len() as u64;
        marks += r.entries.iter().filter(|e| e.mark.is_some()).count() as u64;
    }
    let n = games.max(1) as f64;
    BenchReport {
        variant,
        games,
        seed,
        mean_steps: total_steps as f64 / n,
        valued,
        marks,
        mean_seconds_per_game: seconds / n,
        max_seconds_per_game: max,
        mean_ms_per_valued_step: 1000.0 * seconds / valued.max(1) as f64,
    }
}

impl BenchReport {
    pub fn to_text(&self) -> String {
        format!(
            "{} games of {} reviewed from South (seed {}): {:.1} steps a game, {} of \
             South's steps valued, {} marked\n{:.2} s a game (max {:.2} s), {:.1} ms a valued step\n",
            self.games,
            self.variant.name(),
            self.seed,
            self.mean_steps,
            self.valued,
            self.marks,
            self.mean_seconds_per_game,
            self.max_seconds_per_game,
            self.mean_ms_per_valued_step,
        )
    }
}
