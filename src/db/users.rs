//! Players, their per-variant scores, and score history.

use super::schema::{score_history, user_stats, users};
use super::{DbConn, DbError, now_ms};
use crate::engine::Level;
use diesel::prelude::*;

/// The variants a player has a standing in from their registration.
pub const VARIANTS: [&str; 3] = crate::rules::Variant::NAMES;

/// `users.kind` of a person's account (the default).
pub const PERSON: &str = "person";
/// `users.kind` of the site's own computer players.
pub const COMPUTER: &str = "computer";
/// `users.kind` of a visitor playing without registering (`db::guests`): casual games
/// only, never on the ladder, until the account is claimed by registering.
pub const GUEST: &str = "guest";

/// The kinds of account the ladder leaves out: the computer players, whose games are
/// never scored, and guests, who play casual games only.
pub const OFF_LADDER: [&str; 2] = [COMPUTER, GUEST];

/// Stored as the computer players' password hash: not a hash of anything, so no
/// password matches it (and login refuses their accounts before checking).
const NO_PASSWORD: &str = "!computer: no login";

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = users)]
pub struct User {
    pub id: i64,
    pub username: String,
    pub username_key: String,
    pub password_hash: String,
    pub created_at: i64,
    /// The 昵称 shown beside the username, if the player chose one.
    pub display_name: Option<String>,
    /// `person`, `bot` (driven by its owner's program through API tokens) or
    /// `computer` (the site's own engine, one account per level).
    pub kind: String,
    /// The figure (角色秀) the player picked, if any: see `crate::avatars` for what is
    /// shown without one.
    pub avatar: Option<String>,
}

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = user_stats)]
pub struct Stats {
    pub user_id: i64,
    pub variant: String,
    pub score: i64,
    pub wins: i32,
    pub draws: i32,
    pub losses: i32,
    pub games: i32,
    /// Wins in a row up to now, and the longest such run.
    pub streak: i32,
    pub best_streak: i32,
}

/// Usernames are unique without regard to case.
pub fn username_key(name: &str) -> String {
    name.to_lowercase()
}

/// Creates a player with a zero score in every variant. `None` when the name is taken.
pub fn create(
    conn: &mut DbConn,
    username: &str,
    password_hash: &str,
) -> Result<Option<User>, DbError> {
    create_named(conn, username, password_hash, None)
}

/// `create` with a display name (already checked) chosen at registration.
pub fn create_named(
    conn: &mut DbConn,
    username: &str,
    password_hash: &str,
    display_name: Option<&str>,
) -> Result<Option<User>, DbError> {
    let key = username_key(username);
    let created = super::write_transaction(conn, |c| {
        let taken = users::table
            .filter(users::username_key.eq(&key))
            .count()
            .get_result::<i64>(c)?
            > 0;
        if taken {
            return Ok(None);
        }
        insert_account(c, username, password_hash, display_name, PERSON).map(Some)
    });
    match created {
        Ok(u) => Ok(u),
        // Two registrations of one name at once: the unique index decides.
        Err(diesel::result::Error::DatabaseError(
            diesel::result::DatabaseErrorKind::UniqueViolation,
            _,
        )) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// Inserts an account with a zero score in every variant, inside the caller's
/// transaction.
pub(super) fn insert_account(
    c: &mut DbConn,
    username: &str,
    password_hash: &str,
    display_name: Option<&str>,
    kind: &str,
) -> Result<User, diesel::result::Error> {
    let key = username_key(username);
    diesel::insert_into(users::table)
        .values((
            users::username.eq(username),
            users::username_key.eq(&key),
            users::password_hash.eq(password_hash),
            users::created_at.eq(now_ms()),
            users::display_name.eq(display_name),
            users::kind.eq(kind),
        ))
        .execute(c)?;
    let user: User = users::table
        .filter(users::username_key.eq(&key))
        .select(User::as_select())
        .first(c)?;
    for v in VARIANTS {
        diesel::insert_into(user_stats::table)
            .values((user_stats::user_id.eq(user.id), user_stats::variant.eq(v)))
            .execute(c)?;
    }
    Ok(user)
}

/// The computer player's username at each level.
pub fn computer_username(level: Level) -> &'static str {
    match level {
        Level::Easy => "computer-easy",
        Level::Normal => "computer-normal",
        Level::Hard => "computer-hard",
        Level::Master => "computer-master",
    }
}

/// The name shown for the computer player at each level.
pub fn computer_display_name(level: Level) -> &'static str {
    match level {
        Level::Easy => "电脑·入门",
        Level::Normal => "电脑·普通",
        Level::Hard => "电脑·困难",
        Level::Master => "电脑·大师",
    }
}

impl User {
    /// The level this account plays at, when it is one of the computer players.
    pub fn computer_level(&self) -> Option<Level> {
        if self.kind != COMPUTER {
            return None;
        }
        Level::ALL
            .into_iter()
            .find(|&l| computer_username(l) == self.username)
    }
}

