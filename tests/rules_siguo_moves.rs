//! Moves on the four-player board through the one position every board shares
//! (`Position<FourPlayer>`): its fast tables against the board's own description
//! (RULES §5.1.2–5.1.3), and every move the generator lists against a move list worked
//! out station by station from the rule book (§5.3: allies are neither moved nor
//! attacked, camps shelter, headquarters hold, engineers fly, others slide straight).

use junqi::rules::geometry::{Board, Geometry};
use junqi::rules::position::{AttackRefusal, Side};
use junqi::rules::siguo::board::{flight_reach, neighbours, slide_reach};
use junqi::rules::siguo::{Alliance, FourPlayer, Kind, Seat4, Station, StationSet};
use junqi::rules::{Options, Piece, Position, Token, Variant};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use std::collections::BTreeSet;

type Four = Position<FourPlayer>;

fn st(name: &str) -> Station {
    name.parse().unwrap()
}

fn random_set(rng: &mut StdRng, density: f64) -> StationSet {
    Station::all()
        .filter(|_| rng.random_bool(density))
        .collect()
}

#[test]
fn the_fast_tables_agree_with_the_board() {
    let tb = FourPlayer::geometry();
    let mut rng = StdRng::seed_from_u64(5);
    for round in 0..400 {
        let occupied = random_set(&mut rng, (round % 10) as f64 / 10.0);
        let candidates = random_set(&mut rng, 0.5);
        let expected: StationSet = candidates
            .iter()
            .filter(|&c| !neighbours(c).iter().all(|n| !occupied.contains(n)))
            .collect();
        assert_eq!(tb.next_to(candidates, occupied), expected, "next_to");
        for s in Station::all() {
            assert_eq!(tb.neighbours(s), neighbours(s), "neighbours of {s}");
            if s.is_rail() {
                assert!(tb.rail().contains(s), "{s} is rail");
                assert_eq!(
                    tb.slide_reach(s, occupied),
                    slide_reach(s, occupied),
                    "slide from {s}"
                );
                assert_eq!(
                    tb.flight_reach(s, occupied),
                    flight_reach(s, occupied),
                    "flight from {s}"
                );
            } else {
                assert!(!tb.rail().contains(s), "{s} is off the rail");
            }
        }
    }
    assert_eq!(tb.camps().len(), 20);
    assert_eq!(tb.headquarters().len(), 8);
}

#[test]
fn station_sets_count_iterate_and_complement_by_station() {
    let mut rng = StdRng::seed_from_u64(7);
    for round in 0..400 {
        let set = random_set(&mut rng, (round % 11) as f64 / 10.0);
        let listed: Vec<Station> = set.iter().collect();
        let expected: Vec<Station> = Station::all().filter(|&s| set.contains(s)).collect();
        assert_eq!(listed, expected, "in station order");
        assert_eq!(set.len() as usize, expected.len(), "count");
        assert_eq!(set.is_empty(), expected.is_empty());
        let rest = !set;
        assert_eq!(
            rest.iter().collect::<Vec<_>>(),
            Station::all()
                .filter(|&s| !set.contains(s))
                .collect::<Vec<_>>(),
            "the complement holds the other stations and nothing past them"
        );
        assert_eq!(set.len() + rest.len(), 129);
        assert_eq!(!rest, set);
    }
    let all: StationSet = Station::all().collect();
    assert_eq!(all.len(), 129);
    assert_eq!(!StationSet::EMPTY, all);
}

/// A random position: each seat's 25 pieces scattered over its own area and the 九宫
/// and beyond, some stations left empty, every piece hidden as in play.
fn random_position(rng: &mut StdRng) -> Four {
    let mut stations: Vec<Station> = Station::all().collect();
    stations.shuffle(rng);
    let mut tokens = Vec::new();
    let mut free = stations.into_iter();
    for seat in Seat4::ALL {
        let keep = rng.random_range(1..=25);
        for piece in Piece::set().take(keep) {
            let s = free.next().expect("129 stations hold 100 pieces");
            // Camps and headquarters hold whatever lands there in this test; the rules
            // only restrict deployment, not where pieces stand in play.
            tokens.push((s, Token::hidden(piece, seat)));
        }
    }
    Four::with_tokens(tokens)
}

