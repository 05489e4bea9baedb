//! Static evaluation of a 四国 world for one seat's alliance: the sum over its seats
//! still in play minus the same over their enemies', each seat counting
//! - being in play at all (a defeated seat loses its turns, not only its pieces);
//! - its material;
//! - how close enemy movers stand to its flag (the enemies' counted as our attack on
//!   their headquarters, ours as the danger to our own flag);
//! - the best attack each seat has open now, the seat to move's weighing most: a
//!   cheap look past the search's horizon at what hangs, flags included;
//! - for our side only, once per root move (`our_pull`), how near our pieces stand
//!   to enemy pieces they would beat and to enemy flags.
//!
//! An ally's seat counts exactly like our own: in 对家 its result is ours (§5.4.2).

use crate::rules::geometry::{Board, Geometry, PlaceSet};
use crate::rules::hidden_game::HiddenGame;
use crate::rules::piece::resolve;
use crate::rules::siguo::{FourPlayer, Seat4, Station, StationSet};
use crate::rules::{Combat, Piece};
use std::sync::LazyLock;

pub const WIN: i32 = 100_000;

/// A seat still in play, over its pieces.
const IN_PLAY: i32 = 250;
/// What taking a flag is worth to the attack term (the seat falls with it).
const FLAG_TAKEN: i32 = 900;

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
        Piece::Engineer => 14,
        Piece::Bomb => 40,
        Piece::Mine => 12,
        Piece::Flag => 0,
    }
}

/// What an attack of `a` on `d` wins for the attacker's side, in value points.
pub fn gain(a: Piece, d: Piece) -> i32 {
    if d == Piece::Flag {
        return FLAG_TAKEN;
    }
    match resolve(a, d) {
        Combat::AttackerWins => value(d),
        Combat::DefenderWins => -value(a),
        Combat::BothRemoved => value(d) - value(a),
    }
}

/// Travel cost between stations: a rail step 1 (a slide covers many in one move), a
/// road step 3. Distances up to `REACH` matter; farther is "far".
const REACH: i32 = 12;

static DISTANCE: LazyLock<Vec<[u8; 129]>> = LazyLock::new(|| {
    let tb = FourPlayer::geometry();
    let rail = tb.rail();
    Station::all()
        .map(|from| {
            let mut d = [u8::MAX; 129];
            d[from.index()] = 0;
            // Dijkstra on small integer weights: a bucket queue.
            let mut buckets: Vec<Vec<Station>> = vec![vec![from]];
            let mut k = 0;
            while k < buckets.len() {
                let here = std::mem::take(&mut buckets[k]);
                for s in here {
                    if d[s.index()] as usize != k {
                        continue;
                    }
                    for n in tb.neighbours(s).places() {
                        let w = if rail.contains(s) && rail.contains(n) {
                            1
                        } else {
                            3
                        };
                        let nd = k + w;
                        if nd < d[n.index()] as usize && nd < 255 {
                            d[n.index()] = nd as u8;
                            if buckets.len() <= nd {
                                buckets.resize(nd + 1, Vec::new());
                            }
                            buckets[nd].push(n);
                        }
                    }
                }
                k += 1;
            }
            d
        })
        .collect()
});

pub fn distance(a: Station, b: Station) -> i32 {
    DISTANCE[a.index()][b.index()] as i32
}

/// The world's worth to the alliance of `me`.
pub fn evaluate(g: &HiddenGame<FourPlayer>, me: Seat4) -> i32 {
    if let Some(v) = terminal(g, me, 0) {
        return v;
    }
    let pos = g.position();
    let hq = FourPlayer::geometry().headquarters();
    let mut movers = [StationSet::EMPTY; 4];
    let mut flags = [StationSet::EMPTY; 4];
    let mut material = [0i32; 4];
    for (s, t) in pos.tokens() {
        let i = t.colour.index();
        material[i] += value(t.piece);
        if t.piece == Piece::Flag {
            flags[i].insert(s);
        } else if t.piece.movable() && !hq.contains(s) {
            movers[i].insert(s);
        }
    }
    let mut total = 0;
    for seat in Seat4::ALL {
        if !g.is_in_play(seat) {
            continue;
        }
        let i = seat.index();
        let mut score = IN_PLAY + material[i];
        // Enemy movers near this seat's flag.
        let mut danger = 0;
        for f in flags[i].places() {
            for foe in Seat4::ALL {
                if g.allied(seat, foe) || !g.is_in_play(foe) {
                    continue;
                }
                for m in movers[foe.index()].places() {
                    danger = danger.max(REACH - distance(m, f).min(REACH));
                }
            }
        }
        score -= 4 * danger;

        let best = best_attack(g, seat, &material);
        let weight = if seat == g.to_move() { 2 } else { 4 };
        score += best.max(0) / weight;
        if g.allied(me, seat) {
            total += score;
        } else {
            total -= score;
        }
    }
    total.clamp(-WIN / 2, WIN / 2)
}

