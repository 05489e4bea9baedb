//! The reads behind the lobby's lists of open games and open 四国 tables: the newest of
//! established creators' and of new accounts' (see `live::lobby` for why they are two).

use super::games::{GameRow, OPEN};
use super::schema::{games, user_stats};
use super::{DbConn, DbError};
use diesel::prelude::*;

/// Whose open games the lobby reads: players who have a standing here, or the rest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Creators {
    /// Accounts made at or before `made_by` (ms), or that have finished a rated game.
    Established { made_by: i64 },
    /// Every other account: new, and without a rated game.
    New { made_by: i64 },
}

/// Which of the open games the lobby reads: its two lists are kept apart, so that
/// neither pushes the other off the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Listing {
    /// Two-player games (flip chess, standard 军棋).
    Games,
    /// 四国 tables (`db::tables`).
    Tables,
}

/// The newest `limit` open games of `creators` in `listing`, newest first (index
/// `games_by_status`; each creator's standing is looked up by key, one account and its
/// two score rows).
pub fn open_newest(
    conn: &mut DbConn,
    creators: Creators,
    listing: Listing,
    limit: i64,
) -> Result<Vec<GameRow>, DbError> {
    use super::schema::users;
    use diesel::dsl::{exists, not};
    let (Creators::Established { made_by } | Creators::New { made_by }) = creators;
    let played = exists(
        user_stats::table
            .filter(user_stats::user_id.eq(games::creator_id))
            .filter(user_stats::games.gt(0)),
    );
    let old = exists(
        users::table
            .filter(users::id.eq(games::creator_id))
            .filter(users::created_at.le(made_by)),
    );
    let q = games::table.filter(games::status.eq(OPEN)).into_boxed();
    let q = match listing {
        Listing::Games => q.filter(games::variant.ne(super::tables::SIGUO)),
        Listing::Tables => q.filter(games::variant.eq(super::tables::SIGUO)),
    };
    let q = match creators {
        Creators::Established { .. } => q.filter(played.or(old)),
        Creators::New { .. } => q.filter(not(played.or(old))),
    };
    Ok(q.order((games::created_at.desc(), games::id.desc()))
        .limit(limit)
        .select(GameRow::as_select())
        .load(conn)?)
}
