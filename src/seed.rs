//! `junqi seed`: fills a database with players and finished games for measuring the
//! history, ladder and profile pages at size. Seeded games carry results, scores and
//! score history but no actions, so their replays are empty; everything else about
//! them is what a real game stores.

use crate::db::history::{Finished, Line, Listed};
use crate::db::schema::{game_players, games, score_history, user_stats, users};
use crate::db::users::push_recent_score;
use crate::db::{DbConn, DbError, Pool};
use crate::rules::game::{EndReason, Outcome};
use crate::rules::scoring::ScoreFacts;
use crate::rules::{Seat, Variant};
use argon2::Argon2;
use argon2::password_hash::{PasswordHasher, SaltString};
use diesel::prelude::*;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::time::Instant;

/// Every seeded player's password, so that a benchmark can log in as one.
pub const SEED_PASSWORD: &str = "seed-password";
const BATCH: usize = 500;

/// Diesel's multi-row INSERT is written per backend, so the batch goes to the concrete
/// connection inside the enum.
macro_rules! insert_all {
    ($conn:expr, $table:expr, $rows:expr) => {
        match &mut *$conn {
            DbConn::Sqlite(c) => diesel::insert_into($table).values($rows).execute(c),
            DbConn::Postgres(c) => diesel::insert_into($table).values($rows).execute(c),
        }
    };
}

#[derive(Insertable)]
#[diesel(treat_none_as_default_value = false)]
#[diesel(table_name = users)]
struct SeedUser {
    username: String,
    username_key: String,
    password_hash: String,
    created_at: i64,
}

#[derive(Insertable)]
#[diesel(treat_none_as_default_value = false)]
#[diesel(table_name = games)]
struct SeedGame {
    id: String,
    variant: String,
    status: String,
    rated: bool,
    seconds_per_action: i32,
    options: String,
    base: i32,
    creator_id: i64,
    south_id: Option<i64>,
    north_id: Option<i64>,
    first_seat: Option<String>,
    result: Option<String>,
    reason: Option<String>,
    score_south: Option<i32>,
    score_north: Option<i32>,
    colour_south: Option<String>,
    steps: i32,
    created_at: i64,
    started_at: Option<i64>,
    ended_at: Option<i64>,
    score_before_south: Option<i64>,
    score_before_north: Option<i64>,
}

#[derive(Insertable)]
#[diesel(treat_none_as_default_value = false)]
#[diesel(table_name = score_history)]
struct SeedHistory {
    user_id: i64,
    game_id: String,
    variant: String,
    delta: i32,
    score_after: i64,
    created_at: i64,
}

#[derive(Insertable)]
#[diesel(treat_none_as_default_value = false)]
#[diesel(table_name = user_stats)]
struct SeedStats {
    user_id: i64,
    variant: String,
    score: i64,
    wins: i32,
    draws: i32,
    losses: i32,
    games: i32,
    streak: i32,
    best_streak: i32,
    recent_scores: String,
}

#[derive(Default, Clone)]
struct Tally {
    score: i64,
    wins: i32,
    draws: i32,
    losses: i32,
    games: i32,
    streak: i32,
    best: i32,
    /// The score trail the profile chart draws.
    recent_scores: String,
}

/// What `seed` wrote, and how long it took.
#[derive(Debug, Clone, serde::Serialize)]
pub struct SeedReport {
    pub players: u64,
    pub games: u64,
    pub seconds: f64,
    pub first_player: String,
}

/// A plausible ending: mostly decisive, in the proportions a ladder would show.
fn random_outcome(rng: &mut StdRng) -> Outcome {
    let winner = if rng.random::<bool>() {
        Seat::South
    } else {
        Seat::North
    };
    match rng.random_range(0..100) {
        0..35 => Outcome::win(winner, EndReason::Flag),
        35..50 => Outcome::win(winner, EndReason::Resign),
        50..60 => Outcome::win(winner, EndReason::Timeouts),
        60..65 => Outcome::win(winner, EndReason::NoMoves),
        65..68 => Outcome::win(winner, EndReason::Repetition),
        68..72 => Outcome::win(winner, EndReason::Escape),
        72..80 => Outcome::draw(EndReason::Agreed),
        80..90 => Outcome::draw(EndReason::NoCaptureLimit),
        _ => Outcome::draw(EndReason::StepLimit),
    }
}

