//! Flip chess (RULES §2, §3): movement, attacks, colours, steps, draws, and endings.

mod common;
use common::*;
use junqi::rules::game::Effect;
use junqi::rules::position::AttackRefusal;
use junqi::rules::{
    Action, Colour, ColourRule, Combat, Deal, EndReason, Game, Options, Outcome, Piece, RuleError,
    Seat, Variant,
};
use rand::SeedableRng;
use rand::rngs::StdRng;

// A blue piece far away keeps north supplied with quiet moves.
const NORTH_IDLE: &str = "c12 colonel blue up";

#[test]
fn engineer_turns_a_rail_corner_and_others_cannot() {
    let g = flip_game(&format!("a5 engineer red up; {NORTH_IDLE}"));
    let d = dests(&g, "a5");
    // Down file a, round the a2 corner, along rank 2, up file e, and across rank 6.
    for s in ["a2", "b2", "c2", "e2", "e5", "e6", "c6", "a11", "e11", "c7"] {
        assert!(
            d.contains(&s.to_string()),
            "engineer should reach {s}: {d:?}"
        );
    }
    let g = flip_game(&format!("a5 lieutenant red up; {NORTH_IDLE}"));
    let d = dests(&g, "a5");
    assert!(d.contains(&"a2".to_string()) && d.contains(&"a11".to_string()));
    assert!(
        !d.contains(&"b2".to_string()),
        "a lieutenant may not turn at a2: {d:?}"
    );
    let mut g = g;
    assert_eq!(
        g.apply(Seat::South, mv("a5", "b2"), None),
        Err(RuleError::Unreachable {
            from: sq("a5"),
            to: sq("b2")
        })
    );
}

#[test]
fn non_engineer_goes_straight_at_a6_but_does_not_switch_lines() {
    let g = flip_game(&format!("a6 brigadier red up; {NORTH_IDLE}"));
    let d = dests(&g, "a6");
    for s in ["a2", "a11", "b6", "e6", "a7", "b5"] {
        assert!(d.contains(&s.to_string()), "{s} in {d:?}");
    }
    // Switching from file a to rank 7 at a7 is a turn.
    assert!(!d.contains(&"b7".to_string()));
    assert!(!d.contains(&"e7".to_string()));
}

#[test]
fn slide_is_stopped_by_a_face_down_piece_which_cannot_be_attacked() {
    let mut g = flip_game(&format!(
        "a2 lieutenant red up; a4 captain blue down; {NORTH_IDLE}"
    ));
    let d = dests(&g, "a2");
    assert!(d.contains(&"a3".to_string()));
    assert!(
        !d.contains(&"a4".to_string()),
        "face-down pieces cannot be attacked"
    );
    assert!(
        !d.contains(&"a5".to_string()),
        "the slide stops at the face-down piece"
    );
    assert_eq!(
        g.apply(Seat::South, mv("a2", "a4"), None),
        Err(RuleError::Attack {
            from: sq("a2"),
            to: sq("a4"),
            why: AttackRefusal::FaceDown
        })
    );
    // An engineer is blocked too; with b2 also taken it has no way round to a5.
    let mut g2 = flip_game(&format!(
        "a2 engineer red up; a4 captain red down; b2 captain blue down; {NORTH_IDLE}"
    ));
    assert!(
        !dests(&g2, "a2").contains(&"a5".to_string()),
        "an engineer is blocked too"
    );
    assert!(g2.apply(Seat::South, mv("a2", "a5"), None).is_err());
}

#[test]
fn road_moves_are_one_step_and_camps_link_diagonally() {
    let g = flip_game(&format!("c4 major red up; {NORTH_IDLE}"));
    let mut d = dests(&g, "c4");
    d.sort();
    assert_eq!(d, ["b3", "b4", "b5", "c3", "c5", "d3", "d4", "d5"]);
    let g = flip_game(&format!("c3 major red up; {NORTH_IDLE}"));
    let mut d = dests(&g, "c3");
    d.sort();
    assert_eq!(d, ["b3", "c2", "c4", "d3"]);
}

#[test]
fn pieces_in_camps_cannot_be_attacked() {
    let mut g = flip_game("b3 captain blue up; a2 marshal red up; c12 colonel blue up");
    assert!(!dests(&g, "a2").contains(&"b3".to_string()));
    assert_eq!(
        g.apply(Seat::South, mv("a2", "b3"), None),
        Err(RuleError::Attack {
            from: sq("a2"),
            to: sq("b3"),
            why: AttackRefusal::InCamp
        })
    );
}

