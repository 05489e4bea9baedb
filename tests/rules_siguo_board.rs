//! The four-player board against RULES §5.1: names and places (§5.1.1), connections
//! (§5.1.2), straight lines and turning (§5.1.3), and every check of §5.1.5, including
//! the move counts the peers publish, calibrated on the two-player board.

use junqi::rules::board::{self as two, EdgeKind, Square};
use junqi::rules::siguo::board::{
    area, edges, flight_reach, neighbours, rail_lines, rail_neighbours, slide_reach,
};
use junqi::rules::siguo::{Kind, Seat4, Station, StationSet};
use std::collections::{BTreeSet, HashSet};

fn st(name: &str) -> Station {
    name.parse().unwrap_or_else(|e| panic!("{e}"))
}

fn set(names: &str) -> StationSet {
    names.split_whitespace().map(st).collect()
}

fn names(s: StationSet) -> BTreeSet<String> {
    s.iter().map(|s| s.to_string()).collect()
}

#[test]
fn stations_names_kinds_and_places() {
    let all: Vec<Station> = Station::all().collect();
    assert_eq!(all.len(), 129);
    let count = |k: Kind| all.iter().filter(|s| s.kind() == k).count();
    assert_eq!(
        [Kind::Hq, Kind::Camp, Kind::Rail, Kind::Road, Kind::Center].map(count),
        [8, 20, 64, 28, 9]
    );
    // Every name reads back as its station, and no two stations share a place.
    let mut places = HashSet::new();
    for s in &all {
        assert_eq!(&st(s.as_str()), s);
        assert!(places.insert(s.grid()), "{s} shares its place");
    }
    for bad in [
        "", "X", "XX", "Sa0", "Sa7", "Sf1", "Qa1", "sa1", "Sa+1", "Sa01", "XCC",
    ] {
        assert!(bad.parse::<Station>().is_err(), "{bad:?} is not a station");
    }
    // The drawing of §5.1.1.
    for (name, place) in [
        ("Sa1", (6, 0)),
        ("Se1", (10, 0)),
        ("Sa6", (6, 5)),
        ("XC", (8, 8)),
        ("XSW", (6, 6)),
        ("XNE", (10, 10)),
        ("Ea1", (16, 6)),
        ("Ed1", (16, 9)),
        ("Ea6", (11, 6)),
        ("Na1", (10, 16)),
        ("Ne6", (6, 11)),
        ("Wa1", (0, 10)),
        ("Wb1", (0, 9)),
        ("We6", (5, 6)),
    ] {
        assert_eq!(st(name).grid(), place, "{name}");
    }
    assert_eq!(st("Nd1").kind(), Kind::Hq);
    assert_eq!(st("Wc4").kind(), Kind::Camp);
    assert_eq!(st("XS").kind(), Kind::Center);
    // Every area is named and laid out as the two-player South half.
    for seat in Seat4::ALL {
        let stations: Vec<Station> = area(seat).collect();
        assert_eq!(stations.len(), 30);
        for s in stations {
            let sq = s.as_south_square().expect("an area station");
            assert_eq!(s.as_str(), format!("{}{}", seat.letter(), sq));
            assert_eq!(s.seat(), Some(seat));
        }
    }
    // A two-player North square r ≥ 7 is N + mirrored file + (13 − r).
    for (square, station) in [("a7", "Ne6"), ("b12", "Nd1"), ("e7", "Na6"), ("c9", "Nc4")] {
        let sq: Square = square.parse().unwrap();
        let file = 4 - sq.file();
        let rank = 13 - sq.rank();
        assert_eq!(Station::of(Seat4::North, file, rank), Some(st(station)));
        assert_eq!(four_kind(sq.kind()), st(station).kind(), "{square}");
    }
}

/// The two-player kinds as the four-player ones, to compare an area with the half.
fn four_kind(k: two::StationKind) -> Kind {
    match k {
        two::StationKind::Headquarters => Kind::Hq,
        two::StationKind::Camp => Kind::Camp,
        two::StationKind::Rail => Kind::Rail,
        two::StationKind::Road => Kind::Road,
    }
}

