//! The application's errors. `web::error` is the one place they become HTTP answers.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AppError {
    BadRequest(String),
    InvalidUsername(String),
    InvalidPassword(String),
    InvalidDisplayName(String),
    /// A figure (角色秀) not in the set a player may pick (`crate::avatars`).
    InvalidAvatar(String),
    BadOption(String),
    NotLoggedIn,
    BadCredentials,
    /// An `Authorization: Bearer` token that is unknown or has been revoked.
    BadToken,
    /// A rated game between accounts of different kinds (a bot and a person): ratings
    /// are kept apart, so such games are casual only.
    NotRatedTogether(String),
    /// A rated game asked for by a guest (403): guests play casual games only, until
    /// they register.
    GuestCasualOnly,
    Forbidden(String),
    /// Refused for a reason its code names (403): a block, a guest where an account is
    /// needed.
    Refused(&'static str, String),
    BadOrigin,
    NotFound(String),
    UsernameTaken,
    Conflict(String),
    /// A per-player limit was reached (409): the code names which one.
    Limit(&'static str, String),
    /// The thing asked about has moved on (409), as its code says: a challenge already
    /// answered, or one still waiting.
    Moved(&'static str, String),
    TooLarge,
    /// Past a cap on open sockets (per address or per player).
    TooManySockets(String),
    /// Full for now (a game's sockets); try again later.
    Unavailable(String),
    /// Too many attempts, or too many logins waiting to be checked: try again after
    /// this many seconds.
    RateLimited(u64),
    /// The cause is logged, never shown.
    Internal(String),
}

impl AppError {
    pub fn code(&self) -> &'static str {
        match self {
            AppError::BadRequest(_) => "bad_request",
            AppError::InvalidUsername(_) => "invalid_username",
            AppError::InvalidPassword(_) => "invalid_password",
            AppError::InvalidDisplayName(_) => "invalid_display_name",
            AppError::InvalidAvatar(_) => "invalid_avatar",
            AppError::BadOption(_) => "bad_option",
            AppError::NotLoggedIn => "not_logged_in",
            AppError::BadCredentials => "bad_credentials",
            AppError::BadToken => "bad_token",
            AppError::NotRatedTogether(_) => "not_rated_together",
            AppError::GuestCasualOnly => "guest_casual_only",
            AppError::Forbidden(_) => "forbidden",
            AppError::BadOrigin => "bad_origin",
            AppError::NotFound(_) => "not_found",
            AppError::UsernameTaken => "username_taken",
            AppError::Conflict(_) => "conflict",
            AppError::Limit(code, _) | AppError::Refused(code, _) | AppError::Moved(code, _) => {
                code
            }
            AppError::TooLarge => "too_large",
            AppError::TooManySockets(_) => "too_many_sockets",
            AppError::Unavailable(_) => "unavailable",
            AppError::RateLimited(_) => "rate_limited",
            AppError::Internal(_) => "internal",
        }
    }

    pub fn message(&self) -> String {
        match self {
            AppError::BadRequest(m)
            | AppError::InvalidUsername(m)
            | AppError::InvalidPassword(m)
            | AppError::InvalidDisplayName(m)
            | AppError::InvalidAvatar(m)
            | AppError::BadOption(m)
            | AppError::Forbidden(m)
            | AppError::NotFound(m)
            | AppError::Conflict(m)
            | AppError::NotRatedTogether(m)
            | AppError::Limit(_, m)
            | AppError::Refused(_, m)
            | AppError::Moved(_, m)
            | AppError::TooManySockets(m)
            | AppError::Unavailable(m) => m.clone(),
            AppError::NotLoggedIn => "log in first".into(),
            AppError::BadCredentials => "wrong username or password".into(),
            AppError::BadToken => "the API token is unknown or has been revoked".into(),
            AppError::BadOrigin => {
                "requests that change something, and sockets, are accepted from this site's pages only"
                    .into()
            }
            AppError::UsernameTaken => "that username is taken".into(),
            AppError::GuestCasualOnly => "guests play casual games only: register (your games \
                                          stay yours) to play rated games"
                .into(),
            AppError::TooLarge => "the request is larger than 16 KiB".into(),
            AppError::RateLimited(s) => format!("too many requests; try again in {s} s"),
            AppError::Internal(_) => "something went wrong on the server".into(),
        }
    }

    pub fn internal(e: impl fmt::Display) -> AppError {
        AppError::Internal(e.to_string())
    }
}

impl fmt::Display for AppError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code(), self.message())
    }
}

impl std::error::Error for AppError {}

impl From<crate::db::DbError> for AppError {
    fn from(e: crate::db::DbError) -> AppError {
        AppError::internal(e)
    }
}

impl From<diesel::result::Error> for AppError {
    fn from(e: diesel::result::Error) -> AppError {
        AppError::internal(e)
    }
}
