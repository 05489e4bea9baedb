//! 复盘分析: a finished two-player game reviewed with the engine from one seat's side.
//!
//! The game is replayed as the arena referees one: the true game is kept here only to
//! apply each action, and the reviewed seat's information set is built from what its
//! socket was sent (its `View` and each action's `EventView`, cut for that seat). At
//! every step the seat took, the engine values each of its actions from that
//! information alone (`engine::analysis::assess_turn`): the seat's value at that turn
//! (the graph), the played action's value against the best, and a mark when the played
//! one lost enough (marks.rs). So a review says only what that seat could have known:
//! two games its side saw alike review alike, whatever hid under the face-down pieces.

pub mod bench;
pub mod marks;
pub mod naming;
pub mod stored;

use crate::engine::analysis::assess_turn;
use crate::engine::{Information, Level, Limits};
use crate::rules::view::{EventView, View, Viewer};
use crate::rules::{Action, Game, Piece, Seat, Variant};
pub use marks::Mark;
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde::Serialize;
use std::time::{Duration, Instant};

/// How hard the engine looks at each step of a review.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    pub level: Level,
    /// The share of the level's nodes each step gets (0 < share ≤ 1).
    pub share: f64,
    /// A step's search stops by then at the latest. Node counts decide in the ordinary
    /// case, so that a review is the same on any machine; this only bounds a step that
    /// would run long on a starved machine (then that step may differ).
    pub step_time: Option<Duration>,
}

/// What reviews are searched with: 困难's whole search (flip chess to its depth, within
/// 250,000 nodes; standard 军棋 ten sampled worlds of 10,000 nodes). A 300-step game
/// (150 steps of one side) reviews in about 1 s (flip chess) and 10 s (standard) on
/// one core of the development machine (BENCHMARKS.md, "Game review"). Fewer worlds
/// were no cheaper in flip chess, whose search ends at its depth first, and in
/// standard 军棋 two worlds marked half again as many steps: the sampled worlds'
/// noise, not the player's errors.
pub const REVIEW_BUDGET: Budget = Budget {
    level: Level::Hard,
    share: 1.0,
    step_time: Some(Duration::from_secs(2)),
};

/// One step the reviewed seat took.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Entry {
    /// The step's number in the replay (1 = the game's first step).
    pub step: u32,
    /// The seat's value of the position with its best action, in evaluation points.
    pub value: i32,
    /// `value` within the graph's bounds (marks::GRAPH_CLAMP).
    pub shown: i32,
    pub played: Action,
    /// The played action's value; `None` for a timeout (no action was chosen).
    pub played_value: Option<i32>,
    pub best: Action,
    pub best_value: i32,
    /// What the played action lost against the best (marks::loss).
    pub loss: i32,
    pub mark: Option<Mark>,
    /// The best action in words: "最佳：旅长 d3→d5", "最佳：翻 c4".
    pub best_text: String,
    /// The piece the best action moves, when the seat could name it (for the pages'
    /// other language).
    pub best_piece: Option<Piece>,
    /// The played action in words ("工兵 a2→a3").
    pub played_text: String,
}

/// A whole review from one side.
#[derive(Debug, Clone, Serialize)]
pub struct Review {
    pub variant: Variant,
    pub side: Seat,
    /// The steps of the whole game (both sides).
    pub steps: u32,
    pub thresholds: Thresholds,
    pub clamp: i32,
    pub entries: Vec<Entry>,
}

#[derive(Debug, Clone, Copy, Serialize)]
pub struct Thresholds {
    pub inaccuracy: i32,
    pub blunder: i32,
}

/// One stored action: who took it, what it was, and when (ms from the start).
pub type Played = (Seat, Action, u64);

/// The steps `side` took in `actions` that a review values: its flips, moves, passes
/// and timeouts (draw words and resignations are no choice of a step).
pub fn own_steps(actions: &[Played], side: Seat) -> u32 {
    actions
        .iter()
        .filter(|(s, a, _)| *s == side && a.is_step())
        .count() as u32
}

/// Reviews the game that starts at `game` and goes on with `actions`, from `side`'s
/// information. `seed` seeds each step's search (standard 军棋 samples the hidden
/// pieces), so the same game, side and seed give the same review. `progress` is told
/// after each valued step (done, total).
pub fn review(
    mut game: Game,
    actions: &[Played],
    side: Seat,
    budget: Budget,
    seed: u64,
    progress: &mut dyn FnMut(u32, u32),
) -> Result<Review, String> {
    let viewer = Viewer::Seat(side);
    let variant = game.variant();
    let options = *game.options();
    let total = own_steps(actions, side);
    let mut info = Information::new(View::of(&game, viewer), options);
    let mut entries = Vec::new();
    let mut done = 0;
    for (i, &(seat, action, at_ms)) in actions.iter().enumerate() {
        if seat == side && action.is_step() {
            let step = game.steps() + 1;
            if let Some(e) = entry(&info, action, step, budget, seed) {
                entries.push(e);
            }
            done += 1;
            progress(done, total);
        }
        let applied = game
            .apply(seat, action, Some(at_ms))
            .map_err(|e| format!("stored action {i}: {e}"))?;
        let event = EventView::of(&applied, variant, game.colours(), viewer);
        info.observe(&event, View::of(&game, viewer));
    }
    Ok(Review {
        variant,
        side,
        steps: game.steps(),
        thresholds: Thresholds {
            inaccuracy: marks::INACCURACY,
            blunder: marks::BLUNDER,
        },
        clamp: marks::GRAPH_CLAMP,
        entries,
    })
}

/// The entry of one step: `played` taken at `step` by the seat of `info`; `None` when
/// the engine has nothing to judge (flip chess before colours are known).
fn entry(
    info: &Information,
    played: Action,
    step: u32,
    budget: Budget,
    seed: u64,
) -> Option<Entry> {
    let mut rng = StdRng::seed_from_u64(seed ^ u64::from(step).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let limits = Limits {
        deadline: budget.step_time.map(|d| Instant::now() + d),
        stop: None,
        share: budget.share,
    };
    let assessed = assess_turn(info, budget.level, &mut rng, limits)?;
    let (best, best_value) = assessed.actions[0];
    let played_value = assessed
        .actions
        .iter()
        .find(|&&(a, _)| a == played)
        .map(|&(_, v)| v);
    let loss = played_value.map_or(0, |v| marks::loss(best_value, v));
    Some(Entry {
        step,
        value: assessed.value,
        shown: marks::shown(assessed.value),
        played,
        played_value,
        best,
        best_value,
        loss,
        mark: played_value.and_then(|_| marks::mark(loss)),
        best_text: format!("最佳：{}", naming::words(info, best)),
        best_piece: naming::mover(info, best),
        played_text: naming::words(info, played),
    })
}
