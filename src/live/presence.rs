//! Who is here: each player's open lobby sockets and game sockets, and when their last
//! one closed. An open game whose creator has had neither a lobby socket nor a socket
//! on that game for the idle time (`--open-game-idle-seconds`) has been abandoned: the
//! lobby stops listing it, quick pairing skips it, and the expiry sweep cancels it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Where a socket is.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Place {
    Lobby,
    Game(String),
}

/// Open sockets and when the last one closed, for one player in one place.
#[derive(Debug, Clone, Copy, Default)]
struct Count {
    open: u32,
    left_at: i64,
}

#[derive(Debug)]
pub struct Presence {
    places: Mutex<HashMap<(i64, Place), Count>>,
    /// Nobody's sockets are known from before this process started: everyone counts as
    /// having left at the start, so that a restart gives creators the idle time again.
    started_at: i64,
}

/// A socket's stay; dropping it (the socket closed, or its task dropped it) leaves.
#[derive(Debug)]
pub struct Here {
    presence: Arc<Presence>,
    key: (i64, Place),
}

impl Drop for Here {
    fn drop(&mut self) {
        let mut places = self.presence.places.lock().expect("presence lock");
        if let Some(c) = places.get_mut(&self.key) {
            c.open = c.open.saturating_sub(1);
            c.left_at = crate::db::now_ms();
        }
    }
}

impl Presence {
    pub fn new(started_at: i64) -> Arc<Presence> {
        Arc::new(Presence {
            places: Mutex::new(HashMap::new()),
            started_at,
        })
    }

    /// `user` opened a socket in `place`; they are there until the result is dropped.
    pub fn enter(self: &Arc<Self>, user: i64, place: Place) -> Here {
        let key = (user, place);
        let mut places = self.places.lock().expect("presence lock");
        places.entry(key.clone()).or_default().open += 1;
        Here {
            presence: self.clone(),
            key,
        }
    }

    /// `None` while `user` has a socket in the lobby or on game `game`; otherwise when
    /// the last of those closed (the start of this process at the earliest).
    pub fn away_since(&self, user: i64, game: &str) -> Option<i64> {
        let places = self.places.lock().expect("presence lock");
        let mut since = self.started_at;
        for place in [Place::Lobby, Place::Game(game.to_string())] {
            if let Some(c) = places.get(&(user, place)) {
                if c.open > 0 {
                    return None;
                }
                since = since.max(c.left_at);
            }
        }
        Some(since)
    }

    /// Forgets places left before `before`: they no longer keep anything alive.
    pub fn forget_before(&self, before: i64) {
        let mut places = self.places.lock().expect("presence lock");
        places.retain(|_, c| c.open > 0 || c.left_at >= before);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_player_is_here_while_a_lobby_or_game_socket_is_open() {
        let p = Presence::new(100);
        assert_eq!(p.away_since(1, "g"), Some(100), "from the start");
        let lobby = p.enter(1, Place::Lobby);
        let game = p.enter(1, Place::Game("g".into()));
        let other = p.enter(2, Place::Game("h".into()));
        assert_eq!(p.away_since(1, "g"), None);
        assert_eq!(
            p.away_since(1, "h"),
            None,
            "the lobby counts for every game"
        );
        assert!(
            p.away_since(2, "g").is_some(),
            "another game's socket does not"
        );
        drop(lobby);
        assert_eq!(p.away_since(1, "g"), None, "still on the game");
        assert!(p.away_since(1, "h").unwrap() > 100);
        drop(game);
        assert!(p.away_since(1, "g").unwrap() > 100);
        p.forget_before(i64::MAX);
        assert_eq!(p.away_since(1, "g"), Some(100));
        assert_eq!(p.away_since(2, "h"), None, "open sockets are kept");
        drop(other);
    }
}
