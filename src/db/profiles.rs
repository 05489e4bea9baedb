//! What a player's profile page shows, read in one query: the player, their standing
//! and score trail in a variant, and their latest games (one row per game, the player
//! and standing repeated on each). Beside it, the record against the site's computer
//! players (or, for a computer account, its own record), counted from the games.

use super::history::{Line, Listed};
use super::schema::{game_players, user_stats, users};
use super::users::{COMPUTER, Stats, parse_recent_scores, username_key};
use super::{DbConn, DbError};
use crate::engine::Level;
use diesel::prelude::*;

pub struct Profile {
    pub user_id: i64,
    /// The player's name as they registered it.
    pub username: String,
    pub display_name: Option<String>,
    /// `person`, `bot` or `computer` (see `users::User::kind`).
    pub kind: String,
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
    type Row = (
        (i64, String, Option<String>, String),
        Stats,
        String,
        Option<Line>,
    );
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
            (users::id, users::username, users::display_name, users::kind),
            Stats::as_select(),
            user_stats::recent_scores,
            Option::<Line>::as_select(),
        ))
        .load(conn)?;
    let mut rows = rows.into_iter();
    let Some(((user_id, username, display_name, kind), stats, trail, first)) = rows.next() else {
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
        kind,
        stats,
        scores: parse_recent_scores(&trail),
        recent,
    }))
}

/// Wins, draws and losses, from one player's side.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: i64,
    pub draws: i64,
    pub losses: i64,
}

impl Tally {
    pub fn games(&self) -> i64 {
        self.wins + self.draws + self.losses
    }

    fn add(&mut self, outcome: &str, n: i64) {
        match outcome {
            "win" => self.wins += n,
            "draw" => self.draws += n,
            _ => self.losses += n,
        }
    }
}

/// A player's record against one computer account, per variant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VsComputer {
    pub username: String,
    pub display_name: Option<String>,
    pub flip: Tally,
    pub standard: Tally,
}

impl VsComputer {
    fn tally(&mut self, variant: &str) -> &mut Tally {
        if variant == "standard" {
            &mut self.standard
        } else {
            &mut self.flip
        }
    }
}

/// Where a computer account's level stands among the levels: easiest first, accounts
/// of other names after them.
fn level_order(username: &str) -> usize {
    Level::ALL
        .iter()
        .position(|&l| super::users::computer_username(l) == username)
        .unwrap_or(Level::ALL.len())
}

/// The record of player `user_id` against every computer account, easiest level first,
/// a row for each computer even when they have not met. Counted from the player's
/// finished games (their `game_players` rows, one index range) with a computer in the
/// other seat.
pub fn record_vs_computers(conn: &mut DbConn, user_id: i64) -> Result<Vec<VsComputer>, DbError> {
    let computers: Vec<(i64, String, Option<String>)> = users::table
        .filter(users::kind.eq(COMPUTER))
        .order(users::id.asc())
        .select((users::id, users::username, users::display_name))
        .load(conn)?;
    if computers.is_empty() {
        return Ok(Vec::new());
    }
    let ids: Vec<i64> = computers.iter().map(|(id, _, _)| *id).collect();
    // Grouped by both seats rather than joined to the opponent's account: the few
    // computer ids are known, and the seats sit in the player's own rows.
    /// South's and north's ids, variant, outcome, and how many such games.
    type Count = (Option<i64>, Option<i64>, String, String, i64);
    let counts: Vec<Count> = game_players::table
        .filter(game_players::user_id.eq(user_id))
        .filter(
            game_players::south_id
                .eq_any(&ids)
                .or(game_players::north_id.eq_any(&ids)),
        )
        .group_by((
            game_players::south_id,
            game_players::north_id,
            game_players::variant,
            game_players::outcome,
        ))
        .select((
            game_players::south_id,
            game_players::north_id,
            game_players::variant,
            game_players::outcome,
            diesel::dsl::count_star(),
        ))
        .load(conn)?;
    let mut rows: Vec<(i64, VsComputer)> = computers
        .into_iter()
        .map(|(id, username, display_name)| {
            let row = VsComputer {
                username,
                display_name,
                flip: Tally::default(),
                standard: Tally::default(),
            };
            (id, row)
        })
        .collect();
    for (south, north, variant, outcome, n) in counts {
        let other = if south == Some(user_id) { north } else { south };
        if let Some((_, row)) = rows.iter_mut().find(|(c, _)| Some(*c) == other) {
            row.tally(&variant).add(&outcome, n);
        }
    }
    rows.sort_by_key(|(id, row)| (level_order(&row.username), *id));
    Ok(rows.into_iter().map(|(_, row)| row).collect())
}

/// A player's own record in every finished game, casual ones too: by variant, in the
/// order of `Variant::ALL` (flip, standard, 四国).
/// For the computer accounts, whose games are all casual and so leave their scores
/// and the stats beside them untouched.
pub fn all_games_record(conn: &mut DbConn, user_id: i64) -> Result<[Tally; 3], DbError> {
    let counts: Vec<(String, String, i64)> = game_players::table
        .filter(game_players::user_id.eq(user_id))
        .group_by((game_players::variant, game_players::outcome))
        .select((
            game_players::variant,
            game_players::outcome,
            diesel::dsl::count_star(),
        ))
        .load(conn)?;
    let mut out = [Tally::default(); 3];
    for (variant, outcome, n) in counts {
        if let Some(i) = crate::rules::Variant::NAMES
            .iter()
            .position(|v| *v == variant)
        {
            out[i].add(&outcome, n);
        }
    }
    Ok(out)
}
