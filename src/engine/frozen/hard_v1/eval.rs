//! hard-v1's copy of `engine::eval` as it stood at commit 57c6d4f, frozen as the
//! baseline the arena measures engine changes against: it must not change (the
//! golden test in `frozen::hard_v1` holds it to that commit's decisions).
//!
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

pub fn distance(a: Square, b: Square) -> i32 {
    DISTANCE[a.index()][b.index()] as i32
}

/// The position's worth to `side`, in value points.
pub fn evaluate(rules: &Rules, st: &State, side: Colour) -> i32 {
    let s = score(rules, st, side) - score(rules, st, side.other());
    // Keep clear of the win scores.
    s.clamp(-WIN / 2, WIN / 2)
}

/// Mines of `c` still standing, as the flag guard counts them.
fn mines(rules: &Rules, st: &State, c: Colour) -> u8 {
    // Dealt face down, a mine is counted before anyone has seen it.
    match rules.variant.caps().setup {
        SetupKind::Deal => st.pos.mines_left(c),
        SetupKind::Deployment => st.pos.count(c, Piece::Mine),
    }
}

fn score(rules: &Rules, st: &State, c: Colour) -> i32 {
    let enemy = c.other();
    let enemy_mines = mines(rules, st, enemy) as i32;
    let engineer_bonus = 4 * enemy_mines;
    let mut total = 0;
    if rules.variant.caps().deals() {
        for (k, &n) in st.pool[c.index()].iter().enumerate() {
            let p = Piece::ALL[k];
            total += n as i32 * value(p);
            if p == Piece::Engineer {
                total += n as i32 * engineer_bonus;
            }
        }
    }
    let mut movers: [(Square, Piece); 25] = [(Square::all().next().expect("a1"), Piece::Flag); 25];
    let mut n_movers = 0;
    for s in st.pos.of_colour(c).iter() {
        let Some(t) = st.known(rules, s) else {
            continue;
        };
        total += value(t.piece);
        if t.piece == Piece::Engineer {
            total += engineer_bonus;
        }
        let locked =
            rules.variant.caps().headquarters_lock && s.kind() == StationKind::Headquarters;
        if t.piece.movable() && !locked && n_movers < 25 {
            movers[n_movers] = (s, t.piece);
            n_movers += 1;
        }
    }
    let movers = &movers[..n_movers];
    if movers.is_empty() {
        return total;
    }
    // Pull towards the nearest enemy piece each piece beats: enemy stations by kind,
    // then for each of our pieces the rings of stations around it, nearest first.
    let mut by_kind = [0u64; 12];
    let mut flag: Option<Square> = None;
    for s in st.pos.of_colour(enemy).iter() {
        if let Some(t) = st.known(rules, s) {
            if t.piece == Piece::Flag {
                flag = Some(s);
            } else {
                by_kind[t.piece as usize] |= s.bit();
            }
        }
    }
    // When the enemy is down to its last movers, even trades end the game (a side
    // with nothing to flip or move loses), so they pull too.
    let enemy_movers: i32 = by_kind
        .iter()
        .enumerate()
        .filter(|&(k, _)| Piece::ALL[k].movable())
        .map(|(_, b)| b.count_ones() as i32)
        .sum::<i32>()
        + if rules.variant.caps().deals() {
            st.pool[enemy.index()]
                .iter()
                .enumerate()
                .filter(|&(k, _)| Piece::ALL[k].movable())
                .map(|(_, &n)| n as i32)
                .sum::<i32>()
        } else {
            0
        };
    let trades = enemy_movers <= 2 && (movers.len() as i32) > enemy_movers;
    let mut pull = 0;
    for &(from, p) in movers {
        let rings = &RINGS[from.index()];
        let mut best = 0;
        for q in Piece::ALL {
            let targets = by_kind[q as usize];
            let combat = resolve(p, q);
            let wanted = combat == Combat::AttackerWins
                || (trades && combat == Combat::BothRemoved && q.movable());
            if targets == 0
                || !wanted
                || (q == Piece::Mine
                    && rules.variant.caps().guarded_attacks
                    && p != Piece::Engineer)
            {
                continue;
            }
            let worth = value(q).min(40);
            if worth * 7 / 8 <= best {
                continue;
            }
            if let Some(d) = (1..8).find(|&d| rings[d] & targets != 0) {
                best = best.max(worth * (8 - d as i32) / 8);
            }
        }
        pull += best;
    }
    total += pull / 6;
    // The enemy flag, once it may be taken.
    if let Some(f) = flag
        && (!rules.variant.caps().guarded_attacks || enemy_mines == 0)
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
