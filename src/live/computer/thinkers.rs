//! The computer's thinking pool: a few OS threads of their own, apart from the async
//! runtime's game tasks and the HTTP workers, at a lowered priority, so that a search
//! takes only the CPU the people's games leave. Questions wait their turn, shared
//! fairly between addresses and players (turns.rs); a thread that takes one while
//! others wait their turns behind it gives it a smaller share of its level's nodes and
//! of its time, so that when many games think at once each thinks less rather than
//! making the others wait. A question's time starts when a thread takes it, not when
//! it was asked: waiting does not eat its thinking (the game's clock still bounds it).

use super::turns::{Place, Waiting};
use crate::engine::siguo::SeatInfo;
use crate::engine::{self, Decision, Information, Level, Limits};
use crate::rules::hidden_game::Step;
use crate::rules::siguo::Station;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// The niceness of the thinking threads: at 10 the kernel gives a busy one about a
/// tenth of what a thread at the default 0 gets, when both want the CPU.
const NICENESS: i32 = 10;

/// What the computer is asked: a two-player seat's information and where its answer
/// goes, or a 四国 seat's.
pub enum Problem {
    TwoPlayer {
        info: Box<Information>,
        /// Takes the decision back to the game; `None` when the engine failed.
        answer: Box<dyn FnOnce(Option<Decision>) + Send>,
    },
    Siguo {
        info: Box<SeatInfo>,
        /// Takes the step back to the table; `None` when the engine failed.
        answer: Box<dyn FnOnce(Option<Step<Station>>) + Send>,
    },
}

/// One question for the computer.
pub struct Question {
    pub problem: Problem,
    pub level: Level,
    /// The person the computer plays against: the pool shares its turns by them.
    pub player: i64,
    /// How long to think, counted from when a thread takes the question.
    pub budget: Duration,
    /// The answer is due by then, however long the question waited (the game's clock).
    pub due: Option<Instant>,
    /// Set by the game once it no longer wants the answer.
    pub stop: Arc<AtomicBool>,
}

struct Shared {
    queue: Mutex<Waiting<Question>>,
    wake: Condvar,
    threads: usize,
    /// The address each player last opened a game socket from (see `note_address`).
    addresses: Mutex<HashMap<i64, IpAddr>>,
}

/// Players whose address is remembered, at most: past it the map starts over (players
/// seen since are remembered again as they reconnect). 100,000 entries of 40 bytes.
const MAX_ADDRESSES: usize = 100_000;

#[derive(Clone)]
pub struct Thinkers {
    shared: Arc<Shared>,
}

impl Thinkers {
    /// A pool of `threads` thinking threads (at least one), started at once.
    pub fn start(threads: usize) -> Thinkers {
        let threads = threads.max(1);
        let shared = Arc::new(Shared {
            queue: Mutex::new(Waiting::default()),
            wake: Condvar::new(),
            threads,
            addresses: Mutex::new(HashMap::new()),
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

    /// `player` plays from `address` (as the login limits key it): their questions
    /// share their turns with everyone else's from there.
    pub fn note_address(&self, player: i64, address: IpAddr) {
        let mut map = self.shared.addresses.lock().expect("thinkers lock");
        if map.len() >= MAX_ADDRESSES && !map.contains_key(&player) {
            map.clear();
        }
        map.insert(player, address);
    }

    pub fn ask(&self, q: Question) {
        let place = match self
            .shared
            .addresses
            .lock()
            .expect("thinkers lock")
            .get(&q.player)
        {
            Some(&ip) => Place::Address(ip),
            None => Place::Player(q.player),
        };
        self.shared
            .queue
            .lock()
            .expect("thinkers lock")
            .push(q.player, place, q);
        self.shared.wake.notify_one();
    }
}

/// When a question taken at `taken` must be answered: its budget's `share` from then,
/// and never after it is due.
pub fn thinking_deadline(
    taken: Instant,
    budget: Duration,
    share: f64,
    due: Option<Instant>,
) -> Instant {
    let own = taken + budget.mul_f64(share);
    due.map_or(own, |due| own.min(due))
}

/// The share of a question's nodes and time when `behind` turns wait after it for
/// `threads` threads: all of it with none waiting, half with a thread's worth
/// waiting, and so on down to a twentieth.
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
        let taken = {
            let mut queue = shared.queue.lock().expect("thinkers lock");
            loop {
                // Questions whose game moved on while they waited are dropped: nobody
                // wants their answers.
                if let Some(t) = queue.take(|q| !q.stop.load(Ordering::Relaxed)) {
                    break t;
                }
                queue = shared.wake.wait(queue).expect("thinkers lock");
            }
        };
        let q = taken.item;
        let share = share(taken.behind, shared.threads);
        let limits = Limits {
            deadline: Some(thinking_deadline(Instant::now(), q.budget, share, q.due)),
            stop: Some(&q.stop),
            share,
        };
        // A bug in the engine must not take the thread with it: the game then plays
        // without it (see the game task's fallback).
        let failed = || tracing::error!("the engine failed on a question");
        match q.problem {
            Problem::TwoPlayer { info, answer } => {
                let decided = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    engine::choose_within(&info, q.level, &mut rand::rng(), limits)
                }));
                if decided.is_err() {
                    failed();
                }
                answer(decided.ok());
            }
            Problem::Siguo { info, answer } => {
                let deadline = limits.deadline;
                let decided = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    engine::siguo::choose_within(&info, q.level, &mut rand::rng(), deadline)
                }));
                if decided.is_err() {
                    failed();
                }
                answer(decided.ok().flatten());
            }
        }
        shared
            .queue
            .lock()
            .expect("thinkers lock")
            .done(taken.player);
        // The player's next question may be waiting for this one.
        shared.wake.notify_all();
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

    #[test]
    fn a_questions_time_starts_when_it_is_taken() {
        let asked = Instant::now();
        let budget = Duration::from_secs(2);
        // It waited five seconds behind others: it still gets its two.
        let taken = asked + Duration::from_secs(5);
        assert_eq!(thinking_deadline(taken, budget, 1.0, None), taken + budget);
        assert_eq!(
            thinking_deadline(taken, budget, 0.5, None),
            taken + Duration::from_secs(1),
            "a share of it when others wait"
        );
        // The game's clock still has the last word.
        let due = asked + Duration::from_secs(6);
        assert_eq!(thinking_deadline(taken, budget, 1.0, Some(due)), due);
        assert_eq!(
            thinking_deadline(asked + Duration::from_secs(7), budget, 1.0, Some(due)),
            due,
            "past due: answer at once"
        );
    }
}
