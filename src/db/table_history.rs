//! A finished 四国 table in the history lists: each player's history line (the
//! `game_players` row every finished game gives its players, which the lists and
//! profiles read), and the table's four seats for the rows that show them.

use super::history::{Line, one};
use super::schema::{game_seats, users};
use super::users::GameResult;
use super::{DbConn, DbError};
use diesel::prelude::*;
use std::collections::HashMap;

/// Writes a history line for each seat's player of the finished table `id`, as the
/// last part of storing its end (the caller's transaction).
pub fn write_lines(
    c: &mut DbConn,
    id: &str,
    players: &[(i64, Option<GameResult>)],
) -> Result<(), diesel::result::Error> {
    let listed = one(c, id)?.ok_or(diesel::result::Error::NotFound)?;
    let mut written = Vec::new();
    for &(user, result) in players {
        // One line per player: the computer may hold three seats of a 人机 table.
        if written.contains(&user) {
            continue;
        }
        written.push(user);
        // An unscored end (all four in 托管) reads as a draw from every seat.
        let outcome = result.map_or("draw", GameResult::name);
        diesel::insert_into(super::schema::game_players::table)
            .values(Line::of(&listed, user, outcome))
            .execute(c)?;
    }
    Ok(())
}

/// One seat of a finished table, as a history row shows it.
#[derive(Debug, Clone, Queryable)]
pub struct SeatLine {
    pub game_id: String,
    pub seat: String,
    pub alliance: i32,
    pub user_id: i64,
    pub username: String,
    pub result: Option<String>,
    pub score_change: Option<i32>,
}

/// The seats of the tables `ids`, by table, in the order S, E, N, W.
pub fn seat_lines(
    c: &mut DbConn,
    ids: &[String],
) -> Result<HashMap<String, Vec<SeatLine>>, DbError> {
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    let rows: Vec<SeatLine> = game_seats::table
        .inner_join(users::table)
        .filter(game_seats::game_id.eq_any(ids))
        .select((
            game_seats::game_id,
            game_seats::seat,
            game_seats::alliance,
            game_seats::user_id,
            users::username,
            game_seats::result,
            game_seats::score_change,
        ))
        .load(c)?;
    let order = |s: &str| {
        ["south", "east", "north", "west"]
            .iter()
            .position(|x| *x == s)
    };
    let mut out: HashMap<String, Vec<SeatLine>> = HashMap::new();
    for r in rows {
        out.entry(r.game_id.clone()).or_default().push(r);
    }
    for seats in out.values_mut() {
        seats.sort_by_key(|s| order(&s.seat));
    }
    Ok(out)
}
