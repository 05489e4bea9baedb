//! What keeps a flood of logins and registrations from slowing the games: password
//! hashing on a few slots of its own, away from the database pool, and attempts
//! throttled by address and by account.
//!
//! The limits are governor's keyed GCRA limiters: each key gets a burst, then one more
//! attempt per period, so someone who keeps trying waits a period between attempts
//! and is told how long (429 with Retry-After). Attempts are counted before any hashing
//! is done, successful ones too, so a burst of concurrent guesses cannot slip past
//! before the first failure is recorded; a player logs in rarely enough not to notice.
//!
//! An attacker must not be able to lock a player out by guessing their password. So
//! the tight per-account limit applies to each (account, address) pair: guesses from
//! one address use up that address's allowance, not the player's. Above it, one
//! generous ceiling per account (whatever the address) bounds guessing from many
//! addresses at once, with a back-off of a second or two at most. That ceiling is
//! shared with the player, so a browser the player has logged in from before carries a
//! device cookie (`device_cookie`): an attempt that presents a valid one for the account
//! counts against that device's own allowance only, and guesses from anywhere else
//! cannot use it up (OWASP's "device cookies").
//!
//! API requests with an unknown bearer token are limited per address the same way,
//! before the token is looked up (see `check_token` and `bad_token`).
//!
//! Every limit runs on a [`RateClock`]: the machine's, or in tests a frozen one.

use super::rate_clock::{KeyedLimiter, RateClock, keyed};
use crate::error::AppError;
use actix_web::HttpRequest;
use argon2::Argon2;
use argon2::password_hash::{
    PasswordHash, PasswordHasher, PasswordVerifier, SaltString, rand_core::OsRng,
};
use governor::Quota;
use governor::clock::Clock;
use governor::nanos::Nanos;
use std::collections::HashMap;
use std::hash::Hash;
use std::net::{IpAddr, Ipv6Addr};
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Semaphore;

fn quota(burst: u32, one_per: Duration) -> Quota {
    Quota::with_period(one_per)
        .expect("a period above zero")
        .allow_burst(NonZeroU32::new(burst).expect("a burst above zero"))
}

/// Logins from one address, any account: 30 at once, then one every 4 s. Generous,
/// because a school or a carrier's NAT puts many players behind one address.
fn login_per_ip() -> Quota {
    quota(30, Duration::from_secs(4))
}

/// Logins to one account from one address: 5 at once (a forgotten password, a few
/// guesses), then one every 20 s.
fn login_per_pair() -> Quota {
    quota(5, Duration::from_secs(20))
}

/// Logins to one account from everywhere: 60 at once, then one a second. It only bounds
/// guessing spread over many addresses; its back-off is a second.
fn login_per_account() -> Quota {
    quota(60, Duration::from_secs(1))
}

/// Registrations from one address: 3 at once, then 5 an hour.
fn register_per_ip() -> Quota {
    quota(3, Duration::from_secs(3600 / 5))
}

/// Guest accounts made from one address: 5 at once (a family or a classroom behind one
/// address trying the site), then 10 an hour. Each guest has the per-player caps of its
/// own (open games, games against the computer), so this is what bounds one address's
/// share of them, as `register_per_ip` does for registered accounts.
fn guest_per_ip() -> Quota {
    quota(5, Duration::from_secs(3600 / 10))
}

/// Logins to one account from one browser that has logged in to it before (a valid
/// device cookie), wherever it is: 5 at once, then one every 20 s, like one address's.
/// The device's own: guesses from elsewhere do not touch it, and a cookie that keeps
/// failing is refused in its turn.
fn login_per_device() -> Quota {
    quota(5, Duration::from_secs(20))
}

/// API requests with an unknown or revoked token from one address: 10 at once, then
/// one every 6 s. A bot told 401 `bad_token` is to stop (docs/protocol.md); this bounds
/// one that does not, and a guesser, at ten lookups a minute instead of thousands a
/// second.
fn bad_token_per_ip() -> Quota {
    quota(10, Duration::from_secs(6))
}

/// How many waiting for a hashing slot, per slot, before logins are turned away at
/// once (with Retry-After: 1) rather than queued: at ~16 ms a hash, 32 per slot is half
/// a second of work. Each `Lane` has a room of that size.
const WAITING_PER_SLOT: usize = 32;

