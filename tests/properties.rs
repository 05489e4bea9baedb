//! Properties of random self-play (proptest): what must hold in every game.

use junqi::record::{Record, Setup};
use junqi::rules::board::{neighbours, rail_lines, rail_neighbours};
use junqi::rules::game::Effect;
use junqi::rules::view::{EventView, can_see};
use junqi::rules::{
    Action, Combat, Deal, Game, Options, Seat, Square, SquareSet, StationKind, Variant, View,
    Viewer,
};
use junqi::selfplay::{new_game, random_game};
use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

fn variant() -> impl Strategy<Value = Variant> {
    prop_oneof![Just(Variant::Flip), Just(Variant::Standard)]
}

const VIEWERS: [Viewer; 3] = [
    Viewer::Seat(Seat::South),
    Viewer::Seat(Seat::North),
    Viewer::Spectator,
];

/// Checks that no serialised view or event names a piece the viewer may not see (and
/// that once a standard game is over, everyone sees everything).
fn assert_views_hide(game: &Game) {
    let all_known = game.variant() == Variant::Standard && game.is_over();
    for viewer in VIEWERS {
        let view = serde_json::to_value(View::of(game, viewer)).unwrap();
        for (s, t) in game.position().tokens() {
            let cell = &view["board"][s.to_string()];
            if all_known || can_see(game.variant(), game.colours(), viewer, t) {
                assert_eq!(cell["piece"], t.piece.name(), "{viewer:?} should see {s}");
            } else {
                assert!(
                    cell.get("piece").is_none(),
                    "{viewer:?} sees hidden {s}: {cell}"
                );
                if game.variant() == Variant::Flip {
                    assert!(
                        cell.get("colour").is_none(),
                        "{viewer:?} sees the colour of face-down {s}"
                    );
                }
                assert_eq!(cell["face"], "down");
            }
        }
    }
}

/// The flips and moves of the seat to move, worked out square by square from the rule
/// book (RULES §2, §3, §4) without the position's masks: what the fast move generator
/// must agree with.
fn reference_actions(game: &Game) -> Vec<Action> {
    let pos = game.position();
    let variant = game.variant();
    let mut out = Vec::new();
    if game.is_over() {
        return out;
    }
    if variant == Variant::Flip {
        out.extend(
            Square::all()
                .filter(|&s| pos.get(s).is_some_and(|t| !t.shown))
                .map(Action::Flip),
        );
    }
    let Some(colour) = game.colour_of(game.to_move()) else {
        return out;
    };
    for from in Square::all() {
        let Some(t) = pos.get(from) else { continue };
        let locked = variant == Variant::Standard && from.kind() == StationKind::Headquarters;
        if t.colour != colour
            || !t.piece.movable()
            || (variant == Variant::Flip && !t.shown)
            || locked
        {
            continue;
        }
        let mut reach: SquareSet = neighbours(from);
        if from.kind() == StationKind::Rail {
            if t.piece == junqi::rules::Piece::Engineer {
                // Breadth-first over rail edges, through empty stations only.
                let mut queue = vec![from];
                let mut seen = vec![from];
                while let Some(s) = queue.pop() {
                    for n in rail_neighbours(s).iter() {
                        if seen.contains(&n) {
                            continue;
                        }
                        seen.push(n);
                        reach.insert(n);
                        if pos.get(n).is_none() {
                            queue.push(n);
                        }
                    }
                }
            } else {
                for line in rail_lines() {
                    let Some(i) = line.iter().position(|&s| s == from) else {
                        continue;
                    };
                    let ahead = line[i + 1..].iter();
                    let behind = line[..i].iter().rev();
                    for run in [ahead.collect::<Vec<_>>(), behind.collect()] {
                        for &s in run {
                            reach.insert(s);
                            if pos.get(s).is_some() {
                                break;
                            }
                        }
                    }
                }
            }
        }
        for to in Square::all().filter(|&to| reach.contains(to)) {
            let allowed = pos.get(to).is_none()
                || pos
                    .attack_refusal(variant.caps(), game.options(), t.colour.into(), t, to)
                    .is_none();
            if allowed {
                out.push(Action::Move { from, to });
            }
        }
    }
    out
}

