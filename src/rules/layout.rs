//! Standard 军棋 deployment: layouts, their validation and random layouts (RULES §4.1–§4.2).

use super::board::{SQUARES, Square, StationKind, is_south_half};
use super::piece::{Colour, Piece, Seat};
use rand::Rng;
use rand::seq::{IndexedRandom, SliceRandom};
use std::collections::BTreeMap;
use std::fmt;

/// One player's 25 pieces by square.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Layout(pub BTreeMap<Square, Piece>);

/// A broken deployment rule, with the square it concerns where there is one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LayoutViolation {
    OutsideOwnHalf(Square),
    InCamp(Square),
    EmptyStation(Square),
    WrongCount {
        piece: Piece,
        expected: u8,
        found: u8,
    },
    FlagOutsideHeadquarters(Square),
    MineForward(Square),
    BombOnFrontRank(Square),
}

impl LayoutViolation {
    pub fn square(&self) -> Option<Square> {
        match *self {
            LayoutViolation::OutsideOwnHalf(s)
            | LayoutViolation::InCamp(s)
            | LayoutViolation::EmptyStation(s)
            | LayoutViolation::FlagOutsideHeadquarters(s)
            | LayoutViolation::MineForward(s)
            | LayoutViolation::BombOnFrontRank(s) => Some(s),
            LayoutViolation::WrongCount { .. } => None,
        }
    }

    /// A short machine-readable name, for clients that mark the board.
    pub fn code(&self) -> &'static str {
        match self {
            LayoutViolation::OutsideOwnHalf(_) => "outside_own_half",
            LayoutViolation::InCamp(_) => "in_camp",
            LayoutViolation::EmptyStation(_) => "empty_station",
            LayoutViolation::WrongCount { .. } => "wrong_count",
            LayoutViolation::FlagOutsideHeadquarters(_) => "flag_outside_headquarters",
            LayoutViolation::MineForward(_) => "mine_forward",
            LayoutViolation::BombOnFrontRank(_) => "bomb_on_front_rank",
        }
    }
}

impl fmt::Display for LayoutViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LayoutViolation::OutsideOwnHalf(s) => write!(f, "{s} is not in your half"),
            LayoutViolation::InCamp(s) => write!(f, "{s} is a camp; camps start empty"),
            LayoutViolation::EmptyStation(s) => write!(
                f,
                "{s} is empty; every non-camp station of your half holds a piece"
            ),
            LayoutViolation::WrongCount {
                piece,
                expected,
                found,
            } => write!(f, "{found} × {piece} placed, the set has {expected}"),
            LayoutViolation::FlagOutsideHeadquarters(s) => {
                write!(
                    f,
                    "the flag on {s} must stand in one of your two headquarters"
                )
            }
            LayoutViolation::MineForward(s) => {
                write!(f, "the mine on {s} must stand on your last two ranks")
            }
            LayoutViolation::BombOnFrontRank(s) => {
                write!(f, "the bomb on {s} may not stand on your front rank")
            }
        }
    }
}

/// Ranks counted from the seat's own back row: 1 = back row … 6 = front rank.
fn depth(seat: Seat, s: Square) -> u8 {
    match seat {
        Seat::South => s.rank(),
        Seat::North => 13 - s.rank(),
    }
}

fn own_half(seat: Seat, s: Square) -> bool {
    is_south_half(s) == (seat == Seat::South)
}

/// The 25 stations a seat deploys on.
pub fn deployment_squares(seat: Seat) -> impl Iterator<Item = Square> {
    Square::all().filter(move |&s| own_half(seat, s) && s.kind() != StationKind::Camp)
}

impl Layout {
    /// Every broken rule; empty when the layout may be used.
    pub fn violations(&self, seat: Seat) -> Vec<LayoutViolation> {
        let mut v = Vec::new();
        for (&s, &p) in &self.0 {
            if !own_half(seat, s) {
                v.push(LayoutViolation::OutsideOwnHalf(s));
                continue;
            }
            if s.kind() == StationKind::Camp {
                v.push(LayoutViolation::InCamp(s));
                continue;
            }
            match p {
                Piece::Flag if s.kind() != StationKind::Headquarters => {
                    v.push(LayoutViolation::FlagOutsideHeadquarters(s))
                }
                Piece::Mine if depth(seat, s) > 2 => v.push(LayoutViolation::MineForward(s)),
                Piece::Bomb if depth(seat, s) == 6 => v.push(LayoutViolation::BombOnFrontRank(s)),
                _ => {}
            }
        }
        for s in deployment_squares(seat) {
            if !self.0.contains_key(&s) {
                v.push(LayoutViolation::EmptyStation(s));
            }
        }
        let mut counts = [0u8; Piece::ALL.len()];
        for &p in self.0.values() {
            counts[p as usize] = counts[p as usize].saturating_add(1);
        }
        for p in Piece::ALL {
            let found = counts[p as usize];
            if found != p.count() {
                v.push(LayoutViolation::WrongCount {
                    piece: p,
                    expected: p.count(),
                    found,
                });
            }
        }
        v
    }

