//! Fine points 7, 20, 21 and 22's limit (RULES §5.9): the clockwise setting is a
//! drawing, escape and 托管 as rules, the grace against the five timeouts.

use Seat4::*;
use junqi::rules::hidden_game::{
    Defeat, Ending, Escape, Escaped, HiddenGame, Step, TIMEOUTS_TO_LOSE, TUOGUAN_THAT_MAY_END,
    TuoguanError, TuoguanKind,
};
use junqi::rules::siguo::scoring::{Facts, SeatEnd, score};
use junqi::rules::siguo::station::GRID;
use junqi::rules::siguo::{Alliance, FourPlayer, Seat4, Station, tuoguan};
use junqi::rules::{Options, Piece, Position, Token, Variant};
use junqi::selfplay_siguo::{Table, new_game};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::collections::BTreeSet;

type Four = HiddenGame<FourPlayer>;

fn st(name: &str) -> Station {
    name.parse().unwrap()
}

fn captains(alliance: Alliance, first: Seat4) -> Four {
    let pos = Position::<FourPlayer>::with_tokens(
        [("Sc3", South), ("Ec3", East), ("Nc3", North), ("Wc3", West)]
            .map(|(s, seat)| (st(s), Token::hidden(Piece::Captain, seat))),
    );
    Four::new(
        Variant::Siguo,
        Options::default(),
        alliance,
        pos,
        &Seat4::ALL,
        first,
    )
}

/// The station drawn where `s` is when the board is drawn mirrored (east and west
/// swapped), as [004]'s clockwise setting shows it.
fn mirrored(s: Station) -> Station {
    let (x, y) = s.grid();
    Station::all()
        .find(|t| t.grid() == (GRID - 1 - x, y))
        .expect("the board is symmetric about its north–south axis")
}

fn mirror_seat(s: Seat4) -> Seat4 {
    match s {
        East => West,
        West => East,
        other => other,
    }
}

fn moves(g: &Four) -> BTreeSet<(Station, Station)> {
    let mut out = BTreeSet::new();
    g.for_each_move(|f, t| {
        out.insert((f, t));
    });
    out
}

#[test]
fn fine_point_07_the_clockwise_setting_is_a_drawing_never_a_rule() {
    // Mirroring the board maps every station to one of the same kind and every legal
    // move of a position to a legal move of the mirrored position: a mirrored drawing
    // shows the same game, so the setting can be one viewer's without touching a rule.
    for s in Station::all() {
        let m = mirrored(s);
        assert_eq!(m.kind(), s.kind(), "{s} drawn at {m}");
        assert_eq!(mirrored(m), s);
    }
    let mut rng = StdRng::seed_from_u64(7);
    let table = Table {
        alliance: Alliance::Opposite,
        seats: 4,
        allies_visible: false,
    };
    for _ in 0..60 {
        let mut g = new_game(table, &mut rng);
        for _ in 0..rng.random_range(0..120) {
            let ms: Vec<_> = moves(&g).into_iter().collect();
            if g.is_over() || ms.is_empty() {
                break;
            }
            let (from, to) = ms[rng.random_range(0..ms.len())];
            g.apply_listed(from, to);
        }
        if g.is_over() {
            continue;
        }
        let flipped = Position::<FourPlayer>::with_tokens(g.position().tokens().map(|(s, t)| {
            let mut t2 = Token::hidden(t.piece, mirror_seat(t.colour));
            t2.shown = t.shown;
            (mirrored(s), t2)
        }));
        let seated: Vec<Seat4> = Seat4::ALL
            .into_iter()
            .filter(|&s| g.is_in_play(s))
            .map(mirror_seat)
            .collect();
        let m = Four::new(
            Variant::Siguo,
            Options::default(),
            Alliance::Opposite,
            flipped,
            &seated,
            mirror_seat(g.to_move()),
        );
        let expected: BTreeSet<_> = moves(&g)
            .into_iter()
            .map(|(f, t)| (mirrored(f), mirrored(t)))
            .collect();
        assert_eq!(moves(&m), expected);
    }
    // The order of turns is the rules' (S, E, N, W), whatever a viewer's drawing shows.
    let mut g = captains(Alliance::Opposite, South);
    let mut order = vec![g.to_move()];
    for _ in 0..3 {
        g.apply(g.to_move(), Step::Timeout).unwrap();
        order.push(g.to_move());
    }
    assert_eq!(order, [South, East, North, West]);
}