#[test]
fn connections_are_those_of_the_rules() {
    let e = edges();
    assert_eq!(e.len(), 288);
    let rail = e.iter().filter(|(_, _, k)| *k == EdgeKind::Rail).count();
    assert_eq!((rail, e.len() - rail), (92, 196));
    let mut seen = HashSet::new();
    for &(a, b, kind) in e {
        assert_ne!(a, b);
        assert!(seen.insert((a.min(b), a.max(b))), "{a}–{b} twice");
        let ((ax, ay), (bx, by)) = (a.grid(), b.grid());
        let (dx, dy) = ((ax - bx).abs(), (ay - by).abs());
        let in_center = a.seat().is_none() && b.seat().is_none();
        if in_center {
            // The 九宫's stations stand two apart, linked orthogonally only.
            assert!(matches!((dx, dy), (2, 0) | (0, 2)), "{a}–{b}");
        } else {
            assert_eq!(dx.max(dy), 1, "{a}–{b} joins grid neighbours");
        }
        if a.seat().is_some() && b.seat().is_some() && a.seat() != b.seat() {
            // The only links between areas are the four arcs: a quarter turn, on rail.
            assert_eq!((dx, dy, kind), (1, 1, EdgeKind::Rail), "{a}–{b}");
        }
        if kind == EdgeKind::Rail {
            assert!(a.is_rail() && b.is_rail(), "{a}–{b}");
        }
    }
    let arcs: BTreeSet<(String, String)> = e
        .iter()
        .filter(|(a, b, _)| a.seat().is_some() && b.seat().is_some() && a.seat() != b.seat())
        .map(|(a, b, _)| (a.to_string(), b.to_string()))
        .collect();
    let want: BTreeSet<(String, String)> = [
        ("Se6", "Ea6"),
        ("Ee6", "Na6"),
        ("Ne6", "Wa6"),
        ("We6", "Sa6"),
    ]
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .into();
    assert_eq!(arcs, want);
    for (a, b) in [
        ("Sa6", "XSW"),
        ("Sc6", "XS"),
        ("Ea6", "XSE"),
        ("Ec6", "XE"),
        ("Ee6", "XNE"),
        ("Na6", "XNE"),
        ("Nc6", "XN"),
        ("Ne6", "XNW"),
        ("Wa6", "XNW"),
        ("Wc6", "XW"),
        ("We6", "XSW"),
        ("XC", "XN"),
    ] {
        assert!(rail_neighbours(st(a)).contains(st(b)), "{a}–{b}");
    }
    // No forward link from b6 or d6, no diagonal in the 九宫, no road between areas.
    assert_eq!(names(neighbours(st("Sb6"))), names(set("Sa6 Sc6 Sb5")));
    assert!(!neighbours(st("XSW")).contains(st("XC")));
    assert!(!neighbours(st("Se5")).contains(st("Ea5")));
}

#[test]
fn each_area_is_the_two_player_south_half() {
    // (one end, other end, on rail)
    let half: BTreeSet<(Square, Square, bool)> = two::edges()
        .iter()
        .filter(|(a, b, _)| two::is_south_half(*a) && two::is_south_half(*b))
        .map(|&(a, b, k)| (a, b, k == EdgeKind::Rail))
        .collect();
    let rail = half.iter().filter(|e| e.2).count();
    assert_eq!((rail, half.len() - rail), (16, 49));
    for seat in Seat4::ALL {
        let inside: BTreeSet<(Square, Square, bool)> = edges()
            .iter()
            .filter(|(a, b, _)| a.seat() == Some(seat) && b.seat() == Some(seat))
            .map(|&(a, b, k)| {
                let sq = |s: Station| s.as_south_square().unwrap();
                (sq(a), sq(b), k == EdgeKind::Rail)
            })
            .collect();
        assert_eq!(inside, half, "{seat:?}'s area");
        for s in area(seat) {
            let sq = s.as_south_square().unwrap();
            assert_eq!(s.kind(), four_kind(sq.kind()), "{s}");
        }
    }
}

