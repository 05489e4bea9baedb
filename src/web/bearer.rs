//! Who is asking: a bot by its API token (`Authorization: Bearer …`), else the player of
//! the session cookie. [`Caller`] is the one place handlers learn it.
//!
//! The middleware runs before the session is loaded. A request with a bearer token is
//! that token's bot account and nothing else: its `Cookie` header is dropped, so no
//! session can ride along on it. That is also why the Origin check lets such a request
//! through: the check exists because browsers attach cookies to requests other sites
//! make, while no browser attaches an `Authorization` header to a cross-site request
//! without a CORS preflight this server never grants. An unknown or revoked token is a
//! 401 `bad_token` at once, whatever the route.
//!
//! Unknown tokens are throttled per address like failed logins (`throttle::Guard`):
//! past the limit an address gets 429 with Retry-After before its token is looked up,
//! so a flood of guesses costs no database lookups.

use super::sessions::{USER_KEY, token_hash};
use super::throttle::Guard;
use crate::db::{self, tokens};
use crate::error::AppError;
use crate::live::{Hub, blocking};
use actix_session::SessionExt as _;
use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::http::header;
use actix_web::middleware::Next;
use actix_web::{Error, FromRequest, HttpMessage as _, HttpRequest, ResponseError, web};
use std::future::{Ready, ready};
use std::sync::Arc;

/// Set by the middleware on a request whose bearer token names a bot account.
#[derive(Debug, Clone, Copy)]
pub struct TokenUser(pub i64);

/// The token of an `Authorization: Bearer …` header. `Some("")` for a header that says
/// Bearer with no token (refused like an unknown one); `None` without such a header.
fn bearer_token(req: &ServiceRequest) -> Option<String> {
    let value = req.headers().get(header::AUTHORIZATION)?;
    let text = value.to_str().unwrap_or("").trim();
    let (scheme, rest) = text.split_once(' ').unwrap_or((text, ""));
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| rest.trim().to_string())
}

/// The middleware: finds the account of a bearer token, or answers 401 `bad_token`.
/// (An answer, not an `Err`, so that the middleware around it add their headers.)
pub async fn authenticate(
    mut req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, Error> {
    let Some(token) = bearer_token(&req) else {
        return Ok(next.call(req).await?.map_into_left_body());
    };
    let ip = req
        .app_data::<web::Data<Guard>>()
        .map(|g| (g.clone(), g.client_ip(req.request())));
    if let Some((guard, ip)) = &ip
        && let Err(e) = guard.check_token(*ip)
    {
        return Ok(refuse(req, e));
    }
    let user = match req.app_data::<web::Data<Arc<Hub>>>() {
        Some(hub) if !token.is_empty() => {
            let hash = token_hash(&token);
            blocking(hub.pool(), move |c| {
                Ok(tokens::user_of(c, &hash, db::now_ms())?)
            })
            .await
        }
        _ => Ok(None),
    };
    let user = match user {
        Ok(Some(user)) => user,
        Ok(None) => {
            let refused = match &ip {
                Some((guard, ip)) => guard.bad_token(*ip).err(),
                None => None,
            };
            return Ok(refuse(req, refused.unwrap_or(AppError::BadToken)));
        }
        Err(e) => return Ok(refuse(req, e)),
    };
    req.headers_mut().remove(header::COOKIE);
    req.extensions_mut().insert(TokenUser(user));
    Ok(next.call(req).await?.map_into_left_body())
}

fn refuse<B>(req: ServiceRequest, e: AppError) -> ServiceResponse<EitherBody<B>> {
    req.into_response(e.error_response()).map_into_right_body()
}

/// Whether the middleware found a bearer token's account for this request.
pub fn by_token(req: &HttpRequest) -> bool {
    req.extensions().get::<TokenUser>().is_some()
}

/// The account a request acts for, if any, and how it was authenticated.
#[derive(Debug, Clone, Copy)]
pub struct Caller {
    id: Option<i64>,
    by_token: bool,
}

impl Caller {
    pub fn of(req: &HttpRequest) -> Caller {
        if let Some(TokenUser(id)) = req.extensions().get::<TokenUser>().copied() {
            return Caller {
                id: Some(id),
                by_token: true,
            };
        }
        let id = req.get_session().get::<i64>(USER_KEY).ok().flatten();
        Caller {
            id,
            by_token: false,
        }
    }

    /// The account, if the request has one.
    pub fn id(&self) -> Option<i64> {
        self.id
    }

    /// The account, or 401 `not_logged_in`.
    pub fn require(&self) -> Result<i64, AppError> {
        self.id.ok_or(AppError::NotLoggedIn)
    }

    /// The account of a logged-in person's session, not of a token: what manages the
    /// tokens themselves, so that a leaked token cannot make more or outlive its
    /// revocation. 403 for a token.
    pub fn require_session(&self) -> Result<i64, AppError> {
        if self.by_token {
            return Err(AppError::Forbidden(
                "this needs the account's login session, not an API token".into(),
            ));
        }
        self.require()
    }
}

impl FromRequest for Caller {
    type Error = Error;
    type Future = Ready<Result<Caller, Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(Ok(Caller::of(req)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    fn token_of(authorization: Option<&str>) -> Option<String> {
        let mut r = TestRequest::get();
        if let Some(a) = authorization {
            r = r.insert_header((header::AUTHORIZATION, a));
        }
        bearer_token(&r.to_srv_request())
    }

    #[test]
    fn which_headers_carry_a_token() {
        assert_eq!(token_of(None), None);
        assert_eq!(token_of(Some("Bearer abc")).as_deref(), Some("abc"));
        assert_eq!(token_of(Some("bearer  abc ")).as_deref(), Some("abc"));
        // Said to be a bearer token, but none: refused like an unknown one.
        assert_eq!(token_of(Some("Bearer")).as_deref(), Some(""));
        // Another scheme is not ours to judge: the request goes on without a token.
        assert_eq!(token_of(Some("Basic dXNlcjpwYXNz")), None);
    }
}
