//! The database: one diesel connection type over SQLite and PostgreSQL, an r2d2 pool,
//! and the migrations of each backend embedded in the binary.

mod busy;
mod checkpoint;
pub mod games;
pub mod guests;
pub mod history;
pub mod kinds;
pub mod layouts;
pub mod marks;
pub mod open_lists;
pub mod profiles;
pub mod schema;
pub mod sessions;
pub mod social;
pub mod step_log;
pub mod steps;
pub mod table_history;
pub mod tables;
pub mod tokens;
pub mod users;
pub mod watch_permits;
pub mod writer;

use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};
use std::fmt;
use std::ops::{Deref, DerefMut};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/sqlite");
const POSTGRES_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/postgres");

/// A connection to whichever backend the configuration names. Queries are written once
/// against this type.
#[derive(diesel::MultiConnection)]
pub enum DbConn {
    Postgres(diesel::PgConnection),
    Sqlite(diesel::SqliteConnection),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    pub fn of_url(url: &str) -> Backend {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Backend::Postgres
        } else {
            Backend::Sqlite
        }
    }
}

/// Opens connections of the backend the URL names, never guessing: a mistyped
/// PostgreSQL URL must fail, not quietly become a SQLite file.
#[derive(Debug, Clone)]
pub struct Manager {
    url: String,
    backend: Backend,
}

#[derive(Debug)]
pub enum DbError {
    Connection(diesel::ConnectionError),
    Query(diesel::result::Error),
    Pool(r2d2::Error),
    Migration(String),
    /// The writer thread is gone (the process is shutting down).
    WriterStopped,
    /// A write given to the writer refused itself (its own error goes to its caller).
    Refused,
}

impl fmt::Display for DbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DbError::Connection(e) => write!(f, "database connection: {e}"),
            DbError::Query(e) => write!(f, "database query: {e}"),
            DbError::Pool(e) => write!(f, "database pool: {e}"),
            DbError::Migration(e) => write!(f, "database migration: {e}"),
            DbError::WriterStopped => write!(f, "the database writer has stopped"),
            DbError::Refused => write!(f, "the write was refused"),
        }
    }
}

impl std::error::Error for DbError {}

impl From<diesel::result::Error> for DbError {
    fn from(e: diesel::result::Error) -> DbError {
        DbError::Query(e)
    }
}

impl From<r2d2::Error> for DbError {
    fn from(e: r2d2::Error) -> DbError {
        DbError::Pool(e)
    }
}

/// A pooled connection, with what the pool needs to know to skip checking it.
pub struct Pooled {
    conn: DbConn,
    /// When it last went back to the pool.
    returned_at: Option<Instant>,
}

impl Deref for Pooled {
    type Target = DbConn;
    fn deref(&self) -> &DbConn {
        &self.conn
    }
}

impl DerefMut for Pooled {
    fn deref_mut(&mut self) -> &mut DbConn {
        &mut self.conn
    }
}

/// A connection handed back this recently is given out again without a test query: on
/// PostgreSQL the test is a round trip to the server on every checkout, which under
/// load cost as much as a page's own queries. (Connection pools such as HikariCP skip
/// the test in the same way.)
const TRUSTED_FOR: Duration = Duration::from_millis(500);

impl r2d2::ManageConnection for Manager {
    type Connection = Pooled;
    type Error = DbError;

    fn connect(&self) -> Result<Pooled, DbError> {
        let conn = match self.backend {
            Backend::Postgres => {
                let mut c =
                    diesel::PgConnection::establish(&self.url).map_err(DbError::Connection)?;
                // A commit answers only once its WAL is flushed to disk, whatever the
                // server's default: an acknowledged action survives a power cut.
                c.batch_execute("SET synchronous_commit = on")
                    .map_err(DbError::Query)?;
                DbConn::Postgres(c)
            }
            Backend::Sqlite => {
                sqlite_global_config();
                let path = self.url.strip_prefix("sqlite://").unwrap_or(&self.url);
                let mut c =
                    diesel::SqliteConnection::establish(path).map_err(DbError::Connection)?;
                // WAL lets readers run beside the one writer.
                // Reads go through a memory map of the file rather than copies into
                // each connection's page cache (a third of a history page's CPU went
                // to those copies and their allocations).
                // `synchronous = FULL` syncs the log at every commit, so a committed
                // (and acknowledged) write survives a power cut, not only a crash of
                // the process; the writer batches commits to make that affordable.
                // Checkpoints run on a thread of their own (`checkpoint`), never as
                // part of a commit.
                // A batch's two statements each touch hundreds of pages, and SQLite
                // keeps their old contents until the statement ends (to undo it
                // alone): past 64 KiB in a temporary file, whose writes took a
                // seventh of the writer's time under 9,000 games. In memory instead.
                // (The busy handler, set as the connection opened, makes a writer
                // wait for the lock instead of failing: see `busy`.)
                c.batch_execute(
                    "PRAGMA journal_mode = WAL; \
                     PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; \
                     PRAGMA mmap_size = 1073741824; PRAGMA wal_autocheckpoint = 0; \
                     PRAGMA journal_size_limit = 67108864; PRAGMA temp_store = MEMORY;",
                )
                .map_err(DbError::Query)?;
                DbConn::Sqlite(c)
            }
        };
        Ok(Pooled {
            conn,
            returned_at: None,
        })
    }

