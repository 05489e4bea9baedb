//! Group commit: the writes of live games go to one writer per database, which takes
//! whatever has queued up while its last commit ran and stores it in one transaction.
//! Each write's caller hears back only after the commit that holds it, so an answer
//! still means "stored" — for every action in the batch at the cost of one commit (on
//! SQLite one fsync of the log; on PostgreSQL one flush of its WAL and a round trip for
//! `BEGIN` and one for `COMMIT`), instead of one commit each.
//!
//! Before, every action was its own transaction on whichever pooled connection was
//! free: on SQLite the connections took turns at the one write lock, sleeping in the
//! busy handler between tries, and on PostgreSQL each waited on its own WAL flush.

use super::checkpoint::Done;
use super::step_log;
use super::steps::{self, Step};
use super::{DbConn, DbError};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, oneshot};

/// How many writes may wait for the writer. Past it, callers wait to hand theirs over
/// (a game's task waits, and its socket's queue fills in turn), so memory stays bounded
/// when the disk cannot keep up.
const QUEUE: usize = 8192;

/// The most writes one transaction holds: enough that one commit serves every game
/// that acted while the last one ran, small enough that a batch's answers are not
/// held back long by its own size.
const MAX_BATCH: usize = 1024;

/// When the last batch held at least [`BUSY_BATCH`] writes, the next commit begins no
/// sooner than this after the last one began. Each commit has a cost of its own
/// whatever it holds: on SQLite a sync of the log, the shared upper pages of the
/// b-tree written again, and a walk of the whole page cache when a leaf split (see
/// BENCHMARKS.md); on PostgreSQL two more round trips and a WAL flush. At 9,000
/// SQLite games (`junqi load --levels 9000`, three rounds each, one machine, one
/// hour) commits came about 460 a second, 19 writes each; spaced by 8 ms the server
/// spent 99.9 / 92.6 / 94.0 µs of CPU per action against 114.7 / 107.6 / 103.3
/// without, and p99 was 51 / 32 / 33 ms against 83 / 74 / 30. 4 ms saved half as
/// much; 16 ms no more than 8 and raised p99 to 54 ms. An answer waits at most this
/// much longer, and only under load.
const SPACING: Duration = Duration::from_millis(8);

/// A batch this large means writes are arriving faster than commits can be spaced
/// apart for free, so the next commit is spaced (see [`SPACING`]). A lone game's
/// actions come one to a batch and are never held back: a test or a bot that plays
/// one step after another waits only for its own commits, as before.
const BUSY_BATCH: usize = 8;

/// A write as the writer runs it. `run` may be called more than once: when a batch
/// fails, it is rolled back and every write in it is tried again in a transaction of
/// its own, so that one bad write never takes its neighbours' down with it.
trait Work: Send {
    /// A step of a running game, stored together with the batch's other steps.
    fn step(&self) -> Option<&Step> {
        None
    }
    fn run(&mut self, conn: &mut DbConn) -> Result<(), DbError>;
    /// Hands the result over; `Ok` only once the commit holding the write succeeded.
    fn answer(self: Box<Self>, outcome: Result<(), DbError>);
}

struct Pending<T, E, F> {
    write: F,
    /// The outcome of the last run: the value, or the write's own refusal (a rule
    /// such as "too many open games", which rolls back what it wrote).
    value: Option<Result<T, E>>,
    reply: oneshot::Sender<Result<T, E>>,
}

impl<T, E, F> Work for Pending<T, E, F>
where
    T: Send,
    E: From<DbError> + Send,
    F: Fn(&mut DbConn) -> Result<T, E> + Send,
{
    fn run(&mut self, conn: &mut DbConn) -> Result<(), DbError> {
        let outcome = (self.write)(conn);
        let refused = outcome.is_err();
        self.value = Some(outcome);
        if refused {
            Err(DbError::Refused)
        } else {
            Ok(())
        }
    }

    fn answer(self: Box<Self>, outcome: Result<(), DbError>) {
        let Pending { value, reply, .. } = *self;
        let result = match (outcome, value) {
            (Ok(()), Some(value)) => value,
            (Err(DbError::Refused), Some(Err(refusal))) => Err(refusal),
            (Err(e), _) => Err(E::from(e)),
            (Ok(()), None) => Err(E::from(DbError::WriterStopped)),
        };
        // The caller may have gone (its game's task stopped); the write stands.
        let _ = reply.send(result);
    }
}

