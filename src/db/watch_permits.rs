//! 指定旁观 lists as stored (migration `watch_permits`): who lets whom see their pieces.
//! The rules about the list (registered accounts, its length) are checked by
//! `crate::live::watch_permits`, which runs these in its writes.

use super::schema::{users, watch_permits};
use super::users::User;
use super::{DbConn, DbError};
use diesel::prelude::*;
use std::collections::{HashMap, HashSet};

/// Lets `viewer` see `owner`'s pieces; false when already allowed.
pub fn allow(c: &mut DbConn, owner: i64, viewer: i64, now: i64) -> Result<bool, DbError> {
    let already: bool = diesel::select(diesel::dsl::exists(
        watch_permits::table
            .filter(watch_permits::owner_id.eq(owner))
            .filter(watch_permits::viewer_id.eq(viewer)),
    ))
    .get_result(c)?;
    if already {
        return Ok(false);
    }
    diesel::insert_into(watch_permits::table)
        .values((
            watch_permits::owner_id.eq(owner),
            watch_permits::viewer_id.eq(viewer),
            watch_permits::created_at.eq(now),
        ))
        .execute(c)?;
    Ok(true)
}

pub fn revoke(c: &mut DbConn, owner: i64, viewer: i64) -> Result<bool, DbError> {
    let n = diesel::delete(
        watch_permits::table
            .filter(watch_permits::owner_id.eq(owner))
            .filter(watch_permits::viewer_id.eq(viewer)),
    )
    .execute(c)?;
    Ok(n == 1)
}

pub fn count(c: &mut DbConn, owner: i64) -> Result<i64, DbError> {
    Ok(watch_permits::table
        .filter(watch_permits::owner_id.eq(owner))
        .count()
        .get_result(c)?)
}

/// The users `owner` lets watch, by name.
pub fn listed(c: &mut DbConn, owner: i64) -> Result<Vec<User>, DbError> {
    Ok(watch_permits::table
        .inner_join(users::table.on(users::id.eq(watch_permits::viewer_id)))
        .filter(watch_permits::owner_id.eq(owner))
        .order(users::username_key.asc())
        .select(User::as_select())
        .load(c)?)
}

/// Each of `owners`' lists as user ids: what a game's task keeps to cut its
/// spectators' views (one read for all the game's players).
pub fn lists_of(c: &mut DbConn, owners: &[i64]) -> Result<HashMap<i64, HashSet<i64>>, DbError> {
    let rows: Vec<(i64, i64)> = watch_permits::table
        .filter(watch_permits::owner_id.eq_any(owners))
        .select((watch_permits::owner_id, watch_permits::viewer_id))
        .load(c)?;
    let mut lists: HashMap<i64, HashSet<i64>> =
        owners.iter().map(|&o| (o, HashSet::new())).collect();
    for (owner, viewer) in rows {
        lists.entry(owner).or_default().insert(viewer);
    }
    Ok(lists)
}
