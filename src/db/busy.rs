//! Taking turns at SQLite's one write lock. The writer (`writer`) holds it for most of
//! each moment under load, committing batch after batch; SQLite's own busy handler
//! makes a waiting connection sleep 1, 2, 5, 10… up to 100 ms between tries, and a try
//! only succeeds if it falls between two batches. Under 7,000 games, creating, joining
//! and cancelling games waited out the five seconds and failed with "database is
//! locked". Here a waiting connection tries again every millisecond and says that it
//! waits; the writer, after each commit, leaves the lock free for a moment when
//! someone does.

use std::os::raw::{c_int, c_void};
use std::sync::LazyLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};

/// How long a statement waits for the lock before failing with "database is locked".
const PATIENCE: Duration = Duration::from_secs(10);
/// Between tries.
const STEP: Duration = Duration::from_millis(1);
/// What the writer leaves free after a commit while someone waits: two of their tries.
const GAP: Duration = Duration::from_millis(2);

static EPOCH: LazyLock<Instant> = LazyLock::new(Instant::now);
/// When a connection other than the writer last found the lock taken, in microseconds
/// since `EPOCH` (0: never).
static WAITED_AT: AtomicU64 = AtomicU64::new(0);

thread_local! {
    static IS_WRITER: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn now_us() -> u64 {
    EPOCH.elapsed().as_micros() as u64 + 1
}

/// Marks the calling thread as the writer's: its waits do not ask for a gap.
pub fn this_thread_writes() {
    IS_WRITER.with(|w| w.set(true));
}

/// After a commit: if another connection waited for the lock just now, leaves the lock
/// free long enough for it to take its turn.
pub fn give_way() {
    let waited = WAITED_AT.load(Ordering::Relaxed);
    if waited != 0 && now_us().saturating_sub(waited) < 3 * STEP.as_micros() as u64 {
        thread::sleep(GAP);
    }
}

/// SQLite's busy handler for every connection: nonzero to try again.
///
/// # Safety
/// Called by SQLite only, as registered with `sqlite3_busy_handler`.
pub unsafe extern "C" fn wait_turn(_: *mut c_void, tries: c_int) -> c_int {
    if tries as u128 * STEP.as_millis() >= PATIENCE.as_millis() {
        return 0;
    }
    if !IS_WRITER.with(|w| w.get()) {
        WAITED_AT.store(now_us(), Ordering::Relaxed);
    }
    thread::sleep(STEP);
    1
}
