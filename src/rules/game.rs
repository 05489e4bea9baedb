//! A game in progress: turns, steps, colours, clocks and draws, and how it ends
//! (RULES §3 for flip chess, §4 for standard 军棋).
//!
//! `Game` never reads a clock: callers pass the milliseconds since the start with each
//! action, and timeouts arrive as actions. That keeps replays exact.

use super::board::{Square, SquareSet};
use super::deal::Deal;
use super::layout::Layout;
use super::options::{ColourRule, Limits, Options, Variant};
use super::piece::{Colour, Combat, Piece, Seat, Token, resolve};
use super::position::{AttackRefusal, Position};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Something a seat does. Flips, moves, timeouts and passes are steps; the rest are not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    Flip(Square),
    Move { from: Square, to: Square },
    Timeout,
    Pass,
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
    Resign,
    Escape,
}

impl Action {
    pub fn is_step(self) -> bool {
        matches!(
            self,
            Action::Flip(_) | Action::Move { .. } | Action::Timeout | Action::Pass
        )
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    Flag,
    NoMoves,
    Timeouts,
    Repetition,
    Resign,
    Escape,
    Agreed,
    NoCaptureLimit,
    StepLimit,
    TimeLimit,
}

impl EndReason {
    pub const ALL: [EndReason; 10] = [
        EndReason::Flag,
        EndReason::NoMoves,
        EndReason::Timeouts,
        EndReason::Repetition,
        EndReason::Resign,
        EndReason::Escape,
        EndReason::Agreed,
        EndReason::NoCaptureLimit,
        EndReason::StepLimit,
        EndReason::TimeLimit,
    ];

    pub fn name(self) -> &'static str {
        match self {
            EndReason::Flag => "flag",
            EndReason::NoMoves => "no_moves",
            EndReason::Timeouts => "timeouts",
            EndReason::Repetition => "repetition",
            EndReason::Resign => "resign",
            EndReason::Escape => "escape",
            EndReason::Agreed => "agreed",
            EndReason::NoCaptureLimit => "no_capture_limit",
            EndReason::StepLimit => "step_limit",
            EndReason::TimeLimit => "time_limit",
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a game ended: the winner (none for a draw) and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Outcome {
    pub winner: Option<Seat>,
    pub reason: EndReason,
}

impl Outcome {
    pub fn win(seat: Seat, reason: EndReason) -> Outcome {
        Outcome {
            winner: Some(seat),
            reason,
        }
    }
    pub fn loss(seat: Seat, reason: EndReason) -> Outcome {
        Outcome::win(seat.other(), reason)
    }
    pub fn draw(reason: EndReason) -> Outcome {
        Outcome {
            winner: None,
            reason,
        }
    }
    pub fn loser(&self) -> Option<Seat> {
        self.winner.map(Seat::other)
    }
}

/// Why an action was refused. The game is unchanged when one is returned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RuleError {
    GameOver,
    NotYourTurn,
    EmptySquare(Square),
    NotFaceDown(Square),
    ColoursNotAssigned,
    NotYourPiece(Square),
    FaceDownPiece(Square),
    Immovable(Square, Piece),
    HeadquartersLock(Square),
    Unreachable {
        from: Square,
        to: Square,
    },
    Attack {
        from: Square,
        to: Square,
        why: AttackRefusal,
    },
    NoPassInVariant,
    NoFlipInVariant,
    TooEarly {
        needed: u32,
        steps: u32,
    },
    NoDrawOffersLeft,
    OfferAlreadyOpen,
    NoOfferToAnswer,
    TimeWentBack {
        at_ms: u64,
        last_ms: u64,
    },
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleError::GameOver => write!(f, "the game is over"),
            RuleError::NotYourTurn => write!(f, "it is not your turn"),
            RuleError::EmptySquare(s) => write!(f, "there is no piece on {s}"),
            RuleError::NotFaceDown(s) => write!(f, "the piece on {s} is already face up"),
            RuleError::ColoursNotAssigned => {
                write!(f, "colours are not assigned yet: the only action is a flip")
            }
            RuleError::NotYourPiece(s) => write!(f, "the piece on {s} is not yours"),
            RuleError::FaceDownPiece(s) => {
                write!(f, "the piece on {s} is face down and cannot move")
            }
            RuleError::Immovable(s, p) => write!(f, "the {p} on {s} never moves"),
            RuleError::HeadquartersLock(s) => {
                write!(
                    f,
                    "the piece on {s} stands in a headquarters and never moves again"
                )
            }
            RuleError::Unreachable { from, to } => {
                write!(f, "the piece on {from} cannot reach {to}")
            }
            RuleError::Attack { from, to, why } => {
                write!(f, "{from} cannot attack {to}: {}", why.message())
            }
            RuleError::NoPassInVariant => write!(f, "passing is not allowed in this variant"),
            RuleError::NoFlipInVariant => write!(f, "there are no flips in this variant"),
            RuleError::TooEarly { needed, steps } => write!(
                f,
                "resigning and draw offers are allowed after {needed} steps; {steps} played"
            ),
            RuleError::NoDrawOffersLeft => write!(f, "you have no draw offers left"),
            RuleError::OfferAlreadyOpen => write!(f, "a draw offer is already open"),
            RuleError::NoOfferToAnswer => write!(f, "there is no draw offer from your opponent"),
            RuleError::TimeWentBack { at_ms, last_ms } => write!(
                f,
                "action time {at_ms} ms is before the previous action at {last_ms} ms"
            ),
        }
    }
}

