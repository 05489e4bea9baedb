//! What a player's profile page shows, read in one query: the player, their standing
//! and score trail in a variant, and their latest games (one row per game, the player
//! and standing repeated on each).

use super::history::{Line, Listed};
use super::schema::{game_players, user_stats, users};
use super::users::{Stats, parse_recent_scores, username_key};
use super::{DbConn, DbError};
use diesel::prelude::*;

pub struct Profile {
    pub user_id: i64,
    /// The player's name as they registered it.
    pub username: String,
    pub display_name: Option<String>,
    pub stats: Stats,
    /// Scores after each of the latest rated games, oldest first.
    pub scores: Vec<i64>,
    /// The latest finished games, newest first.
    pub recent: Vec<Listed>,
}

/// The profile of the player called `name` in `variant`, with up to `games` recent games.
pub fn by_name(
    conn: &mut DbConn,
    name: &str,
    variant: &str,
    games: i64,
) -> Result<Option<Profile>, DbError> {
    type Row = ((i64, String, Option<String>), Stats, String, Option<Line>);
    let rows: Vec<Row> = users::table
        .inner_join(user_stats::table)
        .left_join(
            game_players::table.on(game_players::user_id
                .eq(users::id)
                .and(game_players::variant.eq(user_stats::variant))),
        )
        .filter(users::username_key.eq(username_key(name)))
        .filter(user_stats::variant.eq(variant))
        .order((game_players::ended_at.desc(), game_players::game_id.desc()))
        .limit(games.max(1))
        .select((
            (users::id, users::username, users::display_name),
            Stats::as_select(),
            user_stats::recent_scores,
            Option::<Line>::as_select(),
        ))
        .load(conn)?;
    let mut rows = rows.into_iter();
    let Some(((user_id, username, display_name), stats, trail, first)) = rows.next() else {
        return Ok(None);
    };
    let recent = first
        .into_iter()
        .chain(rows.filter_map(|(_, _, _, line)| line))
        .map(Line::into_listed)
        .collect();
    Ok(Some(Profile {
        user_id,
        username,
        display_name,
        stats,
        scores: parse_recent_scores(&trail),
        recent,
    }))
}