#[test]
fn combat_outcomes() {
    let cases = [
        ("marshal", "general", Combat::AttackerWins),
        ("captain", "captain", Combat::BothRemoved),
        ("lieutenant", "captain", Combat::DefenderWins),
        ("engineer", "marshal", Combat::DefenderWins),
        ("bomb", "marshal", Combat::BothRemoved),
        ("engineer", "bomb", Combat::BothRemoved),
        ("engineer", "mine", Combat::AttackerWins),
        ("bomb", "mine", Combat::BothRemoved),
    ];
    for (a, d, expected) in cases {
        let mut g = flip_game(&format!(
            "a2 {a} red up; a3 {d} blue up; c12 colonel blue up; b12 mine blue down"
        ));
        let applied = g.apply(Seat::South, mv("a2", "a3"), None).unwrap();
        match applied.effect {
            Effect::Moved { combat, .. } => assert_eq!(combat, Some(expected), "{a} attacks {d}"),
            e => panic!("{e:?}"),
        }
        let at_a3 = g
            .position()
            .get(sq("a3"))
            .map(|t| (t.piece.to_string(), t.colour));
        let expected_a3 = match expected {
            Combat::AttackerWins => Some((a.to_string(), Colour::Red)),
            Combat::DefenderWins => Some((d.to_string(), Colour::Blue)),
            Combat::BothRemoved => None,
        };
        assert_eq!(at_a3, expected_a3, "{a} attacks {d}");
        assert!(g.position().get(sq("a2")).is_none());
        assert_eq!(g.quiet_steps(), 0, "an attack resets the no-attack count");
    }
}

#[test]
fn only_engineers_and_bombs_may_attack_mines() {
    for (attacker, allowed) in [
        ("engineer", true),
        ("bomb", true),
        ("marshal", false),
        ("captain", false),
    ] {
        let mut g = flip_game(&format!(
            "a2 {attacker} red up; a3 mine blue up; {NORTH_IDLE}"
        ));
        let r = g.apply(Seat::South, mv("a2", "a3"), None);
        if allowed {
            assert!(r.is_ok(), "{attacker}: {r:?}");
        } else {
            assert_eq!(
                r.unwrap_err(),
                RuleError::Attack {
                    from: sq("a2"),
                    to: sq("a3"),
                    why: AttackRefusal::MineNeedsEngineerOrBomb
                }
            );
        }
    }
}

#[test]
fn flag_gate_holds_against_a_bomb_while_a_face_down_mine_remains() {
    let spec = "a2 bomb red up; a3 flag blue up; e9 mine blue down; c12 colonel blue up";
    let mut g = flip_game(spec);
    assert!(!dests(&g, "a2").contains(&"a3".to_string()));
    assert_eq!(
        g.apply(Seat::South, mv("a2", "a3"), None),
        Err(RuleError::Attack {
            from: sq("a2"),
            to: sq("a3"),
            why: AttackRefusal::FlagGuardedByMines
        })
    );
    // With the last mine gone the bomb may hit the flag; both go and red wins.
    let mut g = flip_game("a2 bomb red up; a3 flag blue up; c12 colonel blue up");
    let applied = g.apply(Seat::South, mv("a2", "a3"), None).unwrap();
    assert_eq!(
        applied.outcome,
        Some(Outcome::win(Seat::South, EndReason::Flag))
    );
    assert!(g.position().get(sq("a3")).is_none());
    assert!(g.position().get(sq("a2")).is_none());
}

#[test]
fn any_piece_takes_an_open_flag_and_wins() {
    let mut g = flip_game("a2 engineer red up; a3 flag blue up; c12 colonel blue up");
    let a = g.apply(Seat::South, mv("a2", "a3"), None).unwrap();
    assert_eq!(a.outcome, Some(Outcome::win(Seat::South, EndReason::Flag)));
    assert_eq!(g.position().get(sq("a3")).unwrap().piece, Piece::Engineer);
    assert_eq!(
        g.apply(Seat::North, mv("c12", "b12"), None),
        Err(RuleError::GameOver)
    );
}

