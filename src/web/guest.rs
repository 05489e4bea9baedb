//! Guest play (`POST /api/guest`): a visitor plays the computer, or a casual game
//! against people, at once, as 游客 and four digits, and may register later from the
//! same browser to keep everything (`db::guests`).
//!
//! A guest is an account of its own kind, so every per-player cap (open games, games
//! against the computer) applies to it as to anyone, and a rated game is refused
//! (`live::caps::rated_pool`); what stops one address from making guests without end,
//! and so caps without end, is the per-address limit on making them
//! (`Guard::check_guest`). Guests are not on the ladder (`db::users::OFF_LADDER`).

use super::auth::{log_in, user_id};
use super::throttle::Guard;
use crate::db::guests::{self, Claim};
use crate::db::users::{self, User};
use crate::error::AppError;
use crate::live::{Hub, blocking};
use actix_session::Session;
use actix_web::{HttpRequest, HttpResponse, web};
use std::sync::Arc;

fn answer(user: &User) -> serde_json::Value {
    serde_json::json!({
        "username": user.username,
        "display_name": user.display_name,
        "kind": user.kind,
    })
}

/// `POST /api/guest`: 201 with the new guest (`{username, display_name, kind}`),
/// logged in. A visitor already logged in (a guest too) gets 200 with who they are and
/// nothing is made: pressing the button twice does not make a second guest.
pub async fn start(
    req: HttpRequest,
    hub: web::Data<Arc<Hub>>,
    guard: web::Data<Guard>,
    session: Session,
) -> Result<HttpResponse, AppError> {
    if let Some(id) = user_id(&session) {
        let known = blocking(hub.pool(), move |c| Ok(users::by_id(c, id)?)).await?;
        if let Some(user) = known {
            return Ok(HttpResponse::Ok().json(answer(&user)));
        }
    }
    guard.check_guest(guard.client_ip(&req))?;
    let user = blocking(hub.pool(), |c| {
        guests::create(c, rand::random::<u32>)?.ok_or_else(|| {
            AppError::Unavailable("no guest name is free just now; try again".into())
        })
    })
    .await?;
    log_in(&req, &session, user.id)?;
    Ok(HttpResponse::Created().json(answer(&user)))
}

/// Registration from a logged-in session: a guest's account becomes the registered
/// one (same id, so its games, finished and running, stay its own without being
/// moved); anyone else gets a new account, as without a session.
pub async fn claim_or_create(
    hub: &Hub,
    session_user: i64,
    username: String,
    hash: String,
    display_name: Option<String>,
) -> Result<User, AppError> {
    // No game is opened or joined by this account while its kind changes.
    let _mine = hub.seat_lock(session_user).await;
    blocking(hub.pool(), move |c| {
        let shown = display_name.as_deref();
        match guests::claim(c, session_user, &username, &hash, shown)? {
            Claim::Done(user) => Ok(user),
            Claim::Taken => Err(AppError::UsernameTaken),
            Claim::NotAGuest => {
                users::create_named(c, &username, &hash, shown)?.ok_or(AppError::UsernameTaken)
            }
        }
    })
    .await
}