/// Checks every way of asking for the legal actions against `reference_actions`.
fn assert_generators_agree(game: &Game) -> Vec<Action> {
    let expected = reference_actions(game);
    let mut listed = Vec::new();
    game.legal_actions(&mut listed);
    assert_eq!(listed, expected, "legal_actions in {:?}", game.position());
    let legal = game.legal();
    assert_eq!(legal.len(), expected.len());
    assert_eq!(legal.iter().collect::<Vec<_>>(), expected);
    for (i, &a) in expected.iter().enumerate() {
        assert_eq!(legal.get(i), Some(a), "index {i}");
    }
    assert_eq!(legal.get(expected.len()), None);
    if !game.is_over() {
        assert_eq!(game.has_legal_action(), !expected.is_empty());
    }
    for from in Square::all() {
        let to: SquareSet = expected
            .iter()
            .filter_map(|a| match *a {
                Action::Move { from: f, to } if f == from => Some(to),
                _ => None,
            })
            .collect();
        assert_eq!(game.destinations(from), to, "destinations of {from}");
    }
    expected
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn the_move_generator_matches_the_rule_book(
        seed in any::<u64>(),
        variant in variant(),
        no_suicide in any::<bool>(),
    ) {
        let mut rng = StdRng::seed_from_u64(seed);
        let options = Options { no_suicide, ..Options::default() };
        let mut game = if variant.caps().deals() {
            Game::new_flip(options, &Deal::random(&mut rng), Seat::South)
        } else {
            new_game(variant, &mut rng).0
        };
        while !game.is_over() {
            let legal = assert_generators_agree(&game);
            let a = legal[rng.random_range_usize(legal.len())];
            game.apply(game.to_move(), a, None).unwrap();
        }
        assert_generators_agree(&game);
    }

    #[test]
    fn pieces_leave_the_board_only_through_combat(seed in any::<u64>(), variant in variant()) {
        let mut rng = StdRng::seed_from_u64(seed);
        let (mut game, _) = new_game(variant, &mut rng);
        let mut legal = Vec::new();
        while !game.is_over() {
            legal.clear();
            game.legal_actions(&mut legal);
            let a = legal[rng.random_range_usize(legal.len())];
            let before = game.position().occupied().len();
            let hidden_before = game.position().hidden().len();
            let applied = game.apply(game.to_move(), a, None).unwrap();
            let removed = before - game.position().occupied().len();
            let expected = match applied.effect {
                Effect::Moved { combat: Some(Combat::BothRemoved), .. } => 2,
                Effect::Moved { combat: Some(_), .. } => 1,
                _ => 0,
            };
            prop_assert_eq!(removed, expected, "{:?}", applied.effect);
            if let Effect::Flipped { .. } = applied.effect {
                prop_assert_eq!(game.position().hidden().len() + 1, hidden_before);
            }
        }
    }

    #[test]
    fn every_flip_game_ends_within_three_hundred_steps(seed in any::<u64>()) {
        let (game, record) = random_game(Variant::Flip, &mut StdRng::seed_from_u64(seed));
        prop_assert!(game.is_over());
        prop_assert!(game.steps() <= 300);
        prop_assert_eq!(record.actions.len() as u32, game.steps());
    }

    #[test]
    fn no_view_or_event_ever_holds_a_hidden_identity(seed in any::<u64>(), variant in variant()) {
        let mut rng = StdRng::seed_from_u64(seed);
        let (mut game, _) = new_game(variant, &mut rng);
        let mut legal = Vec::new();
        assert_views_hide(&game);
        while !game.is_over() {
            legal.clear();
            game.legal_actions(&mut legal);
            let a = legal[rng.random_range_usize(legal.len())];
            let applied = game.apply(game.to_move(), a, None).unwrap();
            for viewer in VIEWERS {
                let e = EventView::of(&applied, variant, game.colours(), viewer);
                if let Effect::Moved { mover, target, .. } = applied.effect {
                    let json = serde_json::to_value(&e).unwrap();
                    for (key, t) in [("mover", Some(mover)), ("target", target)] {
                        if let Some(t) = t
                            && !can_see(variant, game.colours(), viewer, t)
                        {
                            prop_assert!(json[key].get("piece").is_none(), "{:?} learns {} in {}", viewer, key, json);
                        }
                    }
                }
            }
            if game.steps() % 7 == 0 || game.is_over() {
                assert_views_hide(&game);
            }
        }
    }

    /// Shuffling the face-down pieces among their squares changes nothing anyone sees:
    /// no view can carry the hidden identities in any encoding or order.
    #[test]
    fn flip_views_do_not_depend_on_face_down_identities(seed in any::<u64>()) {
        let mut rng = StdRng::seed_from_u64(seed);
        let (game, record) = random_game(Variant::Flip, &mut rng);
        let Some(Setup::Deal(deal)) = &record.setup else { unreachable!() };
        let stops: Vec<usize> = (0..record.actions.len()).step_by(25).collect();
        for k in stops {
            let mut original = Game::new_flip(record.options, deal, record.first);
            for &(s, a) in &record.actions[..k] {
                original.apply(s, a, None).unwrap();
            }
            let hidden: Vec<_> = original.position().hidden().iter().collect();
            let mut pieces: Vec<_> = hidden.iter().map(|&s| deal.get(s).unwrap()).collect();
            pieces.shuffle(&mut rng);
            let scrambled_deal = Deal::from_entries(deal.entries().map(|(s, pc)| {
                let pc = hidden.iter().position(|&h| h == s).map_or(pc, |i| pieces[i]);
                (s, pc.0, pc.1)
            })).unwrap();
            let mut scrambled = Game::new_flip(record.options, &scrambled_deal, record.first);
            for &(s, a) in &record.actions[..k] {
                scrambled.apply(s, a, None).unwrap();
            }
            for viewer in VIEWERS {
                let a = serde_json::to_string(&View::of(&original, viewer)).unwrap();
                let b = serde_json::to_string(&View::of(&scrambled, viewer)).unwrap();
                prop_assert_eq!(a, b, "step {} viewer {:?}", k, viewer);
            }
        }
        prop_assert!(game.is_over());
    }

    #[test]
    fn an_exported_record_verifies_to_the_same_result(seed in any::<u64>(), variant in variant()) {
        let (game, record) = random_game(variant, &mut StdRng::seed_from_u64(seed));
        let text = serde_json::to_string(&record.to_json()).unwrap();
        let verdict = Record::parse_str(&text).unwrap().verify().unwrap();
        prop_assert_eq!(verdict.game.outcome(), game.outcome());
        prop_assert_eq!(verdict.game.steps(), game.steps());
        prop_assert_eq!(verdict.game.colours(), game.colours());
        prop_assert_eq!(verdict.score, game.score(1));
        prop_assert_eq!(verdict.commitment_checked, variant == Variant::Flip);
        let json = verdict.to_json();
        prop_assert_eq!(&json["valid"], true);
        prop_assert_eq!(json["steps"].as_u64(), Some(game.steps() as u64));
    }
}

