//! The game of deployed hidden pieces for any board and any number of seats (RULES §5,
//! of which §4 is the two-seat case without alliances): turns in seat order skipping
//! the defeated, attacks only on foes, defeat clearing a seat's pieces, the flag shown
//! when the marshal falls, passes and the 5th timeout-or-pass, the 40-step gate, the
//! 70 quiet steps and the order of checks after each step (§5.4.3).
//!
//! A seat is its army (`Board::Army`): on the two-player board the colours, which
//! standard 军棋 gives South and North for good; in 四国 the four seats.
//!
//! Like `Game` it reads no clock: timeouts arrive as actions.

mod draw;
mod escape;
mod seat_view;
mod sight;
mod step;

use super::geometry::{Army, Board, Each};
use super::options::{Caps, Limits, Variant};
use super::position::{Position, Side};
use super::siguo::Alliance;
use super::{Options, Piece};

pub use escape::{Escape, Escaped, TUOGUAN_THAT_MAY_END, TuoguanError, TuoguanKind};
pub use seat_view::SeatView;
pub use sight::{BoardView, Cell, EventView, Sight, Watcher, cell};
pub use step::{Applied, Defeat, Step, StepError};

/// Numbers of the rules (RULES §5.4), from 四国's row of the variant table; §4 has
/// the same.
pub const TIMEOUTS_TO_LOSE: u8 = Variant::Siguo.limits().timeouts_to_lose;
pub const QUIET_STEPS_TO_DRAW: u32 = Variant::Siguo.limits().quiet_steps_to_draw;
pub const STEPS_BEFORE_RESIGN_OR_DRAW: u32 = Variant::Siguo.limits().steps_before_resign_or_draw;

/// How a hidden-piece game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ending {
    /// Every seat still in play is of one alliance: it wins, its defeated members too
    /// (§5.4.2). Bit `i` set: army `i` won.
    Won { winners: u8 },
    /// 70 steps without an attack or a defeat (§5.4.3).
    QuietDraw,
    /// Every seat still in play agreed (§5.4.4).
    AgreedDraw,
    /// Every seat still in play is in 托管 and they are of more than one alliance
    /// (§5.5.3).
    TuoguanDraw,
    /// Every seat that sat down is in play and in 托管: the game ends unscored
    /// (§5.5.3).
    AllInTuoguan,
    /// The ally of a seat in 断线托管 would not play on: the game ended at once, the
    /// seats of bit `i` winning (§5.5.1; scored by §5.7.1's row for it).
    PlayOnDeclined { winners: u8 },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HiddenGame<B: Board> {
    caps: Caps,
    limits: Limits,
    options: Options,
    alliance: Alliance,
    /// 友明: allies see each other's pieces (RULES §5.2).
    allies_visible: bool,
    /// Each seat as the move generator sees it, worked out once: building one per
    /// listing cost 四国 self-play about 170 instructions per action.
    sides: Each<B, Side<B::Army>>,
    pos: Position<B>,
    /// Seats in play: seated and not defeated.
    in_play: Each<B, bool>,
    /// Why each defeated seat was defeated.
    defeats: Each<B, Option<Defeat>>,
    to_move: B::Army,
    steps: u32,
    quiet: u32,
    timeouts: Each<B, u8>,
    /// Seats the server plays (托管, §5.5), and how it came to.
    tuoguan: Each<B, Option<TuoguanKind>>,
    /// 托管 of each seat so far, of every kind (§5.5.2's limit of three).
    tuoguan_uses: Each<B, u8>,
    /// The seat's 托管 can never be ended (托管退出, or a 4th).
    tuoguan_locked: Each<B, bool>,
    /// The open draw offer: who made it, and (bit `i`) who has agreed.
    draw_offer: Option<(B::Army, u8)>,
    /// Seats that have offered a draw since their last step (one offer per own step).
    offered: Each<B, bool>,
    ending: Option<Ending>,
}

