//! Standard 军棋 for two (RULES §4): deployment, hidden pieces, the HQ lock, mines,
//! the flag, passes and the draw and scoring rules.

mod common;
use common::*;
use junqi::rules::game::STANDARD_COLOURS;
use junqi::rules::layout::deployment_squares;
use junqi::rules::view::{EventView, Face};
use junqi::rules::{
    Action, Colour, EndReason, Game, Layout, LayoutViolation, Options, Outcome, Piece, RuleError,
    Seat, StationKind, Variant, View, Viewer,
};
use rand::SeedableRng;
use rand::rngs::StdRng;

fn standard(spec: &str) -> Game {
    Game::from_position(
        Variant::Standard,
        Options::default(),
        position(spec),
        Seat::South,
        Some(STANDARD_COLOURS),
    )
}

const IDLE: &str =
    "a5 colonel red down; e4 major red down; a8 colonel blue down; e9 major blue down";

fn valid_south() -> Layout {
    Layout::random(Seat::South, &mut StdRng::seed_from_u64(1))
}

#[test]
fn random_layouts_are_valid_and_keep_the_extra_constraints() {
    let mut rng = StdRng::seed_from_u64(99);
    for _ in 0..300 {
        for seat in Seat::BOTH {
            let l = Layout::random(seat, &mut rng);
            assert_eq!(l.violations(seat), vec![], "{seat}: {l:?}");
            let front = if seat == Seat::South { 6 } else { 7 };
            for f in ["a", "e"] {
                let corner = sq(&format!("{f}{front}"));
                assert_ne!(
                    l.0[&corner],
                    Piece::Engineer,
                    "engineer on front corner {corner}"
                );
            }
            let hqs: Vec<_> =
                l.0.iter()
                    .filter(|(s, _)| s.kind() == StationKind::Headquarters)
                    .collect();
            assert_eq!(hqs.len(), 2);
            let flags = hqs.iter().filter(|(_, p)| **p == Piece::Flag).count();
            assert_eq!(flags, 1);
            for (_, p) in hqs {
                assert!(
                    matches!(
                        p,
                        Piece::Flag | Piece::Mine | Piece::Lieutenant | Piece::Captain
                    ),
                    "{p} in HQ"
                );
            }
        }
    }
}

#[test]
fn each_deployment_rule_is_reported_with_its_square() {
    let base = valid_south();
    let find = |p: Piece| *base.0.iter().find(|(_, q)| **q == p).unwrap().0;
    let at = |s: &str| base.0[&sq(s)];

    // Flag out of the headquarters: swap it with the front-rank piece on c6.
    let mut l = base.clone();
    l.swap(find(Piece::Flag), sq("c6"));
    assert!(
        l.violations(Seat::South)
            .contains(&LayoutViolation::FlagOutsideHeadquarters(sq("c6")))
    );

    // A mine forward of the last two ranks.
    let mut l = base.clone();
    let mine = find(Piece::Mine);
    let forward = ["a3", "c3", "e3", "b4", "d4", "a4"]
        .into_iter()
        .map(sq)
        .find(|&s| l.0[&s] != Piece::Flag)
        .unwrap();
    l.swap(mine, forward);
    assert!(
        l.violations(Seat::South)
            .contains(&LayoutViolation::MineForward(forward)),
        "{:?}",
        l.violations(Seat::South)
    );

    // A bomb on the front rank.
    let mut l = base.clone();
    l.swap(find(Piece::Bomb), sq("b6"));
    if at("b6") != Piece::Bomb {
        assert!(
            l.violations(Seat::South)
                .contains(&LayoutViolation::BombOnFrontRank(sq("b6")))
        );
    }

    // A piece in a camp (and the station it left is empty).
    let mut l = base.clone();
    let p = l.0.remove(&sq("c6")).unwrap();
    l.0.insert(sq("c4"), p);
    let v = l.violations(Seat::South);
    assert!(v.contains(&LayoutViolation::InCamp(sq("c4"))));
    assert!(v.contains(&LayoutViolation::EmptyStation(sq("c6"))));

    // A piece in the other half, and a wrong count.
    let mut l = base.clone();
    l.0.insert(sq("c8"), Piece::Marshal);
    let v = l.violations(Seat::South);
    assert!(v.contains(&LayoutViolation::OutsideOwnHalf(sq("c8"))));
    assert!(v.contains(&LayoutViolation::WrongCount {
        piece: Piece::Marshal,
        expected: 1,
        found: 2
    }));
    // Every violation says what is wrong in words.
    for x in v {
        assert!(!x.to_string().is_empty());
    }
    assert_eq!(deployment_squares(Seat::North).count(), 25);
}

