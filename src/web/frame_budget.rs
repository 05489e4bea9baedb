//! Frame budgets across sockets. Each socket has a budget of its own (`ws_io`), but a
//! socket is cheap to open again: 150 spectators reconnecting whenever theirs ran out
//! pushed 3,825 commands a second into one game, and its players' acks went from 2 to
//! 48 ms (median). So every frame also counts against its address's budget and its
//! account's, whichever socket it came on, and a new socket's upgrade counts as a frame:
//! a client that reconnects goes on with what it had left.
//!
//! A player's socket on their own game counts against their account alone, and its
//! upgrade is never refused: the socket caps keep no one else from a player's game,
//! and neither do the budgets (strangers behind the player's address cannot get the
//! player's moves refused or the player kept out).
//!
//! governor's keyed GCRA limiters: a burst, then a steady pace. The clock is a type
//! parameter so that the unit tests run on one they move by hand.

use super::socket_caps::address_key;
use crate::error::AppError;
use crate::live::protocol::{ADDRESS_BURST, ADDRESS_PER_SECOND, PLAYER_BURST, PLAYER_PER_SECOND};
use governor::clock::{Clock, DefaultClock};
use governor::middleware::NoOpMiddleware;
use governor::state::keyed::DefaultKeyedStateStore;
use governor::{Quota, RateLimiter};
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

type Keyed<K, C> =
    RateLimiter<K, DefaultKeyedStateStore<K>, C, NoOpMiddleware<<C as Clock>::Instant>>;

/// How often the budgets of keys that have fully recovered are forgotten, so that
/// addresses seen once do not stay in memory.
const SWEEP_EVERY: Duration = Duration::from_secs(60);

fn quota(burst: u32, per_second: u32) -> Quota {
    Quota::per_second(NonZeroU32::new(per_second).expect("a pace above zero"))
        .allow_burst(NonZeroU32::new(burst).expect("a burst above zero"))
}

/// Which budget a frame found spent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spent {
    Address,
    Player,
}

impl Spent {
    /// The `rate_limited` error's message.
    pub fn message(self) -> String {
        let (whose, burst, pace) = match self {
            Spent::Address => ("your address", ADDRESS_BURST, ADDRESS_PER_SECOND),
            Spent::Player => ("your account", PLAYER_BURST, PLAYER_PER_SECOND),
        };
        format!(
            "too many frames from {whose}, all its sockets together: at most {burst} at \
             once, then {pace} a second"
        )
    }
}

pub struct FrameBudgets<C: Clock = DefaultClock> {
    address: Keyed<IpAddr, C>,
    player: Keyed<i64, C>,
    clock: C,
    swept: Mutex<Instant>,
}

impl Default for FrameBudgets {
    fn default() -> Self {
        FrameBudgets::with_clock(DefaultClock::default())
    }
}

/// Whose budgets one socket's frames are charged to.
pub struct Charge<C: Clock = DefaultClock> {
    budgets: Arc<FrameBudgets<C>>,
    address: Option<IpAddr>,
    player: Option<i64>,
    /// Set while the socket's user holds a seat of its game, which may begin after the
    /// socket opened (a 四国 table's seats are taken over the socket): its frames are
    /// then charged to the account alone. Four friends behind one address at one table
    /// spent the address's budget in about 320 steps without it.
    seated: Arc<AtomicBool>,
}

impl<C: Clock + Clone> FrameBudgets<C> {
    pub fn with_clock(clock: C) -> FrameBudgets<C> {
        FrameBudgets {
            address: RateLimiter::new(
                quota(ADDRESS_BURST, ADDRESS_PER_SECOND),
                DefaultKeyedStateStore::default(),
                clock.clone(),
            ),
            player: RateLimiter::new(
                quota(PLAYER_BURST, PLAYER_PER_SECOND),
                DefaultKeyedStateStore::default(),
                clock.clone(),
            ),
            clock,
            swept: Mutex::new(Instant::now()),
        }
    }

    /// The budgets a new socket from `address` (by `player`) is charged to, its upgrade
    /// counted as its first frame; 429 `rate_limited` (with the seconds until there is
    /// room) when one is spent. `own_game`: a player's socket on their own game, charged
    /// to their account only, and let in whatever is left.
    pub fn open(
        self: &Arc<Self>,
        address: Option<IpAddr>,
        player: Option<i64>,
        own_game: bool,
    ) -> Result<Charge<C>, AppError> {
        self.sweep();
        let charge = Charge {
            budgets: self.clone(),
            address: address.map(address_key),
            player,
            seated: Arc::new(AtomicBool::new(own_game)),
        };
        if !own_game && let Err((_, wait)) = charge.take() {
            let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
            return Err(AppError::RateLimited(seconds.max(1)));
        }
        Ok(charge)
    }

    fn sweep(&self) {
        let Ok(mut at) = self.swept.try_lock() else {
            return; // another socket is sweeping
        };
        if at.elapsed() < SWEEP_EVERY {
            return;
        }
        *at = Instant::now();
        self.address.retain_recent();
        self.player.retain_recent();
        self.address.shrink_to_fit();
        self.player.shrink_to_fit();
    }

    #[cfg(test)]
    fn keys(&self) -> usize {
        self.address.len() + self.player.len()
    }
}

