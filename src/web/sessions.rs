//! Server-side sessions behind actix-session. The cookie carries a random 256-bit token
//! (sealed with the cookie key, so a forged cookie is dropped before the database is
//! asked); the database keeps only the token's SHA-256 with the user, times and user
//! agent. So a session ends when its row goes (logout, "log out everywhere", expiry),
//! and nothing in the database, the cookie key included, lets its reader make a cookie
//! that logs in: that needs a token, and no token is stored.
//!
//! actix-session loads the session of every request that carries the cookie: one
//! lookup by primary key (and a write at most hourly, as the expiry slides).

use crate::db::{self, Pool, sessions};
use crate::error::AppError;
use crate::live::blocking;
use actix_session::storage::{LoadError, SaveError, SessionKey, SessionStore, UpdateError};
use actix_web::cookie::time::Duration;
use argon2::password_hash::rand_core::{OsRng, RngCore};
use sha2::{Digest, Sha256};
use std::collections::HashMap;

/// The session state's key for the user id (the only state a session has).
pub const USER_KEY: &str = "uid";
/// Set with the user id at login, for the session's row only (never loaded back).
pub const AGENT_KEY: &str = "ua";

/// User agents are kept for the player to tell their sessions apart, not in full.
const AGENT_CHARS: usize = 200;

#[derive(Clone)]
pub struct DbSessionStore {
    pool: Pool,
}

impl DbSessionStore {
    pub fn new(pool: Pool) -> DbSessionStore {
        DbSessionStore { pool }
    }
}

/// What the database keeps of a token.
pub fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// 256 random bits from the system's generator, as hex: a session's or an API token.
pub fn new_token() -> String {
    let mut bytes = [0u8; 32];
    OsRng.fill_bytes(&mut bytes);
    hex::encode(bytes)
}

fn other(e: AppError) -> anyhow::Error {
    anyhow::anyhow!("session store: {e}")
}

/// The user id and user agent of a state that `auth::log_in` filled (values are JSON,
/// as actix-session stores them).
fn parse_state(state: &HashMap<String, String>) -> anyhow::Result<(i64, Option<String>)> {
    let user = state
        .get(USER_KEY)
        .ok_or_else(|| anyhow::anyhow!("a session is only ever saved for a user"))?;
    let user: i64 = serde_json::from_str(user)?;
    let agent = state
        .get(AGENT_KEY)
        .and_then(|a| serde_json::from_str::<String>(a).ok())
        .map(|a| a.chars().take(AGENT_CHARS).collect());
    Ok((user, agent))
}

impl DbSessionStore {
    async fn save_state(&self, state: HashMap<String, String>) -> anyhow::Result<SessionKey> {
        let (user, agent) = parse_state(&state)?;
        let token = new_token();
        let hash = token_hash(&token);
        blocking(&self.pool, move |c| {
            Ok(sessions::create(
                c,
                &hash,
                user,
                agent.as_deref(),
                db::now_ms(),
            )?)
        })
        .await
        .map_err(other)?;
        Ok(SessionKey::try_from(token)?)
    }

    async fn delete_key(&self, key: &SessionKey) -> anyhow::Result<()> {
        let hash = token_hash(key.as_ref());
        blocking(&self.pool, move |c| Ok(sessions::delete(c, &hash)?))
            .await
            .map_err(other)
    }
}

// The TTL actix-session passes is ignored: the row's expiry, which slides while the
// session is used, is the one that counts.
impl SessionStore for DbSessionStore {
    async fn load(&self, key: &SessionKey) -> Result<Option<HashMap<String, String>>, LoadError> {
        let hash = token_hash(key.as_ref());
        let user = blocking(&self.pool, move |c| {
            Ok(sessions::user_of(c, &hash, db::now_ms())?)
        })
        .await
        .map_err(|e| LoadError::Other(other(e)))?;
        Ok(user.map(|id| HashMap::from([(USER_KEY.to_string(), id.to_string())])))
    }

    async fn save(
        &self,
        state: HashMap<String, String>,
        _ttl: &Duration,
    ) -> Result<SessionKey, SaveError> {
        self.save_state(state).await.map_err(SaveError::Other)
    }

    /// A changed state gets a new token (never the case today: only a login sets state,
    /// and it renews the session).
    async fn update(
        &self,
        key: SessionKey,
        state: HashMap<String, String>,
        _ttl: &Duration,
    ) -> Result<SessionKey, UpdateError> {
        self.delete_key(&key).await.map_err(UpdateError::Other)?;
        self.save_state(state).await.map_err(UpdateError::Other)
    }

    async fn update_ttl(&self, _key: &SessionKey, _ttl: &Duration) -> anyhow::Result<()> {
        Ok(())
    }

    async fn delete(&self, key: &SessionKey) -> anyhow::Result<()> {
        self.delete_key(key).await
    }
}

/// Ends every session of a user.
pub async fn end_all(pool: &Pool, user: i64) -> Result<usize, AppError> {
    blocking(pool, move |c| Ok(sessions::delete_all_of(c, user)?)).await
}
