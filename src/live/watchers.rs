//! How many watch each game: a game's spectator sockets are counted by its task, shown
//! on the game's page (the `watchers` of its presence) and in the lobby's list of live
//! games (`watch_list.rs`).
//!
//! A famous game's audience comes and goes by the hundred; telling every socket of
//! every arrival would send each of n spectators n frames. A change of the count alone
//! is therefore told at most once per [`SHOW_EVERY_MS`], when its timer fires.

use super::task::Task;
use crate::db::now_ms;
use std::collections::HashMap;
use std::sync::Mutex;

/// The shortest time between two announcements of a changed count.
pub const SHOW_EVERY_MS: i64 = 1000;

/// Each live game's spectator count, for the lobby; games nobody watches are left out.
#[derive(Default)]
pub struct Audience {
    by_game: Mutex<HashMap<String, u32>>,
}

impl Audience {
    pub fn of(&self, game: &str) -> u32 {
        let map = self.by_game.lock().expect("audience lock");
        map.get(game).copied().unwrap_or(0)
    }

    fn set(&self, game: &str, n: u32) {
        let mut map = self.by_game.lock().expect("audience lock");
        if n == 0 {
            map.remove(game);
        } else {
            map.insert(game.to_string(), n);
        }
    }
}

/// A task's count as last told, and when the next announcement is due.
#[derive(Debug, Default)]
pub(super) struct WatchCount {
    pub shown: u32,
    pub due: Option<i64>,
}

impl Task {
    /// The sockets on the game that are not a player's.
    pub(super) fn spectators(&self) -> u32 {
        let n = (self.conns.values())
            .filter(|c| self.seat_of_user(c.user).is_none())
            .count();
        u32::try_from(n).unwrap_or(u32::MAX)
    }

    /// After a socket came or went: the hub's count now, the sockets' at the latest
    /// in [`SHOW_EVERY_MS`].
    pub(super) fn audience_changed(&mut self) {
        let n = self.spectators();
        self.hub.audience().set(&self.row.id, n);
        if n != self.watch.shown && self.watch.due.is_none() {
            self.watch.due = Some(now_ms() + SHOW_EVERY_MS);
        }
    }

    /// The announcement's timer fired: every socket hears the count, if it changed.
    pub(super) fn show_audience(&mut self) {
        self.watch.due = None;
        let n = self.spectators();
        if n != self.watch.shown {
            self.watch.shown = n;
            self.send_presence(None);
        }
    }

    /// The game's task is stopping: its audience leaves the lobby's count.
    pub(super) fn audience_gone(&self) {
        self.hub.audience().set(&self.row.id, 0);
    }
}
