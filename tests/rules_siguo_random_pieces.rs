//! 乱战 (RULES §5.2 option `random_pieces`, §5.3, §5.9 points 17 and 18): the seated
//! players' sets shuffled and dealt as hands, committed and revealed; flags beyond two
//! dealt as generals; two flags, none, and the flags shown when the last marshal falls.

use Seat4::*;
use junqi::rules::hidden_game::{Defeat, HiddenGame, Step};
use junqi::rules::siguo::hand::HandError;
use junqi::rules::siguo::{Alliance, FourPlayer, Hand, HandDeal, Hands, Seat4, Station};
use junqi::rules::{Options, Piece, Position, Token, Variant};
use junqi::selfplay_siguo::{Table, new_game_with};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;

type Four = HiddenGame<FourPlayer>;

fn st(name: &str) -> Station {
    name.parse().unwrap()
}

fn game(pieces: &[(&str, Piece, Seat4)], first: Seat4) -> Four {
    let pos = Position::with_tokens(
        pieces
            .iter()
            .map(|&(s, p, seat)| (st(s), Token::hidden(p, seat))),
    );
    Four::new(
        Variant::Siguo,
        Options::default(),
        Alliance::None,
        pos,
        &Seat4::ALL,
        first,
    )
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

/// A captain of each seat in the middle of its area, free to step about.
fn captains() -> Vec<(&'static str, Piece, Seat4)> {
    vec![
        ("Sc3", Piece::Captain, South),
        ("Ec3", Piece::Captain, East),
        ("Nc3", Piece::Captain, North),
        ("Wc3", Piece::Captain, West),
    ]
}

fn hand(entries: &[(Piece, u8)]) -> Hand {
    Hand::from_counts(entries.iter().copied()).unwrap()
}

#[test]
fn fine_point_17_flags_beyond_two_are_dealt_as_generals() {
    let mut dealt = vec![Piece::Flag; 4];
    dealt.extend(std::iter::repeat_n(Piece::Engineer, 12));
    dealt.extend(std::iter::repeat_n(Piece::Captain, 9));
    let h = Hand::dealt(&dealt).unwrap();
    assert_eq!(h.count(Piece::Flag), 2);
    assert_eq!(h.count(Piece::General), 2);
    assert_eq!(h.count(Piece::Engineer), 12);
    // Three flags: one general.
    let mut dealt = vec![Piece::Flag; 3];
    dealt.extend(std::iter::repeat_n(Piece::Major, 8));
    dealt.extend(std::iter::repeat_n(Piece::Captain, 12));
    dealt.extend(std::iter::repeat_n(Piece::Lieutenant, 2));
    let h = Hand::dealt(&dealt).unwrap();
    assert_eq!((h.count(Piece::Flag), h.count(Piece::General)), (2, 1));
    // A hand is never more than two flags, however it is written.
    assert_eq!(
        Hand::from_counts([
            (Piece::Flag, 3),
            (Piece::Major, 8),
            (Piece::Captain, 12),
            (Piece::Mine, 2)
        ]),
        Err(HandError::TooManyFlags { found: 3 })
    );
    // Over many deals no hand holds a third flag, and the generals make up for them.
    let mut rng = StdRng::seed_from_u64(17);
    let mut converted = 0;
    for _ in 0..2_000 {
        let hands = Hands::deal(&Seat4::ALL, &mut rng);
        let flags: u32 = hands
            .iter()
            .map(|(_, h)| u32::from(h.count(Piece::Flag)))
            .sum();
        let generals: u32 = hands
            .iter()
            .map(|(_, h)| u32::from(h.count(Piece::General)))
            .sum();
        assert!(hands.iter().all(|(_, h)| h.count(Piece::Flag) <= 2));
        assert_eq!(flags + generals, 8);
        converted += 4 - flags;
    }
    assert!(converted > 0, "some deal gave a seat three or four flags");
}

#[test]
fn fine_point_17_either_of_two_flags_taken_defeats_the_seat() {
    for taken in ["Sb1", "Sd1"] {
        let mut pieces = captains();
        pieces.extend([
            ("Sb1", Piece::Flag, South),
            ("Sd1", Piece::Flag, South),
            ("Sb2", Piece::Engineer, East),
            ("Sd2", Piece::Engineer, East),
        ]);
        let mut g = game(&pieces, East);
        let from = if taken == "Sb1" { "Sb2" } else { "Sd2" };
        let applied = mv(&mut g, East, from, taken);
        assert_eq!(applied.defeated.len(), 1, "taking {taken}");
        assert_eq!(applied.defeated[0].0, South);
        assert_eq!(g.defeat(South), Some(Defeat::FlagTaken));
        // Its other flag left the board with the rest of its pieces.
        assert!(
            g.position()
                .tokens()
                .all(|(_, t)| t.colour != South || t.piece != Piece::Flag)
        );
    }
}

#[test]
fn fine_point_17_a_seat_without_a_flag_cannot_lose_by_flag() {
    let mut pieces = captains();
    pieces.extend([
        ("Sb1", Piece::Mine, South),
        ("Sd1", Piece::Captain, South),
        ("Sb2", Piece::Engineer, East),
        ("Sd2", Piece::Marshal, East),
    ]);
    let mut g = game(&pieces, East);
    let a = mv(&mut g, East, "Sb2", "Sb1");
    assert!(a.defeated.is_empty());
    mv(&mut g, North, "Nc3", "Nc2");
    mv(&mut g, West, "Wc3", "Wc2");
    mv(&mut g, South, "Sc3", "Sc2");
    let a = mv(&mut g, East, "Sd2", "Sd1");
    assert!(a.defeated.is_empty(), "both HQs taken, no flag among them");
    assert!(g.is_in_play(South));
    // And in random 乱战 games a seat dealt no flag is never defeated by one.
    let mut rng = StdRng::seed_from_u64(170);
    let mut flagless = 0;
    for _ in 0..300 {
        let table = Table {
            alliance: Alliance::None,
            seats: 4,
            allies_visible: false,
        };
        let mut g = new_game_with(table, true, &mut rng);
        let none: Vec<Seat4> = Seat4::ALL
            .into_iter()
            .filter(|&s| g.position().count(s, Piece::Flag) == 0)
            .collect();
        if none.is_empty() {
            continue;
        }
        flagless += none.len();
        play(&mut g, &mut rng, |_, _, _| {});
        for s in none {
            assert_ne!(g.defeat(s), Some(Defeat::FlagTaken), "{s:?} had no flag");
        }
    }
    assert!(flagless > 0, "some deal left a seat without a flag");
}

#[test]
fn fine_point_17_flags_show_when_the_last_marshal_falls() {
    let mut pieces = captains();
    pieces.extend([
        ("Sb1", Piece::Flag, South),
        ("Sd1", Piece::Flag, South),
        ("Sa3", Piece::Marshal, South),
        ("Se3", Piece::Marshal, South),
        ("Sa4", Piece::Bomb, East),
        ("Se4", Piece::Bomb, East),
    ]);
    let mut g = game(&pieces, East);
    let first = mv(&mut g, East, "Sa4", "Sa3");
    assert!(
        first.flags_shown.is_empty(),
        "one marshal left: flags hidden"
    );
    assert!(!g.position().get(st("Sb1")).unwrap().shown);
    mv(&mut g, North, "Nc3", "Nc2");
    mv(&mut g, West, "Wc3", "Wc2");
    mv(&mut g, South, "Sc3", "Sc2");
    let last = mv(&mut g, East, "Se4", "Se3");
    let mut shown = last.flags_shown.clone();
    shown.sort();
    assert_eq!(shown, vec![st("Sb1"), st("Sd1")], "all its flags shown");
    assert!(g.position().get(st("Sb1")).unwrap().shown);
    assert!(g.position().get(st("Sd1")).unwrap().shown);
}

#[test]
fn fine_point_17_a_hand_without_a_marshal_never_shows_its_flags() {
    let mut rng = StdRng::seed_from_u64(171);
    let (mut checked, mut shown_elsewhere) = (0, 0);
    for _ in 0..300 {
        let table = Table {
            alliance: Alliance::None,
            seats: 4,
            allies_visible: false,
        };
        let mut g = new_game_with(table, true, &mut rng);
        let marshals: Vec<u8> = Seat4::ALL
            .iter()
            .map(|&s| g.position().count(s, Piece::Marshal))
            .collect();
        play(&mut g, &mut rng, |before, after, shown| {
            for &f in shown {
                let seat = before.position().get(f).unwrap().colour;
                assert!(marshals[seat.index()] > 0, "{seat:?} was dealt no marshal");
                assert_eq!(
                    after.position().count(seat, Piece::Marshal),
                    0,
                    "its last fell"
                );
                let mut flags = after
                    .position()
                    .tokens()
                    .filter(|(_, t)| t.colour == seat && t.piece == Piece::Flag);
                assert!(flags.all(|(_, t)| t.shown), "all its flags shown");
                shown_elsewhere += 1;
            }
        });
        checked += marshals.iter().filter(|&&m| m == 0).count();
    }
    assert!(checked > 0, "some deal gave a seat no marshal");
    assert!(shown_elsewhere > 0, "flags were shown in other games");
}

/// Plays `g` out at random; `on_shown` hears the game before and after each step and
/// the flags that step showed.
fn play(g: &mut Four, rng: &mut StdRng, mut on_shown: impl FnMut(&Four, &Four, &[Station])) {
    while !g.is_over() {
        let mut listed = Vec::new();
        g.for_each_move(|f, t| listed.push((f, t)));
        let (from, to) = *listed.choose(rng).unwrap();
        let before = g.clone();
        let seat = g.to_move();
        let applied = g.apply(seat, Step::Move { from, to }).unwrap();
        on_shown(&before, g, &applied.flags_shown);
    }
}

#[test]
fn fine_point_18_the_deal_shuffles_the_seated_sets_engineers_included() {
    let mut rng = StdRng::seed_from_u64(18);
    let (mut not_standard, mut engineers_vary) = (0, false);
    for _ in 0..500 {
        let hands = Hands::deal(&Seat4::ALL, &mut rng);
        // The four hands add up to four standard sets, flags turned generals aside.
        assert_eq!(Hands::new(hands.iter().map(|(s, h)| (s, *h))), Ok(hands));
        for p in Piece::ALL {
            let total: u32 = hands.iter().map(|(_, h)| u32::from(h.count(p))).sum();
            match p {
                Piece::Flag | Piece::General => {}
                _ => assert_eq!(total, 4 * u32::from(p.count()), "{p}"),
            }
        }
        for (_, h) in hands.iter() {
            assert_eq!(h.pieces().count(), 25);
            not_standard += usize::from(!h.is_standard());
            engineers_vary |= h.count(Piece::Engineer) != 3;
        }
    }
    assert!(
        not_standard > 1_900,
        "hands are random: {not_standard} of 2,000"
    );
    assert!(
        engineers_vary,
        "engineers are dealt like the rest, not set aside"
    );
    // 三国 deals the three players' sets.
    let three = Hands::deal(&Seat4::ALL[..3], &mut rng);
    assert!(three.get(West).is_none());
    let engineers: u8 = three.iter().map(|(_, h)| h.count(Piece::Engineer)).sum();
    assert_eq!(engineers, 9);
}

#[test]
fn the_deal_commitment_verifies_and_fails_when_tampered() {
    let mut rng = StdRng::seed_from_u64(181);
    let deal = HandDeal::random(&Seat4::ALL, &mut rng);
    assert_eq!(deal.commitment.len(), 64);
    assert!(HandDeal::verifies(
        &deal.hands,
        &deal.salt,
        &deal.commitment
    ));
    // Another salt, or hands with one piece moved between two seats, fail.
    assert!(!HandDeal::verifies(&deal.hands, "00", &deal.commitment));
    let (south, east) = (
        deal.hands.get(South).unwrap(),
        deal.hands.get(East).unwrap(),
    );
    let give = south
        .entries()
        .map(|(p, _)| p)
        .find(|&p| p != Piece::Flag)
        .unwrap();
    let take = east
        .entries()
        .map(|(p, _)| p)
        .find(|&p| p != Piece::Flag && p != give)
        .unwrap();
    let shifted = |h: &Hand, out: Piece, into: Piece| {
        Hand::from_counts(
            h.entries()
                .map(|(p, n)| (p, n - u8::from(p == out)))
                .chain([(into, 1)]),
        )
        .unwrap()
    };
    let tampered = Hands::new(deal.hands.iter().map(|(s, h)| match s {
        South => (s, shifted(h, give, take)),
        East => (s, shifted(h, take, give)),
        _ => (s, *h),
    }))
    .unwrap();
    assert_ne!(tampered, deal.hands);
    assert!(!HandDeal::verifies(&tampered, &deal.salt, &deal.commitment));
}

#[test]
fn hands_have_a_stable_json_and_committed_text() {
    let standard = Hands::standard(&Seat4::ALL);
    let json = serde_json::to_value(standard).unwrap();
    assert_eq!(
        json["south"],
        serde_json::json!({"marshal": 1, "general": 1, "major_general": 2, "brigadier": 2,
            "colonel": 2, "major": 2, "captain": 3, "lieutenant": 3, "engineer": 3,
            "bomb": 2, "mine": 3, "flag": 1})
    );
    let back: Hands = serde_json::from_value(json).unwrap();
    assert_eq!(back, standard);
    let text = String::from_utf8(standard.committed_text()).unwrap();
    assert!(text.starts_with("south:marshal:1;south:general:1;south:major_general:2;"));
    assert!(text.ends_with(";west:mine:3;west:flag:1"));
    // A hand that is no deal of the sets is refused when read.
    let mut bad = serde_json::to_value(standard).unwrap();
    bad["east"]["marshal"] = 2.into();
    bad["east"]["general"] = 0.into();
    assert!(serde_json::from_value::<Hands>(bad).is_err());
    let too_many = serde_json::json!({"south": {"bomb": 25}});
    assert!(serde_json::from_value::<Hands>(too_many).is_err());
    assert_eq!(
        Hand::from_counts([(Piece::Bomb, 9), (Piece::Engineer, 12), (Piece::Captain, 4)]),
        Err(HandError::MoreThanFourSets {
            piece: Piece::Bomb,
            found: 9
        })
    );
    assert_eq!(
        Hand::from_counts([(Piece::Major, 8)]),
        Err(HandError::WrongSize { found: 8 })
    );
    // Any 25 within four sets' worth is a hand.
    let odd = hand(&[
        (Piece::Major, 8),
        (Piece::Captain, 12),
        (Piece::Flag, 2),
        (Piece::Mine, 3),
    ]);
    assert!(!odd.is_standard());
    assert_eq!(odd.pieces().filter(|&p| p == Piece::Flag).count(), 2);
}