/// Which waiting room a hash queues in for its slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lane {
    /// Registrations, and logins from a browser the account does not know.
    Anyone,
    /// A login from a browser that has logged in to the account before (a valid device
    /// cookie). Strangers who guess unknown names from a fresh address each, which no
    /// per-account limit stops, kept the one room full, and the owner's login was
    /// turned away like theirs: 0 of 20 got in from outside (`bench/attacks.py logins`,
    /// case C). In a room of its own it waits at most behind one room of strangers for
    /// a slot; what comes in here is bounded by each device's allowance.
    KnownDevice,
}

struct Limits {
    login_ip: KeyedLimiter<IpAddr>,
    login_pair: KeyedLimiter<(String, IpAddr)>,
    login_account: KeyedLimiter<String>,
    /// Keyed by the device cookie's nonce (fresh at each login).
    login_device: KeyedLimiter<String>,
    register_ip: KeyedLimiter<IpAddr>,
    guest_ip: KeyedLimiter<IpAddr>,
    bad_token_ip: KeyedLimiter<IpAddr>,
    /// Addresses refused by `bad_token_ip`, until when: checked before a token is
    /// looked up, so that a refused address costs no database lookup. Only addresses
    /// past their burst are here, and `forget_recovered` drops them once they may try.
    bad_token_until: Mutex<HashMap<IpAddr, Nanos>>,
}

pub struct Guard {
    /// `None` with `--no-rate-limits` (load tests, the test suite), which also lifts
    /// the cap on logins waiting for a hashing slot.
    limits: Option<Limits>,
    clock: RateClock,
    trust_proxy: bool,
    slots: Arc<Semaphore>,
    /// How many wait for a slot in each lane's room (`Lane::Anyone`, then
    /// `Lane::KnownDevice`).
    waiting: [AtomicUsize; 2],
    max_waiting: usize,
}

/// Hashing takes at most half the cores (at least one), so that however many logins
/// arrive, games and pages keep the rest of the machine.
pub fn hashing_slots() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    (cores / 2).max(1)
}

/// The key an address is limited under: IPv6 by its /64, which one subscriber usually
/// holds whole (each address of it would otherwise be a fresh allowance).
fn ip_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
    }
}

fn check<K: Hash + Eq + Clone>(limiter: &KeyedLimiter<K>, key: &K) -> Result<(), AppError> {
    limiter
        .check_key(key)
        .map_err(|not_until| AppError::RateLimited(limiter.clock().seconds_until(&not_until)))
}

/// Seconds from `now` to `until`, rounded up.
fn seconds_between(now: Nanos, until: Nanos) -> u64 {
    let wait: Duration = until.saturating_sub(now).into();
    wait.as_secs() + u64::from(wait.subsec_nanos() > 0)
}

/// Gives a waiting place back when the wait ends, however it ends.
struct Waiting<'a>(&'a AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Guard {
    pub fn new(rate_limits: bool, trust_proxy: bool, clock: RateClock) -> Guard {
        let slots = hashing_slots();
        Guard {
            limits: rate_limits.then(|| Limits {
                login_ip: keyed(login_per_ip(), &clock),
                login_pair: keyed(login_per_pair(), &clock),
                login_account: keyed(login_per_account(), &clock),
                login_device: keyed(login_per_device(), &clock),
                register_ip: keyed(register_per_ip(), &clock),
                guest_ip: keyed(guest_per_ip(), &clock),
                bad_token_ip: keyed(bad_token_per_ip(), &clock),
                bad_token_until: Mutex::new(HashMap::new()),
            }),
            clock,
            trust_proxy,
            slots: Arc::new(Semaphore::new(slots)),
            waiting: [AtomicUsize::new(0), AtomicUsize::new(0)],
            // Without limits (a load test registering thousands at once) everyone waits.
            max_waiting: if rate_limits {
                slots * WAITING_PER_SLOT
            } else {
                usize::MAX
            },
        }
    }

    /// The client's address. Behind a reverse proxy (`--trust-proxy`) it is the last
    /// entry of `X-Forwarded-For`, the one our proxy added: earlier entries are
    /// whatever the client sent. Otherwise it is the connection's peer.
    pub fn client_ip(&self, req: &HttpRequest) -> IpAddr {
        let forwarded = || {
            let last = req.headers().get_all("x-forwarded-for").last()?;
            last.to_str().ok()?.rsplit(',').next()?.trim().parse().ok()
        };
        let ip = self
            .trust_proxy
            .then(forwarded)
            .flatten()
            .or_else(|| req.peer_addr().map(|a| a.ip()))
            .unwrap_or(IpAddr::from([0, 0, 0, 0]));
        ip_key(ip)
    }

