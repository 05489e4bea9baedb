//! Server-rendered pages. The board and the live parts are drawn by the page's script
//! from the API and the sockets.

use super::auth::username;
use crate::error::AppError;
use crate::live::{Hub, blocking};
use actix_session::Session;
use actix_web::{HttpResponse, web};
use askama::Template;
use std::sync::Arc;

#[derive(Template)]
#[template(path = "lobby.html")]
struct LobbyPage {
    user: Option<String>,
    title: String,
}

#[derive(Template)]
#[template(path = "auth.html")]
struct AuthPage {
    user: Option<String>,
    title: String,
    register: bool,
}

#[derive(Template)]
#[template(path = "game.html")]
struct GamePage {
    user: Option<String>,
    title: String,
    game_id: String,
}

fn html(t: &impl Template) -> Result<HttpResponse, AppError> {
    let body = t.render().map_err(AppError::internal)?;
    Ok(HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        .body(body))
}

pub async fn lobby(hub: web::Data<Arc<Hub>>, session: Session) -> Result<HttpResponse, AppError> {
    html(&LobbyPage {
        user: username(&hub, &session).await,
        title: "大厅".into(),
    })
}

pub async fn login(hub: web::Data<Arc<Hub>>, session: Session) -> Result<HttpResponse, AppError> {
    html(&AuthPage {
        user: username(&hub, &session).await,
        title: "登录".into(),
        register: false,
    })
}

pub async fn register(
    hub: web::Data<Arc<Hub>>,
    session: Session,
) -> Result<HttpResponse, AppError> {
    html(&AuthPage {
        user: username(&hub, &session).await,
        title: "注册".into(),
        register: true,
    })
}

pub async fn game(
    hub: web::Data<Arc<Hub>>,
    session: Session,
    path: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let lookup = id.clone();
    let exists = blocking(hub.pool(), move |c| {
        Ok(crate::db::games::get(c, &lookup)?.is_some())
    })
    .await?;
    if !exists {
        return Err(AppError::NotFound(format!("no game {id:?}")));
    }
    html(&GamePage {
        user: username(&hub, &session).await,
        title: format!("对局 {id}"),
        game_id: id,
    })
}
