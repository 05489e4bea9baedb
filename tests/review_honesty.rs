//! 复盘分析 says only what the reviewed side could know: two games whose truth differs
//! only where that side cannot see (two face-down flip-chess pieces never flipped; two
//! of the opponent's standard pieces that never met anything, swapped) send that side
//! the same views and events, and so give the same review, entry for entry, for the
//! same seed. A review that peeked at the truth (the replay's all-seeing view, or the
//! game itself) would value the positions differently.

use junqi::engine::{self, Level};
use junqi::review::{self, Budget, Played};
use junqi::rules::deal::Deal;
use junqi::rules::view::EventView;
use junqi::rules::{Action, Game, Layout, Options, Piece, Seat, Square, View, Viewer};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// Small enough for a debug build, large enough to search a few plies.
const BUDGET: Budget = Budget {
    level: Level::Normal,
    share: 0.25,
    step_time: None,
};

/// What `seat` is sent after `action` in `game` (applied there).
fn told(game: &mut Game, seat: Seat, mover: Seat, action: Action) -> (EventView, View) {
    let applied = game.apply(mover, action, None).expect("a legal action");
    let viewer = Viewer::Seat(seat);
    let event = EventView::of(&applied, game.variant(), game.colours(), viewer);
    (event, View::of(game, viewer))
}

/// Plays `a` and `b` side by side, both seats picking with `pick` among the legal
/// actions of `a` (the same in `b` while `seat` is told the same), for at most `max`
/// steps and only while every event and view cut for `seat` is the same in both. The
/// actions played.
fn alike(
    a: &Game,
    b: &Game,
    seat: Seat,
    max: usize,
    mut pick: impl FnMut(&Game, &[Action]) -> Option<Action>,
) -> Vec<Played> {
    let (mut a, mut b) = (a.clone(), b.clone());
    assert_eq!(
        View::of(&a, Viewer::Seat(seat)),
        View::of(&b, Viewer::Seat(seat))
    );
    let mut played = Vec::new();
    let mut legal = Vec::new();
    while played.len() < max && !a.is_over() {
        legal.clear();
        a.legal_actions(&mut legal);
        let Some(action) = pick(&a, &legal) else {
            break;
        };
        let mover = a.to_move();
        if told(&mut a, seat, mover, action) != told(&mut b, seat, mover, action) {
            break;
        }
        played.push((mover, action, 0));
    }
    played
}

fn reviewed(start: &Game, played: &[Played], side: Seat) -> review::Review {
    review::review(start.clone(), played, side, BUDGET, 42, &mut |_, _| {}).expect("replays")
}

fn assert_same_reviews(a: &Game, b: &Game, played: &[Played], side: Seat, want: usize) {
    let ra = reviewed(a, played, side);
    let rb = reviewed(b, played, side);
    assert!(
        ra.entries.len() >= want,
        "only {} of {side}'s steps valued",
        ra.entries.len()
    );
    assert_eq!(ra.entries.len(), rb.entries.len());
    for (ea, eb) in ra.entries.iter().zip(&rb.entries) {
        assert_eq!(ea, eb, "step {}", ea.step);
    }
}

/// Flip chess: the same deal but for two face-down pieces of different kinds that
/// trade squares and are never flipped. Nobody sees them, so both seats' reviews match.
#[test]
fn flip_reviews_ignore_pieces_never_flipped() {
    let mut rng = StdRng::seed_from_u64(5);
    let deal_a = Deal::random(&mut rng);
    let entries: Vec<(Square, (Piece, junqi::rules::Colour))> = deal_a.entries().collect();
    let (x, px) = entries[0];
    let &(y, py) = entries
        .iter()
        .rev()
        .find(|&&(_, p)| p.0 != px.0)
        .expect("a deal has pieces of several kinds");
    let deal_b = Deal::from_entries(entries.iter().map(|&(s, (p, c))| {
        let (p, c) = if s == x {
            py
        } else if s == y {
            px
        } else {
            (p, c)
        };
        (s, p, c)
    }))
    .expect("a swap keeps the sets");
    let a = Game::new_flip(Options::default(), &deal_a, Seat::South);
    let b = Game::new_flip(Options::default(), &deal_b, Seat::South);
    assert_ne!(a, b, "the truth differs");
    // Any legal action but a flip of the two swapped pieces.
    let mut pick = StdRng::seed_from_u64(9);
    let played = alike(&a, &b, Seat::South, 60, |_, legal| {
        let open: Vec<Action> = legal
            .iter()
            .copied()
            .filter(|&l| l != Action::Flip(x) && l != Action::Flip(y))
            .collect();
        (!open.is_empty()).then(|| open[pick.random_range(0..open.len())])
    });
    assert_eq!(played.len(), 60, "the games stayed alike for 60 steps");
    for side in Seat::BOTH {
        assert_same_reviews(&a, &b, &played, side, 20);
    }
}

/// Standard 军棋: North's layout with two ordinary pieces of different kinds swapped.
/// South's review is the same over the steps in which nothing met either of them.
#[test]
fn standard_reviews_ignore_the_opponents_hidden_layout() {
    let mut rng = StdRng::seed_from_u64(7);
    let south = engine::deploy(Level::Hard, Seat::South, &mut rng);
    let north_a = Layout::random(Seat::North, &mut rng);
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
        .expect("ordinary pieces of several kinds");
    let mut north_b = north_a.clone();
    assert!(north_b.swap(s1, s2) && north_b.is_valid(Seat::North));
    let a = Game::new_standard(Options::default(), &south, &north_a, Seat::South);
    let b = Game::new_standard(Options::default(), &south, &north_b, Seat::South);
    assert_ne!(a, b, "the truth differs");
    // North moves the two swapped kinds when it can (half the time), so that South is
    // told of those moves (a hidden piece moved) without learning which piece it was.
    let mut pick = StdRng::seed_from_u64(11);
    let (k1, k2) = (p1, a.position().get(s2).expect("a piece").piece);
    let played = alike(&a, &b, Seat::South, 60, |g, legal| {
        let swapped: Vec<Action> = legal
            .iter()
            .copied()
            .filter(|&l| match l {
                Action::Move { from, to } => {
                    g.position().get(to).is_none()
                        && g.position()
                            .get(from)
                            .is_some_and(|t| t.piece == k1 || t.piece == k2)
                }
                _ => false,
            })
            .collect();
        let from = if g.to_move() == Seat::North && !swapped.is_empty() && pick.random::<bool>() {
            &swapped
        } else {
            legal
        };
        (!from.is_empty()).then(|| from[pick.random_range(0..from.len())])
    });
    assert!(played.len() >= 30, "only {} steps alike", played.len());
    assert_same_reviews(&a, &b, &played, Seat::South, 12);
}