/// Where the piece on `from` may go, from the rule book and the board's own functions.
fn reference_destinations(pos: &Four, side: Side<Seat4>, from: Station) -> BTreeSet<Station> {
    let t = pos.get(from).unwrap();
    let mut out = BTreeSet::new();
    if !t.piece.movable() || from.kind() == Kind::Hq {
        return out;
    }
    let mut reach = neighbours(from);
    if from.is_rail() {
        reach = reach.union(if t.piece == Piece::Engineer {
            flight_reach(from, pos.occupied())
        } else {
            slide_reach(from, pos.occupied())
        });
    }
    for to in reach.iter() {
        match pos.get(to) {
            None => {
                out.insert(to);
            }
            Some(d) if side.is_foe(d.colour) && to.kind() != Kind::Camp => {
                out.insert(to);
            }
            Some(_) => {}
        }
    }
    out
}

#[test]
fn every_listed_move_is_one_of_the_rules_and_none_is_missing() {
    let caps = Variant::Standard.caps();
    let options = Options::default();
    let mut rng = StdRng::seed_from_u64(19);
    let mut moves = 0usize;
    for _ in 0..300 {
        let pos = random_position(&mut rng);
        for mode in [Alliance::Opposite, Alliance::Adjacent, Alliance::None] {
            for seat in Seat4::ALL {
                let side = mode.side(seat);
                let mut listed: BTreeSet<(Station, Station)> = BTreeSet::new();
                pos.for_each_move(caps, &options, side, |f, t| {
                    assert!(listed.insert((f, t)), "{f}-{t} listed twice");
                });
                let mut expected = BTreeSet::new();
                for from in pos.of_colour(seat).iter() {
                    for to in reference_destinations(&pos, side, from) {
                        expected.insert((from, to));
                    }
                    let dest: BTreeSet<Station> = pos
                        .destinations(caps, &options, side, from)
                        .iter()
                        .collect();
                    let movable = from.kind() != Kind::Hq && pos.get(from).unwrap().piece.movable();
                    if movable {
                        assert_eq!(
                            dest,
                            reference_destinations(&pos, side, from),
                            "from {from}"
                        );
                    }
                }
                assert_eq!(listed, expected, "{mode:?} {seat:?} in {pos:?}");
                assert_eq!(pos.has_move(caps, &options, side), !expected.is_empty());
                moves += listed.len();
            }
        }
    }
    assert!(
        moves > 10_000,
        "the positions gave moves to check ({moves})"
    );
}

#[test]
fn an_ally_is_never_attacked_and_a_camp_shelters() {
    let caps = Variant::Standard.caps();
    let options = Options::default();
    // South's engineer on Sa6 (rail corner), North's piece on XSW in front of it, East's
    // on Sb6 beside it, West's in the camp Sb5.
    let pos = Four::with_tokens([
        (st("Sa6"), Token::hidden(Piece::Engineer, Seat4::South)),
        (st("XSW"), Token::hidden(Piece::Major, Seat4::North)),
        (st("Sb6"), Token::hidden(Piece::Captain, Seat4::East)),
        (st("Sb5"), Token::hidden(Piece::Colonel, Seat4::West)),
    ]);
    let side = Alliance::Opposite.side(Seat4::South);
    let dest = pos.destinations(caps, &options, side, st("Sa6"));
    assert!(!dest.contains(st("XSW")), "North is South's ally in 对家");
    assert!(dest.contains(st("Sb6")), "East is a foe");
    assert!(!dest.contains(st("Sb5")), "a camp shelters");
    let engineer = pos.get(st("Sa6")).unwrap();
    assert_eq!(
        pos.attack_refusal(caps, &options, side, engineer, st("XSW")),
        Some(AttackRefusal::Ally)
    );
    assert_eq!(
        pos.attack_refusal(caps, &options, side, engineer, st("Sb5")),
        Some(AttackRefusal::InCamp)
    );
    // The arc joins each seat's e6 to the a6 of the seat on its right, so the flight
    // goes round it from Sa6 onto West's e file.
    assert!(
        dest.contains(st("We6")) && dest.contains(st("We2")),
        "{dest:?}"
    );
    // 混战: North is a foe too.
    let alone = Alliance::None.side(Seat4::South);
    assert!(
        pos.destinations(caps, &options, alone, st("Sa6"))
            .contains(st("XSW"))
    );
}
