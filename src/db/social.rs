//! Follows (关注), blocks and challenges as stored (migration `social`). The rules about
//! who may do what (caps, blocks, expiry) are checked by `crate::live::social`, which
//! runs these in its writes.

use super::schema::{blocks, challenges, follows, users};
use super::users::User;
use super::{DbConn, DbError};
use diesel::prelude::*;

pub const PENDING: &str = "pending";
/// Taken by the accept that is starting the game: neither a second accept nor a cancel
/// can take it meanwhile.
pub const ACCEPTING: &str = "accepting";
pub const ACCEPTED: &str = "accepted";
pub const DECLINED: &str = "declined";
pub const CANCELLED: &str = "cancelled";
pub const EXPIRED: &str = "expired";

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = challenges)]
pub struct ChallengeRow {
    pub id: String,
    pub challenger_id: i64,
    pub challenged_id: i64,
    pub variant: String,
    pub seconds_per_action: i32,
    pub rated: bool,
    pub status: String,
    pub game_id: Option<String>,
    pub created_at: i64,
    pub decided_at: Option<i64>,
}

/// Follows `followee`, not yet followed (checked in the same write).
pub fn follow(c: &mut DbConn, follower: i64, followee: i64, now: i64) -> Result<bool, DbError> {
    let n = diesel::insert_into(follows::table)
        .values((
            follows::follower_id.eq(follower),
            follows::followee_id.eq(followee),
            follows::created_at.eq(now),
        ))
        .execute(c)?;
    Ok(n == 1)
}

pub fn unfollow(c: &mut DbConn, follower: i64, followee: i64) -> Result<bool, DbError> {
    let n = diesel::delete(
        follows::table
            .filter(follows::follower_id.eq(follower))
            .filter(follows::followee_id.eq(followee)),
    )
    .execute(c)?;
    Ok(n == 1)
}

pub fn follow_count(c: &mut DbConn, follower: i64) -> Result<i64, DbError> {
    Ok(follows::table
        .filter(follows::follower_id.eq(follower))
        .count()
        .get_result(c)?)
}

pub fn follows(c: &mut DbConn, follower: i64, followee: i64) -> Result<bool, DbError> {
    Ok(diesel::select(diesel::dsl::exists(
        follows::table
            .filter(follows::follower_id.eq(follower))
            .filter(follows::followee_id.eq(followee)),
    ))
    .get_result(c)?)
}

/// The players `follower` follows, by name.
pub fn followed(c: &mut DbConn, follower: i64) -> Result<Vec<User>, DbError> {
    Ok(follows::table
        .inner_join(users::table.on(users::id.eq(follows::followee_id)))
        .filter(follows::follower_id.eq(follower))
        .order(users::username_key.asc())
        .select(User::as_select())
        .load(c)?)
}

/// Blocks `blocked`, not yet blocked (checked in the same write).
pub fn block(c: &mut DbConn, blocker: i64, blocked: i64, now: i64) -> Result<bool, DbError> {
    let n = diesel::insert_into(blocks::table)
        .values((
            blocks::blocker_id.eq(blocker),
            blocks::blocked_id.eq(blocked),
            blocks::created_at.eq(now),
        ))
        .execute(c)?;
    Ok(n == 1)
}

pub fn unblock(c: &mut DbConn, blocker: i64, blocked: i64) -> Result<bool, DbError> {
    let n = diesel::delete(
        blocks::table
            .filter(blocks::blocker_id.eq(blocker))
            .filter(blocks::blocked_id.eq(blocked)),
    )
    .execute(c)?;
    Ok(n == 1)
}

pub fn block_count(c: &mut DbConn, blocker: i64) -> Result<i64, DbError> {
    Ok(blocks::table
        .filter(blocks::blocker_id.eq(blocker))
        .count()
        .get_result(c)?)
}

/// Every block, as (blocker, blocked): the live games keep them in memory.
pub fn all_blocks(c: &mut DbConn) -> Result<Vec<(i64, i64)>, DbError> {
    Ok(blocks::table
        .select((blocks::blocker_id, blocks::blocked_id))
        .load(c)?)
}

/// The players `blocker` blocks, by name.
pub fn blocked(c: &mut DbConn, blocker: i64) -> Result<Vec<User>, DbError> {
    Ok(blocks::table
        .inner_join(users::table.on(users::id.eq(blocks::blocked_id)))
        .filter(blocks::blocker_id.eq(blocker))
        .order(users::username_key.asc())
        .select(User::as_select())
        .load(c)?)
}

pub fn insert_challenge(c: &mut DbConn, row: &ChallengeRow) -> Result<(), DbError> {
    diesel::insert_into(challenges::table)
        .values(row)
        .execute(c)?;
    Ok(())
}

