//! A random valid arrangement of any hand (RULES §5.8: 「超时则系统自动布阵」), keeping
//! §4.2's start rules where the hand allows: engineers off the two front corners, and
//! only a mine, lieutenant or captain in a headquarters without a flag.

use super::check::MINES_KEPT_BACK;
use crate::rules::board::Square;
use crate::rules::layout::{Layout, deployment_squares};
use crate::rules::piece::{Piece, Seat};
use crate::rules::siguo::hand::Hand;
use rand::Rng;
use rand::seq::{IndexedRandom, SliceRandom};

fn sq(file: u8, rank: u8) -> Square {
    Square::new(file, rank).expect("a square of the South half")
}

/// The arrangement being built: free squares and pieces still to place.
struct Builder {
    free: Vec<Square>,
    left: Vec<Piece>,
    layout: Layout,
}

impl Builder {
    fn place(&mut self, s: Square, p: Piece) {
        self.layout.0.insert(s, p);
        self.free.retain(|&x| x != s);
        let i = self
            .left
            .iter()
            .position(|&q| q == p)
            .expect("a piece still to place");
        self.left.swap_remove(i);
    }

    /// `p` on a random free square that `allowed` accepts, or on any free square when
    /// none does (a preference, not a rule); false when nothing is free.
    fn place_preferring<R: Rng + ?Sized>(
        &mut self,
        p: Piece,
        allowed: impl Fn(Square) -> bool,
        rng: &mut R,
    ) -> bool {
        let preferred: Vec<Square> = self.free.iter().copied().filter(|&s| allowed(s)).collect();
        let pool = if preferred.is_empty() {
            &self.free
        } else {
            &preferred
        };
        match pool.choose(rng).copied() {
            Some(s) => {
                self.place(s, p);
                true
            }
            None => false,
        }
    }
}

/// A random arrangement of `hand` in the South frame that every deployment rule
/// accepts, whichever way `bombs_on_front_row` is set: bombs are kept off the front
/// row all the same, as §4.2's random layout does.
///
/// Every hand (`Hand::from_counts`) fits: its at most two flags take the
/// headquarters, at most five mines must go on the ten squares of the last two ranks,
/// and at most eight bombs on the twenty behind the front row, which leaves at least
/// ten other pieces for its five squares.
pub fn random_arrangement<R: Rng + ?Sized>(hand: &Hand, rng: &mut R) -> Layout {
    let mut b = Builder {
        free: deployment_squares(Seat::South).collect(),
        left: hand.pieces().collect(),
        layout: Layout::default(),
    };
    let mut hqs = [sq(1, 1), sq(3, 1)];
    hqs.shuffle(rng);
    let flags = hand.count(Piece::Flag) as usize;
    for &hq in &hqs[..flags] {
        b.place(hq, Piece::Flag);
    }
    for &hq in &hqs[flags..] {
        let guards: Vec<Piece> = b
            .left
            .iter()
            .copied()
            .filter(|p| matches!(p, Piece::Mine | Piece::Lieutenant | Piece::Captain))
            .collect();
        let pick = guards.choose(rng).or_else(|| b.left.choose(rng)).copied();
        if let Some(p) = pick {
            b.place(hq, p);
        }
    }
    let back = |s: Square| s.rank() <= 2;
    let kept_back = hand.count(Piece::Mine).min(MINES_KEPT_BACK) as usize;
    let placed_back = b.layout.0.values().filter(|&&p| p == Piece::Mine).count();
    for _ in placed_back..kept_back {
        b.place_preferring(Piece::Mine, back, rng);
    }
    // A headquarters may have taken a bomb or an engineer when the hand had no guard.
    while b.left.contains(&Piece::Bomb) {
        b.place_preferring(Piece::Bomb, |s| s.rank() < 6, rng);
    }
    while b.left.contains(&Piece::Mine) {
        b.place_preferring(Piece::Mine, |_| true, rng);
    }
    let corners = [sq(0, 6), sq(4, 6)];
    while b.left.contains(&Piece::Engineer) {
        b.place_preferring(Piece::Engineer, |s| !corners.contains(&s), rng);
    }
    b.free.shuffle(rng);
    let Builder {
        free,
        left,
        mut layout,
    } = b;
    layout.0.extend(free.into_iter().zip(left));
    layout
}
