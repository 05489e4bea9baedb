//! Games at tables of more than two seats (四国): the game's row in `games` as every
//! game has, and one `game_seats` row per seat with its player, alliance side, state,
//! and at the end its result and score change.

use super::games::{FINISHED, GameRow, OPEN, RUNNING};
use super::schema::{game_actions, game_seats, games, user_stats};
use super::users::{self, GameResult};
use super::{DbConn, DbError};
use crate::rules::siguo::{Alliance, SiguoOptions};
use diesel::prelude::*;

/// The variant of every table's row in `games`.
pub const SIGUO: &str = "siguo";

/// The states a seat row holds (see the migration).
pub const SEATED: &str = "seated";
pub const READY: &str = "ready";
pub const PLAYING: &str = "playing";

#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = game_seats)]
pub struct SeatRow {
    pub game_id: String,
    pub seat: String,
    pub user_id: i64,
    /// Which side of the alliance the seat is on (0 or 1; the seat's own index in 混战).
    pub alliance: i32,
    pub state: String,
    pub result: Option<String>,
    pub score_change: Option<i32>,
    pub score_before: Option<i64>,
    pub tuoguan_count: i32,
}

impl SeatRow {
    pub fn new(game_id: &str, seat: &str, user_id: i64, alliance: i32) -> SeatRow {
        SeatRow {
            game_id: game_id.to_string(),
            seat: seat.to_string(),
            user_id,
            alliance,
            state: SEATED.to_string(),
            result: None,
            score_change: None,
            score_before: None,
            tuoguan_count: 0,
        }
    }
}

/// A new open table with its creator's seat.
pub fn create(conn: &mut DbConn, row: &GameRow, seat: &SeatRow) -> Result<(), DbError> {
    conn.transaction(|c| {
        diesel::insert_into(games::table).values(row).execute(c)?;
        diesel::insert_into(game_seats::table)
            .values(seat)
            .execute(c)?;
        Ok::<_, diesel::result::Error>(())
    })?;
    Ok(())
}

/// The seats of table `id`, in no particular order.
pub fn seats(conn: &mut DbConn, id: &str) -> Result<Vec<SeatRow>, DbError> {
    Ok(game_seats::table
        .filter(game_seats::game_id.eq(id))
        .select(SeatRow::as_select())
        .load(conn)?)
}

/// The seats of the tables `ids`, in no particular order: one query for a whole list.
pub fn seats_of(conn: &mut DbConn, ids: &[String]) -> Result<Vec<SeatRow>, DbError> {
    Ok(game_seats::table
        .filter(game_seats::game_id.eq_any(ids))
        .select(SeatRow::as_select())
        .load(conn)?)
}

/// The seat `user` holds at table `id`, if any.
pub fn seat_of(conn: &mut DbConn, id: &str, user: i64) -> Result<Option<String>, DbError> {
    Ok(game_seats::table
        .filter(game_seats::game_id.eq(id))
        .filter(game_seats::user_id.eq(user))
        .select(game_seats::seat)
        .first(conn)
        .optional()?)
}

/// How many rated tables `user` sits at that are open or running: their rated games in
/// hand at tables (read from the player's seats, index `game_seats_user`).
pub fn rated_in_hand(conn: &mut DbConn, user: i64) -> Result<i64, DbError> {
    Ok(game_seats::table
        .inner_join(games::table)
        .filter(game_seats::user_id.eq(user))
        .filter(games::rated.eq(true))
        .filter(games::status.eq(OPEN).or(games::status.eq(RUNNING)))
        .count()
        .get_result(conn)?)
}

