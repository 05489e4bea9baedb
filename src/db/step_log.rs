//! The step log: every action of a running game, appended in the order the writer
//! stored it (`live_steps`, keyed by a sequence number and by nothing else).
//!
//! Why a log: keyed by `(game, index)`, each game's next action lands after its last
//! one, wherever that is, so a batch of the writer touched one page per game in it —
//! 9,000 live games meant a page written to the SQLite log, and later copied back by a
//! checkpoint, for nearly every action, and leaf splits all over the tree. Appended in
//! order, a batch of a hundred actions fills a page or two at the tree's right edge.
//!
//! What the log must answer: after a crash or a restart, every running game's
//! actions. A finished game's whole record is written to `game_actions` in the
//! transaction that ends it (`steps::write_record`), so its rows here are no longer
//! needed; [`Trimmer`] drops them from the log's front, moving the few rows of games
//! still running to its end. A server starting ([`fold`], before it resumes the
//! running games) moves whatever the log holds into `game_actions`, where the loading
//! of a game's task reads it.
//!
//! A game's actions are therefore `game_actions` and the log together, never
//! contradicting each other (the same action is the same row in both); outside
//! [`fold`] nothing reads the log.

use super::games::RUNNING;
use super::{DbConn, DbError};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Nullable};

/// The log's length below which it is never trimmed: a few megabytes.
const FLOOR: i64 = 50_000;

/// How many rows of the log's front one trim looks at: a few milliseconds of the
/// writer's time, taken between two commits.
const CHUNK: i64 = 2_000;

#[derive(QueryableByName)]
struct Span {
    #[diesel(sql_type = Nullable<BigInt>)]
    lo: Option<i64>,
    #[diesel(sql_type = Nullable<BigInt>)]
    hi: Option<i64>,
}

/// The first and last sequence numbers in the log; `None` when it is empty. Each in a
/// query of its own: SQLite reads a lone `MIN` or `MAX` off the end of the key, but
/// both in one query scan the whole table (at 9,000 games, some nine scans a second of
/// half a million rows: the server spent as much again as the log saved).
fn span(c: &mut DbConn) -> Result<Option<(i64, i64)>, DbError> {
    let s: Span = diesel::sql_query(
        "SELECT (SELECT MIN(seq) FROM live_steps) AS lo, (SELECT MAX(seq) FROM live_steps) AS hi",
    )
    .get_result(c)?;
    Ok(s.lo.zip(s.hi))
}

/// Moves every action in the log to `game_actions` (those already there stay as they
/// are) and empties the log, in one transaction; how many rows the log held. Run as a
/// server starts, before any game's task is loaded (`Hub::resume_running`).
pub fn fold(c: &mut DbConn) -> Result<usize, DbError> {
    super::write_transaction(c, |c| {
        let Some((_, hi)) = span(c)? else {
            return Ok(0);
        };
        // Sorted by game, the rows go into `game_actions` in its own order.
        diesel::sql_query(format!(
            "INSERT INTO game_actions (game_id, idx, seat, action, at_ms) \
             SELECT game_id, idx, seat, action, at_ms FROM live_steps WHERE seq <= {hi} \
             ORDER BY game_id, idx ON CONFLICT DO NOTHING"
        ))
        .execute(c)?;
        Ok(diesel::sql_query(format!("DELETE FROM live_steps WHERE seq <= {hi}")).execute(c)?)
    })
}

/// What one trim of the log's front did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Trimmed {
    /// Rows dropped from the front.
    pub dropped: usize,
    /// Of those, the rows of games still running, appended again at the end.
    pub kept: usize,
}

/// Keeps the log short: when it is longer than its limit, the writer drops a chunk of
/// its front between commits. The limit follows the games: a front made mostly of
/// running games' rows (long games, or many of them) would be copied over and over, so
/// the limit doubles; a front of finished games' rows lets it shrink back.
#[derive(Debug)]
pub struct Trimmer {
    limit: i64,
    /// Rows appended since the log's length was last looked at.
    appended: i64,
}

impl Default for Trimmer {
    fn default() -> Self {
        Trimmer {
            limit: FLOOR,
            appended: CHUNK,
        }
    }
}

impl Trimmer {
    /// Counts `n` more rows appended to the log.
    pub fn appended(&mut self, n: usize) {
        self.appended += n as i64;
    }

    /// The log's length is looked at once per chunk's worth of appended rows, and a
    /// chunk is trimmed while it stays over the limit.
    pub fn due(&self) -> bool {
        self.appended >= CHUNK / 2
    }

    /// Trims one chunk of the log's front when the log is over its limit.
    pub fn run(&mut self, c: &mut DbConn) -> Result<Option<Trimmed>, DbError> {
        self.appended = 0;
        let Some((lo, hi)) = span(c)? else {
            return Ok(None);
        };
        if hi - lo < self.limit {
            return Ok(None);
        }
        let end = lo + CHUNK;
        let done = super::write_transaction(c, |c| {
            let kept = diesel::sql_query(format!(
                "INSERT INTO live_steps (game_id, idx, seat, action, at_ms) \
                 SELECT l.game_id, l.idx, l.seat, l.action, l.at_ms \
                 FROM live_steps l JOIN games g ON g.id = l.game_id \
                 WHERE l.seq < {end} AND g.status = '{RUNNING}' ORDER BY l.seq"
            ))
            .execute(c)?;
            let dropped = diesel::sql_query(format!("DELETE FROM live_steps WHERE seq < {end}"))
                .execute(c)?;
            Ok::<_, DbError>(Trimmed { dropped, kept })
        })?;
        // A chunk still over the limit is trimmed after the next commit.
        self.appended = CHUNK;
        if done.kept * 2 > done.dropped {
            self.limit *= 2;
        } else if done.kept * 8 < done.dropped {
            self.limit = (self.limit * 3 / 4).max(FLOOR);
        }
        Ok(Some(done))
    }

    pub fn limit(&self) -> i64 {
        self.limit
    }
}
