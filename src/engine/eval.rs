//! Static evaluation: material by kind (engineers worth more while the opponent has
//! mines to clear), and small terms that pull pieces towards what they can take and,
//! once it may be taken, towards the enemy flag. Both sides are scored the same way,
//! so the same terms reward guarding one's own flag.

use super::state::{Rules, State};
use crate::rules::board::{SQUARES, Square, StationKind, neighbours};
use crate::rules::piece::resolve;
use crate::rules::{Colour, Combat, Piece, SetupKind};
use std::sync::LazyLock;

pub const WIN: i32 = 30_000;

/// Material value of one piece.
pub const fn value(p: Piece) -> i32 {
    match p {
        Piece::Marshal => 100,
        Piece::General => 72,
        Piece::MajorGeneral => 50,
        Piece::Brigadier => 35,
        Piece::Colonel => 25,
        Piece::Major => 17,
        Piece::Captain => 12,
        Piece::Lieutenant => 8,
        Piece::Engineer => 10,
        Piece::Bomb => 44,
        Piece::Mine => 14,
        Piece::Flag => 0,
    }
}

/// Road and rail steps between two stations, one station a step.
static DISTANCE: LazyLock<Vec<[u8; SQUARES]>> = LazyLock::new(|| {
    Square::all()
        .map(|from| {
            let mut d = [u8::MAX; SQUARES];
            d[from.index()] = 0;
            let mut queue = std::collections::VecDeque::from([from]);
            while let Some(s) = queue.pop_front() {
                for n in neighbours(s).iter() {
                    if d[n.index()] == u8::MAX {
                        d[n.index()] = d[s.index()] + 1;
                        queue.push_back(n);
                    }
                }
            }
            d
        })
        .collect()
});

/// For each station, the stations at exactly d steps, d = 0..8.
static RINGS: LazyLock<Vec<[u64; 8]>> = LazyLock::new(|| {
    Square::all()
        .map(|from| {
            let mut r = [0u64; 8];
            for to in Square::all() {
                let d = DISTANCE[from.index()][to.index()] as usize;
                if d < 8 {
                    r[d] |= to.bit();
                }
            }
            r
        })
        .collect()
});

/// A kind of piece another kind is pulled towards: one it beats, or (`trade`) one it
/// trades with, wanted only when the enemy is down to its last movers.
struct Prey {
    kind: u8,
    worth: i32,
    /// The most it can pull, from the next station.
    reach: i32,
    trade: bool,
}

/// For each attacking kind, the kinds it is pulled towards, worth first. Looking these
/// up instead of resolving all twelve kinds for each mover cut a standard decision's
/// time by a third (BENCHMARKS.md, "Faster evaluation"); the values are the same.
static PREY: LazyLock<[Vec<Prey>; 12]> = LazyLock::new(|| {
    std::array::from_fn(|a| {
        let p = Piece::ALL[a];
        let mut prey: Vec<Prey> = Piece::ALL
            .into_iter()
            .filter_map(|q| {
                let trade = match resolve(p, q) {
                    Combat::AttackerWins => false,
                    Combat::BothRemoved if q.movable() => true,
                    _ => return None,
                };
                Some(Prey {
                    kind: q as u8,
                    worth: value(q).min(40),
                    reach: value(q).min(40) * 7 / 8,
                    trade,
                })
            })
            .collect();
        prey.sort_by_key(|t| std::cmp::Reverse(t.worth));
        prey
    })
});

pub fn distance(a: Square, b: Square) -> i32 {
    DISTANCE[a.index()][b.index()] as i32
}

/// The position's worth to `side`, in value points.
pub fn evaluate(rules: &Rules, st: &State, side: Colour) -> i32 {
    // One pass over the board for both sides: each side's score reads the other's
    // pieces too, and scanning them once per side instead of three times saved 8%
    // of a standard decision's time (BENCHMARKS.md, "Faster evaluation").
    let own = Census::of(rules, st, side);
    let other = Census::of(rules, st, side.other());
    let s = score(rules, &own, &other) - score(rules, &other, &own);
    let s = s * limit_factor(rules, st) / 1024;
    // Keep clear of the win scores.
    s.clamp(-WIN / 2, WIN / 2)
}

/// How much of an advantage is still worth having as the draw limits near, in 1/1024:
/// a lead shrinks towards the draw (0) as the steps without an attack run out, and
/// again as the game nears its last step. An attack resets the first count, so the
/// side ahead values the attack that keeps its lead, and values it sooner rather
/// than later; the side behind values stalling, as a person does.
fn limit_factor(rules: &Rules, st: &State) -> i32 {
    let shrink = |used: u32, limit: u32, from: u32, most: i64| -> i64 {
        if limit == u32::MAX || used <= limit * from / 8 {
            return 0;
        }
        let start = (limit * from / 8) as i64;
        let span = (limit as i64 - start).max(1);
        let past = (used as i64 - start).min(span);
        most * past * past / (span * span)
    };
    // From a quarter of the quiet steps on (20 of 80), up to 80% of the lead is
    // lost; from five eighths of all steps (187 of 300) on, up to 60%.
    let quiet = shrink(st.quiet, rules.quiet_limit, 2, 820);
    let steps = shrink(st.steps, rules.step_limit, 5, 614);
    (1024 - quiet - steps).max(100) as i32
}

