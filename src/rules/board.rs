//! The two-player board of RULES §1: 60 stations, their kinds, the road and rail
//! edges, and the straight rail lines.
//!
//! Its tables (`tables.rs`) are built once from the rules' own description (ranks,
//! files, lines) rather than typed in square by square, so the test that pins the §1
//! table checks the construction instead of repeating it.

use super::tables::tables;
use std::fmt;
use std::str::FromStr;
use std::sync::LazyLock;

/// A station, numbered in record order: a1, b1, c1, d1, e1, a2, … e12.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

pub const SQUARES: usize = 60;

impl Square {
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < 5 && rank >= 1 && rank <= 12 {
            Some(Square((rank - 1) * 5 + file))
        } else {
            None
        }
    }

    pub const fn from_index(i: usize) -> Option<Square> {
        if i < SQUARES {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// 0-based file: 0 = a … 4 = e.
    pub const fn file(self) -> u8 {
        self.0 % 5
    }

    /// 1-based rank: 1 = South's back row … 12 = North's back row.
    pub const fn rank(self) -> u8 {
        self.0 / 5 + 1
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// The square seen from the other side of the board (rank r ↔ 13−r).
    pub const fn mirror(self) -> Square {
        Square((12 - self.rank()) * 5 + self.file())
    }

    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES as u8).map(Square)
    }

    pub fn kind(self) -> StationKind {
        tables().kind[self.index()]
    }

    pub fn name(self) -> String {
        self.as_str().to_string()
    }

    /// The square's name ("a1" … "e12"), written into every message: looked up rather
    /// than formatted each time (formatting squares was 3% of the server's time under
    /// load).
    pub fn as_str(self) -> &'static str {
        &NAMES[self.index()]
    }
}

static NAMES: LazyLock<Vec<String>> = LazyLock::new(|| {
    (0..SQUARES as u8)
        .map(|i| {
            let s = Square(i);
            format!("{}{}", (b'a' + s.file()) as char, s.rank())
        })
        .collect()
});

shown_by_name!(Square);

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadSquare(pub String);

impl fmt::Display for BadSquare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown square {:?} (files a–e, ranks 1–12)", self.0)
    }
}

impl std::error::Error for BadSquare {}

impl FromStr for Square {
    type Err = BadSquare;
    fn from_str(s: &str) -> Result<Square, BadSquare> {
        let bad = || BadSquare(s.to_string());
        let mut chars = s.chars();
        let file = chars.next().ok_or_else(bad)?;
        if !('a'..='e').contains(&file) {
            return Err(bad());
        }
        let digits = chars.as_str();
        // Plain ASCII digits only: `u8::from_str` would also take "+1".
        if digits.is_empty()
            || digits.len() > 2
            || digits.starts_with('0')
            || !digits.bytes().all(|b| b.is_ascii_digit())
        {
            return Err(bad());
        }
        let rank: u8 = digits.parse().map_err(|_| bad())?;
        Square::new(file as u8 - b'a', rank).ok_or_else(bad)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StationKind {
    Headquarters,
    Camp,
    Rail,
    Road,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EdgeKind {
    Rail,
    Road,
}

/// A set of squares as a bitmask; cheap enough to use in the move generator.
#[derive(Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct SquareSet(pub u64);

impl SquareSet {
    pub const EMPTY: SquareSet = SquareSet(0);

    pub fn contains(self, sq: Square) -> bool {
        self.0 & sq.bit() != 0
    }
    pub fn insert(&mut self, sq: Square) {
        self.0 |= sq.bit();
    }
    pub fn remove(&mut self, sq: Square) {
        self.0 &= !sq.bit();
    }
    pub fn len(self) -> u32 {
        self.0.count_ones()
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn iter(self) -> SquareIter {
        SquareIter(self.0)
    }
}

impl fmt::Debug for SquareSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl FromIterator<Square> for SquareSet {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        let mut s = SquareSet::EMPTY;
        for sq in iter {
            s.insert(sq);
        }
        s
    }
}

pub struct SquareIter(u64);

impl Iterator for SquareIter {
    type Item = Square;
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Square(i as u8))
    }
}

/// Every connection of the board, each once, with its kind.
pub fn edges() -> &'static [(Square, Square, EdgeKind)] {
    &tables().edges
}

/// The straight rail lines along which a non-engineer may slide.
pub fn rail_lines() -> &'static [Vec<Square>] {
    &tables().lines
}

/// One-step neighbours (road and rail) of a station.
pub fn neighbours(s: Square) -> SquareSet {
    SquareSet(tables().adjacent[s.index()])
}

/// Rail neighbours of a station.
pub fn rail_neighbours(s: Square) -> SquareSet {
    SquareSet(tables().rail_adjacent[s.index()])
}

