//! The one place application errors become HTTP answers.

use crate::error::AppError;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use serde_json::json;

impl ResponseError for AppError {
    fn status_code(&self) -> StatusCode {
        match self {
            AppError::BadRequest(_)
            | AppError::InvalidUsername(_)
            | AppError::InvalidPassword(_)
            | AppError::InvalidDisplayName(_)
            | AppError::BadOption(_) => StatusCode::BAD_REQUEST,
            AppError::NotLoggedIn | AppError::BadCredentials | AppError::BadToken => {
                StatusCode::UNAUTHORIZED
            }
            AppError::Forbidden(_) | AppError::BadOrigin | AppError::NotRatedTogether(_) => {
                StatusCode::FORBIDDEN
            }
            AppError::NotFound(_) => StatusCode::NOT_FOUND,
            AppError::UsernameTaken | AppError::Conflict(_) | AppError::Limit(..) => {
                StatusCode::CONFLICT
            }
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
        res.json(json!({"error": {"code": self.code(), "message": self.message()}}))
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