/// What the evaluation needs to know of one side's pieces.
struct Census {
    /// Material of the pieces whose identity is known, and of the pool (flip chess).
    material: i32,
    /// Engineers among them, worth more while the other side has mines.
    engineers: i32,
    /// Mines still standing, as the flag guard counts them (face down ones too).
    mines: i32,
    /// Known pieces that may move (a headquarters holds its piece in standard 军棋).
    movers: [(Square, Piece); 25],
    n_movers: usize,
    /// Stations of the known pieces by kind, the flag apart.
    by_kind: [u64; 12],
    flag: Option<Square>,
    /// Pieces that may move, on the board and in the pool, locked ones included.
    movable: i32,
}

impl Census {
    fn of(rules: &Rules, st: &State, c: Colour) -> Census {
        let caps = rules.variant.caps();
        let mut n = Census {
            material: 0,
            engineers: 0,
            // Dealt face down, a mine is counted before anyone has seen it.
            mines: match caps.setup {
                SetupKind::Deal => st.pos.mines_left(c) as i32,
                SetupKind::Deployment => 0,
            },
            movers: [(Square::all().next().expect("a1"), Piece::Flag); 25],
            n_movers: 0,
            by_kind: [0; 12],
            flag: None,
            movable: 0,
        };
        if caps.deals() {
            for (k, &count) in st.pool[c.index()].iter().enumerate() {
                let p = Piece::ALL[k];
                n.material += count as i32 * value(p);
                if p == Piece::Engineer {
                    n.engineers += count as i32;
                }
                if p.movable() {
                    n.movable += count as i32;
                }
            }
        }
        for s in st.pos.of_colour(c).iter() {
            let Some(t) = st.known(rules, s) else {
                continue;
            };
            let p = t.piece;
            n.material += value(p);
            match p {
                Piece::Engineer => n.engineers += 1,
                Piece::Mine if caps.setup == SetupKind::Deployment => n.mines += 1,
                _ => {}
            }
            if p == Piece::Flag {
                n.flag = Some(s);
            } else {
                n.by_kind[p as usize] |= s.bit();
            }
            if p.movable() {
                n.movable += 1;
                let locked = caps.headquarters_lock && s.kind() == StationKind::Headquarters;
                if !locked && n.n_movers < 25 {
                    n.movers[n.n_movers] = (s, p);
                    n.n_movers += 1;
                }
            }
        }
        n
    }
}

/// One side's score, `enemy` the other side's census.
fn score(rules: &Rules, own: &Census, enemy: &Census) -> i32 {
    let total = own.material + own.engineers * 4 * enemy.mines;
    let movers = &own.movers[..own.n_movers];
    if movers.is_empty() {
        return total;
    }
    // Pull towards the nearest enemy piece each piece beats: enemy stations by kind,
    // then for each of our pieces the rings of stations around it, nearest first.
    // When the enemy is down to its last movers, even trades end the game (a side
    // with nothing to flip or move loses), so they pull too.
    let enemy_movers = enemy.movable;
    let trades = enemy_movers <= 2 && (movers.len() as i32) > enemy_movers;
    let guarded = rules.variant.caps().guarded_attacks;
    let mut pull = 0;
    for &(from, p) in movers {
        let rings = &RINGS[from.index()];
        let mut best = 0;
        for t in &PREY[p as usize] {
            // Sorted by worth: once even the nearest of these could not beat the
            // best, no later one can.
            if t.reach <= best {
                break;
            }
            let targets = enemy.by_kind[t.kind as usize];
            if targets == 0
                || (t.trade && !trades)
                || (t.kind == Piece::Mine as u8 && guarded && p != Piece::Engineer)
            {
                continue;
            }
            if let Some(d) = (1..8).find(|&d| rings[d] & targets != 0) {
                best = best.max(t.worth * (8 - d as i32) / 8);
            }
        }
        pull += best;
    }
    // Hunting the last movers is how a lead becomes a win (a side with nothing to
    // flip or move loses), so the pull grows as they dwindle.
    let mut total = total + pull / if enemy_movers <= 4 { 2 } else { 6 };
    // The enemy flag, once it may be taken.
    if let Some(f) = enemy.flag
        && (!guarded || enemy.mines == 0)
    {
        let d = movers
            .iter()
            .map(|&(s, _)| distance(s, f))
            .min()
            .unwrap_or(12);
        total += 4 * (12 - d.min(12));
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_cover_the_board() {
        let a1: Square = "a1".parse().unwrap();
        let e12: Square = "e12".parse().unwrap();
        assert_eq!(distance(a1, a1), 0);
        assert!(distance(a1, e12) < 20);
        assert_eq!(distance(a1, "a2".parse().unwrap()), 1);
    }
}
