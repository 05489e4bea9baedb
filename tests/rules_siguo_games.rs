//! 四国 games through the one hidden-piece game (RULES §5.3–5.4): random games in every
//! alliance mode checked after each step against the rule book, and the fine points
//! of defeat, turns, passes and resignation one by one.

use junqi::rules::hidden_game::{Defeat, Ending, HiddenGame, Step, StepError};
use junqi::rules::siguo::{Alliance, FourPlayer, Kind, Seat4, Station};
use junqi::rules::{Options, Piece, Position, Token, Variant};
use junqi::selfplay_siguo::{Table, new_game};
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};

type Four = HiddenGame<FourPlayer>;

fn st(name: &str) -> Station {
    name.parse().unwrap()
}

fn game(alliance: Alliance, pos: Position<FourPlayer>, first: Seat4) -> Four {
    Four::new(
        Variant::Siguo,
        Options::default(),
        alliance,
        pos,
        &Seat4::ALL,
        first,
    )
}

fn moves(g: &Four) -> Vec<(Station, Station)> {
    let mut out = Vec::new();
    g.for_each_move(|f, t| out.push((f, t)));
    out
}

#[test]
fn random_games_in_every_mode_keep_the_rules() {
    let mut rng = StdRng::seed_from_u64(54);
    let tables = [
        (Alliance::Opposite, 4),
        (Alliance::Adjacent, 4),
        (Alliance::None, 4),
        (Alliance::None, 3),
    ];
    for (alliance, seats) in tables {
        let (mut won, mut drawn, mut defeats) = (0, 0, 0);
        for _ in 0..50 {
            let table = Table {
                alliance,
                seats,
                allies_visible: false,
            };
            let mut g = new_game(table, &mut rng);
            let closed = g.position().closed();
            assert_eq!(closed.len(), if seats == 3 { 30 } else { 0 });
            let mut steps = 0;
            while !g.is_over() {
                let seat = g.to_move();
                assert!(g.is_in_play(seat));
                let listed = moves(&g);
                assert!(!listed.is_empty(), "the seat to move has a move");
                let before = g.position().clone();
                for &(from, to) in &listed {
                    assert_eq!(
                        before.get(from).unwrap().colour,
                        seat,
                        "moves its own piece"
                    );
                    assert!(!closed.contains(to), "三国: {to} is out of play");
                    let route = junqi::rules::view::route(&before, from, to);
                    assert!(
                        route.iter().all(|s| !closed.contains(*s)),
                        "crosses {route:?}"
                    );
                    if let Some(d) = before.get(to) {
                        assert!(
                            !g.allied(seat, d.colour),
                            "{seat:?} attacks an ally on {to}"
                        );
                    }
                }
                let step = if rng.random_bool(0.02) {
                    Step::Pass
                } else {
                    let (from, to) = *listed.choose(&mut rng).unwrap();
                    Step::Move { from, to }
                };
                let applied = g.apply(seat, step).expect("a listed move is legal");
                steps += 1;
                for (s, why, left) in &applied.defeated {
                    defeats += 1;
                    assert!(!g.is_in_play(*s) && g.defeat(*s) == Some(*why));
                    assert!(g.position().of_colour(*s).is_empty(), "its pieces left");
                    assert!(left.iter().all(|&p| g.position().get(p).is_none()));
                }
                for s in Seat4::ALL {
                    if g.is_in_play(s) {
                        assert!(
                            !g.position().of_colour(s).is_empty(),
                            "{s:?} in play has pieces"
                        );
                    }
                }
                for &f in &applied.flags_shown {
                    // A seat defeated later in the same step took its flag with it.
                    let Some(t) = g.position().get(f) else {
                        assert!(applied.defeated.iter().any(|d| d.2.contains(&f)));
                        continue;
                    };
                    assert!(t.piece == Piece::Flag && t.shown);
                    assert_eq!(g.position().count(t.colour, Piece::Marshal), 0);
                }
                assert!(g.quiet_steps() <= 70);
                assert!(steps < 20_000, "a game ends");
            }
            match g.ending().unwrap() {
                Ending::Won { .. } => {
                    won += 1;
                    let left: Vec<Seat4> = Seat4::ALL
                        .into_iter()
                        .filter(|&s| g.is_in_play(s))
                        .collect();
                    assert!(!left.is_empty());
                    for &a in &left {
                        assert!(g.won(a));
                        for &b in &left {
                            assert!(g.allied(a, b), "one alliance is left");
                        }
                    }
                    for s in Seat4::ALL {
                        assert_eq!(g.won(s), g.allied(left[0], s), "{s:?}: the alliance wins");
                    }
                }
                Ending::QuietDraw => {
                    drawn += 1;
                    assert_eq!(g.quiet_steps(), 70);
                }
                other => panic!("random moves without offers or 托管 ended {other:?}"),
            }
        }
        assert!(
            won > 0 && defeats > 0,
            "{alliance:?} {seats}: {won} won, {drawn} drawn"
        );
    }
}

