//! Finished games for the history pages, newest first, by keyset pagination: a page
//! starts below the (ended_at, id) of the last row shown, so page 1000 costs what
//! page 1 does.

use super::games::FINISHED;
use super::schema::{game_players, games, users};
use super::{DbConn, DbError};
use diesel::prelude::*;
use std::collections::HashMap;

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = games)]
pub struct Finished {
    pub id: String,
    pub variant: String,
    pub rated: bool,
    pub base: i32,
    pub south_id: Option<i64>,
    pub north_id: Option<i64>,
    pub result: Option<String>,
    pub reason: Option<String>,
    pub score_south: Option<i32>,
    pub score_north: Option<i32>,
    pub steps: i32,
    pub ended_at: Option<i64>,
    pub score_before_south: Option<i64>,
    pub score_before_north: Option<i64>,
    pub colour_south: Option<String>,
}

/// Where a page starts: just below this game in (ended_at, id) order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cursor {
    pub ended_at: i64,
    pub id: String,
}

impl Cursor {
    pub fn encode(&self) -> String {
        format!("{}.{}", self.ended_at, self.id)
    }

    pub fn decode(s: &str) -> Option<Cursor> {
        let (t, id) = s.split_once('.')?;
        let ended_at = t.parse().ok()?;
        (id.len() <= 16 && id.chars().all(|c| c.is_ascii_alphanumeric())).then(|| Cursor {
            ended_at,
            id: id.to_string(),
        })
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filter {
    /// Only this player's games; `outcome` then reads from their side.
    pub player: Option<i64>,
    pub variant: Option<String>,
    /// `south`, `north` or `draw` across all games.
    pub result: Option<String>,
    /// `win`, `draw` or `loss` for `player`.
    pub outcome: Option<String>,
    pub reason: Option<String>,
}

/// One page of finished games matching `f`, newest first, below `before`.
pub fn page(
    conn: &mut DbConn,
    f: &Filter,
    before: Option<&Cursor>,
    limit: i64,
) -> Result<Vec<Finished>, DbError> {
    if let Some(uid) = f.player {
        let mut q = game_players::table
            .inner_join(games::table)
            .filter(game_players::user_id.eq(uid))
            .into_boxed();
        if let Some(v) = &f.variant {
            q = q.filter(game_players::variant.eq(v.clone()));
        }
        if let Some(o) = &f.outcome {
            q = q.filter(game_players::outcome.eq(o.clone()));
        }
        if let Some(r) = &f.result {
            q = q.filter(games::result.eq(r.clone()));
        }
        if let Some(r) = &f.reason {
            q = q.filter(games::reason.eq(r.clone()));
        }
        if let Some(c) = before {
            // The first condition bounds the index range; the second breaks ties.
            q = q.filter(game_players::ended_at.le(c.ended_at)).filter(
                game_players::ended_at
                    .lt(c.ended_at)
                    .or(game_players::game_id.lt(c.id.clone())),
            );
        }
        return Ok(q
            .order((game_players::ended_at.desc(), game_players::game_id.desc()))
            .limit(limit)
            .select(Finished::as_select())
            .load(conn)?);
    }
    let mut q = games::table.filter(games::status.eq(FINISHED)).into_boxed();
    if let Some(v) = &f.variant {
        q = q.filter(games::variant.eq(v.clone()));
    }
    if let Some(r) = &f.result {
        q = q.filter(games::result.eq(r.clone()));
    }
    if let Some(r) = &f.reason {
        q = q.filter(games::reason.eq(r.clone()));
    }
    if let Some(c) = before {
        q = q.filter(games::ended_at.le(c.ended_at)).filter(
            games::ended_at
                .lt(c.ended_at)
                .or(games::id.lt(c.id.clone())),
        );
    }
    Ok(q.order((games::ended_at.desc(), games::id.desc()))
        .limit(limit)
        .select(Finished::as_select())
        .load(conn)?)
}

/// Usernames of the players in `rows`, by id.
pub fn names(conn: &mut DbConn, rows: &[Finished]) -> Result<HashMap<i64, String>, DbError> {
    let mut ids: Vec<i64> = rows
        .iter()
        .flat_map(|r| [r.south_id, r.north_id])
        .flatten()
        .collect();
    ids.sort_unstable();
    ids.dedup();
    Ok(users::table
        .filter(users::id.eq_any(ids))
        .select((users::id, users::username))
        .load::<(i64, String)>(conn)?
        .into_iter()
        .collect())
}
