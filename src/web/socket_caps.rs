//! Caps on open sockets (lobby and game) per client address and per player, and on the
//! spectators of one game, so that one stranger cannot hold thousands of sockets (each
//! one a file descriptor and buffers) or make one game's every event go to thousands.
//!
//! A game's own players are never kept out of it by anyone else: their sockets on it
//! are bounded by their own cap alone, and take none of the places spectators share.
//! Spectators share a game's places, and one address gets at most a share of them, so
//! that a few addresses cannot take them all.
//!
//! Counted by hand: these are counts of what is open, not rates (which `governor` does,
//! see `frame_budget`).

use crate::error::AppError;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

/// A household or a school behind one address opens a few tabs per person.
pub const PER_ADDRESS: u32 = 50;
/// One player's tabs: a lobby and a game socket each, and then some.
pub const PER_PLAYER: u32 = 20;
/// The spectators of one game (its players are not counted here).
pub const SPECTATORS_PER_GAME: u32 = 200;
/// One address's share of a game's spectator places: a tenth, so that it takes ten
/// addresses to fill a game, and a class watching from one school still fits.
pub const SPECTATORS_PER_ADDRESS: u32 = 20;

/// Who a game socket is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// A player of the game: a seat, or the creator of an open game (who becomes one
    /// when someone joins).
    Player,
    Spectator,
}

#[derive(Default)]
pub struct SocketCaps {
    open: Mutex<Open>,
}

#[derive(Default)]
struct Open {
    address: HashMap<IpAddr, u32>,
    player: HashMap<i64, u32>,
    spectators: HashMap<String, u32>,
    /// Spectators of a game from one address.
    watching: HashMap<(String, IpAddr), u32>,
}

/// One open socket's place in the counts, given back when it is dropped.
pub struct Permit {
    caps: Arc<SocketCaps>,
    address: Option<IpAddr>,
    player: Option<i64>,
    /// The game this socket is a spectator of.
    watching: Option<String>,
}

/// IPv6 hosts usually hold a whole /64: count them by it, or each could use 2^64 names.
pub fn address_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let mut o = v6.octets();
                o[8..].fill(0);
                IpAddr::V6(o.into())
            }
        },
    }
}

fn under<K: std::hash::Hash + Eq>(map: &HashMap<K, u32>, key: Option<&K>, cap: u32) -> bool {
    key.is_none_or(|k| map.get(k).copied().unwrap_or(0) < cap)
}

fn add<K: std::hash::Hash + Eq + Clone>(map: &mut HashMap<K, u32>, key: Option<&K>) {
    if let Some(k) = key {
        *map.entry(k.clone()).or_default() += 1;
    }
}

fn remove<K: std::hash::Hash + Eq>(map: &mut HashMap<K, u32>, key: Option<&K>) {
    if let Some(k) = key
        && let Some(n) = map.get_mut(k)
    {
        *n -= 1;
        if *n == 0 {
            map.remove(k);
        }
    }
}