#[test]
fn a_full_game_from_layouts_starts_with_the_first_ready_player() {
    let mut rng = StdRng::seed_from_u64(5);
    let south = Layout::random(Seat::South, &mut rng);
    let north = Layout::random(Seat::North, &mut rng);
    let g = Game::new_standard(Options::default(), &south, &north, Seat::North);
    assert_eq!(g.to_move(), Seat::North);
    assert_eq!(g.colour_of(Seat::South), Some(Colour::Red));
    assert_eq!(g.position().occupied().len(), 50);
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    assert!(!legal.is_empty());
    assert!(
        legal.iter().all(|a| matches!(a, Action::Move { .. })),
        "no flips in standard"
    );
}

#[test]
fn a_piece_in_a_headquarters_never_moves() {
    let mut g = standard(&format!("b1 general red down; c2 major red down; {IDLE}"));
    assert_eq!(
        g.apply(Seat::South, mv("b1", "a1"), None),
        Err(RuleError::HeadquartersLock(sq("b1")))
    );
    // A piece that walks into a headquarters is locked there too.
    g.apply(Seat::South, mv("c2", "c1"), None).unwrap();
    g.apply(Seat::North, mv("a8", "a9"), None).unwrap();
    g.apply(Seat::South, mv("c1", "d1"), None).unwrap();
    g.apply(Seat::North, mv("a9", "a8"), None).unwrap();
    assert!(dests(&g, "d1").is_empty());
    assert_eq!(
        g.apply(Seat::South, mv("d1", "c1"), None),
        Err(RuleError::HeadquartersLock(sq("d1")))
    );
}

#[test]
fn any_piece_may_attack_a_mine_and_only_engineers_and_bombs_survive_it() {
    for (attacker, a2_after, a3_after) in [
        ("captain", None, Some(Piece::Mine)),
        ("marshal", None, Some(Piece::Mine)),
        ("engineer", None, Some(Piece::Engineer)),
        ("bomb", None, None),
    ] {
        let mut g = standard(&format!(
            "a2 {attacker} red down; a3 mine blue down; {IDLE}"
        ));
        g.apply(Seat::South, mv("a2", "a3"), None).unwrap();
        assert_eq!(
            g.position().get(sq("a2")).map(|t| t.piece),
            a2_after,
            "{attacker}"
        );
        assert_eq!(
            g.position().get(sq("a3")).map(|t| t.piece),
            a3_after,
            "{attacker}"
        );
    }
}

#[test]
fn any_piece_takes_the_flag_while_mines_remain() {
    let mut g = standard(&format!(
        "a2 lieutenant red down; a3 flag blue down; a12 mine blue down; {IDLE}"
    ));
    let a = g.apply(Seat::South, mv("a2", "a3"), None).unwrap();
    assert_eq!(a.outcome, Some(Outcome::win(Seat::South, EndReason::Flag)));
}

