//! The 四国 computer: it plays only legal moves and never attacks an ally, it decides
//! from its seat's view alone (two games that differ only where the seat cannot see
//! give it the same view and the same choices), it learns from what attacks and routes
//! show, it takes a flag it can take, and 困难 pairs beat random pairs.

use junqi::engine::siguo::arena::{self, apply_and_tell};
use junqi::engine::siguo::beliefs::kind_bit;
use junqi::engine::siguo::{SeatInfo, choose, decide};
use junqi::engine::{Level, Player};
use junqi::rules::geometry::PlaceSet;
use junqi::rules::hidden_game::{HiddenGame, Step};
use junqi::rules::siguo::board::neighbours;
use junqi::rules::siguo::{Alliance, FourPlayer, Seat4, Station};
use junqi::rules::{Options, Piece, Position, Token, Variant};
use junqi::selfplay_siguo::{Table, new_game};
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::collections::BTreeMap;

type Four = HiddenGame<FourPlayer>;

/// 对家 for four, 友明 off.
const OPPOSITE: Table = Table {
    alliance: Alliance::Opposite,
    seats: 4,
    allies_visible: false,
};

fn st(name: &str) -> Station {
    name.parse().unwrap()
}

fn game(tokens: Vec<(Station, Token<Seat4>)>, first: Seat4) -> Four {
    let pos = Position::<FourPlayer>::with_tokens(tokens);
    Four::new(
        Variant::Siguo,
        Options::default(),
        Alliance::Opposite,
        pos,
        &Seat4::ALL,
        first,
    )
}

fn infos(g: &Four) -> Vec<SeatInfo> {
    Seat4::ALL
        .into_iter()
        .map(|s| SeatInfo::new(g.seat_view(s)))
        .collect()
}

fn hidden(name: &str, piece: Piece, seat: Seat4) -> (Station, Token<Seat4>) {
    (st(name), Token::hidden(piece, seat))
}

/// A few pieces per seat, every seat with its flag in a headquarters.
fn small_army() -> Vec<(Station, Token<Seat4>)> {
    use Piece::*;
    use Seat4::*;
    vec![
        hidden("Sb1", Flag, South),
        hidden("Sc2", Captain, South),
        hidden("Nb1", Flag, North),
        hidden("Nc2", Captain, North),
        hidden("Wd1", Flag, West),
        hidden("Wc2", Captain, West),
    ]
}

#[test]
fn plays_only_legal_moves_and_never_attacks_an_ally() {
    let players = [
        Player::Engine(Level::Normal),
        Player::Greedy,
        Player::Engine(Level::Easy),
        Player::Random,
    ];
    let table = Table {
        alliance: Alliance::Opposite,
        seats: 4,
        allies_visible: false,
    };
    let (mut moves, mut attacks) = (0, 0);
    for seed in 0..2u64 {
        let mut g = new_game(table, &mut StdRng::seed_from_u64(seed));
        let mut infos = infos(&g);
        let mut rng = StdRng::seed_from_u64(seed + 100);
        while !g.is_over() && g.steps() < 240 {
            let seat = g.to_move();
            let info = &infos[seat.index()];
            let step = decide(players[seat.index()], info, &mut rng).expect("its turn");
            let Step::Move { from, to } = step else {
                panic!("{seat} passed with moves left");
            };
            assert!(
                info.legal().contains(&(from, to)),
                "{from}-{to} was offered"
            );
            if let Some(target) = g.position().get(to) {
                assert!(
                    !g.allied(seat, target.colour),
                    "{seat} attacked its ally at {to}"
                );
                attacks += 1;
            }
            moves += 1;
            apply_and_tell(&mut g, &mut infos, seat, step).expect("the rules accept it");
        }
    }
    assert!(
        moves > 200 && attacks > 10,
        "{moves} moves, {attacks} attacks"
    );
}

