//! The four-player board as the position's generic code sees it: stations and sets of
//! them, the seats as armies, and the tables a move generator walks.

use super::board::{rail_lines, rail_neighbours};
use super::station::{AREA, Kind, STATIONS, Seat4, Station, StationSet};
use crate::rules::board::StationKind;
use crate::rules::geometry::{Army, Board, Geometry, Place, PlaceSet};
use crate::rules::piece::Token;
use std::fmt::Debug;
use std::hash::Hash;
use std::sync::LazyLock;

impl Place for Station {
    fn index(self) -> usize {
        Station::index(self)
    }
    fn from_index(i: usize) -> Option<Station> {
        Station::from_index(i)
    }
}

impl Army for Seat4 {
    type Each<T: Copy + Eq + Hash + Debug + Send + Sync + 'static> = [T; 4];
    const ALL: &'static [Seat4] = &Seat4::ALL;
    fn index(self) -> usize {
        Seat4::index(self)
    }
    fn each<T: Copy + Eq + Hash + Debug + Send + Sync + 'static>(value: T) -> [T; 4] {
        [value; 4]
    }
}

/// The four-player board of RULES §5.1 as a type, for the generic position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct FourPlayer;

impl Board for FourPlayer {
    type Place = Station;
    type Set = StationSet;
    type Army = Seat4;
    type Cells = [Option<Token<Seat4>>; STATIONS];
    type Geometry = Tables;
    #[inline]
    fn geometry() -> &'static Tables {
        &TABLES
    }
    fn empty_cells() -> Self::Cells {
        [None; STATIONS]
    }
}

/// The board's tables in the shape the move generator wants them.
pub struct Tables {
    kind: [StationKind; STATIONS],
    neighbours: [StationSet; STATIONS],
    rail_neighbours: [StationSet; STATIONS],
    /// The straight runs leaving each station, nearest first, as (start, len) into
    /// `ray_stations`. A side file's stations lie on three lines (their rank, the
    /// through line and the arc line, the last two sharing the file), so six runs at
    /// most; unused ones are empty.
    rays: [[(u16, u8); 6]; STATIONS],
    ray_stations: Vec<Station>,
    /// The same runs cut where they leave a word of the station set or turn back in
    /// bit order (a run's stations are in index order only within an area or the
    /// 九宫), each station's runs one after another: `spans` gives each station's
    /// share of `stretches`. A slide then finds a stretch's first blocker with one
    /// bit operation instead of testing station after station (this and the flights
    /// below: 对家 self-play 2,967 → 2,627 instructions per action, callgrind, of
    /// which the flights about 110).
    stretches: Vec<Stretch>,
    spans: [(u16, u16); STATIONS],
    rail: StationSet,
    camps: StationSet,
    headquarters: StationSet,
}

/// Stations of a run that lie in one word of a station set, walked in increasing bit
/// order (`up`) or decreasing.
#[derive(Clone, Copy, Debug)]
struct Stretch {
    mask: u64,
    word: u8,
    up: bool,
    /// Stretches of the same run after this one: skipped once a blocker is met.
    after: u8,
}

/// A run of stations, walking order, cut into stretches.
fn stretches_of(run: &[Station]) -> Vec<Stretch> {
    let mut out: Vec<Stretch> = Vec::new();
    let mut last: Option<usize> = None;
    for &s in run {
        let (word, bit) = ((s.index() / 64) as u8, s.index() % 64);
        match (out.last_mut(), last) {
            // The second station of a stretch sets its direction; later ones keep it.
            (Some(t), Some(prev))
                if t.word == word && (t.mask.count_ones() == 1 || t.up == (bit > prev % 64)) =>
            {
                t.up = bit > prev % 64;
                t.mask |= 1 << bit;
            }
            _ => out.push(Stretch {
                mask: 1 << bit,
                word,
                up: true,
                after: 0,
            }),
        }
        last = Some(s.index());
    }
    let n = out.len();
    for (i, t) in out.iter_mut().enumerate() {
        t.after = (n - 1 - i) as u8;
    }
    out
}

static TABLES: LazyLock<Tables> = LazyLock::new(|| {
    let mut kind = [StationKind::Road; STATIONS];
    let (mut rail, mut camps, mut headquarters) = Default::default();
    for s in Station::all() {
        kind[s.index()] = match s.kind() {
            Kind::Hq => StationKind::Headquarters,
            Kind::Camp => StationKind::Camp,
            Kind::Rail | Kind::Center => StationKind::Rail,
            Kind::Road => StationKind::Road,
        };
        let set: &mut StationSet = match kind[s.index()] {
            StationKind::Rail => &mut rail,
            StationKind::Camp => &mut camps,
            StationKind::Headquarters => &mut headquarters,
            StationKind::Road => continue,
        };
        set.insert(s);
    }
    let mut rays = [[(0u16, 0u8); 6]; STATIONS];
    let mut count = [0usize; STATIONS];
    let mut ray_stations = Vec::new();
    for line in rail_lines() {
        for (i, s) in line.iter().enumerate() {
            let runs: [Vec<Station>; 2] = [
                line[i + 1..].to_vec(),
                line[..i].iter().rev().copied().collect(),
            ];
            for run in runs.into_iter().filter(|r| !r.is_empty()) {
                let n = &mut count[s.index()];
                rays[s.index()][*n] = (ray_stations.len() as u16, run.len() as u8);
                *n += 1;
                ray_stations.extend(run);
            }
        }
    }
    let ray_count = count.map(|n| n as u8);
    let mut stretches = Vec::new();
    let mut spans = [(0u16, 0u16); STATIONS];
    for (i, span) in spans.iter_mut().enumerate() {
        let start = stretches.len() as u16;
        for &(at, len) in &rays[i][..ray_count[i] as usize] {
            stretches.extend(stretches_of(
                &ray_stations[at as usize..at as usize + len as usize],
            ));
        }
        *span = (start, stretches.len() as u16);
    }
    Tables {
        kind,
        neighbours: std::array::from_fn(|i| super::board::neighbours(station(i))),
        rail_neighbours: std::array::from_fn(|i| rail_neighbours(station(i))),
        rays,
        ray_stations,
        stretches,
        spans,
        rail,
        camps,
        headquarters,
    }
});

