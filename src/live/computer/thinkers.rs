//! The computer's thinking pool: a few OS threads of their own, apart from the async
//! runtime's game tasks and the HTTP workers, at a lowered priority, so that a search
//! takes only the CPU the people's games leave. Questions wait in one queue; a thread
//! that takes one while others wait behind it gives it a smaller share of its level's
//! nodes and of its time, so that when many games think at once each thinks less
//! rather than making the others wait.

use crate::engine::{self, Decision, Information, Level, Limits};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Instant;

/// The niceness of the thinking threads: at 10 the kernel gives a busy one about a
/// tenth of what a thread at the default 0 gets, when both want the CPU.
const NICENESS: i32 = 10;

/// One question for the computer.
pub struct Question {
    pub info: Information,
    pub level: Level,
    /// The answer is due by then, whatever the queue was like.
    pub deadline: Instant,
    /// Set by the game once it no longer wants the answer.
    pub stop: Arc<AtomicBool>,
    /// Takes the decision back to the game; `None` when the engine failed.
    pub answer: Box<dyn FnOnce(Option<Decision>) + Send>,
}

struct Shared {
    queue: Mutex<VecDeque<Question>>,
    wake: Condvar,
    threads: usize,
    /// Questions being thought about now.
    busy: AtomicUsize,
}

#[derive(Clone)]
pub struct Thinkers {
    shared: Arc<Shared>,
}

impl Thinkers {
    /// A pool of `threads` thinking threads (at least one), started at once.
    pub fn start(threads: usize) -> Thinkers {
        let threads = threads.max(1);
        let shared = Arc::new(Shared {
            queue: Mutex::new(VecDeque::new()),
            wake: Condvar::new(),
            threads,
            busy: AtomicUsize::new(0),
        });
        for i in 0..threads {
            let shared = shared.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("junqi-think-{i}"))
                .spawn(move || think(&shared));
            if let Err(e) = spawned {
                tracing::error!(error = %e, "cannot start a thinking thread");
            }
        }
        Thinkers { shared }
    }

    pub fn ask(&self, q: Question) {
        self.shared
            .queue
            .lock()
            .expect("thinkers lock")
            .push_back(q);
        self.shared.wake.notify_one();
    }

    /// Questions waiting and being thought about.
    pub fn load(&self) -> usize {
        self.shared.queue.lock().expect("thinkers lock").len()
            + self.shared.busy.load(Ordering::Relaxed)
    }
}

/// The share of a question's nodes and remaining time when `behind` questions wait
/// after it for `threads` threads: all of it with none waiting, half with a thread's
/// worth waiting, and so on down to a twentieth.
pub fn share(behind: usize, threads: usize) -> f64 {
    let rounds = behind as f64 / threads.max(1) as f64;
    (1.0 / (1.0 + rounds)).max(0.05)
}

fn lower_priority() {
    // SAFETY: setpriority reads its integer arguments only. On Linux, PRIO_PROCESS with
    // id 0 names the calling thread alone (threads are tasks of their own).
    let r = unsafe { libc::setpriority(libc::PRIO_PROCESS, 0, NICENESS) };
    if r != 0 {
        tracing::warn!("cannot lower a thinking thread's priority");
    }
}

fn think(shared: &Shared) {
    lower_priority();
    loop {
        let (q, behind) = {
            let mut queue = shared.queue.lock().expect("thinkers lock");
            loop {
                if let Some(q) = queue.pop_front() {
                    break (q, queue.len());
                }
                queue = shared.wake.wait(queue).expect("thinkers lock");
            }
        };
        if q.stop.load(Ordering::Relaxed) {
            // The game moved on while this waited: nobody wants the answer.
            continue;
        }
        shared.busy.fetch_add(1, Ordering::Relaxed);
        let share = share(behind, shared.threads);
        let now = Instant::now();
        let deadline = now + q.deadline.saturating_duration_since(now).mul_f64(share);
        let limits = Limits {
            deadline: Some(deadline),
            stop: Some(&q.stop),
            share,
        };
        // A bug in the engine must not take the thread with it: the game then plays
        // without it (see the game task's fallback).
        let decided = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            engine::choose_within(&q.info, q.level, &mut rand::rng(), limits)
        }));
        shared.busy.fetch_sub(1, Ordering::Relaxed);
        if decided.is_err() {
            tracing::error!("the engine failed on a question");
        }
        (q.answer)(decided.ok());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_share_shrinks_with_the_queue_but_never_to_nothing() {
        assert_eq!(share(0, 1), 1.0);
        assert_eq!(share(1, 1), 0.5);
        assert_eq!(share(2, 2), 0.5);
        assert!(share(3, 1) < share(1, 1));
        assert_eq!(share(10_000, 1), 0.05);
    }
}
