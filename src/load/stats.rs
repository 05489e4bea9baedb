//! What the game tasks count while they play: latency samples, actions, games, and
//! errors by kind.

use serde::Serialize;
use std::collections::BTreeMap;
use std::time::Duration;

/// Counters the orchestrator resets at the start of each level (errors, games) and of
/// each measurement (samples, actions).
#[derive(Default)]
pub struct Stats {
    /// Send → the opponent's socket receiving the event, microseconds.
    pub latency_us: Vec<u32>,
    /// Send → the mover's `ack`, microseconds.
    pub ack_us: Vec<u32>,
    /// Actions acknowledged while measuring.
    pub actions: u64,
    pub games_started: u64,
    pub games_ended: u64,
    pub errors: BTreeMap<String, u64>,
}

impl Stats {
    pub fn error(&mut self, kind: impl Into<String>) {
        *self.errors.entry(kind.into()).or_default() += 1;
    }

    pub fn error_count(&self) -> u64 {
        self.errors.values().sum()
    }

    pub fn reset_samples(&mut self) {
        self.latency_us.clear();
        self.ack_us.clear();
        self.actions = 0;
    }

    pub fn reset_counts(&mut self) {
        self.games_started = 0;
        self.games_ended = 0;
        self.errors.clear();
    }
}

pub fn micros(d: Duration) -> u32 {
    d.as_micros().min(u32::MAX as u128) as u32
}

/// Percentiles of a set of samples, in milliseconds.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Spread {
    pub samples: usize,
    pub p50: f64,
    pub p99: f64,
    pub max: f64,
}

/// The samples are sorted in place: at a few hundred thousand samples per level a
/// sort takes milliseconds and gives exact percentiles, so no histogram crate is
/// needed.
pub fn spread(samples: &mut [u32]) -> Spread {
    if samples.is_empty() {
        return Spread::default();
    }
    samples.sort_unstable();
    let at = |q: f64| {
        // Nearest rank: the smallest sample with at least q of them at or below it.
        let rank = (q * samples.len() as f64).ceil() as usize;
        samples[rank.clamp(1, samples.len()) - 1] as f64 / 1000.0
    };
    Spread {
        samples: samples.len(),
        p50: at(0.50),
        p99: at(0.99),
        max: samples[samples.len() - 1] as f64 / 1000.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles() {
        let mut s: Vec<u32> = (1..=1000).rev().map(|i| i * 1000).collect();
        let p = spread(&mut s);
        assert_eq!(
            (p.samples, p.p50, p.p99, p.max),
            (1000, 500.0, 990.0, 1000.0)
        );
        let mut one = vec![2500];
        let p = spread(&mut one);
        assert_eq!((p.p50, p.p99, p.max), (2.5, 2.5, 2.5));
        assert_eq!(spread(&mut []).samples, 0);
    }
}
