//! The JSON shapes of games and players shared by the API, the lobby and the sockets.
//! Built from stored rows only; the deal and salt of a running game never appear here.

use crate::db::games::{FINISHED, GameRow};
use crate::db::users::{self, Stats, User};
use crate::db::{DbConn, DbError};
use crate::rules::Rank;
use serde_json::{Value, json};

/// A player as shown beside a game: name, and score and rank in the game's variant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerInfo {
    pub id: i64,
    pub username: String,
    pub display_name: Option<String>,
    pub score: i64,
}

impl PlayerInfo {
    pub fn load(conn: &mut DbConn, user_id: i64, variant: &str) -> Result<PlayerInfo, DbError> {
        let user =
            users::by_id(conn, user_id)?.ok_or(DbError::Query(diesel::result::Error::NotFound))?;
        let stats = users::stats(conn, user_id, variant)?;
        Ok(PlayerInfo {
            id: user.id,
            username: user.username,
            display_name: user.display_name,
            score: stats.score,
        })
    }

    /// The players in a game's two seats, south then north.
    pub fn seats(conn: &mut DbConn, row: &GameRow) -> Result<[Option<PlayerInfo>; 2], DbError> {
        let mut seats = [None, None];
        for (i, uid) in [row.south_id, row.north_id].into_iter().enumerate() {
            if let Some(uid) = uid {
                seats[i] = Some(PlayerInfo::load(conn, uid, &row.variant)?);
            }
        }
        Ok(seats)
    }

    pub fn json(&self) -> Value {
        json!({
            "username": self.username,
            "display_name": self.display_name,
            "score": self.score,
            "rank": rank_json(self.score),
        })
    }
}

/// The game summary of docs/protocol.md.
pub fn game_summary(row: &GameRow, creator: &PlayerInfo, seats: &[Option<PlayerInfo>; 2]) -> Value {
    let finished = row.status == FINISHED;
    json!({
        "id": row.id,
        "variant": row.variant,
        "status": row.status,
        "rated": row.rated,
        "seconds_per_action": row.seconds_per_action,
        "base": row.base,
        "creator": creator.json(),
        "players": {
            "south": seats[0].as_ref().map(PlayerInfo::json),
            "north": seats[1].as_ref().map(PlayerInfo::json),
        },
        "result": row.result,
        "reason": row.reason,
        "score": if finished {
            json!({"south": row.score_south, "north": row.score_north})
        } else {
            Value::Null
        },
        "commitment": row.commitment,
        "steps": row.steps,
        "previous_game": row.previous_game,
        "next_game": row.next_game,
        "created_at": row.created_at,
        "started_at": row.started_at,
        "ended_at": row.ended_at,
    })
}

/// The lobby's open-games list, oldest first.
pub fn open_games(conn: &mut DbConn) -> Result<Vec<Value>, DbError> {
    let rows = crate::db::games::open(conn)?;
    let mut open = Vec::with_capacity(rows.len());
    for row in rows {
        let creator = PlayerInfo::load(conn, row.creator_id, &row.variant)?;
        open.push(open_game_json(&row, &creator));
    }
    Ok(open)
}

/// One row of the lobby's open-games list.
pub fn open_game_json(row: &GameRow, creator: &PlayerInfo) -> Value {
    json!({
        "id": row.id,
        "variant": row.variant,
        "seconds_per_action": row.seconds_per_action,
        "rated": row.rated,
        "creator": creator.json(),
        "created_at": row.created_at,
    })
}

/// A player's standing in one variant.
pub fn player_json(user: &User, stats: &Stats) -> Value {
    json!({
        "username": user.username,
        "display_name": user.display_name,
        "variant": stats.variant,
        "score": stats.score,
        "rank": rank_json(stats.score),
        "wins": stats.wins,
        "draws": stats.draws,
        "losses": stats.losses,
        "games": stats.games,
    })
}

/// A score's rank, the next rank and the progress toward it (0.0–1.0).
pub fn rank_json(score: i64) -> Value {
    let rank = Rank::for_score(score);
    json!({
        "level": rank.level,
        "chinese": rank.chinese,
        "english": rank.english,
        "from_score": rank.from_score,
        "next": rank.next(),
        "progress": Rank::progress(score),
    })
}
