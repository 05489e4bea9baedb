//! Pins the two-player board of RULES §1: stations and their kinds, every road and rail
//! connection (the "South half, square by square" table row by row, and the mirrored
//! North half), the straight rail lines, square names, and rail paths.

use std::collections::{BTreeMap, BTreeSet};

use junqi::rules::board::{self, EdgeKind, Square, SquareSet, StationKind};

fn sq(name: &str) -> Square {
    name.parse()
        .unwrap_or_else(|e| panic!("test square {name:?}: {e}"))
}

fn squares(names: &str) -> BTreeSet<Square> {
    names.split_whitespace().map(sq).collect()
}

fn set(s: SquareSet) -> BTreeSet<Square> {
    s.iter().collect()
}

/// The square seen from the other side, computed here rather than with `Square::mirror`.
fn mirrored(s: Square) -> Square {
    Square::new(s.file(), 13 - s.rank()).expect("mirror stays on the board")
}

// ---------------------------------------------------------------------------------------
// Stations

/// RULES §1, the station table.
const HEADQUARTERS: &str = "b1 d1 b12 d12";
const CAMPS: &str = "b3 d3 c4 b5 d5  b8 d8 c9 b10 d10";
/// "every square of ranks 2, 6, 7, 11; files a and e on ranks 3–5 and 8–10".
const RAILWAY: &str = "a2 b2 c2 d2 e2  a6 b6 c6 d6 e6  a7 b7 c7 d7 e7  a11 b11 c11 d11 e11
                       a3 a4 a5 e3 e4 e5  a8 a9 a10 e8 e9 e10";
const ROAD_ONLY: &str = "a1 c1 e1 c3 b4 d4 c5  a12 c12 e12 c10 b9 d9 c8";

#[test]
fn board_has_exactly_sixty_stations_a1_to_e12() {
    let all: Vec<Square> = Square::all().collect();
    assert_eq!(all.len(), 60);
    assert_eq!(board::SQUARES, 60);
    let names: BTreeSet<String> = all.iter().map(|s| s.to_string()).collect();
    assert_eq!(names.len(), 60, "every station has its own name");
    for file in "abcde".chars() {
        for rank in 1..=12 {
            assert!(
                names.contains(&format!("{file}{rank}")),
                "{file}{rank} missing"
            );
        }
    }
    assert_eq!(Square::new(5, 1), None, "there is no file f");
    assert_eq!(Square::new(0, 0), None, "there is no rank 0");
    assert_eq!(Square::new(0, 13), None, "there is no rank 13");
    assert_eq!(Square::from_index(60), None);
}

#[test]
fn station_kinds_match_the_rules_table() {
    let expected = [
        (StationKind::Headquarters, squares(HEADQUARTERS), 4),
        (StationKind::Camp, squares(CAMPS), 10),
        (StationKind::Rail, squares(RAILWAY), 32),
        (StationKind::Road, squares(ROAD_ONLY), 14),
    ];
    for (kind, listed, count) in expected {
        assert_eq!(listed.len(), count, "the test's own list of {kind:?}");
        let actual: BTreeSet<Square> = Square::all().filter(|s| s.kind() == kind).collect();
        assert_eq!(actual, listed, "stations of kind {kind:?}");
    }
}

#[test]
fn stations_are_dealt_on_the_fifty_non_camp_squares() {
    let non_camp: BTreeSet<Square> = board::non_camp_squares().collect();
    assert_eq!(non_camp.len(), 50);
    assert!(non_camp.is_disjoint(&squares(CAMPS)));
}

// ---------------------------------------------------------------------------------------
// Connections

