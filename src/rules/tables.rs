//! The board's tables, built once from RULES §1: neighbours, rail runs, and the masks
//! the move generator works with.

use super::board::{EdgeKind, SQUARES, Square, SquareSet, StationKind};
use super::geometry::Geometry;
use std::sync::LazyLock;

/// A straight rail run leaving a station in one direction, nearest station first.
#[derive(Clone, Copy)]
pub(crate) struct Ray {
    start: u16,
    len: u8,
}

/// Public only as the two-player board's `Geometry`; its fields are the crate's.
pub struct Tables {
    pub(crate) kind: [StationKind; SQUARES],
    /// Every one-step neighbour, over road or rail.
    pub(crate) adjacent: [u64; SQUARES],
    pub(crate) rail_adjacent: [u64; SQUARES],
    rays: [[Ray; 4]; SQUARES],
    ray_count: [u8; SQUARES],
    ray_squares: Vec<Square>,
    /// The straight runs leaving each station as masks: towards higher square indices,
    /// then towards lower. A station lies on at most two lines, so two of each; unused
    /// ones are 0. Masks let a slide stop at its first blocker with a few word
    /// operations (see `slide_reach`).
    pub(crate) slides_up: [[u64; 2]; SQUARES],
    pub(crate) slides_down: [[u64; 2]; SQUARES],
    /// Rail edges as masks of their lower station: `s`–`s+5` (along a file) for each
    /// `s` in `rail_up`, `s`–`s+1` (along a rank) for each `s` in `rail_right`. An
    /// engineer's flight spreads over them a whole front at a time.
    pub(crate) rail_up: u64,
    pub(crate) rail_right: u64,
    /// Every edge, road or rail, as masks of its lower station by the index step to
    /// the upper one (1: along a rank, 5: along a file, 4 and 6: a camp's diagonals),
    /// so that the neighbours of a whole set come from a few shifts.
    edge_steps: [(u32, u64); 4],
    /// Railway stations, as a mask.
    pub(crate) rail: u64,
    /// Camps, as a mask.
    pub(crate) camps: u64,
    /// Headquarters, as a mask.
    pub(crate) headquarters: u64,
    pub(crate) lines: Vec<Vec<Square>>,
    pub(crate) edges: Vec<(Square, Square, EdgeKind)>,
}

impl Tables {
    pub fn rays(&self, sq: Square) -> impl Iterator<Item = &[Square]> {
        self.rays[sq.index()][..self.ray_count[sq.index()] as usize]
            .iter()
            .map(|r| &self.ray_squares[r.start as usize..r.start as usize + r.len as usize])
    }
}

fn sq(file: u8, rank: u8) -> Square {
    Square::new(file, rank).expect("square on the board")
}

