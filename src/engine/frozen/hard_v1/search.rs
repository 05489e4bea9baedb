//! hard-v1's copy of `engine::search` as it stood at commit 57c6d4f, frozen as the
//! baseline the arena measures engine changes against: it must not change (the
//! golden test in `frozen::hard_v1` holds it to that commit's decisions).
//!
//! Depth-limited alpha-beta (negamax) with a capture-only quiescence search, counted
//! in nodes so that a budget gives the same result on any machine.
//!
//! Flip chess: the root treats each flip as a chance node, averaging over every kind
//! and colour the public pool could reveal there, weighted by how many remain. Below
//! the root a flip is valued as standing pat (flips are even on average).
//! Standard 军棋: the caller runs the root once per determinization and averages.

use super::eval::{WIN, evaluate, value};
use super::state::{Rules, State};
use crate::rules::board::Square;
use crate::rules::{Colour, Piece};

const INF: i32 = WIN * 2;
const QUIESCENCE_PLIES: i32 = 4;

pub struct Search {
    pub rules: Rules,
    pub nodes: u64,
    pub limit: u64,
}

impl Search {
    pub fn new(rules: Rules, limit: u64) -> Search {
        Search {
            rules,
            nodes: 0,
            limit,
        }
    }

    /// Whether the node budget is spent. (The engine's copy also watches a live
    /// game's clock and stop flag; the arena sets neither, so they are left out.)
    pub fn exhausted(&self) -> bool {
        self.nodes >= self.limit
    }

    fn terminal(st: &State, ply: i32) -> Option<i32> {
        st.winner.map(|w| {
            if w == st.to_move {
                WIN - ply
            } else {
                -(WIN - ply)
            }
        })
    }

    /// The value of `st` to the side to move, searching `depth` plies.
    pub fn negamax(&mut self, st: &State, depth: i32, mut alpha: i32, beta: i32, ply: i32) -> i32 {
        self.nodes += 1;
        if let Some(v) = Self::terminal(st, ply) {
            return v;
        }
        if self.exhausted() {
            return evaluate(&self.rules, st, st.to_move);
        }
        if depth <= 0 {
            return self.quiesce(st, alpha, beta, ply, QUIESCENCE_PLIES);
        }
        let moves = self.ordered_moves(st, false);
        let can_flip = st.can_flip(&self.rules);
        if moves.is_empty() && !can_flip {
            return -(WIN - ply);
        }
        let mut best = -INF;
        if can_flip {
            best = evaluate(&self.rules, st, st.to_move);
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }
        for (from, to) in moves {
            let child = st.play(from, to);
            let v = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1);
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    fn quiesce(&mut self, st: &State, mut alpha: i32, beta: i32, ply: i32, left: i32) -> i32 {
        self.nodes += 1;
        if let Some(v) = Self::terminal(st, ply) {
            return v;
        }
        let stand = evaluate(&self.rules, st, st.to_move);
        if stand >= beta || left == 0 || self.exhausted() {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut best = stand;
        for (from, to) in self.ordered_moves(st, true) {
            let child = st.play(from, to);
            let v = -self.quiesce(&child, -beta, -alpha, ply + 1, left - 1);
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Moves, attacks first (most valuable target, least valuable attacker); only
    /// attacks when `captures`.
    fn ordered_moves(&self, st: &State, captures: bool) -> Vec<(Square, Square)> {
        let mut moves = Vec::with_capacity(64);
        st.moves(&self.rules, &mut moves);
        let mut keyed: Vec<(i32, (Square, Square))> = moves
            .into_iter()
            .filter_map(|(f, t)| {
                let target = st.pos.get(t);
                if captures && target.is_none() {
                    return None;
                }
                let key = match (target, st.pos.get(f)) {
                    (Some(d), Some(a)) if d.piece == Piece::Flag => -100_000 - value(a.piece),
                    (Some(d), Some(a)) => -(value(d.piece) * 16 - value(a.piece)),
                    _ => 0,
                };
                Some((key, (f, t)))
            })
            .collect();
        keyed.sort_by_key(|&(k, _)| k);
        keyed.into_iter().map(|(_, m)| m).collect()
    }

    /// The value to the side to move of a root move.
    pub fn move_value(&mut self, st: &State, from: Square, to: Square, depth: i32) -> i32 {
        let child = st.play(from, to);
        -self.negamax(&child, depth - 1, -INF, INF, 1)
    }

    /// The expected value to the side to move of flipping `at`: every kind and colour
    /// the pool holds, weighted by its count.
    pub fn flip_value(&mut self, st: &State, at: Square, depth: i32) -> i32 {
        let total: i32 = st.pool.iter().flatten().map(|&n| n as i32).sum();
        if total == 0 {
            return evaluate(&self.rules, st, st.to_move);
        }
        let mut sum: i64 = 0;
        for c in Colour::BOTH {
            for (k, &n) in st.pool[c.index()].iter().enumerate() {
                if n == 0 {
                    continue;
                }
                let child = st.reveal(at, Piece::ALL[k], c);
                let v = -self.negamax(&child, depth - 1, -INF, INF, 1);
                sum += v as i64 * n as i64;
            }
        }
        (sum / total as i64) as i32
    }
}
