//! Display names (昵称): a name in any script shown beside the ASCII login name, which
//! stays in URLs. Set with `PATCH /api/me` or the form on one's own profile.

use super::auth::require_user;
use super::avatar_pick::{AvatarLimit, split_request};
use super::bearer::Caller;
use super::drawn_width::{MAX_WIDTH, drawn_width};
use super::reserved_names::display_name_reserved;
use crate::avatars::Avatar;
use crate::db::users;
use crate::error::AppError;
use crate::live::{Hub, PlayerStanding, blocking};
use actix_session::Session;
use actix_web::{HttpResponse, web};
use serde_json::Value;
use std::sync::Arc;

/// The longest display name, in characters (Unicode scalar values) after trimming.
pub const MAX_CHARS: usize = 12;

/// Why a display name is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NameError {
    Empty,
    TooLong,
    /// Draws wider than twelve Chinese characters (`drawn_width`).
    TooWide,
    /// Passes for the site's computer players or a badge (`reserved_names`).
    Reserved,
    Char(char),
}

impl NameError {
    pub fn message(&self, en: bool) -> String {
        match (self, en) {
            (NameError::Empty, true) => {
                format!("a display name has 1 to {MAX_CHARS} characters (null removes it)")
            }
            (NameError::Empty, false) => format!("昵称需 1 到 {MAX_CHARS} 个字"),
            (NameError::TooLong, true) => {
                format!("a display name has at most {MAX_CHARS} characters")
            }
            (NameError::TooLong, false) => format!("昵称最多 {MAX_CHARS} 个字"),
            (NameError::TooWide, true) => {
                "a display name may be at most as wide as 12 Chinese characters".into()
            }
            (NameError::TooWide, false) => "昵称最宽不超过 12 个汉字".into(),
            (NameError::Reserved, true) => {
                "that display name is kept for the site's computer players and badges \
                 (电脑, 机器人, computer, bot)"
                    .into()
            }
            (NameError::Reserved, false) => {
                "这个昵称留给本站的电脑棋手和标记使用（电脑、机器人、computer、bot）".into()
            }
            (NameError::Char(c), true) => format!(
                "a display name may use letters, digits, spaces and _ - · only, not {}",
                shown(*c)
            ),
            (NameError::Char(c), false) => {
                format!("昵称只能用文字、数字、空格和 _ - ·，不能用 {}", shown(*c))
            }
        }
    }
}

/// A refused character as a message shows it: itself when visible, else its code point.
fn shown(c: char) -> String {
    if crate::text::hidden_or_reordering(c)
        || c.is_whitespace()
        || (!c.is_alphanumeric() && c as u32 > 0x7e)
    {
        crate::text::code_point(c)
    } else {
        format!("\"{c}\"")
    }
}

/// Letters of any script (CJK included), digits, the space and `_-·`. Control,
/// format (zero-width, bidi) and combining characters, symbols and emoji are refused,
/// so a name cannot hide, reorder or fake text around it. The shared check of every
/// name comes first: some blank characters (Hangul fillers) count as letters.
fn allowed(c: char) -> bool {
    !crate::text::hidden_or_reordering(c)
        && (c.is_alphanumeric() || matches!(c, ' ' | '_' | '-' | '·'))
}

/// The name as stored (trimmed), or why it is refused.
pub fn check(raw: &str) -> Result<String, NameError> {
    let name = raw.trim();
    if name.is_empty() {
        return Err(NameError::Empty);
    }
    if let Some(c) = name.chars().find(|&c| !allowed(c)) {
        return Err(NameError::Char(c));
    }
    if name.chars().count() > MAX_CHARS {
        return Err(NameError::TooLong);
    }
    if drawn_width(name) > MAX_WIDTH {
        return Err(NameError::TooWide);
    }
    if display_name_reserved(name) {
        return Err(NameError::Reserved);
    }
    Ok(name.to_string())
}

/// `{"display_name": "小明"}` sets, `{"display_name": null}` removes; nothing else.
fn parse_request(body: &Value) -> Result<Option<String>, AppError> {
    let bad = |m: &str| AppError::BadRequest(m.to_string());
    let obj = body
        .as_object()
        .ok_or_else(|| bad("send a JSON object: {\"display_name\": \"…\"} or null"))?;
    if let Some(k) = obj.keys().find(|k| *k != "display_name") {
        return Err(bad(&format!("unknown field {k:?}")));
    }
    match obj.get("display_name") {
        None => Err(bad("missing field \"display_name\"")),
        Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => check(s)
            .map(Some)
            .map_err(|e| AppError::InvalidDisplayName(e.message(true))),
        Some(_) => Err(bad("\"display_name\" is a string or null")),
    }
}

/// Stores a checked name (or none) for the player, and a checked figure when given
/// (`avatar_pick`), and returns their `GET /api/me`.
async fn store(
    hub: &Hub,
    id: i64,
    name: Option<Option<String>>,
    avatar: Option<Avatar>,
) -> Result<PlayerStanding, AppError> {
    blocking(hub.pool(), move |c| {
        if let Some(name) = name
            && !users::set_display_name(c, id, name.as_deref())?
        {
            return Err(AppError::NotLoggedIn);
        }
        if let Some(a) = avatar
            && !users::set_avatar(c, id, a.name)?
        {
            return Err(AppError::NotLoggedIn);
        }
        let user = users::by_id(c, id)?.ok_or(AppError::NotLoggedIn)?;
        let stats = users::stats(c, id, "flip")?;
        Ok(PlayerStanding::of(&user, &stats))
    })
    .await
}

