//! The moves the server makes for a seat in 托管 (RULES §5.5.2), as a pure function of
//! the position, the move it made last and a choice it is handed.
//!
//! §5.5.2 takes the seat's pieces rank 6 → 1, file a → e, and moves the first that has
//! a one-step move to an empty station that is not a headquarters, one such step
//! chosen uniformly; the next 托管 move takes it back if it still can, else chooses
//! again. Pieces outside the seat's own area are not named there; here they come
//! after the area's, front to back and left to right as the seat sees the board.

use super::FourPlayer;
use super::station::{GRID, Seat4, Station};
use crate::rules::geometry::{Board, Geometry, PlaceSet};
use crate::rules::hidden_game::{HiddenGame, Step};

/// Where `s` stands as `seat` sees the board: its area at the bottom, x to the right.
fn seat_frame(seat: Seat4, s: Station) -> (i8, i8) {
    let (mut x, mut y) = s.grid();
    // Undo the quarter turns that took South's area to `seat`'s.
    for _ in 0..seat.index() {
        (x, y) = (y, GRID - 1 - x);
    }
    (x, y)
}

/// The order §5.5.2 looks at the seat's pieces in: its own area first, rank 6 → 1 and
/// file a → e, then the rest front to back.
fn order_key(seat: Seat4, s: Station) -> (bool, i8, i8) {
    let (x, y) = seat_frame(seat, s);
    (s.seat() != Some(seat), -y, x)
}

/// The step the server takes for `seat` now: a move, or a timeout when no piece of
/// the seat has a one-step move to an empty station outside the headquarters.
/// `last` is the move to undo (the previous 托管 move), updated here; `pick(n)` chooses
/// one of `n` steps, `0 <= pick(n) < n`.
pub fn step(
    game: &HiddenGame<FourPlayer>,
    seat: Seat4,
    last: &mut Option<(Station, Station)>,
    pick: impl FnOnce(usize) -> usize,
) -> Step<Station> {
    let pos = game.position();
    let tb = FourPlayer::geometry();
    let blocked = pos.occupied() | pos.closed() | tb.headquarters();
    let movers = pos.movers(crate::rules::siguo::CAPS, seat);
    let open_steps = |from: Station| tb.neighbours(from) & !blocked;
    if let Some((from, to)) = last.take()
        && movers.contains(to)
        && open_steps(to).contains(from)
    {
        return Step::Move { from: to, to: from };
    }
    let mut pieces: Vec<Station> = movers.places().collect();
    pieces.sort_by_key(|&s| order_key(seat, s));
    for from in pieces {
        let to: Vec<Station> = open_steps(from).places().collect();
        if !to.is_empty() {
            let to = to[pick(to.len()).min(to.len() - 1)];
            *last = Some((from, to));
            return Step::Move { from, to };
        }
    }
    Step::Timeout
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_seat_sees_its_area_at_the_bottom() {
        for seat in Seat4::ALL {
            let a1 = Station::of(seat, 0, 1).unwrap();
            let e6 = Station::of(seat, 4, 6).unwrap();
            assert_eq!(seat_frame(seat, a1), (6, 0), "{seat:?}");
            assert_eq!(seat_frame(seat, e6), (10, 5), "{seat:?}");
        }
    }
}
