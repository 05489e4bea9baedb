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
    /// Each player's open sockets anywhere, for "who is online" (the friends list) and
    /// the lobby's count: a lookup, where the places would be a scan.
    sockets: Mutex<HashMap<i64, u32>>,
    /// Sockets of visitors who are not logged in.
    visitors: std::sync::atomic::AtomicUsize,
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
        drop(places);
        let mut sockets = self.presence.sockets.lock().expect("presence lock");
        if let Some(n) = sockets.get_mut(&self.key.0) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                sockets.remove(&self.key.0);
            }
        }
    }
}

/// A socket of a visitor who is not logged in, counted while it lives.
#[derive(Debug)]
pub struct Visitor {
    presence: Arc<Presence>,
}

impl Drop for Visitor {
    fn drop(&mut self) {
        self.presence
            .visitors
            .fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
    }
}

impl Presence {
    pub fn new(started_at: i64) -> Arc<Presence> {
        Arc::new(Presence {
            places: Mutex::new(HashMap::new()),
            sockets: Mutex::new(HashMap::new()),
            visitors: Default::default(),
            started_at,
        })
    }

    /// `user` opened a socket in `place`; they are there until the result is dropped.
    pub fn enter(self: &Arc<Self>, user: i64, place: Place) -> Here {
        let key = (user, place);
        let mut places = self.places.lock().expect("presence lock");
        places.entry(key.clone()).or_default().open += 1;
        drop(places);
        *self
            .sockets
            .lock()
            .expect("presence lock")
            .entry(user)
            .or_default() += 1;
        Here {
            presence: self.clone(),
            key,
        }
    }

    /// A visitor who is not logged in opened a socket.
    pub fn enter_visitor(self: &Arc<Self>) -> Visitor {
        self.visitors
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Visitor {
            presence: self.clone(),
        }
    }

    /// Whether `user` has any socket open (the lobby, a game: theirs or one watched).
    pub fn is_online(&self, user: i64) -> bool {
        self.sockets
            .lock()
            .expect("presence lock")
            .contains_key(&user)
    }

    /// How many are here: players with a socket open, and visitors' sockets.
    pub fn online(&self) -> usize {
        let players = self.sockets.lock().expect("presence lock").len();
        players + self.visitors.load(std::sync::atomic::Ordering::Relaxed)
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

    #[test]
    fn online_counts_players_once_and_visitors_by_socket() {
        let p = Presence::new(100);
        let a1 = p.enter(1, Place::Lobby);
        let a2 = p.enter(1, Place::Game("g".into()));
        let v = p.enter_visitor();
        assert!(p.is_online(1) && !p.is_online(2));
        assert_eq!(p.online(), 2, "one player with two sockets, one visitor");
        drop(a1);
        assert!(p.is_online(1), "still on the game");
        drop(a2);
        drop(v);
        assert!(!p.is_online(1));
        assert_eq!(p.online(), 0);
    }
}
