//! SQLite checkpoints on a thread of their own. With the log's automatic checkpoint
//! (every 1,000 pages, run by whichever commit crossed the line) a commit now and then
//! copied pages into the database file and synced it while every game waited; and
//! while readers held older snapshots it could not finish, so every later commit
//! tried again, the log grew past 100 MB and each try cost another sync. Here a
//! passive checkpoint runs beside the writer, never blocking it or any reader.
//!
//! That alone never let the log start over: SQLite rewinds it only when a write
//! begins with every page of the log already copied, and the writer, committing batch
//! after batch, always had a few new pages in it by then. Under 9,000 games the log
//! grew by 60 MB a second without end, and extending the file (the kernel zeroing each
//! new page) took a fifth of the server's CPU. So the thread here checkpoints again
//! and again while each pass still finds much new in the log, and then the writer
//! copies the little that came in meanwhile itself, between two batches (`finish`);
//! its next batch rewinds the log and writes over pages already cached. (With one pass
//! only, what the writer had left to copy held every game for 30–60 ms twice a second.)

use super::DbConn;
use diesel::RunQueryDsl;
use diesel::connection::SimpleConnection;
use diesel::sql_types::Integer;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};
use std::thread;
use std::time::Duration;

/// How often the checkpoint runs: under 9,000 games the log gains some 60 MB a second,
/// so it stays near the 64 MiB `journal_size_limit` the file is cut back to.
const EVERY: Duration = Duration::from_millis(500);

/// A pass that found fewer new log frames than this (4 MiB of pages) leaves the rest
/// to the writer; after this many passes it is left to the writer anyway.
const FEW: i32 = 1024;
const PASSES: usize = 6;

/// Held by the pool; the thread ends once no pool holds it.
pub struct Alive;

/// Set by the checkpoint thread after each checkpoint, taken by the writer.
#[derive(Default)]
pub struct Done(AtomicBool);

impl Done {
    /// Whether a checkpoint ran since the last call.
    pub fn take(&self) -> bool {
        self.0.swap(false, Ordering::Relaxed)
    }
}

/// Run by the writer between batches, once the thread's checkpoint is done: copies
/// the pages committed since, so that the next write rewinds the log.
pub fn finish(conn: &mut DbConn) {
    if let Err(e) = conn.batch_execute("PRAGMA wal_checkpoint(PASSIVE)") {
        tracing::warn!(error = %e, "the writer's checkpoint failed");
    }
}

pub fn start(mut conn: DbConn, alive: Weak<Alive>, done: Arc<Done>) {
    thread::Builder::new()
        .name("db-checkpoint".into())
        .spawn(move || {
            while alive.strong_count() > 0 {
                thread::sleep(EVERY);
                match catch_up(&mut conn) {
                    Ok(()) => done.0.store(true, Ordering::Relaxed),
                    Err(e) => tracing::warn!(error = %e, "checkpoint failed"),
                }
            }
        })
        .expect("the checkpoint thread starts");
}

#[derive(diesel::QueryableByName)]
struct Pass {
    /// Frames in the log when the pass began.
    #[diesel(sql_type = Integer)]
    log: i32,
}

/// Passive checkpoints (each copies what no reader still needs and returns, never
/// waiting for the writer or a reader) until one finds little new since the last.
fn catch_up(conn: &mut DbConn) -> Result<(), diesel::result::Error> {
    let mut seen = 0;
    for _ in 0..PASSES {
        let pass: Pass = diesel::sql_query("PRAGMA wal_checkpoint(PASSIVE)").get_result(conn)?;
        // A log that started over since the last pass is smaller than it was.
        if pass.log - seen < FEW {
            break;
        }
        seen = pass.log;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::db;
    use diesel::prelude::*;
    use diesel::sql_types::Text;
    use std::time::{Duration, Instant};

    /// The log's checkpoint sequence number, which SQLite raises each time it starts
    /// the log over (the big-endian word at byte 12 of the log's header).
    fn rewinds(log: &std::path::Path) -> u32 {
        let bytes = std::fs::read(log).unwrap_or_default();
        bytes
            .get(12..16)
            .map_or(0, |b| u32::from_be_bytes(b.try_into().unwrap()))
    }

    /// Games that never pause keep the writer committing batch after batch; the log
    /// must still start over every few checkpoints rather than grow for as long as the
    /// load lasts (it grew by 60 MB a second under 9,000 games).
    #[tokio::test]
    async fn the_log_starts_over_while_the_writer_never_rests() {
        let path = std::env::temp_dir().join(format!("junqi-rewind-{}.db", std::process::id()));
        let log = std::path::PathBuf::from(format!("{}-wal", path.display()));
        for end in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{end}", path.display()));
        }
        let pool = db::connect(path.to_str().unwrap(), 2).expect("a fresh database");
        diesel::sql_query("CREATE TABLE moves (game TEXT, body TEXT)")
            .execute(&mut **pool.get().unwrap())
            .unwrap();
        let first = rewinds(&log);
        let until = Instant::now() + Duration::from_secs(3);
        let writers = (0..64).map(|w| {
            let pool = pool.clone();
            tokio::spawn(async move {
                let mut n = 0u64;
                while Instant::now() < until {
                    let body = format!("{w}-{n}-{}", "x".repeat(200));
                    pool.write(move |c| {
                        diesel::sql_query("INSERT INTO moves (game, body) VALUES (?, ?)")
                            .bind::<Text, _>(w.to_string())
                            .bind::<Text, _>(&body)
                            .execute(c)
                            .map(|_| ())
                            .map_err(db::DbError::Query)
                    })
                    .await
                    .unwrap();
                    n += 1;
                }
                n
            })
        });
        let mut written = 0;
        for w in writers {
            written += w.await.unwrap();
        }
        let started_over = rewinds(&log).wrapping_sub(first);
        assert!(written > 200, "the writer was kept busy ({written} writes)");
        assert!(
            started_over >= 2,
            "the log started over {started_over} times in 3 s of writes"
        );
        drop(pool);
        for end in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{end}", path.display()));
        }
    }
}