/// How many tables, open or running, `user` sits at with one of `computers` (the
/// computer players' ids) in another seat: their games against the computer at tables.
pub fn computer_tables_in_hand(
    conn: &mut DbConn,
    user: i64,
    computers: &[i64],
) -> Result<i64, DbError> {
    // The player's few tables in hand first (by their seats), then which of those the
    // computer sits at: two lookups by key, however many tables are running.
    let mine: Vec<String> = game_seats::table
        .inner_join(games::table)
        .filter(game_seats::user_id.eq(user))
        .filter(games::status.eq(OPEN).or(games::status.eq(RUNNING)))
        .select(game_seats::game_id)
        .load(conn)?;
    if mine.is_empty() {
        return Ok(0);
    }
    let with: Vec<String> = game_seats::table
        .filter(game_seats::game_id.eq_any(&mine))
        .filter(game_seats::user_id.eq_any(computers))
        .select(game_seats::game_id)
        .distinct()
        .load(conn)?;
    Ok(with.len() as i64)
}

/// What quick pairing for a table looks for: its settings, and who is asking.
pub struct Wanted<'a> {
    /// How the table's stored `options` begin: its 四国 options as serialised, which
    /// come first (the grace and deployment times after them may differ).
    pub options_prefix: &'a str,
    pub seconds_per_action: i32,
    pub rated: bool,
    /// Tables this player sits at are left out.
    pub asker: i64,
    /// Only tables whose creator is of this kind (`users.kind`), for rated tables.
    pub creator_kind: Option<&'a str>,
}

/// The newest `limit` open tables of these settings with a free seat that the asker
/// does not sit at, newest first (index `games_open_by_settings`, then the options
/// compared by their prefix: only tables of these settings are read).
pub fn open_compatible(
    conn: &mut DbConn,
    w: &Wanted<'_>,
    limit: i64,
) -> Result<Vec<GameRow>, DbError> {
    use diesel::dsl::{exists, not, sql};
    use diesel::sql_types::Bool;
    let seated = exists(
        game_seats::table
            .filter(game_seats::game_id.eq(games::id))
            .filter(game_seats::user_id.eq(w.asker)),
    );
    // Raw SQL for the one correlated count; it reads the same on both backends.
    let room = sql::<Bool>("(SELECT COUNT(*) FROM game_seats s WHERE s.game_id = games.id) < 4");
    let mut q = games::table
        .filter(games::status.eq(OPEN))
        .filter(games::variant.eq(SIGUO))
        .filter(games::seconds_per_action.eq(w.seconds_per_action))
        .filter(games::rated.eq(w.rated))
        .filter(games::options.like(format!("{}%", w.options_prefix)))
        .filter(not(seated))
        .filter(room)
        .into_boxed();
    if let Some(kind) = w.creator_kind {
        use super::schema::users as u;
        let of_kind = u::table.filter(u::kind.eq(kind)).select(u::id);
        q = q.filter(games::creator_id.eq_any(of_kind));
    }
    Ok(q.order((games::created_at.desc(), games::id.desc()))
        .limit(limit)
        .select(GameRow::as_select())
        .load(conn)?)
}

/// The open tables of this clock and rating that `user` sits at, newest first, each
/// with the seat they hold (from the player's seats: a few rows).
pub fn open_seated_with(
    conn: &mut DbConn,
    user: i64,
    seconds_per_action: i32,
    rated: bool,
) -> Result<Vec<(GameRow, String)>, DbError> {
    Ok(game_seats::table
        .inner_join(games::table)
        .filter(game_seats::user_id.eq(user))
        .filter(games::status.eq(OPEN))
        .filter(games::variant.eq(SIGUO))
        .filter(games::seconds_per_action.eq(seconds_per_action))
        .filter(games::rated.eq(rated))
        .order((games::created_at.desc(), games::id.desc()))
        .select((GameRow::as_select(), game_seats::seat))
        .load(conn)?)
}