/// The computer player of `level`, its account made on first use (idempotent; two
/// processes making it at once end with the one account). An error when a person
/// already holds the name.
pub fn computer_player(conn: &mut DbConn, level: Level) -> Result<User, DbError> {
    let name = computer_username(level);
    if let Some(u) = by_name(conn, name)? {
        return checked_computer(u);
    }
    let made = super::write_transaction(conn, |c| {
        let shown = Some(computer_display_name(level));
        insert_account(c, name, NO_PASSWORD, shown, COMPUTER)
    });
    match made {
        Ok(u) => Ok(u),
        Err(diesel::result::Error::DatabaseError(
            diesel::result::DatabaseErrorKind::UniqueViolation,
            _,
        )) => by_name(conn, name)?
            .ok_or(DbError::Query(diesel::result::Error::NotFound))
            .and_then(checked_computer),
        Err(e) => Err(e.into()),
    }
}

fn checked_computer(u: User) -> Result<User, DbError> {
    if u.kind == COMPUTER {
        Ok(u)
    } else {
        Err(DbError::Migration(format!(
            "the username {} belongs to a {}, not to the computer player",
            u.username, u.kind
        )))
    }
}

/// Makes the computer players' accounts (one per level) if they are missing.
pub fn ensure_computer_players(conn: &mut DbConn) -> Result<(), DbError> {
    for level in Level::ALL {
        computer_player(conn, level)?;
    }
    Ok(())
}

/// The ids of the computer players' accounts.
pub fn computer_ids(conn: &mut DbConn) -> Result<Vec<i64>, DbError> {
    Ok(users::table
        .filter(users::kind.eq(COMPUTER))
        .select(users::id)
        .load(conn)?)
}

pub fn by_name(conn: &mut DbConn, name: &str) -> Result<Option<User>, DbError> {
    Ok(users::table
        .filter(users::username_key.eq(username_key(name)))
        .select(User::as_select())
        .first(conn)
        .optional()?)
}

pub fn by_id(conn: &mut DbConn, id: i64) -> Result<Option<User>, DbError> {
    Ok(users::table
        .find(id)
        .select(User::as_select())
        .first(conn)
        .optional()?)
}

/// Sets (`Some`) or removes (`None`) a player's display name, already checked.
/// `false` when there is no such player.
pub fn set_display_name(
    conn: &mut DbConn,
    user_id: i64,
    display_name: Option<&str>,
) -> Result<bool, DbError> {
    let changed = diesel::update(users::table.find(user_id))
        .set(users::display_name.eq(display_name))
        .execute(conn)?;
    Ok(changed == 1)
}

/// Stores the figure a player picked (already checked against `crate::avatars`).
/// `false` when there is no such player.
pub fn set_avatar(conn: &mut DbConn, user_id: i64, avatar: &str) -> Result<bool, DbError> {
    let changed = diesel::update(users::table.find(user_id))
        .set(users::avatar.eq(avatar))
        .execute(conn)?;
    Ok(changed == 1)
}

/// How a name is shown wherever it appears: the display name, if the player chose one,
/// and what the account is (for the 机器人 and 电脑 badges).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    pub display_name: Option<String>,
    pub kind: String,
}

/// The labels of `ids` (those that exist).
pub fn labels(
    conn: &mut DbConn,
    ids: &[i64],
) -> Result<std::collections::HashMap<i64, Label>, DbError> {
    if ids.is_empty() {
        return Ok(Default::default());
    }
    let rows: Vec<(i64, Option<String>, String)> = users::table
        .filter(users::id.eq_any(ids))
        .select((users::id, users::display_name, users::kind))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(id, display_name, kind)| (id, Label { display_name, kind }))
        .collect())
}

pub fn stats(conn: &mut DbConn, user_id: i64, variant: &str) -> Result<Stats, DbError> {
    Ok(user_stats::table
        .find((user_id, variant))
        .select(Stats::as_select())
        .first(conn)?)
}

