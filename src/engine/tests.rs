//! The engine's own checks: it plays legal actions, takes what is plainly winning,
//! answers draws and resigns as it should, and reads what the rules reveal.

use super::beliefs::kind_bit;
use super::*;
use crate::rules::game::Applied;
use crate::rules::view::{EventView, View, Viewer};
use crate::rules::{Colour, Game, Options, Piece, Position, Seat, Square, Token, Variant};
use rand::SeedableRng;
use rand::rngs::StdRng;

/// `seat`'s information set in `g`, built from what its socket would be sent.
fn seat_info(g: &Game, seat: Seat) -> Information {
    Information::new(View::of(g, Viewer::Seat(seat)), *g.options())
}

/// `info` told of `applied` (`g` is the game after it), as its seat's socket would be.
fn tell(info: &mut Information, applied: &Applied, g: &Game) {
    let viewer = Viewer::Seat(info.seat());
    let event = EventView::of(applied, g.variant(), g.colours(), viewer);
    info.observe(&event, View::of(g, viewer));
}

const TENTH: Limits<'static> = Limits {
    share: 0.1,
    ..Limits::NONE
};

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

fn flip_game(shown: &[(&str, Piece, Colour)], hidden: &[(&str, Piece, Colour)]) -> Game {
    let tokens = shown
        .iter()
        .map(|&(s, p, c)| (sq(s), Token::shown(p, c)))
        .chain(hidden.iter().map(|&(s, p, c)| (sq(s), Token::hidden(p, c))));
    Game::from_position(
        Variant::Flip,
        Options::default(),
        Position::from_tokens(tokens),
        Seat::South,
        Some([Colour::Red, Colour::Blue]),
    )
}

#[test]
fn takes_a_free_general() {
    let g = flip_game(
        &[
            ("c6", Piece::Marshal, Colour::Red),
            ("c7", Piece::General, Colour::Blue),
            ("a1", Piece::Captain, Colour::Red),
            ("e12", Piece::Major, Colour::Blue),
        ],
        &[
            ("a12", Piece::Mine, Colour::Blue),
            ("e1", Piece::Flag, Colour::Red),
            ("b1", Piece::Flag, Colour::Blue),
        ],
    );
    let info = seat_info(&g, Seat::South);
    for level in Level::ALL {
        for seed in 0..4 {
            // A tenth of each budget: the capture is one ply deep, and a whole
            // 大师 budget takes minutes unoptimised.
            let d = choose_within(&info, level, &mut StdRng::seed_from_u64(seed), TENTH);
            assert_eq!(
                d,
                Decision::Play(crate::rules::Action::Move {
                    from: sq("c6"),
                    to: sq("c7")
                }),
                "{level:?}"
            );
        }
    }
}

#[test]
fn takes_an_open_flag() {
    // Blue has no mines left: its flag may be taken, and that wins.
    let g = flip_game(
        &[
            ("a6", Piece::Captain, Colour::Red),
            ("a7", Piece::Flag, Colour::Blue),
            ("c7", Piece::General, Colour::Blue),
            ("a1", Piece::Flag, Colour::Red),
        ],
        &[],
    );
    let info = seat_info(&g, Seat::South);
    for level in Level::ALL {
        let d = choose_within(&info, level, &mut StdRng::seed_from_u64(1), TENTH);
        assert_eq!(
            d,
            Decision::Play(crate::rules::Action::Move {
                from: sq("a6"),
                to: sq("a7")
            })
        );
    }
}

fn lopsided() -> Information {
    let g = flip_game(
        &[
            ("a1", Piece::Lieutenant, Colour::Red),
            ("e1", Piece::Flag, Colour::Red),
            ("c7", Piece::Marshal, Colour::Blue),
            ("d7", Piece::General, Colour::Blue),
            ("e7", Piece::MajorGeneral, Colour::Blue),
            ("a8", Piece::MajorGeneral, Colour::Blue),
            ("b8", Piece::Brigadier, Colour::Blue),
            ("e12", Piece::Flag, Colour::Blue),
        ],
        &[],
    );
    seat_info(&g, Seat::South)
}

#[test]
fn accepts_a_draw_when_lost_and_declines_when_winning() {
    let mut lost = lopsided();
    lost.steps = 60;
    lost.open_offer = Some(Seat::North);
    let mut rng = StdRng::seed_from_u64(1);
    assert_eq!(choose(&lost, Level::Hard, &mut rng), Decision::AcceptDraw);
    // The same position from the other side: North declines South's offer.
    let g = flip_game(
        &[
            ("a1", Piece::Lieutenant, Colour::Red),
            ("e1", Piece::Flag, Colour::Red),
            ("c7", Piece::Marshal, Colour::Blue),
            ("e12", Piece::Flag, Colour::Blue),
        ],
        &[],
    );
    let mut winning = seat_info(&g, Seat::North);
    winning.steps = 60;
    winning.open_offer = Some(Seat::South);
    assert_eq!(
        choose(&winning, Level::Hard, &mut rng),
        Decision::DeclineDraw
    );
}