/// Replaces the seats of an open table with `seats` (sitting, standing, moving, ready):
/// false when the table is no longer open, and then nothing changed. (It reads before
/// it writes, so on SQLite it must take the write lock first: see `write_transaction`.
/// As a plain transaction, tables seated at once failed with "database is locked".)
pub fn set_seats(conn: &mut DbConn, id: &str, seats: &[SeatRow]) -> Result<bool, DbError> {
    let done = super::write_transaction(conn, |c| {
        let open = games::table
            .find(id)
            .filter(games::status.eq(OPEN))
            .count()
            .get_result::<i64>(c)?
            == 1;
        if !open {
            return Ok::<_, diesel::result::Error>(false);
        }
        diesel::delete(game_seats::table.filter(game_seats::game_id.eq(id))).execute(c)?;
        for seat in seats {
            diesel::insert_into(game_seats::table)
                .values(seat)
                .execute(c)?;
        }
        Ok(true)
    })?;
    Ok(done)
}

/// The table starts deploying: status running, each seat playing with its score now
/// in the 四国 table, `deployment` the deployment's stored state. False when it was
/// not open.
pub fn start(
    conn: &mut DbConn,
    id: &str,
    deployment: &str,
    started_at: i64,
    deadline_at: i64,
) -> Result<bool, DbError> {
    let done = conn.transaction(|c| {
        let n = diesel::update(games::table.find(id).filter(games::status.eq(OPEN)))
            .set((
                games::status.eq(RUNNING),
                games::deployment.eq(deployment),
                games::started_at.eq(started_at),
                games::deadline_at.eq(deadline_at),
            ))
            .execute(c)?;
        if n != 1 {
            return Ok::<_, diesel::result::Error>(false);
        }
        let variant: String = games::table.find(id).select(games::variant).first(c)?;
        for s in seats_in(c, id)? {
            ensure_stats(c, s.user_id, &variant)?;
            let before: i64 = user_stats::table
                .find((s.user_id, variant.as_str()))
                .select(user_stats::score)
                .first(c)?;
            diesel::update(game_seats::table.find((id, s.seat.as_str())))
                .set((
                    game_seats::state.eq(PLAYING),
                    game_seats::score_before.eq(before),
                ))
                .execute(c)?;
        }
        Ok(true)
    })?;
    Ok(done)
}

fn seats_in(c: &mut DbConn, id: &str) -> Result<Vec<SeatRow>, diesel::result::Error> {
    game_seats::table
        .filter(game_seats::game_id.eq(id))
        .select(SeatRow::as_select())
        .load(c)
}

/// A player's stats row in `variant`, made if it is missing (accounts are made with
/// the two-player variants' rows only).
fn ensure_stats(c: &mut DbConn, user: i64, variant: &str) -> Result<(), diesel::result::Error> {
    let have = user_stats::table
        .find((user, variant))
        .count()
        .get_result::<i64>(c)?;
    if have == 0 {
        diesel::insert_into(user_stats::table)
            .values((
                user_stats::user_id.eq(user),
                user_stats::variant.eq(variant),
            ))
            .execute(c)?;
    }
    Ok(())
}

/// Stores a change to a deployment in progress.
pub fn set_deployment(conn: &mut DbConn, id: &str, deployment: &str) -> Result<(), DbError> {
    diesel::update(games::table.find(id).filter(games::status.eq(RUNNING)))
        .set(games::deployment.eq(deployment))
        .execute(conn)?;
    Ok(())
}

/// Play begins: the record of the start (layouts, hidden until the end) and its
/// commitment are stored and the deployment dropped.
pub fn begin_play(
    conn: &mut DbConn,
    id: &str,
    first_seat: &str,
    record: &str,
    salt: &str,
    commitment: &str,
    deadline_at: i64,
) -> Result<(), DbError> {
    diesel::update(games::table.find(id).filter(games::status.eq(RUNNING)))
        .set((
            games::first_seat.eq(first_seat),
            games::deal.eq(record),
            games::salt.eq(salt),
            games::commitment.eq(commitment),
            games::deployment.eq(None::<String>),
            games::deadline_at.eq(deadline_at),
        ))
        .execute(conn)?;
    Ok(())
}

