//! API tokens of bot accounts, found by the SHA-256 of the token (the token itself is
//! shown to its owner once and never stored).

use super::schema::api_tokens;
use super::{DbConn, DbError};
use diesel::prelude::*;

/// `last_used_at` moves forward at most this often, so a bot that sends a request a
/// second costs a write a minute rather than one per request.
pub const TOUCH_EVERY_MS: i64 = 60 * 1000;

/// A token as its owner's list shows it: never the token, which is not kept.
#[derive(Debug, Clone, Queryable, Selectable, serde::Serialize)]
#[diesel(table_name = api_tokens)]
pub struct TokenInfo {
    pub id: i64,
    pub name: String,
    pub created_at: i64,
    pub last_used_at: Option<i64>,
}

/// Stores a new token of `user` unless they already have `cap`; `None` at the cap.
/// The caller holds whatever serialises this user's changes (a transaction here keeps
/// the count and the insert together on either backend).
pub fn create(
    conn: &mut DbConn,
    user: i64,
    name: &str,
    token_hash: &str,
    now: i64,
    cap: i64,
) -> Result<Option<TokenInfo>, DbError> {
    let made = super::write_transaction(conn, |c| {
        let held: i64 = api_tokens::table
            .filter(api_tokens::user_id.eq(user))
            .count()
            .get_result(c)?;
        if held >= cap {
            return Ok(None);
        }
        diesel::insert_into(api_tokens::table)
            .values((
                api_tokens::user_id.eq(user),
                api_tokens::name.eq(name),
                api_tokens::token_hash.eq(token_hash),
                api_tokens::created_at.eq(now),
            ))
            .execute(c)?;
        let info = api_tokens::table
            .filter(api_tokens::token_hash.eq(token_hash))
            .select(TokenInfo::as_select())
            .first(c)?;
        Ok::<_, diesel::result::Error>(Some(info))
    })?;
    Ok(made)
}

/// A user's tokens, oldest first.
pub fn list(conn: &mut DbConn, user: i64) -> Result<Vec<TokenInfo>, DbError> {
    Ok(api_tokens::table
        .filter(api_tokens::user_id.eq(user))
        .order(api_tokens::id.asc())
        .select(TokenInfo::as_select())
        .load(conn)?)
}

/// Deletes one of `user`'s tokens; `false` when they have no token `id`.
pub fn revoke(conn: &mut DbConn, user: i64, id: i64) -> Result<bool, DbError> {
    let n = diesel::delete(
        api_tokens::table
            .filter(api_tokens::id.eq(id))
            .filter(api_tokens::user_id.eq(user)),
    )
    .execute(conn)?;
    Ok(n == 1)
}

/// Deletes every token of `user`; returns how many there were.
pub fn revoke_all(conn: &mut DbConn, user: i64) -> Result<usize, DbError> {
    Ok(diesel::delete(api_tokens::table.filter(api_tokens::user_id.eq(user))).execute(conn)?)
}

/// The account a token acts for, noting its use when it is due; `None` for an unknown
/// or revoked one.
pub fn user_of(conn: &mut DbConn, token_hash: &str, now: i64) -> Result<Option<i64>, DbError> {
    let row: Option<(i64, i64, Option<i64>)> = api_tokens::table
        .filter(api_tokens::token_hash.eq(token_hash))
        .select((
            api_tokens::id,
            api_tokens::user_id,
            api_tokens::last_used_at,
        ))
        .first(conn)
        .optional()?;
    let Some((id, user, last_used)) = row else {
        return Ok(None);
    };
    if last_used.is_none_or(|t| now - t >= TOUCH_EVERY_MS) {
        diesel::update(api_tokens::table.find(id))
            .set(api_tokens::last_used_at.eq(now))
            .execute(conn)?;
    }
    Ok(Some(user))
}
