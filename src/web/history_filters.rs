//! The history lists' filters: the query they read, checked (an unknown value is a
//! 400 naming it), the choices of their select boxes, the 四国 mode chips, and the
//! links that keep the filters across pages.

use crate::db::history::Cursor;
use crate::error::AppError;
use crate::rules::siguo::Alliance;
use crate::rules::{EndReason, Variant};
use serde::Deserialize;

#[derive(Deserialize, Default)]
pub struct HistoryQuery {
    pub(super) player: Option<String>,
    pub(super) variant: Option<String>,
    /// A 四国 table's mode (`opposite`, `adjacent`, `none`: the option's own names).
    pub(super) alliance: Option<String>,
    pub(super) result: Option<String>,
    pub(super) reason: Option<String>,
    pub(super) before: Option<String>,
}

impl HistoryQuery {
    /// The page cache's key for `/games`: what the page reads of its query, checked as
    /// the page checks it, so that unknown parameters and spellings of "none" share
    /// one entry (and what the page would refuse is refused before the cache).
    pub(super) fn cache_key(&self) -> Result<String, AppError> {
        let reasons: Vec<&str> = EndReason::ALL.iter().map(|r| r.name()).collect();
        let before = self.before.as_deref().filter(|b| !b.is_empty());
        if before.is_some_and(|c| Cursor::decode(c).is_none()) {
            return Err(AppError::BadRequest("bad page cursor".into()));
        }
        let variant = one_of(&self.variant, &Variant::NAMES, "variant")?;
        let read = (
            alliance(&self.alliance, variant.as_deref())?,
            variant,
            one_of(&self.result, &["south", "north", "draw"], "result")?,
            one_of(&self.reason, &reasons, "reason")?,
            before,
            self.player.as_deref().filter(|p| !p.is_empty()),
        );
        Ok(format!("/games {read:?}"))
    }
}

pub(crate) fn one_of(
    value: &Option<String>,
    allowed: &[&str],
    what: &str,
) -> Result<Option<String>, AppError> {
    match value.as_deref() {
        None | Some("") => Ok(None),
        Some(v) if allowed.contains(&v) => Ok(Some(v.to_string())),
        Some(v) => Err(AppError::BadRequest(format!(
            "unknown {what} {}",
            crate::quote::quoted(v)
        ))),
    }
}

/// The mode filter as the list applies it: an unknown mode is refused like any bad
/// filter, and a known one narrows only a list of 四国 tables. With another variant
/// (or all) chosen it is dropped, so that switching the variant in the form, which
/// still carries the mode, shows that variant's games rather than an error or none.
pub(super) fn alliance(
    value: &Option<String>,
    variant: Option<&str>,
) -> Result<Option<String>, AppError> {
    let alliance = one_of(value, &Alliance::NAMES, "alliance").map_err(|e| {
        AppError::BadRequest(format!(
            "{}: a 四国 mode is opposite (对家), adjacent (并肩) or none (混战)",
            e.message()
        ))
    })?;
    Ok(alliance.filter(|_| variant == Some(Variant::Siguo.name())))
}

/// A mode's words, as the lobby's table form gives them.
pub(super) fn alliance_words(alliance: &str, en: bool) -> &'static str {
    match (Alliance::from_name(alliance), en) {
        (Some(Alliance::Opposite), false) => "对家",
        (Some(Alliance::Adjacent), false) => "并肩",
        (Some(Alliance::None), false) => "混战",
        (Some(Alliance::Opposite), true) => "opposite",
        (Some(Alliance::Adjacent), true) => "adjacent",
        (Some(Alliance::None), true) => "free-for-all",
        (None, _) => "",
    }
}

/// One choice of a filter's select box.
pub struct Opt {
    pub value: &'static str,
    pub label: String,
    pub selected: bool,
}

pub(super) fn options(
    choices: &[(&'static str, &str, &str)],
    chosen: Option<&str>,
    en: bool,
) -> Vec<Opt> {
    choices
        .iter()
        .map(|&(value, zh, english)| Opt {
            value,
            label: if en { english } else { zh }.to_string(),
            selected: chosen == Some(value),
        })
        .collect()
}

/// One chip of the 四国 mode filter: a link to the same list in that mode (or in
/// every mode), the other filters kept.
pub struct ModeChip {
    /// The mode's name; empty for "every mode".
    pub value: &'static str,
    pub label: String,
    pub href: String,
    pub selected: bool,
}

/// The chips of a 四国 list: every mode, then each of the three. `kept` are the other
/// filters as query pairs (variant=siguo among them, so no link is empty).
pub(super) fn mode_chips(kept: &[(&str, &str)], chosen: Option<&str>, en: bool) -> Vec<ModeChip> {
    let every = ("", if en { "all modes" } else { "全部模式" });
    std::iter::once(every)
        .chain(
            Alliance::NAMES
                .into_iter()
                .map(|a| (a, alliance_words(a, en))),
        )
        .map(|(value, label)| {
            let mut pairs = kept.to_vec();
            pairs.push(("alliance", value));
            ModeChip {
                value,
                label: label.to_string(),
                href: query_string(&pairs),
                selected: chosen.unwrap_or("") == value,
            }
        })
        .collect()
}

pub(super) fn query_string(pairs: &[(&str, &str)]) -> String {
    let parts: Vec<String> = pairs
        .iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(k, v)| format!("{k}={}", urlencode(v)))
        .collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!("?{}", parts.join("&"))
    }
}

fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn some(s: &str) -> Option<String> {
        Some(s.to_string())
    }

    #[test]
    fn a_mode_narrows_siguo_only_and_an_unknown_one_is_refused() {
        assert_eq!(
            alliance(&some("adjacent"), Some("siguo")).unwrap(),
            some("adjacent")
        );
        assert_eq!(alliance(&some("adjacent"), Some("flip")).unwrap(), None);
        assert_eq!(alliance(&some("adjacent"), None).unwrap(), None);
        assert_eq!(alliance(&some(""), Some("siguo")).unwrap(), None);
        for variant in [Some("siguo"), Some("flip"), None] {
            let refused = alliance(&some("duijia"), variant).unwrap_err();
            assert!(refused.message().contains("\"duijia\""), "{refused:?}");
        }
    }

    #[test]
    fn the_chips_keep_the_other_filters() {
        let kept = [("player", "ann"), ("variant", "siguo"), ("result", "")];
        let chips = mode_chips(&kept, Some("none"), false);
        let hrefs: Vec<&str> = chips.iter().map(|c| c.href.as_str()).collect();
        assert_eq!(
            hrefs,
            [
                "?player=ann&variant=siguo",
                "?player=ann&variant=siguo&alliance=opposite",
                "?player=ann&variant=siguo&alliance=adjacent",
                "?player=ann&variant=siguo&alliance=none",
            ]
        );
        let chosen: Vec<bool> = chips.iter().map(|c| c.selected).collect();
        assert_eq!(chosen, [false, false, false, true]);
        assert!(mode_chips(&kept, None, true)[0].selected);
    }
}
