//! A game in progress: turns, steps, colours, clocks and draws, and how it ends
//! (RULES §3 for flip chess, §4 for standard 军棋).
//!
//! `Game` never reads a clock: callers pass the milliseconds since the start with each
//! action, and timeouts arrive as actions. That keeps replays exact.

mod action;
mod error;
mod legal;
mod outcome;
mod repetition;
mod step;

pub use action::{Action, Applied, Effect};
pub use error::RuleError;
pub use legal::LegalActions;
pub use outcome::{EndReason, Outcome};

use super::board::{SQUARES, Square, SquareSet};
use super::deal::Deal;
use super::layout::Layout;
use super::options::{Limits, Options, Variant};
use super::piece::{Colour, Piece, Seat, Token};
use super::position::Position;
use repetition::{RecentMoves, move_code};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    variant: Variant,
    options: Options,
    pos: Position,
    to_move: Seat,
    colours: Option<[Colour; 2]>,
    steps: u32,
    quiet: u32,
    timeouts: [u8; 2],
    offers_made: [u8; 2],
    open_offer: Option<Seat>,
    recent: [RecentMoves; 2],
    last_flip: Option<Colour>,
    own_last_flip: [Option<Colour>; 2],
    elapsed_ms: u64,
    outcome: Option<Outcome>,
}

impl Game {
    /// A flip-chess game on `deal`, `first` to act.
    pub fn new_flip(options: Options, deal: &Deal, first: Seat) -> Game {
        let pos = Position::from_tokens(deal.entries().map(|(s, (p, c))| (s, Token::hidden(p, c))));
        Game::from_position(Variant::Flip, options, pos, first, None)
    }

    /// A standard game from two valid layouts (south plays red, north blue).
    pub fn new_standard(options: Options, south: &Layout, north: &Layout, first: Seat) -> Game {
        let [s, n] = STANDARD_COLOURS;
        let tokens = [(south, s), (north, n)]
            .into_iter()
            .flat_map(|(l, c)| l.0.iter().map(move |(&s, &p)| (s, Token::hidden(p, c))));
        let pos = Position::from_tokens(tokens);
        Game::from_position(
            Variant::Standard,
            options,
            pos,
            first,
            Some(STANDARD_COLOURS),
        )
    }

    /// `new_standard` from layouts held as arrays by square, as self-play draws them.
    pub(crate) fn new_standard_cells(
        options: Options,
        south: &[Option<Piece>; SQUARES],
        north: &[Option<Piece>; SQUARES],
        first: Seat,
    ) -> Game {
        let [s, n] = STANDARD_COLOURS;
        let tokens = [(south, s), (north, n)].into_iter().flat_map(|(l, c)| {
            Square::all().filter_map(move |s| l[s.index()].map(|p| (s, Token::hidden(p, c))))
        });
        let pos = Position::from_tokens(tokens);
        Game::from_position(
            Variant::Standard,
            options,
            pos,
            first,
            Some(STANDARD_COLOURS),
        )
    }