impl<B: Board> HiddenGame<B> {
    /// A game of `variant` on `pos` (every seated army's pieces deployed), the seats
    /// of `seated` playing and `first` to move. `variant` must be a deploying one.
    pub fn new(
        variant: Variant,
        options: Options,
        alliance: Alliance,
        pos: Position<B>,
        seated: &[B::Army],
        first: B::Army,
    ) -> HiddenGame<B> {
        let mut in_play = B::Army::each(false);
        for s in seated {
            in_play.as_mut()[s.index()] = true;
        }
        let mut g = HiddenGame {
            caps: variant.caps(),
            limits: variant.limits(),
            options,
            alliance,
            allies_visible: false,
            sides: B::Army::each(Side::new(first, [])),
            pos,
            in_play,
            defeats: B::Army::each(None),
            to_move: first,
            steps: 0,
            quiet: 0,
            timeouts: B::Army::each(0),
            tuoguan: B::Army::each(None),
            tuoguan_uses: B::Army::each(0),
            tuoguan_locked: B::Army::each(false),
            draw_offer: None,
            offered: B::Army::each(false),
            ending: None,
        };
        for &seat in B::Army::ALL {
            g.sides.as_mut()[seat.index()] = alliance.side(seat);
        }
        if !g.is_in_play(first) {
            g.to_move = g.next_in_play(first);
        }
        g
    }

    /// The game with 友明 on or off (off by default).
    pub fn with_allies_visible(mut self, on: bool) -> HiddenGame<B> {
        self.allies_visible = on;
        self
    }

    pub fn position(&self) -> &Position<B> {
        &self.pos
    }
    pub fn alliance(&self) -> Alliance {
        self.alliance
    }
    pub fn to_move(&self) -> B::Army {
        self.to_move
    }
    pub fn steps(&self) -> u32 {
        self.steps
    }
    pub fn quiet_steps(&self) -> u32 {
        self.quiet
    }
    pub fn timeouts(&self, seat: B::Army) -> u8 {
        self.timeouts.as_ref()[seat.index()]
    }
    pub fn ending(&self) -> Option<Ending> {
        self.ending
    }
    pub fn is_over(&self) -> bool {
        self.ending.is_some()
    }
    pub fn is_in_play(&self, seat: B::Army) -> bool {
        self.in_play.as_ref()[seat.index()]
    }
    pub fn defeat(&self, seat: B::Army) -> Option<Defeat> {
        self.defeats.as_ref()[seat.index()]
    }

    /// Whether two seats are on one side (a seat is on its own).
    pub fn allied(&self, a: B::Army, b: B::Army) -> bool {
        a == b || self.alliance.allied_indices(a.index(), b.index())
    }

    /// `seat` as the move generator sees it: every other seat not allied to it is a foe.
    pub fn side(&self, seat: B::Army) -> Side<B::Army> {
        self.sides.as_ref()[seat.index()]
    }

    /// Whether `seat` won, once the game is over.
    pub fn won(&self, seat: B::Army) -> bool {
        matches!(self.ending,
            Some(Ending::Won { winners } | Ending::PlayOnDeclined { winners })
                if winners & (1 << seat.index()) != 0)
    }

    /// Calls `out` with every move of the seat to move; nothing once the game is over.
    pub fn for_each_move(&self, out: impl FnMut(B::Place, B::Place)) {
        if self.ending.is_none() {
            let side = self.side(self.to_move);
            self.pos.for_each_move(self.caps, &self.options, side, out);
        }
    }

    /// Calls `out` with each piece of the seat to move that can move and where it may
    /// go; nothing once the game is over.
    pub fn for_each_mover(&self, out: impl FnMut(B::Place, B::Set)) {
        if self.ending.is_none() {
            let side = self.side(self.to_move);
            self.pos.for_each_mover(self.caps, &self.options, side, out);
        }
    }

    /// The next seat in play after `seat` in turn order; `seat` itself if it is the
    /// only one.
    fn next_in_play(&self, seat: B::Army) -> B::Army {
        let all = B::Army::ALL;
        (1..=all.len())
            .map(|k| all[(seat.index() + k) % all.len()])
            .find(|&s| self.is_in_play(s))
            .unwrap_or(seat)
    }

    fn has_move(&self, seat: B::Army) -> bool {
        self.pos.has_move(self.caps, &self.options, self.side(seat))
    }

    /// Flags of `seat` still on the board.
    fn flags(&self, seat: B::Army) -> impl Iterator<Item = B::Place> + '_ {
        use super::geometry::PlaceSet;
        self.pos
            .of_colour(seat)
            .places()
            .filter(|&s| self.pos.get(s).is_some_and(|t| t.piece == Piece::Flag))
    }
}
