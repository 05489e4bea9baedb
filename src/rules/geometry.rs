//! What the rules ask of a board and of its armies, so that one position and one move
//! generator serve the two-player board of RULES §1 and the four-player board of §5.1.
//!
//! Boards are types, not values: the position is generic over a [`Board`] and every
//! board's code is compiled on its own (monomorphised), so the two-player board keeps
//! its single-word masks and the move generator pays nothing for the second board.

use super::board::StationKind;
use super::piece::Token;
use std::fmt::{Debug, Display};
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

/// A station of a board, numbered from 0 in the board's own order.
pub trait Place:
    Copy + Eq + Ord + Hash + Debug + Display + serde::Serialize + Send + Sync + 'static
{
    fn index(self) -> usize;
    fn from_index(i: usize) -> Option<Self>;
}

/// A set of a board's stations as a bitmask.
///
/// `!set` may hold bits past the board's last station: every mask it is combined with
/// lies on the board, so the move generator never meets them (and does not pay to
/// clear them). Iterate only sets that are on the board.
pub trait PlaceSet:
    Copy
    + Eq
    + Hash
    + Default
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + Not<Output = Self>
{
    type Place: Place;
    /// A station made ready to test against several sets (`hits`): its bit, worked
    /// out once.
    type Probe: Copy;
    const EMPTY: Self;
    fn probe(p: Self::Place) -> Self::Probe;
    /// Whether the probed station is in the set.
    fn hits(self, probe: Self::Probe) -> bool;
    fn single(p: Self::Place) -> Self;
    fn contains(self, p: Self::Place) -> bool;
    fn insert(&mut self, p: Self::Place);
    fn remove(&mut self, p: Self::Place);
    fn len(self) -> u32;
    fn is_empty(self) -> bool;
    /// The stations in index order.
    fn places(self) -> impl Iterator<Item = Self::Place>;
}

/// Whose pieces a piece is: a colour on the two-player board, a seat in 四国.
pub trait Army: Copy + Eq + Ord + Hash + Debug + serde::Serialize + Send + Sync + 'static {
    /// One value per army, indexed by [`Army::index`].
    type Each<T: Copy + Eq + Hash + Debug + Send + Sync + 'static>: Copy
        + Eq
        + Hash
        + Debug
        + Send
        + Sync
        + AsRef<[T]>
        + AsMut<[T]>;
    /// Every army in index order.
    const ALL: &'static [Self];
    fn index(self) -> usize;
    fn each<T: Copy + Eq + Hash + Debug + Send + Sync + 'static>(value: T) -> Self::Each<T>;
}

/// One `T` per army of board `B`.
pub type Each<B, T> = <<B as Board>::Army as Army>::Each<T>;

/// A board: its stations and sets of them, its armies, and its geometry.
pub trait Board: Copy + Eq + Hash + Debug + Default + Send + Sync + 'static {
    type Place: Place;
    type Set: PlaceSet<Place = Self::Place>;
    type Army: Army;
    /// What stands on each station.
    type Cells: Copy
        + Eq
        + Hash
        + Send
        + Sync
        + AsRef<[Option<Token<Self::Army>>]>
        + AsMut<[Option<Token<Self::Army>>]>;
    type Geometry: Geometry<Place = Self::Place, Set = Self::Set>;
    /// The board's tables, built once.
    fn geometry() -> &'static Self::Geometry;
    fn empty_cells() -> Self::Cells;
}

/// Where pieces can go on a board (RULES §1.2–1.3, §5.1.2–5.1.3).
pub trait Geometry: Send + Sync + 'static {
    type Place: Place;
    type Set: PlaceSet<Place = Self::Place>;
    fn kind(&self, p: Self::Place) -> StationKind;
    /// One-step neighbours, over road or rail.
    fn neighbours(&self, p: Self::Place) -> Self::Set;
    /// Those of `candidates` with a neighbour in `set`.
    fn next_to(&self, candidates: Self::Set, set: Self::Set) -> Self::Set;
    /// Whether `next_to` is a few word operations for a whole set (the two-player
    /// board's shifts) rather than a loop over the candidates (四国's). The move
    /// generator sifts out movers without a move up front only when it is.
    const NEXT_TO_BY_SHIFTS: bool;
    /// Whether any of `candidates` has a neighbour in `set`: `next_to` that may stop
    /// at the first one found.
    #[inline]
    fn any_next_to(&self, candidates: Self::Set, set: Self::Set) -> bool {
        !self.next_to(candidates, set).is_empty()
    }
    /// Stations a piece slides on: the railway.
    fn rail(&self) -> Self::Set;
    fn camps(&self) -> Self::Set;
    fn headquarters(&self) -> Self::Set;
    /// Where a non-engineer on the rail station `from` slides: along each straight
    /// line, both ways, every station up to and including the first occupied one.
    fn slide_reach(&self, from: Self::Place, occupied: Self::Set) -> Self::Set;
    /// Where an engineer on the rail station `from` flies, turning freely through
    /// empty rail stations: every station of the flight and the first occupied one on
    /// each path.
    fn flight_reach(&self, from: Self::Place, occupied: Self::Set) -> Self::Set;
    /// The stations a slide (or, for an engineer, a flight) from `from` to `to` passes
    /// over the rail through empty stations, `from` first and `to` last: the shortest
    /// such flight, which is what a person draws. `None` if there is none. Used to
    /// show a move; the move generator does not need it.
    fn rail_path(
        &self,
        from: Self::Place,
        to: Self::Place,
        engineer: bool,
        occupied: Self::Set,
    ) -> Option<Vec<Self::Place>>;
}
