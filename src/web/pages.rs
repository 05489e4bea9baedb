//! Server-rendered pages. The board and the live parts are drawn by the page's script
//! from the API and the sockets.

use super::assets::filters;
use super::auth::{Account, account};
use super::i18n::Lang;
use crate::error::AppError;
use crate::live::{Hub, blocking};
use actix_session::Session;
use actix_web::{HttpResponse, web};
use askama::Template;
use std::sync::Arc;

#[derive(Template)]
#[template(path = "lobby.html")]
struct LobbyPage {
    user: Option<Account>,
    title: String,
    en: bool,
}

#[derive(Template)]
#[template(path = "auth.html")]
struct AuthPage {
    user: Option<Account>,
    title: String,
    en: bool,
    register: bool,
}

#[derive(Template)]
#[template(path = "game.html")]
struct GamePage {
    user: Option<Account>,
    title: String,
    en: bool,
    game_id: String,
}

/// A 四国 table's page: the same fields, another template (templates/table.html).
#[derive(Template)]
#[template(path = "table.html")]
struct TablePage {
    user: Option<Account>,
    title: String,
    en: bool,
    game_id: String,
}

#[derive(Template)]
#[template(path = "rules.html")]
struct RulesPage {
    user: Option<Account>,
    title: String,
    en: bool,
    /// The four-player section's diagrams, drawn here from the rules core's board.
    siguo: &'static super::rules_diagrams::Diagrams,
    board: &'static super::rules_facts::BoardFacts,
    score: &'static super::rules_facts::ScoreFacts,
}

pub(super) fn html(lang: Lang, t: &impl Template) -> Result<HttpResponse, AppError> {
    Ok(lang.html(t.render().map_err(AppError::internal)?))
}

pub(super) fn pick(lang: Lang, zh: &str, en: &str) -> String {
    if lang.en { en.into() } else { zh.into() }
}

pub async fn lobby(
    hub: web::Data<Arc<Hub>>,
    session: Session,
    lang: Lang,
) -> Result<HttpResponse, AppError> {
    let page = LobbyPage {
        user: account(&hub, &session).await,
        title: pick(lang, "大厅", "Lobby"),
        en: lang.en,
    };
    html(lang, &page)
}

pub async fn rules(
    hub: web::Data<Arc<Hub>>,
    session: Session,
    lang: Lang,
) -> Result<HttpResponse, AppError> {
    let page = RulesPage {
        user: account(&hub, &session).await,
        title: pick(lang, "规则", "Rules"),
        en: lang.en,
        siguo: super::rules_diagrams::diagrams(lang.en),
        board: &super::rules_facts::FACTS,
        score: &super::rules_facts::SCORES,
    };
    html(lang, &page)
}

pub async fn login(
    hub: web::Data<Arc<Hub>>,
    session: Session,
    lang: Lang,
) -> Result<HttpResponse, AppError> {
    let page = AuthPage {
        user: account(&hub, &session).await,
        title: pick(lang, "登录", "Log in"),
        en: lang.en,
        register: false,
    };
    html(lang, &page)
}

pub async fn register(
    hub: web::Data<Arc<Hub>>,
    session: Session,
    lang: Lang,
) -> Result<HttpResponse, AppError> {
    let page = AuthPage {
        user: account(&hub, &session).await,
        title: pick(lang, "注册", "Register"),
        en: lang.en,
        register: true,
    };
    html(lang, &page)
}

pub async fn game(
    hub: web::Data<Arc<Hub>>,
    session: Session,
    path: web::Path<String>,
    lang: Lang,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let lookup = id.clone();
    let variant = blocking(hub.pool(), move |c| {
        Ok(crate::db::games::get(c, &lookup)?.map(|row| row.variant))
    })
    .await?;
    let Some(variant) = variant else {
        return Err(AppError::NotFound(format!(
            "no game {}",
            crate::quote::quoted(&id)
        )));
    };
    let user = account(&hub, &session).await;
    if variant == "siguo" {
        let page = TablePage {
            user,
            title: format!("{} {id}", pick(lang, "四国军棋", "Four-player game")),
            en: lang.en,
            game_id: id,
        };
        return html(lang, &page);
    }
    let page = GamePage {
        user,
        title: format!("{} {id}", pick(lang, "对局", "Game")),
        en: lang.en,
        game_id: id,
    };
    html(lang, &page)
}