impl std::error::Error for RuleError {}

/// What an accepted action did, with full identities. Callers that pass it on to
/// players cut it down with `view::Event` first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    Flipped {
        at: Square,
        token: Token,
    },
    Moved {
        from: Square,
        to: Square,
        mover: Token,
        target: Option<Token>,
        combat: Option<Combat>,
    },
    TimedOut,
    Passed,
    DrawOffered,
    DrawDeclined,
    DrawAccepted,
    Resigned,
    Escaped,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    pub seat: Seat,
    pub effect: Effect,
    /// Colours by seat, when this action assigned them.
    pub colours_assigned: Option<[Colour; 2]>,
    /// Flags shown to everyone because their marshal fell (standard 军棋).
    pub flags_revealed: Vec<Square>,
    /// The opponent's open draw offer lapsed because this seat took a step.
    pub offer_lapsed: bool,
    pub outcome: Option<Outcome>,
}

const NO_MOVE: u16 = u16::MAX;
const WINDOW: usize = 8;

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
    recent: [[u16; WINDOW]; 2],
    recent_next: [u8; 2],
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
            recent: [[NO_MOVE; WINDOW]; 2],
            recent_next: [0; 2],
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
        if self.variant == Variant::Flip {
            out.extend(self.pos.hidden().iter().map(Action::Flip));
        }
        if let Some(c) = self.moving_colour() {
            self.pos
                .for_each_move(self.variant, &self.options, c, |from, to| {
                    out.push(Action::Move { from, to })
                });
        }
    }

    /// Where the piece on `from` may go now, for the seat to move; empty otherwise.
    pub fn destinations(&self, from: Square) -> SquareSet {
        match (self.outcome, self.moving_colour(), self.pos.get(from)) {
            (None, Some(c), Some(_)) if self.pos.movers(self.variant, c).contains(from) => {
                self.pos.destinations(self.variant, &self.options, from)
            }
            _ => SquareSet::EMPTY,
        }
    }

    /// Whether moving from → to now would be the seat's 4th such move within its own
    /// last 8 steps, and so lose by repetition. The interface warns on these.
    pub fn would_repeat(&self, seat: Seat, from: Square, to: Square) -> bool {
        if !self.limits().repetition {
            return false;
        }
        let code = move_code(from, to);
        let oldest = self.recent_next[seat.index()] as usize;
        let earlier = self.recent[seat.index()]
            .iter()
            .enumerate()
            .filter(|&(i, &c)| i != oldest && c == code)
            .count();
        earlier + 1 >= 4
    }

    /// Applies `action` by `seat`. `at_ms` is the time since the start, when known.
    /// On error nothing changes.
    pub fn apply(
        &mut self,
        seat: Seat,
        action: Action,
        at_ms: Option<u64>,
    ) -> Result<Applied, RuleError> {
        if self.outcome.is_some() {
            return Err(RuleError::GameOver);
        }
        if let Some(at) = at_ms
            && at < self.elapsed_ms
        {
            return Err(RuleError::TimeWentBack {
                at_ms: at,
                last_ms: self.elapsed_ms,
            });
        }
        if action.is_step() && seat != self.to_move {
            return Err(RuleError::NotYourTurn);
        }
        let applied = match action {
            Action::Flip(at) => self.flip(seat, at)?,
            Action::Move { from, to } => self.make_move(seat, from, to)?,
            Action::Timeout => self.lose_turn(seat, Effect::TimedOut),
            Action::Pass => {
                if self.variant != Variant::Standard {
                    return Err(RuleError::NoPassInVariant);
                }
                self.lose_turn(seat, Effect::Passed)
            }
            Action::OfferDraw => {
                self.check_resign_or_draw_allowed()?;
                if self.open_offer.is_some() {
                    return Err(RuleError::OfferAlreadyOpen);
                }
                if self.draw_offers_left(seat) == Some(0) {
                    return Err(RuleError::NoDrawOffersLeft);
                }
                self.offers_made[seat.index()] += 1;
                self.open_offer = Some(seat);
                self.applied(seat, Effect::DrawOffered)
            }
            Action::AcceptDraw | Action::DeclineDraw => {
                if self.open_offer != Some(seat.other()) {
                    return Err(RuleError::NoOfferToAnswer);
                }
                self.open_offer = None;
                if action == Action::AcceptDraw {
                    self.outcome = Some(Outcome::draw(EndReason::Agreed));
                    self.applied(seat, Effect::DrawAccepted)
                } else {
                    self.applied(seat, Effect::DrawDeclined)
                }
            }
            Action::Resign => {
                self.check_resign_or_draw_allowed()?;
                self.outcome = Some(Outcome::loss(seat, EndReason::Resign));
                self.applied(seat, Effect::Resigned)
            }
            Action::Escape => {
                self.outcome = Some(Outcome::loss(seat, EndReason::Escape));
                self.applied(seat, Effect::Escaped)
            }
        };
        if let Some(at) = at_ms {
            self.elapsed_ms = at;
        }
        let mut applied = applied;
        if action.is_step() {
            self.finish_step(seat, &mut applied);
        } else if self.outcome.is_none() && self.past_time_limit() {
            // The time limit is checked after every action, not only after steps.
            self.outcome = Some(Outcome::draw(EndReason::TimeLimit));
        }
        applied.outcome = self.outcome;
        Ok(applied)
    }

    /// Ends the game if the time limit has passed with no action (flip chess's three
    /// hours). Returns the outcome when it did.
    pub fn expire(&mut self, now_ms: u64) -> Option<Outcome> {
        if self.outcome.is_some() {
            return None;
        }
        let limit = self.limits().millis_to_draw?;
        if now_ms >= limit {
            self.elapsed_ms = self.elapsed_ms.max(now_ms);
            self.outcome = Some(Outcome::draw(EndReason::TimeLimit));
        }
        self.outcome
    }

    fn applied(&self, seat: Seat, effect: Effect) -> Applied {
        Applied {
            seat,
            effect,
            colours_assigned: None,
            flags_revealed: Vec::new(),
            offer_lapsed: false,
            outcome: None,
        }
    }

    fn check_resign_or_draw_allowed(&self) -> Result<(), RuleError> {
        let needed = self.limits().steps_before_resign_or_draw;
        if self.steps < needed {
            return Err(RuleError::TooEarly {
                needed,
                steps: self.steps,
            });
        }
        Ok(())
    }

    fn flip(&mut self, seat: Seat, at: Square) -> Result<Applied, RuleError> {
        if self.variant != Variant::Flip {
            return Err(RuleError::NoFlipInVariant);
        }
        let t = self.pos.get(at).ok_or(RuleError::EmptySquare(at))?;
        if t.shown {
            return Err(RuleError::NotFaceDown(at));
        }
        let token = self.pos.show(at).expect("piece checked above");
        let mut applied = self.applied(seat, Effect::Flipped { at, token });
        if self.colours.is_none() {
            let takes = match self.options.colour_rule {
                ColourRule::MatchPrevious => self.last_flip == Some(t.colour),
                ColourRule::TwoInARow => self.own_last_flip[seat.index()] == Some(t.colour),
                ColourRule::FirstFlip => true,
            };
            if takes {
                let mut c = [t.colour.other(); 2];
                c[seat.index()] = t.colour;
                self.colours = Some(c);
                applied.colours_assigned = Some(c);
            }
        }
        self.last_flip = Some(t.colour);
        self.own_last_flip[seat.index()] = Some(t.colour);
        Ok(applied)
    }

    fn make_move(&mut self, seat: Seat, from: Square, to: Square) -> Result<Applied, RuleError> {
        let colour = self.colour_of(seat).ok_or(RuleError::ColoursNotAssigned)?;
        let mover = self.pos.get(from).ok_or(RuleError::EmptySquare(from))?;
        if mover.colour != colour {
            return Err(RuleError::NotYourPiece(from));
        }
        if self.variant == Variant::Flip && !mover.shown {
            return Err(RuleError::FaceDownPiece(from));
        }
        if !mover.piece.movable() {
            return Err(RuleError::Immovable(from, mover.piece));
        }
        if !self.pos.movers(self.variant, colour).contains(from) {
            return Err(RuleError::HeadquartersLock(from));
        }
        if !self.pos.reach(from).contains(to) {
            return Err(RuleError::Unreachable { from, to });
        }
        if let Some(why) = self
            .pos
            .attack_refusal(self.variant, &self.options, mover, to)
        {
            return Err(RuleError::Attack { from, to, why });
        }

        let target = self.pos.get(to);
        self.pos.take(from);
        let combat = target.map(|d| resolve(mover.piece, d.piece));
        match combat {
            None => self.pos.put(to, mover),
            Some(Combat::AttackerWins) => {
                self.pos.take(to);
                self.pos.put(to, mover);
            }
            Some(Combat::DefenderWins) => {}
            Some(Combat::BothRemoved) => {
                self.pos.take(to);
            }
        }
        let mut applied = self.applied(
            seat,
            Effect::Moved {
                from,
                to,
                mover,
                target,
                combat,
            },
        );
        if self.variant == Variant::Standard
            && let (Some(d), Some(result)) = (target, combat)
        {
            let mut fallen = Vec::new();
            if result != Combat::AttackerWins && mover.piece == Piece::Marshal {
                fallen.push(mover.colour);
            }
            if result != Combat::DefenderWins && d.piece == Piece::Marshal {
                fallen.push(d.colour);
            }
            for c in fallen {
                if let Some(s) = self.flag_square(c) {
                    self.pos.show(s);
                    applied.flags_revealed.push(s);
                }
            }
        }
        if target.is_some_and(|d| d.piece == Piece::Flag) {
            self.outcome = Some(Outcome::win(seat, EndReason::Flag));
        }
        Ok(applied)
    }

    fn flag_square(&self, c: Colour) -> Option<Square> {
        self.pos
            .of_colour(c)
            .iter()
            .find(|&s| self.pos.get(s).is_some_and(|t| t.piece == Piece::Flag))
    }

    fn lose_turn(&mut self, seat: Seat, effect: Effect) -> Applied {
        self.timeouts[seat.index()] += 1;
        if self.timeouts[seat.index()] >= self.limits().timeouts_to_lose {
            self.outcome = Some(Outcome::loss(seat, EndReason::Timeouts));
        }
        self.applied(seat, effect)
    }

    /// Bookkeeping common to every step, then the end checks in the order RULES §3.3 gives.
    fn finish_step(&mut self, seat: Seat, applied: &mut Applied) {
        self.steps += 1;
        let (attack, code) = match applied.effect {
            Effect::Moved {
                from, to, target, ..
            } => (target.is_some(), move_code(from, to)),
            _ => (false, NO_MOVE),
        };
        self.quiet = if attack { 0 } else { self.quiet + 1 };
        let i = seat.index();
        let repeated = code != NO_MOVE && self.would_repeat(seat, code_from(code), code_to(code));
        self.recent[i][self.recent_next[i] as usize] = code;
        self.recent_next[i] = ((self.recent_next[i] as usize + 1) % WINDOW) as u8;
        if self.open_offer == Some(seat.other()) {
            self.open_offer = None;
            applied.offer_lapsed = true;
        }
        self.to_move = seat.other();

        if self.outcome.is_none() && repeated {
            self.outcome = Some(Outcome::loss(seat, EndReason::Repetition));
        }
        if self.outcome.is_some() {
            return;
        }
        let limits = self.limits();
        if self.quiet >= limits.quiet_steps_to_draw {
            self.outcome = Some(Outcome::draw(EndReason::NoCaptureLimit));
        } else if limits.steps_to_draw.is_some_and(|n| self.steps >= n) {
            self.outcome = Some(Outcome::draw(EndReason::StepLimit));
        } else if self.past_time_limit() {
            self.outcome = Some(Outcome::draw(EndReason::TimeLimit));
        } else if !self.has_legal_action() {
            self.outcome = Some(if self.colours.is_none() {
                Outcome::draw(EndReason::NoMoves)
            } else {
                Outcome::loss(self.to_move, EndReason::NoMoves)
            });
        }
    }

    fn past_time_limit(&self) -> bool {
        self.limits()
            .millis_to_draw
            .is_some_and(|ms| self.elapsed_ms >= ms)
    }

    /// Whether the seat to move has a flip or a move (a pass does not count).
    pub fn has_legal_action(&self) -> bool {
        if self.variant == Variant::Flip && !self.pos.hidden().is_empty() {
            return true;
        }
        match self.moving_colour() {
            Some(c) => self.pos.has_move(self.variant, &self.options, c),
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

fn move_code(from: Square, to: Square) -> u16 {
    (from.index() as u16) << 6 | to.index() as u16
}

fn code_from(code: u16) -> Square {
    Square::from_index((code >> 6) as usize).expect("encoded square")
}

fn code_to(code: u16) -> Square {
    Square::from_index((code & 63) as usize).expect("encoded square")
}