fn few(pieces: &[(&str, Piece, Seat4)]) -> Position<FourPlayer> {
    Position::with_tokens(
        pieces
            .iter()
            .map(|&(s, p, seat)| (st(s), Token::hidden(p, seat))),
    )
}

#[test]
fn taking_a_flag_defeats_its_seat_and_clears_its_pieces() {
    // South's major next to East's flag in East's headquarters; North and West keep a
    // piece each.
    let pos = few(&[
        ("Eb2", Piece::Major, Seat4::South),
        ("Eb1", Piece::Flag, Seat4::East),
        ("Ec3", Piece::Mine, Seat4::East),
        ("Ee3", Piece::Captain, Seat4::East),
        ("Nc3", Piece::Captain, Seat4::North),
        ("Wc3", Piece::Captain, Seat4::West),
        ("Sa1", Piece::Flag, Seat4::South),
        ("Sc3", Piece::Captain, Seat4::South),
    ]);
    let mut g = game(Alliance::Opposite, pos, Seat4::South);
    let a = g
        .apply(
            Seat4::South,
            Step::Move {
                from: st("Eb2"),
                to: st("Eb1"),
            },
        )
        .unwrap();
    assert_eq!(a.defeated.len(), 1);
    assert_eq!(
        (a.defeated[0].0, a.defeated[0].1),
        (Seat4::East, Defeat::FlagTaken)
    );
    assert!(
        g.position().of_colour(Seat4::East).is_empty(),
        "mines and all leave"
    );
    assert_eq!(
        g.position().get(st("Eb1")).unwrap().colour,
        Seat4::South,
        "the taker stays"
    );
    assert_eq!(g.to_move(), Seat4::North, "East's turn is skipped");
    assert_eq!(g.quiet_steps(), 0);
    // The taker in the headquarters never moves again (§5.1.4).
    let err = g.apply(Seat4::North, Step::Pass).map(|_| ());
    assert!(err.is_ok());
    assert_eq!(g.to_move(), Seat4::West);
    g.apply(Seat4::West, Step::Pass).unwrap();
    assert_eq!(
        g.apply(
            Seat4::South,
            Step::Move {
                from: st("Eb1"),
                to: st("Eb2")
            }
        )
        .unwrap_err(),
        StepError::HeadquartersLock(st("Eb1"))
    );
}

#[test]
fn the_fifth_timeout_or_pass_defeats() {
    let pos = few(&[
        ("Sc3", Piece::Captain, Seat4::South),
        ("Ec3", Piece::Captain, Seat4::East),
        ("Nc3", Piece::Captain, Seat4::North),
        ("Wc3", Piece::Captain, Seat4::West),
    ]);
    let mut g = game(Alliance::Opposite, pos, Seat4::South);
    for round in 1..=5 {
        for seat in Seat4::ALL {
            if !g.is_in_play(seat) {
                continue;
            }
            let step = if round % 2 == 0 {
                Step::Timeout
            } else {
                Step::Pass
            };
            let a = g.apply(seat, step).unwrap();
            if seat == Seat4::South && round == 5 {
                assert_eq!(a.defeated[0].1, Defeat::Timeouts);
                assert!(
                    g.is_in_play(Seat4::North),
                    "only the seat itself is defeated"
                );
            } else if seat == Seat4::South {
                assert!(a.defeated.is_empty(), "{round} is not yet five");
            }
            if g.is_over() {
                break;
            }
        }
    }
    assert!(!g.is_in_play(Seat4::South));
}

