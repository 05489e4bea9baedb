//! 四国: what a seat has learnt about every piece it cannot see (enemies', and its
//! ally's without 友明). Each such piece is a token with the kinds it may still be:
//! - where it was deployed bounds it (RULES §5.8: the flag only in a headquarters,
//!   mines only on the last two ranks, bombs not on the front rank);
//! - a piece that moved is no mine and no flag; one whose route needed a turn on the
//!   rail is an engineer (the route is public, §5.3);
//! - an attack keeps, for both pieces, only the kinds that could give the outcome seen
//!   against what the other might be (so a piece that beat our colonel is above it);
//! - a shown flag names the flag, and the piece of its seat that fell with it was the
//!   marshal.
//!
//! Removed tokens stay in the list: their kinds still count against what the seat's
//! 25 pieces can be.

use crate::rules::hidden_game::{Cell, EventView, SeatView};
use crate::rules::piece::resolve;
use crate::rules::siguo::{FourPlayer, Kind};
use crate::rules::siguo::{Seat4, Station};
use crate::rules::{Combat, Piece};

/// Sets of piece kinds as the two-player beliefs keep them.
pub use crate::engine::beliefs::{ALL_KINDS, IMMOBILE, Kinds, kind_bit};

/// One piece of another seat as far as this seat knows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    pub kinds: Kinds,
    /// Where it stands now; `None` once removed.
    pub at: Option<Station>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Beliefs {
    /// Tokens of each seat; a defeated seat's are dropped with its pieces.
    pub tokens: [Vec<Token>; 4],
    /// The token standing on each station: (seat index, token index).
    by_station: Vec<Option<(u8, u8)>>,
}

/// The kinds the deployment rules allow on `s` for `owner` (§5.8, as §4.1).
pub fn deployable(owner: Seat4, s: Station) -> Kinds {
    let Some(sq) = s.as_south_square().filter(|_| s.seat() == Some(owner)) else {
        // Nothing is deployed outside its own area; a piece there has moved.
        return ALL_KINDS & !IMMOBILE;
    };
    let mut k = ALL_KINDS;
    if s.kind() != Kind::Hq {
        k &= !kind_bit(Piece::Flag);
    }
    if sq.rank() > 2 {
        k &= !kind_bit(Piece::Mine);
    }
    if sq.rank() == 6 {
        k &= !kind_bit(Piece::Bomb);
    }
    k
}

/// Kinds of `a` that could meet some kind of `d` with outcome `c`, and kinds of `d`
/// that could be met so by some kind of `a`.
fn consistent(a: Kinds, d: Kinds, c: Combat) -> (Kinds, Kinds) {
    let (mut ka, mut kd) = (0, 0);
    for x in Piece::ALL {
        if a & kind_bit(x) == 0 {
            continue;
        }
        for y in Piece::ALL {
            if d & kind_bit(y) != 0 && resolve(x, y) == c {
                ka |= kind_bit(x);
                kd |= kind_bit(y);
            }
        }
    }
    (ka, kd)
}

/// What a cell names, as a set of kinds.
fn named(cell: &Cell<Seat4>) -> Option<Kinds> {
    cell.piece.map(kind_bit)
}

impl Beliefs {
    /// Tokens for every piece `view.seat` cannot name. At the very start each is
    /// bounded by where it was deployed; joining later, only by what it shows.
    pub fn start(view: &SeatView<FourPlayer>) -> Beliefs {
        let mut b = Beliefs {
            tokens: Default::default(),
            by_station: vec![None; crate::rules::siguo::station::STATIONS],
        };
        let fresh = view.steps == 0;
        for &(s, cell) in &view.cells {
            if cell.seat == view.seat {
                continue;
            }
            let kinds = match named(&cell) {
                Some(k) => k,
                None if fresh => deployable(cell.seat, s),
                None => ALL_KINDS,
            };
            let seat = cell.seat.index();
            b.by_station[s.index()] = Some((seat as u8, b.tokens[seat].len() as u8));
            b.tokens[seat].push(Token { kinds, at: Some(s) });
        }
        for seat in Seat4::ALL {
            let list = &mut b.tokens[seat.index()];
            if seat == view.seat || !view.is_in_play(seat) {
                list.clear();
                continue;
            }
            // Pieces already gone when we sat down: anything but the flag, which
            // stays on the board while its seat is in play.
            while list.len() < 25 {
                list.push(Token {
                    kinds: ALL_KINDS & !kind_bit(Piece::Flag),
                    at: None,
                });
            }
        }
        b
    }

    /// The token on `s`, if it is another seat's piece.
    pub fn at(&self, s: Station) -> Option<&Token> {
        let (seat, i) = self.by_station[s.index()]?;
        Some(&self.tokens[seat as usize][i as usize])
    }

    fn token(&mut self, key: (u8, u8)) -> &mut Token {
        &mut self.tokens[key.0 as usize][key.1 as usize]
    }

    fn narrow(&mut self, key: (u8, u8), kinds: Kinds) {
        let t = self.token(key);
        // An outcome we cannot explain keeps the old bound rather than none.
        if t.kinds & kinds != 0 {
            t.kinds &= kinds;
        }
    }

    fn lift(&mut self, s: Station) -> Option<(u8, u8)> {
        let key = self.by_station[s.index()].take()?;
        self.token(key).at = None;
        Some(key)
    }