/// Swaps the pieces on two stations: the same board to everyone who cannot see them.
fn swapped(g: &Four, a: Station, b: Station) -> Four {
    let mut tokens: Vec<(Station, Token<Seat4>)> = g.position().tokens().collect();
    let (pa, pb) = (g.position().get(a).unwrap(), g.position().get(b).unwrap());
    for (s, t) in tokens.iter_mut() {
        if *s == a {
            *t = pb;
        } else if *s == b {
            *t = pa;
        }
    }
    game(tokens, g.to_move())
}

#[test]
fn decides_from_its_view_alone() {
    let table = Table {
        alliance: Alliance::Opposite,
        seats: 4,
        allies_visible: false,
    };
    let start = new_game(table, &mut StdRng::seed_from_u64(7));
    let tokens: Vec<_> = start.position().tokens().collect();
    let truth = game(tokens, Seat4::South);
    // East's front-row pieces, two of different kinds, change places; so do two of
    // North's (the ally's pieces are hidden too without 友明).
    let differing = |seat: Seat4| {
        let row: Vec<Station> = (0..5)
            .map(|f| Station::of(seat, f, 6).unwrap())
            .filter(|&s| truth.position().get(s).is_some())
            .collect();
        let first = truth.position().get(row[0]).unwrap().piece;
        let other = row
            .iter()
            .copied()
            .find(|&s| truth.position().get(s).unwrap().piece != first)
            .expect("a front row holds two kinds");
        (row[0], other)
    };
    let (e1, e2) = differing(Seat4::East);
    let (n1, n2) = differing(Seat4::North);
    let other = swapped(&swapped(&truth, e1, e2), n1, n2);
    assert_ne!(truth.position(), other.position(), "the truths differ");
    let (mut a, mut b) = (truth, other);
    let (mut ia, mut ib) = (infos(&a), infos(&b));
    assert_eq!(ia[0], ib[0], "South is sent the same");
    // South and its fellow seats play the same steps on both; South's choices must
    // match for every level and seed at each of its turns.
    for _ in 0..8 {
        let seat = a.to_move();
        if seat == Seat4::South {
            for level in Level::ALL {
                for seed in 0..2 {
                    let ca = choose(&ia[0], level, &mut StdRng::seed_from_u64(seed));
                    let cb = choose(&ib[0], level, &mut StdRng::seed_from_u64(seed));
                    assert_eq!(ca, cb, "{level:?} seed {seed}");
                }
            }
        }
        // A quiet step to a neighbour, which any piece that moves can make, keeps
        // the two games alike to South.
        let quiet = ia[seat.index()]
            .legal()
            .iter()
            .copied()
            .find(|&(from, to)| a.position().get(to).is_none() && neighbours(from).contains(to))
            .expect("a quiet move");
        let step = Step::Move {
            from: quiet.0,
            to: quiet.1,
        };
        apply_and_tell(&mut a, &mut ia, seat, step).unwrap();
        apply_and_tell(&mut b, &mut ib, seat, step).unwrap();
        assert_eq!(ia[0], ib[0], "South is sent the same after {step:?}");
    }
}

#[test]
fn takes_a_flag_it_can_take() {
    // East's flag is shown (its marshal fell); South's general stands beside it.
    let mut shown = small_army();
    shown.extend([
        (st("Eb1"), Token::shown(Piece::Flag, Seat4::East)),
        hidden("Ec2", Piece::Colonel, Seat4::East),
        hidden("Ea1", Piece::General, Seat4::South),
    ]);
    // Hidden, but the only piece of East's that may be a flag: the other stands
    // outside the headquarters, and at the start nothing deploys a flag there.
    let mut only_one = small_army();
    only_one.extend([
        hidden("Eb1", Piece::Flag, Seat4::East),
        hidden("Ec2", Piece::Colonel, Seat4::East),
        hidden("Ea1", Piece::General, Seat4::South),
    ]);
    let take = Some(Step::Move {
        from: st("Ea1"),
        to: st("Eb1"),
    });
    let mut missed = Vec::new();
    for (case, tokens) in [("shown", shown), ("only one", only_one)] {
        let g = game(tokens, Seat4::South);
        let info = SeatInfo::new(g.seat_view(Seat4::South));
        assert!(info.legal().contains(&(st("Ea1"), st("Eb1"))));
        for level in Level::ALL {
            let step = choose(&info, level, &mut StdRng::seed_from_u64(1));
            if step != take {
                missed.push(format!("{case} {level:?}: {step:?}"));
            }
        }
    }
    assert!(missed.is_empty(), "{missed:?}");
}