impl SocketCaps {
    /// A place for one more socket from `address` (by `player`; on `game` in `role`),
    /// or why not: 429 `too_many_sockets` for the address, the player or the address's
    /// share of the game's spectators; 503 `unavailable` when the game's spectator
    /// places are all taken. A player's socket on their own game is held to their own
    /// cap only (it still counts against the address, for the address's other sockets).
    pub fn admit(
        self: &Arc<Self>,
        address: Option<IpAddr>,
        player: Option<i64>,
        game: Option<(&str, Role)>,
    ) -> Result<Permit, AppError> {
        let address = address.map(address_key);
        let playing = matches!(game, Some((_, Role::Player)));
        let watching = match game {
            Some((id, Role::Spectator)) => Some(id.to_string()),
            _ => None,
        };
        let share = watching.clone().zip(address);
        let mut open = self.open.lock().expect("socket caps lock");
        if !playing && !under(&open.address, address.as_ref(), PER_ADDRESS) {
            return Err(AppError::TooManySockets(format!(
                "too many sockets from your address (at most {PER_ADDRESS}); close some pages"
            )));
        }
        if !under(&open.player, player.as_ref(), PER_PLAYER) {
            return Err(AppError::TooManySockets(format!(
                "too many sockets for one player (at most {PER_PLAYER}); close some pages"
            )));
        }
        if !under(&open.watching, share.as_ref(), SPECTATORS_PER_ADDRESS) {
            return Err(AppError::TooManySockets(format!(
                "too many sockets on this game from your address (at most \
                 {SPECTATORS_PER_ADDRESS}); close some pages"
            )));
        }
        if !under(&open.spectators, watching.as_ref(), SPECTATORS_PER_GAME) {
            return Err(AppError::Unavailable(format!(
                "this game has as many watchers as it can take ({SPECTATORS_PER_GAME}); \
                 try again later"
            )));
        }
        add(&mut open.address, address.as_ref());
        add(&mut open.player, player.as_ref());
        add(&mut open.spectators, watching.as_ref());
        add(&mut open.watching, share.as_ref());
        Ok(Permit {
            caps: self.clone(),
            address,
            player,
            watching,
        })
    }

