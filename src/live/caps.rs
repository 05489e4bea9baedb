//! The caps every start of a game counts against, checked in one place: open games
//! ([`MAX_OPEN_GAMES`]), rated games in hand ([`MAX_RATED_GAMES`]) and games running
//! against the computer ([`MAX_COMPUTER_GAMES`]), and the rule that rated games are
//! between players of one kind.
//!
//! A game starts in one of three ways — opened by its creator (`POST /api/games`, a
//! quick pairing that finds nobody, a game against the computer), joined (`POST
//! /api/games/{id}/join`, quick pairing, the computer taking its seat) or played again
//! (a rematch, against a person or the computer) — and [`check`] is told which. Each
//! caller runs it in the same write as the change it allows (through the database's
//! one writer, which runs writes one after another), so that two starts at once
//! cannot both pass on the same count: before, a rematch was not counted at all, and
//! three finished games against the computer rematched made six running.
//!
//! 四国 tables count like games: a table opened is an open game of its creator, a
//! rated table one sits at (open or running) a rated game in hand, and a table with the
//! computer at it a game against the computer. A table is opened through [`check`];
//! each change of its seats passes [`seat_at_table`] in the write that stores it.

use super::computer::MAX_COMPUTER_GAMES;
use super::lobby::{MAX_OPEN_GAMES, MAX_RATED_GAMES};
use crate::db::{DbConn, games, kinds, tables, users};
use crate::error::AppError;

/// A game about to start, as the caps see it.
#[derive(Debug, Clone, Copy)]
pub enum Start {
    /// `creator` opens a game that waits for an opponent; `computer`: the computer is
    /// to take the other seat at once.
    Open {
        creator: i64,
        rated: bool,
        computer: bool,
    },
    /// `joiner` takes the free seat of `creator`'s open game, which starts. The open
    /// game already counted as the creator's rated game in hand.
    Join {
        creator: i64,
        joiner: i64,
        rated: bool,
    },
    /// The players of a finished game play again; `asker` is the one whose request
    /// this is (refusals speak to them), `other` the opponent.
    Rematch { asker: i64, other: i64, rated: bool },
    /// `accepter` accepts `challenger`'s challenge: the game is opened by the
    /// challenger and joined by the accepter at once.
    Challenge {
        accepter: i64,
        challenger: i64,
        rated: bool,
    },
}

/// Whose cap a refusal is about, for its wording.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Whose {
    Yours,
    Opponents,
}

/// Refuses `start` with the cap it would break (409 `too_many_open_games`,
/// `too_many_rated_games`, `too_many_computer_games`, or 403 `not_rated_together`);
/// changes nothing.
pub fn check(c: &mut DbConn, start: &Start) -> Result<(), AppError> {
    match *start {
        Start::Open {
            creator,
            rated,
            computer,
        } => {
            open_room(c, creator)?;
            if rated {
                rated_pool(c, creator)?;
                rated_room(c, creator, Whose::Yours)?;
            }
            if computer {
                let computers = users::computer_ids(c)?;
                computer_room(c, creator, &computers)?;
            }
        }
        Start::Join {
            creator,
            joiner,
            rated,
        } => {
            if rated {
                rated_together(c, creator, joiner)?;
                rated_room(c, joiner, Whose::Yours)?;
            }
            against_computer(c, creator, joiner)?;
        }
        Start::Rematch {
            asker,
            other,
            rated,
        }
        | Start::Challenge {
            accepter: asker,
            challenger: other,
            rated,
        } => {
            if rated {
                rated_together(c, asker, other)?;
                rated_room(c, asker, Whose::Yours)?;
                rated_room(c, other, Whose::Opponents)?;
            }
            against_computer(c, asker, other)?;
        }
    }
    Ok(())
}

/// When one of two players is the computer, the other's games against it.
fn against_computer(c: &mut DbConn, a: i64, b: i64) -> Result<(), AppError> {
    let computers = users::computer_ids(c)?;
    match (computers.contains(&a), computers.contains(&b)) {
        (false, true) => computer_room(c, a, &computers),
        (true, false) => computer_room(c, b, &computers),
        _ => Ok(()),
    }
}