    /// Whether `--trust-proxy` is on: the proxy's headers (`X-Forwarded-For`, and the
    /// forwarded host the Origin check compares) are believed.
    pub fn trusts_proxy(&self) -> bool {
        self.trust_proxy
    }

    /// Counts a login attempt; `account` is the username key, `None` for a name that
    /// cannot exist; `device` the nonce of a valid device cookie for that account.
    /// A trusted device's attempt counts against that device's allowance only.
    /// Otherwise the limits are checked narrowest first, so attempts refused by the
    /// address's limits do not use up the account's ceiling.
    pub fn check_login(
        &self,
        ip: IpAddr,
        account: Option<&str>,
        device: Option<&str>,
    ) -> Result<(), AppError> {
        let Some(l) = &self.limits else {
            return Ok(());
        };
        if let (Some(_), Some(device)) = (account, device) {
            return check(&l.login_device, &device.to_string());
        }
        check(&l.login_ip, &ip)?;
        if let Some(account) = account {
            check(&l.login_pair, &(account.to_string(), ip))?;
            check(&l.login_account, &account.to_string())?;
        }
        Ok(())
    }

    pub fn check_register(&self, ip: IpAddr) -> Result<(), AppError> {
        match &self.limits {
            Some(l) => check(&l.register_ip, &ip),
            None => Ok(()),
        }
    }

    /// Counts a guest account made from `ip` (`POST /api/guest`).
    pub fn check_guest(&self, ip: IpAddr) -> Result<(), AppError> {
        match &self.limits {
            Some(l) => check(&l.guest_ip, &ip),
            None => Ok(()),
        }
    }

    /// Before a bearer token is looked up: refused while the address is held back for
    /// sending unknown tokens.
    pub fn check_token(&self, ip: IpAddr) -> Result<(), AppError> {
        let Some(l) = &self.limits else {
            return Ok(());
        };
        let mut held = l.bad_token_until.lock().unwrap_or_else(|p| p.into_inner());
        let Some(&until) = held.get(&ip) else {
            return Ok(());
        };
        let now = self.clock.now();
        if now < until {
            return Err(AppError::RateLimited(seconds_between(now, until)));
        }
        held.remove(&ip);
        Ok(())
    }

    /// After a token was unknown: counts it against the address, and past the limit
    /// holds the address back (`check_token`) until it may try again.
    pub fn bad_token(&self, ip: IpAddr) -> Result<(), AppError> {
        let Some(l) = &self.limits else {
            return Ok(());
        };
        l.bad_token_ip.check_key(&ip).map_err(|not_until| {
            let until = not_until.earliest_possible();
            let mut held = l.bad_token_until.lock().unwrap_or_else(|p| p.into_inner());
            held.insert(ip, until);
            AppError::RateLimited(seconds_between(self.clock.now(), until))
        })
    }

    /// Runs `work` on a hashing slot, off the async threads and holding no database
    /// connection, once `lane`'s room has a place for it to wait in.
    async fn on_slot<T: Send + 'static>(
        &self,
        lane: Lane,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, AppError> {
        let room = &self.waiting[lane as usize];
        if room.fetch_add(1, Ordering::AcqRel) >= self.max_waiting {
            room.fetch_sub(1, Ordering::AcqRel);
            return Err(AppError::RateLimited(1));
        }
        let waiting = Waiting(room);
        let slot = self.slots.acquire().await.map_err(AppError::internal)?;
        drop(waiting);
        let done = actix_web::web::block(work).await?;
        drop(slot);
        Ok(done)
    }

    /// An argon2id hash of a new password.
    pub async fn hash(&self, password: String) -> Result<String, AppError> {
        self.on_slot(Lane::Anyone, move || {
            let salt = SaltString::generate(&mut OsRng);
            Argon2::default()
                .hash_password(password.as_bytes(), &salt)
                .map(|h| h.to_string())
                .map_err(AppError::internal)
        })
        .await?
    }

    /// Whether `password` matches the stored hash.
    pub async fn verify(
        &self,
        lane: Lane,
        password: String,
        stored: String,
    ) -> Result<bool, AppError> {
        self.on_slot(lane, move || {
            let hash = PasswordHash::new(&stored).map_err(AppError::internal)?;
            Ok(Argon2::default()
                .verify_password(password.as_bytes(), &hash)
                .is_ok())
        })
        .await?
    }

