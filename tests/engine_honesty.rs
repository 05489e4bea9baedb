//! The computer opponent decides from what its seat is sent, and nothing else: its
//! information set is built from the seat's `View` and kept up to date from each
//! action's `EventView` cut for the seat, as a socket for that seat would be told. Two
//! games whose truth differs only in identities hidden from the seat send it the same
//! views and events, and so give the engine the same information set and, for the same
//! seed, the same decisions, step after step, until an event tells the seat something
//! that differs.

use junqi::engine::{self, Decision, Information, Level};
use junqi::rules::view::EventView;
use junqi::rules::{
    Action, Applied, Colour, Game, Layout, Options, Piece, Position, Seat, Square, Token, Variant,
    View, Viewer,
};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

fn seat_view(game: &Game, seat: Seat) -> View {
    View::of(game, Viewer::Seat(seat))
}

/// What a socket for `seat` is sent after `applied` (`game` is the game after it).
fn cut(applied: &Applied, game: &Game, seat: Seat) -> (EventView, View) {
    let viewer = Viewer::Seat(seat);
    let event = EventView::of(applied, game.variant(), game.colours(), viewer);
    (event, View::of(game, viewer))
}

/// The same decision from both information sets, for each of `levels` and `seeds`.
fn same_decisions(ia: &Information, ib: &Information, levels: &[Level], seeds: u64) -> Decision {
    assert_eq!(ia, ib, "the seat sees the same");
    let mut last = None;
    for &level in levels {
        for seed in 0..seeds {
            let da = engine::choose(ia, level, &mut StdRng::seed_from_u64(seed));
            let db = engine::choose(ib, level, &mut StdRng::seed_from_u64(seed));
            assert_eq!(da, db, "{level:?} seed {seed}");
            last = Some(da);
        }
    }
    last.expect("at least one level and seed")
}

/// How far two games stayed alike for `seat`.
struct Alike {
    steps: u32,
    attacks: u32,
}

/// Plays `a` and `b` side by side: `seat` by the engine at `level` from the
/// information set each game sends it, the other seat by `other`'s pick among its legal
/// actions (the same in both games). Stops after `max` steps, at the end, or once an
/// event or view cut for `seat` differs between the games; until then the two
/// information sets are equal and so is every decision.
fn play_alike(
    a: &mut Game,
    b: &mut Game,
    seat: Seat,
    level: Level,
    max: u32,
    mut other: impl FnMut(&[Action]) -> Action,
) -> Alike {
    let options = *a.options();
    let mut ia = Information::new(seat_view(a, seat), options);
    let mut ib = Information::new(seat_view(b, seat), options);
    let mut alike = Alike {
        steps: 0,
        attacks: 0,
    };
    let (mut la, mut lb) = (Vec::new(), Vec::new());
    while alike.steps < max && !a.is_over() {
        let mover = a.to_move();
        let action = if mover == seat {
            let d = same_decisions(&ia, &ib, &[level], 1);
            d.action().expect("the seat to move has something to do")
        } else {
            la.clear();
            lb.clear();
            a.legal_actions(&mut la);
            b.legal_actions(&mut lb);
            assert_eq!(la, lb, "the other seat's moves do not depend on the swap");
            other(&la)
        };
        let attack = matches!(action, Action::Move { to, .. } if a.position().get(to).is_some());
        let pa = a.apply(mover, action, None).unwrap();
        let pb = b.apply(mover, action, None).unwrap();
        let (ea, va) = cut(&pa, a, seat);
        let (eb, vb) = cut(&pb, b, seat);
        if (&ea, &va) != (&eb, &vb) {
            break;
        }
        ia.observe(&ea, va);
        ib.observe(&eb, vb);
        assert_eq!(ia, ib, "step {}", alike.steps);
        alike.steps += 1;
        alike.attacks += u32::from(attack);
    }
    same_decisions(&ia, &ib, &Level::ALL, 2);
    alike
}