struct StepWork {
    step: Step,
    reply: oneshot::Sender<Result<(), DbError>>,
}

impl Work for StepWork {
    fn step(&self) -> Option<&Step> {
        Some(&self.step)
    }

    fn run(&mut self, conn: &mut DbConn) -> Result<(), DbError> {
        steps::write(conn, &[&self.step])
    }

    fn answer(self: Box<Self>, outcome: Result<(), DbError>) {
        let _ = self.reply.send(outcome);
    }
}

/// The handle to a database's writer; clones share the one writer thread, which ends
/// when the last handle is dropped.
#[derive(Clone)]
pub struct Writer {
    queue: mpsc::Sender<Box<dyn Work>>,
    commits: Arc<AtomicU64>,
}

impl Writer {
    /// Starts the writer on its own thread with `conn`, a connection nothing else uses;
    /// `reconnect` opens another when the database has dropped it.
    /// `checkpointed` is set after each background checkpoint (SQLite), for the writer
    /// to finish it.
    pub fn start(conn: DbConn, reconnect: Reconnect, checkpointed: Arc<Done>) -> Writer {
        let (queue, jobs) = mpsc::channel(QUEUE);
        let commits = Arc::new(AtomicU64::new(0));
        let counted = commits.clone();
        thread::Builder::new()
            .name("db-writer".into())
            .spawn(move || write_loop(conn, &reconnect, jobs, &counted, &checkpointed))
            .expect("the writer thread starts");
        Writer { queue, commits }
    }

    /// How many transactions the writer has committed (batches and single retries).
    pub fn commits(&self) -> u64 {
        self.commits.load(Ordering::Relaxed)
    }

    /// Stores a step of a running game (see `steps`), answering once it is committed.
    pub async fn write_step(&self, step: Step) -> Result<(), DbError> {
        let (reply, answer) = oneshot::channel();
        self.queue
            .send(Box::new(StepWork { step, reply }))
            .await
            .map_err(|_| DbError::WriterStopped)?;
        answer.await.map_err(|_| DbError::WriterStopped)?
    }

    /// Stores what `write` writes, in a transaction shared with other writes, and
    /// answers once it is committed; an error from `write` rolls back what it wrote
    /// and is answered as it is. `write` must not begin or end transactions itself;
    /// it may run twice (see [`Work`]), so it takes what it writes by reference.
    pub async fn write<T, E, F>(&self, write: F) -> Result<T, E>
    where
        T: Send + 'static,
        E: From<DbError> + Send + 'static,
        F: Fn(&mut DbConn) -> Result<T, E> + Send + 'static,
    {
        let (reply, answer) = oneshot::channel();
        let job = Box::new(Pending {
            write,
            value: None,
            reply,
        });
        self.queue
            .send(job)
            .await
            .map_err(|_| E::from(DbError::WriterStopped))?;
        answer.await.map_err(|_| E::from(DbError::WriterStopped))?
    }
}

/// Opens a new connection for the writer.
pub type Reconnect = Box<dyn Fn() -> Result<DbConn, DbError> + Send>;

/// After a failed write: when the database has dropped the connection (a restarted
/// PostgreSQL, an administrator ending the session), a new one replaces it.
fn replace_if_lost(conn: &mut DbConn, reconnect: &Reconnect) -> bool {
    use diesel::connection::SimpleConnection;
    if conn.batch_execute("SELECT 1").is_ok() {
        return false;
    }
    match reconnect() {
        Ok(fresh) => {
            tracing::warn!("the database writer's connection was lost; reconnected");
            *conn = fresh;
            true
        }
        Err(e) => {
            tracing::error!(error = %e, "the database writer cannot reconnect");
            false
        }
    }
}

