//! The 四国 search: several determinizations of what the seat cannot see, and in each a
//! depth-limited alpha-beta over the real rules in which the seats of our alliance
//! maximise our evaluation and every other seat minimises it.
//!
//! Why this and not max-n: in 对家 and 并肩 the game is two teams with one result each
//! (§5.4.2: a defeated seat keeps its alliance's result), so a team's value is the
//! other's negation and "every enemy plays against us" is not paranoia but the game
//! itself. That makes the four-seat tree an ordinary two-sided one where alpha-beta
//! prunes; max-n, whose vectors cannot be pruned that way, would see a ply less for
//! the same nodes and gain nothing from modelling enemies who each want their own
//! result. In 混战 the same search is the paranoid one (everyone else against us).
//!
//! Nodes are counted, so a budget gives the same decision for the same information
//! and seed on any machine; a deadline, when given, only cuts a search short.

use super::eval::{WIN, evaluate, gain, our_pull, terminal};
use super::information::SeatInfo;
use super::sample::world;
use crate::rules::hidden_game::{HiddenGame, Step};
use crate::rules::siguo::{FourPlayer, Seat4, Station};
use rand::{Rng, RngExt};
use std::time::Instant;

const INF: i32 = WIN * 2;
/// Nodes between two looks at the clock.
const CHECK_EVERY: u64 = 128;

/// What one decision may spend.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    /// Determinizations searched.
    pub worlds: u32,
    /// Plies of every move, the root move included.
    pub depth: i32,
    /// Seats after those plies that may still attack or let the turn go.
    pub quiet_plies: i32,
    /// Search nodes for each world (unspent nodes carry over to the next).
    pub world_nodes: u64,
    /// Random points added to each root value, so weaker levels err.
    pub noise: i32,
}

struct Search {
    me: Seat4,
    nodes: u64,
    limit: u64,
    deadline: Option<Instant>,
    stopped: bool,
}

impl Search {
    fn exhausted(&mut self) -> bool {
        if self.stopped || self.nodes >= self.limit {
            return true;
        }
        if self.nodes % CHECK_EVERY == 0 && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stopped = true;
        }
        self.stopped
    }

    /// The value to our alliance of `g`: `depth` plies of every move, then
    /// `quiet_plies` seats each choosing between its attacks and letting the turn go.
    fn value(
        &mut self,
        g: &HiddenGame<FourPlayer>,
        depth: i32,
        quiet_plies: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: i32,
    ) -> i32 {
        self.nodes += 1;
        if let Some(v) = terminal(g, self.me, ply) {
            return v;
        }
        if depth <= 0 {
            return self.settle(g, quiet_plies, alpha, beta, ply);
        }
        if self.exhausted() {
            return evaluate(g, self.me);
        }
        let ours = g.allied(self.me, g.to_move());
        let moves = ordered_moves(g, false);
        if moves.is_empty() {
            return evaluate(g, self.me);
        }
        let mut best = if ours { -INF } else { INF };
        for (from, to) in moves {
            let mut child = g.clone();
            child.apply_listed(from, to);
            let v = self.value(&child, depth - 1, quiet_plies, alpha, beta, ply + 1);
            if tighten(ours, v, &mut best, &mut alpha, &mut beta) {
                break;
            }
        }
        best
    }

    /// Past the full-width plies, the next `left` seats in turn each take the best
    /// of its attacks or a quiet move. A quiet move is not searched: it is the turn
    /// passed on (a pass in this world, which costs nothing within a few plies), so
    /// the seats after it may still attack. Enemies' quiet plans are left to the
    /// evaluation; their captures, and our answers, are what decides most 四国 turns.
    fn settle(
        &mut self,
        g: &HiddenGame<FourPlayer>,
        left: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: i32,
    ) -> i32 {
        if left <= 0 || self.exhausted() {
            return evaluate(g, self.me);
        }
        let seat = g.to_move();
        let ours = g.allied(self.me, seat);
        let mut best = {
            let mut quiet = g.clone();
            match quiet.apply(seat, Step::Pass) {
                Ok(_) => {
                    self.nodes += 1;
                    match terminal(&quiet, self.me, ply + 1) {
                        Some(v) => v,
                        None => self.settle(&quiet, left - 1, alpha, beta, ply + 1),
                    }
                }
                Err(_) => evaluate(g, self.me),
            }
        };
        let pass = best;
        if tighten(ours, pass, &mut best, &mut alpha, &mut beta) {
            return best;
        }
        for (from, to) in ordered_moves(g, true) {
            let mut child = g.clone();
            child.apply_listed(from, to);
            self.nodes += 1;
            let v = match terminal(&child, self.me, ply + 1) {
                Some(v) => v,
                None => self.settle(&child, left - 1, alpha, beta, ply + 1),
            };
            if tighten(ours, v, &mut best, &mut alpha, &mut beta) {
                break;
            }
        }
        best
    }
}