/// RULES §1 "South half, square by square (rail neighbours | road neighbours)", verbatim.
const SOUTH_TABLE: &str = "
a1 road | - | b1 a2          b1 HQ   | - | a1 c1 b2        c1 road | - | b1 d1 c2
d1 HQ   | - | c1 e1 d2       e1 road | - | d1 e2
a2 rail | b2 a3 | a1 b3      b2 rail | a2 c2 | b1 b3       c2 rail | b2 d2 | c1 c3 b3 d3
d2 rail | c2 e2 | d1 d3      e2 rail | d2 e3 | e1 d3
a3 rail | a2 a4 | b3         b3 camp | - | a2 b2 c2 a3 c3 a4 b4 c4
c3 road | - | c2 b3 d3 c4    d3 camp | - | c2 d2 e2 c3 e3 c4 d4 e4       e3 rail | e2 e4 | d3
a4 rail | a3 a5 | b3 b4 b5   b4 road | - | b3 a4 c4 b5    c4 camp | - | b3 c3 d3 b4 d4 b5 c5 d5
d4 road | - | d3 c4 e4 d5   e4 rail | e3 e5 | d3 d4 d5
a5 rail | a4 a6 | b5         b5 camp | - | a4 b4 c4 a5 c5 a6 b6 c6
c5 road | - | c4 b5 d5 c6   d5 camp | - | c4 d4 e4 c5 e5 c6 d6 e6       e5 rail | e4 e6 | d5
a6 rail | a5 b6 a7 | b5     b6 rail | a6 c6 | b5       c6 rail | b6 d6 c7 | c5 b5 d5
d6 rail | c6 e6 | d5        e6 rail | d6 e5 e7 | d5
";

const KIND_WORDS: [&str; 4] = ["road", "HQ", "rail", "camp"];

struct Row {
    square: Square,
    kind: StationKind,
    rail: BTreeSet<Square>,
    road: BTreeSet<Square>,
}

/// Reads the table: `square kind | rail… | road…`, entries running on after each other.
/// A road list ends where a token is followed by a kind word (the next entry's square).
fn south_table() -> Vec<Row> {
    let t: Vec<&str> = SOUTH_TABLE.split_whitespace().collect();
    let mut rows = Vec::new();
    let mut i = 0;
    while i < t.len() {
        let square = sq(t[i]);
        let kind = match t[i + 1] {
            "road" => StationKind::Road,
            "HQ" => StationKind::Headquarters,
            "rail" => StationKind::Rail,
            "camp" => StationKind::Camp,
            other => panic!("bad kind {other:?} for {square}"),
        };
        assert_eq!(t[i + 2], "|", "row {square}");
        i += 3;
        let mut rail = BTreeSet::new();
        while t[i] != "|" {
            if t[i] != "-" {
                rail.insert(sq(t[i]));
            }
            i += 1;
        }
        i += 1;
        let mut road = BTreeSet::new();
        while i < t.len() && !(i + 1 < t.len() && KIND_WORDS.contains(&t[i + 1])) {
            if t[i] != "-" {
                road.insert(sq(t[i]));
            }
            i += 1;
        }
        rows.push(Row {
            square,
            kind,
            rail,
            road,
        });
    }
    rows
}

#[test]
fn south_table_covers_each_south_square_once() {
    let rows = south_table();
    assert_eq!(rows.len(), 30);
    let listed: BTreeSet<Square> = rows.iter().map(|r| r.square).collect();
    let south: BTreeSet<Square> = Square::all().filter(|s| s.rank() <= 6).collect();
    assert_eq!(listed, south);
}