/// The ids of the accounts the ladder leaves out (`OFF_LADDER`), as a subquery: guests
/// may be many, more than a list of bound ids should carry.
pub type OffLadderIds = diesel::dsl::Select<
    diesel::dsl::Filter<users::table, diesel::dsl::EqAny<users::kind, [&'static str; 2]>>,
    users::id,
>;

pub fn off_ladder_ids() -> OffLadderIds {
    users::table
        .filter(users::kind.eq_any(OFF_LADDER))
        .select(users::id)
}

/// Players of a variant by score, best first (ties by who registered first). The
/// site's computer players are not on the ladder: their games are never scored; nor
/// are guests, who play casual games only.
pub fn ladder(
    conn: &mut DbConn,
    variant: &str,
    offset: i64,
    limit: i64,
) -> Result<Vec<(User, Stats)>, DbError> {
    // Skip through the ladder index alone, then fetch just the rows wanted: an offset
    // over the joined rows would read every skipped player.
    let ids: Vec<i64> = user_stats::table
        .filter(user_stats::variant.eq(variant))
        .filter(user_stats::user_id.ne_all(off_ladder_ids()))
        .order((user_stats::score.desc(), user_stats::user_id.asc()))
        .offset(offset)
        .limit(limit)
        .select(user_stats::user_id)
        .load(conn)?;
    let mut rows: Vec<(User, Stats)> = users::table
        .inner_join(user_stats::table)
        .filter(user_stats::variant.eq(variant))
        .filter(user_stats::user_id.eq_any(&ids))
        .select((User::as_select(), Stats::as_select()))
        .load(conn)?;
    rows.sort_by_key(|(_, st)| (std::cmp::Reverse(st.score), st.user_id));
    Ok(rows)
}

/// A player's 1-based place on a variant's ladder, in the order `ladder` uses.
pub fn ladder_position(
    conn: &mut DbConn,
    user_id: i64,
    variant: &str,
) -> Result<Option<i64>, DbError> {
    let score: Option<i64> = user_stats::table
        .find((user_id, variant))
        .select(user_stats::score)
        .first(conn)
        .optional()?;
    let Some(score) = score else {
        return Ok(None);
    };
    let kind: Option<String> = users::table
        .find(user_id)
        .select(users::kind)
        .first(conn)
        .optional()?;
    if kind.is_none_or(|k| OFF_LADDER.contains(&k.as_str())) {
        return Ok(None);
    }
    let ahead: i64 = user_stats::table
        .filter(user_stats::variant.eq(variant))
        .filter(user_stats::user_id.ne_all(off_ladder_ids()))
        .filter(
            user_stats::score.gt(score).or(user_stats::score
                .eq(score)
                .and(user_stats::user_id.lt(user_id))),
        )
        .count()
        .get_result(conn)?;
    Ok(Some(ahead + 1))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameResult {
    Win,
    Draw,
    Loss,
}

impl GameResult {
    pub fn name(self) -> &'static str {
        match self {
            GameResult::Win => "win",
            GameResult::Draw => "draw",
            GameResult::Loss => "loss",
        }
    }
}

/// How many of a player's latest scores `user_stats.recent_scores` keeps for the chart.
pub const RECENT_SCORES: usize = 200;

/// `trail` (comma-separated scores, oldest first) with `score` added at the end and
/// only the latest `RECENT_SCORES` kept.
pub fn push_recent_score(trail: &str, score: i64) -> String {
    let mut scores: Vec<&str> = trail.split(',').filter(|s| !s.is_empty()).collect();
    let keep_from = (scores.len() + 1).saturating_sub(RECENT_SCORES);
    let score = score.to_string();
    scores.push(&score);
    scores[keep_from..].join(",")
}

/// The scores of a `recent_scores` trail, oldest first (anything unreadable is skipped).
pub fn parse_recent_scores(trail: &str) -> Vec<i64> {
    trail.split(',').filter_map(|s| s.parse().ok()).collect()
}

/// Applies one player's result of a finished game, inside the caller's transaction.
pub fn record_result(
    conn: &mut DbConn,
    user_id: i64,
    variant: &str,
    game_id: &str,
    delta: i32,
    result: GameResult,
) -> Result<i64, diesel::result::Error> {
    let (s, trail): (Stats, String) = user_stats::table
        .find((user_id, variant))
        .select((Stats::as_select(), user_stats::recent_scores))
        .first(conn)?;
    let score = s.score + delta as i64;
    let (w, d, l) = match result {
        GameResult::Win => (1, 0, 0),
        GameResult::Draw => (0, 1, 0),
        GameResult::Loss => (0, 0, 1),
    };
    let streak = if result == GameResult::Win {
        s.streak + 1
    } else {
        0
    };
    diesel::update(user_stats::table.find((user_id, variant)))
        .set((
            user_stats::score.eq(score),
            user_stats::wins.eq(s.wins + w),
            user_stats::draws.eq(s.draws + d),
            user_stats::losses.eq(s.losses + l),
            user_stats::games.eq(s.games + 1),
            user_stats::streak.eq(streak),
            user_stats::best_streak.eq(s.best_streak.max(streak)),
            user_stats::recent_scores.eq(push_recent_score(&trail, score)),
        ))
        .execute(conn)?;
    diesel::insert_into(score_history::table)
        .values((
            score_history::user_id.eq(user_id),
            score_history::game_id.eq(game_id),
            score_history::variant.eq(variant),
            score_history::delta.eq(delta),
            score_history::score_after.eq(score),
            score_history::created_at.eq(now_ms()),
        ))
        .execute(conn)?;
    Ok(score)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_score_trail_keeps_the_latest_scores_oldest_first() {
        assert_eq!(push_recent_score("", 5), "5");
        assert_eq!(push_recent_score("5", -3), "5,-3");
        let mut trail = String::new();
        for s in 0..(RECENT_SCORES as i64 + 7) {
            trail = push_recent_score(&trail, s);
        }
        let scores = parse_recent_scores(&trail);
        assert_eq!(scores.len(), RECENT_SCORES);
        assert_eq!(scores.first(), Some(&7));
        assert_eq!(scores.last(), Some(&(RECENT_SCORES as i64 + 6)));
    }
}
