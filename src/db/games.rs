//! Games and their actions.

use super::history::{self, Line};
use super::schema::{game_actions, game_players, games, user_stats};
use super::steps::Step;
use super::users::{self, GameResult};
use super::{DbConn, DbError};
use diesel::prelude::*;

pub const OPEN: &str = "open";
pub const RUNNING: &str = "running";
pub const FINISHED: &str = "finished";
pub const CANCELLED: &str = "cancelled";

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = games)]
pub struct GameRow {
    pub id: String,
    pub variant: String,
    pub status: String,
    pub rated: bool,
    pub seconds_per_action: i32,
    pub options: String,
    pub base: i32,
    pub creator_id: i64,
    pub south_id: Option<i64>,
    pub north_id: Option<i64>,
    pub first_seat: Option<String>,
    /// Hidden until the game ends: never served from this row before then.
    pub deal: Option<String>,
    pub salt: Option<String>,
    pub commitment: Option<String>,
    pub previous_game: Option<String>,
    pub next_game: Option<String>,
    pub result: Option<String>,
    pub reason: Option<String>,
    pub score_south: Option<i32>,
    pub score_north: Option<i32>,
    pub colour_south: Option<String>,
    pub steps: i32,
    pub created_at: i64,
    pub started_at: Option<i64>,
    pub ended_at: Option<i64>,
    pub deadline_at: Option<i64>,
    pub end_ms: Option<i64>,
    /// Each seat's score in the game's variant when the game started (see `start`),
    /// what a finished game shows beside its players.
    pub score_before_south: Option<i64>,
    pub score_before_north: Option<i64>,
}

impl GameRow {
    /// A new open game: settings and creator only; seats, deal and results come later.
    pub fn open(
        id: String,
        variant: &str,
        rated: bool,
        seconds_per_action: i32,
        options: String,
        creator_id: i64,
        created_at: i64,
    ) -> GameRow {
        GameRow {
            id,
            variant: variant.to_string(),
            status: OPEN.to_string(),
            rated,
            seconds_per_action,
            options,
            base: 1,
            creator_id,
            south_id: None,
            north_id: None,
            first_seat: None,
            deal: None,
            salt: None,
            commitment: None,
            previous_game: None,
            next_game: None,
            result: None,
            reason: None,
            score_south: None,
            score_north: None,
            colour_south: None,
            steps: 0,
            created_at,
            started_at: None,
            ended_at: None,
            deadline_at: None,
            end_ms: None,
            score_before_south: None,
            score_before_north: None,
        }
    }
}

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = game_actions)]
pub struct ActionRow {
    pub game_id: String,
    pub idx: i32,
    pub seat: String,
    pub action: String,
    pub at_ms: i64,
}

impl From<Step> for ActionRow {
    fn from(s: Step) -> ActionRow {
        ActionRow {
            game_id: s.game_id,
            idx: s.idx,
            seat: s.seat.to_string(),
            action: s.action,
            at_ms: s.at_ms,
        }
    }
}

pub fn insert(conn: &mut DbConn, row: &GameRow) -> Result<(), DbError> {
    diesel::insert_into(games::table)
        .values(row)
        .execute(conn)?;
    Ok(())
}

pub fn get(conn: &mut DbConn, id: &str) -> Result<Option<GameRow>, DbError> {
    Ok(games::table
        .find(id)
        .select(GameRow::as_select())
        .first(conn)
        .optional()?)
}

/// The running games most worth watching, at most `limit`: rated before casual, then
/// by the players' scores in the game's variant (added), the latest started first
/// among equals. Reads every running game through `games_by_status`, each with its two
/// score rows by key, and sorts them; the lobby asks at most every
/// `watch_list::FRESH_FOR`.
pub fn running_top(conn: &mut DbConn, limit: i64) -> Result<Vec<GameRow>, DbError> {
    use diesel::dsl::sql;
    use diesel::sql_types::BigInt;
    // Raw SQL for the one correlated sum; it reads the same on both backends.
    let standing = sql::<BigInt>(
        "(SELECT COALESCE(SUM(s.score), 0) FROM user_stats s \
          WHERE s.variant = games.variant AND s.user_id IN (games.south_id, games.north_id))",
    );
    Ok(games::table
        .filter(games::status.eq(RUNNING))
        .filter(
            games::south_id
                .is_not_null()
                .and(games::north_id.is_not_null()),
        )
        .order((
            games::rated.desc(),
            standing.desc(),
            games::started_at.desc(),
            games::id.desc(),
        ))
        .limit(limit)
        .select(GameRow::as_select())
        .load(conn)?)
}