#[test]
fn no_suicide_refuses_only_ranked_attacks_on_higher_ranks() {
    let opts = Options {
        no_suicide: true,
        ..Options::default()
    };
    let mut g = flip_game_with(
        &format!("a2 captain red up; a3 major blue up; {NORTH_IDLE}"),
        opts,
    );
    assert_eq!(
        g.apply(Seat::South, mv("a2", "a3"), None),
        Err(RuleError::Attack {
            from: sq("a2"),
            to: sq("a3"),
            why: AttackRefusal::Suicide
        })
    );
    for (a, d) in [
        ("captain", "captain"),
        ("captain", "bomb"),
        ("bomb", "marshal"),
        ("major", "captain"),
    ] {
        let mut g = flip_game_with(
            &format!("a2 {a} red up; a3 {d} blue up; {NORTH_IDLE}"),
            opts,
        );
        assert!(
            g.apply(Seat::South, mv("a2", "a3"), None).is_ok(),
            "{a} on {d}"
        );
    }
    // Off by default: the weaker piece may attack and is removed.
    let mut g = flip_game(&format!(
        "a2 captain red up; a3 major blue up; {NORTH_IDLE}"
    ));
    assert!(g.apply(Seat::South, mv("a2", "a3"), None).is_ok());
    assert!(g.position().get(sq("a2")).is_none());
}

#[test]
fn headquarters_do_not_lock_pieces_in_flip_chess() {
    let g = flip_game(&format!("b1 general red up; {NORTH_IDLE}"));
    let mut d = dests(&g, "b1");
    d.sort();
    assert_eq!(d, ["a1", "b2", "c1"]);
}

#[test]
fn mines_and_flags_never_move_and_face_down_pieces_cannot_move() {
    let mut g = flip_game(&format!(
        "a2 mine red up; a4 flag red up; e2 general red down; {NORTH_IDLE}"
    ));
    assert!(matches!(
        g.apply(Seat::South, mv("a2", "a3"), None),
        Err(RuleError::Immovable(_, Piece::Mine))
    ));
    assert!(matches!(
        g.apply(Seat::South, mv("a4", "a5"), None),
        Err(RuleError::Immovable(_, Piece::Flag))
    ));
    assert_eq!(
        g.apply(Seat::South, mv("e2", "e3"), None),
        Err(RuleError::FaceDownPiece(sq("e2")))
    );
    assert_eq!(
        g.apply(Seat::South, mv("c12", "b12"), None),
        Err(RuleError::NotYourPiece(sq("c12")))
    );
    assert_eq!(
        g.apply(Seat::North, Action::Flip(sq("e2")), None),
        Err(RuleError::NotYourTurn)
    );
    assert_eq!(g.steps(), 0, "refused actions change nothing");
}

fn unassigned(spec: &str, rule: ColourRule) -> Game {
    Game::from_position(
        Variant::Flip,
        Options {
            colour_rule: rule,
            ..Options::default()
        },
        position(spec),
        Seat::South,
        None,
    )
}

const SIX_DOWN: &str = "a1 captain red down; b1 captain blue down; c1 major red down; d1 major blue down; e1 colonel red down; a2 colonel blue down; e12 marshal red down";

#[test]
fn match_previous_gives_the_colour_to_whoever_repeats_the_previous_flip() {
    let mut g = unassigned(SIX_DOWN, ColourRule::MatchPrevious);
    assert!(matches!(
        g.apply(Seat::South, mv("a1", "a2"), None),
        Err(RuleError::ColoursNotAssigned)
    ));
    let a = g.apply(Seat::South, Action::Flip(sq("a1")), None).unwrap(); // red
    assert_eq!(a.colours_assigned, None);
    g.apply(Seat::North, Action::Flip(sq("b1")), None).unwrap(); // blue
    g.apply(Seat::South, Action::Timeout, None).unwrap(); // timeouts are ignored
    let a = g.apply(Seat::North, Action::Flip(sq("d1")), None).unwrap(); // blue matches blue
    assert_eq!(a.colours_assigned, Some([Colour::Red, Colour::Blue]));
    assert_eq!(g.colour_of(Seat::North), Some(Colour::Blue));
    assert_eq!(g.colour_of(Seat::South), Some(Colour::Red));
}

