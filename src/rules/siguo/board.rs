//! The four-player board's connections and straight lines (RULES §5.1.2–5.1.3), and
//! where a piece can go over them.
//!
//! The connections are built from §5.1.2's own description (each area is the
//! two-player South half, then the links to the 九宫, inside it, and the four arcs),
//! and the lines from §5.1.3's, separately: the tests check that the rail connections
//! are exactly the steps of the lines, so neither is derived from the other.

use super::station::{AREA, Seat4, Station, StationSet};
use crate::rules::board::{self as two, EdgeKind};
use std::sync::LazyLock;

struct Tables {
    edges: Vec<(Station, Station, EdgeKind)>,
    lines: Vec<Vec<Station>>,
    neighbours: Vec<StationSet>,
    rail_neighbours: Vec<StationSet>,
    /// For each station, the lines through it as (line, position on it).
    on_lines: Vec<Vec<(usize, usize)>>,
}

fn center(name: &str) -> Station {
    name.parse().expect("a 九宫 name")
}

fn at(seat: Seat4, file: u8, rank: u8) -> Station {
    Station::of(seat, file, rank).expect("a station of the area")
}

/// A seat's file `file` from rank `from` to rank `to`, either way.
fn file_run(seat: Seat4, file: u8, from: u8, to: u8) -> Vec<Station> {
    if from <= to {
        (from..=to).map(|r| at(seat, file, r)).collect()
    } else {
        (to..=from).rev().map(|r| at(seat, file, r)).collect()
    }
}

fn build_edges() -> Vec<(Station, Station, EdgeKind)> {
    let mut edges = Vec::new();
    // Inside an area: the two-player South half.
    for seat in Seat4::ALL {
        for &(a, b, kind) in two::edges() {
            if two::is_south_half(a) && two::is_south_half(b) {
                let s = |sq: two::Square| at(seat, sq.file(), sq.rank());
                edges.push((s(a), s(b), kind));
            }
        }
    }
    // Each seat's a6, c6, e6 to the 九宫 station in front of it.
    let fronts = [
        (Seat4::South, ["XSW", "XS", "XSE"]),
        (Seat4::East, ["XSE", "XE", "XNE"]),
        (Seat4::North, ["XNE", "XN", "XNW"]),
        (Seat4::West, ["XNW", "XW", "XSW"]),
    ];
    for (seat, names) in fronts {
        for (file, name) in [0, 2, 4].into_iter().zip(names) {
            edges.push((at(seat, file, 6), center(name), EdgeKind::Rail));
        }
    }
    // Inside the 九宫: the orthogonal links of its 3 × 3 grid.
    for i in 0..9 {
        let s = Station::center(i).expect("九宫");
        if i % 3 < 2 {
            edges.push((s, Station::center(i + 1).expect("九宫"), EdgeKind::Rail));
        }
        if i < 6 {
            edges.push((s, Station::center(i + 3).expect("九宫"), EdgeKind::Rail));
        }
    }
    // The arcs: each seat's e6 to the a6 of the seat on its right.
    for seat in Seat4::ALL {
        edges.push((at(seat, 4, 6), at(seat.next(), 0, 6), EdgeKind::Rail));
    }
    edges
}

