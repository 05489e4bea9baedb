//! The fine points of RULES §5.9, each pinned by a test named after it (those the
//! rules core decides; the live table's are pinned where the table is built).

use Seat4::*;
use junqi::rules::hidden_game::{
    Defeat, Ending, HiddenGame, Step, StepError, TuoguanKind, Watcher,
};
use junqi::rules::siguo::board::slide_reach;
use junqi::rules::siguo::scoring::{Facts, SeatEnd, score};
use junqi::rules::siguo::{Alliance, FourPlayer, Seat4, Station, StationSet, tuoguan};
use junqi::rules::{Options, Piece, Position, Token, Variant};
use junqi::selfplay_siguo::{Table, new_game};
use rand::SeedableRng;
use rand::rngs::StdRng;

type Four = HiddenGame<FourPlayer>;

fn st(name: &str) -> Station {
    name.parse().unwrap()
}

fn pos(pieces: &[(&str, Piece, Seat4)]) -> Position<FourPlayer> {
    Position::with_tokens(
        pieces
            .iter()
            .map(|&(s, p, seat)| (st(s), Token::hidden(p, seat))),
    )
}

fn game(alliance: Alliance, pieces: &[(&str, Piece, Seat4)], first: Seat4) -> Four {
    Four::new(
        Variant::Siguo,
        Options::default(),
        alliance,
        pos(pieces),
        &Seat4::ALL,
        first,
    )
}

/// A captain of each seat in its camp-free middle, free to step about.
fn four_captains() -> Vec<(&'static str, Piece, Seat4)> {
    vec![
        ("Sc3", Piece::Captain, South),
        ("Ec3", Piece::Captain, East),
        ("Nc3", Piece::Captain, North),
        ("Wc3", Piece::Captain, West),
    ]
}

fn mv(
    g: &mut Four,
    seat: Seat4,
    from: &str,
    to: &str,
) -> junqi::rules::hidden_game::Applied<FourPlayer> {
    g.apply(
        seat,
        Step::Move {
            from: st(from),
            to: st(to),
        },
    )
    .unwrap()
}

/// Plays `n` steps, every seat stepping its piece to an empty non-HQ neighbour.
fn shuffle(g: &mut Four, n: u32) {
    let target = g.steps() + n;
    while g.steps() < target && !g.is_over() {
        let seat = g.to_move();
        let mut last = None;
        let step = tuoguan::step(g, seat, &mut last, |_| 0);
        g.apply(seat, step).unwrap();
    }
}

#[test]
fn fine_point_01_arcs_join_side_files_not_front_ranks() {
    let empty = StationSet::EMPTY;
    let along_front = slide_reach(st("Sc6"), empty);
    assert!(along_front.contains(st("Se6")) && !along_front.contains(st("Ea6")));
    let up_the_file = slide_reach(st("Se2"), empty);
    assert!(
        up_the_file.contains(st("Ea6")) && up_the_file.contains(st("Ea2")),
        "round the arc"
    );
}

#[test]
fn fine_point_02_side_files_carry_two_lines() {
    let reach = slide_reach(st("Sa2"), StationSet::EMPTY);
    assert!(reach.contains(st("XSW")), "on into the 九宫");
    assert!(reach.contains(st("We6")), "or round the arc");
}

#[test]
fn fine_point_03_the_nine_palace_is_plain_rail() {
    let mut pieces = four_captains();
    pieces.push(("XC", Piece::Major, East));
    pieces.push(("XS", Piece::Colonel, South));
    let mut g = game(Alliance::Opposite, &pieces, South);
    let reach = g.position().reach(st("XC"));
    let neighbours = junqi::rules::siguo::board::neighbours(st("XC"));
    for diagonal in ["XSW", "XSE", "XNW", "XNE"] {
        assert!(
            !neighbours.contains(st(diagonal)),
            "no diagonal to {diagonal}"
        );
        assert!(!reach.contains(st(diagonal)), "nor a slide");
    }
    let a = mv(&mut g, South, "XS", "XC");
    assert!(a.target.is_some(), "no safety on the 九宫");
    // No lock: the colonel moves on.
    shuffle(&mut g, 3);
    assert_eq!(g.to_move(), South);
    assert!(
        g.apply(
            South,
            Step::Move {
                from: st("XC"),
                to: st("XN")
            }
        )
        .is_ok()
    );
}

