//! Device cookies, as OWASP recommends against guessing spread over many addresses
//! ("Slow Down Online Guessing Attacks with Device Cookies"): after a successful login
//! (or registration) the browser gets `junqi_device`, naming the account, signed with a
//! server key. A later login to that account presenting it is counted against that
//! device's own allowance (`throttle::Guard::check_login`), so strangers guessing the
//! account from anywhere else cannot lock the player out of a browser they have used
//! before; the strangers stay throttled by the per-address and per-account limits.
//!
//! The value is up to [`MAX_ACCOUNTS`] entries `account.nonce.mac`, newest first,
//! joined by `~`: the account's username key (lower case, `[a-z0-9_-]`), 128 random
//! bits as hex (fresh at each login, so a device's allowance starts afresh with it),
//! and the first 128 bits of HMAC-SHA256 over `account.nonce`. The cookie grants no
//! access: it only says which allowance an attempt counts against, and the password
//! is checked as ever. It is HttpOnly, sent to `/api` only, and kept a year.
//!
//! The key is derived from the session key (`server::session_key`, kept in the
//! database) by HMAC with a label of its own, so it outlives restarts without another
//! secret to keep. Whoever reads the database could forge device cookies, and so guess
//! faster; but such a reader holds the password hashes already and can guess offline.

use actix_web::HttpRequest;
use actix_web::cookie::{Cookie, Key, SameSite, time};
use argon2::password_hash::rand_core::{OsRng, RngCore};
use hmac::{Hmac, Mac};
use sha2::Sha256;

pub const COOKIE: &str = "junqi_device";
/// Accounts one browser is remembered for (a family computer, a second account).
pub const MAX_ACCOUNTS: usize = 4;
const NONCE_BYTES: usize = 16;
const MAC_BYTES: usize = 16;
const LIFETIME_DAYS: i64 = 365;

type HmacSha256 = Hmac<Sha256>;

/// The key that signs device cookies, and whether they are marked Secure.
#[derive(Clone)]
pub struct DeviceCookies {
    key: [u8; 32],
    secure: bool,
}

/// One valid entry of a device cookie.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry<'a> {
    account: &'a str,
    nonce: &'a str,
}

fn account_key_chars(account: &str) -> bool {
    !account.is_empty()
        && account.len() <= 20
        && account
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-')
}

impl DeviceCookies {
    pub fn new(session_key: &Key, secure: bool) -> DeviceCookies {
        let mut mac =
            HmacSha256::new_from_slice(session_key.master()).expect("HMAC takes any key length");
        mac.update(b"junqi device cookie/1");
        DeviceCookies {
            key: mac.finalize().into_bytes().into(),
            secure,
        }
    }

    fn mac(&self, account: &str, nonce: &str) -> HmacSha256 {
        let mut mac = HmacSha256::new_from_slice(&self.key).expect("HMAC takes any key length");
        mac.update(account.as_bytes());
        mac.update(b".");
        mac.update(nonce.as_bytes());
        mac
    }

    fn entry_text(&self, account: &str, nonce: &str) -> String {
        let tag = self.mac(account, nonce).finalize().into_bytes();
        format!("{account}.{nonce}.{}", hex::encode(&tag[..MAC_BYTES]))
    }