#[test]
fn two_in_a_row_pairs_a_players_own_flips() {
    let mut g = unassigned(SIX_DOWN, ColourRule::TwoInARow);
    g.apply(Seat::South, Action::Flip(sq("a1")), None).unwrap(); // S red
    g.apply(Seat::North, Action::Flip(sq("c1")), None).unwrap(); // N red: matches previous, but not N's own pair
    assert_eq!(g.colours(), None);
    g.apply(Seat::South, Action::Flip(sq("b1")), None).unwrap(); // S blue
    g.apply(Seat::North, Action::Timeout, None).unwrap();
    g.apply(Seat::South, Action::Timeout, None).unwrap();
    let a = g.apply(Seat::North, Action::Flip(sq("e1")), None).unwrap(); // N red, red: pair across a timeout
    assert_eq!(a.colours_assigned, Some([Colour::Blue, Colour::Red]));
}

#[test]
fn first_flip_gives_its_colour_to_the_flipper() {
    let mut g = unassigned(SIX_DOWN, ColourRule::FirstFlip);
    let a = g.apply(Seat::South, Action::Flip(sq("b1")), None).unwrap();
    assert_eq!(a.colours_assigned, Some([Colour::Blue, Colour::Red]));
}

#[test]
fn nothing_face_down_and_no_colour_is_a_draw() {
    let mut g = unassigned(
        "a1 captain red down; b1 captain blue down",
        ColourRule::MatchPrevious,
    );
    g.apply(Seat::South, Action::Flip(sq("a1")), None).unwrap();
    let a = g.apply(Seat::North, Action::Flip(sq("b1")), None).unwrap();
    assert_eq!(a.outcome, Some(Outcome::draw(EndReason::NoMoves)));
}

#[test]
fn a_timeout_is_a_step_and_the_third_loses() {
    let mut g = flip_game(&format!(
        "a5 colonel red up; e2 captain red down; {NORTH_IDLE}"
    ));
    let a = g.apply(Seat::South, Action::Timeout, None).unwrap();
    assert_eq!(a.outcome, None);
    assert_eq!(g.steps(), 1);
    assert_eq!(g.quiet_steps(), 1);
    assert_eq!(g.to_move(), Seat::North);
    assert_eq!(g.timeouts(Seat::South), 1);
    g.apply(Seat::North, mv("c12", "b12"), None).unwrap();
    g.apply(Seat::South, Action::Timeout, None).unwrap();
    g.apply(Seat::North, mv("b12", "c12"), None).unwrap();
    let a = g.apply(Seat::South, Action::Timeout, None).unwrap();
    assert_eq!(
        a.outcome,
        Some(Outcome::loss(Seat::South, EndReason::Timeouts))
    );
    assert_eq!(g.steps(), 5);
}

#[test]
fn flips_count_toward_the_eighty_step_limit() {
    // Ten face-down pieces; seventy quiet moves, then the flips take the count to 80.
    let mut spec = String::from("a5 colonel red up; a8 colonel blue up");
    for s in [
        "c1", "a1", "e1", "c12", "a12", "e12", "b4", "d4", "b9", "d9",
    ] {
        spec += &format!("; {s} captain red down");
    }
    let mut g = flip_game(&spec);
    quiet_steps(&mut g, 70);
    assert_eq!(g.quiet_steps(), 70);
    for s in ["c1", "a1", "e1", "c12", "a12", "e12", "b4", "d4", "b9"] {
        let seat = g.to_move();
        g.apply(seat, Action::Flip(sq(s)), None).unwrap();
        assert!(!g.is_over());
    }
    assert_eq!(g.quiet_steps(), 79);
    let seat = g.to_move();
    let a = g.apply(seat, Action::Flip(sq("d9")), None).unwrap();
    assert_eq!(a.outcome, Some(Outcome::draw(EndReason::NoCaptureLimit)));
    assert_eq!(g.steps(), 80);
}

#[test]
fn an_attack_resets_the_no_attack_count() {
    let mut g = flip_game(
        "a5 colonel red up; a8 colonel blue up; c2 captain red up; c3 lieutenant blue up",
    );
    quiet_steps(&mut g, 10);
    assert_eq!(g.quiet_steps(), 10);
    // Whatever stands where now, play until an attack is possible or just check counts.
    let mut g = flip_game("a2 colonel red up; a3 lieutenant blue up; c12 colonel blue up");
    g.apply(Seat::South, Action::Timeout, None).unwrap();
    g.apply(Seat::North, mv("c12", "b12"), None).unwrap();
    assert_eq!(g.quiet_steps(), 2);
    g.apply(Seat::South, mv("a2", "a3"), None).unwrap();
    assert_eq!(g.quiet_steps(), 0);
}

