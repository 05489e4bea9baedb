//! The 129 stations of the four-player board (RULES §5.1.1): their names, kinds and
//! grid places, and sets of them.

use crate::rules::board::Square;
use std::fmt;
use std::str::FromStr;
use std::sync::LazyLock;

/// The four seats in turn order (RULES §5.2): each seat's 下家 is the next one, the
/// seat on its right.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Seat4 {
    South,
    East,
    North,
    West,
}

impl Seat4 {
    pub const ALL: [Seat4; 4] = [Seat4::South, Seat4::East, Seat4::North, Seat4::West];

    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn name(self) -> &'static str {
        match self {
            Seat4::South => "south",
            Seat4::East => "east",
            Seat4::North => "north",
            Seat4::West => "west",
        }
    }

    /// The letter that begins its stations' names.
    pub const fn letter(self) -> char {
        match self {
            Seat4::South => 'S',
            Seat4::East => 'E',
            Seat4::North => 'N',
            Seat4::West => 'W',
        }
    }

    /// The next seat in turn order, on this one's right (下家).
    pub const fn next(self) -> Seat4 {
        Seat4::ALL[(self.index() + 1) % 4]
    }

    /// The seat across the board.
    pub const fn opposite(self) -> Seat4 {
        Seat4::ALL[(self.index() + 2) % 4]
    }
}

impl fmt::Display for Seat4 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Kinds of station: a seat area's four, and the 九宫's rail stations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Hq,
    Camp,
    Rail,
    Road,
    Center,
}

pub const STATIONS: usize = 129;
/// Places across (and up) the grid that [`Station::grid`] puts the stations on.
pub const GRID: i8 = 17;
/// Stations of one seat's area.
pub const AREA: usize = 30;
/// The 九宫 by compass, in index order (south row, middle row, north row; west to east).
pub const CENTER_NAMES: [&str; 9] = ["XSW", "XS", "XSE", "XW", "XC", "XE", "XNW", "XN", "XNE"];

/// A station: a seat's area in seat order (30 each, numbered like the two-player
/// South half: a1 … e6), then the 九宫.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Station(u8);

impl Station {
    /// Station `file` (0 = a … 4 = e), `rank` (1 = back row … 6 = front row) of `seat`.
    pub const fn of(seat: Seat4, file: u8, rank: u8) -> Option<Station> {
        if file < 5 && rank >= 1 && rank <= 6 {
            Some(Station((seat.index() * AREA) as u8 + (rank - 1) * 5 + file))
        } else {
            None
        }
    }

    /// The 九宫 station `i` of [`CENTER_NAMES`].
    pub const fn center(i: usize) -> Option<Station> {
        if i < 9 {
            Some(Station((4 * AREA + i) as u8))
        } else {
            None
        }
    }