#[test]
fn resigning_waits_for_40_steps_and_defeats_only_the_resigner() {
    let pos = few(&[
        ("Sc3", Piece::Captain, Seat4::South),
        ("Ec3", Piece::Captain, Seat4::East),
        ("Nc3", Piece::Captain, Seat4::North),
        ("Wc3", Piece::Captain, Seat4::West),
    ]);
    let mut g = game(Alliance::Opposite, pos, Seat4::South);
    assert_eq!(
        g.apply(Seat4::East, Step::Resign).unwrap_err(),
        StepError::TooEarly {
            needed: 40,
            steps: 0
        }
    );
    // 40 steps of shuffling into empty stations, none a headquarters (which would
    // hold the piece for good).
    while g.steps() < 40 {
        let seat = g.to_move();
        let free =
            |&(_, to): &(Station, Station)| g.position().get(to).is_none() && to.kind() != Kind::Hq;
        let (from, to) = moves(&g).into_iter().find(free).unwrap();
        g.apply(seat, Step::Move { from, to }).unwrap();
    }
    let to_move = g.to_move();
    let a = g.apply(Seat4::East, Step::Resign).unwrap();
    assert_eq!(a.defeated[0].0, Seat4::East);
    assert!(!g.is_over(), "East's ally West plays on");
    if to_move == Seat4::East {
        assert_eq!(g.to_move(), Seat4::North);
    } else {
        assert_eq!(g.to_move(), to_move, "the turn stays where it was");
    }
    // West resigns too: South and North are the one alliance left, and win.
    let a = g.apply(Seat4::West, Step::Resign).unwrap();
    assert_eq!(a.ending, Some(g.ending().unwrap()));
    assert!(g.won(Seat4::South) && g.won(Seat4::North) && !g.won(Seat4::East));
}

#[test]
fn a_seat_without_a_move_is_defeated_when_its_turn_comes() {
    // East has only a mine and its flag: when South has moved, East is defeated and
    // the turn goes on to North.
    let pos = few(&[
        ("Sc3", Piece::Captain, Seat4::South),
        ("Eb1", Piece::Flag, Seat4::East),
        ("Ea1", Piece::Mine, Seat4::East),
        ("Nc3", Piece::Captain, Seat4::North),
        ("Wc3", Piece::Captain, Seat4::West),
    ]);
    let mut g = game(Alliance::None, pos, Seat4::South);
    let (from, to) = moves(&g)[0];
    let a = g.apply(Seat4::South, Step::Move { from, to }).unwrap();
    assert_eq!(
        (a.defeated[0].0, a.defeated[0].1),
        (Seat4::East, Defeat::NoMoves)
    );
    assert_eq!(g.to_move(), Seat4::North);
}

#[test]
fn the_flag_is_shown_when_the_marshal_falls() {
    let pos = few(&[
        ("XS", Piece::Marshal, Seat4::South),
        ("XC", Piece::Bomb, Seat4::East),
        ("Sb1", Piece::Flag, Seat4::South),
        ("Ec3", Piece::Captain, Seat4::East),
        ("Nc3", Piece::Captain, Seat4::North),
        ("Wc3", Piece::Captain, Seat4::West),
    ]);
    let mut g = game(Alliance::Opposite, pos, Seat4::South);
    let a = g
        .apply(
            Seat4::South,
            Step::Move {
                from: st("XS"),
                to: st("XC"),
            },
        )
        .unwrap();
    assert_eq!(a.flags_shown, vec![st("Sb1")]);
    assert!(g.position().get(st("Sb1")).unwrap().shown);
    assert_eq!(g.quiet_steps(), 0, "an attack resets the quiet count");
}
