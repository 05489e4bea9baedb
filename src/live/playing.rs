//! Who is seated in which running game, kept in memory by the games' own tasks: every
//! running game has a task (the hub starts them all at start-up so that clocks run),
//! so the tasks know it better than any query. Pages ask it on every render (the
//! "你有一局正在进行 → 返回" banner), which a lookup in a map makes free where two
//! index reads per page would not be.
//!
//! A task takes a [`Seated`] when its game starts (or is loaded running) and drops it
//! when the game ends or the task stops, so an entry never outlives its game.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// One running game a player sits in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seat {
    pub game: String,
    pub started_at: i64,
}

#[derive(Default)]
pub struct Playing {
    by_user: Mutex<HashMap<i64, Vec<Seat>>>,
}

impl Playing {
    pub fn new() -> Arc<Playing> {
        Arc::new(Playing::default())
    }

    /// Seats `users` in running game `game` until the guard is dropped.
    pub fn seat(self: &Arc<Self>, game: &str, started_at: i64, users: Vec<i64>) -> Seated {
        let mut map = self.by_user.lock().expect("playing lock");
        for &u in &users {
            let seats = map.entry(u).or_default();
            if !seats.iter().any(|s| s.game == game) {
                seats.push(Seat {
                    game: game.to_string(),
                    started_at,
                });
            }
        }
        Seated {
            playing: self.clone(),
            game: game.to_string(),
            users,
        }
    }

    /// The running games `user` sits in, the latest started first.
    pub fn games_of(&self, user: i64) -> Vec<Seat> {
        let map = self.by_user.lock().expect("playing lock");
        let mut seats = map.get(&user).cloned().unwrap_or_default();
        seats.sort_by(|a, b| b.started_at.cmp(&a.started_at).then(b.game.cmp(&a.game)));
        seats
    }

    fn unseat(&self, game: &str, users: &[i64]) {
        let mut map = self.by_user.lock().expect("playing lock");
        for u in users {
            if let Some(seats) = map.get_mut(u) {
                seats.retain(|s| s.game != game);
                if seats.is_empty() {
                    map.remove(u);
                }
            }
        }
    }
}

/// A running game's players, seated while it is held.
pub struct Seated {
    playing: Arc<Playing>,
    game: String,
    users: Vec<i64>,
}

impl Drop for Seated {
    fn drop(&mut self) {
        self.playing.unseat(&self.game, &self.users);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_player_is_playing_while_the_guard_of_their_game_is_held() {
        let p = Playing::new();
        let a = p.seat("g1", 10, vec![1, 2]);
        let b = p.seat("g2", 20, vec![1, 3]);
        let games: Vec<String> = p.games_of(1).into_iter().map(|s| s.game).collect();
        assert_eq!(games, ["g2", "g1"], "the latest started first");
        drop(b);
        assert_eq!(p.games_of(1).len(), 1);
        assert!(p.games_of(3).is_empty());
        drop(a);
        assert!(p.games_of(1).is_empty() && p.games_of(2).is_empty());
        assert!(
            p.by_user.lock().unwrap().is_empty(),
            "no empty entries are left"
        );
    }
}
