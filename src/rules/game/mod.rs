//! A two-player game in progress: turns, steps, colours, clocks and draws, and how it
//! ends (RULES §3 for flip chess, §4 for standard 军棋), in the words the site, the
//! records and the computer speak (`Action`, `Applied`, `Outcome`).
//!
//! Flip chess is its own game (`flip.rs`); standard 军棋 is the two-seat case of the
//! hidden-piece game that plays 四国 too (`deployed.rs`). Which one a variant plays is
//! asked of its capabilities (`SetupKind`).
//!
//! `Game` never reads a clock: callers pass the milliseconds since the start with each
//! action, and timeouts arrive as actions. That keeps replays exact.

mod action;
mod deployed;
mod error;
mod flip;
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
use super::options::{Limits, Options, SetupKind, Variant};
use super::piece::{Colour, Piece, Seat, Token};
use super::position::{Position, Side};
use deployed::Deployed;
use flip::Flip;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    variant: Variant,
    options: Options,
    /// The seat to act. The rules' own, except that after a game-ending step it is
    /// the other seat, as it always was.
    to_move: Seat,
    elapsed_ms: u64,
    play: Play,
}

/// The rules that play the game, by how its pieces came onto the board.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Play {
    Flip(Flip),
    Deployed(Deployed),
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
    /// A deploying variant's seats play `STANDARD_COLOURS` whatever `colours` says.
    pub fn from_position(
        variant: Variant,
        options: Options,
        pos: Position,
        to_move: Seat,
        colours: Option<[Colour; 2]>,
    ) -> Game {
        let play = match variant.caps().setup {
            SetupKind::Deal => Play::Flip(Flip::new(
                variant.caps(),
                variant.limits(),
                options,
                pos,
                to_move,
                colours,
            )),
            SetupKind::Deployment => Play::Deployed(deployed::new(variant, options, pos, to_move)),
        };
        Game {
            variant,
            options,
            to_move,
            elapsed_ms: 0,
            play,
        }
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }
    pub fn options(&self) -> &Options {
        &self.options
    }
    pub fn position(&self) -> &Position {
        match &self.play {
            Play::Flip(f) => &f.pos,
            Play::Deployed(h) => h.position(),
        }
    }
    pub fn to_move(&self) -> Seat {
        self.to_move
    }
    /// Colours by seat index, once assigned.
    pub fn colours(&self) -> Option<[Colour; 2]> {
        match &self.play {
            Play::Flip(f) => f.colours,
            Play::Deployed(_) => Some(STANDARD_COLOURS),
        }
    }
    pub fn colour_of(&self, seat: Seat) -> Option<Colour> {
        self.colours().map(|c| c[seat.index()])
    }
    pub fn seat_of(&self, colour: Colour) -> Option<Seat> {
        Seat::BOTH
            .into_iter()
            .find(|&s| self.colour_of(s) == Some(colour))
    }
    pub fn steps(&self) -> u32 {
        match &self.play {
            Play::Flip(f) => f.steps,
            Play::Deployed(h) => h.steps(),
        }
    }
    /// Consecutive steps without an attack.
    pub fn quiet_steps(&self) -> u32 {
        match &self.play {
            Play::Flip(f) => f.quiet,
            Play::Deployed(h) => h.quiet_steps(),
        }
    }
    /// Timeouts, and in standard 军棋 passes, of a seat.
    pub fn timeouts(&self, seat: Seat) -> u8 {
        match &self.play {
            Play::Flip(f) => f.timeouts[seat.index()],
            Play::Deployed(h) => h.timeouts(deployed::army(seat)),
        }
    }
    /// Draw offers a seat may still make, or `None` where they are unlimited.
    pub fn draw_offers_left(&self, seat: Seat) -> Option<u8> {
        match &self.play {
            Play::Flip(f) => f.draw_offers_left(seat),
            Play::Deployed(_) => None,
        }
    }
    pub fn open_offer(&self) -> Option<Seat> {
        match &self.play {
            Play::Flip(f) => f.open_offer,
            Play::Deployed(h) => h.draw_offer().map(deployed::seat_of),
        }
    }
    pub fn outcome(&self) -> Option<Outcome> {
        match &self.play {
            Play::Flip(f) => f.outcome,
            Play::Deployed(h) => deployed::outcome(h),
        }
    }
    pub fn is_over(&self) -> bool {
        match &self.play {
            Play::Flip(f) => f.outcome.is_some(),
            Play::Deployed(h) => h.is_over(),
        }
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

    /// The seat to move as the move generator sees it, once it has a colour and
    /// while the game goes on.
    fn moving_side(&self) -> Option<Side<Colour>> {
        match &self.play {
            Play::Flip(f) if f.outcome.is_none() => f.colour_of(self.to_move).map(Side::from),
            Play::Deployed(h) if !h.is_over() => Some(h.side(h.to_move())),
            _ => None,
        }
    }

    /// Appends the flips and moves open to the seat to move. Timeouts, passes and the
    /// draw and resign actions are not listed; `apply` decides those.
    pub fn legal_actions(&self, out: &mut Vec<Action>) {
        if self.is_over() {
            return;
        }
        let caps = self.variant.caps();
        if caps.deals() {
            out.extend(self.position().hidden().iter().map(Action::Flip));
        }
        if let Some(side) = self.moving_side() {
            self.position()
                .for_each_move(caps, &self.options, side, |from, to| {
                    out.push(Action::Move { from, to })
                });
        }
    }

    /// Where the piece on `from` may go now, for the seat to move; empty otherwise.
    pub fn destinations(&self, from: Square) -> SquareSet {
        let caps = self.variant.caps();
        let pos = self.position();
        match (self.moving_side(), pos.get(from)) {
            (Some(side), Some(_)) if pos.movers(caps, side.army).contains(from) => {
                pos.destinations(caps, &self.options, side, from)
            }
            _ => SquareSet::EMPTY,
        }
    }

    /// Whether moving from → to now would be the seat's 4th such move within its own
    /// last 8 steps, and so lose by repetition. The interface warns on these.
    pub fn would_repeat(&self, seat: Seat, from: Square, to: Square) -> bool {
        match &self.play {
            Play::Flip(f) => f.would_repeat(seat, from, to),
            Play::Deployed(_) => false,
        }
    }

    /// Whether the seat to move has a flip or a move (a pass does not count).
    pub fn has_legal_action(&self) -> bool {
        match &self.play {
            Play::Flip(f) => f.has_legal_action(),
            Play::Deployed(h) => {
                let caps = self.variant.caps();
                h.position()
                    .has_move(caps, &self.options, h.side(h.to_move()))
            }
        }
    }

    /// The facts the score table looks at, once the game is over.
    pub fn score_facts(&self) -> Option<super::scoring::ScoreFacts> {
        let outcome = self.outcome()?;
        let pos = self.position();
        let loser_colour = outcome.loser().and_then(|s| self.colour_of(s));
        let (lost, only_flag) = match loser_colour {
            Some(c) => {
                let left = pos.of_colour(c);
                let only_flag = left.len() == 1 && pos.count(c, Piece::Flag) == 1;
                (pos.lost(c), only_flag)
            }
            None => (0, false),
        };
        Some(super::scoring::ScoreFacts {
            variant: self.variant,
            outcome,
            loser_lost: lost,
            loser_only_flag: only_flag,
            all_face_up: pos.hidden().is_empty(),
            steps: self.steps(),
        })
    }

    /// Each seat's score change for this finished game at `base`.
    pub fn score(&self, base: i32) -> Option<[i32; 2]> {
        self.score_facts().map(|f| f.score(base))
    }
}

/// Standard 军棋 seats play fixed colours.
pub const STANDARD_COLOURS: [Colour; 2] = [Colour::Red, Colour::Blue];
