//! Standard 军棋 (RULES §4) as the two-seat case of the shared hidden-piece game
//! (`hidden_game`, which plays 四国 too): South's army is red and North's blue for
//! good, the alliance is `none`, and what the game does comes back in the two-player
//! words (`Action`, `Effect`, `Outcome`) the site, the records and the computer speak.

use crate::rules::board::{Square, TwoPlayer};
use crate::rules::hidden_game::{self, Defeat, Ending, Escape, Escaped, HiddenGame, Step};
use crate::rules::options::{Options, Variant};
use crate::rules::piece::{Colour, Seat};
use crate::rules::position::Position;
use crate::rules::siguo::Alliance;

use super::{Action, Applied, Effect, EndReason, Outcome, RuleError, STANDARD_COLOURS};

pub(super) type Deployed = HiddenGame<TwoPlayer>;

/// The army a seat plays.
pub(super) fn army(seat: Seat) -> Colour {
    STANDARD_COLOURS[seat.index()]
}

/// The seat that plays an army.
pub(super) fn seat_of(army: Colour) -> Seat {
    Seat::BOTH[army.index()]
}

pub(super) fn new(variant: Variant, options: Options, pos: Position, first: Seat) -> Deployed {
    let seated = STANDARD_COLOURS;
    HiddenGame::new(variant, options, Alliance::None, pos, &seated, army(first))
}

/// How the game stands in two-player words.
pub(super) fn outcome(h: &Deployed) -> Option<Outcome> {
    Some(match h.ending()? {
        Ending::Won { winners } | Ending::PlayOnDeclined { winners } => {
            let winner = Seat::BOTH
                .into_iter()
                .find(|s| winners & (1 << army(*s).index()) != 0)?;
            let why = h.defeat(army(winner.other())).unwrap_or(Defeat::Resigned);
            Outcome::win(winner, reason(why))
        }
        Ending::QuietDraw => Outcome::draw(EndReason::NoCaptureLimit),
        // Two-player games never hand a seat to the server (托管), so neither 托管 end
        // comes about; an agreed draw is the nearest reading if one ever did.
        Ending::AgreedDraw | Ending::TuoguanDraw | Ending::AllInTuoguan => {
            Outcome::draw(EndReason::Agreed)
        }
    })
}

fn reason(why: Defeat) -> EndReason {
    match why {
        Defeat::FlagTaken => EndReason::Flag,
        Defeat::NoMoves => EndReason::NoMoves,
        Defeat::Timeouts => EndReason::Timeouts,
        Defeat::Resigned => EndReason::Resign,
        Defeat::Escaped => EndReason::Escape,
    }
}

/// `seat`'s action, the turn and time checks done by `Game::apply`.
pub(super) fn act(h: &mut Deployed, seat: Seat, action: Action) -> Result<Applied, RuleError> {
    let step = match action {
        Action::Flip(_) => return Err(RuleError::NoFlipInVariant),
        Action::Move { from, to } => Step::Move { from, to },
        Action::Timeout => Step::Timeout,
        Action::Pass => Step::Pass,
        Action::OfferDraw => Step::OfferDraw,
        Action::AcceptDraw => Step::AcceptDraw,
        Action::DeclineDraw => Step::DeclineDraw,
        Action::Resign => Step::Resign,
        Action::Escape => {
            return match h.escape(army(seat), Escape::Left) {
                Ok(Escaped::Defeated(applied)) => Ok(told(h, applied, Effect::Escaped)),
                // Without an ally an escape always defeats; the game being over is the
                // only other answer, and `Game::apply` has checked that already.
                _ => Err(RuleError::GameOver),
            };
        }
    };
    match h.apply(army(seat), step) {
        Ok(applied) => {
            let effect = effect(&applied);
            Ok(told(h, applied, effect))
        }
        // A refused action changed nothing, so the position still shows why.
        Err(e) => Err(refusal(h.position(), action, e)),
    }
}

/// A move listed for the seat to move, without checking it again or telling what it
/// did.
#[inline]
pub(super) fn act_listed(h: &mut Deployed, from: Square, to: Square) {
    let applied = h.apply_listed(from, to);
    if h.is_over() {
        h.restore_cleared(&applied.cleared);
    }
}

fn effect(a: &hidden_game::Applied<TwoPlayer>) -> Effect {
    match a.step {
        Step::Move { from, to } => Effect::Moved {
            from,
            to,
            mover: a.mover.expect("a move has a mover"),
            target: a.target,
            combat: a.combat,
        },
        Step::Pass => Effect::Passed,
        Step::Timeout => Effect::TimedOut,
        Step::Resign => Effect::Resigned,
        Step::OfferDraw => Effect::DrawOffered,
        Step::AcceptDraw => Effect::DrawAccepted,
        Step::DeclineDraw => Effect::DrawDeclined,
    }
}

/// The shared game's answer in two-player words. When the action ended the game, the
/// army it defeated goes back on the board as it stood: nothing plays on to need the
/// stations clear, and a two-player game shows both armies at the end (RULES §4).
fn told(h: &mut Deployed, a: hidden_game::Applied<TwoPlayer>, effect: Effect) -> Applied {
    if h.is_over() {
        // As `act_listed` does.
        h.restore_cleared(&a.cleared);
    }
    Applied {
        seat: seat_of(a.seat),
        effect,
        colours_assigned: None,
        flags_revealed: a.flags_shown,
        // A declined offer is its own effect; a resigning offerer's offer ends with
        // the game. Only a step lets the opponent's offer lapse.
        offer_lapsed: a.offer_lapsed && a.step.is_step(),
        outcome: outcome(h),
    }
}

/// Why the shared game refused an action, in the two-player words.
fn refusal(before: &Position, action: Action, e: hidden_game::StepError<Square>) -> RuleError {
    use hidden_game::StepError as E;
    let from = match action {
        Action::Move { from, .. } => Some(from),
        _ => None,
    };
    match e {
        E::GameOver | E::NotInPlay => RuleError::GameOver,
        E::NotYourTurn => RuleError::NotYourTurn,
        E::NoPassInVariant => RuleError::NoPassInVariant,
        E::EmptyStation(s) => RuleError::EmptySquare(s),
        E::NotYourPiece(s) => RuleError::NotYourPiece(s),
        E::Immovable(s) => match before.get(s) {
            Some(t) => RuleError::Immovable(s, t.piece),
            None => RuleError::EmptySquare(s),
        },
        E::HeadquartersLock(s) => RuleError::HeadquartersLock(s),
        E::Unreachable { from, to } => RuleError::Unreachable { from, to },
        E::Attack { to, why } => RuleError::Attack {
            from: from.unwrap_or(to),
            to,
            why,
        },
        E::TooEarly { needed, steps } => RuleError::TooEarly { needed, steps },
        // Standard 军棋 offers without a per-step limit (RULES §4.9), so the shared
        // game never gives this one here; an open offer is the nearest reading.
        E::OfferAlreadyOpen | E::OfferedSinceOwnStep => RuleError::OfferAlreadyOpen,
        E::NoOfferToAnswer => RuleError::NoOfferToAnswer,
    }
}