/// What quick pairing looks for: a game's settings, and who is asking.
pub struct Wanted<'a> {
    pub variant: &'a str,
    pub seconds_per_action: i32,
    pub rated: bool,
    pub not_by: i64,
    /// Only games whose creator is of this kind (`users.kind`): for rated games, the
    /// asker's own, since people are rated against people and bots against bots.
    pub creator_kind: Option<&'a str>,
}

/// The newest `limit` open games with these settings by someone else, newest first
/// (index `games_open_by_settings`: however many other games are open, only these are
/// read).
pub fn open_compatible(
    conn: &mut DbConn,
    w: &Wanted<'_>,
    limit: i64,
) -> Result<Vec<GameRow>, DbError> {
    let mut q = games::table
        .filter(games::status.eq(OPEN))
        .filter(games::variant.eq(w.variant))
        .filter(games::seconds_per_action.eq(w.seconds_per_action))
        .filter(games::rated.eq(w.rated))
        .filter(games::creator_id.ne(w.not_by))
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

/// `creator`'s open games with these settings, newest first (index `games_by_creator`:
/// only that player's few open games are read).
pub fn open_own_with(
    conn: &mut DbConn,
    creator: i64,
    variant: &str,
    seconds_per_action: i32,
    rated: bool,
) -> Result<Vec<GameRow>, DbError> {
    Ok(games::table
        .filter(games::creator_id.eq(creator))
        .filter(games::status.eq(OPEN))
        .filter(games::variant.eq(variant))
        .filter(games::seconds_per_action.eq(seconds_per_action))
        .filter(games::rated.eq(rated))
        .order((games::created_at.desc(), games::id.desc()))
        .select(GameRow::as_select())
        .load(conn)?)
}

/// Open games created at or before `cutoff`, oldest first from just after `after`
/// (created_at, id): `(id, creator, created_at)`, `limit` at a time.
pub fn open_created_before(
    conn: &mut DbConn,
    cutoff: i64,
    after: Option<(i64, String)>,
    limit: i64,
) -> Result<Vec<(String, i64, i64)>, DbError> {
    let mut q = games::table
        .filter(games::status.eq(OPEN))
        .filter(games::created_at.le(cutoff))
        .into_boxed();
    if let Some((at, id)) = after {
        q = q.filter(
            games::created_at
                .gt(at)
                .or(games::created_at.eq(at).and(games::id.gt(id))),
        );
    }
    Ok(q.order((games::created_at.asc(), games::id.asc()))
        .limit(limit)
        .select((games::id, games::creator_id, games::created_at))
        .load(conn)?)
}

/// Cancels those of `ids` that are still open; how many were.
pub fn expire(conn: &mut DbConn, ids: &[String]) -> Result<usize, DbError> {
    Ok(diesel::update(
        games::table
            .filter(games::id.eq_any(ids))
            .filter(games::status.eq(OPEN)),
    )
    .set(games::status.eq(CANCELLED))
    .execute(conn)?)
}

/// How many open games `user` created (index `games_by_creator`).
pub fn open_count(conn: &mut DbConn, user: i64) -> Result<i64, DbError> {
    Ok(games::table
        .filter(games::creator_id.eq(user))
        .filter(games::status.eq(OPEN))
        .count()
        .get_result(conn)?)
}

/// How many rated games `user` has in hand: seated in a running one (deployment
/// included), or waiting in an open one they created (which becomes running when
/// someone joins, so it counts from the start); and rated 四国 tables they sit at,
/// open or running (`tables::rated_in_hand`).
pub fn rated_in_hand(conn: &mut DbConn, user: i64) -> Result<i64, DbError> {
    let two_player: i64 = games::table
        .filter(games::rated.eq(true))
        .filter(games::variant.ne(super::tables::SIGUO))
        .filter(
            games::status
                .eq(RUNNING)
                .and(games::south_id.eq(user).or(games::north_id.eq(user)))
                .or(games::status.eq(OPEN).and(games::creator_id.eq(user))),
        )
        .count()
        .get_result(conn)?;
    Ok(two_player + super::tables::rated_in_hand(conn, user)?)
}

/// How many running games `user` plays against one of `computers` (the computer
/// players' ids).
pub fn computer_games_running(
    conn: &mut DbConn,
    user: i64,
    computers: &[i64],
) -> Result<i64, DbError> {
    Ok(games::table
        .filter(games::status.eq(RUNNING))
        .filter(
            games::south_id
                .eq(user)
                .and(games::north_id.eq_any(computers))
                .or(games::north_id
                    .eq(user)
                    .and(games::south_id.eq_any(computers))),
        )
        .count()
        .get_result(conn)?)
}

pub fn running_ids(conn: &mut DbConn) -> Result<Vec<String>, DbError> {
    Ok(games::table
        .filter(games::status.eq(RUNNING))
        .select(games::id)
        .load(conn)?)
}

/// What a game looks like once it starts. A standard game starts with its deployment
/// (`deployment` set; who moves first, the layouts and their commitment come later,
/// through [`begin_play`]); a flip game starts with its deal.
pub struct Start<'a> {
    pub south_id: i64,
    pub north_id: i64,
    pub first_seat: Option<&'a str>,
    pub deal: Option<&'a str>,
    pub salt: Option<&'a str>,
    pub commitment: Option<&'a str>,
    pub deployment: Option<&'a str>,
    pub started_at: i64,
    pub deadline_at: i64,
}