    /// Drops the state of keys whose limits have fully recovered, so that addresses
    /// seen once do not stay in memory (run every minute).
    pub fn forget_recovered(&self) {
        if let Some(l) = &self.limits {
            l.login_ip.retain_recent();
            l.login_pair.retain_recent();
            l.login_account.retain_recent();
            l.login_device.retain_recent();
            l.register_ip.retain_recent();
            l.guest_ip.retain_recent();
            l.bad_token_ip.retain_recent();
            l.login_ip.shrink_to_fit();
            l.login_pair.shrink_to_fit();
            l.login_account.shrink_to_fit();
            l.login_device.shrink_to_fit();
            l.register_ip.shrink_to_fit();
            l.guest_ip.shrink_to_fit();
            l.bad_token_ip.shrink_to_fit();
            let now = self.clock.now();
            let mut held = l.bad_token_until.lock().unwrap_or_else(|p| p.into_inner());
            held.retain(|_, until| *until > now);
            held.shrink_to_fit();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv6_addresses_count_by_their_64() {
        let a: IpAddr = "2001:db8:1:2:3:4:5:6".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:ffff::1".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(ip_key(a), ip_key(b));
        assert_ne!(ip_key(a), ip_key(c));
        let mapped: IpAddr = "::ffff:10.0.0.1".parse().unwrap();
        assert_eq!(ip_key(mapped), "10.0.0.1".parse::<IpAddr>().unwrap());
    }

    fn limited(r: Result<(), AppError>) -> u64 {
        match r {
            Err(AppError::RateLimited(s)) => s,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_key_gets_its_burst_then_waits() {
        let clock = RateClock::frozen();
        let g = Guard::new(true, false, clock.clone());
        let ip: IpAddr = "192.0.2.1".parse().unwrap();
        for _ in 0..3 {
            g.check_register(ip).unwrap();
        }
        assert_eq!(limited(g.check_register(ip)), 720);
        clock.advance(Duration::from_secs(700));
        assert_eq!(limited(g.check_register(ip)), 20);
        g.check_register("192.0.2.2".parse().unwrap()).unwrap();
        assert!(
            Guard::new(false, false, RateClock::real())
                .check_register(ip)
                .is_ok()
        );
    }

    /// Guesses from many addresses use up the account's ceiling; a device that has
    /// logged in before still gets in, on its own allowance, which it can use up too.
    #[test]
    fn a_trusted_device_keeps_its_own_allowance() {
        let g = Guard::new(true, false, RateClock::frozen());
        for i in 0..60u32 {
            let ip = IpAddr::from([10, 9, (i / 250) as u8, (i % 250) as u8]);
            g.check_login(ip, Some("alice"), None).unwrap();
        }
        let elsewhere: IpAddr = "10.8.0.1".parse().unwrap();
        assert_eq!(limited(g.check_login(elsewhere, Some("alice"), None)), 1);
        let home: IpAddr = "10.0.0.1".parse().unwrap();
        for _ in 0..5 {
            g.check_login(home, Some("alice"), Some("nonce-1")).unwrap();
        }
        assert_eq!(
            limited(g.check_login(home, Some("alice"), Some("nonce-1"))),
            20
        );
        // Another device of the player's is not held back by this one.
        g.check_login(home, Some("alice"), Some("nonce-2")).unwrap();
    }

    #[test]
    fn unknown_tokens_hold_the_address_back_before_any_lookup() {
        let clock = RateClock::frozen();
        let g = Guard::new(true, false, clock.clone());
        let ip: IpAddr = "192.0.2.7".parse().unwrap();
        for _ in 0..10 {
            g.check_token(ip).unwrap();
            g.bad_token(ip).unwrap();
        }
        g.check_token(ip).unwrap();
        assert_eq!(limited(g.bad_token(ip)), 6);
        // Held back now: refused before the token is looked up.
        assert_eq!(limited(g.check_token(ip)), 6);
        clock.advance(Duration::from_secs(5));
        assert_eq!(limited(g.check_token(ip)), 1);
        g.check_token("192.0.2.8".parse().unwrap()).unwrap();
        clock.advance(Duration::from_secs(1));
        g.check_token(ip).unwrap();
        g.bad_token(ip).unwrap();
        g.forget_recovered();
        assert_eq!(limited(g.bad_token(ip)), 6);
    }
}
