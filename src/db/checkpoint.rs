//! SQLite checkpoints on a thread of their own. With the log's automatic checkpoint
//! (every 1,000 pages, run by whichever commit crossed the line) a commit now and then
//! copied pages into the database file and synced it while every game waited; and
//! while readers held older snapshots it could not finish, so every later commit
//! tried again, the log grew past 100 MB and each try cost another sync. Here a
//! passive checkpoint runs beside the writer, never blocking it or any reader.

use super::DbConn;
use diesel::connection::SimpleConnection;
use std::sync::Weak;
use std::thread;
use std::time::Duration;

/// How often the checkpoint runs. Under the heaviest load measured the log gains a
/// few megabytes a second, so it stays small.
const EVERY: Duration = Duration::from_millis(500);

/// Held by the pool; the thread ends once no pool holds it.
pub struct Alive;

pub fn start(mut conn: DbConn, alive: Weak<Alive>) {
    thread::Builder::new()
        .name("db-checkpoint".into())
        .spawn(move || {
            while alive.strong_count() > 0 {
                thread::sleep(EVERY);
                // PASSIVE copies what no reader still needs and returns; what is left
                // goes next time. TRUNCATE would wait for readers and the writer.
                if let Err(e) = conn.batch_execute("PRAGMA wal_checkpoint(PASSIVE)") {
                    tracing::warn!(error = %e, "checkpoint failed");
                }
            }
        })
        .expect("the checkpoint thread starts");
}
