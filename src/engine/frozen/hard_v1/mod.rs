//! `hard-v1`: the 困难 level's decision path as it stood at commit 57c6d4f, frozen as
//! the baseline for arena targets. It must not change: later engine work is measured
//! against it, and the golden test below holds its decisions to what
//! `Player::Engine(Level::Hard)` decided at that commit.
//!
//! One module per engine file it was copied from (root, search, eval, state, sample,
//! assess, deploy), with that commit's `Level::Hard` budget baked in. The copies leave
//! out only what the arena never uses: the live game's clock, stop flag and budget
//! share (the arena plays with none, so node counts alone decide).

mod assess;
mod deploy;
mod eval;
mod root;
mod sample;
mod search;
mod state;
#[cfg(test)]
mod tests;

pub use deploy::deploy;
pub use eval::value;
pub(crate) use sample::determinize;

use crate::engine::Decision;
use crate::engine::information::Information;
use crate::rules::Action;
use rand::Rng;

/// What one decision may spend (the engine's `Budget` at that commit).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Budget {
    /// Plies searched after a root move (flip chess; standard uses one less).
    pub depth: i32,
    /// Plies searched after a root flip, whose chance outcomes multiply the cost.
    pub flip_depth: i32,
    /// Standard 军棋: determinizations searched, and search nodes for each.
    pub worlds: u32,
    pub world_nodes: u64,
    /// Flip chess: search nodes for the whole decision.
    pub nodes: u64,
    /// Random points added to each root value (none for 困难).
    pub noise: i32,
}

/// `Level::Hard`'s budget at commit 57c6d4f.
pub(crate) const HARD: Budget = Budget {
    depth: 3,
    flip_depth: 2,
    worlds: 10,
    world_nodes: 10_000,
    nodes: 250_000,
    noise: 0,
};

/// hard-v1's decision for the seat `info` belongs to, as `engine::choose` made it for
/// 困难 at that commit: an open draw offer is answered first; on its own turn it
/// resigns a hopeless position once the rules allow, and otherwise plays the best
/// action the search finds.
pub fn choose<R: Rng + ?Sized>(info: &Information, rng: &mut R) -> Decision {
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
    match root::best_action(info, HARD, rng) {
        Some(a) => Decision::Play(a),
        None => Decision::Play(Action::Pass),
    }
}
