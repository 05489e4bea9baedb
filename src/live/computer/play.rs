//! The game task's side of the computer: after every command and every clock, whether
//! the computer has something to do (deploy, answer a draw offer, act on its turn);
//! the question to the thinking pool, with a wall-clock budget (counted from when a
//! thread takes it) and a due time well inside the action clock; and the answer,
//! applied through the same path as a person's action.

use super::thinkers::{Problem, Question};
use super::{Asked, Computer};
use crate::db::games::RUNNING;
use crate::db::now_ms;
use crate::engine::{self, Decision, Level};
use crate::live::Cmd;
use crate::live::task::Task;
use crate::rules::{Action, Seat};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use tokio::sync::mpsc::UnboundedSender;

/// The longest each level thinks about one action: 困难 about a second of one core,
/// 大师 three. Its node budget is sized to about this on a quiet core (BENCHMARKS.md,
/// "The computer's strength"); on a busy one this, the action clock (a third of what
/// is left) and the queue decide.
fn think_cap(level: Level) -> Duration {
    match level {
        Level::Easy => Duration::from_millis(300),
        Level::Normal => Duration::from_millis(800),
        Level::Hard => Duration::from_millis(1000),
        Level::Master => Duration::from_millis(3000),
    }
}

/// Answering a draw offer weighs the position; no search.
const ANSWER_CAP: Duration = Duration::from_millis(500);

/// The answer is due once this part (1/n) of the action clock's time left has passed,
/// waiting and thinking together: the decision must still be stored and broadcast in
/// time on a busy machine.
const CLOCK_PART: u64 = 3;

/// How long the person's own action has to be seen before the computer answers it:
/// from `pace` (the server's `--computer-pace-ms`) to half as long again, drawn for each
/// answer as a person's answers vary, and never past the answer's due time. The engine
/// answers in about 40 ms; without this the person's slide (up to 0.5 s) was cut short
/// by the answer and a capture caption replaced after 16–19 ms.
fn paced(pace: Duration, due: Option<Duration>) -> Duration {
    let drawn = pace.mul_f64(1.0 + rand::random::<f64>() / 2.0);
    due.map_or(drawn, |d| drawn.min(d))
}

/// How long the computer may think about what it has to decide, and by when (from
/// the action clock) the answer is due.
struct Wanted {
    budget: Duration,
    due: Option<Duration>,
}

impl Computer {
    /// Whether the computer has something to decide now, and how long it may take.
    fn wanted(&self, deadline_at: Option<i64>) -> Option<Wanted> {
        let info = self.info.as_ref()?;
        if info.is_over() {
            return None;
        }
        if info.open_offer() == Some(self.seat.other()) && !self.stand_in {
            return Some(Wanted {
                budget: ANSWER_CAP,
                due: None,
            });
        }
        if info.to_move() != self.seat {
            return None;
        }
        let due =
            deadline_at.map(|d| Duration::from_millis((d - now_ms()).max(0) as u64 / CLOCK_PART));
        Some(Wanted {
            budget: think_cap(self.level),
            due,
        })
    }
}

impl Task {
    /// The computer playing `seat`: the game's own computer, or the one standing in for
    /// a person in 托管.
    fn computer_of(&self, seat: Seat) -> Option<&Computer> {
        match &self.computer {
            Some(c) if c.seat == seat => Some(c),
            _ => self.tuoguan.standins[seat.index()].as_ref(),
        }
    }

    fn computer_of_mut(&mut self, seat: Seat) -> Option<&mut Computer> {
        match &mut self.computer {
            Some(c) if c.seat == seat => Some(c),
            _ => self.tuoguan.standins[seat.index()].as_mut(),
        }
    }

    /// Gives the computer its turn when it has one, for its own seat and for each seat
    /// it stands in for: runs after every command and clock of the game's task (`me` is
    /// the task's own channel, where answers come back).
    pub(in crate::live) async fn prompt_computer(&mut self, me: &UnboundedSender<Cmd>) {
        let standing_in = self.tuoguan.standins.iter().any(Option::is_some);
        if self.computer.is_none() && !standing_in {
            return;
        }
        if self.row.status != RUNNING {
            for seat in Seat::BOTH {
                if let Some(c) = self.computer_of_mut(seat) {
                    c.withdraw();
                }
            }
            return;
        }
        if self.computer.is_some() && self.deploy.is_some() {
            self.computer_deploy().await;
            if self.deploy.is_some() {
                return;
            }
            // Its readiness began play: it may be the first to move.
        }
        for seat in Seat::BOTH {
            self.prompt_seat(seat, me);
        }
    }