fn triangle_game() -> Game {
    // South shuttles a lieutenant; north walks a triangle a12→b11→… so only south repeats.
    flip_game(
        "a2 lieutenant red up; a5 colonel blue up; e10 major blue up; c12 flag red up; b1 mine red up",
    )
}

#[test]
fn the_fourth_repeat_within_the_last_eight_own_steps_loses() {
    let mut g = triangle_game();
    // North cycles e10→e9→d9→e10… (e10-e9 rail, e9-d9 road, d9-e10 road? no) — use a square loop.
    let north_cycle = [("a5", "b5"), ("b5", "b4"), ("b4", "a4"), ("a4", "a5")];
    let south = [("a2", "b2"), ("b2", "a2")];
    for i in 0..6 {
        let (f, t) = south[i % 2];
        let a = g.apply(Seat::South, mv(f, t), None).unwrap();
        assert_eq!(a.outcome, None, "south move {}", i + 1);
        let (f, t) = north_cycle[i % 4];
        g.apply(Seat::North, mv(f, t), None).unwrap();
    }
    // a2→b2 has been made 3 times in south's last 6 steps; the 4th loses.
    assert!(g.would_repeat(Seat::South, sq("a2"), sq("b2")));
    assert!(!g.would_repeat(Seat::North, sq("b4"), sq("a4")));
    let a = g.apply(Seat::South, mv("a2", "b2"), None).unwrap();
    assert_eq!(
        a.outcome,
        Some(Outcome::loss(Seat::South, EndReason::Repetition))
    );
    assert_eq!(
        g.position().get(sq("b2")).unwrap().piece,
        Piece::Lieutenant,
        "the move is played"
    );
}

#[test]
fn a_fourth_repeat_outside_the_window_does_not_lose() {
    let mut g = triangle_game();
    let north_cycle = [("a5", "b5"), ("b5", "b4"), ("b4", "a4"), ("a4", "a5")];
    // South: a2→b2, b2→a2, a2→b2, b2→c2, c2→a2 (rail), a2→b2, b2→a2, timeout, a2→b2.
    // a2→b2 is made at own steps 1, 3, 6 and 9; steps 2..9 hold only three of them.
    let south: [Option<(&str, &str)>; 9] = [
        Some(("a2", "b2")),
        Some(("b2", "a2")),
        Some(("a2", "b2")),
        Some(("b2", "c2")),
        Some(("c2", "a2")),
        Some(("a2", "b2")),
        Some(("b2", "a2")),
        None,
        Some(("a2", "b2")),
    ];
    for (i, m) in south.iter().enumerate() {
        let action = match m {
            Some((f, t)) => mv(f, t),
            None => Action::Timeout,
        };
        let a = g.apply(Seat::South, action, None).unwrap();
        assert_eq!(a.outcome, None, "south step {}", i + 1);
        if i + 1 < south.len() {
            let (f, t) = north_cycle[i % 4];
            g.apply(Seat::North, mv(f, t), None).unwrap();
        }
    }
}

#[test]
fn resigning_and_draw_offers_wait_for_fifty_steps() {
    let mut g = flip_game("a5 colonel red up; a8 colonel blue up");
    quiet_steps(&mut g, 49);
    let seat = g.to_move();
    assert_eq!(
        g.apply(seat, Action::Resign, None),
        Err(RuleError::TooEarly {
            needed: 50,
            steps: 49
        })
    );
    assert_eq!(
        g.apply(seat.other(), Action::OfferDraw, None),
        Err(RuleError::TooEarly {
            needed: 50,
            steps: 49
        })
    );
    quiet_steps(&mut g, 1);
    // Either seat may resign, on either seat's turn.
    let not_to_move = g.to_move().other();
    let a = g.apply(not_to_move, Action::Resign, None).unwrap();
    assert_eq!(
        a.outcome,
        Some(Outcome::loss(not_to_move, EndReason::Resign))
    );
}

