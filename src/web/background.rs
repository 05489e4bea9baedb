//! Threads for costly work no game waits on: reviews of finished games and the analysis
//! API's evaluations. They run at the lowest priority there is (niceness 19), below the
//! computer's thinking threads (10) and far below the games and HTTP workers (0), so
//! that when the machine is busy the kernel gives them what is left over: live games
//! first. They are threads of their own, apart from the thinking pool, so a review never
//! takes a thread a live game's computer is waiting for.
//!
//! Each pool has a bounded queue: a job that finds it full is handed back at once
//! (the caller answers "try again later") rather than queued without end.

use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex};

/// The niceness of the background threads: the lowest share the kernel gives.
const NICENESS: i32 = 19;

type Job = Box<dyn FnOnce() + Send>;

#[derive(Clone)]
pub struct Background {
    queue: SyncSender<Job>,
}

/// The pool's queue was full: the job was not taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Full;

fn lowest_priority() {
    // SAFETY: setpriority reads its integer arguments only. On Linux, PRIO_PROCESS with
    // id 0 names the calling thread alone (threads are tasks of their own).
    let r = unsafe { libc::setpriority(libc::PRIO_PROCESS, 0, NICENESS) };
    if r != 0 {
        tracing::warn!("cannot lower a background thread's priority");
    }
}

fn work(jobs: &Mutex<Receiver<Job>>) {
    lowest_priority();
    loop {
        let job = match jobs.lock().unwrap_or_else(|p| p.into_inner()).recv() {
            Ok(job) => job,
            // Every sender is gone: the server is stopping.
            Err(_) => return,
        };
        // A bug in a job must not take the thread with it.
        if std::panic::catch_unwind(std::panic::AssertUnwindSafe(job)).is_err() {
            tracing::error!("a background job panicked");
        }
    }
}

impl Background {
    /// `threads` threads named `name-N`, with room for `waiting` jobs not yet taken.
    pub fn start(name: &str, threads: usize, waiting: usize) -> Background {
        let (queue, jobs) = sync_channel::<Job>(waiting);
        let jobs = Arc::new(Mutex::new(jobs));
        for i in 0..threads.max(1) {
            let jobs = jobs.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("{name}-{i}"))
                .spawn(move || work(&jobs));
            if let Err(e) = spawned {
                tracing::error!(error = %e, "cannot start a background thread");
            }
        }
        Background { queue }
    }

    /// Queues `job`, or hands it back when the queue is full.
    pub fn try_run(&self, job: impl FnOnce() + Send + 'static) -> Result<(), Full> {
        match self.queue.try_send(Box::new(job)) {
            Ok(()) => Ok(()),
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => Err(Full),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::channel;

    #[test]
    fn a_full_queue_hands_the_job_back() {
        let pool = Background::start("test-bg", 1, 1);
        let (hold_tx, hold_rx) = channel::<()>();
        let (started_tx, started_rx) = channel::<()>();
        pool.try_run(move || {
            started_tx.send(()).unwrap();
            hold_rx.recv().unwrap();
        })
        .unwrap();
        started_rx.recv().unwrap();
        // The thread is busy: one job may wait, the next is refused.
        pool.try_run(|| {}).unwrap();
        assert_eq!(pool.try_run(|| {}), Err(Full));
        hold_tx.send(()).unwrap();
    }
}