    fn is_valid(&self, conn: &mut Pooled) -> Result<(), DbError> {
        if conn.returned_at.is_some_and(|t| t.elapsed() < TRUSTED_FOR) {
            return Ok(());
        }
        conn.conn.batch_execute("SELECT 1").map_err(DbError::Query)
    }

    fn has_broken(&self, conn: &mut Pooled) -> bool {
        use diesel::r2d2::R2D2Connection;
        // Called by the pool whenever a connection comes back. Diesel reports a
        // connection the server has closed as broken (libpq no longer knows its
        // transaction state), so it is dropped here rather than handed out again.
        conn.returned_at = Some(Instant::now());
        conn.conn.is_broken()
    }
}

/// Process-wide SQLite settings, made once before the first connection opens: no
/// memory statistics, whose global mutex every allocation of every connection took
/// (the most contended lock under load), and a fixed query plan for every connection.
fn sqlite_global_config() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // SAFETY: called before any connection exists in this process (SQLite refuses
        // the change with SQLITE_MISUSE, harmlessly, if it was already initialised);
        // the extension is a plain function that lives as long as the process.
        unsafe {
            libsqlite3_sys::sqlite3_config(libsqlite3_sys::SQLITE_CONFIG_MEMSTATUS, 0);
            libsqlite3_sys::sqlite3_auto_extension(Some(stable_query_plans));
        }
    });
}

/// Run by SQLite on each new connection. Without a stable plan, SQLite plans some
/// statements for the values bound to them (a `LIMIT ?`, say) and so prepares them
/// afresh every time they run with new values: a tenth of a profile page's CPU went
/// to parsing statements the cache already held.
unsafe extern "C" fn stable_query_plans(
    db: *mut libsqlite3_sys::sqlite3,
    _err: *mut *mut std::os::raw::c_char,
    _api: *const libsqlite3_sys::sqlite3_api_routines,
) -> std::os::raw::c_int {
    // SAFETY: SQLite hands us the connection it is opening; the option takes an int
    // and an optional int pointer for the old value.
    let rc = unsafe {
        libsqlite3_sys::sqlite3_db_config(
            db,
            libsqlite3_sys::SQLITE_DBCONFIG_ENABLE_QPSG,
            1 as std::os::raw::c_int,
            std::ptr::null_mut::<std::os::raw::c_int>(),
        )
    };
    // SAFETY: the handler is a plain function that lives as long as the process.
    unsafe {
        libsqlite3_sys::sqlite3_busy_handler(db, Some(busy::wait_turn), std::ptr::null_mut());
    }
    // The database file grows by whole chunks. Every connection maps the file into
    // memory (`mmap_size`) and maps it afresh whenever it finds the file grown: with
    // checkpoints copying a few pages at a time, that was every few commits, and the
    // unmapping (with its TLB flushes) took a fifth of the server's CPU under load.
    let mut chunk: std::os::raw::c_int = 4 << 20;
    // SAFETY: the main database of the connection being opened; the chunk size is an
    // int SQLite reads during the call. A failure leaves the default growth.
    unsafe {
        libsqlite3_sys::sqlite3_file_control(
            db,
            c"main".as_ptr(),
            libsqlite3_sys::SQLITE_FCNTL_CHUNK_SIZE,
            (&raw mut chunk).cast(),
        );
    }
    rc
}

pub type PooledConn = r2d2::PooledConnection<Manager>;

