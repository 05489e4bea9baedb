//! What an account is (`users.kind`): a person, a bot its owner drives with API tokens,
//! or one of the site's own computer players; and the rule for changing it.
//!
//! A person may turn their account into a bot, and back, only while it has played no
//! rated game and has no game open or in play. Scores are kept apart by kind (people
//! are rated against people, bots against bots), so an account that has a rating
//! belongs to its pool for good: moving it would carry a score earned among people onto
//! the bots' side, or bring a bot's into the people's. Turning back into a person
//! revokes every token, so that no program keeps acting for a person.

use super::schema::{api_tokens, games, score_history, users};
use super::{DbConn, DbError};
use diesel::prelude::*;

pub const PERSON: &str = "person";
pub const BOT: &str = "bot";
pub const COMPUTER: &str = "computer";
pub const GUEST: &str = super::users::GUEST;

/// Whose games a rated game of this kind may be against: people with people, bots with
/// bots; the computer plays casual games only.
pub fn rated_pool(kind: &str) -> Option<&'static str> {
    match kind {
        PERSON => Some(PERSON),
        BOT => Some(BOT),
        _ => None,
    }
}

/// Why a change of kind was refused, or that it was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// Done (or already so).
    Done,
    NoSuchUser,
    /// The site's computer players stay what they are.
    Computer,
    /// The account has a rating from rated games already played.
    Rated,
    /// The account has a game open or in play.
    InHand,
    /// A guest becomes a person only by registering (`db::guests::claim`), and a bot
    /// only after that.
    Guest,
}

/// Changes `user`'s kind to `to` (`person` or `bot`) if the rule above allows it.
pub fn change(conn: &mut DbConn, user: i64, to: &str) -> Result<Change, DbError> {
    let change = super::write_transaction(conn, |c| {
        let kind: Option<String> = users::table
            .find(user)
            .select(users::kind)
            .first(c)
            .optional()?;
        let Some(kind) = kind else {
            return Ok(Change::NoSuchUser);
        };
        if kind == to {
            return Ok(Change::Done);
        }
        if kind == COMPUTER {
            return Ok(Change::Computer);
        }
        if kind == GUEST {
            return Ok(Change::Guest);
        }
        let rated: i64 = score_history::table
            .filter(score_history::user_id.eq(user))
            .count()
            .get_result(c)?;
        if rated > 0 {
            return Ok(Change::Rated);
        }
        let in_hand: i64 = games::table
            .filter(
                games::status
                    .eq(super::games::RUNNING)
                    .and(games::south_id.eq(user).or(games::north_id.eq(user)))
                    .or(games::status
                        .eq(super::games::OPEN)
                        .and(games::creator_id.eq(user))),
            )
            .count()
            .get_result(c)?;
        if in_hand > 0 {
            return Ok(Change::InHand);
        }
        diesel::update(users::table.find(user))
            .set(users::kind.eq(to))
            .execute(c)?;
        if to != BOT {
            diesel::delete(api_tokens::table.filter(api_tokens::user_id.eq(user))).execute(c)?;
        }
        Ok::<_, diesel::result::Error>(Change::Done)
    })?;
    Ok(change)
}

/// The kind of one account, if it exists.
pub fn of(conn: &mut DbConn, user: i64) -> Result<Option<String>, DbError> {
    Ok(users::table
        .find(user)
        .select(users::kind)
        .first(conn)
        .optional()?)
}
