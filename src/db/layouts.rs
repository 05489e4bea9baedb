//! Standard 军棋 layouts kept per player: the one last taken into battle, and named
//! saved ones. Layouts are stored as JSON (`{"a1":"flag",…}`) seen from the owner's
//! own side (South's squares), so one layout fits either seat.

use super::schema::{last_layouts, saved_layouts};
use super::{DbConn, DbError, now_ms};
use diesel::prelude::*;

/// The layout `user` last went to battle with, as stored JSON.
pub fn last_used(conn: &mut DbConn, user: i64) -> Result<Option<String>, DbError> {
    Ok(last_layouts::table
        .find(user)
        .select(last_layouts::layout)
        .first(conn)
        .optional()?)
}

/// Remembers `layout` (JSON, own view) as the one `user` last went to battle with.
pub fn set_last_used(conn: &mut DbConn, user: i64, layout: &str) -> Result<(), DbError> {
    let now = now_ms();
    let n = diesel::update(last_layouts::table.find(user))
        .set((
            last_layouts::layout.eq(layout),
            last_layouts::updated_at.eq(now),
        ))
        .execute(conn)?;
    if n == 0 {
        diesel::insert_into(last_layouts::table)
            .values((
                last_layouts::user_id.eq(user),
                last_layouts::layout.eq(layout),
                last_layouts::updated_at.eq(now),
            ))
            .execute(conn)?;
    }
    Ok(())
}

/// A named layout a player saved.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = saved_layouts)]
pub struct SavedLayout {
    pub id: i64,
    pub user_id: i64,
    pub name: String,
    /// JSON, own view.
    pub layout: String,
    pub updated_at: i64,
}

/// A player's saved layouts, by name.
pub fn list(conn: &mut DbConn, user: i64) -> Result<Vec<SavedLayout>, DbError> {
    Ok(saved_layouts::table
        .filter(saved_layouts::user_id.eq(user))
        .order((saved_layouts::name.asc(), saved_layouts::id.asc()))
        .select(SavedLayout::as_select())
        .load(conn)?)
}

/// One saved layout of `user`; `None` when there is no such id or it is someone else's.
pub fn get(conn: &mut DbConn, user: i64, id: i64) -> Result<Option<SavedLayout>, DbError> {
    Ok(saved_layouts::table
        .filter(saved_layouts::id.eq(id))
        .filter(saved_layouts::user_id.eq(user))
        .select(SavedLayout::as_select())
        .first(conn)
        .optional()?)
}

/// Saves `layout` (JSON, own view) under `name`, replacing a layout of that name.
pub fn save(
    conn: &mut DbConn,
    user: i64,
    name: &str,
    layout: &str,
) -> Result<SavedLayout, DbError> {
    let now = now_ms();
    conn.transaction(|c| {
        let n = diesel::update(
            saved_layouts::table
                .filter(saved_layouts::user_id.eq(user))
                .filter(saved_layouts::name.eq(name)),
        )
        .set((
            saved_layouts::layout.eq(layout),
            saved_layouts::updated_at.eq(now),
        ))
        .execute(c)?;
        if n == 0 {
            diesel::insert_into(saved_layouts::table)
                .values((
                    saved_layouts::user_id.eq(user),
                    saved_layouts::name.eq(name),
                    saved_layouts::layout.eq(layout),
                    saved_layouts::updated_at.eq(now),
                ))
                .execute(c)?;
        }
        saved_layouts::table
            .filter(saved_layouts::user_id.eq(user))
            .filter(saved_layouts::name.eq(name))
            .select(SavedLayout::as_select())
            .first(c)
    })
    .map_err(DbError::Query)
}
