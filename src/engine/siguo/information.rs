//! One 四国 seat's information set: the last view it was sent, what the events so far
//! revealed about the pieces it cannot see, and its own recent moves. It is built from
//! a [`SeatView`] and fed [`EventView`]s, the two things the server sends a seat, and
//! from nothing else: the computer cannot hold a game, so it cannot read one.

use super::beliefs::Beliefs;
use crate::rules::hidden_game::{EventView, SeatView};
use crate::rules::siguo::{FourPlayer, Seat4, Station};

pub type View = SeatView<FourPlayer>;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatInfo {
    pub(super) view: View,
    pub(super) beliefs: Beliefs,
    /// This seat's moves, newest last (to steer clear of shuffling back and forth).
    pub(super) own_moves: Vec<(Station, Station)>,
}

impl SeatInfo {
    /// The information set of the seat `view` was cut for.
    pub fn new(view: View) -> SeatInfo {
        let beliefs = Beliefs::start(&view);
        let mut info = SeatInfo {
            view,
            beliefs,
            own_moves: Vec::new(),
        };
        info.beliefs.refresh(&info.view);
        info
    }

    /// Takes in an event as this seat was sent it, then the view it was sent after.
    /// A view for another seat is refused: it would tell this one what it may not know.
    pub fn observe(&mut self, event: &EventView<FourPlayer>, view: View) -> Result<(), String> {
        if view.seat != self.view.seat {
            return Err(format!(
                "a view for {} given to {}'s computer",
                view.seat, self.view.seat
            ));
        }
        self.beliefs.observe(event, &self.view);
        if event.seat == self.view.seat
            && let Some(r) = event.route.as_deref().filter(|r| r.len() >= 2)
        {
            self.own_moves.push((r[0], r[r.len() - 1]));
            if self.own_moves.len() > 8 {
                self.own_moves.remove(0);
            }
        }
        self.view = view;
        self.beliefs.refresh(&self.view);
        Ok(())
    }

    pub fn seat(&self) -> Seat4 {
        self.view.seat
    }

    pub fn view(&self) -> &View {
        &self.view
    }

    /// Whether it is this seat's turn in a game still going.
    pub fn to_act(&self) -> bool {
        !self.view.is_over() && self.view.to_move == self.view.seat
    }

    /// The legal moves this seat was told of.
    pub fn legal(&self) -> &[(Station, Station)] {
        &self.view.legal
    }

    pub fn beliefs(&self) -> &Beliefs {
        &self.beliefs
    }
}