#[test]
fn resigns_a_hopeless_position_only_when_allowed() {
    let mut info = lopsided();
    let mut rng = StdRng::seed_from_u64(1);
    assert!(matches!(
        choose(&info, Level::Hard, &mut rng),
        Decision::Play(_)
    ));
    info.steps = 50;
    assert_eq!(choose(&info, Level::Hard, &mut rng), Decision::Resign);
}

#[test]
fn a_rail_corner_names_an_engineer_and_a_move_rules_out_mines() {
    let tokens = [
        ("b11", Piece::Engineer, Colour::Blue),
        ("c10", Piece::Captain, Colour::Blue),
        ("d12", Piece::Flag, Colour::Blue),
        ("e2", Piece::Captain, Colour::Red),
        ("b1", Piece::Flag, Colour::Red),
    ];
    let pos = Position::from_tokens(tokens.iter().map(|&(s, p, c)| (sq(s), Token::hidden(p, c))));
    let mut g = Game::from_position(
        Variant::Standard,
        Options::default(),
        pos,
        Seat::North,
        Some(crate::rules::game::STANDARD_COLOURS),
    );
    let mut info = seat_info(&g, Seat::South);
    let applied = g
        .apply(
            Seat::North,
            crate::rules::Action::Move {
                from: sq("b11"),
                to: sq("a9"),
            },
            None,
        )
        .unwrap();
    tell(&mut info, &applied, &g);
    assert_eq!(
        info.beliefs.at(sq("a9")).unwrap().kinds,
        kind_bit(Piece::Engineer)
    );
    g.apply(
        Seat::South,
        crate::rules::Action::Move {
            from: sq("e2"),
            to: sq("e3"),
        },
        None,
    )
    .map(|a| tell(&mut info, &a, &g))
    .unwrap();
    let applied = g
        .apply(
            Seat::North,
            crate::rules::Action::Move {
                from: sq("c10"),
                to: sq("c9"),
            },
            None,
        )
        .unwrap();
    tell(&mut info, &applied, &g);
    let k = info.beliefs.at(sq("c9")).unwrap().kinds;
    assert_eq!(k & (kind_bit(Piece::Mine) | kind_bit(Piece::Flag)), 0);
    assert!(k & kind_bit(Piece::Captain) != 0);
}

#[test]
fn every_decision_is_legal_in_short_matches() {
    for variant in [Variant::Flip, Variant::Standard] {
        let r = arena::run(variant, Player::Engine(Level::Easy), Player::Greedy, 2, 3);
        assert_eq!(r.a_wins + r.draws + r.b_wins, 2);
    }
}

/// A standard game a few moves in, from South's side, for the limits' checks.
fn standard_midgame(seed: u64) -> Information {
    let mut rng = StdRng::seed_from_u64(seed);
    let south = deploy(Level::Hard, Seat::South, &mut rng);
    let north = deploy(Level::Hard, Seat::North, &mut rng);
    let g = Game::new_standard(Options::default(), &south, &north, Seat::South);
    seat_info(&g, Seat::South)
}

#[test]
fn a_passed_deadline_or_stop_flag_still_gives_a_legal_action_at_once() {
    use super::search::{CHECK_EVERY, SEARCHED};
    let flag = std::sync::atomic::AtomicBool::new(true);
    // "At once" is counted in search nodes, not measured in time: a busy machine
    // stretches any time, but not how much of the tree was looked at.
    let searched = |info: &Information, limits: Limits<'_>| {
        SEARCHED.with(|n| n.set(0));
        let d = choose_within(info, Level::Hard, &mut StdRng::seed_from_u64(2), limits);
        (d, SEARCHED.with(|n| n.get()))
    };
    let mut long = false;
    for info in [lopsided(), standard_midgame(5)] {
        let (_, whole) = searched(&info, Limits::NONE);
        long |= whole >= 10 * CHECK_EVERY;
        for limits in [
            Limits {
                deadline: Some(std::time::Instant::now()),
                ..Limits::NONE
            },
            Limits {
                stop: Some(&flag),
                ..Limits::NONE
            },
        ] {
            let (d, cut) = searched(&info, limits);
            let Decision::Play(a) = d else {
                panic!("{d:?}")
            };
            assert!(info.legal().contains(&a), "{a:?}");
            // The clock and the flag are read every `CHECK_EVERY` nodes, so a search
            // smaller than that runs whole; a longer one stops near its first look.
            assert!(
                cut <= whole && (whole < 10 * CHECK_EVERY || cut * 10 < whole),
                "{cut} nodes against a whole search's {whole}"
            );
        }
    }
    assert!(long, "no position searched long enough to show the cut");
}