#[test]
fn the_18_lines_are_exactly_the_rail() {
    let lines = rail_lines();
    let mut sizes: Vec<usize> = lines.iter().map(Vec::len).collect();
    sizes.sort();
    assert_eq!(
        sizes,
        [5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10, 13, 13, 13, 13]
    );
    let steps: BTreeSet<(Station, Station)> = lines
        .iter()
        .flat_map(|l| l.windows(2).map(|w| (w[0].min(w[1]), w[0].max(w[1]))))
        .collect();
    let rail: BTreeSet<(Station, Station)> = edges()
        .iter()
        .filter(|e| e.2 == EdgeKind::Rail)
        .map(|&(a, b, _)| (a.min(b), a.max(b)))
        .collect();
    assert_eq!(steps, rail);
    let joined = |l: &Vec<Station>| {
        l.iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let all: BTreeSet<String> = lines.iter().map(joined).collect();
    for line in [
        "Sa2 Sa3 Sa4 Sa5 Sa6 XSW XW XNW Ne6 Ne5 Ne4 Ne3 Ne2",
        "We2 We3 We4 We5 We6 XSW XS XSE Ea6 Ea5 Ea4 Ea3 Ea2",
        "Sc6 XS XC XN Nc6",
        "Se2 Se3 Se4 Se5 Se6 Ea6 Ea5 Ea4 Ea3 Ea2",
        "We2 We3 We4 We5 We6 Sa6 Sa5 Sa4 Sa3 Sa2",
        "Na2 Nb2 Nc2 Nd2 Ne2",
    ] {
        assert!(all.contains(line), "the line {line}");
    }
}

#[test]
fn the_rail_is_one_network_of_73() {
    let rail: Vec<Station> = Station::all().filter(|s| s.is_rail()).collect();
    assert_eq!(rail.len(), 73);
    for s in &rail {
        assert_eq!(flight_reach(*s, StationSet::EMPTY).len(), 72, "from {s}");
    }
    assert!(flight_reach(st("Sb4"), StationSet::EMPTY).is_empty());
}

#[test]
fn non_engineers_slide_straight_and_round_the_arcs_only() {
    let empty = StationSet::EMPTY;
    // Up Sa3: on into the 九宫 and across to North, or round the arc into West's side.
    let r = slide_reach(st("Sa3"), empty);
    assert_eq!(
        names(r),
        names(set(
            "Sa2 Sa4 Sa5 Sa6 XSW XW XNW Ne6 Ne5 Ne4 Ne3 Ne2 We6 We5 We4 We3 We2"
        ))
    );
    // From the front rank: along it, or straight ahead into the 九宫; never onto the arc.
    assert_eq!(
        names(slide_reach(st("Sc6"), empty)),
        names(set("Sa6 Sb6 Sd6 Se6 XS XC XN Nc6"))
    );
    // At a 九宫 corner no line is switched: XSW lies on two through lines and an arc
    // never reaches it.
    assert_eq!(
        names(slide_reach(st("XSW"), empty)),
        names(set(
            "Sa6 Sa5 Sa4 Sa3 Sa2 XW XNW Ne6 Ne5 Ne4 Ne3 Ne2 We6 We5 We4 We3 We2 XS XSE Ea6 Ea5 Ea4 Ea3 Ea2"
        ))
    );
    // A2 corner: no turn from the side file onto the back rail rank.
    assert!(!slide_reach(st("Sa3"), empty).contains(st("Sb2")));
    // Stopped by the first piece, which is a station it may reach (to attack).
    let blocked = slide_reach(st("Sa3"), set("XW We5"));
    assert!(blocked.contains(st("XW")) && !blocked.contains(st("XNW")));
    assert!(blocked.contains(st("We5")) && !blocked.contains(st("We4")));
    // Off the rail, no slide.
    assert!(slide_reach(st("Sc3"), empty).is_empty());
    // An engineer turns anywhere: Sc6 to Eb6 through XS, XSE, Ea6 and the front rank.
    assert!(flight_reach(st("Sc6"), empty).contains(st("Eb6")));
    assert!(!slide_reach(st("Sc6"), empty).contains(st("Eb6")));
    // …but not through a piece.
    let walled = flight_reach(st("Sa2"), set("Sb2 Sa3"));
    assert_eq!(names(walled), names(set("Sb2 Sa3")));
}

/// Every (from, to) pair a piece could move between on an empty board, counted as the
/// peers do: from every station but a headquarters, one step over any link, and on
/// rail an engineer's flight anywhere on the network. Returns (pairs, origins, the most
/// targets of one origin).
fn static_moves(targets: Vec<usize>) -> (usize, usize, usize) {
    let most = targets.iter().copied().max().unwrap_or(0);
    (targets.iter().sum(), targets.len(), most)
}

#[test]
fn static_moves_match_the_peers_numbers() {
    // Two-player calibration: 1,176 pairs, at most 35 targets (56 origins).
    let two_player: Vec<usize> = Square::all()
        .filter(|s| s.kind() != two::StationKind::Headquarters)
        .map(|from| {
            let on_rail = !two::rail_neighbours(from).is_empty();
            Square::all()
                .filter(|&to| {
                    to != from
                        && (two::neighbours(from).contains(to)
                            || (on_rail
                                && two::rail_path(from, to, true, two::SquareSet::EMPTY).is_some()))
                })
                .count()
        })
        .collect();
    assert_eq!(static_moves(two_player), (1176, 56, 35));

    let four_player: Vec<usize> = Station::all()
        .filter(|s| s.kind() != Kind::Hq)
        .map(|from| {
            neighbours(from)
                .union(flight_reach(from, StationSet::EMPTY))
                .len() as usize
        })
        .collect();
    assert_eq!(static_moves(four_player), (5624, 121, 76));
}
