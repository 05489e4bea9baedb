//! The computer opponent. It decides from one seat's information set
//! ([`Information`], built through `rules::view`) and never from the game itself, so
//! it cannot read a hidden identity. Budgets are node counts, so the same information
//! and seed give the same decision on any machine; a live game adds a wall clock and a
//! stop flag ([`Limits`]), which only ever cut a search short.
//!
//! - [`choose`]: an action, a draw answer, or a resignation; [`choose_within`] the
//!   same within [`Limits`].
//! - [`deploy`]: a standard 军棋 layout.
//! - [`Player`]: the levels, the baselines (random, greedy, expectimax2) and the frozen
//!   hard-v1 the arena plays.

pub mod analysis;
pub mod arena;
mod assess;
pub mod baseline;
mod beliefs;
mod deepen;
mod deploy;
mod eval;
pub mod frozen;
pub mod information;
mod players;
mod root;
mod sample;
mod search;
pub mod siguo;
mod state;
#[cfg(test)]
mod tests;
mod tt;
mod zobrist;

pub use deploy::deploy;
pub use information::Information;
pub use players::Player;

use crate::rules::Action;
use rand::Rng;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// How hard the computer plays: 入门, 普通, 困难, 大师.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    Easy,
    Normal,
    Hard,
    Master,
}

impl Level {
    pub const ALL: [Level; 4] = [Level::Easy, Level::Normal, Level::Hard, Level::Master];

    pub const fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Normal => "normal",
            Level::Hard => "hard",
            Level::Master => "master",
        }
    }

    pub const fn chinese(self) -> &'static str {
        match self {
            Level::Easy => "入门",
            Level::Normal => "普通",
            Level::Hard => "困难",
            Level::Master => "大师",
        }
    }

    pub fn from_name(s: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.name() == s)
    }

    pub(crate) const fn budget(self) -> Budget {
        match self {
            Level::Easy => Budget {
                depth: 1,
                flip_depth: 1,
                worlds: 3,
                world_nodes: 1_500,
                nodes: 4_000,
                noise: 30,
            },
            Level::Normal => Budget {
                depth: 2,
                flip_depth: 1,
                worlds: 4,
                world_nodes: 3_000,
                nodes: 40_000,
                noise: 6,
            },
            Level::Hard => Budget {
                depth: deepen::MAX_DEPTH,
                flip_depth: 3,
                worlds: 10,
                world_nodes: 50_000,
                nodes: 1_500_000,
                noise: 0,
            },
            Level::Master => Budget {
                depth: deepen::MAX_DEPTH,
                flip_depth: 4,
                worlds: 20,
                world_nodes: 75_000,
                nodes: 4_500_000,
                noise: 0,
            },
        }
    }
}

/// What a level may spend on one decision.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Budget {
    /// The deepest the search goes, in plies from the root (a root move is one).
    pub depth: i32,
    /// The deepest a root flip is searched, whose chance outcomes multiply the cost.
    pub flip_depth: i32,
    /// Standard 军棋: determinizations searched, and search nodes for each.
    pub worlds: u32,
    pub world_nodes: u64,
    /// Flip chess: search nodes for the whole decision.
    pub nodes: u64,
    /// Random points added to each root value, so weaker levels err.
    pub noise: i32,
}

impl Budget {
    /// This budget cut to `share` of its nodes (0 < share ≤ 1), for when many games
    /// wait for a thinking thread. The depth stays: a shallower search would play
    /// worse than a shorter one at the same depth.
    pub(crate) fn scaled(self, share: f64) -> Budget {
        let share = share.clamp(0.01, 1.0);
        let cut = |n: u64| ((n as f64 * share) as u64).max(MIN_NODES.min(n));
        Budget {
            worlds: ((self.worlds as f64 * share).ceil() as u32).clamp(1, self.worlds),
            world_nodes: cut(self.world_nodes),
            nodes: cut(self.nodes),
            ..self
        }
    }
}

/// Fewer nodes than this do not see even one reply to each root move.
const MIN_NODES: u64 = 500;

/// What bounds a decision besides its level's budget, in a live game. The arena uses
/// [`Limits::NONE`], so its games depend on node counts alone.
#[derive(Debug, Clone, Copy)]
pub struct Limits<'a> {
    /// Stop searching then and play the best action found so far.
    pub deadline: Option<Instant>,
    /// Stop searching once this is set (the game moved on without the answer).
    pub stop: Option<&'a AtomicBool>,
    /// The share of the level's node budget to spend (0 < share ≤ 1).
    pub share: f64,
}

impl Limits<'_> {
    pub const NONE: Limits<'static> = Limits {
        deadline: None,
        stop: None,
        share: 1.0,
    };

    /// Whether the clock has run out or the stop flag is set.
    pub(crate) fn reached(&self) -> bool {
        self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// What the computer does now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    Play(Action),
    AcceptDraw,
    DeclineDraw,
    Resign,
    /// Nothing to do: not this seat's turn and no offer to answer, or the game is over.
    Wait,
}

impl Decision {
    /// The rules action to apply, if any.
    pub fn action(self) -> Option<Action> {
        match self {
            Decision::Play(a) => Some(a),
            Decision::AcceptDraw => Some(Action::AcceptDraw),
            Decision::DeclineDraw => Some(Action::DeclineDraw),
            Decision::Resign => Some(Action::Resign),
            Decision::Wait => None,
        }
    }
}

/// The computer's decision for the seat `info` belongs to. An open draw offer from the
/// opponent is answered first; on its own turn it resigns a hopeless position once the
/// rules allow, and otherwise plays the best action its level finds.
pub fn choose<R: Rng + ?Sized>(info: &Information, level: Level, rng: &mut R) -> Decision {
    choose_within(info, level, rng, Limits::NONE)
}

/// [`choose`] within `limits`: a share of the level's budget, a deadline and a stop
/// flag. Whatever cuts the search short, an action is still chosen from what it saw.
pub fn choose_within<R: Rng + ?Sized>(
    info: &Information,
    level: Level,
    rng: &mut R,
    limits: Limits<'_>,
) -> Decision {
    if info.is_over() {
        return Decision::Wait;
    }
    if info.open_offer() == Some(info.seat().other()) {
        return if assess::accepts_draw(info, rng) {
            Decision::AcceptDraw
        } else {
            Decision::DeclineDraw
        };
    }
    if info.to_move() != info.seat() {
        return Decision::Wait;
    }
    if info.may_resign() && assess::hopeless(info, rng) {
        return Decision::Resign;
    }
    let budget = level.budget().scaled(limits.share);
    match root::best_action(info, budget, rng, limits) {
        Some(a) => Decision::Play(a),
        None => Decision::Play(Action::Pass),
    }
}
