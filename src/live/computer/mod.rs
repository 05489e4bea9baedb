//! The computer in a live game. Its seat is held by one of the computer players'
//! accounts (db::users::computer_player); the game's task keeps that seat's
//! information set up to date, hands it to the thinking pool when the computer is to
//! act, and applies the decision that comes back exactly as a person's action: checked
//! by the rules, stored, then broadcast. Answers to a game that has moved on are
//! dropped. The computer is told only what a socket for its seat is told: the seat's
//! `View` (as in a `state` message) and each action's `EventView` cut for the seat (as
//! in an `event` message), never the game itself.
//!
//! - `thinkers`: the thinking pool, on threads of its own;
//! - `turns`: whose question the pool takes next;
//! - `play`: the game task's side (when to ask, what to do with the answer, deploying);
//! - `open`: a person starting a game against the computer.

mod open;
mod play;
mod thinkers;
mod turns;

pub use open::MAX_COMPUTER_GAMES;
pub use thinkers::{Problem, Question, Thinkers};

use super::summary::PlayerInfo;
use crate::engine::{Information, Level};
use crate::rules::game::Applied;
use crate::rules::view::{EventView, View, Viewer};
use crate::rules::{Game, Seat};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The computer's seat in one game.
pub(super) struct Computer {
    pub seat: Seat,
    pub level: Level,
    /// What the seat may know, from the start of play on.
    info: Option<Information>,
    /// The question out with the thinking pool, if any.
    asked: Option<Asked>,
    /// Standard 军棋: the computer's own layout is in.
    laid_out: bool,
    /// Standard 军棋: whether it declares itself ready at once (and so moves first) or
    /// waits for the person to be ready; drawn for each game, as people differ too.
    ready_first: bool,
    /// It stands in for a person in 托管 (`live::tuoguan`): it plays the seat's turns
    /// only, never resigning, offering or answering a draw on their behalf.
    stand_in: bool,
}

struct Asked {
    /// The game's version when asked: an answer is for that version only.
    version: usize,
    stop: Arc<AtomicBool>,
}

impl Computer {
    /// The computer's seat among `seats`, if one is held by a computer player.
    pub fn of_seats(seats: &[Option<PlayerInfo>; 2]) -> Option<Computer> {
        Seat::BOTH.into_iter().find_map(|seat| {
            let level = seats[seat.index()].as_ref()?.computer?;
            Some(Computer {
                seat,
                level,
                info: None,
                asked: None,
                laid_out: false,
                ready_first: rand::random(),
                stand_in: false,
            })
        })
    }

    /// The computer standing in for a person's `seat` in 托管, at 入门 (the easiest
    /// level), from what the seat may know of `game` now: its view and the options,
    /// as a socket of the seat would have them.
    pub fn stand_in(seat: Seat, game: &Game) -> Computer {
        let mut c = Computer {
            seat,
            level: Level::Easy,
            info: None,
            asked: None,
            laid_out: true,
            ready_first: false,
            stand_in: true,
        };
        c.begin(game);
        c
    }

    /// Play begins (or, after a restart, began) with `game`: the computer gets its
    /// seat's view and the room's options (the rules both seats play by, which hide
    /// nothing).
    pub fn begin(&mut self, game: &Game) {
        let view = View::of(game, self.viewer());
        self.info = Some(Information::new(view, *game.options()));
    }

    /// `game` after an accepted action, and the action as applied: cut for the
    /// computer's seat as `publish` cuts them for that seat's sockets (the event with
    /// the colours after the action).
    pub fn observe(&mut self, applied: &Applied, game: &Game) {
        let viewer = self.viewer();
        if let Some(info) = &mut self.info {
            let event = EventView::of(applied, game.variant(), game.colours(), viewer);
            info.observe(&event, View::of(game, viewer));
        }
    }

    fn viewer(&self) -> Viewer {
        Viewer::Seat(self.seat)
    }

    /// The question out is no longer wanted.
    fn withdraw(&mut self) {
        if let Some(a) = self.asked.take() {
            a.stop.store(true, Ordering::Relaxed);
        }
    }
}

impl Drop for Computer {
    fn drop(&mut self) {
        // The game's task is ending: its search stops, or never starts.
        self.withdraw();
    }
}