#[test]
fn every_south_square_has_exactly_the_listed_rail_and_road_neighbours() {
    let mut mismatches = Vec::new();
    for row in south_table() {
        let s = row.square;
        if s.kind() != row.kind {
            mismatches.push(format!(
                "{s}: kind {:?}, table says {:?}",
                s.kind(),
                row.kind
            ));
        }
        let rail = set(board::rail_neighbours(s));
        if rail != row.rail {
            mismatches.push(format!("{s}: rail {rail:?}, table says {:?}", row.rail));
        }
        let road = set(board::road_neighbours(s));
        if road != row.road {
            mismatches.push(format!("{s}: road {road:?}, table says {:?}", row.road));
        }
        let all = set(board::neighbours(s));
        let union: BTreeSet<Square> = row.rail.union(&row.road).copied().collect();
        if all != union {
            mismatches.push(format!("{s}: neighbours {all:?}, table says {union:?}"));
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

#[test]
fn camps_touch_all_eight_neighbours_by_road() {
    for camp in squares(CAMPS) {
        let n = board::neighbours(camp);
        assert_eq!(n.len(), 8, "{camp}");
        assert!(
            board::rail_neighbours(camp).is_empty(),
            "{camp} has no rail"
        );
    }
}

#[test]
fn north_half_mirrors_the_south_half() {
    assert_eq!(sq("a1").mirror(), sq("a12"));
    assert_eq!(sq("c6").mirror(), sq("c7"));
    assert_eq!(sq("d10").mirror(), sq("d3"));
    for s in Square::all().filter(|s| s.rank() <= 6) {
        let m = mirrored(s);
        assert_eq!(s.mirror(), m);
        assert_eq!(m.kind(), s.kind(), "kind of {m} mirrors {s}");
        let rail: BTreeSet<Square> = board::rail_neighbours(s).iter().map(mirrored).collect();
        assert_eq!(
            set(board::rail_neighbours(m)),
            rail,
            "rail of {m} mirrors {s}"
        );
        let road: BTreeSet<Square> = board::road_neighbours(s).iter().map(mirrored).collect();
        assert_eq!(
            set(board::road_neighbours(m)),
            road,
            "road of {m} mirrors {s}"
        );
    }
}

#[test]
fn only_a_c_and_e_cross_the_middle_all_by_rail() {
    let crossing: BTreeMap<(Square, Square), EdgeKind> = board::edges()
        .iter()
        .filter(|(a, b, _)| (a.rank() <= 6) != (b.rank() <= 6))
        .map(|&(a, b, k)| ((a.min(b), a.max(b)), k))
        .collect();
    let expected: BTreeMap<(Square, Square), EdgeKind> = [("a6", "a7"), ("c6", "c7"), ("e6", "e7")]
        .into_iter()
        .map(|(a, b)| ((sq(a), sq(b)), EdgeKind::Rail))
        .collect();
    assert_eq!(crossing, expected);
    for (a, b) in [("b6", "b7"), ("d6", "d7")] {
        assert!(
            !board::neighbours(sq(a)).contains(sq(b)),
            "{a}–{b} must not exist"
        );
        assert!(
            !board::neighbours(sq(b)).contains(sq(a)),
            "{b}–{a} must not exist"
        );
    }
}

#[test]
fn board_has_35_rail_98_road_133_edges_without_duplicates() {
    let edges = board::edges();
    assert_eq!(edges.len(), 133);
    let rail = edges.iter().filter(|e| e.2 == EdgeKind::Rail).count();
    let road = edges.iter().filter(|e| e.2 == EdgeKind::Road).count();
    assert_eq!((rail, road), (35, 98));
    let pairs: BTreeSet<(Square, Square)> = edges
        .iter()
        .map(|&(a, b, _)| (a.min(b), a.max(b)))
        .collect();
    assert_eq!(pairs.len(), 133, "an edge is listed twice");
    assert!(edges.iter().all(|(a, b, _)| a != b), "no loops");
}

#[test]
fn edges_agree_with_the_neighbour_queries() {
    let mut degree_sum = 0;
    for s in Square::all() {
        let rail = board::rail_neighbours(s);
        let road = board::road_neighbours(s);
        assert!(
            SquareSet(rail.0 & road.0).is_empty(),
            "{s}: rail and road overlap"
        );
        assert_eq!(board::neighbours(s), SquareSet(rail.0 | road.0), "{s}");
        degree_sum += board::neighbours(s).len();
    }
    assert_eq!(degree_sum, 2 * 133);
    for &(a, b, kind) in board::edges() {
        let (of_a, of_b) = match kind {
            EdgeKind::Rail => (board::rail_neighbours(a), board::rail_neighbours(b)),
            EdgeKind::Road => (board::road_neighbours(a), board::road_neighbours(b)),
        };
        assert!(of_a.contains(b) && of_b.contains(a), "{a}–{b} {kind:?}");
    }
}

// ---------------------------------------------------------------------------------------
// Straight rail lines

#[test]
fn straight_rail_lines_are_files_a_e_ranks_2_6_7_11_and_c6_c7() {
    let line = |names: &str| -> Vec<Square> { names.split_whitespace().map(sq).collect() };
    let expected: BTreeSet<Vec<Square>> = [
        line("a2 a3 a4 a5 a6 a7 a8 a9 a10 a11"),
        line("e2 e3 e4 e5 e6 e7 e8 e9 e10 e11"),
        line("a2 b2 c2 d2 e2"),
        line("a6 b6 c6 d6 e6"),
        line("a7 b7 c7 d7 e7"),
        line("a11 b11 c11 d11 e11"),
        line("c6 c7"),
    ]
    .into_iter()
    .collect();
    // A line may be stored in either direction.
    let actual: Vec<Vec<Square>> = board::rail_lines()
        .iter()
        .map(|l| {
            let mut l = l.clone();
            if l.first() > l.last() {
                l.reverse();
            }
            l
        })
        .collect();
    assert_eq!(actual.len(), 7, "{actual:?}");
    assert_eq!(actual.into_iter().collect::<BTreeSet<_>>(), expected);
}

#[test]
fn rail_edges_are_exactly_the_steps_along_the_rail_lines() {
    let from_lines: BTreeSet<(Square, Square)> = board::rail_lines()
        .iter()
        .flat_map(|l| l.windows(2).map(|w| (w[0].min(w[1]), w[0].max(w[1]))))
        .collect();
    let rail_edges: BTreeSet<(Square, Square)> = board::edges()
        .iter()
        .filter(|e| e.2 == EdgeKind::Rail)
        .map(|&(a, b, _)| (a.min(b), a.max(b)))
        .collect();
    assert_eq!(rail_edges, from_lines);
}

// ---------------------------------------------------------------------------------------
// Square names

#[test]
fn every_square_name_round_trips_through_display_and_parse() {
    for file in 0..5u8 {
        for rank in 1..=12u8 {
            let name = format!("{}{rank}", (b'a' + file) as char);
            let s: Square = name.parse().unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!((s.file(), s.rank()), (file, rank), "{name}");
            assert_eq!(Some(s), Square::new(file, rank));
            assert_eq!(s.to_string(), name);
            assert_eq!(s.name(), name);
            assert_eq!(s.to_string().parse::<Square>(), Ok(s));
        }
    }
}

#[test]
fn bad_square_names_are_rejected_naming_the_input() {
    for bad in [
        "f1", "a0", "a13", "", "a01", "A1", "a", "1", "e99", "a1 ", " a1", "b-1",
    ] {
        match bad.parse::<Square>() {
            Ok(s) => panic!("{bad:?} parsed as {s}"),
            Err(e) => {
                let msg = e.to_string();
                assert!(
                    msg.contains(&format!("{bad:?}")),
                    "message {msg:?} should name {bad:?}"
                );
            }
        }
    }
}

#[test]
fn square_names_with_a_plus_sign_are_rejected() {
    // A rank is plain digits; "a+1" must not read as a1 and then be written back as "a1".
    for bad in ["a+1", "e+9"] {
        assert!(bad.parse::<Square>().is_err(), "{bad:?} must be rejected");
    }
}

#[test]
fn squares_serialize_as_their_names() {
    let s = sq("c10");
    assert_eq!(serde_json::to_string(&s).unwrap(), "\"c10\"");
    assert_eq!(serde_json::from_str::<Square>("\"c10\"").unwrap(), s);
    assert!(serde_json::from_str::<Square>("\"f3\"").is_err());
}

// ---------------------------------------------------------------------------------------
// Rail paths

fn path(names: &str) -> Option<Vec<Square>> {
    Some(names.split_whitespace().map(sq).collect())
}

fn occupied(names: &str) -> SquareSet {
    names.split_whitespace().map(sq).collect()
}

#[test]
fn straight_slides_follow_one_line_and_stop_at_the_first_piece() {
    let empty = SquareSet::EMPTY;
    assert_eq!(
        board::rail_path(sq("a2"), sq("e2"), false, empty),
        path("a2 b2 c2 d2 e2")
    );
    assert_eq!(
        board::rail_path(sq("e2"), sq("b2"), false, empty),
        path("e2 d2 c2 b2")
    );
    // Straight over the middle along file a and via c6–c7.
    assert_eq!(
        board::rail_path(sq("a3"), sq("a10"), false, empty),
        path("a3 a4 a5 a6 a7 a8 a9 a10")
    );
    assert_eq!(
        board::rail_path(sq("c6"), sq("c7"), false, empty),
        path("c6 c7")
    );
    // A slide may end on an occupied station (to attack it) but not pass it.
    let c2 = occupied("c2");
    assert_eq!(
        board::rail_path(sq("a2"), sq("c2"), false, c2),
        path("a2 b2 c2")
    );
    assert_eq!(board::rail_path(sq("a2"), sq("e2"), false, c2), None);
    assert_eq!(board::rail_path(sq("a2"), sq("d2"), false, c2), None);
}

#[test]
fn non_engineers_never_turn_at_corners_or_junctions() {
    let empty = SquareSet::EMPTY;
    // a2 is a corner of file a and rank 2.
    assert_eq!(board::rail_path(sq("a5"), sq("c2"), false, empty), None);
    assert_eq!(board::rail_path(sq("a3"), sq("b2"), false, empty), None);
    // At a6 a piece may go straight on either line but not switch.
    assert_eq!(board::rail_path(sq("a5"), sq("b6"), false, empty), None);
    assert_eq!(board::rail_path(sq("b6"), sq("a7"), false, empty), None);
    assert_eq!(
        board::rail_path(sq("a6"), sq("b6"), false, empty),
        path("a6 b6")
    );
    // c6–c7 is its own line: no turning onto rank 6 or 7 from it.
    assert_eq!(board::rail_path(sq("c7"), sq("d6"), false, empty), None);
    // Road steps are not rail paths.
    assert_eq!(board::rail_path(sq("a1"), sq("a2"), false, empty), None);
    assert_eq!(board::rail_path(sq("a2"), sq("b3"), true, empty), None);
}

#[test]
fn engineer_flight_turns_the_corner_at_a2() {
    assert_eq!(
        board::rail_path(sq("a5"), sq("c2"), true, SquareSet::EMPTY),
        path("a5 a4 a3 a2 b2 c2")
    );
    // The flight may end on an occupied station.
    assert_eq!(
        board::rail_path(sq("a5"), sq("c2"), true, occupied("c2")),
        path("a5 a4 a3 a2 b2 c2")
    );
}

#[test]
fn engineer_flight_goes_round_a_blocked_way_or_fails() {
    // With a3 taken, the only way left runs along rank 6, file e and rank 2.
    assert_eq!(
        board::rail_path(sq("a5"), sq("c2"), true, occupied("a3")),
        path("a5 a6 b6 c6 d6 e6 e5 e4 e3 e2 d2 c2")
    );
    assert_eq!(
        board::rail_path(sq("a5"), sq("c2"), true, occupied("a3 e4")),
        None
    );
    // An occupied station on the way is a wall even if it is next to the goal.
    assert_eq!(
        board::rail_path(sq("a5"), sq("c2"), true, occupied("b2 d2")),
        None
    );
}