    pub const fn from_index(i: usize) -> Option<Station> {
        if i < STATIONS {
            Some(Station(i as u8))
        } else {
            None
        }
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub fn all() -> impl Iterator<Item = Station> {
        (0..STATIONS as u8).map(Station)
    }

    /// The seat whose area holds it; `None` in the 九宫.
    pub const fn seat(self) -> Option<Seat4> {
        if self.index() < 4 * AREA {
            Some(Seat4::ALL[self.index() / AREA])
        } else {
            None
        }
    }

    /// The same station as a square of the two-player South half (a1 … e6), which every
    /// area is named and laid out like; `None` in the 九宫.
    pub fn as_south_square(self) -> Option<Square> {
        let i = self.index();
        (i < 4 * AREA).then(|| Square::from_index(i % AREA).expect("a1 … e6"))
    }

    pub fn kind(self) -> Kind {
        use crate::rules::StationKind;
        match self.as_south_square() {
            None => Kind::Center,
            Some(sq) => match sq.kind() {
                StationKind::Headquarters => Kind::Hq,
                StationKind::Camp => Kind::Camp,
                StationKind::Rail => Kind::Rail,
                StationKind::Road => Kind::Road,
            },
        }
    }

    /// Whether a piece on it slides on rail (area rail stations and the 九宫).
    pub fn is_rail(self) -> bool {
        matches!(self.kind(), Kind::Rail | Kind::Center)
    }

    /// Its place on the board's 17 × 17 grid: x grows east, y north; South's a1 is
    /// (6, 0) and XC (8, 8). Each area is South's turned about XC.
    pub fn grid(self) -> (i8, i8) {
        match (self.seat(), self.as_south_square()) {
            (Some(seat), Some(sq)) => {
                let (mut x, mut y) = (6 + sq.file() as i8, sq.rank() as i8 - 1);
                // A quarter turn anticlockwise about (8, 8) per seat after South.
                for _ in 0..seat.index() {
                    (x, y) = (GRID - 1 - y, x);
                }
                (x, y)
            }
            _ => {
                let i = (self.index() - 4 * AREA) as i8;
                (6 + 2 * (i % 3), 6 + 2 * (i / 3))
            }
        }
    }

    /// "Sa1" … "We6", "XSW" … "XNE".
    pub fn as_str(self) -> &'static str {
        &NAMES[self.index()]
    }
}

static NAMES: LazyLock<Vec<String>> = LazyLock::new(|| {
    Station::all()
        .map(|s| match (s.seat(), s.as_south_square()) {
            (Some(seat), Some(sq)) => format!("{}{}", seat.letter(), sq.as_str()),
            _ => CENTER_NAMES[s.index() - 4 * AREA].to_string(),
        })
        .collect()
});

shown_by_name!(Station);

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadStation(pub String);

impl fmt::Display for BadStation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown station {:?} (a seat S, E, N or W with a1 … e6, or XSW, XS, XSE, XW, XC, \
             XE, XNW, XN, XNE)",
            self.0
        )
    }
}

impl std::error::Error for BadStation {}

impl FromStr for Station {
    type Err = BadStation;
    fn from_str(s: &str) -> Result<Station, BadStation> {
        let bad = || BadStation(s.to_string());
        if let Some(i) = CENTER_NAMES.iter().position(|n| *n == s) {
            return Station::center(i).ok_or_else(bad);
        }
        let seat = match s.chars().next() {
            Some('S') => Seat4::South,
            Some('E') => Seat4::East,
            Some('N') => Seat4::North,
            Some('W') => Seat4::West,
            _ => return Err(bad()),
        };
        let sq: Square = s[1..].parse().map_err(|_| bad())?;
        Station::of(seat, sq.file(), sq.rank()).ok_or_else(bad)
    }
}

/// A set of stations in four words: 129 stations are one bit more than a `u128`, and
/// with four words every station's word index (its `u8` over 64) is in bounds by type,
/// so no access is bounds-checked. Three words, each access checked, cost 四国
/// self-play 70 more instructions per action (3,944 against 3,874, callgrind).
///
/// Every set holds stations only: word 2 holds at most station 128 (its bit 0) and word
/// 3 nothing, `!` included, so that counting needs no masking.
#[derive(Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct StationSet(pub(super) [u64; 4]);

impl StationSet {
    pub const EMPTY: StationSet = StationSet([0; 4]);

    pub fn contains(self, s: Station) -> bool {
        self.0[s.index() / 64] & (1 << (s.index() % 64)) != 0
    }
    pub fn insert(&mut self, s: Station) {
        self.0[s.index() / 64] |= 1 << (s.index() % 64);
    }
    pub fn remove(&mut self, s: Station) {
        self.0[s.index() / 64] &= !(1 << (s.index() % 64));
    }
    /// Word 2 holds one bit. Built for x86-64-v2 (`.cargo/config.toml`) the counts are
    /// `popcnt` instructions: 四国 self-play 2,514 → 2,248 instructions per action
    /// (callgrind) against the hand-written bit count that plain x86-64 needed.
    pub fn len(self) -> u32 {
        self.0[0].count_ones() + self.0[1].count_ones() + self.0[2] as u32
    }
    pub fn is_empty(self) -> bool {
        self.0[0] | self.0[1] | self.0[2] == 0
    }
    pub fn union(self, other: StationSet) -> StationSet {
        self | other
    }
    pub fn iter(self) -> StationIter {
        StationIter {
            bits: self.0[0],
            base: 0,
            rest: [self.0[1], self.0[2]],
        }
    }
}

