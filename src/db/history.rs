//! Finished games for the history pages, newest first, by keyset pagination: a page
//! starts below the (ended_at, id) of the last row shown, so page 1000 costs what
//! page 1 does.

use super::games::FINISHED;
use super::schema::{game_players, games, users};
use super::users::username_key;
use super::{DbConn, DbError};
use diesel::prelude::*;

// The two players' names come with each game from the same query (rather than a second
// lookup by id, which could not be kept as a prepared statement).
diesel::alias!(users as south_user: SouthUser, users as north_user: NorthUser);

/// `games` joined to both players, for selecting `(Finished, names!())`.
macro_rules! games_with_names {
    () => {
        games::table
            .left_join(south_user.on(games::south_id.eq(south_user.field(users::id).nullable())))
            .left_join(north_user.on(games::north_id.eq(north_user.field(users::id).nullable())))
    };
}

/// The two players' names, from `games_with_names!()`.
macro_rules! names {
    () => {
        (
            south_user.field(users::username).nullable(),
            north_user.field(users::username).nullable(),
        )
    };
}

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
    /// A 四国 table's alliance mode (`opposite`, `adjacent`, `none`); `None` for a
    /// two-player game.
    pub alliance: Option<String>,
}

/// A finished game with its players' usernames.
#[derive(Debug, Clone)]
pub struct Listed {
    pub game: Finished,
    pub south_name: Option<String>,
    pub north_name: Option<String>,
    /// `win`, `draw` or `loss` for the player whose list this row comes from (a
    /// player's own history line); `None` in the list of everyone's games.
    pub outcome: Option<String>,
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
    /// Only the games of the player of this name; `outcome` then reads from their side.
    pub player: Option<String>,
    pub variant: Option<String>,
    /// Across all games, the stored results that match (`south`, `draw`, a 四国
    /// table's winners such as `south+north`: any of them).
    pub results: Option<Vec<String>>,
    /// `win`, `draw` or `loss` for `player`.
    pub outcome: Option<String>,
    pub reason: Option<String>,
    /// A 四国 table's alliance mode. It picks 四国 tables by itself (only they have
    /// one), so `variant` is then not asked of the index as well.
    pub alliance: Option<String>,
}

/// A player's line in the history: their row of a finished game, with everything the
/// list shows (written when the game ends).
#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = game_players)]
#[diesel(treat_none_as_default_value = false)]
pub struct Line {
    pub user_id: i64,
    pub game_id: String,
    pub variant: String,
    /// `win`, `draw` or `loss` for this player.
    pub outcome: String,
    pub ended_at: i64,
    pub rated: bool,
    pub base: i32,
    pub south_id: Option<i64>,
    pub north_id: Option<i64>,
    pub south_name: Option<String>,
    pub north_name: Option<String>,
    pub result: Option<String>,
    pub reason: Option<String>,
    pub steps: i32,
    pub score_south: Option<i32>,
    pub score_north: Option<i32>,
    pub score_before_south: Option<i64>,
    pub score_before_north: Option<i64>,
    pub colour_south: Option<String>,
    pub alliance: Option<String>,
}

impl Line {
    /// The line of `game` for the player `user_id`, whose result was `outcome`.
    pub fn of(game: &Listed, user_id: i64, outcome: &str) -> Line {
        let g = &game.game;
        Line {
            user_id,
            game_id: g.id.clone(),
            variant: g.variant.clone(),
            outcome: outcome.to_string(),
            ended_at: g.ended_at.unwrap_or(0),
            rated: g.rated,
            base: g.base,
            south_id: g.south_id,
            north_id: g.north_id,
            south_name: game.south_name.clone(),
            north_name: game.north_name.clone(),
            result: g.result.clone(),
            reason: g.reason.clone(),
            steps: g.steps,
            score_south: g.score_south,
            score_north: g.score_north,
            score_before_south: g.score_before_south,
            score_before_north: g.score_before_north,
            colour_south: g.colour_south.clone(),
            alliance: g.alliance.clone(),
        }
    }

