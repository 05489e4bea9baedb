//! Standard 军棋: what the rules have revealed about each opponent piece. Every piece
//! the opponent deployed is a token with a set of kinds it may still be:
//! - where it was deployed bounds it (the flag only in a headquarters, mines only on the
//!   last two ranks, bombs not on the front rank);
//! - a piece that moved is no mine and no flag;
//! - a piece that moved round a rail corner is an engineer;
//! - a combat outcome against a piece of ours (whose kind we know) keeps only the kinds
//!   that would give that outcome;
//! - a revealed flag names the flag, and the piece removed in that combat was the marshal.
//!
//! Removed tokens stay in the list: their kinds still count against the unseen set.

use crate::rules::board::{SQUARES, Square, StationKind, neighbours, rail_path};
use crate::rules::piece::resolve;
use crate::rules::view::{CellView, EventKind, EventView};
use crate::rules::{Colour, Combat, Piece, Seat, SquareSet};

/// A set of piece kinds, bit `Piece as usize`.
pub type Kinds = u16;

pub const ALL_KINDS: Kinds = (1 << 12) - 1;

pub const fn kind_bit(p: Piece) -> Kinds {
    1 << p as usize
}

pub const IMMOBILE: Kinds = kind_bit(Piece::Mine) | kind_bit(Piece::Flag);

/// One opponent piece as far as we know it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    pub kinds: Kinds,
    /// Where it stands now; `None` once removed.
    pub at: Option<Square>,
    pub moved: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Beliefs {
    pub tokens: Vec<Token>,
    by_square: Vec<Option<u8>>,
}

/// Ranks counted from the owner's back row: 1 = back row … 6 = front rank.
fn depth(owner: Seat, s: Square) -> u8 {
    match owner {
        Seat::South => s.rank(),
        Seat::North => 13 - s.rank(),
    }
}

/// The kinds the deployment rules allow on `s` for `owner`.
pub fn deployable(owner: Seat, s: Square) -> Kinds {
    let mut k = ALL_KINDS;
    if s.kind() != StationKind::Headquarters {
        k &= !kind_bit(Piece::Flag);
    }
    if depth(owner, s) > 2 {
        k &= !kind_bit(Piece::Mine);
    }
    if depth(owner, s) == 6 {
        k &= !kind_bit(Piece::Bomb);
    }
    k
}

/// Kinds `x` for which `attacker` meeting `defender` ends as `combat`, where the
/// unknown side is the one given as `None`.
fn consistent(attacker: Option<Piece>, defender: Option<Piece>, combat: Combat) -> Kinds {
    let mut k = 0;
    for x in Piece::ALL {
        let r = match (attacker, defender) {
            (None, Some(d)) => resolve(x, d),
            (Some(a), None) => resolve(a, x),
            _ => return ALL_KINDS,
        };
        if r == combat {
            k |= kind_bit(x);
        }
    }
    k
}

impl Beliefs {
    /// Tokens for every opponent piece on `board`. At the start (`fresh`) each is
    /// bounded by the deployment rules for its square; joining later, only by what
    /// the board shows. Pieces already gone are added with what is left of the set.
    pub fn start(
        board: &[Option<CellView>; SQUARES],
        enemy: Colour,
        owner: Seat,
        fresh: bool,
    ) -> Beliefs {
        let mut b = Beliefs {
            tokens: Vec::new(),
            by_square: vec![None; SQUARES],
        };
        for s in Square::all() {
            let Some(cell) = board[s.index()] else {
                continue;
            };
            if cell.colour != Some(enemy) {
                continue;
            }
            let kinds = match cell.piece {
                Some(p) => kind_bit(p),
                None if fresh => deployable(owner, s),
                None => ALL_KINDS,
            };
            b.by_square[s.index()] = Some(b.tokens.len() as u8);
            b.tokens.push(Token {
                kinds,
                at: Some(s),
                moved: false,
            });
        }
        while b.tokens.len() < 25 {
            b.tokens.push(Token {
                kinds: ALL_KINDS & !kind_bit(Piece::Flag),
                at: None,
                moved: true,
            });
        }
        b
    }

    pub fn at(&self, s: Square) -> Option<&Token> {
        self.by_square
            .get(s.index())
            .copied()
            .flatten()
            .map(|i| &self.tokens[i as usize])
    }

    fn narrow(&mut self, i: u8, kinds: Kinds) {
        let t = &mut self.tokens[i as usize];
        let k = t.kinds & kinds;
        // An outcome we cannot explain (a joined-late view) keeps the old bound.
        if k != 0 {
            t.kinds = k;
        }
    }

    fn remove(&mut self, i: u8) {
        let t = &mut self.tokens[i as usize];
        if let Some(s) = t.at.take() {
            self.by_square[s.index()] = None;
        }
    }

    /// Takes in one event as our seat learnt it, with the board as it stood before.
    pub fn observe(&mut self, ev: &EventView, before: &[Option<CellView>; SQUARES], enemy: Colour) {
        if self.by_square.is_empty() {
            return;
        }
        if let EventKind::Move {
            from,
            to,
            mover,
            target,
            combat,
        } = ev.kind
        {
            let mut enemy_removed = None;
            if mover.colour == Some(enemy) {
                let Some(i) = self.by_square[from.index()] else {
                    return;
                };
                self.tokens[i as usize].moved = true;
                let mut kinds = !IMMOBILE & ALL_KINDS;
                if !neighbours(from).contains(to) {
                    let occupied: SquareSet = Square::all()
                        .filter(|s| *s != to && before[s.index()].is_some())
                        .collect();
                    if rail_path(from, to, false, occupied).is_none() {
                        kinds = kind_bit(Piece::Engineer);
                    }
                }
                self.narrow(i, kinds);
                self.by_square[from.index()] = None;
                match (combat, target.and_then(|t| t.piece)) {
                    (None, _) => self.place(i, to),
                    (Some(c), Some(mine)) => {
                        self.narrow(i, consistent(None, Some(mine), c));
                        if c == Combat::AttackerWins {
                            self.place(i, to);
                        } else {
                            self.tokens[i as usize].at = None;
                            enemy_removed = Some(i);
                        }
                    }
                    (Some(_), None) => self.place(i, to),
                }
            } else if let (Some(c), Some(i)) = (combat, self.by_square[to.index()]) {
                if let Some(p) = mover.piece {
                    self.narrow(i, consistent(Some(p), None, c));
                }
                if c != Combat::DefenderWins {
                    self.remove(i);
                    enemy_removed = Some(i);
                }
            }
            for &s in &ev.flags_revealed {
                if let Some(i) = self.by_square[s.index()] {
                    self.tokens[i as usize].kinds = kind_bit(Piece::Flag);
                    if let Some(m) = enemy_removed {
                        self.tokens[m as usize].kinds = kind_bit(Piece::Marshal);
                    }
                }
            }
        }
    }

    fn place(&mut self, i: u8, to: Square) {
        self.tokens[i as usize].at = Some(to);
        self.by_square[to.index()] = Some(i);
    }
}
