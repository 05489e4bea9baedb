//! Accounts: registration, login, logout and who the session belongs to.

use super::bearer::Caller;
use super::device_cookie::DeviceCookies;
use super::display_name;
use super::guest;
use super::i18n::Lang;
use super::sessions::{self, AGENT_KEY, USER_KEY};
use super::throttle::{Guard, Lane};
use crate::db::users;
use crate::error::AppError;
use crate::live::{Hub, PlayerStanding, blocking};
use actix_session::Session;
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;
use std::collections::HashSet;
use std::sync::{Arc, LazyLock};

#[derive(Deserialize)]
pub struct Credentials {
    pub username: String,
    pub password: String,
}

/// `POST /api/register`: a login name and password, and optionally a 昵称.
#[derive(Deserialize)]
pub struct Registration {
    pub username: String,
    pub password: String,
    /// Checked as `display_name::check` checks a 昵称 set later; `null` or absent for
    /// none.
    #[serde(default)]
    pub display_name: Option<String>,
}

pub fn validate_username(name: &str) -> Result<(), AppError> {
    // Characters first: "小明" is refused for being Chinese, which says what to do,
    // rather than for being two characters long.
    if !name.is_ascii() && !name.trim().is_empty() {
        return Err(AppError::InvalidUsername(format!(
            "a username may use only letters A–Z and a–z, digits, _ and -; {} can be your \
             display name (昵称) instead: choose such a username and put the name in the \
             昵称 field",
            crate::quote::quoted(name.trim())
        )));
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err(AppError::InvalidUsername(
            "a username may use only letters A–Z and a–z, digits, _ and -".into(),
        ));
    }
    let n = name.chars().count();
    if !(3..=20).contains(&n) {
        return Err(AppError::InvalidUsername(
            "a username has 3 to 20 characters".into(),
        ));
    }
    Ok(())
}

/// A name someone may register: well formed, and not one that passes for the site's
/// computer players (`computer-hard`, `Computer_Easy`, `computerhard`…), whose
/// accounts are named `computer-<level>`. Names already held are not affected: this
/// is checked at registration only.
pub fn validate_new_username(name: &str) -> Result<(), AppError> {
    validate_username(name)?;
    if super::reserved_names::username_reserved(name) {
        return Err(AppError::InvalidUsername(
            "names starting with \"computer\" are kept for the site's computer players".into(),
        ));
    }
    if super::reserved_names::guest_username_reserved(name) {
        return Err(AppError::InvalidUsername(
            "names like \"guest-1234\" are kept for guests".into(),
        ));
    }
    Ok(())
}

/// The most common passwords of 8 characters or more (the file says where they come
/// from): the first an attacker tries on every account.
static COMMON_PASSWORDS: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    include_str!("common_passwords.txt")
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
});

fn validate_password(username: &str, pw: &str) -> Result<(), AppError> {
    let n = pw.chars().count();
    if !(8..=200).contains(&n) {
        return Err(AppError::InvalidPassword(
            "a password has 8 to 200 characters".into(),
        ));
    }
    let lower = pw.to_lowercase();
    if COMMON_PASSWORDS.contains(lower.as_str()) || lower == username.to_lowercase() {
        return Err(AppError::InvalidPassword(
            "that password is among the first any attacker tries; choose another".into(),
        ));
    }
    Ok(())
}

/// The logged-in user's id, if any, by the session alone: for pages, which a bot's
/// token does not open (its cookie is dropped). The API and the sockets ask
/// `bearer::Caller`, which knows tokens too.
pub fn user_id(session: &Session) -> Option<i64> {
    session.get::<i64>(USER_KEY).ok().flatten()
}

pub fn require_user(session: &Session) -> Result<i64, AppError> {
    user_id(session).ok_or(AppError::NotLoggedIn)
}

/// The logged-in player as the pages' header shows them. Displays as the username, which
/// is what pages put in URLs and data attributes; `shown` is the name to greet them by.
#[derive(Debug, Clone)]
pub struct Account {
    pub username: String,
    pub display_name: Option<String>,
    /// `person`, `bot` or `computer`: the badge beside the name.
    pub kind: String,
    /// The running games the player sits in, the latest started first: every page
    /// offers the way back to them (base.html).
    pub playing: Vec<crate::live::playing::Seat>,
}

impl Account {
    /// The 昵称 when there is one, else the login name.
    pub fn shown(&self) -> &str {
        self.display_name.as_deref().unwrap_or(&self.username)
    }

    /// A guest account (`db::guests`), which registering claims.
    pub fn is_guest(&self) -> bool {
        self.kind == users::GUEST
    }
}

impl std::fmt::Display for Account {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.username)
    }
}

/// The logged-in player, for pages.
pub async fn account(hub: &Arc<Hub>, session: &Session) -> Option<Account> {
    let id = user_id(session)?;
    let user = blocking(hub.pool(), move |c| Ok(users::by_id(c, id)?))
        .await
        .ok()
        .flatten()?;
    Some(Account {
        username: user.username,
        display_name: user.display_name,
        kind: user.kind,
        playing: hub.playing().games_of(id),
    })
}