/// The connection pool, with a queue in front of it that lets work in by order of
/// arrival. Without it, every waiting request parks a thread on the pool and whichever
/// thread the system wakes first goes next: under load a few requests waited many
/// times longer than the rest (PostgreSQL pages at 64 connections: p99 three times the
/// median; with the queue, under one and a half times).
#[derive(Clone)]
pub struct Pool {
    connections: r2d2::Pool<Manager>,
    queue: Arc<Semaphore>,
    writer: writer::Writer,
    /// Held while any clone of the pool lives; the checkpoint thread stops with it.
    _alive: Arc<checkpoint::Alive>,
}

/// A place in the database's queue; the next in line goes when it is dropped.
pub type Turn = OwnedSemaphorePermit;

/// How many more than the pool's connections may be past the queue at once, so that
/// the next piece of work is already waiting when a connection comes free.
const QUEUE_AHEAD: usize = 2;

impl Pool {
    /// A connection, waiting for one if all are in use (bypassing the queue: for
    /// tools, start-up and tests; request handlers go through `turn` first).
    pub fn get(&self) -> Result<PooledConn, DbError> {
        Ok(self.connections.get()?)
    }

    /// Stores what `write` writes through the database's one writer (group commit,
    /// see `writer`), answering once it is committed.
    pub async fn write<T, E, F>(&self, write: F) -> Result<T, E>
    where
        T: Send + 'static,
        E: From<DbError> + Send + 'static,
        F: Fn(&mut DbConn) -> Result<T, E> + Send + 'static,
    {
        self.writer.write(write).await
    }

    /// Stores a step of a running game through the writer, with the other steps of its
    /// batch in one statement (see `steps`).
    pub async fn write_step(&self, step: steps::Step) -> Result<(), DbError> {
        self.writer.write_step(step).await
    }

    /// Waits, in order of arrival, for a turn at the database.
    pub async fn turn(&self) -> Turn {
        self.queue
            .clone()
            .acquire_owned()
            .await
            .expect("the database queue is never closed")
    }
}

/// Opens a pool on `url` and applies pending migrations.
pub fn connect(url: &str, max_size: u32) -> Result<Pool, DbError> {
    let backend = Backend::of_url(url);
    let connections = r2d2::Pool::builder()
        .max_size(max_size)
        // r2d2 panics when min_idle exceeds max_size (a pool of one, as tools and
        // tests open).
        .min_idle(Some(2.min(max_size)))
        .connection_timeout(Duration::from_secs(10))
        .build(Manager {
            url: url.to_string(),
            backend,
        })?;
    let mut conn = connections.get()?;
    run_migrations(&mut conn)?;
    use r2d2::ManageConnection;
    let manager = Manager {
        url: url.to_string(),
        backend,
    };
    let again = manager.clone();
    let checkpointed = Arc::new(checkpoint::Done::default());
    let writer = writer::Writer::start(
        writer_connection(&manager)?,
        Box::new(move || writer_connection(&again)),
        checkpointed.clone(),
    );
    let alive = Arc::new(checkpoint::Alive);
    if backend == Backend::Sqlite {
        let conn = manager.connect()?.conn;
        checkpoint::start(conn, Arc::downgrade(&alive), checkpointed);
    }
    Ok(Pool {
        connections,
        queue: Arc::new(Semaphore::new(max_size as usize + QUEUE_AHEAD)),
        writer,
        _alive: alive,
    })
}

/// Runs one `MigrationHarness` method with the connection's own backend and migrations.
macro_rules! migrate {
    ($conn:expr, $method:ident) => {
        match $conn {
            DbConn::Sqlite(c) => c.$method(SQLITE_MIGRATIONS).map(|_| ()),
            DbConn::Postgres(c) => c.$method(POSTGRES_MIGRATIONS).map(|_| ()),
        }
        .map_err(|e| DbError::Migration(e.to_string()))
    };
}

pub fn run_migrations(conn: &mut DbConn) -> Result<(), DbError> {
    migrate!(conn, run_pending_migrations)
}

/// Reverts the newest applied migration (a downgrade by one step); the tests use it to
/// build data in the shape an older release stored.
pub fn revert_last_migration(conn: &mut DbConn) -> Result<(), DbError> {
    migrate!(conn, revert_last_migration)
}