pub fn challenge(c: &mut DbConn, id: &str) -> Result<Option<ChallengeRow>, DbError> {
    Ok(challenges::table
        .find(id)
        .select(ChallengeRow::as_select())
        .first(c)
        .optional()?)
}

/// Whether any pending challenge was made before `cutoff`.
pub fn any_lapsed(c: &mut DbConn, cutoff: i64) -> Result<bool, DbError> {
    Ok(diesel::select(diesel::dsl::exists(
        challenges::table
            .filter(challenges::status.eq(PENDING))
            .filter(challenges::created_at.lt(cutoff)),
    ))
    .get_result(c)?)
}

/// Marks pending challenges made before `cutoff` expired, and returns who was on
/// either side of them (their lists changed).
pub fn expire(c: &mut DbConn, cutoff: i64, now: i64) -> Result<Vec<i64>, DbError> {
    let stale: Vec<(i64, i64)> = challenges::table
        .filter(challenges::status.eq(PENDING))
        .filter(challenges::created_at.lt(cutoff))
        .select((challenges::challenger_id, challenges::challenged_id))
        .load(c)?;
    if stale.is_empty() {
        return Ok(Vec::new());
    }
    diesel::update(
        challenges::table
            .filter(challenges::status.eq(PENDING))
            .filter(challenges::created_at.lt(cutoff)),
    )
    .set((
        challenges::status.eq(EXPIRED),
        challenges::decided_at.eq(now),
    ))
    .execute(c)?;
    Ok(stale.into_iter().flat_map(|(a, b)| [a, b]).collect())
}

/// Moves challenge `id` from status `from` to `to` (with its game, when accepted);
/// `false` when it was not in `from` (someone else decided it first).
pub fn set_status(
    c: &mut DbConn,
    id: &str,
    from: &str,
    to: &str,
    game: Option<&str>,
    now: i64,
) -> Result<bool, DbError> {
    let n = diesel::update(
        challenges::table
            .filter(challenges::id.eq(id))
            .filter(challenges::status.eq(from)),
    )
    .set((
        challenges::status.eq(to),
        challenges::game_id.eq(game),
        challenges::decided_at.eq(now),
    ))
    .execute(c)?;
    Ok(n == 1)
}

/// `user`'s challenges to others pending since `since` (older ones have lapsed).
pub fn pending_from(c: &mut DbConn, user: i64, since: i64) -> Result<i64, DbError> {
    Ok(challenges::table
        .filter(challenges::challenger_id.eq(user))
        .filter(challenges::created_at.ge(since))
        .filter(challenges::status.eq(PENDING))
        .count()
        .get_result(c)?)
}

/// Whether `from` already has a challenge to `to` pending since `since`.
pub fn pending_between(c: &mut DbConn, from: i64, to: i64, since: i64) -> Result<bool, DbError> {
    Ok(diesel::select(diesel::dsl::exists(
        challenges::table
            .filter(challenges::challenger_id.eq(from))
            .filter(challenges::created_at.ge(since))
            .filter(challenges::challenged_id.eq(to))
            .filter(challenges::status.eq_any([PENDING, ACCEPTING])),
    ))
    .get_result(c)?)
}

/// Cancels what is pending between `a` and `b` either way (one has blocked the
/// other); who was on either side.
pub fn cancel_between(c: &mut DbConn, a: i64, b: i64, now: i64) -> Result<usize, DbError> {
    let either = challenges::challenger_id
        .eq(a)
        .and(challenges::challenged_id.eq(b))
        .or(challenges::challenger_id
            .eq(b)
            .and(challenges::challenged_id.eq(a)));
    Ok(diesel::update(
        challenges::table
            .filter(either)
            .filter(challenges::status.eq(PENDING)),
    )
    .set((
        challenges::status.eq(CANCELLED),
        challenges::decided_at.eq(now),
    ))
    .execute(c)?)
}

/// The challenges `user` is on either side of that were made since `since`, newest
/// first (at most 50).
pub fn recent_of(c: &mut DbConn, user: i64, since: i64) -> Result<Vec<ChallengeRow>, DbError> {
    Ok(challenges::table
        .filter(
            challenges::challenger_id
                .eq(user)
                .or(challenges::challenged_id.eq(user)),
        )
        .filter(challenges::created_at.ge(since))
        .order((challenges::created_at.desc(), challenges::id.desc()))
        .limit(50)
        .select(ChallengeRow::as_select())
        .load(c)?)
}

/// The players of `ids` (those that exist).
pub fn users_by_id(c: &mut DbConn, ids: &[i64]) -> Result<Vec<User>, DbError> {
    Ok(users::table
        .filter(users::id.eq_any(ids))
        .select(User::as_select())
        .load(c)?)
}
