//! 四国 deployment (RULES §5.8, §5.2's first mover, §5.9 point 19): seat-relative
//! arrangements that two-player layouts load into unchanged, every rule refused with
//! its own error and nothing changed, random arrangements of any hand, expiry, who
//! moves first, and a seat seeing only its own area until play starts.

use Seat4::*;
use junqi::rules::hidden_game::Watcher;
use junqi::rules::layout::LayoutViolation;
use junqi::rules::siguo::deploy::{random_arrangement, station_of, violations};
use junqi::rules::siguo::{
    Alliance, DeployError, Deployment4, FirstMover, Hand, Hands, Seat4, SiguoOptions, Station,
    Violation,
};
use junqi::rules::{Layout, Options, Piece, Seat, Square};
use rand::SeedableRng;
use rand::rngs::StdRng;

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

fn standard(options: SiguoOptions, seated: &[Seat4], seed: u64) -> Deployment4 {
    let mut rng = StdRng::seed_from_u64(seed);
    Deployment4::new(options, seated, Hands::standard(seated), &mut rng).unwrap()
}

/// A valid two-player South layout.
fn layout(seed: u64) -> Layout {
    Layout::random(Seat::South, &mut StdRng::seed_from_u64(seed))
}

/// The first square (record order) holding a piece `keep` accepts.
fn find(l: &Layout, keep: impl Fn(Square, Piece) -> bool) -> Square {
    *l.0.iter().find(|&(&s, &p)| keep(s, p)).unwrap().0
}

fn swapped(mut l: Layout, a: Square, b: Square) -> Layout {
    assert!(l.swap(a, b));
    l
}

/// Layouts that each break one rule, with the violation `set_layout` must name.
fn broken() -> Vec<(Layout, Violation)> {
    let l = layout(1);
    let mut out = Vec::new();
    // A piece moved into a camp.
    let mut camp = l.clone();
    let from = find(&l, |_, p| p == Piece::Captain);
    camp.0.remove(&from);
    camp.0.insert(sq("b3"), Piece::Captain);
    out.push((camp, Violation::Layout(LayoutViolation::InCamp(sq("b3")))));
    // The flag out of the headquarters.
    let flag = find(&l, |_, p| p == Piece::Flag);
    let ahead = find(&l, |s, p| s.rank() == 4 && p.rank().is_some());
    out.push((
        swapped(l.clone(), flag, ahead),
        Violation::Layout(LayoutViolation::FlagOutsideHeadquarters(ahead)),
    ));
    // A mine on the third rank or beyond.
    let mine = find(&l, |_, p| p == Piece::Mine);
    let ahead = find(&l, |s, p| s.rank() == 5 && p.rank().is_some());
    out.push((
        swapped(l.clone(), mine, ahead),
        Violation::Layout(LayoutViolation::MineForward(ahead)),
    ));
    // A bomb on the front row.
    let bomb = find(&l, |_, p| p == Piece::Bomb);
    let front = find(&l, |s, p| s.rank() == 6 && p.rank().is_some());
    out.push((
        swapped(l.clone(), bomb, front),
        Violation::Layout(LayoutViolation::BombOnFrontRank(front)),
    ));
    // A second marshal instead of a captain.
    let mut count = l.clone();
    count
        .0
        .insert(find(&l, |_, p| p == Piece::Captain), Piece::Marshal);
    out.push((
        count,
        Violation::Layout(LayoutViolation::WrongCount {
            piece: Piece::Marshal,
            expected: 1,
            found: 2,
        }),
    ));
    // A piece beyond the own area, and a station left empty.
    let mut outside = l.clone();
    outside.0.remove(&from);
    outside.0.insert(sq("c7"), Piece::Captain);
    out.push((
        outside,
        Violation::Layout(LayoutViolation::OutsideOwnHalf(sq("c7"))),
    ));
    let mut empty = l.clone();
    empty.0.remove(&from);
    out.push((
        empty,
        Violation::Layout(LayoutViolation::EmptyStation(from)),
    ));
    out
}