/// The moves of the seat to move (only its attacks when `attacks`), attacks first by
/// what they win in this world, so that cut-offs come early.
fn ordered_moves(g: &HiddenGame<FourPlayer>, attacks: bool) -> Vec<(Station, Station)> {
    let pos = g.position();
    let mut keyed: Vec<(i32, (Station, Station))> = Vec::with_capacity(64);
    g.for_each_move(|from, to| {
        let key = match (pos.get(from), pos.get(to)) {
            (Some(a), Some(d)) => -gain(a.piece, d.piece) - 1_000,
            _ if attacks => return,
            _ => 0,
        };
        keyed.push((key, (from, to)));
    });
    keyed.sort_by_key(|&(k, _)| k);
    keyed.into_iter().map(|(_, m)| m).collect()
}

/// Each legal move's value to our alliance, averaged over the worlds searched.
pub fn root_values<R: Rng + ?Sized>(
    info: &SeatInfo,
    budget: Budget,
    rng: &mut R,
    deadline: Option<Instant>,
) -> Vec<i32> {
    let me = info.seat();
    let legal = info.legal();
    let mut search = Search {
        me,
        nodes: 0,
        limit: 0,
        deadline,
        stopped: false,
    };
    let mut sums = vec![0i64; legal.len()];
    let mut values = vec![0i64; legal.len()];
    let mut worlds = 0i64;
    for w in 0..budget.worlds as u64 {
        let Some(g) = world(info, rng) else {
            continue;
        };
        search.limit = budget.world_nodes * (w + 1);
        // Attacks first, so that a budget running out leaves quiet moves with the
        // shallower look.
        let pos = g.position();
        let mut order: Vec<usize> = (0..legal.len()).collect();
        order.sort_by_key(|&i| {
            let (from, to) = legal[i];
            match (pos.get(from), pos.get(to)) {
                (Some(a), Some(d)) => -gain(a.piece, d.piece) - 1_000,
                _ => 0,
            }
        });
        let here = evaluate(&g, me);
        for i in order {
            let (from, to) = legal[i];
            let mut child = g.clone();
            values[i] = match child.apply(me, Step::Move { from, to }) {
                Ok(_) => {
                    let v =
                        search.value(&child, budget.depth - 1, budget.quiet_plies, -INF, INF, 1);
                    let pull = if v.abs() < WIN / 2 {
                        our_pull(&child, me)
                    } else {
                        0
                    };
                    (v + pull) as i64
                }
                // Not legal in this world (it should be in all): as standing still.
                Err(_) => here as i64,
            };
        }
        // A world the clock cut short counts only when there is no whole one.
        if search.stopped && worlds > 0 {
            break;
        }
        for (s, v) in sums.iter_mut().zip(&values) {
            *s += v;
        }
        worlds += 1;
        if search.stopped {
            break;
        }
    }
    let worlds = worlds.max(1);
    sums.iter()
        .map(|&s| (s / worlds).clamp(-(WIN as i64), WIN as i64) as i32)
        .collect()
}

/// The legal move to play: the best by `root_values`, after a small charge for
/// undoing our own last move (shuffling wastes the 70-step count), a pull towards
/// attacks when the quiet count nears the draw, and the level's noise.
pub fn best_move<R: Rng + ?Sized>(
    info: &SeatInfo,
    budget: Budget,
    rng: &mut R,
    deadline: Option<Instant>,
) -> Option<(Station, Station)> {
    let legal = info.legal();
    match legal.len() {
        0 => return None,
        1 => return Some(legal[0]),
        _ => {}
    }
    let values = root_values(info, budget, rng, deadline);
    let last = info.own_moves.last().copied();
    let ahead = values.iter().copied().max().unwrap_or(0) > 30;
    let pressing =
        ahead && info.view.quiet_steps + 8 >= crate::rules::hidden_game::QUIET_STEPS_TO_DRAW;
    let occupied = |s: Station| info.view.cells.iter().any(|&(at, _)| at == s);
    let mut best: Option<(i32, (Station, Station))> = None;
    for (&(from, to), &v) in legal.iter().zip(&values) {
        let mut v = v;
        if last == Some((to, from)) {
            v -= 4;
        }
        if pressing && occupied(to) {
            v += 40;
        }
        if budget.noise > 0 && v.abs() < WIN / 2 {
            v += rng.random_range(-budget.noise..=budget.noise);
        }
        if best.is_none_or(|(b, _)| v > b) {
            best = Some((v, (from, to)));
        }
    }
    best.map(|(_, m)| m)
}

/// Takes `v` into the node's best and its window, for our alliance (maximising) or
/// the other (minimising); true when the window has closed (a cut-off).
fn tighten(ours: bool, v: i32, best: &mut i32, alpha: &mut i32, beta: &mut i32) -> bool {
    if ours {
        *best = (*best).max(v);
        *alpha = (*alpha).max(v);
    } else {
        *best = (*best).min(v);
        *beta = (*beta).min(v);
    }
    alpha >= beta
}