/// A change of a 四国 table's seats, as the caps see it: who sits down.
#[derive(Debug, Clone)]
pub struct TableSeating {
    pub creator: i64,
    pub rated: bool,
    /// Players seated after the change who were not before (people, or the computer).
    pub newcomers: Vec<i64>,
    /// Whether the computer sat at the table before the change, and sits after it.
    pub computer_before: bool,
    pub computer_after: bool,
}

/// Refuses a change of a table's seats that would take a newcomer past a cap: a rated
/// table takes players of the creator's kind only (never the computer or a guest)
/// within their rated games in hand; a person sitting down with the computer at the
/// table, or the creator seating the computer for the first time, within the games
/// against the computer. Standing, moving and pressing ready pass.
pub fn seat_at_table(c: &mut DbConn, s: &TableSeating) -> Result<(), AppError> {
    if s.newcomers.is_empty() {
        return Ok(());
    }
    let computers = users::computer_ids(c)?;
    for &user in &s.newcomers {
        let computer = computers.contains(&user);
        if s.rated {
            rated_together(c, s.creator, user)?;
            rated_room(c, user, Whose::Yours)?;
        }
        if computer && !s.computer_before {
            computer_room(c, s.creator, &computers)?;
        } else if !computer && s.computer_after {
            computer_room(c, user, &computers)?;
        }
    }
    Ok(())
}

/// Refuses a new open game past [`MAX_OPEN_GAMES`].
fn open_room(c: &mut DbConn, user: i64) -> Result<(), AppError> {
    if games::open_count(c, user)? >= MAX_OPEN_GAMES {
        return Err(AppError::Limit(
            "too_many_open_games",
            format!(
                "you already have {MAX_OPEN_GAMES} open games; cancel one or wait for an \
                 opponent before opening another"
            ),
        ));
    }
    Ok(())
}

/// Refuses one more rated game in hand past [`MAX_RATED_GAMES`].
fn rated_room(c: &mut DbConn, user: i64, whose: Whose) -> Result<(), AppError> {
    if games::rated_in_hand(c, user)? < MAX_RATED_GAMES {
        return Ok(());
    }
    let message = match whose {
        Whose::Yours => format!(
            "you already have {MAX_RATED_GAMES} rated games open or in play; finish or \
             cancel one first (casual games are not limited)"
        ),
        Whose::Opponents => format!(
            "your opponent already has {MAX_RATED_GAMES} rated games open or in play; the \
             game can start once they finish or cancel one"
        ),
    };
    Err(AppError::Limit("too_many_rated_games", message))
}

/// Refuses one more game against the computer past [`MAX_COMPUTER_GAMES`]: two-player
/// games running, and tables open or running with the computer at them (a table's
/// computer seats take the thinking pool's time as a game's does).
fn computer_room(c: &mut DbConn, user: i64, computers: &[i64]) -> Result<(), AppError> {
    let playing = games::computer_games_running(c, user, computers)?
        + tables::computer_tables_in_hand(c, user, computers)?;
    if playing >= MAX_COMPUTER_GAMES {
        return Err(AppError::Limit(
            "too_many_computer_games",
            format!(
                "you already play {MAX_COMPUTER_GAMES} games against the computer; finish \
                 or resign one before starting another"
            ),
        ));
    }
    Ok(())
}

/// The kind of player `user` may meet in a rated game (their own: people meet people,
/// bots meet bots), or 403 `not_rated_together` for the computer, which plays casual
/// games only, and 403 `guest_casual_only` for a guest.
pub fn rated_pool(c: &mut DbConn, user: i64) -> Result<&'static str, AppError> {
    let kind = kinds::of(c, user)?.ok_or(AppError::NotLoggedIn)?;
    if kind == kinds::GUEST {
        return Err(AppError::GuestCasualOnly);
    }
    kinds::rated_pool(&kind)
        .ok_or_else(|| AppError::NotRatedTogether("the computer plays casual games only".into()))
}

/// Refuses a rated game between `a` and `b` unless they are of one kind: ratings of
/// bots and of people are kept apart, so that no person's rating is won or lost
/// against a program.
fn rated_together(c: &mut DbConn, a: i64, b: i64) -> Result<(), AppError> {
    if rated_pool(c, a)? == rated_pool(c, b)? {
        return Ok(());
    }
    Err(AppError::NotRatedTogether(
        "rated games are between two people or two bots: a bot and a person play casual \
         games only"
            .into(),
    ))
}