    /// Asks the thinking pool for `seat`'s next action when the computer plays it and
    /// has something to decide that it was not already asked about.
    fn prompt_seat(&mut self, seat: Seat, me: &UnboundedSender<Cmd>) {
        let version = self.version();
        let over = self.game.as_ref().is_none_or(|g| g.is_over());
        let deadline_at = self.row.deadline_at;
        let hub = self.hub.clone();
        let Some(c) = self.computer_of(seat) else {
            return;
        };
        // The person it plays against, or stands in for: the thinking pool shares its
        // turns by them.
        let person = if c.stand_in { seat } else { seat.other() };
        let player = self.seats[person.index()].as_ref().map_or(0, |p| p.id);
        let Some(c) = self.computer_of_mut(seat) else {
            return;
        };
        if c.asked.as_ref().is_some_and(|a| a.version == version) {
            return;
        }
        c.withdraw();
        let (Some(wanted), Some(info), false) = (c.wanted(deadline_at), &c.info, over) else {
            return;
        };
        let stop = Arc::new(AtomicBool::new(false));
        let tx = me.clone();
        let not_before = Instant::now() + paced(hub.config().computer_pace, wanted.due);
        let runtime = tokio::runtime::Handle::current();
        let answer = Box::new(move |decision| {
            // The task may have ended meanwhile: then nobody waits for this.
            let answer = Cmd::Computer {
                version,
                seat,
                decision,
            };
            match not_before.checked_duration_since(Instant::now()) {
                Some(wait) if !wait.is_zero() => {
                    runtime.spawn(async move {
                        tokio::time::sleep(wait).await;
                        let _ = tx.send(answer);
                    });
                }
                _ => {
                    let _ = tx.send(answer);
                }
            }
        });
        hub.thinkers().ask(Question {
            problem: Problem::TwoPlayer {
                info: Box::new(info.clone()),
                answer,
            },
            level: c.level,
            player,
            budget: wanted.budget,
            due: wanted.due.map(|d| Instant::now() + d),
            stop: stop.clone(),
        });
        c.asked = Some(Asked { version, stop });
    }

    /// The thinking pool's answer to the question asked at `version` for `seat`
    /// (`None`: the engine failed). Applied only if the game is still where it was.
    pub(in crate::live) async fn computer_answer(
        &mut self,
        version: usize,
        seat: Seat,
        decision: Option<Decision>,
    ) {
        let Some(c) = self.computer_of_mut(seat) else {
            return;
        };
        if c.asked.as_ref().is_none_or(|a| a.version != version) {
            // The answer to a question withdrawn since (or to a stand-in gone since).
            return;
        }
        c.asked = None;
        let stand_in = c.stand_in;
        if version != self.version() || self.row.status != RUNNING {
            return;
        }
        let action =
            match decision {
                // A stand-in plays the seat's turn and nothing else: a resignation or a
                // draw is the person's to choose.
                Some(Decision::Play(
                    a @ (Action::Flip(_) | Action::Move { .. } | Action::Pass),
                )) if stand_in => Some(a),
                Some(_) if stand_in => self.fallback(seat),
                Some(d) => d.action(),
                None => self.fallback(seat),
            };
        let Some(action) = action else {
            return;
        };
        match self.act_by(seat, action, stand_in).await {
            Ok(entries) => self.publish(entries, None),
            Err(why) => {
                tracing::error!(
                    game = %self.row.id, ?action, why = %why.message,
                    "the computer's action was refused"
                );
                // Its turn must still be played, or its clock would run out.
                if let Some(other) = self.fallback(seat).filter(|&a| a != action)
                    && let Ok(entries) = self.act_by(seat, other, stand_in).await
                {
                    self.publish(entries, None);
                }
            }
        }
    }

    /// What the computer plays on its turn when its engine cannot say: a legal action
    /// that does not lose by repetition if there is one.
    fn fallback(&self, seat: Seat) -> Option<Action> {
        let info = self.computer_of(seat)?.info.as_ref()?;
        if info.to_move() != seat {
            return None;
        }
        let first = info.safe_actions().first().copied();
        first.or(self.variant.caps().passes.then_some(Action::Pass))
    }

    /// Standard 军棋's deployment: the computer puts in its own layout at once, and is
    /// ready at once or as soon as the person is (as drawn for the game).
    async fn computer_deploy(&mut self) {
        let (Some(c), Some(current)) = (&self.computer, &self.deploy) else {
            return;
        };
        let seat = c.seat;
        if current.is_ready(seat) {
            return;
        }
        let mut next = current.clone();
        if !c.laid_out {
            let layout = engine::deploy(c.level, seat, &mut rand::rng());
            if let Err(e) = next.set_layout(seat, layout) {
                tracing::error!(game = %self.row.id, error = %e, "the computer's layout was refused");
            }
        }
        if (c.ready_first || current.is_ready(seat.other()))
            && let Err(e) = next.ready(seat)
        {
            tracing::error!(game = %self.row.id, error = %e, "the computer could not get ready");
        }
        if &next == current {
            return;
        }
        let became_ready = next.is_ready(seat);
        match self.store_deployment(next).await {
            Ok(()) => {
                if let Some(c) = &mut self.computer {
                    c.laid_out = true;
                }
                self.announce_deployment(seat, became_ready).await;
            }
            // Tried again after the next command or clock; past the deployment's time
            // the seat keeps the valid layout it was given.
            Err(e) => {
                tracing::error!(game = %self.row.id, error = %e, "cannot store the computer's layout")
            }
        }
    }
}