#[test]
fn every_violation_is_refused_with_its_error_and_nothing_changes() {
    let mut d = standard(SiguoOptions::default(), &Seat4::ALL, 2);
    for (seat, (bad, why)) in Seat4::ALL.into_iter().cycle().zip(broken()) {
        let before = d.arrangement(seat).clone();
        match d.set_layout(seat, bad.clone()) {
            Err(DeployError::Invalid(v)) => assert!(v.contains(&why), "{why:?} not in {v:?}"),
            other => panic!("{why:?}: {other:?}"),
        }
        assert_eq!(
            d.arrangement(seat),
            &before,
            "{why:?}: arrangement unchanged"
        );
        assert!(d.finished().is_empty());
        // A standard hand keeps exactly the two-player rules.
        let two_player: Vec<Violation> = bad
            .violations(Seat::South)
            .into_iter()
            .map(Violation::Layout)
            .collect();
        assert_eq!(violations(&bad, &Hand::standard(), false), two_player);
        assert!(!why.code().is_empty() && !why.to_string().is_empty());
    }
}

#[test]
fn bombs_may_stand_on_the_front_row_when_the_option_says() {
    let l = layout(3);
    let bomb = find(&l, |_, p| p == Piece::Bomb);
    let front = find(&l, |s, p| s.rank() == 6 && p.rank().is_some());
    let forward = swapped(l, bomb, front);
    let mut off = standard(SiguoOptions::default(), &Seat4::ALL, 3);
    assert!(off.set_layout(East, forward.clone()).is_err());
    let on = SiguoOptions {
        bombs_on_front_row: true,
        ..SiguoOptions::default()
    };
    let mut d = standard(on, &Seat4::ALL, 3);
    d.set_layout(East, forward.clone()).unwrap();
    assert_eq!(d.arrangement(East), &forward);
}

#[test]
fn mines_beyond_five_may_stand_forward_and_no_more() {
    let hand = Hand::from_counts([
        (Piece::Mine, 7),
        (Piece::Flag, 1),
        (Piece::Engineer, 9),
        (Piece::Captain, 8),
    ])
    .unwrap();
    let mut rng = StdRng::seed_from_u64(4);
    let l = random_arrangement(&hand, &mut rng);
    assert!(violations(&l, &hand, false).is_empty());
    // Push mines forward one at a time: two may stand there, a third may not.
    let mut l = l;
    let mut pushed = 0;
    while pushed < 3 {
        let back_mine = find(&l, |s, p| p == Piece::Mine && s.rank() <= 2);
        let ahead = find(&l, |s, p| s.rank() >= 3 && p != Piece::Mine);
        l.swap(back_mine, ahead);
        pushed =
            l.0.iter()
                .filter(|&(&s, &p)| p == Piece::Mine && s.rank() >= 3)
                .count();
        let v = violations(&l, &hand, false);
        if pushed <= 2 {
            assert!(v.is_empty(), "{pushed} forward: {v:?}");
        } else {
            assert_eq!(
                v,
                vec![Violation::MinesForward {
                    mines: 7,
                    forward: 3,
                    allowed: 2
                }]
            );
        }
    }
    // Five mines or fewer all stay back.
    let five = Hand::from_counts([
        (Piece::Mine, 5),
        (Piece::Flag, 1),
        (Piece::Engineer, 9),
        (Piece::Captain, 10),
    ])
    .unwrap();
    let mut l = random_arrangement(&five, &mut rng);
    let back_mine = find(&l, |s, p| p == Piece::Mine && s.rank() <= 2);
    let ahead = find(&l, |s, _| s.rank() == 4);
    l.swap(back_mine, ahead);
    assert_eq!(
        violations(&l, &five, false),
        vec![Violation::Layout(LayoutViolation::MineForward(ahead))]
    );
}