/// The scores of players `[south, north]` in `variant` now: what a game starting now
/// stores as their scores before it.
pub fn scores_now(
    conn: &mut DbConn,
    variant: &str,
    players: [i64; 2],
) -> Result<[i64; 2], DbError> {
    let mut out = [0i64; 2];
    for (i, user) in players.into_iter().enumerate() {
        out[i] = user_stats::table
            .find((user, variant))
            .select(user_stats::score)
            .first(conn)?;
    }
    Ok(out)
}

/// Starts an open game, keeping each player's score at the start; the scores kept, or
/// `None` when the game is no longer open.
pub fn start(conn: &mut DbConn, id: &str, s: &Start<'_>) -> Result<Option<[i64; 2]>, DbError> {
    let Some(variant) = games::table
        .find(id)
        .filter(games::status.eq(OPEN))
        .select(games::variant)
        .first::<String>(conn)
        .optional()?
    else {
        return Ok(None);
    };
    let before = scores_now(conn, &variant, [s.south_id, s.north_id])?;
    let n = diesel::update(
        games::table
            .filter(games::id.eq(id))
            .filter(games::status.eq(OPEN)),
    )
    .set((
        games::status.eq(RUNNING),
        games::south_id.eq(s.south_id),
        games::north_id.eq(s.north_id),
        games::first_seat.eq(s.first_seat),
        games::deal.eq(s.deal),
        games::salt.eq(s.salt),
        games::commitment.eq(s.commitment),
        games::deployment.eq(s.deployment),
        games::started_at.eq(s.started_at),
        games::deadline_at.eq(s.deadline_at),
        games::score_before_south.eq(before[0]),
        games::score_before_north.eq(before[1]),
    ))
    .execute(conn)?;
    Ok((n == 1).then_some(before))
}

/// The deployment in progress of a running standard game, as stored JSON.
pub fn deployment(conn: &mut DbConn, id: &str) -> Result<Option<String>, DbError> {
    Ok(games::table
        .find(id)
        .select(games::deployment)
        .first::<Option<String>>(conn)
        .optional()?
        .flatten())
}

/// Stores a change to the deployment of a game still deploying.
pub fn set_deployment(conn: &mut DbConn, id: &str, deployment: &str) -> Result<(), DbError> {
    diesel::update(
        games::table
            .filter(games::id.eq(id))
            .filter(games::status.eq(RUNNING))
            .filter(games::deal.is_null()),
    )
    .set(games::deployment.eq(deployment))
    .execute(conn)?;
    Ok(())
}

/// Each seat's 托管 in a two-player game, as stored JSON (see `live::tuoguan`); `None`
/// while no seat has taken it up.
pub fn tuoguan(conn: &mut DbConn, id: &str) -> Result<Option<String>, DbError> {
    Ok(games::table
        .find(id)
        .select(games::tuoguan)
        .first::<Option<String>>(conn)
        .optional()?
        .flatten())
}

/// Stores a change to the seats' 托管 of a running game. False when the game is no
/// longer running (nothing was written).
pub fn set_tuoguan(conn: &mut DbConn, id: &str, tuoguan: &str) -> Result<bool, DbError> {
    let n = diesel::update(
        games::table
            .filter(games::id.eq(id))
            .filter(games::status.eq(RUNNING)),
    )
    .set(games::tuoguan.eq(tuoguan))
    .execute(conn)?;
    Ok(n == 1)
}

/// Where play begins after a standard deployment.
pub struct BeginPlay<'a> {
    pub first_seat: &'a str,
    pub deal: &'a str,
    pub salt: &'a str,
    pub commitment: &'a str,
    pub started_at: i64,
    pub deadline_at: i64,
}

