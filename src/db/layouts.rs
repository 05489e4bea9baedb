//! Standard 军棋 layouts a player saved by name. Layouts are stored as JSON
//! (`{"a1":"flag",…}`) seen from the owner's own side (South's squares), so one layout
//! fits either seat. The layout a player last went to battle with is not kept: a new
//! deployment starts from a random layout (see `live::deploy::initial`), since the
//! last one is in the finished game's record for its opponent to read.

use super::schema::saved_layouts;
use super::{DbConn, DbError, now_ms};
use diesel::prelude::*;

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
    Ok(get_in(conn, user, id)?)
}

fn get_in(c: &mut DbConn, user: i64, id: i64) -> QueryResult<Option<SavedLayout>> {
    saved_layouts::table
        .filter(saved_layouts::id.eq(id))
        .filter(saved_layouts::user_id.eq(user))
        .select(SavedLayout::as_select())
        .first(c)
        .optional()
}

/// Writes `layout` under `name` for `user`, replacing a layout of that name, and reads
/// the row back. Run inside a transaction.
fn upsert(c: &mut DbConn, user: i64, name: &str, layout: &str) -> QueryResult<SavedLayout> {
    let now = now_ms();
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
}

/// Saves `layout` (JSON, own view) under `name`, replacing a layout of that name.
pub fn save(
    conn: &mut DbConn,
    user: i64,
    name: &str,
    layout: &str,
) -> Result<SavedLayout, DbError> {
    super::write_transaction(conn, |c| upsert(c, user, name, layout)).map_err(DbError::Query)
}

/// What [`save_within`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SaveOutcome {
    Saved(SavedLayout),
    /// `user` already keeps `max` layouts and the name is a new one.
    Full,
}

/// Like [`save`], but refuses a new name once `user` keeps `max` layouts (replacing
/// one of the same name is always allowed).
pub fn save_within(
    conn: &mut DbConn,
    user: i64,
    name: &str,
    layout: &str,
    max: usize,
) -> Result<SaveOutcome, DbError> {
    super::write_transaction(conn, |c| {
        let mine = saved_layouts::table.filter(saved_layouts::user_id.eq(user));
        let exists = mine
            .filter(saved_layouts::name.eq(name))
            .select(saved_layouts::id)
            .first::<i64>(c)
            .optional()?
            .is_some();
        if !exists && mine.count().get_result::<i64>(c)? >= max as i64 {
            return Ok(SaveOutcome::Full);
        }
        upsert(c, user, name, layout).map(SaveOutcome::Saved)
    })
    .map_err(DbError::Query)
}

/// How many layouts `user` keeps.
pub fn count(conn: &mut DbConn, user: i64) -> Result<i64, DbError> {
    Ok(saved_layouts::table
        .filter(saved_layouts::user_id.eq(user))
        .count()
        .get_result(conn)?)
}

/// What [`rename`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RenameOutcome {
    Renamed(SavedLayout),
    /// No layout of `user` has that id (it may be someone else's).
    NotFound,
    /// Another layout of `user` already has the name.
    NameTaken,
}

/// Gives layout `id` of `user` a new name.
pub fn rename(conn: &mut DbConn, user: i64, id: i64, name: &str) -> Result<RenameOutcome, DbError> {
    let outcome = super::write_transaction(conn, |c| {
        let Some(row) = get_in(c, user, id)? else {
            return Ok(RenameOutcome::NotFound);
        };
        if row.name == name {
            return Ok(RenameOutcome::Renamed(row));
        }
        let taken = saved_layouts::table
            .filter(saved_layouts::user_id.eq(user))
            .filter(saved_layouts::name.eq(name))
            .select(saved_layouts::id)
            .first::<i64>(c)
            .optional()?
            .is_some();
        if taken {
            return Ok(RenameOutcome::NameTaken);
        }
        diesel::update(
            saved_layouts::table
                .filter(saved_layouts::id.eq(id))
                .filter(saved_layouts::user_id.eq(user)),
        )
        .set((
            saved_layouts::name.eq(name),
            saved_layouts::updated_at.eq(now_ms()),
        ))
        .execute(c)?;
        Ok(get_in(c, user, id)?.map_or(RenameOutcome::NotFound, RenameOutcome::Renamed))
    });
    match outcome {
        // Two renames to the same name at once: the unique index decides.
        Err(diesel::result::Error::DatabaseError(
            diesel::result::DatabaseErrorKind::UniqueViolation,
            _,
        )) => Ok(RenameOutcome::NameTaken),
        other => other.map_err(DbError::Query),
    }
}

/// Deletes layout `id` of `user`; false when `user` has no layout of that id.
pub fn delete(conn: &mut DbConn, user: i64, id: i64) -> Result<bool, DbError> {
    let n = diesel::delete(
        saved_layouts::table
            .filter(saved_layouts::id.eq(id))
            .filter(saved_layouts::user_id.eq(user)),
    )
    .execute(conn)?;
    Ok(n > 0)
}