#[test]
fn learns_from_attacks_and_routes() {
    use Piece::*;
    use Seat4::*;
    let mut tokens = small_army();
    tokens.extend([
        hidden("Se6", Colonel, South),
        hidden("Ea6", General, East),
        hidden("Ea3", Engineer, East),
        hidden("Ed1", Flag, East),
    ]);
    let mut g = game(tokens, East);
    let mut infos = infos(&g);
    let attack = Step::Move {
        from: st("Ea6"),
        to: st("Se6"),
    };
    apply_and_tell(&mut g, &mut infos, East, attack).unwrap();
    // West and North pass their turns; South too, to bring East round again.
    for seat in [North, West, South] {
        apply_and_tell(&mut g, &mut infos, seat, Step::Pass).unwrap();
    }
    let beat = infos[South.index()].beliefs().at(st("Se6")).unwrap().kinds;
    let above_colonel =
        kind_bit(Marshal) | kind_bit(General) | kind_bit(MajorGeneral) | kind_bit(Brigadier);
    assert_eq!(
        beat, above_colonel,
        "the piece that beat South's colonel is above it"
    );
    // Round the a2 corner and along rank 2: only an engineer turns on the rail.
    let flight = Step::Move {
        from: st("Ea3"),
        to: st("Ec2"),
    };
    apply_and_tell(&mut g, &mut infos, East, flight).unwrap();
    for seat in [South, North, West] {
        let t = infos[seat.index()].beliefs().at(st("Ec2"));
        assert_eq!(t.unwrap().kinds, kind_bit(Engineer), "{seat} saw a flight");
    }
}

#[test]
fn hard_pairs_beat_random_pairs() {
    let hard = Player::Engine(Level::Hard);
    let mut think = BTreeMap::new();
    let mut won = 0;
    for i in 0..2u64 {
        let mut players = [hard, Player::Random, hard, Player::Random];
        if i % 2 == 1 {
            players.rotate_left(1);
        }
        let g = arena::play(OPPOSITE, players, 3, i, &mut think);
        won += Seat4::ALL
            .into_iter()
            .any(|s| players[s.index()] == hard && g.won(s)) as u32;
    }
    assert_eq!(won, 2, "困难 pairs won {won} of 2");
}

#[test]
fn under_allies_visible_the_computer_knows_its_allys_pieces_and_only_then() {
    // 友明 (RULES §5.2): the ally's pieces are in the seat's view, so the computer
    // holds each as exactly what it is; without it the ally's pieces are guesses
    // bounded by where they stand, like an enemy's.
    use Seat4::*;
    for allies_visible in [true, false] {
        let table = Table {
            allies_visible,
            ..OPPOSITE
        };
        let g = new_game(table, &mut StdRng::seed_from_u64(5));
        let info = SeatInfo::new(g.seat_view(South));
        let pinned = |seat: Seat4| {
            let stations: Vec<Station> = g.position().of_colour(seat).places().collect();
            assert_eq!(stations.len(), 25);
            stations
                .iter()
                .filter(|&&s| {
                    let truth = g.position().get(s).unwrap().piece;
                    info.beliefs().at(s).unwrap().kinds == kind_bit(truth)
                })
                .count()
        };
        // Only a flag in a headquarters' pair can be narrowed to one kind by where it
        // stands; an enemy's pieces are never all pinned.
        assert!(pinned(East) < 25, "an enemy's pieces are guesses");
        if allies_visible {
            assert_eq!(pinned(North), 25, "友明: every ally piece is known exactly");
        } else {
            assert!(
                pinned(North) < 25,
                "without 友明 the ally's pieces are guesses"
            );
        }
    }
}