#[test]
fn the_fourth_draw_offer_is_refused() {
    let mut g = flip_game("a5 colonel red up; a8 colonel blue up");
    quiet_steps(&mut g, 50);
    for i in 0..3 {
        assert_eq!(g.draw_offers_left(Seat::South), Some(3 - i));
        g.apply(Seat::South, Action::OfferDraw, None).unwrap();
        assert_eq!(
            g.apply(Seat::South, Action::OfferDraw, None),
            Err(RuleError::OfferAlreadyOpen)
        );
        assert_eq!(
            g.apply(Seat::South, Action::AcceptDraw, None),
            Err(RuleError::NoOfferToAnswer)
        );
        g.apply(Seat::North, Action::DeclineDraw, None).unwrap();
    }
    assert_eq!(g.draw_offers_left(Seat::South), Some(0));
    assert_eq!(
        g.apply(Seat::South, Action::OfferDraw, None),
        Err(RuleError::NoDrawOffersLeft)
    );
    // North still has all three, and an accepted offer draws.
    g.apply(Seat::North, Action::OfferDraw, None).unwrap();
    let a = g.apply(Seat::South, Action::AcceptDraw, None).unwrap();
    assert_eq!(a.outcome, Some(Outcome::draw(EndReason::Agreed)));
    assert_eq!(g.steps(), 50, "draw offers and answers are not steps");
}

#[test]
fn an_offer_lapses_when_its_addressee_takes_a_step_but_not_the_offerer() {
    let mut g = flip_game("a5 colonel red up; a8 colonel blue up");
    quiet_steps(&mut g, 50);
    let offerer = g.to_move();
    g.apply(offerer, Action::OfferDraw, None).unwrap();
    quiet_steps(&mut g, 1); // the offerer's own step
    assert_eq!(g.open_offer(), Some(offerer));
    let seat = g.to_move();
    assert_eq!(seat, offerer.other());
    let a = g.apply(seat, Action::Timeout, None).unwrap();
    assert!(a.offer_lapsed, "a timeout is a step and lapses the offer");
    assert_eq!(g.open_offer(), None);
    assert_eq!(
        g.apply(seat, Action::AcceptDraw, None),
        Err(RuleError::NoOfferToAnswer)
    );
}

#[test]
fn escape_loses_at_any_time() {
    let mut g = flip_game("a5 colonel red up; a8 colonel blue up");
    let a = g.apply(Seat::North, Action::Escape, None).unwrap();
    assert_eq!(
        a.outcome,
        Some(Outcome::loss(Seat::North, EndReason::Escape))
    );
}

#[test]
fn no_legal_action_loses() {
    // Blue has a flag and a mine left, all face up: nothing can move.
    let mut g = flip_game("a5 colonel red up; c12 flag blue up; a12 mine blue up; e8 mine blue up");
    let a = g.apply(Seat::South, mv("a5", "a4"), None).unwrap();
    assert_eq!(
        a.outcome,
        Some(Outcome::loss(Seat::North, EndReason::NoMoves))
    );
    assert_eq!(g.score(1), Some([2, -2]));
    // With only the flag left it is the 5× row.
    let mut g = flip_game("a5 colonel red up; c12 flag blue up");
    g.apply(Seat::South, mv("a5", "a4"), None).unwrap();
    assert_eq!(
        g.outcome(),
        Some(Outcome::loss(Seat::North, EndReason::NoMoves))
    );
    assert_eq!(g.score(2), Some([10, -10]));
}

#[test]
fn a_face_down_piece_left_means_there_is_still_an_action() {
    let mut g = flip_game("a5 colonel red up; c12 flag blue up; e12 captain red down");
    g.apply(Seat::South, mv("a5", "a4"), None).unwrap();
    assert!(!g.is_over());
    g.apply(Seat::North, Action::Flip(sq("e12")), None).unwrap();
}

#[test]
fn three_hours_draw_after_the_action_stands() {
    let three_h = 3 * 60 * 60 * 1000;
    let mut g = flip_game("a5 colonel red up; a8 colonel blue up");
    g.apply(Seat::South, mv("a5", "a4"), Some(three_h - 1))
        .unwrap();
    assert!(!g.is_over());
    assert_eq!(
        g.apply(Seat::North, mv("a8", "a9"), Some(three_h - 2)),
        Err(RuleError::TimeWentBack {
            at_ms: three_h - 2,
            last_ms: three_h - 1
        })
    );
    let a = g.apply(Seat::North, mv("a8", "a9"), Some(three_h)).unwrap();
    assert_eq!(a.outcome, Some(Outcome::draw(EndReason::TimeLimit)));
    assert_eq!(g.position().get(sq("a9")).unwrap().colour, Colour::Blue);
    // The clock alone ends a game too.
    let mut g = flip_game("a5 colonel red up; a8 colonel blue up");
    assert_eq!(g.expire(three_h - 1), None);
    assert_eq!(g.expire(three_h), Some(Outcome::draw(EndReason::TimeLimit)));
}

