//! The computer opponent decides from what its seat may see, and nothing else: two
//! games that differ only in identities hidden from a seat give that seat the same
//! information set, and the engine the same decision for the same seed.

use junqi::engine::{self, Information, Level};
use junqi::rules::{Action, Colour, Game, Layout, Options, Piece, Position, Seat, Token, Variant};
use rand::SeedableRng;
use rand::rngs::StdRng;

fn sq(s: &str) -> junqi::rules::Square {
    s.parse().unwrap()
}

/// Same decision for every level and a few seeds; the information sets are equal.
fn same_decisions(a: &Game, b: &Game, seat: Seat) {
    let ia = Information::new(a, seat);
    let ib = Information::new(b, seat);
    assert_eq!(ia, ib, "the seat sees the same");
    for level in Level::ALL {
        for seed in 0..3 {
            let da = engine::choose(&ia, level, &mut StdRng::seed_from_u64(seed));
            let db = engine::choose(&ib, level, &mut StdRng::seed_from_u64(seed));
            assert_eq!(da, db, "{level:?} seed {seed}");
        }
    }
}

/// Flip chess mid-game: the same face-up pieces, the face-down ones shuffled.
#[test]
fn flip_decisions_ignore_face_down_identities() {
    let shown = [
        ("c6", Piece::General, Colour::Red),
        ("c7", Piece::Colonel, Colour::Blue),
        ("a2", Piece::Engineer, Colour::Red),
        ("e11", Piece::Bomb, Colour::Blue),
        ("b2", Piece::Captain, Colour::Red),
    ];
    let hidden_a = [
        ("a1", Piece::Marshal, Colour::Blue),
        ("c1", Piece::Mine, Colour::Red),
        ("d7", Piece::Flag, Colour::Blue),
        ("b6", Piece::Lieutenant, Colour::Red),
        ("e12", Piece::Mine, Colour::Blue),
        ("a12", Piece::Flag, Colour::Red),
    ];
    // The same kinds and colours on other squares.
    let hidden_b = [
        ("d7", Piece::Marshal, Colour::Blue),
        ("b6", Piece::Mine, Colour::Red),
        ("a1", Piece::Flag, Colour::Blue),
        ("a12", Piece::Lieutenant, Colour::Red),
        ("c1", Piece::Mine, Colour::Blue),
        ("e12", Piece::Flag, Colour::Red),
    ];
    let game = |hidden: &[(&str, Piece, Colour)]| {
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
    };
    let (a, b) = (game(&hidden_a), game(&hidden_b));
    assert_ne!(a, b);
    same_decisions(&a, &b, Seat::South);
}

/// Standard 军棋: South's information is the same whatever North deployed, at the start
/// and after quiet moves by both sides.
#[test]
fn standard_decisions_ignore_the_opponent_layout() {
    let mut rng = StdRng::seed_from_u64(7);
    let south = engine::deploy(Level::Hard, Seat::South, &mut rng);
    let north_a = Layout::random(Seat::North, &mut rng);
    let mut north_b = north_a.clone();
    // Two back-row pieces trade places: a12 and c12 (North's rank 1).
    north_b.swap(sq("a12"), sq("c12"));
    if north_a == north_b {
        north_b.swap(sq("a11"), sq("e12"));
    }
    assert_ne!(north_a, north_b);
    let mut a = Game::new_standard(Options::default(), &south, &north_a, Seat::South);
    let mut b = Game::new_standard(Options::default(), &south, &north_b, Seat::South);
    let mut ia = Information::new(&a, Seat::South);
    let mut ib = Information::new(&b, Seat::South);
    same_decisions(&a, &b, Seat::South);
    // A few quiet moves that leave the swapped squares alone.
    let mut legal = Vec::new();
    for step in 0..8 {
        legal.clear();
        a.legal_actions(&mut legal);
        let seat = a.to_move();
        let pick = legal.iter().copied().find(|&m| match m {
            Action::Move { from, to } => {
                a.position().get(to).is_none()
                    && ![sq("a12"), sq("c12"), sq("a11"), sq("e12")].contains(&from)
                    && (step + from.index()) % 3 == 0
            }
            _ => false,
        });
        let Some(m) = pick.or_else(|| {
            legal
                .iter()
                .copied()
                .find(|&m| matches!(m, Action::Move { to, .. } if a.position().get(to).is_none()))
        }) else {
            break;
        };
        let pa = a.apply(seat, m, None).unwrap();
        let pb = b.apply(seat, m, None).unwrap();
        ia.observe(&pa, &a);
        ib.observe(&pb, &b);
        assert_eq!(ia, ib);
    }
    for level in Level::ALL {
        let da = engine::choose(&ia, level, &mut StdRng::seed_from_u64(5));
        let db = engine::choose(&ib, level, &mut StdRng::seed_from_u64(5));
        assert_eq!(da, db);
    }
}
