//! The computer's seats at a 四国 table: each is told only what its seat is sent
//! (`SeatInfo`, fed in `store::make`), asks the thinking pool on its turn, and answers
//! draw offers.

use super::{Phase, Table};
use crate::db::now_ms;
use crate::live::Cmd;
use crate::live::computer::{Problem, Question};
use crate::record::SiguoAction;
use crate::rules::hidden_game::Step;
use crate::rules::siguo::{Seat4, Station};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

impl Table {
    /// Asks the computer for its seat's step when it is its turn, once per version;
    /// a computer asked to vote on a draw agrees when its side is not ahead on the
    /// board.
    pub(super) fn prompt(&mut self, me: &mpsc::UnboundedSender<Cmd>) {
        let version = self.version;
        let pace = self.hub.config().computer_pace;
        let Phase::Playing(p) = &mut self.phase else {
            return;
        };
        if p.game.is_over() {
            return;
        }
        let seat = p.game.to_move();
        let Some(level) = self.seats[seat.index()]
            .as_ref()
            .and_then(|s| s.info.computer)
        else {
            return;
        };
        if p.asked
            .as_ref()
            .is_some_and(|(v, s, _)| *v == version && *s == seat)
        {
            return;
        }
        if let Some((_, _, stop)) = p.asked.take() {
            stop.store(true, Ordering::Relaxed);
        }
        let Some(info) = p.minds[seat.index()].clone() else {
            return;
        };
        let stop = Arc::new(AtomicBool::new(false));
        let tx = me.clone();
        let not_before = Instant::now() + pace;
        let runtime = tokio::runtime::Handle::current();
        let due_ms = (p.deadline - now_ms() - 1_000).max(0) as u64;
        let player = self
            .seats
            .iter()
            .flatten()
            .find(|s| s.info.computer.is_none())
            .map_or(0, |s| s.info.id);
        self.hub.thinkers().ask(Question {
            problem: Problem::Siguo {
                info: Box::new(info),
                answer: Box::new(move |step| {
                    let answer = Cmd::TableComputer {
                        version,
                        seat,
                        step,
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
                }),
            },
            level,
            player,
            budget: Duration::from_millis(1_000),
            due: Some(Instant::now() + Duration::from_millis(due_ms)),
            stop: stop.clone(),
        });
        p.asked = Some((version, seat, stop));
    }

    pub(super) async fn computer_answer(
        &mut self,
        version: usize,
        seat: Seat4,
        step: Option<Step<Station>>,
    ) {
        let Phase::Playing(p) = &mut self.phase else {
            return;
        };
        if p.asked
            .as_ref()
            .is_none_or(|(v, s, _)| *v != version || *s != seat)
        {
            return;
        }
        p.asked = None;
        if p.game.is_over() || p.game.to_move() != seat {
            return;
        }
        // The engine failed or has no move: the seat passes rather than holding the table.
        let step = step.unwrap_or(Step::Pass);
        if self.take(seat, SiguoAction::Step(step)).await.is_err() {
            let _ = self.take(seat, SiguoAction::Step(Step::Pass)).await;
        }
        self.computers_vote().await;
    }

    /// The computer's seats answer an open draw offer: yes when their side has no
    /// more pieces on the board than the others (the count everyone sees).
    async fn computers_vote(&mut self) {
        let Phase::Playing(p) = &self.phase else {
            return;
        };
        let g = &p.game;
        if g.draw_offer().is_none() {
            return;
        }
        let voters: Vec<(Seat4, bool)> = Seat4::ALL
            .into_iter()
            .filter(|&s| self.computer_in(s).is_some() && g.votes(s) && !g.has_agreed(s))
            .map(|s| {
                let ours = g
                    .position()
                    .tokens()
                    .filter(|(_, t)| g.allied(s, t.colour))
                    .count();
                let theirs = g
                    .position()
                    .tokens()
                    .filter(|(_, t)| !g.allied(s, t.colour))
                    .count();
                (s, ours <= theirs)
            })
            .collect();
        for (s, yes) in voters {
            let step = if yes {
                Step::AcceptDraw
            } else {
                Step::DeclineDraw
            };
            let _ = self.take(s, SiguoAction::Step(step)).await;
        }
    }
}
