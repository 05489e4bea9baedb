//! Choosing actions for the test players from full knowledge of the deal.
//!
//! The tests mirror every live game in a local `Game` built from the true deal (read
//! from the database), so these functions see every piece. Random play rarely takes a
//! flag, so `attacker` is goal-directed: it clears the three enemy mines with engineers
//! and bombs and then takes the flag, and `defender` only plays harmless steps.

use junqi::rules::board::neighbours;
use junqi::rules::{Action, Colour, EndReason, Game, Piece, Position, Seat, Square, SquareSet};
use std::collections::VecDeque;

/// A small deterministic generator (xorshift64*), so a failing game can be replayed.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    pub fn pick<T: Copy>(&mut self, items: &[T]) -> Option<T> {
        (!items.is_empty()).then(|| items[self.below(items.len())])
    }
}

pub fn legal(game: &Game) -> Vec<Action> {
    let mut out = Vec::new();
    game.legal_actions(&mut out);
    out
}

pub fn is_attack(game: &Game, action: Action) -> bool {
    matches!(action, Action::Move { to, .. } if game.position().get(to).is_some())
}

/// The game after `seat` plays `action`, or `None` when the rules refuse it.
pub fn after(game: &Game, seat: Seat, action: Action) -> Option<Game> {
    let mut next = game.clone();
    next.apply(seat, action, None).ok()?;
    Some(next)
}

/// A step that changes nothing that matters: a move onto an empty station that does
/// not repeat, or else a flip, never one that ends the game. With `prefer_flips`, flips
/// come first while any piece is face down. `None` when every step would end the game.
pub fn harmless(game: &Game, rng: &mut Rng, prefer_flips: bool) -> Option<Action> {
    let seat = game.to_move();
    let all = legal(game);
    let safe = |a: &Action| after(game, seat, *a).is_some_and(|g| !g.is_over());
    let quiet: Vec<Action> = all
        .iter()
        .copied()
        .filter(|a| match *a {
            Action::Move { from, to } => {
                game.position().get(to).is_none() && !game.would_repeat(seat, from, to)
            }
            _ => false,
        })
        .filter(safe)
        .collect();
    let flips: Vec<Action> = all
        .iter()
        .copied()
        .filter(|a| matches!(a, Action::Flip(_)))
        .filter(safe)
        .collect();
    let (first, second) = if prefer_flips {
        (&flips, &quiet)
    } else {
        (&quiet, &flips)
    };
    rng.pick(first).or_else(|| rng.pick(second))
}

/// The defender: harmless steps, flips first (they show the attacker its pieces for free).
pub fn defender(game: &Game, rng: &mut Rng) -> Action {
    harmless(game, rng, true)
        .or_else(|| rng.pick(&legal(game)))
        .expect("the side to move has a legal action")
}

const INF: i32 = 1_000;

/// What passing over an occupied station costs the attacker's path: a flip, moving its
/// own piece away, or a capture; `INF` when the station can never be cleared.
fn obstacle(pos: &Position, mine: Colour, s: Square, mines_left: u8) -> i32 {
    let Some(t) = pos.get(s) else { return 0 };
    let fixed = matches!(t.piece, Piece::Mine | Piece::Flag);
    if t.colour == mine {
        if fixed {
            INF
        } else if t.shown {
            2
        } else {
            4
        }
    } else if t.piece == Piece::Flag && mines_left > 0 {
        INF
    } else if t.shown {
        3
    } else {
        5
    }
}

/// Cheapest path cost from any agent of `mine` to any target, by Dijkstra from the
/// targets over one-step links, with `obstacle` costs on the stations passed.
fn path_cost(pos: &Position, mine: Colour, agents: SquareSet, targets: SquareSet) -> i32 {
    let enemy = mine.other();
    let mines_left = pos.mines_left(enemy);
    let mut dist = [INF; 60];
    let mut queue: Vec<(i32, Square)> = Vec::new();
    for t in targets.iter() {
        let flip = pos.get(t).map_or(0, |tok| if tok.shown { 0 } else { 3 });
        dist[t.index()] = 1 + flip;
        queue.push((dist[t.index()], t));
    }
    // Small graph: a simple O(n²) Dijkstra is plenty.
    let mut done = [false; 60];
    while let Some((i, _)) = queue
        .iter()
        .enumerate()
        .filter(|(_, (_, s))| !done[s.index()])
        .min_by_key(|(_, (d, _))| *d)
    {
        let (d, u) = queue.swap_remove(i);
        if done[u.index()] || d > dist[u.index()] {
            continue;
        }
        done[u.index()] = true;
        if agents.contains(u) && !targets.contains(u) {
            // Agents are where paths end; do not walk through them to others.
            continue;
        }
        for v in neighbours(u).iter() {
            let c = if agents.contains(v) {
                0
            } else {
                obstacle(pos, mine, v, mines_left)
            };
            if c >= INF {
                continue;
            }
            let nd = d + 1 + c;
            if nd < dist[v.index()] {
                dist[v.index()] = nd;
                queue.push((nd, v));
            }
        }
    }
    agents
        .iter()
        .map(|a| {
            let face_down = pos.get(a).is_some_and(|t| !t.shown);
            let d = dist[a.index()];
            if d >= INF {
                INF
            } else {
                // `dist[a]` counted one step onto the agent's own station.
                d - 1 + if face_down { 3 } else { 0 }
            }
        })
        .min()
        .unwrap_or(INF)
}

