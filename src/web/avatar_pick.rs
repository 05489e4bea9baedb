//! Picking one's figure (角色秀, `crate::avatars`): the `"avatar"` field of
//! `PATCH /api/me` (read beside the display name in display_name.rs) and the picker on
//! one's own profile (`POST /@/{name}/avatar`, a form that works without script).
//!
//! Each pick is a database write, and anyone can make an account (a guest in one
//! click), so picks are limited per player: a burst for someone trying the set on,
//! then one every few seconds. The limit runs on the rate clock (`rate_clock`), which
//! tests freeze.

use super::auth::{account, require_user};
use super::i18n::Lang;
use super::rate_clock::{KeyedLimiter, RateClock, keyed};
use crate::avatars::{Avatar, unknown_message};
use crate::db::users;
use crate::error::AppError;
use crate::live::{Hub, blocking};
use actix_session::Session;
use actix_web::http::header;
use actix_web::{HttpResponse, web};
use governor::Quota;
use serde::Deserialize;
use serde_json::Value;
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

/// Picks one player may make at once, and then one per `PICK_EVERY`.
pub const PICK_BURST: u32 = 12;
pub const PICK_EVERY: Duration = Duration::from_secs(5);

/// The keys kept before those that have recovered are dropped (a key is one player).
const KEEP_KEYS: usize = 10_000;

/// The per-player limit on picks (none when the server runs without rate limits).
pub struct AvatarLimit(Option<KeyedLimiter<i64>>);

impl AvatarLimit {
    pub fn new(rate_limits: bool, clock: &RateClock) -> AvatarLimit {
        let quota = Quota::with_period(PICK_EVERY)
            .expect("a period above zero")
            .allow_burst(NonZeroU32::new(PICK_BURST).expect("a burst above zero"));
        AvatarLimit(rate_limits.then(|| keyed(quota, clock)))
    }

    /// Counts one pick by `user_id`: 429 with the wait once past the limit.
    pub fn check(&self, user_id: i64) -> Result<(), AppError> {
        let Some(limiter) = &self.0 else {
            return Ok(());
        };
        if limiter.len() > KEEP_KEYS {
            limiter.retain_recent();
        }
        limiter
            .check_key(&user_id)
            .map_err(|not_until| AppError::RateLimited(limiter.clock().seconds_until(&not_until)))
    }
}

/// A picked name, checked against the set.
pub fn check(name: &str, en: bool) -> Result<Avatar, AppError> {
    Avatar::choice(name)
        .copied()
        .ok_or_else(|| AppError::InvalidAvatar(unknown_message(name, en)))
}

/// Takes the `"avatar"` field out of a `PATCH /api/me` body, checked: the figure (if
/// the body names one) and the rest of the body for the display name (`None` when the
/// avatar was all it held).
pub fn split_request(body: &Value) -> Result<(Option<Avatar>, Option<Value>), AppError> {
    let Some(obj) = body.as_object() else {
        return Ok((None, Some(body.clone())));
    };
    let avatar = match obj.get("avatar") {
        None => None,
        Some(Value::String(s)) => Some(check(s, true)?),
        Some(_) => {
            return Err(AppError::BadRequest(
                "\"avatar\" is the name of a figure, a string".into(),
            ));
        }
    };
    let mut rest = obj.clone();
    rest.remove("avatar");
    let rest = (avatar.is_none() || !rest.is_empty()).then_some(Value::Object(rest));
    Ok((avatar, rest))
}

#[derive(Deserialize)]
pub struct AvatarForm {
    avatar: String,
}

/// The picker on one's own profile: back to the profile once stored (303). A name not
/// in the set (the form offers only the set) is a 400 that changes nothing.
pub async fn profile_form(
    hub: web::Data<Arc<Hub>>,
    limit: web::Data<AvatarLimit>,
    session: Session,
    lang: Lang,
    path: web::Path<String>,
    form: web::Form<AvatarForm>,
) -> Result<HttpResponse, AppError> {
    let id = require_user(&session)?;
    let me = account(&hub, &session).await.ok_or(AppError::NotLoggedIn)?;
    if users::username_key(&me.username) != users::username_key(&path.into_inner()) {
        return Err(AppError::Forbidden(if lang.en {
            "a figure is picked on one's own profile".into()
        } else {
            "只能在自己的主页选择角色秀".into()
        }));
    }
    let avatar = check(&form.avatar, lang.en)?;
    limit.check(id)?;
    blocking(hub.pool(), move |c| {
        if !users::set_avatar(c, id, avatar.name)? {
            return Err(AppError::NotLoggedIn);
        }
        Ok(())
    })
    .await?;
    Ok(HttpResponse::SeeOther()
        .insert_header((header::LOCATION, format!("/@/{}", me.username)))
        .finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_avatar_is_taken_out_of_the_body_and_checked() {
        let (a, rest) = split_request(&json!({"avatar": "medic"})).unwrap();
        assert_eq!(a.unwrap().name, "medic");
        assert_eq!(rest, None, "nothing left for the display name");
        let (a, rest) = split_request(&json!({"avatar": "pilot", "display_name": "小明"})).unwrap();
        assert_eq!(a.unwrap().name, "pilot");
        assert_eq!(rest, Some(json!({"display_name": "小明"})));
        let (a, rest) = split_request(&json!({"display_name": null})).unwrap();
        assert!(a.is_none());
        assert_eq!(rest, Some(json!({"display_name": null})));
        assert_eq!(
            split_request(&json!({"avatar": "computer-hard"}))
                .unwrap_err()
                .code(),
            "invalid_avatar"
        );
        assert_eq!(
            split_request(&json!({"avatar": 3})).unwrap_err().code(),
            "bad_request"
        );
    }

    #[test]
    fn picks_past_the_burst_wait() {
        let clock = RateClock::frozen();
        let limit = AvatarLimit::new(true, &clock);
        for _ in 0..PICK_BURST {
            limit.check(1).unwrap();
        }
        assert_eq!(limit.check(1), Err(AppError::RateLimited(5)));
        limit
            .check(2)
            .expect("another player has their own allowance");
        clock.advance(PICK_EVERY);
        limit.check(1).expect("one more after the period");
        assert!(AvatarLimit::new(false, &clock).check(1).is_ok());
    }
}