#[test]
fn a_decisive_step_wins_over_the_draw_checks() {
    // North's third timeout is also the 80th step without an attack: it loses, no draw.
    let mut g = flip_game("a5 colonel red up; a8 colonel blue up");
    quiet_steps(&mut g, 1);
    g.apply(Seat::North, Action::Timeout, None).unwrap();
    quiet_steps(&mut g, 1);
    g.apply(Seat::North, Action::Timeout, None).unwrap();
    quiet_steps(&mut g, 75);
    assert_eq!(
        (g.steps(), g.quiet_steps(), g.to_move()),
        (79, 79, Seat::North)
    );
    let a = g.apply(Seat::North, Action::Timeout, None).unwrap();
    assert_eq!(
        a.outcome,
        Some(Outcome::loss(Seat::North, EndReason::Timeouts))
    );
}

#[test]
fn the_game_is_drawn_at_three_hundred_steps() {
    // Four red captains stand by blue lieutenants; every ~70 quiet steps one attacks,
    // so the no-attack count never reaches 80 and the step limit decides.
    let mut g = flip_game(
        "a5 colonel red up; a8 colonel blue up; e5 major red up; e8 major blue up; \
         a1 captain red up; b1 lieutenant blue up; d1 captain red up; e1 lieutenant blue up; \
         a12 captain red up; b12 lieutenant blue up; d12 captain red up; e12 lieutenant blue up",
    );
    let frozen: Vec<_> = ["a1", "b1", "d1", "e1", "a12", "b12", "d12", "e12"]
        .map(sq)
        .to_vec();
    for (from, to) in [("a1", "b1"), ("d1", "e1"), ("a12", "b12"), ("d12", "e12")] {
        while !(g.quiet_steps() >= 70 && g.to_move() == Seat::South) {
            walk(&mut g, 1, &frozen);
        }
        g.apply(Seat::South, mv(from, to), None).unwrap();
        assert_eq!(g.quiet_steps(), 0);
    }
    let left = 299 - g.steps();
    walk(&mut g, left, &[]);
    assert_eq!(g.steps(), 299);
    assert!(g.quiet_steps() < 79);
    let seat = g.to_move();
    g.apply(seat, Action::Timeout, None).unwrap();
    assert_eq!(g.outcome(), Some(Outcome::draw(EndReason::StepLimit)));
    assert_eq!(g.steps(), 300);
}

#[test]
fn a_random_deal_is_the_full_set_with_a_checkable_commitment() {
    let mut rng = StdRng::seed_from_u64(7);
    let deal = Deal::random(&mut rng);
    let entries: Vec<_> = deal.entries().collect();
    assert_eq!(entries.len(), 50);
    for (s, _) in &entries {
        assert_ne!(s.kind(), junqi::rules::StationKind::Camp);
    }
    let c = deal.commitment("00ff");
    assert_eq!(c.len(), 64);
    assert_eq!(c, deal.commitment("00ff"));
    assert_ne!(
        c,
        deal.commitment("00fe"),
        "the salt is part of the commitment"
    );
    let other = Deal::random(&mut rng);
    assert_ne!(deal, other);
    assert_ne!(c, other.commitment("00ff"));
}

#[test]
fn the_commitment_string_is_the_documented_one() {
    // Compute the SHA-256 of the string by hand for a known deal and compare.
    use sha2::{Digest, Sha256};
    let mut rng = StdRng::seed_from_u64(3);
    let deal = Deal::random(&mut rng);
    let text: Vec<String> = deal
        .entries()
        .map(|(s, (p, c))| format!("{s}:{p}:{c}"))
        .collect();
    let text = format!("{}|abc123", text.join(";"));
    assert!(text.starts_with("a1:"));
    let expected = hex::encode(Sha256::digest(text.as_bytes()));
    assert_eq!(deal.commitment("abc123"), expected);
}
