//! Everything one seat of a hidden-piece game is sent, as one owned value: the board
//! cut to the seat's sight (RULES §5.3, §5.4.2), the public counters and seat states,
//! and the moves the server would accept from it now. A program that plays a seat
//! takes this and the seat's `EventView`s, never the game, so it cannot know more
//! than a person in that chair.

use super::{Cell, Defeat, Ending, HiddenGame, Sight, Watcher, cell};
use crate::rules::Options;
use crate::rules::geometry::{Army, Board, Each};
use crate::rules::siguo::Alliance;

/// What `seat` may see of a game now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatView<B: Board> {
    pub seat: B::Army,
    /// Whose hidden pieces the seat knows (its own, its allies' under 友明 or once it is
    /// defeated, every piece once the game is over).
    pub sight: Sight,
    /// Every occupied station in station order, cut to `sight`.
    pub cells: Vec<(B::Place, Cell<B::Army>)>,
    /// Stations out of play (三国's empty area): public, nobody's, never entered.
    pub closed: B::Set,
    pub options: Options,
    pub alliance: Alliance,
    /// 友明: allies see each other's pieces.
    pub allies_visible: bool,
    pub to_move: B::Army,
    pub steps: u32,
    /// Steps since the last attack or defeat (70 draw, §5.4.3).
    pub quiet_steps: u32,
    pub in_play: Each<B, bool>,
    pub defeats: Each<B, Option<Defeat>>,
    pub timeouts: Each<B, u8>,
    /// Seats the server plays (托管).
    pub tuoguan: Each<B, bool>,
    /// The open draw offer's maker.
    pub draw_offer: Option<B::Army>,
    /// The seat's legal moves as (from, to) when it is to move; empty otherwise. The
    /// server tells each player what it may do, so this adds nothing hidden.
    pub legal: Vec<(B::Place, B::Place)>,
    pub ending: Option<Ending>,
}

impl<B: Board> HiddenGame<B> {
    /// The view `seat` is sent now.
    pub fn seat_view(&self, seat: B::Army) -> SeatView<B> {
        let sight = self.sight(Watcher::Seat(seat));
        let mut legal = Vec::new();
        if self.to_move == seat && self.is_in_play(seat) {
            self.for_each_move(|f, t| legal.push((f, t)));
        }
        SeatView {
            seat,
            sight,
            cells: self
                .pos
                .tokens()
                .map(|(at, token)| (at, cell(token, sight)))
                .collect(),
            closed: self.pos.closed(),
            options: self.options,
            alliance: self.alliance,
            allies_visible: self.allies_visible,
            to_move: self.to_move,
            steps: self.steps,
            quiet_steps: self.quiet,
            in_play: self.in_play,
            defeats: self.defeats,
            timeouts: self.timeouts,
            tuoguan: {
                let mut on = B::Army::each(false);
                for &s in B::Army::ALL {
                    on.as_mut()[s.index()] = self.in_tuoguan(s);
                }
                on
            },
            draw_offer: self.draw_offer(),
            legal,
            ending: self.ending,
        }
    }
}

impl<B: Board> SeatView<B> {
    pub fn is_in_play(&self, seat: B::Army) -> bool {
        self.in_play.as_ref()[seat.index()]
    }

    /// Whether two seats are on one side (a seat is on its own).
    pub fn allied(&self, a: B::Army, b: B::Army) -> bool {
        a == b || self.alliance.allied_indices(a.index(), b.index())
    }

    pub fn is_over(&self) -> bool {
        self.ending.is_some()
    }
}