/// Starts a new session (its row is written by the session store as the answer goes
/// out), ending the one the request came with, if any.
pub(super) fn log_in(req: &HttpRequest, session: &Session, id: i64) -> Result<(), AppError> {
    session.renew();
    session.insert(USER_KEY, id).map_err(AppError::internal)?;
    if let Some(agent) = req
        .headers()
        .get(header::USER_AGENT)
        .and_then(|a| a.to_str().ok())
    {
        session
            .insert(AGENT_KEY, agent)
            .map_err(AppError::internal)?;
    }
    Ok(())
}

/// Registers a new account, or, from a guest's session, makes the guest account this
/// one (`db::guests::claim`: same id, so its games stay). Everything is checked before
/// anything is written: a refused name, password or 昵称 creates nothing. A refused 昵称
/// is told in the page language, as the profile's form tells it.
pub async fn register(
    req: HttpRequest,
    hub: web::Data<Arc<Hub>>,
    guard: web::Data<Guard>,
    devices: web::Data<DeviceCookies>,
    session: Session,
    lang: Lang,
    body: web::Json<Registration>,
) -> Result<HttpResponse, AppError> {
    let Registration {
        username,
        password,
        display_name,
    } = body.into_inner();
    validate_new_username(&username)?;
    validate_password(&username, &password)?;
    let display_name = match display_name {
        None => None,
        Some(raw) => Some(
            display_name::check(&raw)
                .map_err(|e| AppError::InvalidDisplayName(e.message(lang.en)))?,
        ),
    };
    guard.check_register(guard.client_ip(&req))?;
    // Hashed on a hashing slot, not while holding a database connection.
    let hash = guard.hash(password).await?;
    let user = match user_id(&session) {
        Some(id) => guest::claim_or_create(&hub, id, username, hash, display_name).await?,
        None => {
            blocking(hub.pool(), move |c| {
                users::create_named(c, &username, &hash, display_name.as_deref())?
                    .ok_or(AppError::UsernameTaken)
            })
            .await?
        }
    };
    log_in(&req, &session, user.id)?;
    Ok(HttpResponse::Created()
        .cookie(devices.after_login(&req, &user.username_key))
        .json(serde_json::json!({"username": user.username})))
}

pub async fn login(
    req: HttpRequest,
    hub: web::Data<Arc<Hub>>,
    guard: web::Data<Guard>,
    devices: web::Data<DeviceCookies>,
    session: Session,
    body: web::Json<Credentials>,
) -> Result<HttpResponse, AppError> {
    let Credentials { username, password } = body.into_inner();
    let key = users::username_key(&username);
    // A name no one can register is kept out of the per-account limits' memory.
    let account = validate_username(&username).is_ok().then_some(key.as_str());
    // A browser that logged in to this account before counts on its own allowance.
    let device = account.and_then(|a| devices.trusted(&req, a));
    guard.check_login(guard.client_ip(&req), account, device.as_deref())?;
    let user = blocking(hub.pool(), move |c| Ok(users::by_name(c, &username)?)).await?;
    // The computer players have no password: nobody logs in as them, and their
    // accounts answer like unknown names.
    // Nor as a guest: a guest's account lives in its browser's session alone.
    let user = user.filter(|u| u.kind != users::COMPUTER && u.kind != users::GUEST);
    // The connection is back in the pool before the slow part. Verify against something
    // even for unknown names, so timing says nothing.
    let stored = user
        .as_ref()
        .map_or(DUMMY_HASH, |u| u.password_hash.as_str())
        .to_string();
    let lane = if device.is_some() {
        Lane::KnownDevice
    } else {
        Lane::Anyone
    };
    let ok = guard.verify(lane, password, stored).await?;
    let user = match user {
        Some(u) if ok => u,
        _ => return Err(AppError::BadCredentials),
    };
    log_in(&req, &session, user.id)?;
    Ok(HttpResponse::Ok()
        .cookie(devices.after_login(&req, &user.username_key))
        .json(serde_json::json!({"username": user.username})))
}

// An argon2id hash of a random password nobody knows.
const DUMMY_HASH: &str = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$3ctFOEfnUAmjmRmUTcP9jK3qTzSfEY6gAo8yXsVaMw4";

/// Ends this session: the session store deletes its row, so the cookie no longer
/// logs anyone in, wherever a copy of it is.
pub async fn logout(session: Session) -> HttpResponse {
    session.purge();
    HttpResponse::NoContent().finish()
}

/// "Log out everywhere": ends every session of the player, this one too.
pub async fn logout_all(
    hub: web::Data<Arc<Hub>>,
    caller: Caller,
    session: Session,
) -> Result<HttpResponse, AppError> {
    // Sessions are a person's business; a bot's token does not end them.
    let id = caller.require_session()?;
    sessions::end_all(hub.pool(), id).await?;
    session.purge();
    Ok(HttpResponse::NoContent().finish())
}

pub async fn me(hub: web::Data<Arc<Hub>>, caller: Caller) -> Result<HttpResponse, AppError> {
    let id = caller.require()?;
    let player = blocking(hub.pool(), move |c| {
        let user = users::by_id(c, id)?.ok_or(AppError::NotLoggedIn)?;
        let stats = users::stats(c, id, "flip")?;
        Ok(PlayerStanding::of(&user, &stats))
    })
    .await?;
    Ok(HttpResponse::Ok().json(player))
}
