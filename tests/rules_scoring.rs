//! Pins the score tables of RULES §3.1 (flip chess 积分计算), its fine points in §3.3, the
//! standard 军棋 scores of §4.8, the base (底分) and the rank ladder of §3.2.

use junqi::rules::scoring::{self, ScoreFacts};
use junqi::rules::{
    Action, Colour, EndReason, Game, Options, Outcome, Piece, Position, Rank, Seat, Square, Token,
    Variant,
};

const BASES: [i32; 3] = [1, 2, 3];

/// Boundaries of the lost-count bands (≤5, 6–14, ≥15) and the most there can be (24).
const LOST_BOUNDARIES: [u8; 7] = [0, 5, 6, 14, 15, 23, 24];

fn facts(variant: Variant, outcome: Outcome, lost: u8, all_face_up: bool) -> ScoreFacts {
    ScoreFacts {
        variant,
        outcome,
        loser_lost: lost,
        loser_only_flag: false,
        all_face_up,
        steps: 100,
    }
}

/// Scores as (south, north) when `winner` gains `won` and the other seat gets `lost`.
fn by_seat(winner: Seat, won: i32, lost: i32) -> [i32; 2] {
    match winner {
        Seat::South => [won, lost],
        Seat::North => [lost, won],
    }
}

/// The multiplier of the "lost ≥ 15 / 5 < lost < 15 / lost ≤ 5" rows.
fn band(lost: u8, many: i32, some: i32, few: i32) -> i32 {
    match lost {
        0..=5 => few,
        6..=14 => some,
        _ => many,
    }
}

// ---------------------------------------------------------------------------------------
// §3.1: draws