#[test]
fn the_losers_army_stays_on_the_board_to_be_shown_at_the_end() {
    // The shared hidden-piece game clears a defeated seat's pieces (RULES §5.4.2) so
    // that play goes on without them; in a two-player game nothing goes on, and the
    // end shows both armies as they stood.
    let mut g = standard(&format!(
        "a2 lieutenant red down; a3 flag blue down; a12 mine blue down; {IDLE}"
    ));
    g.apply(Seat::South, mv("a2", "a3"), None).unwrap();
    assert!(g.is_over());
    let pos = g.position();
    for (s, piece) in [
        ("a12", Piece::Mine),
        ("a8", Piece::Colonel),
        ("e9", Piece::Major),
    ] {
        let t = pos
            .get(sq(s))
            .unwrap_or_else(|| panic!("North's {piece} on {s} is gone"));
        assert_eq!((t.piece, t.colour), (piece, Colour::Blue), "{s}");
    }
    assert_eq!(pos.get(sq("a3")).map(|t| t.piece), Some(Piece::Lieutenant));
    assert_eq!(pos.of_colour(Colour::Blue).len(), 3);
    let end = View::of(&g, Viewer::Seat(Seat::South));
    let shown = serde_json::to_string(&end).unwrap();
    assert!(
        shown.contains("mine"),
        "the end shows North's mine: {shown}"
    );
}

#[test]
fn hidden_enemy_pieces_may_be_attacked_except_in_camps() {
    let mut g = standard(&format!(
        "a2 lieutenant red down; a3 marshal blue down; b3 captain blue down; {IDLE}"
    ));
    let d = dests(&g, "a2");
    assert!(d.contains(&"a3".to_string()));
    assert!(
        !d.contains(&"b3".to_string()),
        "camps protect in standard too"
    );
    g.apply(Seat::South, mv("a2", "a3"), None).unwrap();
    assert_eq!(g.position().get(sq("a3")).unwrap().piece, Piece::Marshal);
}

#[test]
fn the_flag_is_revealed_when_its_marshal_falls() {
    // Red's marshal attacks a bomb: both go, and red's flag is shown to everyone.
    let mut g = standard(&format!(
        "a2 marshal red down; a3 bomb blue down; b1 flag red down; d12 flag blue down; {IDLE}"
    ));
    let a = g.apply(Seat::South, mv("a2", "a3"), None).unwrap();
    assert_eq!(a.flags_revealed, vec![sq("b1")]);
    assert!(g.position().get(sq("b1")).unwrap().shown);
    assert!(!g.position().get(sq("d12")).unwrap().shown);
    let spectator = View::of(&g, Viewer::Spectator);
    let b1 = spectator
        .board
        .0
        .iter()
        .find(|(s, _)| *s == sq("b1"))
        .unwrap()
        .1;
    assert_eq!((b1.piece, b1.face), (Some(Piece::Flag), Face::Up));
    // Marshal against marshal: both flags.
    let mut g = standard(&format!(
        "a2 marshal red down; a3 marshal blue down; b1 flag red down; d12 flag blue down; {IDLE}"
    ));
    let a = g.apply(Seat::South, mv("a2", "a3"), None).unwrap();
    assert_eq!(a.flags_revealed, vec![sq("b1"), sq("d12")]);
}

#[test]
fn each_side_learns_the_outcome_of_an_attack_but_not_a_survivors_identity() {
    let mut g = standard(&format!("a2 general red down; a3 major blue down; {IDLE}"));
    let applied = g.apply(Seat::South, mv("a2", "a3"), None).unwrap();
    let for_north = EventView::of(
        &applied,
        Variant::Standard,
        g.colours(),
        Viewer::Seat(Seat::North),
    );
    let json = serde_json::to_string(&for_north).unwrap();
    assert!(
        !json.contains("general"),
        "north must not learn the surviving general: {json}"
    );
    assert!(
        json.contains("attacker_wins"),
        "north learns the outcome: {json}"
    );
    let for_south = serde_json::to_string(&EventView::of(
        &applied,
        Variant::Standard,
        g.colours(),
        Viewer::Seat(Seat::South),
    ))
    .unwrap();
    assert!(
        for_south.contains("general"),
        "south knows its own piece: {for_south}"
    );
    assert!(
        !for_south.contains("major"),
        "south does not learn what it beat: {for_south}"
    );
    let spectator = serde_json::to_string(&EventView::of(
        &applied,
        Variant::Standard,
        g.colours(),
        Viewer::Spectator,
    ))
    .unwrap();
    assert!(
        !spectator.contains("general") && !spectator.contains("major"),
        "{spectator}"
    );
}