fn write_loop(
    mut conn: DbConn,
    reconnect: &Reconnect,
    mut jobs: mpsc::Receiver<Box<dyn Work>>,
    commits: &AtomicU64,
    checkpointed: &Done,
) {
    super::busy::this_thread_writes();
    let mut batch: Vec<Box<dyn Work>> = Vec::with_capacity(MAX_BATCH);
    let mut last_start = Instant::now();
    let mut busy = false;
    let mut trimmer = step_log::Trimmer::default();
    while let Some(first) = jobs.blocking_recv() {
        if busy {
            if let Some(wait) = SPACING.checked_sub(last_start.elapsed()) {
                thread::sleep(wait);
            }
        }
        last_start = Instant::now();
        batch.push(first);
        while batch.len() < MAX_BATCH {
            match jobs.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        busy = batch.len() >= BUSY_BATCH;
        trimmer.appended(batch.iter().filter(|job| job.step().is_some()).count());
        let mut outcome = run_batch(&mut conn, &mut batch);
        if outcome.is_err() && replace_if_lost(&mut conn, reconnect) {
            outcome = run_batch(&mut conn, &mut batch);
        }
        super::busy::give_way();
        match outcome {
            Ok(()) => {
                commits.fetch_add(1, Ordering::Relaxed);
                for job in batch.drain(..) {
                    job.answer(Ok(()));
                }
            }
            Err(e) => {
                tracing::warn!(error = %e, writes = batch.len(), "a batch failed; writing one by one");
                for mut job in batch.drain(..) {
                    let outcome = run_alone(&mut conn, job.as_mut());
                    if outcome.is_ok() {
                        commits.fetch_add(1, Ordering::Relaxed);
                    }
                    job.answer(outcome);
                }
            }
        }
        // After the answers, so that no one waits for it.
        if trimmer.due()
            && let Err(e) = trimmer.run(&mut conn)
        {
            tracing::warn!(error = %e, "cannot trim the step log");
        }
        if checkpointed.take() {
            super::checkpoint::finish(&mut conn);
        }
    }
}

fn run_batch(conn: &mut DbConn, batch: &mut [Box<dyn Work>]) -> Result<(), DbError> {
    super::write_transaction(conn, |c| {
        let steps: Vec<&Step> = batch.iter().filter_map(|job| job.step()).collect();
        steps::write(c, &steps)?;
        batch
            .iter_mut()
            .filter(|job| job.step().is_none())
            .try_for_each(|job| job.run(c))
    })
}

fn run_alone(conn: &mut DbConn, job: &mut dyn Work) -> Result<(), DbError> {
    super::write_transaction(conn, |c| job.run(c))
}

#[cfg(test)]
mod tests {
    use crate::db::{self, DbConn, DbError};
    use diesel::prelude::*;
    use diesel::sql_types::{BigInt, Integer};

    fn temp_pool(name: &str) -> (db::Pool, std::path::PathBuf) {
        let path =
            std::env::temp_dir().join(format!("junqi-writer-{name}-{}.db", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let pool = db::connect(path.to_str().unwrap(), 2).expect("a fresh database");
        let mut c = pool.get().unwrap();
        diesel::sql_query("CREATE TABLE tally (n INTEGER PRIMARY KEY)")
            .execute(&mut **c)
            .unwrap();
        (pool, path)
    }

    fn remove(path: &std::path::Path) {
        for end in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{end}", path.display()));
        }
    }

    fn insert(c: &mut DbConn, n: i32) -> Result<(), DbError> {
        diesel::sql_query("INSERT INTO tally (n) VALUES (?)")
            .bind::<Integer, _>(n)
            .execute(c)?;
        Ok(())
    }

    #[derive(QueryableByName)]
    struct Count {
        #[diesel(sql_type = BigInt)]
        n: i64,
    }

    fn count(pool: &db::Pool) -> i64 {
        let mut c = pool.get().unwrap();
        diesel::sql_query("SELECT COUNT(*) AS n FROM tally")
            .get_result::<Count>(&mut **c)
            .unwrap()
            .n
    }

    /// Writes that arrive together share commits, and each is answered only once it is
    /// stored: after the answers, every row is there.
    #[tokio::test]
    async fn concurrent_writes_share_commits_and_are_stored_when_answered() {
        let (pool, path) = temp_pool("batch");
        let before = pool.writer.commits();
        let writes = (0..500).map(|n| {
            let pool = pool.clone();
            tokio::spawn(async move { pool.write(move |c| insert(c, n)).await })
        });
        for w in writes.collect::<Vec<_>>() {
            w.await.unwrap().expect("stored");
        }
        assert_eq!(count(&pool), 500);
        let commits = pool.writer.commits() - before;
        assert!(commits < 250, "500 writes took {commits} commits");
        drop(pool);
        remove(&path);
    }

    /// A write that fails (a duplicate key here) gets its error; the writes batched with
    /// it are still stored, and the failed one left nothing behind.
    #[tokio::test]
    async fn one_failing_write_does_not_fail_its_batch() {
        let (pool, path) = temp_pool("failing");
        pool.write(|c| insert(c, 7)).await.unwrap();
        let writes: Vec<_> = (0..100)
            .map(|n| {
                let pool = pool.clone();
                tokio::spawn(async move {
                    pool.write(move |c| -> Result<(), DbError> {
                        insert(c, 1000 + n)?;
                        // The 50th also tries the taken key, after a row of its own.
                        if n == 50 {
                            insert(c, 7)?;
                        }
                        Ok(())
                    })
                    .await
                })
            })
            .collect();
        let mut failed = Vec::new();
        for (n, w) in writes.into_iter().enumerate() {
            if w.await.unwrap().is_err() {
                failed.push(n);
            }
        }
        assert_eq!(failed, vec![50]);
        assert_eq!(count(&pool), 1 + 99);
        drop(pool);
        remove(&path);
    }

    /// While the writer commits batch after batch, writes on other connections (a
    /// game created, a session stored) still get the lock: none fails with "database
    /// is locked", which SQLite's own busy handler let happen under load.
    #[tokio::test]
    async fn other_connections_get_their_turn_beside_a_busy_writer() {
        use std::sync::Arc;
        use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
        let (pool, path) = temp_pool("turns");
        let stop = Arc::new(AtomicBool::new(false));
        let next = Arc::new(AtomicI32::new(0));
        let writers: Vec<_> = (0..64)
            .map(|_| {
                let (pool, stop, next) = (pool.clone(), stop.clone(), next.clone());
                tokio::spawn(async move {
                    while !stop.load(Ordering::Relaxed) {
                        // Each write holds the lock a while, as a batch of many
                        // games' steps does.
                        let n = next.fetch_add(1, Ordering::Relaxed);
                        pool.write(move |c| (0..50).try_for_each(|i| insert(c, n * 100 + i)))
                            .await
                            .expect("stored");
                    }
                })
            })
            .collect();
        while next.load(Ordering::Relaxed) < 200 {
            tokio::time::sleep(std::time::Duration::from_millis(1)).await;
        }
        let other = pool.clone();
        let others = tokio::task::spawn_blocking(move || {
            let mut c = other.get().unwrap();
            (0..100)
                .map(|n| insert(&mut c, -1 - n).map_err(|e| e.to_string()))
                .collect::<Vec<_>>()
        });
        let outcomes = others.await.unwrap();
        let during = next.load(Ordering::Relaxed);
        stop.store(true, Ordering::Relaxed);
        for w in writers {
            w.await.unwrap();
        }
        assert!(during > 200, "the writer was busy meanwhile ({during})");
        let failed: Vec<_> = outcomes.iter().filter_map(|o| o.as_ref().err()).collect();
        assert!(
            failed.is_empty(),
            "{} of 100 failed: {:?}",
            failed.len(),
            failed.first()
        );
        assert!(
            next.load(Ordering::Relaxed) > 100,
            "the writer was busy meanwhile"
        );
        drop(pool);
        remove(&path);
    }

    #[derive(QueryableByName)]
    struct Setting {
        #[diesel(sql_type = Integer)]
        synchronous: i32,
    }

    /// An acknowledged write must survive a power cut, not only a crash of the
    /// process: the log is synced at every commit (`synchronous = FULL`, 2).
    #[tokio::test]
    async fn sqlite_commits_are_synced() {
        let (pool, path) = temp_pool("sync");
        let level = pool
            .write(|c| -> Result<i32, DbError> {
                Ok(diesel::sql_query("PRAGMA synchronous")
                    .get_result::<Setting>(c)?
                    .synchronous)
            })
            .await
            .unwrap();
        assert_eq!(level, 2);
        drop(pool);
        remove(&path);
    }
}