/// `rand` 0.10 keeps `random_range` on an extension trait; one place for it here.
trait RangeExt {
    fn random_range_usize(&mut self, n: usize) -> usize;
}

impl RangeExt for StdRng {
    fn random_range_usize(&mut self, n: usize) -> usize {
        rand::RngExt::random_range(self, 0..n)
    }
}

#[test]
fn a_legal_action_list_is_what_apply_accepts() {
    // Every listed action is accepted, and a sample of unlisted flips and moves is refused.
    let mut rng = StdRng::seed_from_u64(11);
    for variant in [Variant::Flip, Variant::Standard] {
        let (mut game, _) = new_game(variant, &mut rng);
        let mut legal = Vec::new();
        while !game.is_over() {
            legal.clear();
            game.legal_actions(&mut legal);
            for from in junqi::rules::Square::all() {
                for to in junqi::rules::board::neighbours(from).iter() {
                    let a = Action::Move { from, to };
                    let mut copy = game.clone();
                    let ok = copy.apply(game.to_move(), a, None).is_ok();
                    assert_eq!(
                        ok,
                        legal.contains(&a),
                        "{a:?} listed={}",
                        legal.contains(&a)
                    );
                }
            }
            let a = legal[rand::RngExt::random_range(&mut rng, 0..legal.len())];
            game.apply(game.to_move(), a, None).unwrap();
        }
    }
}