/// Reverts the newest applied migrations until `keep` (a migration folder's name, such
/// as `2026-11-29-000004_player_pages`) is the newest applied: the tests build data in
/// the shape an older release stored, whatever migrations were added since.
pub fn revert_migrations_after(conn: &mut DbConn, keep: &str) -> Result<(), DbError> {
    // Diesel's version of a folder is its leading part with the dashes dropped.
    let version = |name: &str| -> String {
        let head = name.split('_').next().unwrap_or_default();
        head.chars().filter(char::is_ascii_digit).collect()
    };
    let keep = version(keep);
    loop {
        let applied = match conn {
            DbConn::Sqlite(c) => c.applied_migrations(),
            DbConn::Postgres(c) => c.applied_migrations(),
        }
        .map_err(|e| DbError::Migration(e.to_string()))?;
        let newest = applied.iter().map(|v| version(&v.to_string())).max();
        match newest {
            Some(v) if v > keep => revert_last_migration(conn)?,
            _ => return Ok(()),
        }
    }
}

/// Reverts every migration; used by the tests that check migrations go down cleanly.
pub fn revert_all_migrations(conn: &mut DbConn) -> Result<(), DbError> {
    migrate!(conn, revert_all_migrations)
}

/// The writer's connection. On SQLite it keeps the live games' newest pages in its own
/// cache: with the default 2 MB it read about 1.2 pages back per action under 6,000
/// games (`strace -c` on the server: 31,856 `pread64` for 25,765 actions), most of
/// them from the log, which the memory map does not cover. About one leaf page per
/// live game is hot, 36 MB for 9,000 games; 48 MB holds them.
fn writer_connection(manager: &Manager) -> Result<DbConn, DbError> {
    use r2d2::ManageConnection;
    let mut conn = manager.connect()?.conn;
    if let DbConn::Sqlite(c) = &mut conn {
        c.batch_execute("PRAGMA cache_size = -49152")
            .map_err(DbError::Query)?;
    }
    Ok(conn)
}

/// Runs `f` in a transaction for writing. On SQLite it begins `IMMEDIATE`, taking the
/// write lock at the start, where the busy timeout waits for it. A deferred transaction
/// (plain `BEGIN`) that reads and then writes asks for the lock only at its first write,
/// and when another connection committed since its read began, SQLite answers "database
/// is locked" at once, without waiting: concurrent registrations got 500s that way.
/// Inside a transaction already open, `f` runs in a savepoint of it.
pub fn write_transaction<T, E>(
    conn: &mut DbConn,
    f: impl FnOnce(&mut DbConn) -> Result<T, E>,
) -> Result<T, E>
where
    E: From<diesel::result::Error>,
{
    use diesel::connection::{AnsiTransactionManager, TransactionManager};
    let DbConn::Sqlite(sqlite) = conn else {
        return conn.transaction(f);
    };
    let depth = AnsiTransactionManager::transaction_manager_status_mut(sqlite)
        .transaction_depth()
        .map_err(E::from)?;
    if depth.is_some() {
        return conn.transaction(f);
    }
    AnsiTransactionManager::begin_transaction_sql(sqlite, "BEGIN IMMEDIATE")?;
    // The same steps as diesel's own `SqliteConnection::immediate_transaction`, but
    // handing `f` the connection type every query is written against.
    match f(conn) {
        Ok(value) => {
            <DbConn as Connection>::TransactionManager::commit_transaction(conn)?;
            Ok(value)
        }
        Err(e) => {
            <DbConn as Connection>::TransactionManager::rollback_transaction(conn)?;
            Err(e)
        }
    }
}

/// A named value kept by the server itself, such as the session signing key.
pub fn setting(conn: &mut DbConn, key: &str) -> Result<Option<String>, DbError> {
    use schema::settings::dsl as s;
    Ok(s::settings
        .filter(s::key.eq(key))
        .select(s::value)
        .first::<String>(conn)
        .optional()?)
}

/// Stores `value` under `key` unless one is there already; returns the stored value.
pub fn setting_or_insert(conn: &mut DbConn, key: &str, value: &str) -> Result<String, DbError> {
    use schema::settings::dsl as s;
    write_transaction(conn, |c| {
        if let Some(v) = setting(c, key).map_err(|_| diesel::result::Error::RollbackTransaction)? {
            return Ok(v);
        }
        diesel::insert_into(s::settings)
            .values((s::key.eq(key), s::value.eq(value)))
            .execute(c)?;
        Ok(value.to_string())
    })
    .map_err(DbError::Query)
}

pub fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}
