//! Server-side sessions, found by the SHA-256 of the token their cookie carries.

use super::schema::sessions;
use super::{DbConn, DbError};
use diesel::prelude::*;

/// A session ends this long after it was last used.
pub const TTL_MS: i64 = 30 * 24 * 3600 * 1000;

/// `last_seen_at` and the expiry move forward at most this often, so a session in use
/// costs a write an hour rather than one per request.
pub const SLIDE_EVERY_MS: i64 = 3600 * 1000;

/// Stores a new session of `user_id` and clears away expired ones (on a login, so that
/// the table holds no more than the sessions still alive and a day's logins).
pub fn create(
    conn: &mut DbConn,
    token_hash: &str,
    user_id: i64,
    user_agent: Option<&str>,
    now: i64,
) -> Result<(), DbError> {
    diesel::delete(sessions::table.filter(sessions::expires_at.le(now))).execute(conn)?;
    diesel::insert_into(sessions::table)
        .values((
            sessions::token_hash.eq(token_hash),
            sessions::user_id.eq(user_id),
            sessions::created_at.eq(now),
            sessions::last_seen_at.eq(now),
            sessions::expires_at.eq(now + TTL_MS),
            sessions::user_agent.eq(user_agent),
        ))
        .execute(conn)?;
    Ok(())
}

/// The user of a live session, sliding its expiry forward when it is due; `None` for
/// an unknown, ended or expired one.
pub fn user_of(conn: &mut DbConn, token_hash: &str, now: i64) -> Result<Option<i64>, DbError> {
    let row: Option<(i64, i64)> = sessions::table
        .find(token_hash)
        .filter(sessions::expires_at.gt(now))
        .select((sessions::user_id, sessions::last_seen_at))
        .first(conn)
        .optional()?;
    let Some((user_id, last_seen)) = row else {
        return Ok(None);
    };
    if now - last_seen >= SLIDE_EVERY_MS {
        diesel::update(sessions::table.find(token_hash))
            .set((
                sessions::last_seen_at.eq(now),
                sessions::expires_at.eq(now + TTL_MS),
            ))
            .execute(conn)?;
    }
    Ok(Some(user_id))
}

/// Ends one session.
pub fn delete(conn: &mut DbConn, token_hash: &str) -> Result<(), DbError> {
    diesel::delete(sessions::table.find(token_hash)).execute(conn)?;
    Ok(())
}

/// Ends every session of a user; returns how many there were.
pub fn delete_all_of(conn: &mut DbConn, user_id: i64) -> Result<usize, DbError> {
    Ok(diesel::delete(sessions::table.filter(sessions::user_id.eq(user_id))).execute(conn)?)
}