/// One action of a running table, stored before anyone hears of it, with the clock's
/// next deadline and the steps so far. Run by the writer (`Pool::write`), whose
/// transaction holds both statements and whatever else acted meanwhile: one commit
/// (on SQLite one sync of the log) for every table and game that acted, as for
/// two-player steps, rather than one each.
pub fn add_action(
    conn: &mut DbConn,
    id: &str,
    idx: i32,
    seat: &str,
    action: &str,
    at_ms: i64,
    deadline_at: Option<i64>,
) -> Result<(), DbError> {
    diesel::insert_into(game_actions::table)
        .values((
            game_actions::game_id.eq(id),
            game_actions::idx.eq(idx),
            game_actions::seat.eq(seat),
            game_actions::action.eq(action),
            game_actions::at_ms.eq(at_ms),
        ))
        .execute(conn)?;
    diesel::update(games::table.find(id))
        .set(games::deadline_at.eq(deadline_at))
        .execute(conn)?;
    Ok(())
}

/// The alliance mode of a table's stored options (`{"siguo": {...}, ...}`), which the
/// history lists filter by: written beside the row when its game ends. Options stored
/// without it (or a row of bare `{}`) play the default.
pub fn alliance_of(options: &str) -> Alliance {
    serde_json::from_str::<serde_json::Value>(options)
        .ok()
        .and_then(|v| serde_json::from_value::<SiguoOptions>(v.get("siguo")?.clone()).ok())
        .unwrap_or_default()
        .alliance
}

/// How one seat ended.
pub struct SeatEnd {
    pub seat: &'static str,
    pub user_id: i64,
    pub state: &'static str,
    pub result: Option<GameResult>,
    /// `None`: not scored (all four in 托管).
    pub score_change: Option<i32>,
    pub tuoguan_count: i32,
}

/// How a table's game ended, as stored.
pub struct TableEnd<'a> {
    pub result: &'a str,
    pub reason: &'a str,
    pub steps: i32,
    pub ended_at: i64,
    pub seats: &'a [SeatEnd],
}

/// The end of a table's game: the row finished, each seat's result and score change,
/// and (rated) each player's score in the variant, all or nothing. False when the game
/// was not running (a second end). Reads first, so a write transaction (as above).
pub fn end(c: &mut DbConn, id: &str, end: &TableEnd<'_>) -> Result<bool, DbError> {
    let done = super::write_transaction(c, |c| {
        let row: GameRow = games::table
            .find(id)
            .select(GameRow::as_select())
            .first(c)?;
        if row.status != RUNNING {
            return Ok::<_, diesel::result::Error>(false);
        }
        diesel::update(games::table.find(id))
            .set((
                games::status.eq(FINISHED),
                games::result.eq(end.result),
                games::reason.eq(end.reason),
                games::steps.eq(end.steps),
                games::ended_at.eq(end.ended_at),
                games::deadline_at.eq(None::<i64>),
                games::alliance.eq(alliance_of(&row.options).name()),
            ))
            .execute(c)?;
        for s in end.seats {
            diesel::update(game_seats::table.find((id, s.seat)))
                .set((
                    game_seats::state.eq(s.state),
                    game_seats::result.eq(s.result.map(GameResult::name)),
                    game_seats::score_change.eq(s.score_change),
                    game_seats::tuoguan_count.eq(s.tuoguan_count),
                ))
                .execute(c)?;
            if row.rated
                && let (Some(result), Some(delta)) = (s.result, s.score_change)
            {
                ensure_stats(c, s.user_id, &row.variant)?;
                users::record_result(c, s.user_id, &row.variant, id, delta, result)?;
            }
        }
        let players: Vec<_> = end.seats.iter().map(|s| (s.user_id, s.result)).collect();
        super::table_history::write_lines(c, id, &players)?;
        Ok(true)
    })?;
    Ok(done)
}