pub fn run(pool: &Pool, players: u64, game_count: u64, seed: u64) -> Result<SeedReport, DbError> {
    let started = Instant::now();
    let mut pooled = pool.get()?;
    let conn: &mut DbConn = &mut pooled;
    let mut rng = StdRng::seed_from_u64(seed);
    let salt = SaltString::encode_b64(b"junqi-seed-salt!")
        .map_err(|e| DbError::Migration(e.to_string()))?;
    let hash = Argon2::default()
        .hash_password(SEED_PASSWORD.as_bytes(), &salt)
        .map_err(|e| DbError::Migration(e.to_string()))?
        .to_string();
    let stamp = crate::db::now_ms();
    let prefix = format!("s{}", seed % 1000);
    let names: Vec<String> = (0..players).map(|i| format!("{prefix}_{i:06}")).collect();
    let rows: Vec<SeedUser> = names
        .iter()
        .map(|n| SeedUser {
            username: n.clone(),
            username_key: n.to_lowercase(),
            password_hash: hash.clone(),
            created_at: stamp,
        })
        .collect();
    for chunk in rows.chunks(BATCH) {
        crate::db::write_transaction(conn, |c| insert_all!(c, users::table, chunk))?;
    }
    let keys: Vec<String> = names.iter().map(|n| n.to_lowercase()).collect();
    let mut ids = Vec::with_capacity(players as usize);
    for chunk in keys.chunks(BATCH) {
        let mut found: Vec<(String, i64)> = users::table
            .filter(users::username_key.eq_any(chunk))
            .select((users::username_key, users::id))
            .load(conn)?;
        found.sort_by_key(|(k, _)| chunk.iter().position(|x| x == k));
        ids.extend(found.into_iter().map(|(_, id)| id));
    }

    let n = ids.len();
    let mut tallies = vec![Tally::default(); n];
    let mut game_rows = Vec::with_capacity(BATCH);
    let mut player_rows = Vec::with_capacity(BATCH * 2);
    let mut history_rows = Vec::with_capacity(BATCH * 2);
    // Games end a minute apart, the last one now.
    let first_end = stamp - game_count as i64 * 60_000;
    for g in 0..game_count {
        let a = rng.random_range(0..n);
        let mut b = rng.random_range(0..n - 1);
        if b >= a {
            b += 1;
        }
        let outcome = random_outcome(&mut rng);
        let facts = ScoreFacts {
            variant: Variant::Flip,
            outcome,
            loser_lost: rng.random_range(0..=24),
            loser_only_flag: false,
            all_face_up: rng.random_range(0..10) == 0,
            steps: rng.random_range(20..300),
        };
        let score = facts.score(1);
        let ended_at = first_end + g as i64 * 60_000;
        let id = format!("{:08}", g).chars().rev().collect::<String>();
        let id = format!("S{}", &id[..7]);
        let seat_ids = [a, b];
        let before = [tallies[a].score, tallies[b].score];
        let mut outcomes = ["", ""];
        for (i, &p) in seat_ids.iter().enumerate() {
            let seat = Seat::BOTH[i];
            let t = &mut tallies[p];
            t.score += score[i] as i64;
            t.games += 1;
            let result = match outcome.winner {
                None => {
                    t.draws += 1;
                    t.streak = 0;
                    "draw"
                }
                Some(w) if w == seat => {
                    t.wins += 1;
                    t.streak += 1;
                    t.best = t.best.max(t.streak);
                    "win"
                }
                Some(_) => {
                    t.losses += 1;
                    t.streak = 0;
                    "loss"
                }
            };
            outcomes[i] = result;
            t.recent_scores = push_recent_score(&t.recent_scores, t.score);
            history_rows.push(SeedHistory {
                user_id: ids[p],
                game_id: id.clone(),
                variant: "flip".into(),
                delta: score[i],
                score_after: t.score,
                created_at: ended_at,
            });
        }
        let game = SeedGame {
            id,
            variant: "flip".into(),
            status: crate::db::games::FINISHED.into(),
            rated: true,
            seconds_per_action: 30,
            options: "{}".into(),
            base: 1,
            creator_id: ids[a],
            south_id: Some(ids[a]),
            north_id: Some(ids[b]),
            first_seat: Some("south".into()),
            result: Some(crate::record::result_name(outcome).into()),
            reason: Some(outcome.reason.name().into()),
            score_south: Some(score[0]),
            score_north: Some(score[1]),
            colour_south: Some(if rng.random::<bool>() { "red" } else { "blue" }.into()),
            steps: facts.steps as i32,
            created_at: ended_at - 600_000,
            started_at: Some(ended_at - 600_000),
            ended_at: Some(ended_at),
            score_before_south: Some(before[0]),
            score_before_north: Some(before[1]),
        };
        let listed = Listed {
            game: Finished {
                id: game.id.clone(),
                variant: game.variant.clone(),
                rated: game.rated,
                base: game.base,
                south_id: game.south_id,
                north_id: game.north_id,
                result: game.result.clone(),
                reason: game.reason.clone(),
                score_south: game.score_south,
                score_north: game.score_north,
                steps: game.steps,
                ended_at: game.ended_at,
                score_before_south: game.score_before_south,
                score_before_north: game.score_before_north,
                colour_south: game.colour_south.clone(),
                alliance: None,
            },
            south_name: Some(names[a].clone()),
            north_name: Some(names[b].clone()),
            outcome: None,
        };
        for (i, &p) in seat_ids.iter().enumerate() {
            player_rows.push(Line::of(&listed, ids[p], outcomes[i]));
        }
        game_rows.push(game);
        if game_rows.len() == BATCH || g + 1 == game_count {
            crate::db::write_transaction(conn, |c| {
                insert_all!(c, games::table, &game_rows)?;
                insert_all!(c, game_players::table, &player_rows)?;
                insert_all!(c, score_history::table, &history_rows)
            })?;
            game_rows.clear();
            player_rows.clear();
            history_rows.clear();
        }
    }

    let stats: Vec<SeedStats> = ids
        .iter()
        .zip(&tallies)
        .flat_map(|(&id, t)| {
            [
                SeedStats {
                    user_id: id,
                    variant: "flip".into(),
                    score: t.score,
                    wins: t.wins,
                    draws: t.draws,
                    losses: t.losses,
                    games: t.games,
                    streak: t.streak,
                    best_streak: t.best,
                    recent_scores: t.recent_scores.clone(),
                },
                SeedStats {
                    user_id: id,
                    variant: "standard".into(),
                    score: 0,
                    wins: 0,
                    draws: 0,
                    losses: 0,
                    games: 0,
                    streak: 0,
                    best_streak: 0,
                    recent_scores: String::new(),
                },
            ]
        })
        .collect();
    for chunk in stats.chunks(BATCH) {
        crate::db::write_transaction(conn, |c| insert_all!(c, user_stats::table, chunk))?;
    }
    // Fresh statistics for the planner after a bulk load (and, on PostgreSQL, a visibility
    // map so that index-only scans can be used).
    use diesel::connection::SimpleConnection;
    match conn {
        // Only the per-index summary (stat1) is kept: with the value samples of stat4
        // present, SQLite prepares a statement again whenever a bound value changes,
        // which cost the history pages a seventh of their CPU.
        DbConn::Sqlite(c) => {
            c.batch_execute("ANALYZE; DELETE FROM sqlite_stat4; ANALYZE sqlite_schema;")?
        }
        DbConn::Postgres(c) => c.batch_execute("VACUUM ANALYZE")?,
    }
    Ok(SeedReport {
        players,
        games: game_count,
        seconds: started.elapsed().as_secs_f64(),
        first_player: names.first().cloned().unwrap_or_default(),
    })
}
