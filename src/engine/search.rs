//! Alpha-beta (negamax, principal-variation windows) with a transposition table,
//! killer and history move ordering and a capture-only quiescence search, counted in
//! nodes so that a budget gives the same result on any machine.
//!
//! Flip chess: the root treats each flip as a chance node, averaging over every kind
//! and colour the public pool could reveal there, weighted by how many remain (see
//! [`Search::flip_value`]). Below the root a flip is a step whose piece stays unknown:
//! the turn passes, so the threats against the side that flips are still seen (valuing
//! a flip as standing still let every threat wait while anything was face down).
//! Standard 军棋: the caller searches each determinization and averages.
//! Both: a draw limit reached inside the search is a draw (0), so a side ahead looks
//! for the attack that resets the count.

use super::Limits;
use super::eval::{WIN, evaluate, value};
use super::state::{Rules, State};
use super::tt::{Bound, Table, pack};
use crate::rules::board::{SQUARES, Square};
use crate::rules::piece::resolve;
use crate::rules::{Colour, Combat, Piece};

pub const INF: i32 = WIN * 2;
const QUIESCENCE_PLIES: i32 = 6;
const MAX_PLY: usize = 64;
/// Values this close to a win are wins at a known distance: stored relative to the
/// node, so a table hit at another distance from the root reads right.
const WON: i32 = WIN - 1_000;

/// Nodes searched between two looks at the clock and the stop flag: reading the clock
/// at every node would cost more than the node.
pub(crate) const CHECK_EVERY: u64 = 256;

pub struct Search<'a> {
    pub rules: Rules,
    pub nodes: u64,
    pub limit: u64,
    /// The wall clock and stop flag of a live game; none in the arena, whose results
    /// depend on node counts alone.
    limits: Limits<'a>,
    /// Set once the clock ran out or the search was told to stop.
    stopped: bool,
    tt: &'a mut Table,
    killers: [[u16; 2]; MAX_PLY],
    history: Box<[[i32; SQUARES]; SQUARES]>,
}

// Nodes searched on this thread, for tests that check how far a search went: a count
// of work holds on a busy machine where a measured time does not.
#[cfg(test)]
thread_local! {
    pub(crate) static SEARCHED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

#[cfg(test)]
impl Drop for Search<'_> {
    fn drop(&mut self) {
        SEARCHED.with(|n| n.set(n.get() + self.nodes));
    }
}

fn to_table(v: i32, ply: i32) -> i32 {
    if v >= WON {
        v + ply
    } else if v <= -WON {
        v - ply
    } else {
        v
    }
}

fn from_table(v: i32, ply: i32) -> i32 {
    if v >= WON {
        v - ply
    } else if v <= -WON {
        v + ply
    } else {
        v
    }
}