fn build_lines() -> Vec<Vec<Station>> {
    use Seat4::*;
    let mut lines = Vec::new();
    for seat in Seat4::ALL {
        for rank in [6, 2] {
            lines.push((0..5).map(|f| at(seat, f, rank)).collect());
        }
    }
    // Through lines: a side file, across the 九宫, down the facing seat's side file.
    let through = [
        (South, 0, ["XSW", "XW", "XNW"], North, 4),
        (South, 4, ["XSE", "XE", "XNE"], North, 0),
        (West, 4, ["XSW", "XS", "XSE"], East, 0),
        (West, 0, ["XNW", "XN", "XNE"], East, 4),
    ];
    for (seat, file, middle, far, far_file) in through {
        let mut line = file_run(seat, file, 2, 6);
        line.extend(middle.map(center));
        line.extend(file_run(far, far_file, 6, 2));
        lines.push(line);
    }
    // Centre lines.
    for (seat, middle, far) in [
        (South, ["XS", "XC", "XN"], North),
        (West, ["XW", "XC", "XE"], East),
    ] {
        let mut line = vec![at(seat, 2, 6)];
        line.extend(middle.map(center));
        line.push(at(far, 2, 6));
        lines.push(line);
    }
    // Arc lines: a seat's e file, the arc, its right neighbour's a file.
    for seat in Seat4::ALL {
        let mut line = file_run(seat, 4, 2, 6);
        line.extend(file_run(seat.next(), 0, 6, 2));
        lines.push(line);
    }
    lines
}

static TABLES: LazyLock<Tables> = LazyLock::new(|| {
    let edges = build_edges();
    let lines = build_lines();
    let n = super::station::STATIONS;
    let mut neighbours = vec![StationSet::EMPTY; n];
    let mut rail_neighbours = vec![StationSet::EMPTY; n];
    for &(a, b, kind) in &edges {
        neighbours[a.index()].insert(b);
        neighbours[b.index()].insert(a);
        if kind == EdgeKind::Rail {
            rail_neighbours[a.index()].insert(b);
            rail_neighbours[b.index()].insert(a);
        }
    }
    let mut on_lines = vec![Vec::new(); n];
    for (l, line) in lines.iter().enumerate() {
        for (i, s) in line.iter().enumerate() {
            on_lines[s.index()].push((l, i));
        }
    }
    Tables {
        edges,
        lines,
        neighbours,
        rail_neighbours,
        on_lines,
    }
});

/// Every connection of the board, each once, with its kind.
pub fn edges() -> &'static [(Station, Station, EdgeKind)] {
    &TABLES.edges
}

/// The 18 straight rail lines along which a non-engineer may slide.
pub fn rail_lines() -> &'static [Vec<Station>] {
    &TABLES.lines
}

/// One-step neighbours, over road or rail.
pub fn neighbours(s: Station) -> StationSet {
    TABLES.neighbours[s.index()]
}

pub fn rail_neighbours(s: Station) -> StationSet {
    TABLES.rail_neighbours[s.index()]
}

/// Where a slide from `from` can end: along each straight line through it, both ways,
/// every empty station up to and including the first occupied one (whether that one
/// may be attacked is for the caller to say). Empty for a station off the rail.
pub fn slide_reach(from: Station, occupied: StationSet) -> StationSet {
    let mut reach = StationSet::EMPTY;
    let mut run = |stations: &mut dyn Iterator<Item = &Station>| {
        for &s in stations {
            reach.insert(s);
            if occupied.contains(s) {
                break;
            }
        }
    };
    for &(l, i) in &TABLES.on_lines[from.index()] {
        let line = &TABLES.lines[l];
        run(&mut line[i + 1..].iter());
        run(&mut line[..i].iter().rev());
    }
    reach
}

/// Where an engineer's flight from `from` can end: every rail station joined to it
/// through empty rail stations, turning anywhere, plus the occupied stations next to
/// those (for the caller to judge).
pub fn flight_reach(from: Station, occupied: StationSet) -> StationSet {
    if !from.is_rail() {
        return StationSet::EMPTY;
    }
    let mut reach = StationSet::EMPTY;
    reach.insert(from);
    let mut stack = vec![from];
    while let Some(s) = stack.pop() {
        for n in rail_neighbours(s).iter() {
            if !reach.contains(n) {
                reach.insert(n);
                if !occupied.contains(n) {
                    stack.push(n);
                }
            }
        }
    }
    reach.remove(from);
    reach
}

/// Stations of one seat's area.
pub fn area(seat: Seat4) -> impl Iterator<Item = Station> {
    (0..AREA as u8).filter_map(move |i| Station::of(seat, i % 5, i / 5 + 1))
}