#[test]
fn without_limits_the_full_share_decides_as_before() {
    let info = standard_midgame(6);
    let full = Limits {
        share: 1.0,
        ..Limits::NONE
    };
    for seed in 0..2 {
        assert_eq!(
            choose(&info, Level::Normal, &mut StdRng::seed_from_u64(seed)),
            choose_within(&info, Level::Normal, &mut StdRng::seed_from_u64(seed), full)
        );
    }
    let b = Level::Hard.budget();
    let half = b.scaled(0.5);
    assert_eq!(
        (half.worlds, half.world_nodes, half.nodes),
        (b.worlds.div_ceil(2), b.world_nodes / 2, b.nodes / 2)
    );
    assert_eq!(half.depth, b.depth, "a smaller share keeps the depth");
    let tiny = b.scaled(0.0);
    assert!(tiny.worlds >= 1 && tiny.nodes >= 500 && tiny.world_nodes >= 500);
}

/// The replay's view names every hidden piece, and a spectator's has no legal actions:
/// neither is an information set, and the engine refuses both.
#[test]
fn refuses_a_view_that_is_not_a_seats() {
    let g = flip_game(
        &[("c6", Piece::Marshal, Colour::Red)],
        &[("a1", Piece::Flag, Colour::Blue)],
    );
    for viewer in [Viewer::Everyone, Viewer::Spectator] {
        let refused =
            std::panic::catch_unwind(|| Information::new(View::of(&g, viewer), Options::default()));
        assert!(refused.is_err(), "{viewer:?}");
    }
    let mut info = seat_info(&g, Seat::South);
    let mut g2 = g.clone();
    let applied = g2
        .apply(
            Seat::South,
            crate::rules::Action::Move {
                from: sq("c6"),
                to: sq("c7"),
            },
            None,
        )
        .unwrap();
    let event = EventView::of(&applied, g2.variant(), g2.colours(), Viewer::Everyone);
    let told = std::panic::catch_unwind(move || {
        info.observe(&event, View::of(&g2, Viewer::Everyone));
    });
    assert!(told.is_err(), "another viewer's view after an action");
}

/// Plays `g` to its end with `level` for both seats (at `share` of its budget), each
/// deciding from its own seat's information; the game at the end.
fn play_out(mut g: Game, level: Level, share: f64, seed: u64) -> Game {
    let mut infos = Seat::BOTH.map(|s| seat_info(&g, s));
    let mut rng = StdRng::seed_from_u64(seed);
    let limits = Limits {
        share,
        ..Limits::NONE
    };
    while !g.is_over() {
        let seat = g.to_move();
        let d = choose_within(&infos[seat.index()], level, &mut rng, limits);
        let action = d.action().expect("the seat to move has something to do");
        let applied = g.apply(seat, action, None).expect("a legal action");
        for info in infos.iter_mut() {
            tell(info, &applied, &g);
        }
    }
    g
}

#[test]
fn hunts_down_the_last_movers_before_the_quiet_limit() {
    // Everything is face up. Red cannot take the flag (no engineer or bomb for the
    // mines), so it wins only by leaving Blue nothing to move: its major general must
    // catch the brigadier, and someone the lieutenant, within 80 quiet steps.
    let g = flip_game(
        &[
            ("b3", Piece::MajorGeneral, Colour::Red),
            ("a5", Piece::Brigadier, Colour::Red),
            ("e5", Piece::Brigadier, Colour::Red),
            ("c1", Piece::Colonel, Colour::Red),
            ("d4", Piece::Colonel, Colour::Red),
            ("a1", Piece::Mine, Colour::Red),
            ("b1", Piece::Flag, Colour::Red),
            ("c9", Piece::Brigadier, Colour::Blue),
            ("e11", Piece::Lieutenant, Colour::Blue),
            ("a12", Piece::Mine, Colour::Blue),
            ("c12", Piece::Mine, Colour::Blue),
            ("e12", Piece::Mine, Colour::Blue),
            ("b12", Piece::Flag, Colour::Blue),
        ],
        &[],
    );
    for seed in 0..2 {
        let end = play_out(g.clone(), Level::Hard, 0.1, seed);
        let o = end.outcome().expect("over");
        assert_eq!(
            o.winner,
            Some(Seat::South),
            "seed {seed}: {o:?} after {} steps",
            end.steps()
        );
    }
}
