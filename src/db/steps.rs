//! The actions of running games, stored many at once in one transaction. On
//! PostgreSQL one insert carries all of a batch's actions, since each statement is a
//! round trip to the server: a batch of a thousand actions costs three (with `BEGIN`
//! and `COMMIT`) rather than a thousand. SQLite runs one prepared insert per action
//! (see `write`).
//!
//! A running game's actions go to the step log (`step_log`), appended in the order
//! they were stored; when the game ends its whole record goes to `game_actions` at
//! once.
//!
//! An action is the only thing a step stores. The `games` row's step count, action
//! deadline and south's colour follow from the actions (the game's task replays them
//! when it loads) and are written once, when the game ends. Updating the row at every
//! step dirtied one more page per action, scattered over the live games' rows: under
//! 3,000 games the log took 2.3 pages per action instead of 1.3, and every one of
//! those pages was copied back into the database file and synced by the checkpoints
//! (p99 73 ms against 35–47 ms without).

use super::schema::{game_actions, live_steps};
use super::{DbConn, DbError};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Integer, Text};

/// One stored action of a running game (a step, a timeout, a draw word: whatever did
/// not end it), owned so that it can wait in the writer's queue.
#[derive(Debug, Clone)]
pub struct Step {
    pub game_id: String,
    /// The action's index in the game's record.
    pub idx: i32,
    pub seat: &'static str,
    /// The action as `junqi-record/1` JSON.
    pub action: String,
    /// Milliseconds since the game started.
    pub at_ms: i64,
}

/// `(…), (…)`: `rows` groups of `width` PostgreSQL parameters, `$1`… in order.
fn value_rows(rows: usize, width: usize) -> String {
    let mut out = String::with_capacity(rows * width * 7);
    for r in 0..rows {
        out.push_str(if r == 0 { "(" } else { ", (" });
        for col in 0..width {
            if col > 0 {
                out.push_str(", ");
            }
            out.push('$');
            out.push_str(&(r * width + col + 1).to_string());
        }
        out.push(')');
    }
    out
}

/// One step's single-row insert into `$table` (the log or the record, which share
/// their columns). Columns set with `eq` (not a derived `Insertable`, whose values may
/// be DEFAULT and so are keyed by their SQL text) give the statement a type of its
/// own, by which diesel finds it prepared without writing its SQL.
macro_rules! insert_one {
    ($table:ident, $s:expr) => {
        diesel::insert_into($table::table).values((
            $table::game_id.eq($s.game_id.as_str()),
            $table::idx.eq($s.idx),
            $table::seat.eq($s.seat),
            $table::action.eq($s.action.as_str()),
            $table::at_ms.eq($s.at_ms),
        ))
    };
}

/// Appends `steps` to the step log of running games (`live_steps`, see `step_log`)
/// inside the caller's transaction.
///
/// SQLite runs in this process: executing one prepared single-row insert per step
/// costs a bind and a step each, while a statement of many rows is parsed and planned
/// anew for every batch (its text differs with the batch's size), which was 13 % of
/// the server's instructions per action under `junqi load --callgrind` (32 M of 242 M
/// at 100 games), growing with the batch. PostgreSQL answers each statement with a
/// round trip, so there one statement carries the whole batch.
pub fn write(c: &mut DbConn, steps: &[&Step]) -> Result<(), DbError> {
    if let DbConn::Sqlite(conn) = c {
        for s in steps {
            insert_one!(live_steps, s).execute(conn)?;
        }
        return Ok(());
    }
    insert_many(c, "live_steps", steps, "")
}

/// Writes a finished game's whole record, every action it took, to `game_actions`
/// inside the caller's transaction. One game's actions land side by side there, a
/// page for some fifty of them, instead of one page per step while it was played.
/// Actions already there are left as they are: those of a game that was running when
/// the server last stopped were moved there when it started again (`step_log::fold`).
pub fn write_record(c: &mut DbConn, record: &[Step]) -> Result<(), DbError> {
    if let DbConn::Sqlite(conn) = c {
        for s in record {
            insert_one!(game_actions, s)
                .on_conflict_do_nothing()
                .execute(conn)?;
        }
        return Ok(());
    }
    // PostgreSQL takes at most 65,535 parameters in one statement.
    for part in record.chunks(1000) {
        let part: Vec<&Step> = part.iter().collect();
        insert_many(c, "game_actions", &part, " ON CONFLICT DO NOTHING")?;
    }
    Ok(())
}

/// `steps` as one PostgreSQL insert into `table` (a column layout shared by the log and
/// the finished games' record), `tail` added after its rows.
fn insert_many(c: &mut DbConn, table: &str, steps: &[&Step], tail: &str) -> Result<(), DbError> {
    if steps.is_empty() {
        return Ok(());
    }
    let sql = format!(
        "INSERT INTO {table} (game_id, idx, seat, action, at_ms) VALUES {}{tail}",
        value_rows(steps.len(), 5)
    );
    let mut insert = diesel::sql_query(sql).into_boxed();
    for s in steps {
        insert = insert
            .bind::<Text, _>(s.game_id.as_str())
            .bind::<Integer, _>(s.idx)
            .bind::<Text, _>(s.seat)
            .bind::<Text, _>(s.action.as_str())
            .bind::<BigInt, _>(s.at_ms);
    }
    insert.execute(c)?;
    Ok(())
}
