//! Caps on open sockets (lobby and game) per client address and per player, and on game
//! sockets per game, so that one stranger cannot hold thousands of sockets (each one a
//! file descriptor and buffers) or make one game's every event go to thousands.
//!
//! Counted by hand: these are counts of what is open, not rates (which `governor` does).

use crate::error::AppError;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

/// A household or a school behind one address opens a few tabs per person.
pub const PER_ADDRESS: u32 = 50;
/// One player's tabs: a lobby and a game socket each, and then some.
pub const PER_PLAYER: u32 = 20;
/// Both seats and the spectators of one game.
pub const PER_GAME: u32 = 200;

#[derive(Default)]
pub struct SocketCaps {
    open: Mutex<Open>,
}

#[derive(Default)]
struct Open {
    address: HashMap<IpAddr, u32>,
    player: HashMap<i64, u32>,
    game: HashMap<String, u32>,
}

/// One open socket's place in the counts, given back when it is dropped.
pub struct Permit {
    caps: Arc<SocketCaps>,
    address: Option<IpAddr>,
    player: Option<i64>,
    game: Option<String>,
}

/// IPv6 hosts usually hold a whole /64: count them by it, or each could use 2^64 names.
fn address_key(ip: IpAddr) -> IpAddr {
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
    /// A place for one more socket from `address` (by `player`, on `game`), or why not:
    /// 429 `too_many_sockets` for the address or player, 503 `unavailable` for the game.
    pub fn admit(
        self: &Arc<Self>,
        address: Option<IpAddr>,
        player: Option<i64>,
        game: Option<&str>,
    ) -> Result<Permit, AppError> {
        let address = address.map(address_key);
        let game = game.map(str::to_string);
        let mut open = self.open.lock().expect("socket caps lock");
        if !under(&open.address, address.as_ref(), PER_ADDRESS) {
            return Err(AppError::TooManySockets(format!(
                "too many sockets from your address (at most {PER_ADDRESS}); close some pages"
            )));
        }
        if !under(&open.player, player.as_ref(), PER_PLAYER) {
            return Err(AppError::TooManySockets(format!(
                "too many sockets for one player (at most {PER_PLAYER}); close some pages"
            )));
        }
        if !under(&open.game, game.as_ref(), PER_GAME) {
            return Err(AppError::Unavailable(format!(
                "this game has as many watchers as it can take ({PER_GAME}); try again later"
            )));
        }
        add(&mut open.address, address.as_ref());
        add(&mut open.player, player.as_ref());
        add(&mut open.game, game.as_ref());
        Ok(Permit {
            caps: self.clone(),
            address,
            player,
            game,
        })
    }

    #[cfg(test)]
    fn is_empty(&self) -> bool {
        let open = self.open.lock().expect("socket caps lock");
        open.address.is_empty() && open.player.is_empty() && open.game.is_empty()
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        let mut open = self.caps.open.lock().expect("socket caps lock");
        remove(&mut open.address, self.address.as_ref());
        remove(&mut open.player, self.player.as_ref());
        remove(&mut open.game, self.game.as_ref());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

        let held: Vec<Permit> = (0..PER_GAME)
            .map(|i| {
                let ip = IpAddr::from([10, 1, (i / 256) as u8, (i % 256) as u8]);
                caps.admit(Some(ip), None, Some("G")).unwrap()
            })
            .collect();
        let e = caps.admit(Some(ip), None, Some("G")).err().unwrap();
        assert_eq!(e.code(), "unavailable");
        assert!(caps.admit(Some(ip), None, Some("H")).is_ok());
        drop(held);
        assert!(caps.is_empty());
    }
}
