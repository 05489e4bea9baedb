//! Bot accounts: marking one's account as a bot (or back), and its API tokens — made
//! at random and shown once, kept only as their SHA-256, listed by name, revoked by
//! deleting them. All of it needs the person's login session, never a token (see
//! `bearer::Caller::require_session`). The page is `/bot`.

use super::assets::filters;
use super::auth::{Account, account};
use super::bearer::Caller;
use super::i18n::Lang;
use super::sessions::{new_token, token_hash};
use crate::db::kinds::{self, BOT, Change, PERSON};
use crate::db::tokens::{self, TokenInfo};
use crate::db::{self, DbConn};
use crate::error::AppError;
use crate::live::{Hub, blocking};
use actix_web::http::header;
use actix_web::{HttpResponse, web};
use askama::Template;
use serde::Deserialize;
use serde_json::json;
use std::sync::Arc;

/// Tokens one bot may hold: one per machine or version it runs, a few spare for
/// rotating them.
pub const MAX_TOKENS: i64 = 10;

/// What every token starts with, so that one pasted somewhere it should not be is
/// easy to recognise (and for secret scanners to find).
pub const TOKEN_PREFIX: &str = "junqi_bot_";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KindRequest {
    kind: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewToken {
    name: String,
}

/// A token's name as stored: trimmed, 1–40 characters, none of them hidden or
/// reordering text (control, bidi, zero-width, variation selectors:
/// [`crate::text::hidden_or_reordering`]), since the list of tokens shows it.
fn check_name(name: &str) -> Result<String, AppError> {
    let name = name.trim();
    let n = name.chars().count();
    if !(1..=40).contains(&n) {
        return Err(AppError::BadRequest(
            "a token's name has 1 to 40 characters (say where the bot runs)".into(),
        ));
    }
    if let Some(c) = crate::text::first_hidden(name) {
        return Err(AppError::BadRequest(format!(
            "a token's name cannot hold control, bidirectional or invisible characters ({})",
            crate::text::code_point(c)
        )));
    }
    Ok(name.to_string())
}

/// The account's kind and tokens, as `GET /api/bot` answers.
fn overview(c: &mut DbConn, user: i64) -> Result<serde_json::Value, AppError> {
    let kind = kinds::of(c, user)?.ok_or(AppError::NotLoggedIn)?;
    let list = tokens::list(c, user)?;
    Ok(json!({"kind": kind, "tokens": list, "max_tokens": MAX_TOKENS}))
}

/// `GET /api/bot`: `{kind, tokens: [{id, name, created_at, last_used_at}], max_tokens}`.
pub async fn get(hub: web::Data<Arc<Hub>>, caller: Caller) -> Result<HttpResponse, AppError> {
    let user = caller.require_session()?;
    let v = blocking(hub.pool(), move |c| overview(c, user)).await?;
    Ok(HttpResponse::Ok().json(v))
}

/// `POST /api/bot/kind` with `{"kind": "bot"}` or `{"kind": "person"}`.
pub async fn set_kind(
    hub: web::Data<Arc<Hub>>,
    caller: Caller,
    body: web::Json<KindRequest>,
) -> Result<HttpResponse, AppError> {
    let user = caller.require_session()?;
    let to = match body.kind.as_str() {
        BOT => BOT,
        PERSON => PERSON,
        _ => {
            return Err(AppError::BadRequest("kind is \"bot\" or \"person\"".into()));
        }
    };
    // No game can be opened or joined by this account while its kind changes.
    let _mine = hub.seat_lock(user).await;
    let change = blocking(hub.pool(), move |c| Ok(kinds::change(c, user, to)?)).await?;
    match change {
        Change::Done => Ok(HttpResponse::Ok().json(json!({"kind": to}))),
        Change::NoSuchUser => Err(AppError::NotLoggedIn),
        Change::Computer => Err(AppError::Forbidden(
            "the site's computer players stay what they are".into(),
        )),
        Change::Rated => Err(AppError::Conflict(
            "this account has played rated games, so its rating belongs to its kind for \
             good; register another account for a bot"
                .into(),
        )),
        Change::Guest => Err(AppError::Forbidden(
            "a guest account becomes a person's or a bot only by registering first".into(),
        )),
        Change::InHand => Err(AppError::Conflict(
            "finish or cancel this account's open and running games first".into(),
        )),
    }
}

/// `POST /api/bot/tokens` with `{"name": …}`: 201 with the token, shown this once.
pub async fn create_token(
    hub: web::Data<Arc<Hub>>,
    caller: Caller,
    body: web::Json<NewToken>,
) -> Result<HttpResponse, AppError> {
    let user = caller.require_session()?;
    let name = check_name(&body.name)?;
    let token = format!("{TOKEN_PREFIX}{}", new_token());
    let hash = token_hash(&token);
    let _mine = hub.seat_lock(user).await;
    let made = blocking(hub.pool(), move |c| {
        if kinds::of(c, user)?.as_deref() != Some(BOT) {
            return Err(AppError::Forbidden(
                "API tokens are for bot accounts; mark this account as a bot first".into(),
            ));
        }
        tokens::create(c, user, &name, &hash, db::now_ms(), MAX_TOKENS)?.ok_or_else(|| {
            AppError::Limit(
                "too_many_tokens",
                format!("a bot holds at most {MAX_TOKENS} tokens; revoke one first"),
            )
        })
    })
    .await?;
    let TokenInfo {
        id,
        name,
        created_at,
        last_used_at,
    } = made;
    Ok(HttpResponse::Created().json(json!({
        "id": id, "name": name, "created_at": created_at, "last_used_at": last_used_at,
        "token": token,
    })))
}

/// `GET /api/bot/tokens`: the tokens by name, never the tokens themselves.
pub async fn list_tokens(
    hub: web::Data<Arc<Hub>>,
    caller: Caller,
) -> Result<HttpResponse, AppError> {
    let user = caller.require_session()?;
    let list = blocking(hub.pool(), move |c| Ok(tokens::list(c, user)?)).await?;
    Ok(HttpResponse::Ok().json(list))
}

/// `DELETE /api/bot/tokens/{id}`: the token stops working at once (its next request,
/// or socket upgrade, is a 401). Sockets it opened before stay open until they close.
pub async fn revoke_token(
    hub: web::Data<Arc<Hub>>,
    caller: Caller,
    path: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let user = caller.require_session()?;
    let id = path.into_inner();
    let gone = blocking(hub.pool(), move |c| Ok(tokens::revoke(c, user, id)?)).await?;
    if !gone {
        return Err(AppError::NotFound(format!("you have no token {id}")));
    }
    Ok(HttpResponse::NoContent().finish())
}

pub struct TokenRow {
    pub id: i64,
    pub name: String,
    pub created: String,
    pub last_used: String,
}

#[derive(Template)]
#[template(path = "bot.html")]
struct BotPage {
    user: Option<Account>,
    title: String,
    en: bool,
    kind: String,
    tokens: Vec<TokenRow>,
    max_tokens: i64,
}

/// `GET /bot`: the settings of one's own account as a bot.
pub async fn page(
    hub: web::Data<Arc<Hub>>,
    caller: Caller,
    session: actix_session::Session,
    lang: Lang,
) -> Result<HttpResponse, AppError> {
    let Ok(uid) = caller.require_session() else {
        let to = if lang.en {
            "/login?next=%2Fbot&lang=en"
        } else {
            "/login?next=%2Fbot"
        };
        return Ok(HttpResponse::SeeOther()
            .insert_header((header::LOCATION, to))
            .finish());
    };
    let (kind, list) = blocking(hub.pool(), move |c| {
        let kind = kinds::of(c, uid)?.ok_or(AppError::NotLoggedIn)?;
        Ok((kind, tokens::list(c, uid)?))
    })
    .await?;
    let page = BotPage {
        user: account(&hub, &session).await,
        title: if lang.en {
            "Bot account".into()
        } else {
            "机器人账号".into()
        },
        en: lang.en,
        kind,
        tokens: list
            .into_iter()
            .map(|t| TokenRow {
                id: t.id,
                name: t.name,
                created: super::history::date(Some(t.created_at)),
                last_used: super::history::date(t.last_used_at),
            })
            .collect(),
        max_tokens: MAX_TOKENS,
    };
    Ok(lang.html(page.render().map_err(AppError::internal)?))
}