/// A set's stations in index order, a word at a time: the word being read kept apart
/// from the ones to come, so that it can stay in a register (四国 self-play 3,166 →
/// 2,967 instructions per action against indexing an array of the four each time).
pub struct StationIter {
    bits: u64,
    /// The index of the word's bit 0.
    base: u8,
    rest: [u64; 2],
}

impl Iterator for StationIter {
    type Item = Station;
    #[inline]
    fn next(&mut self) -> Option<Station> {
        while self.bits == 0 {
            // Words 1 and 2 follow word 0; word 3 is always empty.
            if self.base >= 128 {
                return None;
            }
            self.base += 64;
            self.bits = self.rest[(self.base / 64 - 1) as usize & 1];
        }
        let i = self.bits.trailing_zeros() as u8;
        self.bits &= self.bits - 1;
        Some(Station(self.base + i))
    }
}

macro_rules! words_op {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl std::ops::$tr for StationSet {
            type Output = StationSet;
            #[inline]
            fn $f(self, o: StationSet) -> StationSet {
                StationSet([
                    self.0[0] $op o.0[0],
                    self.0[1] $op o.0[1],
                    self.0[2] $op o.0[2],
                    self.0[3] $op o.0[3],
                ])
            }
        }
        impl std::ops::$atr for StationSet {
            #[inline]
            fn $af(&mut self, o: StationSet) {
                *self = std::ops::$tr::$f(*self, o);
            }
        }
    };
}

words_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
words_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);

impl std::ops::Not for StationSet {
    type Output = StationSet;
    #[inline]
    fn not(self) -> StationSet {
        // Stations only: word 2 has one, word 3 none.
        StationSet([!self.0[0], !self.0[1], !self.0[2] & 1, 0])
    }
}

impl crate::rules::geometry::PlaceSet for StationSet {
    type Place = Station;
    /// The word and the bit in it.
    type Probe = (usize, u64);
    const EMPTY: StationSet = StationSet::EMPTY;
    #[inline]
    fn probe(p: Station) -> (usize, u64) {
        (p.index() / 64, 1 << (p.index() % 64))
    }
    #[inline]
    fn hits(self, (word, bit): (usize, u64)) -> bool {
        self.0[word] & bit != 0
    }
    #[inline]
    fn single(p: Station) -> StationSet {
        let mut s = StationSet::EMPTY;
        s.insert(p);
        s
    }
    #[inline]
    fn contains(self, p: Station) -> bool {
        StationSet::contains(self, p)
    }
    #[inline]
    fn insert(&mut self, p: Station) {
        StationSet::insert(self, p)
    }
    #[inline]
    fn remove(&mut self, p: Station) {
        StationSet::remove(self, p)
    }
    #[inline]
    fn len(self) -> u32 {
        StationSet::len(self)
    }
    #[inline]
    fn is_empty(self) -> bool {
        StationSet::is_empty(self)
    }
    #[inline]
    fn places(self) -> impl Iterator<Item = Station> {
        self.iter()
    }
}

impl fmt::Debug for StationSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl FromIterator<Station> for StationSet {
    fn from_iter<I: IntoIterator<Item = Station>>(iter: I) -> Self {
        let mut set = StationSet::EMPTY;
        for s in iter {
            set.insert(s);
        }
        set
    }
}