fn station(i: usize) -> Station {
    Station::from_index(i).expect("a station of the board")
}

impl Geometry for Tables {
    type Place = Station;
    type Set = StationSet;
    const NEXT_TO_BY_SHIFTS: bool = false;

    fn kind(&self, p: Station) -> StationKind {
        self.kind[p.index()]
    }
    #[inline]
    fn neighbours(&self, p: Station) -> StationSet {
        self.neighbours[p.index()]
    }
    #[inline]
    fn next_to(&self, candidates: StationSet, set: StationSet) -> StationSet {
        let mut out = StationSet::EMPTY;
        for s in candidates.places() {
            if !(self.neighbours[s.index()] & set).is_empty() {
                out.insert(s);
            }
        }
        out
    }
    #[inline]
    fn any_next_to(&self, candidates: StationSet, set: StationSet) -> bool {
        candidates
            .iter()
            .any(|s| !(self.neighbours[s.index()] & set).is_empty())
    }
    #[inline]
    fn rail(&self) -> StationSet {
        self.rail
    }
    #[inline]
    fn camps(&self) -> StationSet {
        self.camps
    }
    #[inline]
    fn headquarters(&self) -> StationSet {
        self.headquarters
    }
    #[inline]
    fn slide_reach(&self, from: Station, occupied: StationSet) -> StationSet {
        let mut reach = [0u64; 4];
        let (start, end) = self.spans[from.index()];
        let stretches = &self.stretches[start as usize..end as usize];
        let mut i = 0;
        while i < stretches.len() {
            let t = stretches[i];
            let w = t.word as usize & 3;
            let blockers = occupied.0[w] & t.mask;
            if blockers == 0 {
                reach[w] |= t.mask;
                i += 1;
                continue;
            }
            // The first blocker and the stretch's stations before it.
            let upto = if t.up {
                let first = blockers & blockers.wrapping_neg();
                first | (first - 1)
            } else {
                let first = (1u64 << 63) >> blockers.leading_zeros();
                !(first - 1)
            };
            reach[w] |= t.mask & upto;
            i += 1 + t.after as usize;
        }
        StationSet(reach)
    }
    fn flight_reach(&self, from: Station, occupied: StationSet) -> StationSet {
        // Each front a word at a time, its stations read off the word: through the
        // set's iterator and four-word operations a flight cost 571 instructions, now
        // 272 (callgrind, 对家 self-play's flights).
        let start = StationSet::single(from).0;
        let (mut visited, mut front) = (start, start);
        loop {
            let mut next = [0u64; 3];
            for (w, &word) in front[..3].iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    let n = &self.rail_neighbours[w * 64 + bits.trailing_zeros() as usize].0;
                    bits &= bits - 1;
                    for k in 0..3 {
                        next[k] |= n[k];
                    }
                }
            }
            let mut more = 0;
            for w in 0..3 {
                let new = next[w] & !visited[w];
                visited[w] |= new;
                front[w] = new & !occupied.0[w];
                more |= front[w];
            }
            if more == 0 {
                break;
            }
        }
        for w in 0..3 {
            visited[w] &= !start[w];
        }
        StationSet(visited)
    }
    fn rail_path(
        &self,
        from: Station,
        to: Station,
        engineer: bool,
        occupied: StationSet,
    ) -> Option<Vec<Station>> {
        if !engineer {
            for &(start, len) in &self.rays[from.index()] {
                let ray = &self.ray_stations[start as usize..start as usize + len as usize];
                for (i, &s) in ray.iter().enumerate() {
                    if s == to {
                        return Some(
                            [from]
                                .into_iter()
                                .chain(ray[..=i].iter().copied())
                                .collect(),
                        );
                    }
                    if occupied.contains(s) {
                        break;
                    }
                }
            }
            return None;
        }
        // Breadth first, so the flight drawn is a shortest one.
        let mut prev = [u8::MAX; STATIONS];
        prev[from.index()] = from.index() as u8;
        let mut queue = std::collections::VecDeque::from([from]);
        while let Some(s) = queue.pop_front() {
            if s == to {
                let mut path = vec![to];
                let mut at = to;
                while at != from {
                    at = station(prev[at.index()] as usize);
                    path.push(at);
                }
                path.reverse();
                return Some(path);
            }
            if s != from && occupied.contains(s) {
                continue;
            }
            for n in self.rail_neighbours[s.index()].iter() {
                if prev[n.index()] == u8::MAX {
                    prev[n.index()] = s.index() as u8;
                    queue.push_back(n);
                }
            }
        }
        None
    }
}

const _: () = assert!(4 * AREA + 9 == STATIONS);