    /// The layout as its owner sees it from their own side: South's squares as they
    /// are, North's turned half a turn (e12 ↔ a1), so a saved layout fits either seat.
    pub fn to_own_view(&self, seat: Seat) -> Layout {
        match seat {
            Seat::South => self.clone(),
            Seat::North => self.turned(),
        }
    }

    /// The inverse of [`Layout::to_own_view`]: a layout seen from its owner's side,
    /// placed on `seat`'s half.
    pub fn from_own_view(&self, seat: Seat) -> Layout {
        self.to_own_view(seat)
    }

    fn turned(&self) -> Layout {
        Layout(
            self.0
                .iter()
                .map(|(s, p)| {
                    let t = Square::new(4 - s.file(), 13 - s.rank()).expect("on the board");
                    (t, *p)
                })
                .collect(),
        )
    }

    pub fn is_valid(&self, seat: Seat) -> bool {
        self.violations(seat).is_empty()
    }

    /// Swaps the pieces on two squares of the layout; a no-op when either is empty.
    pub fn swap(&mut self, a: Square, b: Square) -> bool {
        match (self.0.get(&a).copied(), self.0.get(&b).copied()) {
            (Some(pa), Some(pb)) => {
                self.0.insert(a, pb);
                self.0.insert(b, pa);
                true
            }
            _ => false,
        }
    }

    /// A random valid layout that also keeps engineers off the two front corners and
    /// puts only a mine, lieutenant or captain in the headquarters without the flag.
    pub fn random<R: Rng + ?Sized>(seat: Seat, rng: &mut R) -> Layout {
        let cells = Layout::random_cells(seat, rng);
        Layout(
            Square::all()
                .filter_map(|s| cells[s.index()].map(|p| (s, p)))
                .collect(),
        )
    }

    /// `random`'s layout as an array by square, for self-play, which needs no map.
    pub(crate) fn random_cells<R: Rng + ?Sized>(
        seat: Seat,
        rng: &mut R,
    ) -> [Option<Piece>; SQUARES] {
        // The same draws from `rng` in the same order as ever (a seeded layout must stay
        // the same); only the bookkeeping is arrays instead of a map and fresh lists.
        let squares: Vec<Square> = deployment_squares(seat).collect();
        let at = |f: u8, d: u8| {
            let rank = if seat == Seat::South { d } else { 13 - d };
            Square::new(f, rank).expect("square on the board")
        };
        let mut free: Vec<Square> = squares;
        let mut pieces: Vec<Piece> = Piece::set().collect();
        let mut cells: [Option<Piece>; SQUARES] = [None; SQUARES];
        let place = |cells: &mut [Option<Piece>; SQUARES],
                     free: &mut Vec<Square>,
                     pieces: &mut Vec<Piece>,
                     s: Square,
                     p: Piece| {
            cells[s.index()] = Some(p);
            // `remove` keeps the order, as the draws below need.
            if let Some(i) = free.iter().position(|&x| x == s) {
                free.remove(i);
            }
            let i = pieces
                .iter()
                .position(|&q| q == p)
                .expect("piece left in the set");
            pieces.swap_remove(i);
        };

        let hqs = [at(1, 1), at(3, 1)];
        let flag_hq = *hqs.choose(rng).expect("two headquarters");
        let other_hq = if flag_hq == hqs[0] { hqs[1] } else { hqs[0] };
        place(&mut cells, &mut free, &mut pieces, flag_hq, Piece::Flag);
        let guards: Vec<Piece> = pieces
            .iter()
            .copied()
            .filter(|p| matches!(p, Piece::Mine | Piece::Lieutenant | Piece::Captain))
            .collect();
        let guard = *guards.choose(rng).expect("guards in the set");
        place(&mut cells, &mut free, &mut pieces, other_hq, guard);

        let mut options: Vec<Square> = Vec::with_capacity(free.len());
        let mut place_among = |cells: &mut [Option<Piece>; SQUARES],
                               free: &mut Vec<Square>,
                               pieces: &mut Vec<Piece>,
                               p: Piece,
                               allowed: &dyn Fn(Square) -> bool,
                               rng: &mut R| {
            while pieces.contains(&p) {
                options.clear();
                options.extend(free.iter().copied().filter(|&s| allowed(s)));
                let s = *options.choose(rng).expect("room for the piece");
                place(cells, free, pieces, s, p);
            }
        };
        let back = |s: Square| depth(seat, s) <= 2;
        let not_front = |s: Square| depth(seat, s) < 6;
        let corners = [at(0, 6), at(4, 6)];
        let not_corner = |s: Square| !corners.contains(&s);
        place_among(&mut cells, &mut free, &mut pieces, Piece::Mine, &back, rng);
        place_among(
            &mut cells,
            &mut free,
            &mut pieces,
            Piece::Bomb,
            &not_front,
            rng,
        );
        place_among(
            &mut cells,
            &mut free,
            &mut pieces,
            Piece::Engineer,
            &not_corner,
            rng,
        );

        free.shuffle(rng);
        for (s, p) in free.into_iter().zip(pieces) {
            cells[s.index()] = Some(p);
        }
        cells
    }
}