fn squares_where(pos: &Position, f: impl Fn(Square, junqi::rules::Token) -> bool) -> SquareSet {
    let mut out = SquareSet::EMPTY;
    for (s, t) in pos.tokens() {
        if f(s, t) {
            out.insert(s);
        }
    }
    out
}

/// Steps through empty stations from `from` to a neighbour of `to` (0 when adjacent).
fn approach(pos: &Position, from: Square, to: Square) -> i32 {
    let mut seen = from.bit();
    let mut queue = VecDeque::from([(from, 0)]);
    while let Some((s, d)) = queue.pop_front() {
        if neighbours(s).contains(to) {
            return d;
        }
        for n in neighbours(s).iter() {
            if seen & n.bit() == 0 && pos.get(n).is_none() {
                seen |= n.bit();
                queue.push_back((n, d + 1));
            }
        }
    }
    12
}

fn beats(attacker: Piece, defender: Piece) -> bool {
    matches!(
        junqi::rules::piece::resolve(attacker, defender),
        junqi::rules::Combat::AttackerWins
    ) && defender != Piece::Mine
        && defender != Piece::Flag
}

/// How good `game` (after the attacker's step) is for the attacker `me`.
fn evaluate(game: &Game, me: Seat) -> f64 {
    if let Some(o) = game.outcome() {
        return if o.winner == Some(me) && o.reason == EndReason::Flag {
            1e9
        } else {
            -1e9
        };
    }
    let Some(mine) = game.colour_of(me) else {
        return 0.0;
    };
    let enemy = mine.other();
    let pos = game.position();
    let mines_left = pos.mines_left(enemy);
    let mut score = -1000.0 * mines_left as f64;
    score += 20.0 * pos.lost(enemy) as f64 - 25.0 * pos.lost(mine) as f64;
    let (agents, targets) = if mines_left > 0 {
        (
            squares_where(pos, |_, t| {
                t.colour == mine && matches!(t.piece, Piece::Engineer | Piece::Bomb)
            }),
            squares_where(pos, |_, t| t.colour == enemy && t.piece == Piece::Mine),
        )
    } else {
        (
            squares_where(pos, |_, t| t.colour == mine && t.piece.movable()),
            squares_where(pos, |_, t| t.colour == enemy && t.piece == Piece::Flag),
        )
    };
    score -= 10.0 * path_cost(pos, mine, agents, targets).min(60) as f64;
    // Hunting: own pieces close in on the enemy pieces they beat, which clears paths and
    // keeps the 80-step counter from running out.
    let hunters: Vec<(Square, Piece)> = pos
        .tokens()
        .filter(|(_, t)| t.colour == mine && t.shown && t.piece.rank().is_some_and(|r| r >= 3))
        .map(|(s, t)| (s, t.piece))
        .collect();
    for (s, t) in pos.tokens() {
        if t.colour != enemy || !t.shown {
            continue;
        }
        let best = hunters
            .iter()
            .filter(|(_, p)| beats(*p, t.piece))
            .map(|&(h, _)| approach(pos, h, s))
            .min()
            .unwrap_or(12);
        score -= 0.5 * best as f64;
    }
    let quiet = game.quiet_steps() as f64;
    if quiet > 45.0 {
        score -= (quiet - 45.0) * 8.0;
    }
    score
}

/// The attacker's step: flips until colours are known, then the step whose result
/// `evaluate` likes best (a flag take above all, then mine clearing, captures and
/// shorter paths), never a move that would lose by repetition.
pub fn attacker(game: &Game, rng: &mut Rng) -> Action {
    let me = game.to_move();
    let all = legal(game);
    if game.colours().is_none() {
        return rng
            .pick(&all)
            .expect("flips are left before colours are known");
    }
    let mut best: Option<(f64, Action)> = None;
    for &a in &all {
        if let Action::Move { from, to } = a
            && game.would_repeat(me, from, to)
        {
            continue;
        }
        let Some(next) = after(game, me, a) else {
            continue;
        };
        let s = evaluate(&next, me) + rng.unit() * 3.0;
        if best.is_none_or(|(b, _)| s > b) {
            best = Some((s, a));
        }
    }
    best.map(|(_, a)| a)
        .or_else(|| rng.pick(&all))
        .expect("the side to move has a legal action")
}

/// Plays a whole game locally with `attacker` for `attacking` and `defender` for the
/// other seat. Returns the finished game.
pub fn play_locally(mut game: Game, attacking: Seat, rng: &mut Rng) -> Game {
    while !game.is_over() {
        let seat = game.to_move();
        let a = if seat == attacking {
            attacker(&game, rng)
        } else {
            defender(&game, rng)
        };
        game.apply(seat, a, None)
            .expect("the policy picks legal actions");
    }
    game
}

/// A step for a long game: harmless (flips first, so that attacks become possible),
/// except that once the 80-step counter passes 60
/// any attack that does not end the game is taken (even a losing one), to reset it.
pub fn long_game(game: &Game, rng: &mut Rng) -> Action {
    let seat = game.to_move();
    if game.quiet_steps() >= 60 {
        let attacks: Vec<Action> = legal(game)
            .into_iter()
            .filter(|&a| is_attack(game, a))
            .filter(|&a| after(game, seat, a).is_some_and(|g| !g.is_over()))
            .collect();
        if let Some(a) = rng.pick(&attacks) {
            return a;
        }
    }
    harmless(game, rng, true)
        .or_else(|| rng.pick(&legal(game)))
        .expect("the side to move has a legal action")
}