#[test]
fn views_show_own_pieces_and_only_the_colour_of_the_opponents() {
    let g = standard(&format!("a2 general red down; {IDLE}"));
    let south = serde_json::to_value(View::of(&g, Viewer::Seat(Seat::South))).unwrap();
    assert_eq!(south["board"]["a2"]["piece"], "general");
    assert_eq!(
        south["board"]["a8"],
        serde_json::json!({"colour": "blue", "face": "down"})
    );
    let north = serde_json::to_value(View::of(&g, Viewer::Seat(Seat::North))).unwrap();
    assert_eq!(
        north["board"]["a2"],
        serde_json::json!({"colour": "red", "face": "down"})
    );
    assert_eq!(north["board"]["a8"]["piece"], "colonel");
    assert_eq!(
        north["legal"],
        serde_json::json!([]),
        "north is not to move"
    );
    let spectator = serde_json::to_string(&View::of(&g, Viewer::Spectator)).unwrap();
    assert!(
        !spectator.contains("general") && !spectator.contains("colonel"),
        "{spectator}"
    );
}

#[test]
fn passes_are_steps_and_the_fifth_timeout_or_pass_loses() {
    let mut g = standard(IDLE);
    for i in 0..4 {
        let action = if i % 2 == 0 {
            Action::Pass
        } else {
            Action::Timeout
        };
        g.apply(Seat::South, action, None).unwrap();
        assert_eq!(g.timeouts(Seat::South), i + 1);
        quiet_steps(&mut g, 1);
    }
    assert_eq!(g.steps(), 8);
    let a = g.apply(Seat::South, Action::Pass, None).unwrap();
    assert_eq!(
        a.outcome,
        Some(Outcome::loss(Seat::South, EndReason::Timeouts))
    );
    // There is no pass in flip chess.
    let mut f = flip_game(IDLE.replace("down", "up").as_str());
    assert_eq!(
        f.apply(Seat::South, Action::Pass, None),
        Err(RuleError::NoPassInVariant)
    );
}

#[test]
fn resigning_and_offers_wait_for_forty_steps_and_offers_are_unlimited() {
    let mut g = standard(IDLE);
    quiet_steps(&mut g, 39);
    assert_eq!(
        g.apply(Seat::South, Action::Resign, None),
        Err(RuleError::TooEarly {
            needed: 40,
            steps: 39
        })
    );
    quiet_steps(&mut g, 1);
    assert_eq!(g.draw_offers_left(Seat::South), None);
    for _ in 0..5 {
        g.apply(Seat::South, Action::OfferDraw, None).unwrap();
        g.apply(Seat::North, Action::DeclineDraw, None).unwrap();
    }
    g.apply(Seat::North, Action::Resign, None).unwrap();
    assert_eq!(
        g.outcome(),
        Some(Outcome::loss(Seat::North, EndReason::Resign))
    );
    assert_eq!(
        g.score(5),
        Some([1, -1]),
        "standard scores are not multiplied by a base"
    );
}

#[test]
fn seventy_quiet_steps_draw_and_there_is_no_step_limit_or_repetition() {
    let mut g = standard(IDLE);
    quiet_steps(&mut g, 69);
    assert!(!g.is_over());
    let seat = g.to_move();
    g.apply(seat, Action::Pass, None).unwrap();
    assert_eq!(g.outcome(), Some(Outcome::draw(EndReason::NoCaptureLimit)));
    let g = standard(IDLE);
    assert!(!g.would_repeat(Seat::South, sq("a5"), sq("a4")));
    assert_eq!(g.steps_to_draw(), None);
}

#[test]
fn no_legal_move_loses_even_though_a_pass_is_possible() {
    // North has only a flag and a mine; after south's move north cannot move.
    let mut g = standard("a5 colonel red down; b12 flag blue down; a12 mine blue down");
    let a = g.apply(Seat::South, mv("a5", "a4"), None).unwrap();
    assert_eq!(
        a.outcome,
        Some(Outcome::loss(Seat::North, EndReason::NoMoves))
    );
}