    /// The entry, if its signature is this server's.
    fn verify<'a>(&self, text: &'a str) -> Option<Entry<'a>> {
        let mut parts = text.split('.');
        let (account, nonce, tag) = (parts.next()?, parts.next()?, parts.next()?);
        if parts.next().is_some()
            || !account_key_chars(account)
            || nonce.len() != NONCE_BYTES * 2
            || !nonce.bytes().all(|b| b.is_ascii_hexdigit())
        {
            return None;
        }
        let tag = hex::decode(tag).ok().filter(|t| t.len() == MAC_BYTES)?;
        self.mac(account, nonce).verify_truncated_left(&tag).ok()?;
        Some(Entry { account, nonce })
    }

    /// The valid entries of a cookie's value, as many as are kept.
    fn entries<'a>(&'a self, value: &'a str) -> impl Iterator<Item = Entry<'a>> + 'a {
        value
            .split('~')
            .take(MAX_ACCOUNTS)
            .filter_map(|e| self.verify(e))
    }

    /// The nonce of the request's valid device cookie for `account` (a username key),
    /// if it has one.
    pub fn trusted(&self, req: &HttpRequest, account: &str) -> Option<String> {
        let cookie = req.cookie(COOKIE)?;
        self.entries(cookie.value())
            .find(|e| e.account == account)
            .map(|e| e.nonce.to_string())
    }

    /// The cookie to send after `account` (a username key) logged in: a fresh entry for
    /// it first, then the request's other valid entries, at most [`MAX_ACCOUNTS`].
    pub fn after_login(&self, req: &HttpRequest, account: &str) -> Cookie<'static> {
        let mut nonce = [0u8; NONCE_BYTES];
        OsRng.fill_bytes(&mut nonce);
        let mut kept = vec![self.entry_text(account, &hex::encode(nonce))];
        if let Some(old) = req.cookie(COOKIE) {
            for e in self.entries(old.value()) {
                if e.account != account && kept.len() < MAX_ACCOUNTS {
                    kept.push(self.entry_text(e.account, e.nonce));
                }
            }
        }
        Cookie::build(COOKIE, kept.join("~"))
            .path("/api")
            .http_only(true)
            .same_site(SameSite::Lax)
            .secure(self.secure)
            .max_age(time::Duration::days(LIFETIME_DAYS))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    fn devices() -> DeviceCookies {
        DeviceCookies::new(&Key::from(&[7u8; 64]), false)
    }

    fn with(value: &str) -> HttpRequest {
        TestRequest::post()
            .cookie(Cookie::new(COOKIE, value.to_string()))
            .to_http_request()
    }

    #[test]
    fn a_signed_entry_trusts_its_account_only() {
        let d = devices();
        let cookie = d.after_login(&TestRequest::post().to_http_request(), "alice");
        assert_eq!(cookie.path(), Some("/api"));
        assert_eq!(cookie.http_only(), Some(true));
        let req = with(cookie.value());
        let nonce = d.trusted(&req, "alice").expect("trusted");
        assert_eq!(nonce.len(), 32);
        assert_eq!(d.trusted(&req, "bob"), None);
        // Another server's key, or a renamed account, or a changed nonce: not trusted.
        let other = DeviceCookies::new(&Key::from(&[8u8; 64]), false);
        assert_eq!(other.trusted(&req, "alice"), None);
        let parts: Vec<&str> = cookie.value().split('.').collect();
        let renamed = format!("bob.{}.{}", parts[1], parts[2]);
        assert_eq!(d.trusted(&with(&renamed), "bob"), None);
        let first = if parts[1].starts_with('0') { '1' } else { '0' };
        let changed = format!("alice.{first}{}.{}", &parts[1][1..], parts[2]);
        assert_eq!(d.trusted(&with(&changed), "alice"), None);
        for junk in ["", "~~", "alice", "alice..", "a.b.c.d", "ALICE.00.00"] {
            assert_eq!(d.trusted(&with(junk), "alice"), None, "{junk}");
        }
    }

    #[test]
    fn a_browser_is_remembered_for_a_few_accounts_newest_first() {
        let d = devices();
        let mut value = String::new();
        for name in ["ann", "bob", "cat", "dan", "eve", "bob"] {
            let req = with(&value);
            let before = d.trusted(&req, name);
            value = d.after_login(&req, name).value().to_string();
            let after = d.trusted(&with(&value), name).unwrap();
            assert_ne!(before, Some(after), "a fresh nonce at each login");
        }
        let req = with(&value);
        let names: Vec<&str> = value
            .split('~')
            .map(|e| e.split('.').next().unwrap())
            .collect();
        assert_eq!(names, ["bob", "eve", "dan", "cat"]);
        assert_eq!(d.trusted(&req, "ann"), None, "the oldest went");
        assert!(d.trusted(&req, "cat").is_some());
    }
}