#[test]
fn fine_point_20_an_escape_keeps_a_teams_army_under_tuoguan_while_the_ally_plays() {
    // Team mode, ally playing: leaving puts the army in 托管 for good; it stays on the
    // board and the server moves it.
    let mut g = captains(Alliance::Opposite, South);
    let pieces_before = g.position().tokens().count();
    assert_eq!(
        g.escape(North, Escape::Left),
        Ok(Escaped::Tuoguan { permanent: true })
    );
    assert!(g.is_in_play(North) && g.in_tuoguan(North));
    assert_eq!(g.position().tokens().count(), pieces_before);
    assert_eq!(g.end_tuoguan(North), Err(TuoguanError::Permanent));

    // Staying away past the grace: 断线托管, ended when the player comes back.
    let mut g = captains(Alliance::Opposite, South);
    assert_eq!(
        g.escape(East, Escape::StayedAway),
        Ok(Escaped::Tuoguan { permanent: false })
    );
    assert_eq!(g.tuoguan_kind(East), Some(TuoguanKind::Disconnect));
    assert_eq!(g.end_tuoguan(East), Ok(()));
    assert!(!g.in_tuoguan(East));

    // The ally is asked whether to play on; "no" ends the game, the opponents winning,
    // and the ally pays nothing (§5.7.1).
    let mut g = captains(Alliance::Opposite, South);
    g.escape(East, Escape::StayedAway).unwrap();
    assert_eq!(
        g.decline_play_on(North),
        Err(TuoguanError::NoPlayOnQuestion),
        "North's ally is not the one away"
    );
    let ending = g.decline_play_on(West).unwrap();
    assert_eq!(ending, Ending::PlayOnDeclined { winners: 0b0101 });
    assert!(g.won(South) && g.won(North) && !g.won(West));
    let mut seats = [SeatEnd::default(); 4];
    seats[East.index()].tuoguan_at_end = true;
    let f = Facts::of(&g, seats, [true; 4]).unwrap();
    assert_eq!(score(&f), Some([0, -4, 0, 0]), "within 40 steps: winners 0");

    // 混战: an escape defeats the seat at once, its pieces leave, the turn goes on.
    let mut g = captains(Alliance::None, South);
    let Ok(Escaped::Defeated(applied)) = g.escape(South, Escape::Left) else {
        panic!("an escape in 混战 defeats");
    };
    assert_eq!(applied.defeated[0].0, South);
    assert_eq!(g.defeat(South), Some(Defeat::Escaped));
    assert_eq!(g.position().of_colour(South).len(), 0);
    assert_eq!(g.to_move(), East);

    // Team mode with the ally already defeated: the escaper is defeated too, and the
    // other alliance wins.
    let mut g = captains(Alliance::Opposite, South);
    let mut last = [None; 4];
    while g.is_in_play(North) {
        let seat = g.to_move();
        let step = if seat == North {
            Step::Pass
        } else {
            tuoguan::step(&g, seat, &mut last[seat.index()], |_| 0)
        };
        g.apply(seat, step).unwrap();
    }
    assert_eq!(g.defeat(North), Some(Defeat::Timeouts));
    assert_eq!(
        g.escape(North, Escape::Left),
        Ok(Escaped::AlreadyOut),
        "a defeated seat leaves freely"
    );
    let Ok(Escaped::Defeated(applied)) = g.escape(South, Escape::StayedAway) else {
        panic!("no ally left playing: the escape defeats");
    };
    assert_eq!(applied.ending, Some(Ending::Won { winners: 0b1010 }));
    assert_eq!(g.escape(East, Escape::Left), Err(TuoguanError::GameOver));
}

#[test]
fn fine_point_21_the_grace_lapses_before_a_fifth_timeout() {
    // A dropped player's own turns time out one clock each at the soonest (the others
    // moving at once), so the 5th timeout comes no sooner than 5 clocks after the drop:
    // with every clock a room may choose that is after the 60 s grace, and the server
    // takes the seat over (托管) before the timeouts could defeat it. [004]'s 180 s
    // would not be: at 15 s a clock, five timeouts take 75 s.
    let grace = Options::default().grace_seconds;
    assert_eq!(grace, 60);
    for clock in Options::SECONDS_OFFERED {
        assert!(
            u32::from(TIMEOUTS_TO_LOSE) * clock > grace,
            "at {clock} s a step the 5th timeout must come after the grace"
        );
    }
    assert!(u32::from(TIMEOUTS_TO_LOSE) * Options::SECONDS_OFFERED[0] < 180);
}

#[test]
fn fine_point_22_three_tuoguan_may_be_ended_the_fourth_is_for_good() {
    let mut g = captains(Alliance::Opposite, South);
    let kinds = [
        TuoguanKind::Manual,
        TuoguanKind::Disconnect,
        TuoguanKind::Manual,
    ];
    for (n, kind) in kinds.into_iter().enumerate() {
        g.start_tuoguan(East, kind).unwrap();
        assert_eq!(g.tuoguan_count(East), n as u8 + 1);
        assert!(!g.tuoguan_is_permanent(East));
        g.end_tuoguan(East).unwrap();
    }
    assert_eq!(TUOGUAN_THAT_MAY_END, 3);
    g.start_tuoguan(East, TuoguanKind::Manual).unwrap();
    assert!(g.tuoguan_is_permanent(East));
    assert_eq!(g.end_tuoguan(East), Err(TuoguanError::Permanent));
    assert!(g.in_tuoguan(East), "a refused request changes nothing");
    assert_eq!(
        g.start_tuoguan(East, TuoguanKind::Manual),
        Err(TuoguanError::AlreadyInTuoguan)
    );
    assert_eq!(g.end_tuoguan(South), Err(TuoguanError::NotInTuoguan));
    // 托管退出 is for good from the first.
    g.start_tuoguan(South, TuoguanKind::Exit).unwrap();
    assert!(g.tuoguan_is_permanent(South));
}
