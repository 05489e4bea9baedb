//! Piece marks (子力标记): a player's private guesses about enemy pieces, keyed by
//! the square each piece was deployed on.

use super::schema::piece_marks;
use super::{DbConn, DbError};
use diesel::prelude::*;

/// `user`'s marks in `game`, as (deployment square, mark).
pub fn of(conn: &mut DbConn, game: &str, user: i64) -> Result<Vec<(String, String)>, DbError> {
    Ok(piece_marks::table
        .filter(piece_marks::game_id.eq(game))
        .filter(piece_marks::user_id.eq(user))
        .order(piece_marks::origin.asc())
        .select((piece_marks::origin, piece_marks::mark))
        .load(conn)?)
}

/// Sets the mark on the piece deployed on `origin`, or clears it (`None`).
pub fn set(
    conn: &mut DbConn,
    game: &str,
    user: i64,
    origin: &str,
    mark: Option<&str>,
) -> Result<(), DbError> {
    let key = piece_marks::table
        .filter(piece_marks::game_id.eq(game))
        .filter(piece_marks::user_id.eq(user))
        .filter(piece_marks::origin.eq(origin));
    super::write_transaction(conn, |c| {
        diesel::delete(key).execute(c)?;
        if let Some(mark) = mark {
            diesel::insert_into(piece_marks::table)
                .values((
                    piece_marks::game_id.eq(game),
                    piece_marks::user_id.eq(user),
                    piece_marks::origin.eq(origin),
                    piece_marks::mark.eq(mark),
                ))
                .execute(c)?;
        }
        Ok::<_, diesel::result::Error>(())
    })?;
    Ok(())
}

/// Clears all of `user`'s marks in `game`.
pub fn clear(conn: &mut DbConn, game: &str, user: i64) -> Result<(), DbError> {
    diesel::delete(
        piece_marks::table
            .filter(piece_marks::game_id.eq(game))
            .filter(piece_marks::user_id.eq(user)),
    )
    .execute(conn)?;
    Ok(())
}