    pub fn into_listed(self) -> Listed {
        Listed {
            game: Finished {
                id: self.game_id,
                variant: self.variant,
                rated: self.rated,
                base: self.base,
                south_id: self.south_id,
                north_id: self.north_id,
                result: self.result,
                reason: self.reason,
                score_south: self.score_south,
                score_north: self.score_north,
                steps: self.steps,
                ended_at: Some(self.ended_at),
                score_before_south: self.score_before_south,
                score_before_north: self.score_before_north,
                colour_south: self.colour_south,
                alliance: self.alliance,
            },
            south_name: self.south_name,
            north_name: self.north_name,
            outcome: Some(self.outcome),
        }
    }
}

/// One page of finished games matching `f`, newest first, below `before`.
pub fn page(
    conn: &mut DbConn,
    f: &Filter,
    before: Option<&Cursor>,
    limit: i64,
) -> Result<Vec<Listed>, DbError> {
    if let Some(name) = &f.player {
        return player_page(conn, name, f, before, limit);
    }
    let mut q = games_with_names!()
        .filter(games::status.eq(FINISHED))
        .into_boxed();
    // One equality besides the status, so that the planner takes the index made for
    // it (games_history_alliance or games_history_variant).
    if let Some(a) = &f.alliance {
        q = q.filter(games::alliance.eq(a.clone()));
    } else if let Some(v) = &f.variant {
        q = q.filter(games::variant.eq(v.clone()));
    }
    if let Some(r) = &f.results {
        q = q.filter(games::result.eq_any(r.clone()));
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
        .select((Finished::as_select(), names!()))
        .load::<Row>(conn)?
        .into_iter()
        .map(Listed::from)
        .collect())
}

/// The game `id` as the history lists it, with its players' names.
pub fn one(conn: &mut DbConn, id: &str) -> QueryResult<Option<Listed>> {
    Ok(games_with_names!()
        .filter(games::id.eq(id))
        .select((Finished::as_select(), names!()))
        .first::<Row>(conn)
        .optional()?
        .map(Listed::from))
}

/// A player's games, from their own history lines alone (one index range), found by
/// the player's name in the same query.
fn player_page(
    conn: &mut DbConn,
    name: &str,
    f: &Filter,
    before: Option<&Cursor>,
    limit: i64,
) -> Result<Vec<Listed>, DbError> {
    let mut q = game_players::table
        .inner_join(users::table)
        .filter(users::username_key.eq(username_key(name)))
        .into_boxed();
    if let Some(v) = &f.variant {
        q = q.filter(game_players::variant.eq(v.clone()));
    }
    if let Some(a) = &f.alliance {
        q = q.filter(game_players::alliance.eq(a.clone()));
    }
    if let Some(o) = &f.outcome {
        q = q.filter(game_players::outcome.eq(o.clone()));
    }
    if let Some(r) = &f.results {
        q = q.filter(game_players::result.eq_any(r.clone()));
    }
    if let Some(r) = &f.reason {
        q = q.filter(game_players::reason.eq(r.clone()));
    }
    if let Some(c) = before {
        // The first condition bounds the index range; the second breaks ties.
        q = q.filter(game_players::ended_at.le(c.ended_at)).filter(
            game_players::ended_at
                .lt(c.ended_at)
                .or(game_players::game_id.lt(c.id.clone())),
        );
    }
    Ok(
        q.order((game_players::ended_at.desc(), game_players::game_id.desc()))
            .limit(limit)
            .select(Line::as_select())
            .load(conn)?
            .into_iter()
            .map(Line::into_listed)
            .collect(),
    )
}

type Row = (Finished, (Option<String>, Option<String>));

impl From<Row> for Listed {
    fn from((game, (south_name, north_name)): Row) -> Listed {
        Listed {
            game,
            south_name,
            north_name,
            outcome: None,
        }
    }
}