#[test]
fn a_game_decided_within_thirty_steps_gives_the_winner_nothing() {
    let mut g = standard(&format!(
        "a2 lieutenant red down; a3 flag blue down; {IDLE}"
    ));
    g.apply(Seat::South, mv("a2", "a3"), None).unwrap();
    assert_eq!(g.steps(), 1);
    assert_eq!(g.score(1), Some([0, -1]));
    let mut g = standard(IDLE);
    g.apply(Seat::South, Action::Escape, None).unwrap();
    assert_eq!(g.score(1), Some([-2, 0]), "an escaper loses 2");
    let mut g = standard(&format!(
        "a2 lieutenant red down; a3 flag blue down; {IDLE}"
    ));
    walk(&mut g, 30, &[sq("a2")]);
    g.apply(Seat::South, mv("a2", "a3"), None).unwrap();
    assert_eq!(g.steps(), 31);
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Seat::South, EndReason::Flag))
    );
    assert_eq!(g.score(1), Some([1, -1]));
}

#[test]
fn deployment_swaps_locks_on_ready_and_the_first_ready_moves_first() {
    use junqi::rules::layout::{Deployment, DeploymentError};
    let mut rng = StdRng::seed_from_u64(21);
    let south = Layout::random(Seat::South, &mut rng);
    let north = Layout::random(Seat::North, &mut rng);
    let mut d = Deployment::new(south.clone(), north);
    let (a, b) = (sq("a6"), sq("c6"));
    d.swap(Seat::South, a, b).unwrap();
    assert_eq!(d.layout(Seat::South).0[&a], south.0[&b]);
    assert_eq!(
        d.swap(Seat::South, a, sq("a8")),
        Err(DeploymentError::NotYourPiece(sq("a8")))
    );
    d.ready(Seat::North).unwrap();
    assert_eq!(
        d.swap(Seat::North, sq("a7"), sq("c7")),
        Err(DeploymentError::AlreadyReady)
    );
    assert!(
        d.start(Options::default()).is_none(),
        "south is not ready yet"
    );
    d.ready(Seat::South).unwrap();
    let g = d.start(Options::default()).unwrap();
    assert_eq!(g.to_move(), Seat::North, "north was ready first");
    for seat in Seat::BOTH {
        assert_eq!(
            g.colour_of(seat),
            Some(d.colour_of(seat)),
            "{seat} plays the colour it deployed"
        );
    }
    assert_eq!(d.colour_of(Seat::South), Colour::Red);
    assert_eq!(d.colour_of(Seat::North), Colour::Blue);
}

#[test]
fn an_invalid_layout_cannot_be_readied_and_is_replaced_when_time_runs_out() {
    use junqi::rules::layout::{Deployment, DeploymentError};
    let mut rng = StdRng::seed_from_u64(22);
    let south = Layout::random(Seat::South, &mut rng);
    let north = Layout::random(Seat::North, &mut rng);
    let flag = *south.0.iter().find(|(_, p)| **p == Piece::Flag).unwrap().0;
    let mut d = Deployment::new(south.clone(), north.clone());
    d.swap(Seat::South, flag, sq("c6")).unwrap();
    match d.ready(Seat::South) {
        Err(DeploymentError::Invalid(v)) => {
            assert!(v.contains(&LayoutViolation::FlagOutsideHeadquarters(sq("c6"))))
        }
        other => panic!("{other:?}"),
    }
    d.expire(&mut rng);
    assert!(d.is_done());
    assert!(
        d.layout(Seat::South).is_valid(Seat::South),
        "replaced by a random valid layout"
    );
    assert_ne!(d.layout(Seat::South), &south);
    assert_eq!(
        d.layout(Seat::North),
        &north,
        "a valid layout is kept as it is"
    );
    assert_eq!(d.first(), Some(Seat::South), "no one was ready: seat order");
}