#[test]
fn fine_point_04_the_hq_lock_holds_in_every_hq_a_defeated_seats_too() {
    let mut pieces = four_captains();
    pieces.push(("Eb2", Piece::Major, South));
    pieces.push(("Eb1", Piece::Flag, East));
    let mut g = game(Alliance::None, &pieces, South);
    let a = mv(&mut g, South, "Eb2", "Eb1");
    assert_eq!(a.defeated[0].0, East);
    shuffle(&mut g, 2);
    assert_eq!(
        g.apply(
            South,
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
fn fine_point_05_a_bomb_on_a_flag_removes_both_and_defeats_the_owner() {
    let mut pieces = four_captains();
    pieces.push(("Eb2", Piece::Bomb, South));
    pieces.push(("Eb1", Piece::Flag, East));
    let mut g = game(Alliance::Opposite, &pieces, South);
    let a = mv(&mut g, South, "Eb2", "Eb1");
    assert_eq!(a.combat, Some(junqi::rules::Combat::BothRemoved));
    assert_eq!(
        (a.defeated[0].0, a.defeated[0].1),
        (East, Defeat::FlagTaken)
    );
    assert!(g.position().get(st("Eb1")).is_none());
}

#[test]
fn fine_point_06_adjacent_seats_number_from_south() {
    assert!(Alliance::Adjacent.allied(South, East) && Alliance::Adjacent.allied(North, West));
    assert!(!Alliance::Adjacent.allied(East, North) && !Alliance::Adjacent.allied(West, South));
}

#[test]
fn fine_point_08_the_first_mover_is_the_tables_and_turns_go_s_e_n_w() {
    let mut g = game(Alliance::Opposite, &four_captains(), North);
    let mut order = vec![g.to_move()];
    for _ in 0..4 {
        g.apply(g.to_move(), Step::Pass).unwrap();
        order.push(g.to_move());
    }
    assert_eq!(order, [North, West, South, East, North]);
}

#[test]
fn fine_point_09_the_fifth_timeout_loses_not_the_fourth() {
    let mut g = game(Alliance::Opposite, &four_captains(), South);
    for k in 1..=5 {
        for seat in Seat4::ALL {
            if g.is_in_play(seat) && !g.is_over() {
                let a = g.apply(seat, Step::Timeout).unwrap();
                if seat == South {
                    assert_eq!(a.defeated.is_empty(), k < 5, "timeout {k}");
                }
            }
        }
    }
    assert_eq!(g.defeat(South), Some(Defeat::Timeouts));
}

#[test]
fn fine_point_10_draw_voters_are_the_seats_in_play_not_in_tuoguan() {
    let mut g = game(Alliance::Opposite, &four_captains(), South);
    shuffle(&mut g, 40);
    g.start_tuoguan(West, TuoguanKind::Manual).unwrap();
    let by = g.to_move();
    g.apply(by, Step::OfferDraw).unwrap();
    assert!(!g.votes(West), "a 托管 seat does not vote");
    for s in Seat4::ALL.into_iter().filter(|&s| s != by && s != West) {
        assert!(g.votes(s));
        g.apply(s, Step::AcceptDraw).unwrap();
    }
    assert_eq!(g.ending(), Some(Ending::AgreedDraw));
}

#[test]
fn fine_point_11_draw_offers_cost_no_turn_one_per_own_step() {
    let mut g = game(Alliance::Opposite, &four_captains(), South);
    shuffle(&mut g, 39);
    let who = g.to_move();
    assert!(matches!(
        g.apply(who, Step::OfferDraw),
        Err(StepError::TooEarly { .. })
    ));
    shuffle(&mut g, 1);
    let (by, steps) = (g.to_move(), g.steps());
    g.apply(by, Step::OfferDraw).unwrap();
    assert_eq!(
        (g.to_move(), g.steps()),
        (by, steps),
        "no turn used, not a step"
    );
    let other = Seat4::ALL.into_iter().find(|&s| s != by).unwrap();
    let a = g.apply(other, Step::DeclineDraw).unwrap();
    assert!(a.offer_lapsed && g.draw_offer().is_none());
    assert_eq!(
        g.apply(by, Step::OfferDraw).unwrap_err(),
        StepError::OfferedSinceOwnStep
    );
    // Its own step allows one more; an addressee stepping without agreeing lets it lapse.
    shuffle(&mut g, 4);
    let by = g.to_move();
    g.apply(by, Step::OfferDraw).unwrap();
    shuffle(&mut g, 1);
    assert_eq!(
        g.draw_offer(),
        Some(by),
        "the offerer's own step keeps it open"
    );
    shuffle(&mut g, 1);
    assert!(
        g.draw_offer().is_none(),
        "the next seat stepped without agreeing"
    );
}

#[test]
fn fine_point_12_everyone_stuck_is_defeated_one_at_a_time() {
    // East and North have only immovable pieces: after South's step both are
    // defeated, East first, and West moves next.
    let pieces = [
        ("Sc3", Piece::Captain, South),
        ("Ea1", Piece::Mine, East),
        ("Eb1", Piece::Flag, East),
        ("Na1", Piece::Mine, North),
        ("Nb1", Piece::Flag, North),
        ("Wc3", Piece::Captain, West),
    ];
    let mut g = game(Alliance::None, &pieces, South);
    let a = mv(&mut g, South, "Sc3", "Sc2");
    let order: Vec<(Seat4, Defeat)> = a.defeated.iter().map(|d| (d.0, d.1)).collect();
    assert_eq!(order, [(East, Defeat::NoMoves), (North, Defeat::NoMoves)]);
    assert_eq!(g.to_move(), West);
}

#[test]
fn fine_point_13_the_70_step_count_is_global_and_reset_by_attacks_and_defeats() {
    let mut pieces = four_captains();
    pieces.push(("Sa3", Piece::Marshal, South));
    pieces.push(("Sa4", Piece::Engineer, East));
    let mut g = game(Alliance::Opposite, &pieces, South);
    shuffle(&mut g, 9);
    assert_eq!(g.quiet_steps(), 9, "every seat's steps count");
    while g.to_move() != South {
        shuffle(&mut g, 1);
    }
    if g.position().get(st("Sa3")).is_some() && g.position().get(st("Sa4")).is_some() {
        mv(&mut g, South, "Sa3", "Sa4");
        assert_eq!(g.quiet_steps(), 0, "an attack resets");
    }
    shuffle(&mut g, 70);
    assert_eq!(g.ending(), Some(Ending::QuietDraw));
}

#[test]
fn fine_point_14_the_40_step_gates_count_all_seats_steps() {
    let mut g = game(Alliance::Opposite, &four_captains(), South);
    shuffle(&mut g, 39);
    assert!(matches!(
        g.apply(East, Step::Resign),
        Err(StepError::TooEarly {
            needed: 40,
            steps: 39
        })
    ));
    shuffle(&mut g, 1);
    assert!(g.apply(East, Step::Resign).is_ok(), "40 steps of all seats");
}

#[test]
fn fine_point_15_anti_farming_voids_the_win_but_losers_and_escapers_pay() {
    let f = Facts {
        alliance: Alliance::Opposite,
        ending: Ending::Won { winners: 0b0101 },
        steps: 25,
        seated: [true; 4],
        defeated: [false, true, false, true],
        seats: [
            SeatEnd::default(),
            SeatEnd {
                exited: true,
                tuoguan_at_end: false,
            },
            SeatEnd::default(),
            SeatEnd::default(),
        ],
    };
    assert_eq!(
        score(&f),
        Some([0, -4, 0, 0]),
        "East escaped; West is its ally"
    );
}

#[test]
fn fine_point_16_a_defeated_seat_sees_its_ally_never_an_enemy() {
    let mut pieces = four_captains();
    pieces.push(("Eb2", Piece::Major, South));
    pieces.push(("Eb1", Piece::Flag, East));
    let mut g = game(Alliance::Opposite, &pieces, South);
    mv(&mut g, South, "Eb2", "Eb1");
    let sight = g.sight(Watcher::Seat(East));
    let view = serde_json::to_value(g.board_view(sight)).unwrap();
    assert_eq!(view["Wc3"]["piece"], "captain", "its ally West");
    assert!(view["Sc3"].get("piece").is_none() && view["Nc3"].get("piece").is_none());
    assert!(view.get("Ec3").is_none(), "its own pieces left the board");
}

#[test]
fn fine_point_22_tuoguan_steps_the_first_piece_and_back() {
    // South's pieces: a captain on its front row and one behind; the front one moves.
    let pieces = [
        ("Sa6", Piece::Captain, South),
        ("Sc2", Piece::Captain, South),
        ("Ec3", Piece::Captain, East),
        ("Nc3", Piece::Captain, North),
        ("Wc3", Piece::Captain, West),
    ];
    let g = game(Alliance::Opposite, &pieces, South);
    let mut last = None;
    let first = tuoguan::step(&g, South, &mut last, |n| n - 1);
    let Step::Move { from, to } = first else {
        panic!("{first:?}")
    };
    assert_eq!(from, st("Sa6"), "rank 6 before rank 2, file a first");
    assert!(g.position().get(to).is_none() && to.kind() != junqi::rules::siguo::Kind::Hq);
    let mut g = g;
    g.apply(South, first).unwrap();
    shuffle(&mut g, 3);
    assert_eq!(
        tuoguan::step(&g, South, &mut last, |_| 0),
        Step::Move { from: to, to: from },
        "and back"
    );
    // With nothing that can step, 托管 lets the turn time out.
    let stuck = game(
        Alliance::Opposite,
        &[("Sb1", Piece::Flag, South), ("Ec3", Piece::Captain, East)],
        South,
    );
    assert_eq!(
        tuoguan::step(&stuck, South, &mut None, |_| 0),
        Step::Timeout
    );
}

#[test]
fn fine_point_23_tuoguan_seats_do_not_vote_and_pay_double_at_the_end() {
    let mut g = game(Alliance::Opposite, &four_captains(), South);
    shuffle(&mut g, 40);
    g.start_tuoguan(North, TuoguanKind::Manual).unwrap();
    g.apply(g.to_move(), Step::OfferDraw).unwrap();
    assert!(!g.votes(North));
    let f = Facts {
        alliance: Alliance::Opposite,
        ending: Ending::Won { winners: 0b0101 },
        steps: 80,
        seated: [true; 4],
        defeated: [false, true, false, true],
        seats: [
            SeatEnd::default(),
            SeatEnd::default(),
            SeatEnd {
                exited: false,
                tuoguan_at_end: true,
            },
            SeatEnd::default(),
        ],
    };
    assert_eq!(
        score(&f),
        Some([2, -2, -4, -2]),
        "a winner in 托管 pays −2u"
    );
    // All four in 托管: the game ends, unscored.
    for s in Seat4::ALL {
        if !g.in_tuoguan(s) {
            g.start_tuoguan(s, TuoguanKind::Manual).unwrap();
        }
    }
    assert_eq!(g.ending(), Some(Ending::AllInTuoguan));
}

#[test]
fn fine_point_24_free_for_all_scores_the_winner_a_unit_per_other_seat() {
    let f = Facts {
        alliance: Alliance::None,
        ending: Ending::Won { winners: 0b1000 },
        steps: 300,
        seated: [true; 4],
        defeated: [true, true, true, false],
        seats: [SeatEnd::default(); 4],
    };
    assert_eq!(score(&f), Some([-2, -2, -2, 6]));
}

#[test]
fn fine_point_25_three_seats_leave_the_empty_area_out_of_play() {
    let mut rng = StdRng::seed_from_u64(25);
    let table = Table {
        alliance: Alliance::None,
        seats: 3,
        allies_visible: false,
    };
    let g = new_game(table, &mut rng);
    assert_eq!(g.position().closed().len(), 30);
    assert!(!g.is_in_play(West));
    // A slide along South's a file stops before West's e file round the arc.
    let from = st("Sa2");
    assert!(!g.position().reach(from).contains(st("We5")));
}

#[test]
fn fine_point_26_variants_not_adopted() {
    let pieces = [
        ("Sb1", Piece::Major, South), // in its own HQ: 能进能出 is not adopted
        ("Sa2", Piece::Bomb, South),  // bombs do not fly as engineers
        ("Sc2", Piece::Mine, South),  // mines never move
        ("Ec3", Piece::Captain, East),
        ("Nc3", Piece::Captain, North),
        ("Wc3", Piece::Captain, West),
    ];
    let g = game(Alliance::Opposite, &pieces, South);
    let mut from = std::collections::BTreeSet::new();
    let mut bomb = StationSet::EMPTY;
    g.for_each_move(|f, t| {
        from.insert(f);
        if f == st("Sa2") {
            bomb.insert(t);
        }
    });
    assert_eq!(from, [st("Sa2")].into(), "the HQ holds; the mine stays");
    assert!(
        !bomb.contains(st("Sc6")),
        "no turning: a bomb slides straight"
    );
    assert!(bomb.contains(st("Sa6")) && bomb.contains(st("Sb2")) && !bomb.contains(st("Sd2")));
}

#[test]
fn fine_point_27_defeats_are_always_ordered() {
    // One step takes at most one flag; the seats found without moves follow in turn
    // order (point 12), so a step's defeats come as a list, never a tie.
    let pieces = [
        ("Eb2", Piece::Major, South),
        ("Eb1", Piece::Flag, East),
        ("Na1", Piece::Mine, North),
        ("Nb1", Piece::Flag, North),
        ("Wc3", Piece::Captain, West),
        ("Sc3", Piece::Captain, South),
    ];
    let mut g = game(Alliance::None, &pieces, South);
    let a = mv(&mut g, South, "Eb2", "Eb1");
    let order: Vec<(Seat4, Defeat)> = a.defeated.iter().map(|d| (d.0, d.1)).collect();
    assert_eq!(order, [(East, Defeat::FlagTaken), (North, Defeat::NoMoves)]);
}

#[test]
fn fine_point_28_the_turn_after_a_defeat_goes_to_the_next_after_the_stepper() {
    let mut pieces = four_captains();
    pieces.push(("Nb2", Piece::Major, West));
    pieces.push(("Nb1", Piece::Flag, North));
    let mut g = game(Alliance::Opposite, &pieces, West);
    mv(&mut g, West, "Nb2", "Nb1");
    assert_eq!(g.to_move(), South, "after West comes South");
}