fn build() -> Tables {
    let mut kind = [StationKind::Road; SQUARES];
    for s in Square::all() {
        let (f, r) = (s.file(), s.rank());
        let south_r = if r <= 6 { r } else { 13 - r };
        kind[s.index()] = if south_r == 1 && (f == 1 || f == 3) {
            StationKind::Headquarters
        } else if matches!((f, south_r), (1, 3) | (3, 3) | (2, 4) | (1, 5) | (3, 5)) {
            StationKind::Camp
        } else if matches!(south_r, 2 | 6) || ((f == 0 || f == 4) && (3..=5).contains(&south_r)) {
            StationKind::Rail
        } else {
            StationKind::Road
        };
    }

    let mut lines: Vec<Vec<Square>> = Vec::new();
    for f in [0, 4] {
        lines.push((2..=11).map(|r| sq(f, r)).collect());
    }
    for r in [2, 6, 7, 11] {
        lines.push((0..5).map(|f| sq(f, r)).collect());
    }
    lines.push(vec![sq(2, 6), sq(2, 7)]);

    let mut rail_adjacent = [0u64; SQUARES];
    let mut edges = Vec::new();
    for line in &lines {
        for w in line.windows(2) {
            rail_adjacent[w[0].index()] |= w[1].bit();
            rail_adjacent[w[1].index()] |= w[0].bit();
            edges.push((w[0], w[1], EdgeKind::Rail));
        }
    }

    let mut adjacent = rail_adjacent;
    let mut add_road = |a: Square, b: Square, adjacent: &mut [u64; SQUARES]| {
        if adjacent[a.index()] & b.bit() == 0 {
            adjacent[a.index()] |= b.bit();
            adjacent[b.index()] |= a.bit();
            edges.push((a.min(b), a.max(b), EdgeKind::Road));
        }
    };
    let same_half = |a: Square, b: Square| (a.rank() <= 6) == (b.rank() <= 6);
    for s in Square::all() {
        let (f, r) = (s.file() as i8, s.rank() as i8);
        let mut try_link = |df: i8, dr: i8| {
            let (nf, nr) = (f + df, r + dr);
            if (0..5).contains(&nf) && (1..=12).contains(&nr) {
                let n = sq(nf as u8, nr as u8);
                if same_half(s, n) {
                    add_road(s, n, &mut adjacent);
                }
            }
        };
        try_link(1, 0);
        try_link(0, 1);
        if kind[s.index()] == StationKind::Camp {
            for (df, dr) in [(-1, -1), (1, -1), (-1, 1), (1, 1)] {
                try_link(df, dr);
            }
        }
    }
    edges.sort_by_key(|&(a, b, _)| (a, b));

    let mut rays = [[Ray { start: 0, len: 0 }; 4]; SQUARES];
    let mut ray_count = [0u8; SQUARES];
    let mut ray_squares = Vec::new();
    for line in &lines {
        for (i, &s) in line.iter().enumerate() {
            let forward: Vec<Square> = line[i + 1..].to_vec();
            let backward: Vec<Square> = line[..i].iter().rev().copied().collect();
            for run in [forward, backward] {
                if run.is_empty() {
                    continue;
                }
                let n = &mut ray_count[s.index()];
                rays[s.index()][*n as usize] = Ray {
                    start: ray_squares.len() as u16,
                    len: run.len() as u8,
                };
                *n += 1;
                ray_squares.extend(run);
            }
        }
    }

    let mut slides_up = [[0u64; 2]; SQUARES];
    let mut slides_down = [[0u64; 2]; SQUARES];
    let mut ups = [0usize; SQUARES];
    let mut downs = [0usize; SQUARES];
    for line in &lines {
        for (i, &s) in line.iter().enumerate() {
            let mask = |run: &[Square]| run.iter().fold(0u64, |m, q| m | q.bit());
            // Lines are built in increasing index order (files by +5, ranks by +1).
            if i + 1 < line.len() {
                slides_up[s.index()][ups[s.index()]] = mask(&line[i + 1..]);
                ups[s.index()] += 1;
            }
            if i > 0 {
                slides_down[s.index()][downs[s.index()]] = mask(&line[..i]);
                downs[s.index()] += 1;
            }
        }
    }
    let mask_of = |k: StationKind| {
        Square::all()
            .filter(|s| kind[s.index()] == k)
            .fold(0u64, |m, s| m | s.bit())
    };

    let (mut rail_up, mut rail_right) = (0u64, 0u64);
    for &(a, b, k) in &edges {
        match (k, b.index() - a.index()) {
            (EdgeKind::Rail, 5) => rail_up |= a.bit(),
            (EdgeKind::Rail, 1) => rail_right |= a.bit(),
            (EdgeKind::Rail, _) => unreachable!("rail edges join file or rank neighbours"),
            (EdgeKind::Road, _) => {}
        }
    }

    let mut edge_steps = [(1, 0u64), (4, 0), (5, 0), (6, 0)];
    for &(a, b, _) in &edges {
        let step = (b.index() - a.index()) as u32;
        let slot = edge_steps
            .iter_mut()
            .find(|(d, _)| *d == step)
            .expect("edges join rank, file or diagonal neighbours");
        slot.1 |= a.bit();
    }

    Tables {
        kind,
        adjacent,
        edge_steps,
        rail_up,
        rail_right,
        rail_adjacent,
        rays,
        ray_count,
        ray_squares,
        slides_up,
        slides_down,
        rail: mask_of(StationKind::Rail),
        camps: mask_of(StationKind::Camp),
        headquarters: mask_of(StationKind::Headquarters),
        lines,
        edges,
    }
}

