//! The social layer over HTTP: follows and blocks by name, challenges, and the
//! `/friends` page (whom one follows, online and playing, with a challenge button; whom
//! one blocks). The rules are in `crate::live::social` and `crate::live::challenges`.

use super::api::NewGame;
use super::assets::filters;
use super::auth::{Account, account, user_id};
use super::bearer::Caller;
use super::i18n::Lang;
use super::pages::{html, pick};
use crate::error::AppError;
use crate::live::Hub;
use crate::live::challenges::{self, Terms};
use crate::live::social::{Friend, Person};
use actix_session::Session;
use actix_web::{HttpResponse, web};
use askama::Template;
use serde::Deserialize;
use serde_json::json;
use std::sync::Arc;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Named {
    name: String,
}

/// `POST /api/follows {"name"}`: follow a player (again: no change).
pub async fn follow(
    hub: web::Data<Arc<Hub>>,
    caller: Caller,
    body: web::Json<Named>,
) -> Result<HttpResponse, AppError> {
    hub.set_follow(caller.require()?, &body.name, true).await?;
    Ok(HttpResponse::Ok().json(json!({"following": true})))
}

/// `DELETE /api/follows/{name}`.
pub async fn unfollow(
    hub: web::Data<Arc<Hub>>,
    caller: Caller,
    path: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    hub.set_follow(caller.require()?, &path, false).await?;
    Ok(HttpResponse::Ok().json(json!({"following": false})))
}

/// `POST /api/blocks {"name"}`: block a player, which cancels the challenges pending
/// between the two.
pub async fn block(
    hub: web::Data<Arc<Hub>>,
    caller: Caller,
    body: web::Json<Named>,
) -> Result<HttpResponse, AppError> {
    hub.set_block(caller.require()?, &body.name, true).await?;
    Ok(HttpResponse::Ok().json(json!({"blocked": true})))
}

/// `DELETE /api/blocks/{name}`.
pub async fn unblock(
    hub: web::Data<Arc<Hub>>,
    caller: Caller,
    path: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    hub.set_block(caller.require()?, &path, false).await?;
    Ok(HttpResponse::Ok().json(json!({"blocked": false})))
}

/// `GET /api/friends`: whom the caller follows (online, playing) and blocks.
pub async fn friends(hub: web::Data<Arc<Hub>>, caller: Caller) -> Result<HttpResponse, AppError> {
    let user = caller.require()?;
    let following = hub.friends(user).await?;
    let blocked = hub.blocked_people(user).await?;
    Ok(HttpResponse::Ok().json(json!({"following": following, "blocked": blocked})))
}

/// `POST /api/challenges {"to", "variant", "seconds_per_action", "rated"}`: 201 with
/// the challenge's id.
pub async fn create(
    hub: web::Data<Arc<Hub>>,
    caller: Caller,
    body: web::Json<serde_json::Value>,
) -> Result<HttpResponse, AppError> {
    let user = caller.require()?;
    // `deny_unknown_fields` does not reach through `flatten`: the two parts are read
    // apart, so that a misspelt field is refused rather than ignored.
    let mut fields = body.into_inner();
    let to = match fields.as_object_mut().and_then(|o| o.remove("to")) {
        Some(serde_json::Value::String(to)) => to,
        _ => {
            return Err(AppError::BadRequest(
                "\"to\" names the player to challenge".into(),
            ));
        }
    };
    let game: NewGame = serde_json::from_value(fields)
        .map_err(|e| AppError::BadRequest(format!("the challenge's settings: {e}")))?;
    game.check()?;
    if game.computer.is_some() {
        return Err(AppError::BadOption(
            "a challenge is to a player: the computer is played from the lobby".into(),
        ));
    }
    let terms = Terms {
        variant: game.variant,
        seconds_per_action: game.seconds_per_action,
        rated: game.rated,
    };
    let id = hub.challenge(user, &to, terms).await?;
    Ok(HttpResponse::Created().json(json!({"id": id})))
}

/// `GET /api/challenges`: the caller's lists, as their lobby socket hears them.
pub async fn list(hub: web::Data<Arc<Hub>>, caller: Caller) -> Result<HttpResponse, AppError> {
    let msg = challenges::lists(hub.pool(), caller.require()?).await?;
    Ok(HttpResponse::Ok()
        .content_type("application/json")
        .body(msg.text()))
}

/// `POST /api/challenges/{id}/accept`: the game starts; its id.
pub async fn accept(
    hub: web::Data<Arc<Hub>>,
    caller: Caller,
    path: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    let game = hub.accept_challenge(caller.require()?, &path).await?;
    Ok(HttpResponse::Ok().json(json!({"game": game})))
}

/// `POST /api/challenges/{id}/decline`.
pub async fn decline(
    hub: web::Data<Arc<Hub>>,
    caller: Caller,
    path: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    hub.decide_challenge(caller.require()?, &path, true).await?;
    Ok(HttpResponse::Ok().json(json!({"status": "declined"})))
}

/// `POST /api/challenges/{id}/cancel`.
pub async fn cancel(
    hub: web::Data<Arc<Hub>>,
    caller: Caller,
    path: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    hub.decide_challenge(caller.require()?, &path, false)
        .await?;
    Ok(HttpResponse::Ok().json(json!({"status": "cancelled"})))
}

/// `GET /api/watch-permits`: whom the caller lets see their pieces (指定旁观).
pub async fn watch_list(
    hub: web::Data<Arc<Hub>>,
    caller: Caller,
) -> Result<HttpResponse, AppError> {
    let people = hub.watch_list(caller.require()?).await?;
    Ok(HttpResponse::Ok().json(json!({"allowed": people})))
}

/// `POST /api/watch-permits {"name"}`: let a player see the caller's pieces when they
/// watch the caller's games, from the next message on (again: no change).
pub async fn allow_watcher(
    hub: web::Data<Arc<Hub>>,
    caller: Caller,
    body: web::Json<Named>,
) -> Result<HttpResponse, AppError> {
    hub.set_watch_permit(caller.require()?, &body.name, true)
        .await?;
    Ok(HttpResponse::Ok().json(json!({"allowed": true})))
}

/// `DELETE /api/watch-permits/{name}`.
pub async fn disallow_watcher(
    hub: web::Data<Arc<Hub>>,
    caller: Caller,
    path: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    hub.set_watch_permit(caller.require()?, &path, false)
        .await?;
    Ok(HttpResponse::Ok().json(json!({"allowed": false})))
}

#[derive(Template)]
#[template(path = "friends.html")]
struct FriendsPage {
    user: Option<Account>,
    title: String,
    en: bool,
    following: Vec<Friend>,
    blocked: Vec<Person>,
    /// Whom one lets see one's pieces (指定旁观).
    watchers: Vec<Person>,
    /// None: the challenge form asks for the name.
    challenge_to: Option<String>,
}

/// `GET /friends`: whom one follows, online ones first, with their games and a
/// challenge button; whom one blocks.
pub async fn page(
    hub: web::Data<Arc<Hub>>,
    session: Session,
    lang: Lang,
) -> Result<HttpResponse, AppError> {
    let user = user_id(&session).ok_or(AppError::NotLoggedIn)?;
    let mut following = hub.friends(user).await?;
    following.sort_by_key(|f| (!f.online, f.playing.is_none()));
    let blocked = hub.blocked_people(user).await?;
    let page = FriendsPage {
        user: account(&hub, &session).await,
        title: pick(lang, "好友", "Friends"),
        en: lang.en,
        following,
        blocked,
        watchers: hub.watch_list(user).await?,
        challenge_to: None,
    };
    html(lang, &page)
}