    #[cfg(test)]
    fn is_empty(&self) -> bool {
        let open = self.open.lock().expect("socket caps lock");
        open.address.is_empty()
            && open.player.is_empty()
            && open.spectators.is_empty()
            && open.watching.is_empty()
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        let share = self.watching.clone().zip(self.address);
        let mut open = self.caps.open.lock().expect("socket caps lock");
        remove(&mut open.address, self.address.as_ref());
        remove(&mut open.player, self.player.as_ref());
        remove(&mut open.spectators, self.watching.as_ref());
        remove(&mut open.watching, share.as_ref());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(i: u32) -> IpAddr {
        IpAddr::from(std::net::Ipv4Addr::from(0x0a00_0000 | i))
    }

    fn watch(caps: &Arc<SocketCaps>, from: IpAddr, game: &str) -> Result<Permit, AppError> {
        caps.admit(Some(from), None, Some((game, Role::Spectator)))
    }

    /// Every spectator place of `game`, taken from as few addresses as the share allows.
    fn fill(caps: &Arc<SocketCaps>, game: &str) -> Vec<Permit> {
        (0..SPECTATORS_PER_GAME)
            .map(|i| watch(caps, ip(1000 + i / SPECTATORS_PER_ADDRESS), game).unwrap())
            .collect()
    }

    #[test]
    fn each_cap_refuses_one_more_and_a_closed_socket_gives_its_place_back() {
        let caps = Arc::new(SocketCaps::default());
        let ip: IpAddr = "203.0.113.7".parse().unwrap();
        let held: Vec<Permit> = (0..PER_ADDRESS)
            .map(|_| caps.admit(Some(ip), None, None).unwrap())
            .collect();
        let e = caps.admit(Some(ip), None, None).err().unwrap();
        assert_eq!(e.code(), "too_many_sockets");
        assert!(
            caps.admit(Some("203.0.113.8".parse().unwrap()), None, None)
                .is_ok()
        );
        drop(held);
        assert!(caps.is_empty(), "closed sockets are forgotten");

        // One /64 is one address; another /64 is another.
        let a: IpAddr = "2001:db8:1:2::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:ffff::9".parse().unwrap();
        let held: Vec<Permit> = (0..PER_ADDRESS)
            .map(|i| {
                caps.admit(Some(if i % 2 == 0 { a } else { b }), None, None)
                    .unwrap()
            })
            .collect();
        assert!(caps.admit(Some(a), None, None).is_err());
        assert!(
            caps.admit(Some("2001:db8:1:3::1".parse().unwrap()), None, None)
                .is_ok()
        );
        drop(held);

        let held: Vec<Permit> = (0..PER_PLAYER)
            .map(|i| {
                caps.admit(Some(IpAddr::from([10, 0, 0, i as u8])), Some(7), None)
                    .unwrap()
            })
            .collect();
        assert!(caps.admit(Some(ip), Some(7), None).is_err());
        assert!(caps.admit(Some(ip), Some(8), None).is_ok());
        drop(held);

        let held = fill(&caps, "G");
        let e = watch(&caps, ip, "G").err().unwrap();
        assert_eq!(e.code(), "unavailable");
        assert!(watch(&caps, ip, "H").is_ok());
        drop(held);
        assert!(caps.is_empty());
    }

    /// A game full of spectators from addresses at their cap still lets its players
    /// in, as many sockets as their own cap allows, and a closed spectator socket's
    /// place goes to a spectator, never counting a player's.
    #[test]
    fn a_game_s_players_always_get_in() {
        let caps = Arc::new(SocketCaps::default());
        let crowd = fill(&caps, "G");
        // Their addresses are at the cap too: 20 on G, 30 in the lobby.
        let lobby: Vec<Permit> = (0..SPECTATORS_PER_GAME / SPECTATORS_PER_ADDRESS)
            .flat_map(|a| {
                let caps = caps.clone();
                (0..PER_ADDRESS - SPECTATORS_PER_ADDRESS)
                    .map(move |_| caps.admit(Some(ip(1000 + a)), None, None).unwrap())
            })
            .collect();
        let shared = ip(1000);
        assert_eq!(
            caps.admit(Some(shared), None, None).err().unwrap().code(),
            "too_many_sockets"
        );
        assert_eq!(
            watch(&caps, ip(1), "G").err().unwrap().code(),
            "unavailable"
        );

        // The player reloads from the spectators' own address, tab after tab.
        let mine: Vec<Permit> = (0..PER_PLAYER)
            .map(|_| {
                caps.admit(Some(shared), Some(7), Some(("G", Role::Player)))
                    .expect("a player gets in")
            })
            .collect();
        let e = caps
            .admit(Some(shared), Some(7), Some(("G", Role::Player)))
            .err()
            .unwrap();
        assert_eq!(e.code(), "too_many_sockets", "the player's own cap holds");
        assert!(
            caps.admit(Some(ip(2)), Some(8), Some(("G", Role::Player)))
                .is_ok(),
            "so does the other player's place"
        );
        assert_eq!(
            watch(&caps, ip(1), "G").err().unwrap().code(),
            "unavailable"
        );
        drop(mine);
        assert_eq!(
            watch(&caps, ip(1), "G").err().unwrap().code(),
            "unavailable",
            "a player leaving frees no spectator place"
        );
        drop((crowd, lobby));
        assert!(caps.is_empty());
    }

    /// One address takes at most its share of a game's spectators, while it still
    /// has sockets for other games and the lobby, and others can watch.
    #[test]
    fn one_address_takes_only_its_share_of_a_game() {
        let caps = Arc::new(SocketCaps::default());
        let mut mine: Vec<Permit> = (0..SPECTATORS_PER_ADDRESS)
            .map(|_| watch(&caps, ip(1), "G").unwrap())
            .collect();
        let e = watch(&caps, ip(1), "G").err().unwrap();
        assert_eq!(e.code(), "too_many_sockets");
        assert!(e.message().contains("this game"), "{}", e.message());
        // A logged-in spectator is a spectator too.
        assert!(
            caps.admit(Some(ip(1)), Some(9), Some(("G", Role::Spectator)))
                .is_err()
        );
        assert!(watch(&caps, ip(1), "H").is_ok());
        assert!(caps.admit(Some(ip(1)), None, None).is_ok());
        let other = watch(&caps, ip(2), "G").expect("another address watches");
        mine.pop();
        assert!(
            watch(&caps, ip(1), "G").is_ok(),
            "a closed one gives its place back"
        );
        drop((mine, other));
        assert!(caps.is_empty());
    }
}