fn flip_game(hidden: &[(&str, Piece, Colour)]) -> Game {
    let shown = [
        ("c6", Piece::General, Colour::Red),
        ("b3", Piece::Colonel, Colour::Red),
        ("a2", Piece::Engineer, Colour::Red),
        ("b2", Piece::Captain, Colour::Red),
        ("d4", Piece::Lieutenant, Colour::Red),
        ("c9", Piece::Colonel, Colour::Blue),
        ("d10", Piece::Major, Colour::Blue),
        ("b10", Piece::Captain, Colour::Blue),
        ("e11", Piece::Bomb, Colour::Blue),
        ("a10", Piece::Engineer, Colour::Blue),
    ];
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

/// Flip chess mid-game: the same face-up pieces, the face-down ones shuffled. Nobody
/// can see a face-down piece, so both seats are sent the same until one is flipped.
#[test]
fn flip_decisions_ignore_face_down_identities() {
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
    let (mut a, mut b) = (flip_game(&hidden_a), flip_game(&hidden_b));
    assert_ne!(a, b);
    for seat in Seat::BOTH {
        assert_eq!(seat_view(&a, seat), seat_view(&b, seat));
    }
    // North moves a face-up piece at random while it can; a flip would tell both
    // seats something that differs.
    let mut rng = StdRng::seed_from_u64(3);
    let alike = play_alike(&mut a, &mut b, Seat::South, Level::Normal, 40, |legal| {
        let moves: Vec<Action> = legal
            .iter()
            .copied()
            .filter(|a| matches!(a, Action::Move { .. }))
            .collect();
        let from = if moves.is_empty() { legal } else { &moves };
        from[rng.random_range(0..from.len())]
    });
    // The deepening 困难-era search flips sooner than the old one did (a flip that
    // ends the stretch tells the two games apart), so the stretch is shorter: 8
    // steps from this start, South deciding at each of its turns in both games.
    assert!(alike.steps >= 6, "only {} steps alike", alike.steps);
    assert!(alike.attacks >= 1, "no attack among the steps alike");
}

/// Standard 军棋: South is sent the same whatever North deployed where South cannot
/// see, at the start and over many steps of play (attacks included) while no combat
/// tells the two layouts apart.
#[test]
fn standard_decisions_ignore_the_opponent_layout() {
    let mut rng = StdRng::seed_from_u64(7);
    let south = engine::deploy(Level::Hard, Seat::South, &mut rng);
    let north_a = Layout::random(Seat::North, &mut rng);
    // Two North pieces of different kinds that move alike and may stand anywhere
    // (neither a mine, the flag, a bomb nor an engineer) trade places: North's own
    // moves and the layout's legality stay the same in both games.
    let ordinary = |p: Piece| p.movable() && p != Piece::Engineer && p != Piece::Bomb;
    let pieces: Vec<(Square, Piece)> = north_a
        .0
        .iter()
        .map(|(&s, &p)| (s, p))
        .filter(|&(_, p)| ordinary(p))
        .collect();
    let (s1, p1) = pieces[0];
    let &(s2, _) = pieces
        .iter()
        .rev()
        .find(|&&(_, p)| p != p1)
        .expect("a layout has ordinary pieces of several kinds");
    let mut north_b = north_a.clone();
    assert!(north_b.swap(s1, s2));
    assert!(
        north_b.is_valid(Seat::North),
        "the swap keeps the layout legal"
    );
    let mut a = Game::new_standard(Options::default(), &south, &north_a, Seat::South);
    let mut b = Game::new_standard(Options::default(), &south, &north_b, Seat::South);
    assert_ne!(a, b);
    assert_eq!(seat_view(&a, Seat::South), seat_view(&b, Seat::South));
    assert_ne!(
        seat_view(&a, Seat::North),
        seat_view(&b, Seat::North),
        "North sees its own pieces"
    );
    let mut pick = StdRng::seed_from_u64(11);
    let alike = play_alike(&mut a, &mut b, Seat::South, Level::Easy, 60, |legal| {
        legal[pick.random_range(0..legal.len())]
    });
    assert!(alike.steps >= 40, "only {} steps alike", alike.steps);
    assert!(alike.attacks >= 1, "no attack among the steps alike");
}