    fn place(&mut self, key: (u8, u8), s: Station) {
        self.token(key).at = Some(s);
        self.by_station[s.index()] = Some(key);
    }

    /// Takes in one event as this seat was sent it, `before` being the seat's view
    /// of the board just before it.
    pub fn observe(&mut self, ev: &EventView<FourPlayer>, before: &SeatView<FourPlayer>) {
        let Some(route) = ev.route.as_deref().filter(|r| r.len() >= 2) else {
            self.drop_defeated(ev);
            return;
        };
        let (from, to) = (route[0], route[route.len() - 1]);
        let mover_key = self.by_station[from.index()];
        let target_key = self.by_station[to.index()];
        let kinds_of = |key: Option<(u8, u8)>, cell: Option<&Cell<Seat4>>, this: &Beliefs| {
            cell.and_then(named)
                .or_else(|| key.map(|k| this.tokens[k.0 as usize][k.1 as usize].kinds))
                .unwrap_or(ALL_KINDS)
        };
        if let Some(k) = mover_key {
            let mut kinds = ALL_KINDS & !IMMOBILE;
            if turned(from, to, before) {
                kinds = kind_bit(Piece::Engineer);
            }
            self.narrow(k, kinds);
        }
        let mut fallen: Vec<(u8, u8)> = Vec::new();
        match ev.combat {
            None => {
                if let Some(k) = self.lift(from) {
                    self.place(k, to);
                }
            }
            Some(c) => {
                let a = kinds_of(mover_key, ev.mover.as_ref(), self);
                let d = kinds_of(target_key, ev.target.as_ref(), self);
                let (ka, kd) = consistent(a, d, c);
                if let Some(k) = mover_key {
                    self.narrow(k, ka);
                }
                if let Some(k) = target_key {
                    self.narrow(k, kd);
                }
                let mover = self.lift(from);
                if c != Combat::DefenderWins {
                    fallen.extend(self.lift(to));
                }
                match (c, mover) {
                    (Combat::AttackerWins, Some(k)) => self.place(k, to),
                    (_, Some(k)) => fallen.push(k),
                    (_, None) => {}
                }
            }
        }
        for &f in &ev.flags_shown {
            let Some(key) = self.by_station[f.index()] else {
                continue;
            };
            self.token(key).kinds = kind_bit(Piece::Flag);
            // The flag shows because its seat's last marshal fell just now.
            if let Some(&m) = fallen.iter().find(|m| m.0 == key.0) {
                self.token(m).kinds = kind_bit(Piece::Marshal);
            }
        }
        self.drop_defeated(ev);
    }

    fn drop_defeated(&mut self, ev: &EventView<FourPlayer>) {
        for (seat, left) in &ev.defeated {
            for &s in left {
                self.by_station[s.index()] = None;
            }
            self.tokens[seat.index()].clear();
        }
    }

    /// Whatever the new view names (a shown flag, an ally's piece under 友明) is
    /// known exactly.
    pub fn refresh(&mut self, view: &SeatView<FourPlayer>) {
        for &(s, cell) in &view.cells {
            if let (Some(k), Some(key)) = (named(&cell), self.by_station[s.index()]) {
                self.token(key).kinds = k;
            }
        }
    }
}

/// Whether a move from `from` to `to` needed an engineer: not a step to a neighbour
/// and no straight slide over the board as it stood (occupancy is public).
fn turned(from: Station, to: Station, before: &SeatView<FourPlayer>) -> bool {
    use crate::rules::geometry::{Board, Geometry};
    let tb = FourPlayer::geometry();
    if tb.neighbours(from).contains(to) {
        return false;
    }
    let mut occupied = before.closed;
    for &(s, _) in &before.cells {
        if s != to {
            occupied.insert(s);
        }
    }
    tb.rail_path(from, to, false, occupied).is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_piece_that_beat_a_colonel_is_above_it() {
        let (a, _) = consistent(ALL_KINDS, kind_bit(Piece::Colonel), Combat::AttackerWins);
        for p in Piece::ALL {
            let above = p.rank().is_some_and(|r| r > 5);
            assert_eq!(a & kind_bit(p) != 0, above, "{p:?}");
        }
        // A colonel that attacked and lost met something above it or a mine.
        let (_, d) = consistent(kind_bit(Piece::Colonel), ALL_KINDS, Combat::DefenderWins);
        assert!(d & kind_bit(Piece::Mine) != 0 && d & kind_bit(Piece::Major) == 0);
        assert!(d & kind_bit(Piece::Bomb) == 0, "a bomb takes both");
    }

    #[test]
    fn deployment_bounds_follow_the_area() {
        let s = |name: &str| name.parse::<Station>().unwrap();
        assert!(deployable(Seat4::East, s("Eb1")) & kind_bit(Piece::Flag) != 0);
        assert!(deployable(Seat4::East, s("Ea1")) & kind_bit(Piece::Flag) == 0);
        assert!(deployable(Seat4::East, s("Ec3")) & kind_bit(Piece::Mine) == 0);
        assert!(deployable(Seat4::East, s("Ea6")) & kind_bit(Piece::Bomb) == 0);
        assert!(deployable(Seat4::East, s("Sa1")) & IMMOBILE == 0);
    }
}
