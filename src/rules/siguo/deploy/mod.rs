//! 四国 deployment (RULES §5.8): each seated player arranges its hand on its own area,
//! swapping two pieces at a time or loading a whole layout, then declares itself
//! ready; when time is up the others keep their arrangement if valid, else get a
//! random valid one. The first to finish moves first (option `first_mover`). While
//! it lasts a seat sees its own area only, 友明 or not (§5.9 point 19).
//!
//! Arrangements are seat-relative (`check`'s South frame); the phase turns them onto
//! each seat's stations only at the start.

mod check;
mod random;

pub use check::{MINES_KEPT_BACK, Violation, violations};
pub use random::random_arrangement;

use super::board::area;
use super::hand::{Hand, Hands};
use super::options::{FirstMover, SiguoOptions};
use super::{FourPlayer, Seat4, Station};
use crate::rules::Variant;
use crate::rules::board::Square;
use crate::rules::hidden_game::HiddenGame;
use crate::rules::layout::Layout;
use crate::rules::piece::{Piece, Token};
use crate::rules::{Options, Position};
use rand::{Rng, RngExt};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;

/// Why a deployment action was refused. Nothing changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeployError {
    /// The seat did not sit down at this table.
    NotSeated(Seat4),
    /// A seat that sat down was dealt no hand.
    NoHand(Seat4),
    /// The seat is ready: its arrangement is locked.
    AlreadyReady(Seat4),
    /// The square holds none of the seat's pieces.
    NotYourPiece(Square),
    /// The arrangement breaks these rules.
    Invalid(Vec<Violation>),
    /// Play starts only when every seat has finished.
    NotFinished,
}

impl fmt::Display for DeployError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeployError::NotSeated(s) => write!(f, "{s} is not seated at this table"),
            DeployError::NoHand(s) => write!(f, "{s} was dealt no hand"),
            DeployError::AlreadyReady(s) => write!(f, "{s}'s layout is locked: it is ready"),
            DeployError::NotYourPiece(s) => write!(f, "{s} does not hold one of your pieces"),
            DeployError::Invalid(v) => {
                let reasons: Vec<String> = v.iter().map(|x| x.to_string()).collect();
                write!(f, "the layout breaks the rules: {}", reasons.join("; "))
            }
            DeployError::NotFinished => write!(f, "not every seat has finished deploying"),
        }
    }
}

impl std::error::Error for DeployError {}

/// The deployment of one 四国 table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deployment4 {
    options: SiguoOptions,
    seated: Vec<Seat4>,
    hands: Hands,
    /// Each seated seat's current arrangement, South frame.
    layouts: [Layout; 4],
    /// Seats that finished, in the order they did.
    finished: Vec<Seat4>,
}

/// What one seat is shown during deployment: its hand and its own pieces on its own
/// stations, and which seats are ready. Nothing of any other seat's pieces.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DeployView {
    pub seat: Seat4,
    pub hand: Hand,
    pub pieces: BTreeMap<Station, Piece>,
    pub ready: Vec<Seat4>,
}

/// The station of `seat`'s area that a South-frame square names.
pub fn station_of(seat: Seat4, s: Square) -> Option<Station> {
    if s.rank() > 6 {
        return None;
    }
    Station::of(seat, s.file(), s.rank())
}

impl Deployment4 {
    /// A deployment of `hands` for the seats of `seated` (each must hold a hand), every
    /// seat starting from a random valid arrangement of its hand.
    pub fn new<R: Rng + ?Sized>(
        options: SiguoOptions,
        seated: &[Seat4],
        hands: Hands,
        rng: &mut R,
    ) -> Result<Deployment4, DeployError> {
        let mut layouts: [Layout; 4] = Default::default();
        for &seat in seated {
            let hand = hands.get(seat).ok_or(DeployError::NoHand(seat))?;
            layouts[seat.index()] = random_arrangement(hand, rng);
        }
        Ok(Deployment4 {
            options,
            seated: seated.to_vec(),
            hands,
            layouts,
            finished: Vec::new(),
        })
    }

    pub fn options(&self) -> SiguoOptions {
        self.options
    }

    pub fn hands(&self) -> &Hands {
        &self.hands
    }

    pub fn seated(&self) -> &[Seat4] {
        &self.seated
    }

    fn seat_check(&self, seat: Seat4) -> Result<&Hand, DeployError> {
        if !self.seated.contains(&seat) {
            return Err(DeployError::NotSeated(seat));
        }
        if self.is_ready(seat) {
            return Err(DeployError::AlreadyReady(seat));
        }
        self.hands.get(seat).ok_or(DeployError::NoHand(seat))
    }

    /// The seat's current arrangement (South frame); empty for a seat not seated.
    pub fn arrangement(&self, seat: Seat4) -> &Layout {
        &self.layouts[seat.index()]
    }