    /// A game from any position, as analysis and tests need. Counters start at zero.
    pub fn from_position(
        variant: Variant,
        options: Options,
        pos: Position,
        to_move: Seat,
        colours: Option<[Colour; 2]>,
    ) -> Game {
        Game {
            variant,
            options,
            pos,
            to_move,
            colours,
            steps: 0,
            quiet: 0,
            timeouts: [0; 2],
            offers_made: [0; 2],
            open_offer: None,
            recent: [RecentMoves::new(), RecentMoves::new()],
            last_flip: None,
            own_last_flip: [None; 2],
            elapsed_ms: 0,
            outcome: None,
        }
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }
    pub fn options(&self) -> &Options {
        &self.options
    }
    pub fn position(&self) -> &Position {
        &self.pos
    }
    pub fn to_move(&self) -> Seat {
        self.to_move
    }
    /// Colours by seat index, once assigned.
    pub fn colours(&self) -> Option<[Colour; 2]> {
        self.colours
    }
    pub fn colour_of(&self, seat: Seat) -> Option<Colour> {
        self.colours.map(|c| c[seat.index()])
    }
    pub fn seat_of(&self, colour: Colour) -> Option<Seat> {
        Seat::BOTH
            .into_iter()
            .find(|&s| self.colour_of(s) == Some(colour))
    }
    pub fn steps(&self) -> u32 {
        self.steps
    }
    /// Consecutive steps without an attack.
    pub fn quiet_steps(&self) -> u32 {
        self.quiet
    }
    /// Timeouts, and in standard 军棋 passes, of a seat.
    pub fn timeouts(&self, seat: Seat) -> u8 {
        self.timeouts[seat.index()]
    }
    /// Draw offers a seat may still make, or `None` where they are unlimited.
    pub fn draw_offers_left(&self, seat: Seat) -> Option<u8> {
        self.limits()
            .draw_offers_per_player
            .map(|n| n.saturating_sub(self.offers_made[seat.index()]))
    }
    pub fn open_offer(&self) -> Option<Seat> {
        self.open_offer
    }
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }
    pub fn elapsed_ms(&self) -> u64 {
        self.elapsed_ms
    }
    pub(crate) fn limits(&self) -> Limits {
        self.variant.limits()
    }
    /// Steps needed before resigning or offering a draw.
    pub fn steps_before_resign_or_draw(&self) -> u32 {
        self.limits().steps_before_resign_or_draw
    }
    pub fn timeouts_to_lose(&self) -> u8 {
        self.limits().timeouts_to_lose
    }
    pub fn quiet_steps_to_draw(&self) -> u32 {
        self.limits().quiet_steps_to_draw
    }
    pub fn steps_to_draw(&self) -> Option<u32> {
        self.limits().steps_to_draw
    }

    /// The colour whose pieces the seat to move may move, if any.
    fn moving_colour(&self) -> Option<Colour> {
        self.colour_of(self.to_move)
    }

    /// Appends the flips and moves open to the seat to move. Timeouts, passes and the
    /// draw and resign actions are not listed; `apply` decides those.
    pub fn legal_actions(&self, out: &mut Vec<Action>) {
        if self.outcome.is_some() {
            return;
        }
        if self.variant.caps().deals() {
            out.extend(self.pos.hidden().iter().map(Action::Flip));
        }
        if let Some(c) = self.moving_colour() {
            self.pos
                .for_each_move(self.variant.caps(), &self.options, c.into(), |from, to| {
                    out.push(Action::Move { from, to })
                });
        }
    }

    /// Where the piece on `from` may go now, for the seat to move; empty otherwise.
    pub fn destinations(&self, from: Square) -> SquareSet {
        match (self.outcome, self.moving_colour(), self.pos.get(from)) {
            (None, Some(c), Some(_)) if self.pos.movers(self.variant.caps(), c).contains(from) => {
                self.pos
                    .destinations(self.variant.caps(), &self.options, c.into(), from)
            }
            _ => SquareSet::EMPTY,
        }
    }

    /// Whether moving from → to now would be the seat's 4th such move within its own
    /// last 8 steps, and so lose by repetition. The interface warns on these.
    pub fn would_repeat(&self, seat: Seat, from: Square, to: Square) -> bool {
        if !self.variant.caps().repetition_loses {
            return false;
        }
        self.recent[seat.index()].would_repeat(move_code(from, to))
    }

    /// Whether the seat to move has a flip or a move (a pass does not count).
    pub fn has_legal_action(&self) -> bool {
        if self.variant.caps().deals() && !self.pos.hidden().is_empty() {
            return true;
        }
        match self.moving_colour() {
            Some(c) => self
                .pos
                .has_move(self.variant.caps(), &self.options, c.into()),
            None => false,
        }
    }

    /// The facts the score table looks at, once the game is over.
    pub fn score_facts(&self) -> Option<super::scoring::ScoreFacts> {
        let outcome = self.outcome?;
        let loser_colour = outcome.loser().and_then(|s| self.colour_of(s));
        let (lost, only_flag) = match loser_colour {
            Some(c) => {
                let left = self.pos.of_colour(c);
                let only_flag = left.len() == 1 && self.pos.count(c, Piece::Flag) == 1;
                (self.pos.lost(c), only_flag)
            }
            None => (0, false),
        };
        Some(super::scoring::ScoreFacts {
            variant: self.variant,
            outcome,
            loser_lost: lost,
            loser_only_flag: only_flag,
            all_face_up: self.pos.hidden().is_empty(),
            steps: self.steps,
        })
    }

    /// Each seat's score change for this finished game at `base`.
    pub fn score(&self, base: i32) -> Option<[i32; 2]> {
        self.score_facts().map(|f| f.score(base))
    }
}

/// Standard 军棋 seats play fixed colours.
pub const STANDARD_COLOURS: [Colour; 2] = [Colour::Red, Colour::Blue];