#[test]
fn two_player_layouts_load_unchanged_at_every_seat() {
    let mut rng = StdRng::seed_from_u64(5);
    let mut d = standard(SiguoOptions::default(), &Seat4::ALL, 5);
    // A South layout as it is, and a North one as its owner sees it.
    let south = layout(6);
    let north = Layout::random(Seat::North, &mut rng).to_own_view(Seat::North);
    let saved = [south.clone(), north.clone(), south.clone(), north.clone()];
    for (seat, l) in Seat4::ALL.into_iter().zip(&saved) {
        d.set_layout(seat, l.clone()).unwrap();
        d.ready(seat).unwrap();
    }
    let g = d.start(Options::default(), &mut rng).unwrap();
    for (seat, l) in Seat4::ALL.into_iter().zip(&saved) {
        for (&s, &p) in &l.0 {
            let t = g.position().get(station_of(seat, s).unwrap()).unwrap();
            assert_eq!(
                (t.piece, t.colour, t.shown),
                (p, seat, false),
                "{seat:?} {s}"
            );
        }
    }
    assert_eq!(g.position().tokens().count(), 100);
}

#[test]
fn swaps_ready_and_their_refusals() {
    let mut d = standard(SiguoOptions::default(), &Seat4::ALL[..3], 7);
    let before = d.arrangement(South).clone();
    let flag = find(&before, |_, p| p == Piece::Flag);
    let front = find(&before, |s, _| s.rank() == 6);
    d.swap(South, flag, front).unwrap();
    assert_eq!(d.arrangement(South).0[&front], Piece::Flag);
    // Not ready while the flag stands outside a headquarters.
    assert_eq!(
        d.ready(South),
        Err(DeployError::Invalid(vec![Violation::Layout(
            LayoutViolation::FlagOutsideHeadquarters(front)
        )]))
    );
    assert!(!d.is_ready(South));
    assert_eq!(
        d.swap(South, sq("b3"), flag),
        Err(DeployError::NotYourPiece(sq("b3")))
    );
    d.swap(South, flag, front).unwrap();
    assert_eq!(d.arrangement(South), &before);
    d.ready(South).unwrap();
    assert_eq!(
        d.swap(South, flag, front),
        Err(DeployError::AlreadyReady(South))
    );
    assert_eq!(d.ready(South), Err(DeployError::AlreadyReady(South)));
    // 三国: West did not sit down; a seat that did needs a hand.
    assert_eq!(d.ready(West), Err(DeployError::NotSeated(West)));
    let no_hand = Deployment4::new(
        SiguoOptions::default(),
        &Seat4::ALL,
        Hands::standard(&Seat4::ALL[..3]),
        &mut StdRng::seed_from_u64(7),
    );
    assert_eq!(no_hand.err(), Some(DeployError::NoHand(West)));
    assert_eq!(
        d.start(Options::default(), &mut StdRng::seed_from_u64(0))
            .err(),
        Some(DeployError::NotFinished)
    );
}

#[test]
fn expiry_keeps_valid_arrangements_and_replaces_broken_ones() {
    let mut rng = StdRng::seed_from_u64(8);
    let mut d = standard(SiguoOptions::default(), &Seat4::ALL, 8);
    d.ready(North).unwrap();
    let south = d.arrangement(South).clone();
    let kept = layout(9);
    d.set_layout(West, kept.clone()).unwrap();
    // East's arrangement is broken by a swap taking its flag to the front row.
    let hq = find(d.arrangement(East), |_, p| p == Piece::Flag);
    let front = find(d.arrangement(East), |s, _| s.rank() == 6);
    d.swap(East, hq, front).unwrap();
    assert!(!d.violations(East).is_empty());
    d.expire(&mut rng);
    assert!(d.is_done());
    assert_eq!(d.finished(), &[North, South, East, West]);
    assert!(
        d.violations(East).is_empty(),
        "East got a valid arrangement"
    );
    assert_eq!(d.arrangement(West), &kept, "West's valid one was kept");
    assert_eq!(d.arrangement(South), &south, "so was South's first one");
    let g = d.start(Options::default(), &mut rng).unwrap();
    assert_eq!(g.to_move(), North, "the first to finish moves first");
}