/// The deployment phase of a standard game: each seat arranges its layout by swapping
/// pieces, then declares itself ready; the first seat ready moves first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deployment {
    layouts: [Layout; 2],
    ready: Vec<Seat>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeploymentError {
    AlreadyReady,
    NotYourPiece(Square),
    Invalid(Vec<LayoutViolation>),
}

impl fmt::Display for DeploymentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeploymentError::AlreadyReady => write!(f, "your layout is locked: you are ready"),
            DeploymentError::NotYourPiece(s) => write!(f, "{s} does not hold one of your pieces"),
            DeploymentError::Invalid(v) => {
                let reasons: Vec<String> = v.iter().map(|x| x.to_string()).collect();
                write!(f, "the layout breaks the rules: {}", reasons.join("; "))
            }
        }
    }
}

impl std::error::Error for DeploymentError {}

impl Deployment {
    /// Starts from each seat's preferred layout (the last one used, or a random one).
    pub fn new(south: Layout, north: Layout) -> Deployment {
        Deployment {
            layouts: [south, north],
            ready: Vec::new(),
        }
    }

    pub fn layout(&self, seat: Seat) -> &Layout {
        &self.layouts[seat.index()]
    }

    /// The colour `seat` deploys and will play: standard seats play fixed colours.
    pub fn colour_of(&self, seat: Seat) -> Colour {
        super::game::STANDARD_COLOURS[seat.index()]
    }

    /// The seats that are ready, in the order they became so.
    pub fn ready_order(&self) -> &[Seat] {
        &self.ready
    }

    pub fn is_ready(&self, seat: Seat) -> bool {
        self.ready.contains(&seat)
    }

    /// Replaces a seat's whole layout (a saved one loaded, or a random one), before ready.
    pub fn set_layout(&mut self, seat: Seat, layout: Layout) -> Result<(), DeploymentError> {
        if self.is_ready(seat) {
            return Err(DeploymentError::AlreadyReady);
        }
        self.layouts[seat.index()] = layout;
        Ok(())
    }

    pub fn swap(&mut self, seat: Seat, a: Square, b: Square) -> Result<(), DeploymentError> {
        if self.is_ready(seat) {
            return Err(DeploymentError::AlreadyReady);
        }
        let l = &mut self.layouts[seat.index()];
        for s in [a, b] {
            if !l.0.contains_key(&s) {
                return Err(DeploymentError::NotYourPiece(s));
            }
        }
        l.swap(a, b);
        Ok(())
    }

    /// Locks a seat's layout if it is valid.
    pub fn ready(&mut self, seat: Seat) -> Result<(), DeploymentError> {
        if self.is_ready(seat) {
            return Err(DeploymentError::AlreadyReady);
        }
        let v = self.layouts[seat.index()].violations(seat);
        if !v.is_empty() {
            return Err(DeploymentError::Invalid(v));
        }
        self.ready.push(seat);
        Ok(())
    }

    /// Deployment time is up: every seat not yet ready keeps its layout if valid or gets
    /// a random valid one, in seat order after those already ready.
    pub fn expire<R: Rng + ?Sized>(&mut self, rng: &mut R) {
        for seat in Seat::BOTH {
            if !self.is_ready(seat) {
                if !self.layouts[seat.index()].is_valid(seat) {
                    self.layouts[seat.index()] = Layout::random(seat, rng);
                }
                self.ready.push(seat);
            }
        }
    }

    pub fn is_done(&self) -> bool {
        self.ready.len() == 2
    }

    /// The seat that was ready first, once there is one.
    pub fn first(&self) -> Option<Seat> {
        self.ready.first().copied()
    }

    /// The game, once both seats are ready.
    pub fn start(&self, options: crate::rules::Options) -> Option<crate::rules::Game> {
        let first = self.first().filter(|_| self.is_done())?;
        Some(crate::rules::Game::new_standard(
            options,
            &self.layouts[0],
            &self.layouts[1],
            first,
        ))
    }
}
