//! hard-v1's copy of `engine::root` as it stood at commit 57c6d4f, frozen as the
//! baseline the arena measures engine changes against: it must not change (the
//! golden test in `frozen::hard_v1` holds it to that commit's decisions).
//!
//! The root of the search: which legal action to take.
//!
//! Flip chess searches the public position, flips as chance nodes. Standard 军棋
//! searches several determinizations consistent with the beliefs and takes the action
//! best on average. Both skip moves that would lose by repetition, steer clear of
//! undoing their own last move, and press for an attack when ahead near the
//! no-attack draw.

use super::eval::evaluate;
use super::sample::{determinize, flip_position};
use super::search::Search;
use super::state::{Rules, State};
use super::{Budget, eval};
use crate::engine::information::Information;
use crate::rules::{Action, SetupKind};
use rand::{Rng, RngExt};

pub fn best_action<R: Rng + ?Sized>(
    info: &Information,
    budget: Budget,
    rng: &mut R,
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
    let values = action_values(info, &actions, budget, rng);
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
/// points, as the search sees them within `budget`. Flip chess needs the
/// seat's colour to be known.
pub(crate) fn action_values<R: Rng + ?Sized>(
    info: &Information,
    actions: &[Action],
    budget: Budget,
    rng: &mut R,
) -> Vec<i32> {
    let rules = Rules {
        variant: info.variant,
        options: info.options,
    };
    match info.variant.caps().setup {
        SetupKind::Deal => {
            let Some(me) = info.my_colour() else {
                return vec![0; actions.len()];
            };
            let st = State {
                pos: flip_position(info),
                to_move: me,
                pool: info.pool,
                winner: None,
            };
            flip_values(&rules, &st, actions, budget)
        }
        SetupKind::Deployment => standard_values(info, &rules, actions, budget, rng),
    }
}

fn flip_values(rules: &Rules, st: &State, actions: &[Action], budget: Budget) -> Vec<i32> {
    let mut search = Search::new(*rules, budget.nodes);
    // Moves first, attacks leading, so that a budget running out leaves flips (whose
    // average is close to standing still) with the shallowest look.
    let mut order: Vec<usize> = (0..actions.len()).collect();
    order.sort_by_key(|&i| match actions[i] {
        Action::Move { to, .. } if st.pos.get(to).is_some() => 0,
        Action::Move { .. } => 1,
        _ => 2,
    });
    let mut values = vec![0; actions.len()];
    for i in order {
        values[i] = match actions[i] {
            Action::Move { from, to } => search.move_value(st, from, to, budget.depth),
            Action::Flip(at) => search.flip_value(st, at, budget.flip_depth),
            _ => evaluate(rules, st, st.to_move),
        };
    }
    values
}

fn standard_values<R: Rng + ?Sized>(
    info: &Information,
    rules: &Rules,
    actions: &[Action],
    budget: Budget,
    rng: &mut R,
) -> Vec<i32> {
    let me = info.my_colour().expect("standard colours are fixed");
    let mut sums = vec![0i64; actions.len()];
    let mut worlds = 0i64;
    let mut search = Search::new(*rules, 0);
    let mut world = vec![0i64; actions.len()];
    for w in 0..budget.worlds as u64 {
        let Some(pos) = determinize(info, rng) else {
            continue;
        };
        search.limit = budget.world_nodes * (w + 1);
        let st = State {
            pos,
            to_move: me,
            pool: [[0; 12]; 2],
            winner: None,
        };
        for (i, &a) in actions.iter().enumerate() {
            world[i] = match a {
                Action::Move { from, to } => {
                    search.move_value(&st, from, to, budget.depth - 1) as i64
                }
                _ => 0,
            };
        }
        for (s, v) in sums.iter_mut().zip(&world) {
            *s += v;
        }
        worlds += 1;
    }
    let worlds = worlds.max(1);
    sums.iter()
        .map(|&s| (s / worlds).clamp(-eval::WIN as i64, eval::WIN as i64) as i32)
        .collect()
}