impl<'a> Search<'a> {
    pub fn new(rules: Rules, limit: u64, limits: Limits<'a>, tt: &'a mut Table) -> Search<'a> {
        Search {
            rules,
            nodes: 0,
            limit,
            limits,
            stopped: false,
            tt,
            killers: [[0; 2]; MAX_PLY],
            history: Box::new([[0; SQUARES]; SQUARES]),
        }
    }

    /// Whether the node budget is spent or the search was stopped: every node from
    /// then on is valued as it stands, and the root discards what it was searching.
    pub fn exhausted(&mut self) -> bool {
        if self.stopped || self.nodes >= self.limit {
            return true;
        }
        if self.nodes % CHECK_EVERY == 0 && self.limits.reached() {
            self.stopped = true;
        }
        self.stopped
    }

    /// Whether the clock or the stop flag ended the search (not its node budget).
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Whether the search can go on: neither stopped nor out of nodes.
    pub fn running(&self) -> bool {
        !self.stopped && self.nodes < self.limit
    }

    /// Forgets the table and the ordering learnt so far: a new determinization.
    pub fn forget(&mut self) {
        self.tt.next_generation();
        self.killers = [[0; 2]; MAX_PLY];
        for row in self.history.iter_mut() {
            row.fill(0);
        }
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
        if st.drawn(&self.rules) {
            return 0;
        }
        if self.exhausted() {
            return evaluate(&self.rules, st, st.to_move);
        }
        if depth <= 0 || ply as usize >= MAX_PLY {
            return self.quiesce(st, alpha, beta, ply, QUIESCENCE_PLIES);
        }
        let mut hinted = 0;
        if let Some(f) = self.tt.probe(st.hash) {
            hinted = f.best;
            if f.depth >= depth {
                let v = from_table(f.value, ply);
                match f.bound {
                    Bound::Exact => return v,
                    Bound::Lower if v >= beta => return v,
                    Bound::Upper if v <= alpha => return v,
                    _ => {}
                }
            }
        }
        let moves = self.ordered_moves(st, hinted, ply as usize);
        let can_flip = st.can_flip(&self.rules);
        if moves.is_empty() && !can_flip {
            // Nothing face down and nothing to move: the side to move loses.
            return -(WIN - ply);
        }
        let start_alpha = alpha;
        let mut best = -INF;
        let mut best_move = 0u16;
        let mut first = true;
        if can_flip {
            let v = -self.negamax(&st.flip_unseen(), depth - 1, -beta, -alpha, ply + 1);
            best = v;
            alpha = alpha.max(v);
            first = false;
        }
        for &(from, to, _) in &moves {
            if alpha >= beta {
                break;
            }
            let child = st.play(from, to);
            let v = if first {
                -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1)
            } else {
                let v = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, ply + 1);
                if v > alpha && v < beta {
                    -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1)
                } else {
                    v
                }
            };
            first = false;
            if v > best {
                best = v;
                best_move = pack(from, to);
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        self.reward(st, from, to, depth, ply as usize);
                    }
                }
            }
        }
        if self.running() {
            let bound = if best <= start_alpha {
                Bound::Upper
            } else if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            self.tt
                .store(st.hash, to_table(best, ply), depth, bound, best_move);
        }
        best
    }

    /// A quiet move that cut the search off is tried early elsewhere.
    fn reward(&mut self, st: &State, from: Square, to: Square, depth: i32, ply: usize) {
        if st.pos.get(to).is_some() {
            return;
        }
        let m = pack(from, to);
        let k = &mut self.killers[ply];
        if k[0] != m {
            k[1] = k[0];
            k[0] = m;
        }
        let h = &mut self.history[from.index()][to.index()];
        *h = (*h + depth * depth).min(1 << 20);
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
        for (from, to) in self.captures(st) {
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

    /// How promising a move looks before it is searched: the table's move, then
    /// captures by what they win (the flag first, losing attacks last), the killers,
    /// then quiet moves by history.
    fn order_key(&self, st: &State, from: Square, to: Square, hinted: u16, ply: usize) -> i32 {
        let m = pack(from, to);
        if m == hinted {
            return i32::MAX;
        }
        match (st.pos.get(to), st.pos.get(from)) {
            (Some(d), Some(a)) => capture_key(a.piece, d.piece),
            _ if self.killers[ply][0] == m => 900_000,
            _ if self.killers[ply][1] == m => 899_000,
            _ => self.history[from.index()][to.index()],
        }
    }

    fn ordered_moves(&self, st: &State, hinted: u16, ply: usize) -> Vec<(Square, Square, i32)> {
        let mut moves = Vec::with_capacity(64);
        st.moves(&self.rules, &mut moves);
        let mut keyed: Vec<(Square, Square, i32)> = moves
            .into_iter()
            .map(|(f, t)| (f, t, self.order_key(st, f, t, hinted, ply)))
            .collect();
        keyed.sort_unstable_by_key(|&(f, t, k)| sort_key(k, f, t));
        keyed
    }

    /// Attacks worth looking at in quiescence: those that do not simply lose the
    /// attacker, best first.
    fn captures(&self, st: &State) -> Vec<(Square, Square)> {
        let mut moves = Vec::with_capacity(64);
        st.moves(&self.rules, &mut moves);
        let mut keyed: Vec<(i32, Square, Square)> = moves
            .into_iter()
            .filter_map(|(f, t)| {
                let (d, a) = (st.pos.get(t)?, st.pos.get(f)?);
                let k = capture_key(a.piece, d.piece);
                (k > 0).then_some((k, f, t))
            })
            .collect();
        keyed.sort_unstable_by_key(|&(k, f, t)| sort_key(k, f, t));
        keyed.into_iter().map(|(_, f, t)| (f, t)).collect()
    }

    /// The value to the side to move of a root move, searched `depth` plies in all,
    /// exact above `alpha` (below it, a bound).
    pub fn move_value(
        &mut self,
        st: &State,
        from: Square,
        to: Square,
        depth: i32,
        alpha: i32,
    ) -> i32 {
        let child = st.play(from, to);
        -self.negamax(&child, depth - 1, -INF, -alpha, 1)
    }

    /// The expected value to the side to move of flipping `at`: every kind and colour
    /// the pool holds, weighted by its count, each searched `depth` plies in all.
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

/// One integer that sorts moves by `key`, highest first, then by their stations: the
/// order a tuple of the three gives, compared in one step (sorting was 6% of a
/// standard decision with the tuple).
fn sort_key(key: i32, from: Square, to: Square) -> u64 {
    let descending = !((key as u32) ^ 0x8000_0000) as u64;
    (descending << 16) | ((from.index() as u64) << 8) | to.index() as u64
}

/// The ordering key of `attacker` attacking `defender`: the flag first, winning
/// attacks by the victim's worth, then trades, then attacks that lose the attacker
/// (negative: never in quiescence).
fn capture_key(attacker: Piece, defender: Piece) -> i32 {
    if defender == Piece::Flag {
        return 2_000_000;
    }
    let (a, d) = (value(attacker), value(defender));
    match resolve(attacker, defender) {
        Combat::AttackerWins => 1_000_000 + d * 16 - a,
        Combat::BothRemoved if d >= a => 950_000 + d - a,
        Combat::BothRemoved => d - a,
        Combat::DefenderWins => -1_000_000 - a,
    }
}