/// `PATCH /api/me`: the display name, the figure (`{"avatar": "medic"}`), or both,
/// all checked before anything is stored. Answers the player as `GET /api/me` does.
pub async fn patch_me(
    hub: web::Data<Arc<Hub>>,
    limit: web::Data<AvatarLimit>,
    caller: Caller,
    body: web::Json<Value>,
) -> Result<HttpResponse, AppError> {
    let id = caller.require()?;
    let (avatar, rest) = split_request(&body)?;
    let name = rest.map(|r| parse_request(&r)).transpose()?;
    if avatar.is_some() {
        limit.check(id)?;
    }
    let me = store(&hub, id, name, avatar).await?;
    Ok(HttpResponse::Ok().json(me))
}

/// What the profile's form last sent, when it was refused.
pub struct Refused {
    pub value: String,
    pub message: String,
}

/// The form on one's own profile (works without script): an empty box removes the
/// name. `Ok(None)` once stored; `Ok(Some(_))` when refused, for the page to show.
pub async fn from_form(
    hub: &Hub,
    session: &Session,
    value: &str,
    en: bool,
) -> Result<Option<Refused>, AppError> {
    let id = require_user(session)?;
    let name = if value.trim().is_empty() {
        None
    } else {
        match check(value) {
            Ok(n) => Some(n),
            Err(e) => {
                return Ok(Some(Refused {
                    value: value.to_string(),
                    message: e.message(en),
                }));
            }
        }
    };
    store(hub, id, Some(name), None).await?;
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_in_any_script_with_spaces_and_marks_pass_trimmed() {
        assert_eq!(check("  小明 ").unwrap(), "小明");
        assert_eq!(check("阿依古丽·买买提").unwrap(), "阿依古丽·买买提");
        assert_eq!(check("Li Lei_2-x").unwrap(), "Li Lei_2-x");
        assert_eq!(check("Ünal Ω").unwrap(), "Ünal Ω");
        assert_eq!(
            check("一二三四五六七八九十一二").unwrap().chars().count(),
            12
        );
    }

    #[test]
    fn empty_long_and_hidden_or_markup_characters_are_refused() {
        assert_eq!(check("   "), Err(NameError::Empty));
        assert_eq!(check(""), Err(NameError::Empty));
        assert_eq!(check("一二三四五六七八九十一二三"), Err(NameError::TooLong));
        assert_eq!(check("<script>"), Err(NameError::Char('<')));
        assert_eq!(check("a\u{200b}b"), Err(NameError::Char('\u{200b}')));
        assert_eq!(check("a\u{202e}b"), Err(NameError::Char('\u{202e}')));
        assert_eq!(check("a\tb"), Err(NameError::Char('\t')));
        assert_eq!(check("a\u{0}b"), Err(NameError::Char('\u{0}')));
        assert_eq!(check("a\u{3000}b"), Err(NameError::Char('\u{3000}')));
        assert_eq!(check("e\u{301}"), Err(NameError::Char('\u{301}')));
        assert_eq!(check("😀"), Err(NameError::Char('😀')));
        assert_eq!(check("a&b"), Err(NameError::Char('&')));
        // A Hangul filler is a letter that draws as nothing.
        assert_eq!(check("\u{3164}"), Err(NameError::Char('\u{3164}')));
        assert!(NameError::Char('\u{3164}').message(true).contains("U+3164"));
        assert!(NameError::Char('\u{200b}').message(true).contains("U+200B"));
        assert!(NameError::Char('<').message(false).contains("\"<\""));
    }

    #[test]
    fn names_that_pass_for_the_computer_or_draw_too_wide_are_refused() {
        assert_eq!(check("电脑·困难"), Err(NameError::Reserved));
        assert_eq!(check("机器人"), Err(NameError::Reserved));
        assert_eq!(check("ＣＯＭＰＵＴＥＲ"), Err(NameError::Reserved));
        assert_eq!(check(&"𒈙".repeat(12)), Err(NameError::TooWide));
        assert_eq!(check("𒈙𒈙"), Ok("𒈙𒈙".into()));
        assert!(NameError::Reserved.message(true).contains("computer"));
        assert!(NameError::TooWide.message(false).contains("12"));
    }

    #[test]
    fn the_request_sets_removes_or_is_refused() {
        let p = |s: &str| parse_request(&serde_json::from_str(s).unwrap());
        assert_eq!(p(r#"{"display_name":" 小明 "}"#), Ok(Some("小明".into())));
        assert_eq!(p(r#"{"display_name":null}"#), Ok(None));
        for bad in [
            r#"{}"#,
            r#"[]"#,
            r#"{"display_name":3}"#,
            r#"{"display_name":"x","other":1}"#,
        ] {
            assert_eq!(p(bad).unwrap_err().code(), "bad_request", "{bad}");
        }
        assert_eq!(
            p(r#"{"display_name":"<b>"}"#).unwrap_err().code(),
            "invalid_display_name"
        );
    }
}
