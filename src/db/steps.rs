//! The steps of running games, stored many at once: one insert for all their actions
//! and one update for all their games, whatever the batch's size. On PostgreSQL each
//! statement is a round trip to the server, so a batch of a thousand steps costs four
//! (with `BEGIN` and `COMMIT`) rather than two thousand.

use super::{DbConn, DbError};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Integer, Nullable, Text};

/// One step of a running game (an action, a timeout, a draw word: whatever did not end
/// it), owned so that it can wait in the writer's queue.
#[derive(Debug, Clone)]
pub struct Step {
    pub game_id: String,
    /// The stored action: its index, seat, `junqi-record/1` JSON and time.
    pub action: Option<(i32, &'static str, String, i64)>,
    pub steps: i32,
    pub deadline_at: Option<i64>,
    pub colour_south: Option<String>,
}

/// `(…), (…)`: `rows` groups of `width` parameters, numbered 1… in order: `$n` for
/// PostgreSQL, `?n` for SQLite. (SQLite would read `$n` as a name, and looks each new
/// name up among those before it: a batch of a thousand steps spent a third of the
/// writer's time comparing parameter names.)
fn value_rows(c: &DbConn, rows: usize, width: usize) -> String {
    let mark = match c {
        DbConn::Sqlite(_) => '?',
        DbConn::Postgres(_) => '$',
    };
    let mut out = String::with_capacity(rows * width * 7);
    for r in 0..rows {
        out.push_str(if r == 0 { "(" } else { ", (" });
        for col in 0..width {
            if col > 0 {
                out.push_str(", ");
            }
            out.push(mark);
            out.push_str(&(r * width + col + 1).to_string());
        }
        out.push(')');
    }
    out
}

/// Writes `steps`, each of a different game, inside the caller's transaction.
pub fn write(c: &mut DbConn, steps: &[&Step]) -> Result<(), DbError> {
    let actions: Vec<_> = steps
        .iter()
        .filter_map(|s| Some((s.game_id.as_str(), s.action.as_ref()?)))
        .collect();
    if !actions.is_empty() {
        let sql = format!(
            "INSERT INTO game_actions (game_id, idx, seat, action, at_ms) VALUES {}",
            value_rows(c, actions.len(), 5)
        );
        let mut insert = diesel::sql_query(sql).into_boxed();
        for (game_id, (idx, seat, action, at_ms)) in actions {
            insert = insert
                .bind::<Text, _>(game_id)
                .bind::<Integer, _>(*idx)
                .bind::<Text, _>(*seat)
                .bind::<Text, _>(action.as_str())
                .bind::<BigInt, _>(*at_ms);
        }
        insert.execute(c)?;
    }
    if steps.is_empty() {
        return Ok(());
    }
    // A `VALUES` list's columns are `column1`… on both backends.
    let sql = format!(
        "UPDATE games SET steps = v.column2, deadline_at = v.column3, \
         colour_south = v.column4 FROM (VALUES {}) AS v WHERE games.id = v.column1",
        value_rows(c, steps.len(), 4)
    );
    let mut update = diesel::sql_query(sql).into_boxed();
    for s in steps {
        update = update
            .bind::<Text, _>(s.game_id.as_str())
            .bind::<Integer, _>(s.steps)
            .bind::<Nullable<BigInt>, _>(s.deadline_at)
            .bind::<Nullable<Text>, _>(s.colour_south.as_deref());
    }
    let updated = update.execute(c)?;
    if updated != steps.len() {
        // A step of a game that is not there: refuse the batch (each step is then
        // tried alone, and only that one fails).
        return Err(DbError::Query(diesel::result::Error::NotFound));
    }
    Ok(())
}