    /// The rules the seat's current arrangement breaks.
    pub fn violations(&self, seat: Seat4) -> Vec<Violation> {
        match self.hands.get(seat) {
            Some(hand) => violations(
                self.arrangement(seat),
                hand,
                self.options.bombs_on_front_row,
            ),
            None => Vec::new(),
        }
    }

    pub fn is_ready(&self, seat: Seat4) -> bool {
        self.finished.contains(&seat)
    }

    /// The seats that finished, in the order they did.
    pub fn finished(&self) -> &[Seat4] {
        &self.finished
    }

    pub fn is_done(&self) -> bool {
        self.finished.len() == self.seated.len()
    }

    /// Swaps two of the seat's own pieces, as clicking both does (「依此点两个棋子即可
    /// 交换位置」 [000]). As in the two-player phase the result may break a rule for a
    /// while: `ready` is where it must hold.
    pub fn swap(&mut self, seat: Seat4, a: Square, b: Square) -> Result<(), DeployError> {
        self.seat_check(seat)?;
        let layout = &mut self.layouts[seat.index()];
        for s in [a, b] {
            if !layout.0.contains_key(&s) {
                return Err(DeployError::NotYourPiece(s));
            }
        }
        layout.swap(a, b);
        Ok(())
    }

    /// Replaces the seat's whole arrangement (a saved layout loaded, or a random one);
    /// refused, and nothing changed, unless it is a valid arrangement of the seat's
    /// hand.
    pub fn set_layout(&mut self, seat: Seat4, layout: Layout) -> Result<(), DeployError> {
        let hand = self.seat_check(seat)?;
        let v = violations(&layout, hand, self.options.bombs_on_front_row);
        if !v.is_empty() {
            return Err(DeployError::Invalid(v));
        }
        self.layouts[seat.index()] = layout;
        Ok(())
    }

    /// The seat finishes (出征) if its arrangement is valid.
    pub fn ready(&mut self, seat: Seat4) -> Result<(), DeployError> {
        self.seat_check(seat)?;
        let v = self.violations(seat);
        if !v.is_empty() {
            return Err(DeployError::Invalid(v));
        }
        self.finished.push(seat);
        Ok(())
    }

    /// Deployment time is up: every seat not yet ready keeps its arrangement if valid
    /// or gets a random valid one, and finishes after those already ready, in turn
    /// order.
    pub fn expire<R: Rng + ?Sized>(&mut self, rng: &mut R) {
        for seat in self.seated.clone() {
            if self.is_ready(seat) {
                continue;
            }
            if !self.violations(seat).is_empty()
                && let Some(hand) = self.hands.get(seat)
            {
                self.layouts[seat.index()] = random_arrangement(hand, rng);
            }
            self.finished.push(seat);
        }
    }

    /// What `seat` is shown now: only its own area, whatever the options say.
    pub fn view(&self, seat: Seat4) -> Option<DeployView> {
        let hand = *self.hands.get(seat)?;
        let pieces = self
            .arrangement(seat)
            .0
            .iter()
            .filter_map(|(&s, &p)| station_of(seat, s).map(|st| (st, p)))
            .collect();
        Some(DeployView {
            seat,
            hand,
            pieces,
            ready: self.finished.clone(),
        })
    }

    /// The seat that moves first: the first to finish, or (option `random`) one of the
    /// seated drawn from `rng`.
    pub fn first_mover<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Seat4> {
        if !self.is_done() {
            return None;
        }
        match self.options.first_mover {
            FirstMover::FirstDeployed => self.finished.first().copied(),
            FirstMover::Random => self
                .seated
                .get(rng.random_range(0..self.seated.len().max(1)))
                .copied(),
        }
    }

    /// The game, once every seat has finished: each arrangement turned onto its
    /// seat's stations, hidden; in 三国 the empty seat's area closed (§5.2).
    pub fn start<R: Rng + ?Sized>(
        &self,
        options: Options,
        rng: &mut R,
    ) -> Result<HiddenGame<FourPlayer>, DeployError> {
        let first = self.first_mover(rng).ok_or(DeployError::NotFinished)?;
        let mut pos = Position::<FourPlayer>::blank();
        for &seat in &self.seated {
            for (&s, &p) in &self.arrangement(seat).0 {
                let st = station_of(seat, s).expect("a valid arrangement is on the area");
                pos.put(st, Token::hidden(p, seat));
            }
        }
        for seat in Seat4::ALL {
            if !self.seated.contains(&seat) {
                pos.close(area(seat).collect());
            }
        }
        Ok(HiddenGame::new(
            Variant::Siguo,
            options,
            self.options.alliance,
            pos,
            &self.seated,
            first,
        )
        .with_allies_visible(self.options.allies_visible))
    }
}