/// Road-only neighbours of a station (one-step links that are not rail).
pub fn road_neighbours(s: Square) -> SquareSet {
    let t = tables();
    SquareSet(t.adjacent[s.index()] & !t.rail_adjacent[s.index()])
}

pub fn is_south_half(s: Square) -> bool {
    s.rank() <= 6
}

/// The stations a piece is dealt or deployed on: all but the camps.
pub fn non_camp_squares() -> impl Iterator<Item = Square> {
    Square::all().filter(|s| s.kind() != StationKind::Camp)
}

/// The path a slide or flight takes from `from` to `to` over rail, through empty
/// stations only, or `None` if there is no such path. Non-engineers only follow a
/// straight line. Used to draw the last action; the move generator does not need it.
pub fn rail_path(
    from: Square,
    to: Square,
    engineer: bool,
    occupied: SquareSet,
) -> Option<Vec<Square>> {
    let t = tables();
    if !engineer {
        for ray in t.rays(from) {
            for (i, &s) in ray.iter().enumerate() {
                if s == to {
                    let mut p = vec![from];
                    p.extend_from_slice(&ray[..=i]);
                    return Some(p);
                }
                if occupied.contains(s) {
                    break;
                }
            }
        }
        return None;
    }
    // Breadth-first search gives the shortest flight, which is what a person draws.
    let mut prev = [u8::MAX; SQUARES];
    let mut queue = std::collections::VecDeque::from([from]);
    prev[from.index()] = from.0;
    while let Some(s) = queue.pop_front() {
        if s == to {
            let mut p = vec![to];
            let mut cur = to;
            while cur != from {
                cur = Square(prev[cur.index()]);
                p.push(cur);
            }
            p.reverse();
            return Some(p);
        }
        if s != from && occupied.contains(s) {
            continue;
        }
        for n in SquareSet(t.rail_adjacent[s.index()]).iter() {
            if prev[n.index()] == u8::MAX {
                prev[n.index()] = s.0;
                queue.push_back(n);
            }
        }
    }
    None
}

impl super::geometry::Place for Square {
    fn index(self) -> usize {
        self.0 as usize
    }
    fn from_index(i: usize) -> Option<Square> {
        Square::from_index(i)
    }
}

/// The bit operations of one word, for the position's generic code.
macro_rules! word_ops {
    ($t:ident) => {
        impl std::ops::BitAnd for $t {
            type Output = $t;
            #[inline]
            fn bitand(self, o: $t) -> $t {
                $t(self.0 & o.0)
            }
        }
        impl std::ops::BitOr for $t {
            type Output = $t;
            #[inline]
            fn bitor(self, o: $t) -> $t {
                $t(self.0 | o.0)
            }
        }
        impl std::ops::BitAndAssign for $t {
            #[inline]
            fn bitand_assign(&mut self, o: $t) {
                self.0 &= o.0
            }
        }
        impl std::ops::BitOrAssign for $t {
            #[inline]
            fn bitor_assign(&mut self, o: $t) {
                self.0 |= o.0
            }
        }
        impl std::ops::Not for $t {
            type Output = $t;
            #[inline]
            fn not(self) -> $t {
                $t(!self.0)
            }
        }
    };
}

word_ops!(SquareSet);

impl super::geometry::PlaceSet for SquareSet {
    type Place = Square;
    type Probe = u64;
    const EMPTY: SquareSet = SquareSet(0);
    #[inline]
    fn probe(p: Square) -> u64 {
        p.bit()
    }
    #[inline]
    fn hits(self, bit: u64) -> bool {
        self.0 & bit != 0
    }
    #[inline]
    fn single(p: Square) -> SquareSet {
        SquareSet(p.bit())
    }
    #[inline]
    fn contains(self, p: Square) -> bool {
        SquareSet::contains(self, p)
    }
    #[inline]
    fn insert(&mut self, p: Square) {
        SquareSet::insert(self, p)
    }
    #[inline]
    fn remove(&mut self, p: Square) {
        SquareSet::remove(self, p)
    }
    #[inline]
    fn len(self) -> u32 {
        SquareSet::len(self)
    }
    #[inline]
    fn is_empty(self) -> bool {
        SquareSet::is_empty(self)
    }
    #[inline]
    fn places(self) -> impl Iterator<Item = Square> {
        self.iter()
    }
}

/// The two-player board of RULES §1 as a type, for the generic position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct TwoPlayer;

impl super::geometry::Board for TwoPlayer {
    type Place = Square;
    type Set = SquareSet;
    type Army = super::piece::Colour;
    type Cells = [Option<super::piece::Token>; SQUARES];
    type Geometry = super::tables::Tables;
    #[inline]
    fn geometry() -> &'static super::tables::Tables {
        tables()
    }
    fn empty_cells() -> Self::Cells {
        [None; SQUARES]
    }
}