/// Ends a deployment: the layouts (hidden until the end), their commitment and the
/// first seat are stored, and the deployment itself is dropped. False when the game
/// was not deploying.
pub fn begin_play(conn: &mut DbConn, id: &str, b: &BeginPlay<'_>) -> Result<bool, DbError> {
    let n = diesel::update(
        games::table
            .filter(games::id.eq(id))
            .filter(games::status.eq(RUNNING))
            .filter(games::deal.is_null()),
    )
    .set((
        games::first_seat.eq(b.first_seat),
        games::deal.eq(b.deal),
        games::salt.eq(b.salt),
        games::commitment.eq(b.commitment),
        games::deployment.eq(None::<String>),
        games::started_at.eq(b.started_at),
        games::deadline_at.eq(b.deadline_at),
    ))
    .execute(conn)?;
    Ok(n == 1)
}

/// Cancels an open game of `creator_id`; false when it is not open or not theirs.
pub fn cancel(conn: &mut DbConn, id: &str, creator_id: i64) -> Result<bool, DbError> {
    let n = diesel::update(
        games::table
            .filter(games::id.eq(id))
            .filter(games::status.eq(OPEN))
            .filter(games::creator_id.eq(creator_id)),
    )
    .set(games::status.eq(CANCELLED))
    .execute(conn)?;
    Ok(n == 1)
}

/// The stored actions of game `id`, in order: all of a finished game's; a running
/// game's once a server has started on it since they were played (until then the newer
/// ones are in the step log, see `step_log`, which only a game's own task adds to).
pub fn actions(conn: &mut DbConn, id: &str) -> Result<Vec<ActionRow>, DbError> {
    Ok(game_actions::table
        .filter(game_actions::game_id.eq(id))
        .order(game_actions::idx.asc())
        .select(ActionRow::as_select())
        .load(conn)?)
}

/// How a game ended, as stored.
pub struct End<'a> {
    pub result: &'a str,
    pub reason: &'a str,
    pub score: [i32; 2],
    pub ended_at: i64,
    pub end_ms: Option<i64>,
    /// The game's steps and south's colour at its end (see `steps` for why they are
    /// stored only now).
    pub steps: i32,
    pub colour_south: Option<String>,
    /// Each seat's user id and result, for the score tables when the game is rated.
    pub players: [(i64, GameResult); 2],
}

/// The end of game `game_id` with its whole record (every action it took, the one
/// that ended it last; see `steps::write_record`) and both players' scores, written
/// inside the caller's transaction (the writer's, see `writer`) so that all of it is
/// stored or none.
pub fn end(c: &mut DbConn, game_id: &str, record: &[Step], end: &End<'_>) -> Result<(), DbError> {
    super::steps::write_record(c, record)?;
    let row: GameRow = games::table
        .find(game_id)
        .select(GameRow::as_select())
        .first(c)?;
    // Only the game's own task writes here; this guards against a second end.
    if row.status != RUNNING {
        return Err(diesel::result::Error::RollbackTransaction.into());
    }
    // Scores before the game, for showing each player's rank at the time: kept when the
    // game started; a game started before they were kept then takes the scores now,
    // which differ from those at its start only if another game of the player ended
    // meanwhile.
    let now = scores_now(c, &row.variant, [end.players[0].0, end.players[1].0])?;
    let before = [
        row.score_before_south.unwrap_or(now[0]),
        row.score_before_north.unwrap_or(now[1]),
    ];
    diesel::update(games::table.find(game_id))
        .set((
            games::status.eq(FINISHED),
            games::result.eq(end.result),
            games::reason.eq(end.reason),
            games::score_south.eq(end.score[0]),
            games::score_north.eq(end.score[1]),
            games::ended_at.eq(end.ended_at),
            games::end_ms.eq(end.end_ms),
            games::deadline_at.eq(None::<i64>),
            games::steps.eq(end.steps),
            games::colour_south.eq(end.colour_south.as_deref()),
            games::score_before_south.eq(before[0]),
            games::score_before_north.eq(before[1]),
        ))
        .execute(c)?;
    let listed = history::one(c, game_id)?.ok_or(diesel::result::Error::NotFound)?;
    for (i, (user, result)) in end.players.iter().enumerate() {
        diesel::insert_into(game_players::table)
            .values(Line::of(&listed, *user, result.name()))
            .execute(c)?;
        if row.rated {
            users::record_result(c, *user, &row.variant, game_id, end.score[i], *result)?;
        }
    }
    Ok(())
}

pub fn set_next(conn: &mut DbConn, id: &str, next: &str) -> Result<(), DbError> {
    diesel::update(games::table.find(id))
        .set(games::next_game.eq(next))
        .execute(conn)?;
    Ok(())
}
