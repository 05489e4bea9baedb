//! The root of the search: which legal action to take.
//!
//! Flip chess searches the public position, flips as chance nodes. Standard 军棋
//! searches several determinizations consistent with the beliefs and takes the action
//! best on average. Both skip moves that would lose by repetition, steer clear of
//! undoing their own last move, and press for an attack when ahead near the
//! no-attack draw.

use super::deepen::deepen;
use super::information::Information;
use super::sample::{determinize, flip_position};
use super::search::Search;
use super::state::{Rules, State};
use super::tt::with_table;
use super::{Budget, Limits, eval};
use crate::rules::{Action, SetupKind};
use rand::{Rng, RngExt};

pub fn best_action<R: Rng + ?Sized>(
    info: &Information,
    budget: Budget,
    rng: &mut R,
    limits: Limits<'_>,
) -> Option<Action> {
    let actions = info.safe_actions();
    if actions.is_empty() {
        return None;
    }
    if actions.len() == 1 {
        return Some(actions[0]);
    }
    if info.variant.caps().setup == SetupKind::Deal && info.my_colour().is_none() {
        // Before colours are assigned every action is a flip of an unknown piece;
        // none is better than another.
        return Some(actions[rng.random_range(0..actions.len())]);
    }
    let values = action_values(info, &actions, budget, rng, limits);
    let ahead = values.iter().copied().max().unwrap_or(0) > 20;
    let pressing = ahead && info.quiet_steps + 6 >= info.quiet_steps_to_draw;
    let last = info.own_moves.last().copied();
    let mut best: Option<(i32, Action)> = None;
    for (&a, &v) in actions.iter().zip(&values) {
        let mut v = v;
        if let Action::Move { from, to } = a {
            if last == Some((to, from)) {
                v -= 3;
            }
            if pressing && info.cell(to).is_some() {
                v += 40;
            }
        }
        // Noise never blurs a forced win or loss, nor a quicker win into a slower one.
        if budget.noise > 0 && v.abs() < eval::WIN / 2 {
            v += rng.random_range(-budget.noise..=budget.noise);
        }
        if best.is_none_or(|(b, _)| v > b) {
            best = Some((v, a));
        }
    }
    best.map(|(_, a)| a)
}

/// The value to the seat of each of `actions` (its safe actions), in evaluation
/// points, as the search sees them within `budget` and `limits`. Flip chess needs the
/// seat's colour to be known.
pub(crate) fn action_values<R: Rng + ?Sized>(
    info: &Information,
    actions: &[Action],
    budget: Budget,
    rng: &mut R,
    limits: Limits<'_>,
) -> Vec<i32> {
    let rules = Rules::of(info);
    match info.variant.caps().setup {
        SetupKind::Deal => {
            let Some(me) = info.my_colour() else {
                return vec![0; actions.len()];
            };
            let st = State::root(info, flip_position(info), me, info.pool);
            with_table(|tt| {
                let mut search = Search::new(rules, budget.nodes, limits, tt);
                deepen(&mut search, &st, actions, budget.depth, budget.flip_depth)
            })
        }
        SetupKind::Deployment => standard_values(info, &rules, actions, budget, rng, limits),
    }
}

/// Standard 军棋: the mean over several determinizations of each move's value, each
/// world deepened within its own share of the nodes. A world the clock cut short
/// counts only when there is no whole one.
fn standard_values<R: Rng + ?Sized>(
    info: &Information,
    rules: &Rules,
    actions: &[Action],
    budget: Budget,
    rng: &mut R,
    limits: Limits<'_>,
) -> Vec<i32> {
    let me = info.my_colour().expect("standard colours are fixed");
    let mut sums = vec![0i64; actions.len()];
    let mut worlds = 0i64;
    with_table(|tt| {
        let mut search = Search::new(*rules, 0, limits, tt);
        for w in 0..budget.worlds as u64 {
            let Some(pos) = determinize(info, rng) else {
                continue;
            };
            search.forget();
            search.limit = budget.world_nodes * (w + 1);
            let st = State::root(info, pos, me, [[0; 12]; 2]);
            let world = deepen(&mut search, &st, actions, budget.depth, 1);
            if search.stopped() && worlds > 0 {
                break;
            }
            for (s, &v) in sums.iter_mut().zip(&world) {
                *s += v as i64;
            }
            worlds += 1;
            if search.stopped() {
                break;
            }
        }
    });
    let worlds = worlds.max(1);
    sums.iter()
        .map(|&s| (s / worlds).clamp(-eval::WIN as i64, eval::WIN as i64) as i32)
        .collect()
}