impl<C: Clock> Charge<C> {
    /// The flag the game sets while the socket's user holds a seat.
    pub fn seated(&self) -> Arc<AtomicBool> {
        self.seated.clone()
    }

    /// Counts one frame; when a budget is spent, which one and how long until it has
    /// room again (and then nothing is counted against the address's budget for it,
    /// if it was the account's that was spent, that counted already).
    pub fn take(&self) -> Result<(), (Spent, Duration)> {
        let b = &self.budgets;
        if let Some(a) = self
            .address
            .filter(|_| !self.seated.load(Ordering::Relaxed))
        {
            let a = &a;
            b.address
                .check_key(a)
                .map_err(|n| (Spent::Address, n.wait_time_from(b.clock.now())))?;
        }
        if let Some(p) = &self.player {
            b.player
                .check_key(p)
                .map_err(|n| (Spent::Player, n.wait_time_from(b.clock.now())))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use governor::clock::FakeRelativeClock;

    fn budgets() -> (Arc<FrameBudgets<FakeRelativeClock>>, FakeRelativeClock) {
        let clock = FakeRelativeClock::default();
        (Arc::new(FrameBudgets::with_clock(clock.clone())), clock)
    }

    fn ip(last: u8) -> Option<IpAddr> {
        Some(IpAddr::from([192, 0, 2, last]))
    }

    /// Frames from one address count together, however many sockets they come on and
    /// however often those are opened again; time gives the budget back at its pace.
    #[test]
    fn reconnecting_does_not_reset_an_address_s_budget() {
        let (b, clock) = budgets();
        let mut sent = 0;
        let refused = loop {
            // A socket, a socket's budget of frames (less one for the upgrade), again.
            match b.open(ip(1), None, false) {
                Err(e) => break e,
                Ok(socket) => {
                    sent += 1;
                    for _ in 0..99 {
                        if socket.take().is_err() {
                            break;
                        }
                        sent += 1;
                    }
                }
            }
        };
        assert_eq!(sent, ADDRESS_BURST, "frames and upgrades from one address");
        assert_eq!(refused.code(), "rate_limited");
        assert!(matches!(refused, AppError::RateLimited(1)), "{refused:?}");
        assert!(
            b.open(ip(2), None, false).is_ok(),
            "another address has its own"
        );

        clock.advance(Duration::from_secs(1));
        let socket = b.open(ip(1), None, false).expect("room again");
        for _ in 1..ADDRESS_PER_SECOND {
            socket.take().expect("a second's pace");
        }
        let (spent, wait) = socket.take().unwrap_err();
        assert_eq!(spent, Spent::Address);
        assert!(wait <= Duration::from_millis(100), "{wait:?}");
    }

    /// An account's frames count together from any address; its socket on its own
    /// game spends only its own budget, so a flood from its address does not touch it,
    /// and it is let in even when the account's budget is spent.
    #[test]
    fn a_player_s_own_game_is_charged_to_the_player_alone() {
        let (b, clock) = budgets();
        let flood = b.open(ip(1), None, false).unwrap();
        while flood.take().is_ok() {}
        assert_eq!(flood.take().unwrap_err().0, Spent::Address);
        let seat = b.open(ip(1), Some(7), true).expect("the player gets in");
        for _ in 0..PLAYER_BURST {
            seat.take().expect("the player's own budget");
        }
        assert_eq!(seat.take().unwrap_err().0, Spent::Player);
        assert!(b.open(ip(1), Some(7), true).is_ok(), "and gets in again");

        // The same account watching from everywhere shares one budget.
        clock.advance(Duration::from_secs(60));
        let mut taken = 0;
        'all: for last in 10..20 {
            let Ok(s) = b.open(ip(last), Some(8), false) else {
                break;
            };
            taken += 1;
            for _ in 0..99 {
                if s.take().is_err() {
                    break 'all;
                }
                taken += 1;
            }
        }
        assert_eq!(taken, PLAYER_BURST);
        let e = b.open(ip(30), Some(8), false).err().unwrap();
        assert_eq!(e.code(), "rate_limited");
    }

    #[test]
    fn a_seat_taken_over_the_socket_moves_its_frames_to_the_account() {
        let (b, _clock) = budgets();
        // Opened before sitting down, as a 四国 table's seats are taken: the address
        // pays, and a neighbour behind the same address flooding spends it.
        let socket = b.open(ip(1), Some(7), false).unwrap();
        let flood = b.open(ip(1), None, false).unwrap();
        while flood.take().is_ok() {}
        assert_eq!(socket.take().unwrap_err().0, Spent::Address);
        // Seated: the game sets the flag, and the player's frames go through on the
        // account's budget; stood up again, the address pays again.
        socket.seated().store(true, Ordering::Relaxed);
        socket.take().expect("a seated player's frame");
        socket.seated().store(false, Ordering::Relaxed);
        assert_eq!(socket.take().unwrap_err().0, Spent::Address);
    }

    #[test]
    fn recovered_budgets_are_forgotten() {
        let (b, clock) = budgets();
        b.open(ip(1), Some(7), false).unwrap();
        assert_eq!(b.keys(), 2);
        clock.advance(Duration::from_secs(3600));
        *b.swept.lock().unwrap() -= SWEEP_EVERY;
        b.open(ip(2), None, true).unwrap();
        assert_eq!(
            b.keys(),
            0,
            "both keys had recovered; the new socket took nothing"
        );
    }
}
