//! The players the load plays with, made straight in the database: two per game and
//! four per 四国 table, one password hash computed once for them all (argon2 costs
//! tens of milliseconds a hash), and for each a session row and the cookie the server
//! accepts for it.

use crate::db::{self, DbConn, DbError, Pool, sessions, users};
use crate::web::sessions::token_hash;
use actix_web::cookie::{Cookie, CookieJar, Key};
use argon2::Argon2;
use argon2::password_hash::{PasswordHasher, SaltString};
use diesel::Connection;
use rand::RngExt;

/// What a seat's requests carry: `junqi_session=…`.
#[derive(Debug, Clone)]
pub struct Player {
    pub username: String,
    pub cookie: String,
}

/// The two players of one game (`a` creates it, `b` joins).
#[derive(Debug, Clone)]
pub struct Pair {
    pub index: usize,
    pub a: Player,
    pub b: Player,
}

/// Rows are written in transactions of this many players (PostgreSQL would otherwise
/// wait for a commit to disk per player).
const BATCH: usize = 500;

/// The four players of one 四国 table, in seat order (S, E, N, W): south creates it,
/// the others sit.
#[derive(Debug, Clone)]
pub struct Four {
    pub index: usize,
    pub seats: [Player; 4],
}

/// Makes (or finds, when an earlier run made them) the players of `games` games named
/// `{prefix}{number}a` and `…b`, each with a new session.
pub fn prepare(pool: &Pool, games: usize, prefix: &str) -> Result<Vec<Pair>, DbError> {
    let names: Vec<String> = (0..games)
        .flat_map(|i| [format!("{prefix}{i:05}a"), format!("{prefix}{i:05}b")])
        .collect();
    let mut players = made(pool, &names)?.into_iter();
    Ok((0..games)
        .map(|index| Pair {
            index,
            a: players.next().expect("two players a game"),
            b: players.next().expect("two players a game"),
        })
        .collect())
}

/// The same for `tables` 四国 tables: `{prefix}{number}` and a seat letter (`s`, `e`,
/// `n`, `w`), which no two-player game's names end in.
pub fn prepare_tables(pool: &Pool, tables: usize, prefix: &str) -> Result<Vec<Four>, DbError> {
    let names: Vec<String> = (0..tables)
        .flat_map(|i| ['s', 'e', 'n', 'w'].map(|seat| format!("{prefix}{i:05}{seat}")))
        .collect();
    let mut players = made(pool, &names)?.into_iter();
    Ok((0..tables)
        .map(|index| Four {
            index,
            seats: std::array::from_fn(|_| players.next().expect("four players a table")),
        })
        .collect())
}

/// The players of these names, made or found, each with a new session.
fn made(pool: &Pool, names: &[String]) -> Result<Vec<Player>, DbError> {
    if names.is_empty() {
        return Ok(Vec::new());
    }
    // The same key the server seals its cookies with (made now if the database is new).
    let key = crate::web::server::session_key(pool)?;
    let mut conn = pool.get()?;
    let salt = SaltString::encode_b64(&rand::random::<[u8; 16]>())
        .map_err(|e| DbError::Migration(e.to_string()))?;
    let password: String = format!("load-{}", hex::encode(rand::random::<[u8; 8]>()));
    let hash = Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map_err(|e| DbError::Migration(e.to_string()))?
        .to_string();
    let mut players = Vec::with_capacity(names.len());
    for chunk in names.chunks(BATCH) {
        let made = conn.transaction(|c| {
            chunk
                .iter()
                .map(|name| player(c, &key, name, &hash))
                .collect::<Result<Vec<Player>, DbError>>()
                .map_err(Failed)
        });
        players.extend(made.map_err(|Failed(e)| e)?);
    }
    Ok(players)
}

/// A `DbError` carried out of diesel's transaction (which needs its errors to come
/// from diesel's own).
struct Failed(DbError);

impl From<diesel::result::Error> for Failed {
    fn from(e: diesel::result::Error) -> Failed {
        Failed(DbError::Query(e))
    }
}

fn player(conn: &mut DbConn, key: &Key, name: &str, hash: &str) -> Result<Player, DbError> {
    let user = match users::by_name(conn, name)? {
        Some(u) => u,
        None => users::create(conn, name, hash)?
            .ok_or_else(|| DbError::Migration(format!("cannot create player {name}")))?,
    };
    let token = hex::encode(rand::rng().random::<[u8; 32]>());
    sessions::create(
        conn,
        &token_hash(&token),
        user.id,
        Some("junqi load"),
        db::now_ms(),
    )?;
    Ok(Player {
        username: user.username,
        cookie: sealed_cookie(key, token),
    })
}

/// The cookie actix-session sets for a session token: a private (encrypted and
/// authenticated) cookie under the server's key, as `name=value` for a Cookie header.
pub fn sealed_cookie(key: &Key, token: String) -> String {
    let mut jar = CookieJar::new();
    jar.private_mut(key)
        .add(Cookie::new("junqi_session", token));
    let sealed = jar.delta().next().expect("the cookie just added");
    sealed.encoded().stripped().to_string()
}