#[test]
fn the_first_mover_is_the_first_to_finish_or_drawn_at_random() {
    let mut d = standard(SiguoOptions::default(), &Seat4::ALL, 10);
    for seat in [West, North, South, East] {
        d.ready(seat).unwrap();
    }
    let mut rng = StdRng::seed_from_u64(10);
    assert_eq!(d.first_mover(&mut rng), Some(West));
    let random = SiguoOptions {
        first_mover: FirstMover::Random,
        ..SiguoOptions::default()
    };
    let mut firsts = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let mut d = standard(random, &Seat4::ALL[..3], seed);
        for seat in [North, South, East] {
            d.ready(seat).unwrap();
        }
        let g = d
            .start(Options::default(), &mut StdRng::seed_from_u64(seed))
            .unwrap();
        assert_ne!(g.to_move(), West, "三国: West is not seated");
        assert_eq!(
            g.position().closed().len(),
            30,
            "West's area is out of play"
        );
        firsts.insert(g.to_move());
    }
    assert_eq!(firsts.len(), 3, "any seated seat may be drawn");
}

#[test]
fn fine_point_19_deployment_shows_a_seat_only_its_own_area_even_under_allies_visible() {
    let options = SiguoOptions {
        alliance: Alliance::Opposite,
        allies_visible: true,
        ..SiguoOptions::default()
    };
    let mut d = standard(options, &Seat4::ALL, 19);
    d.ready(East).unwrap();
    for seat in Seat4::ALL {
        let view = d.view(seat).unwrap();
        assert_eq!(view.pieces.len(), 25);
        assert!(view.pieces.keys().all(|s| s.seat() == Some(seat)));
        assert_eq!(view.ready, vec![East]);
        let json = serde_json::to_value(&view).unwrap();
        let stations = json["pieces"].as_object().unwrap();
        assert_eq!(stations.len(), 25);
        for key in stations.keys() {
            let at: Station = key.parse().unwrap();
            assert_eq!(at.seat(), Some(seat), "{seat:?} is shown {key}");
        }
    }
    // Once play starts, 友明 shows the ally.
    d.expire(&mut StdRng::seed_from_u64(19));
    let g = d
        .start(Options::default(), &mut StdRng::seed_from_u64(19))
        .unwrap();
    let sight = g.sight(Watcher::Seat(South));
    assert!(sight.sees(North) && sight.sees(South) && !sight.sees(East));
}

#[test]
fn random_arrangements_fit_every_hand_and_keep_the_start_rules_where_they_can() {
    let mut rng = StdRng::seed_from_u64(20);
    let standard = Hand::standard();
    for _ in 0..500 {
        let l = random_arrangement(&standard, &mut rng);
        assert!(violations(&l, &standard, false).is_empty());
        assert_eq!(l.violations(Seat::South), vec![]);
        for corner in [sq("a6"), sq("e6")] {
            assert_ne!(l.0[&corner], Piece::Engineer, "engineer on a front corner");
        }
        let other_hq = [sq("b1"), sq("d1")]
            .into_iter()
            .find(|s| l.0[s] != Piece::Flag)
            .unwrap();
        assert!(matches!(
            l.0[&other_hq],
            Piece::Mine | Piece::Lieutenant | Piece::Captain
        ));
    }
    let seated = Seat4::ALL;
    let mut flagless = 0;
    for _ in 0..500 {
        let hands = Hands::deal(&seated, &mut rng);
        for (_, hand) in hands.iter() {
            let l = random_arrangement(hand, &mut rng);
            assert!(violations(&l, hand, false).is_empty(), "{hand:?}: {l:?}");
            assert!(violations(&l, hand, true).is_empty());
            let guards = hand.count(Piece::Mine)
                + hand.count(Piece::Lieutenant)
                + hand.count(Piece::Captain);
            let empty_hqs = 2 - hand.count(Piece::Flag);
            if guards >= empty_hqs {
                for hq in [sq("b1"), sq("d1")] {
                    assert!(matches!(
                        l.0[&hq],
                        Piece::Flag | Piece::Mine | Piece::Lieutenant | Piece::Captain
                    ));
                }
            }
            flagless += usize::from(hand.count(Piece::Flag) == 0);
        }
    }
    assert!(flagless > 0, "hands without a flag were arranged too");
}
