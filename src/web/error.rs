//! The one place application errors become HTTP answers.
//!
//! The API answers `{"error": {code, message}}`; the pages' scope answers the same
//! status as a page of the site ([`as_page`]).

use super::assets::filters;
use super::auth::{Account, account};
use super::i18n::Lang;
use crate::error::AppError;
use crate::live::Hub;
use crate::quote::{MESSAGE_CHARS, clipped};
use actix_session::SessionExt as _;
use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::{StatusCode, header};
use actix_web::middleware::Next;
use actix_web::{FromRequest as _, HttpResponse, ResponseError, web};
use askama::Template;
use serde_json::json;
use std::sync::Arc;

impl ResponseError for AppError {
    fn status_code(&self) -> StatusCode {
        match self {
            AppError::BadRequest(_)
            | AppError::InvalidUsername(_)
            | AppError::InvalidPassword(_)
            | AppError::InvalidDisplayName(_)
            | AppError::InvalidAvatar(_)
            | AppError::BadOption(_) => StatusCode::BAD_REQUEST,
            AppError::NotLoggedIn | AppError::BadCredentials | AppError::BadToken => {
                StatusCode::UNAUTHORIZED
            }
            AppError::Forbidden(_)
            | AppError::Refused(..)
            | AppError::BadOrigin
            | AppError::NotRatedTogether(_)
            | AppError::GuestCasualOnly => StatusCode::FORBIDDEN,
            AppError::NotFound(_) => StatusCode::NOT_FOUND,
            AppError::UsernameTaken
            | AppError::Conflict(_)
            | AppError::Limit(..)
            | AppError::Moved(..) => StatusCode::CONFLICT,
            AppError::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            AppError::TooManySockets(_) => StatusCode::TOO_MANY_REQUESTS,
            AppError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            AppError::RateLimited(_) => StatusCode::TOO_MANY_REQUESTS,
            AppError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        if let AppError::Internal(cause) = self {
            tracing::error!(%cause, "internal error");
        }
        let mut res = HttpResponse::build(self.status_code());
        if let AppError::BadToken = self {
            res.insert_header((
                actix_web::http::header::WWW_AUTHENTICATE,
                "Bearer error=\"invalid_token\"",
            ));
        }
        if let AppError::RateLimited(seconds) = self {
            res.insert_header((actix_web::http::header::RETRY_AFTER, seconds.to_string()));
        }
        // Every message is bounded, whatever it quotes (crate::quote).
        let message = clipped(&self.message(), MESSAGE_CHARS).into_owned();
        res.json(json!({"error": {"code": self.code(), "message": message}}))
    }
}

impl From<actix_web::error::BlockingError> for AppError {
    fn from(e: actix_web::error::BlockingError) -> AppError {
        AppError::internal(e)
    }
}

/// Turns actix's JSON extractor failures into our errors, so a malformed body gets the
/// same `{"error": …}` shape as everything else.
pub fn json_error(
    err: actix_web::error::JsonPayloadError,
    _: &actix_web::HttpRequest,
) -> actix_web::Error {
    use actix_web::error::JsonPayloadError as J;
    let e = match &err {
        J::OverflowKnownLength { .. } | J::Overflow { .. } => AppError::TooLarge,
        J::ContentType => {
            AppError::BadRequest("send a JSON body with Content-Type: application/json".into())
        }
        other => AppError::BadRequest(format!("malformed JSON: {other}")),
    };
    e.into()
}

pub fn query_error(
    err: actix_web::error::QueryPayloadError,
    _: &actix_web::HttpRequest,
) -> actix_web::Error {
    AppError::BadRequest(format!("bad query string: {err}")).into()
}

pub fn path_error(
    err: actix_web::error::PathError,
    _: &actix_web::HttpRequest,
) -> actix_web::Error {
    AppError::BadRequest(format!("bad path: {err}")).into()
}

// ---------------------------------------------------------------------------------
// The pages' errors: the same status, as a page

/// An error answered as a page: the site's header, what went wrong in the visitor's
/// language, the server's message (English) and a way back.
#[derive(Template)]
#[template(path = "error.html")]
struct ErrorPage {
    user: Option<Account>,
    title: String,
    en: bool,
    status: u16,
    code: String,
    explanation: &'static str,
    detail: Option<String>,
}

/// The page's heading and sentence for a status, in Chinese and in English.
fn words(status: StatusCode) -> [(&'static str, &'static str); 2] {
    match status.as_u16() {
        400 => [
            ("请求有误", "这个地址里的参数不对。"),
            ("Bad request", "Something in the address is not right."),
        ],
        401 => [
            ("请先登录", "登录后才能做这件事。"),
            ("Log in first", "This is for logged-in players."),
        ],
        403 => [
            ("无权访问", "这不是你能查看或更改的内容。"),
            ("Not allowed", "This is not yours to see or change."),
        ],
        404 => [
            ("找不到页面", "没有这个对局、玩家或页面。"),
            ("Not found", "There is no such game, player or page."),
        ],
        409 => [
            ("无法完成", "这与现在的状态冲突。"),
            ("Conflict", "That cannot be done as things stand."),
        ],
        413 => [
            ("内容太大", "发送的内容超过了 16 KiB。"),
            ("Too large", "What was sent is larger than 16 KiB."),
        ],
        429 => [
            ("请求过多", "请稍等片刻再试。"),
            ("Too many requests", "Please wait a moment and try again."),
        ],
        500.. => [
            ("服务器出错", "服务器暂时无法完成这个请求，请稍后再试。"),
            (
                "Server error",
                "The server could not answer just now; please try again later.",
            ),
        ],
        _ => [
            ("请求未完成", "这个请求没有完成。"),
            (
                "Request not completed",
                "The request could not be completed.",
            ),
        ],
    }
}

/// The middleware of the pages' scope (server.rs): an error answer that is not a page
/// already (the profile's refused form is one) becomes the error page, with its status
/// and headers (`Retry-After`, …) kept. The API's scope has none: it answers JSON.
pub async fn as_page(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let res = next.call(req).await?;
    let status = res.status();
    let is_page = res
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"));
    if is_page || !(status.is_client_error() || status.is_server_error()) {
        return Ok(res.map_into_boxed_body());
    }
    let (req, res) = res.into_parts();
    let app_error = res.error().and_then(|e| e.as_error::<AppError>());
    let code = app_error.map_or_else(
        || {
            status
                .canonical_reason()
                .unwrap_or("error")
                .to_ascii_lowercase()
                .replace(' ', "_")
        },
        |e| e.code().to_string(),
    );
    let detail = match app_error {
        None | Some(AppError::Internal(_)) => None,
        Some(e) => Some(clipped(&e.message(), MESSAGE_CHARS).into_owned()),
    };
    let lang = Lang::extract(&req).await?;
    let user = match req.app_data::<web::Data<Arc<Hub>>>() {
        Some(hub) => account(hub, &req.get_session()).await,
        None => None,
    };
    let [zh, en] = words(status);
    let (heading, explanation) = if lang.en { en } else { zh };
    let page = ErrorPage {
        user,
        title: format!("{} {heading}", status.as_u16()),
        en: lang.en,
        status: status.as_u16(),
        code,
        explanation,
        detail,
    };
    let body = match page.render() {
        Ok(body) => body,
        Err(e) => {
            tracing::error!(error = %e, "cannot render the error page");
            return Ok(ServiceResponse::new(req, res.map_into_boxed_body()));
        }
    };
    let mut res = res.set_body(BoxBody::new(body));
    res.headers_mut().insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("text/html; charset=utf-8"),
    );
    Ok(ServiceResponse::new(req, res))
}

/// A page address that names nothing.
pub async fn no_such_page() -> Result<HttpResponse, AppError> {
    Err(AppError::NotFound("no such page".into()))
}

/// An API address that names nothing.
pub async fn no_such_route() -> Result<HttpResponse, AppError> {
    Err(AppError::NotFound("no such API route".into()))
}