/// The pull of our alliance's pieces towards what they would beat (see `pull`),
/// counted once per root move rather than at every leaf: below the root only
/// attacks are searched, which change it little, and it is the evaluation's most
/// costly term.
pub fn our_pull(g: &HiddenGame<FourPlayer>, me: Seat4) -> i32 {
    let pos = g.position();
    let hq = FourPlayer::geometry().headquarters();
    let mut total = 0;
    for seat in Seat4::ALL {
        if g.allied(me, seat) && g.is_in_play(seat) {
            let mut movers = StationSet::EMPTY;
            for s in pos.of_colour(seat).places() {
                if pos.get(s).is_some_and(|t| t.piece.movable()) && !hq.contains(s) {
                    movers.insert(s);
                }
            }
            total += pull(g, seat, &movers) / 8;
        }
    }
    total
}

/// How close `seat`'s movers stand to enemy pieces they would beat: for each mover
/// the best of (worth of the target, capped) × nearness, summed. It draws pieces
/// forward to where attacks will open, past the search's horizon.
fn pull(g: &HiddenGame<FourPlayer>, seat: Seat4, movers: &StationSet) -> i32 {
    let pos = g.position();
    let mut foes = StationSet::EMPTY;
    for foe in Seat4::ALL {
        if !g.allied(seat, foe) && g.is_in_play(foe) {
            foes |= pos.of_colour(foe);
        }
    }
    let mut total = 0;
    for m in movers.places() {
        let a = pos.get(m).expect("a mover stands there").piece;
        let mut best = 0;
        for t in foes.places() {
            let near = REACH - distance(m, t).min(REACH);
            if near == 0 {
                continue;
            }
            let d = pos.get(t).expect("a foe stands there").piece;
            let worth = match resolve(a, d) {
                _ if d == Piece::Flag => 60,
                Combat::AttackerWins => value(d).min(40),
                _ => continue,
            };
            best = best.max(worth * near / REACH);
        }
        total += best;
    }
    total
}

/// The value of a finished world to `me`'s alliance, `ply` plies from the root (a
/// quicker win is better).
pub fn terminal(g: &HiddenGame<FourPlayer>, me: Seat4, ply: i32) -> Option<i32> {
    g.ending()?;
    Some(if g.won(me) {
        WIN - ply
    } else if Seat4::ALL.into_iter().any(|s| g.won(s)) {
        -(WIN - ply)
    } else {
        0
    })
}

/// The best gain among `seat`'s attacks in this world (0 with none), as if it were to
/// move: only who stands where matters, not whose turn it is. A flag is worth what its
/// seat is worth here (`material` by seat), so that taking it always beats keeping
/// the threat, which the evaluation counts at a half or a quarter.
fn best_attack(g: &HiddenGame<FourPlayer>, seat: Seat4, material: &[i32; 4]) -> i32 {
    let pos = g.position();
    let mut best = 0;
    let side = g.side(seat);
    pos.for_each_mover(
        crate::rules::siguo::CAPS,
        &Default::default(),
        side,
        |from, to| {
            let targets = to & pos.occupied();
            if targets.is_empty() {
                return;
            }
            let a = pos.get(from).expect("a mover stands there").piece;
            for t in targets.places() {
                if let Some(d) = pos.get(t) {
                    let worth = match d.piece {
                        Piece::Flag => IN_PLAY + material[d.colour.index()],
                        p => gain(a, p),
                    };
                    best = best.max(worth);
                }
            }
        },
    );
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rail_brings_stations_closer_than_road() {
        let s = |n: &str| n.parse::<Station>().unwrap();
        assert_eq!(distance(s("Sa1"), s("Sa1")), 0);
        // Sa2 to Se2 along rank 2 is four rail steps; Sa1 to Sa2 one road step.
        assert_eq!(distance(s("Sa2"), s("Se2")), 4);
        assert_eq!(distance(s("Sa1"), s("Sa2")), 3);
        assert!(distance(s("Sa6"), s("Nb1")) < 255);
    }
}