impl Geometry for Tables {
    type Place = Square;
    type Set = SquareSet;
    const NEXT_TO_BY_SHIFTS: bool = true;

    #[inline]
    fn kind(&self, p: Square) -> StationKind {
        self.kind[p.index()]
    }
    #[inline]
    fn neighbours(&self, p: Square) -> SquareSet {
        SquareSet(self.adjacent[p.index()])
    }
    #[inline]
    fn rail(&self) -> SquareSet {
        SquareSet(self.rail)
    }
    #[inline]
    fn camps(&self) -> SquareSet {
        SquareSet(self.camps)
    }
    #[inline]
    fn headquarters(&self) -> SquareSet {
        SquareSet(self.headquarters)
    }
    #[inline]
    fn slide_reach(&self, from: Square, occupied: SquareSet) -> SquareSet {
        SquareSet(self.slide_mask(from, occupied.0))
    }
    #[inline]
    fn next_to(&self, candidates: SquareSet, set: SquareSet) -> SquareSet {
        SquareSet(candidates.0 & self.next_to_mask(set.0))
    }
    #[inline]
    fn flight_reach(&self, from: Square, occupied: SquareSet) -> SquareSet {
        SquareSet(self.flight_mask(from, occupied.0))
    }
    fn rail_path(
        &self,
        from: Square,
        to: Square,
        engineer: bool,
        occupied: SquareSet,
    ) -> Option<Vec<Square>> {
        super::board::rail_path(from, to, engineer, occupied)
    }
}

impl Tables {
    /// Stations a non-engineer on the rail station `from` reaches by sliding: along
    /// each straight run, every station up to and including the first occupied one.
    #[inline]
    fn slide_mask(&self, from: Square, occupied: u64) -> u64 {
        let up = |ray: u64| {
            let blockers = ray & occupied;
            // The lowest blocker and everything below it; all of the run when none.
            let first = blockers & blockers.wrapping_neg();
            ray & (first | first.wrapping_sub(1))
        };
        let down = |ray: u64| {
            let blockers = ray & occupied;
            // The highest blocker and everything above it; `| 1` makes an unblocked
            // run keep every station (a1, bit 0, is never on a run).
            let first = (1u64 << 63) >> (blockers | 1).leading_zeros();
            ray & !first.wrapping_sub(1)
        };
        let [u0, u1] = self.slides_up[from.index()];
        let [d0, d1] = self.slides_down[from.index()];
        up(u0) | up(u1) | down(d0) | down(d1)
    }
}

impl Tables {
    /// Every station with a neighbour in `set`.
    #[inline]
    fn next_to_mask(&self, set: u64) -> u64 {
        let [(s0, e0), (s1, e1), (s2, e2), (s3, e3)] = self.edge_steps;
        debug_assert_eq!((s0, s1, s2, s3), (1, 4, 5, 6));
        // Constant shifts: this runs twice per move generation.
        ((set & e0) << 1)
            | ((set >> 1) & e0)
            | ((set & e1) << 4)
            | ((set >> 4) & e1)
            | ((set & e2) << 5)
            | ((set >> 5) & e2)
            | ((set & e3) << 6)
            | ((set >> 6) & e3)
    }

    /// Rail stations an engineer on `from` reaches, turning freely, through empty
    /// stations: every station of the flight, and the first occupied one on each path.
    #[inline]
    fn flight_mask(&self, from: Square, occupied: u64) -> u64 {
        let (up, right) = (self.rail_up, self.rail_right);
        let mut visited = from.bit();
        let mut front = from.bit();
        loop {
            let next = ((front & up) << 5)
                | ((front >> 5) & up)
                | ((front & right) << 1)
                | ((front >> 1) & right);
            let new = next & !visited;
            visited |= new;
            front = new & !occupied;
            if front == 0 {
                return visited & !from.bit();
            }
        }
    }
}

static TABLES: LazyLock<Tables> = LazyLock::new(build);

pub(crate) fn tables() -> &'static Tables {
    &TABLES
}