#[test]
fn every_draw_scores_zero_for_both_whatever_the_facts() {
    let draws = [
        EndReason::Agreed,
        EndReason::NoCaptureLimit,
        EndReason::StepLimit,
        EndReason::TimeLimit,
        EndReason::NoMoves,
    ];
    for variant in [Variant::Flip, Variant::Standard] {
        for reason in draws {
            for lost in LOST_BOUNDARIES {
                for face_up in [false, true] {
                    let mut f = facts(variant, Outcome::draw(reason), lost, face_up);
                    f.loser_only_flag = lost == 24;
                    for base in BASES {
                        assert_eq!(
                            f.score(base),
                            [0, 0],
                            "{variant:?} {reason} lost {lost} base {base}"
                        );
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// §3.1: timeouts, resignation, repetition

#[test]
fn timeouts_resignation_and_repetition_score_one_two_or_three_base_by_lost_count() {
    for reason in [
        EndReason::Timeouts,
        EndReason::Resign,
        EndReason::Repetition,
    ] {
        for lost in LOST_BOUNDARIES {
            let times = band(lost, 3, 2, 1);
            for winner in Seat::BOTH {
                for base in BASES {
                    // No all-face-up bonus outside the flag row.
                    for face_up in [false, true] {
                        let f = facts(Variant::Flip, Outcome::win(winner, reason), lost, face_up);
                        assert_eq!(
                            f.score(base),
                            by_seat(winner, times * base, -times * base),
                            "{reason} lost {lost} base {base} winner {winner} face up {face_up}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn resignation_lost_count_boundaries_give_the_exact_multipliers() {
    // The same rows spelled out at base 2 so the thresholds read off the test directly.
    let expect = [(5, 2), (6, 4), (14, 4), (15, 6), (24, 6)];
    for (lost, won) in expect {
        let f = facts(
            Variant::Flip,
            Outcome::loss(Seat::North, EndReason::Resign),
            lost,
            false,
        );
        assert_eq!(f.score(2), [won, -won], "lost {lost}");
    }
}

// ---------------------------------------------------------------------------------------
// §3.1: flag taken

#[test]
fn taking_the_flag_scores_one_two_or_three_base_by_lost_count_when_pieces_stay_face_down() {
    for lost in LOST_BOUNDARIES.into_iter().filter(|&l| l < 24) {
        let times = band(lost, 3, 2, 1);
        for winner in Seat::BOTH {
            for base in BASES {
                let f = facts(
                    Variant::Flip,
                    Outcome::win(winner, EndReason::Flag),
                    lost,
                    false,
                );
                assert_eq!(
                    f.score(base),
                    by_seat(winner, times * base, -times * base),
                    "lost {lost} base {base} winner {winner}"
                );
            }
        }
    }
}

#[test]
fn taking_the_flag_with_all_24_other_pieces_gone_scores_five_base() {
    for winner in Seat::BOTH {
        for base in BASES {
            let mut f = facts(
                Variant::Flip,
                Outcome::win(winner, EndReason::Flag),
                24,
                false,
            );
            f.loser_only_flag = true;
            assert_eq!(
                f.score(base),
                by_seat(winner, 5 * base, -5 * base),
                "base {base}"
            );
        }
    }
    // 23 lost is one piece short of the 5× row.
    let f = facts(
        Variant::Flip,
        Outcome::win(Seat::South, EndReason::Flag),
        23,
        false,
    );
    assert_eq!(f.score(1), [3, -3]);
}

#[test]
fn all_face_up_bonus_is_a_flat_two_on_top_of_the_flag_row() {
    for lost in LOST_BOUNDARIES {
        let times = if lost == 24 { 5 } else { band(lost, 3, 2, 1) };
        for winner in Seat::BOTH {
            for base in BASES {
                let f = facts(
                    Variant::Flip,
                    Outcome::win(winner, EndReason::Flag),
                    lost,
                    true,
                );
                assert_eq!(
                    f.score(base),
                    by_seat(winner, times * base + 2, -times * base - 2),
                    "lost {lost} base {base} winner {winner}"
                );
            }
        }
    }
}

#[test]
fn all_face_up_bonus_is_not_multiplied_by_the_base() {
    // 5× row at base 3: 15 + 2, not 3 × (5 + 2) = 21 nor 15 + 2 × 3 = 21.
    let f = facts(
        Variant::Flip,
        Outcome::win(Seat::North, EndReason::Flag),
        24,
        true,
    );
    assert_eq!(f.score(3), [-17, 17]);
    // 1× row at base 3: 3 + 2.
    let f = facts(
        Variant::Flip,
        Outcome::win(Seat::South, EndReason::Flag),
        0,
        true,
    );
    assert_eq!(f.score(3), [5, -5]);
}

// ---------------------------------------------------------------------------------------
// §3.1: escape

#[test]
fn escaper_loses_ten_base_and_the_winner_gets_zero_one_or_two_base() {
    for lost in LOST_BOUNDARIES {
        let times = band(lost, 2, 1, 0);
        for winner in Seat::BOTH {
            for base in BASES {
                for face_up in [false, true] {
                    let f = facts(
                        Variant::Flip,
                        Outcome::win(winner, EndReason::Escape),
                        lost,
                        face_up,
                    );
                    assert_eq!(
                        f.score(base),
                        by_seat(winner, times * base, -10 * base),
                        "lost {lost} base {base} winner {winner} face up {face_up}"
                    );
                }
            }
        }
    }
}

#[test]
fn escape_boundaries_at_base_one() {
    let expect = [(5, 0), (6, 1), (14, 1), (15, 2), (24, 2)];
    for (lost, won) in expect {
        let f = facts(
            Variant::Flip,
            Outcome::loss(Seat::South, EndReason::Escape),
            lost,
            false,
        );
        assert_eq!(f.score(1), [-10, won], "lost {lost}");
    }
}

// ---------------------------------------------------------------------------------------
// §3.1: no legal action

#[test]
fn no_legal_action_with_only_the_flag_left_scores_five_base() {
    for winner in Seat::BOTH {
        for base in BASES {
            for face_up in [false, true] {
                let mut f = facts(
                    Variant::Flip,
                    Outcome::win(winner, EndReason::NoMoves),
                    24,
                    face_up,
                );
                f.loser_only_flag = true;
                assert_eq!(
                    f.score(base),
                    by_seat(winner, 5 * base, -5 * base),
                    "base {base}"
                );
            }
        }
    }
}

#[test]
fn no_legal_action_with_other_pieces_left_scores_two_base_whatever_was_lost() {
    for lost in LOST_BOUNDARIES {
        for winner in Seat::BOTH {
            for base in BASES {
                for face_up in [false, true] {
                    let f = facts(
                        Variant::Flip,
                        Outcome::win(winner, EndReason::NoMoves),
                        lost,
                        face_up,
                    );
                    assert_eq!(
                        f.score(base),
                        by_seat(winner, 2 * base, -2 * base),
                        "lost {lost} base {base}"
                    );
                }
            }
        }
    }
}

#[test]
fn change_for_reads_one_seat_of_the_score() {
    let f = facts(
        Variant::Flip,
        Outcome::win(Seat::North, EndReason::Timeouts),
        15,
        false,
    );
    assert_eq!(f.change_for(Seat::North, 2), 6);
    assert_eq!(f.change_for(Seat::South, 2), -6);
}

// ---------------------------------------------------------------------------------------
// §3.3: lost count never includes the flag

fn full_set(colour: Colour, first_index: usize) -> Vec<(Square, Token)> {
    Piece::set()
        .enumerate()
        .map(|(i, p)| {
            (
                Square::from_index(first_index + i).unwrap(),
                Token::hidden(p, colour),
            )
        })
        .collect()
}

#[test]
fn lost_count_never_includes_the_flag() {
    let full = full_set(Colour::Red, 0);
    assert_eq!(full.len(), 25);
    assert_eq!(Position::from_tokens(full.clone()).lost(Colour::Red), 0);

    // Flag gone, all 24 others present: nothing lost.
    let no_flag: Vec<_> = full
        .iter()
        .copied()
        .filter(|(_, t)| t.piece != Piece::Flag)
        .collect();
    assert_eq!(Position::from_tokens(no_flag).lost(Colour::Red), 0);

    // Only the flag left: all 24 others lost.
    let only_flag: Vec<_> = full
        .iter()
        .copied()
        .filter(|(_, t)| t.piece == Piece::Flag)
        .collect();
    assert_eq!(Position::from_tokens(only_flag).lost(Colour::Red), 24);
    assert_eq!(Position::empty().lost(Colour::Red), 24);

    // Two bombs and a mine gone: 3.
    let mut seen = (0, 0);
    let some_gone: Vec<_> = full
        .iter()
        .copied()
        .filter(|(_, t)| match t.piece {
            Piece::Bomb if seen.0 < 2 => {
                seen.0 += 1;
                false
            }
            Piece::Mine if seen.1 < 1 => {
                seen.1 += 1;
                false
            }
            _ => true,
        })
        .collect();
    let p = Position::from_tokens(some_gone);
    assert_eq!(p.lost(Colour::Red), 3);
    assert_eq!(
        p.lost(Colour::Blue),
        24,
        "a colour with nothing on the board"
    );
}

// ---------------------------------------------------------------------------------------
// §4.8: standard 军棋

fn standard(outcome: Outcome, steps: u32) -> ScoreFacts {
    ScoreFacts {
        variant: Variant::Standard,
        outcome,
        loser_lost: 0,
        loser_only_flag: false,
        all_face_up: false,
        steps,
    }
}

#[test]
fn standard_win_is_plus_one_minus_one_not_multiplied_by_base() {
    for reason in [
        EndReason::Flag,
        EndReason::NoMoves,
        EndReason::Timeouts,
        EndReason::Resign,
    ] {
        for winner in Seat::BOTH {
            for base in BASES {
                assert_eq!(
                    standard(Outcome::win(winner, reason), 31).score(base),
                    by_seat(winner, 1, -1),
                    "{reason} base {base}"
                );
            }
        }
    }
}

#[test]
fn standard_ignores_lost_count_only_flag_and_face_up() {
    for reason in [EndReason::Flag, EndReason::NoMoves] {
        let f = ScoreFacts {
            variant: Variant::Standard,
            outcome: Outcome::win(Seat::South, reason),
            loser_lost: 24,
            loser_only_flag: true,
            all_face_up: true,
            steps: 200,
        };
        assert_eq!(f.score(3), [1, -1], "{reason}");
    }
}

#[test]
fn standard_escaper_loses_two() {
    for winner in Seat::BOTH {
        for base in BASES {
            assert_eq!(
                standard(Outcome::win(winner, EndReason::Escape), 31).score(base),
                by_seat(winner, 1, -2)
            );
        }
    }
}

#[test]
fn standard_game_decided_within_30_steps_gives_the_winner_nothing() {
    for steps in [0, 1, 29, 30] {
        assert_eq!(
            standard(Outcome::win(Seat::South, EndReason::Flag), steps).score(1),
            [0, -1],
            "steps {steps}"
        );
        assert_eq!(
            standard(Outcome::win(Seat::North, EndReason::Resign), steps).score(2),
            [-1, 0],
            "steps {steps}"
        );
        assert_eq!(
            standard(Outcome::win(Seat::North, EndReason::Escape), steps).score(1),
            [-2, 0],
            "an early escaper still loses 2; steps {steps}"
        );
    }
    assert_eq!(
        standard(Outcome::win(Seat::South, EndReason::Flag), 31).score(1),
        [1, -1]
    );
    assert_eq!(
        standard(Outcome::win(Seat::North, EndReason::Escape), 31).score(1),
        [-2, 1]
    );
}

#[test]
fn flip_chess_has_no_30_step_rule() {
    let mut f = facts(
        Variant::Flip,
        Outcome::win(Seat::South, EndReason::Flag),
        0,
        false,
    );
    f.steps = 5;
    assert_eq!(f.score(1), [1, -1]);
}

// ---------------------------------------------------------------------------------------
// §3.1: base (底分)

#[test]
fn base_starts_at_one_and_grows_by_one_with_each_rematch() {
    assert_eq!(
        scoring::next_base(None, false),
        1,
        "first game of a pairing"
    );
    assert_eq!(scoring::next_base(None, true), 1, "nothing to grow from");
    let mut base = scoring::next_base(None, false);
    for expected in 2..=5 {
        base = scoring::next_base(Some(base), true);
        assert_eq!(base, expected);
    }
    assert_eq!(
        scoring::next_base(Some(base), false),
        1,
        "any other game resets it"
    );
    assert_eq!(scoring::next_base(Some(1), false), 1);
}

// ---------------------------------------------------------------------------------------
// §3.2: rank ladder

const LADDER: [(&str, i64); 18] = [
    ("小兵", i64::MIN),
    ("副班长", 30),
    ("班长", 50),
    ("副排长", 80),
    ("排长", 150),
    ("副连长", 200),
    ("连长", 300),
    ("副营长", 500),
    ("营长", 750),
    ("副团长", 1050),
    ("团长", 1500),
    ("副旅长", 2000),
    ("旅长", 3000),
    ("副师长", 5000),
    ("师长", 7500),
    ("副军长", 12000),
    ("军长", 18000),
    ("司令", 25000),
];

#[test]
fn ladder_has_eighteen_ranks_in_order_with_the_rules_names_and_floors() {
    let all: Vec<Rank> = Rank::all().collect();
    assert_eq!(all.len(), 18);
    for (i, (rank, (name, from))) in all.iter().zip(LADDER).enumerate() {
        assert_eq!(rank.level as usize, i);
        assert_eq!(rank.chinese, name, "level {i}");
        let floor = if i == 0 { None } else { Some(from) };
        assert_eq!(rank.from_score, floor, "{name}");
        assert_eq!(Rank::at_level(i as u8), *rank);
    }
    assert!(all.windows(2).all(|w| w[0] < w[1]), "ranks sort by level");
    assert_eq!(all[16].next(), Some(all[17]));
    assert_eq!(all[17].next(), None, "司令 is the top");
}

#[test]
fn each_threshold_holds_its_rank_and_one_below_holds_the_previous() {
    for i in 1..LADDER.len() {
        let (name, from) = LADDER[i];
        let (below, _) = LADDER[i - 1];
        assert_eq!(Rank::for_score(from).chinese, name, "score {from}");
        assert_eq!(
            Rank::for_score(from - 1).chinese,
            below,
            "score {}",
            from - 1
        );
    }
}

#[test]
fn zero_and_negative_scores_are_private() {
    for score in [29, 0, -1, -30, -1_000_000, i64::MIN] {
        assert_eq!(Rank::for_score(score).chinese, "小兵", "score {score}");
        assert_eq!(Rank::for_score(score).level, 0);
    }
}

#[test]
fn scores_from_25000_up_are_commander_in_chief() {
    for score in [25_000, 25_001, 100_000, i64::MAX] {
        assert_eq!(Rank::for_score(score).chinese, "司令", "score {score}");
    }
}

#[test]
fn progress_runs_from_this_floor_to_the_next() {
    let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
    // 小兵: from 0 up to 30.
    assert!(close(Rank::progress(0), 0.0));
    assert!(close(Rank::progress(15), 0.5));
    assert!(
        close(Rank::progress(-50), 0.0),
        "negative scores show no progress"
    );
    // 副班长 30 → 班长 50.
    assert!(close(Rank::progress(30), 0.0));
    assert!(close(Rank::progress(40), 0.5));
    assert!(close(Rank::progress(45), 0.75));
    // 军长 18000 → 司令 25000.
    assert!(close(Rank::progress(21_500), 0.5));
    assert!(Rank::progress(24_999) < 1.0);
    // The top rank is full.
    assert!(close(Rank::progress(25_000), 1.0));
    assert!(close(Rank::progress(1_000_000), 1.0));
}

// ---------------------------------------------------------------------------------------
// End to end: real games scored by `Game::score`

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

fn up(name: &str, piece: Piece, colour: Colour) -> (Square, Token) {
    (sq(name), Token::shown(piece, colour))
}

fn down(name: &str, piece: Piece, colour: Colour) -> (Square, Token) {
    (sq(name), Token::hidden(piece, colour))
}

/// South plays red and North blue; `to_move` acts first.
fn flip_game_with(to_move: Seat, tokens: Vec<(Square, Token)>) -> Game {
    Game::from_position(
        Variant::Flip,
        Options::default(),
        Position::from_tokens(tokens),
        to_move,
        Some([Colour::Red, Colour::Blue]),
    )
}

/// South plays red and is to move; North plays blue.
fn flip_game(tokens: Vec<(Square, Token)>) -> Game {
    flip_game_with(Seat::South, tokens)
}

fn play(game: &mut Game, seat: Seat, from: &str, to: &str) {
    let action = Action::Move {
        from: sq(from),
        to: sq(to),
    };
    game.apply(seat, action, None)
        .unwrap_or_else(|e| panic!("{from}–{to}: {e}"));
}

#[test]
fn game_taking_the_flag_with_every_piece_face_up_gets_the_bonus() {
    // Blue has its flag and one lieutenant (23 lost, the 3× row); no mine guards the flag.
    let mut game = flip_game(vec![
        up("a2", Piece::General, Colour::Red),
        up("e1", Piece::Flag, Colour::Red),
        up("a3", Piece::Flag, Colour::Blue),
        up("e10", Piece::Lieutenant, Colour::Blue),
    ]);
    play(&mut game, Seat::South, "a2", "a3");
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Seat::South, EndReason::Flag))
    );
    let f = game.score_facts().unwrap();
    assert_eq!((f.loser_lost, f.all_face_up), (23, true));
    assert_eq!(game.score(1), Some([3 + 2, -3 - 2]));
    assert_eq!(game.score(2), Some([6 + 2, -6 - 2]));
}

#[test]
fn game_taking_the_flag_with_a_face_down_piece_left_gets_no_bonus() {
    // Same, but a face-down piece (of the winner's colour) is still on the board.
    let mut game = flip_game(vec![
        up("a2", Piece::General, Colour::Red),
        up("e1", Piece::Flag, Colour::Red),
        down("c12", Piece::Captain, Colour::Red),
        up("a3", Piece::Flag, Colour::Blue),
        up("e10", Piece::Lieutenant, Colour::Blue),
    ]);
    play(&mut game, Seat::South, "a2", "a3");
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Seat::South, EndReason::Flag))
    );
    assert!(!game.score_facts().unwrap().all_face_up);
    assert_eq!(game.score(1), Some([3, -3]));
    assert_eq!(game.score(2), Some([6, -6]));
}

#[test]
fn game_north_takes_a_bare_flag_for_five_base_plus_bonus() {
    // Red has nothing but its flag: taking it is the 5× row; all face up adds 2.
    let mut game = flip_game_with(
        Seat::North,
        vec![
            up("c7", Piece::Engineer, Colour::Blue),
            up("c6", Piece::Flag, Colour::Red),
            up("e12", Piece::Flag, Colour::Blue),
        ],
    );
    play(&mut game, Seat::North, "c7", "c6");
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Seat::North, EndReason::Flag))
    );
    assert_eq!(game.score(3), Some([-17, 17]));
}

#[test]
fn game_a_flag_guarded_by_a_face_down_mine_cannot_be_taken() {
    let mut game = flip_game(vec![
        up("a2", Piece::General, Colour::Red),
        up("a3", Piece::Flag, Colour::Blue),
        down("e12", Piece::Mine, Colour::Blue),
    ]);
    let r = game.apply(
        Seat::South,
        Action::Move {
            from: sq("a2"),
            to: sq("a3"),
        },
        None,
    );
    assert!(r.is_err(), "{r:?}");
    assert_eq!(game.outcome(), None);
    assert_eq!(game.score(1), None, "an unfinished game has no score");
}

#[test]
fn game_leaving_the_opponent_only_its_flag_wins_by_no_moves_for_five_base() {
    // Red takes Blue's last movable piece; Blue, to move, has only its flag left.
    let mut game = flip_game(vec![
        up("a2", Piece::Marshal, Colour::Red),
        up("e1", Piece::Flag, Colour::Red),
        up("a3", Piece::Captain, Colour::Blue),
        up("e12", Piece::Flag, Colour::Blue),
    ]);
    play(&mut game, Seat::South, "a2", "a3");
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Seat::South, EndReason::NoMoves))
    );
    // No face-up bonus outside the flag row.
    assert_eq!(game.score(2), Some([10, -10]));
}

#[test]
fn game_leaving_the_opponent_only_mines_and_flag_wins_by_no_moves_for_two_base() {
    let mut game = flip_game(vec![
        up("a2", Piece::Marshal, Colour::Red),
        up("e1", Piece::Flag, Colour::Red),
        up("a3", Piece::Captain, Colour::Blue),
        up("e12", Piece::Flag, Colour::Blue),
        up("d12", Piece::Mine, Colour::Blue),
    ]);
    play(&mut game, Seat::South, "a2", "a3");
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Seat::South, EndReason::NoMoves))
    );
    assert_eq!(game.score(2), Some([4, -4]));
}

#[test]
fn game_escape_costs_the_escaper_ten_base() {
    let mut game = flip_game(vec![
        up("a2", Piece::Marshal, Colour::Red),
        down("a3", Piece::Captain, Colour::Blue),
        up("e12", Piece::Flag, Colour::Blue),
    ]);
    // Blue has lost 23 pieces: the winner gets 2× base.
    game.apply(Seat::North, Action::Escape, None).unwrap();
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Seat::South, EndReason::Escape))
    );
    assert_eq!(game.score(2), Some([4, -20]));
}
