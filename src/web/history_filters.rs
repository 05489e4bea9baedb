//! The history lists' filters: the query they read, checked (an unknown value is a
//! 400 naming it), the choices of their select boxes, the 四国 mode chips, and the
//! links that keep the filters across pages.

use crate::db::history::Cursor;
use crate::error::AppError;
use crate::record::siguo::{REASON_NAMES, results_won_by};
use crate::rules::siguo::{Alliance, Seat4};
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
        let before = self.before.as_deref().filter(|b| !b.is_empty());
        if before.is_some_and(|c| Cursor::decode(c).is_none()) {
            return Err(AppError::BadRequest("bad page cursor".into()));
        }
        let variant = one_of(&self.variant, &Variant::NAMES, "variant")?;
        let v = variant.as_deref();
        let read = (
            alliance(&self.alliance, v)?,
            result(&self.result, false, v)?,
            reason(&self.reason, v)?,
            variant,
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

/// A result filter's choice: its value, and its words in Chinese and English.
pub(super) type Choice = (&'static str, &'static str, &'static str);

/// The results a list can be filtered by. A player's own list reads each game from
/// their side; everyone's list by who won, which for 四国 is any of four seats (a
/// seat of the winning alliance) or an end without a winner.
pub(super) fn result_choices(owner: bool, variant: Option<&str>) -> &'static [Choice] {
    const OWN: &[Choice] = &[
        ("win", "胜", "won"),
        ("draw", "和", "drawn"),
        ("loss", "负", "lost"),
    ];
    const TWO: &[Choice] = &[
        ("south", "南方胜", "south won"),
        ("north", "北方胜", "north won"),
        ("draw", "和棋", "draw"),
    ];
    const FOUR: &[Choice] = &[
        ("south", "南方胜", "south won"),
        ("east", "东方胜", "east won"),
        ("north", "北方胜", "north won"),
        ("west", "西方胜", "west won"),
        ("draw", "和棋", "draw"),
        ("unscored", "不计分", "unscored"),
    ];
    match (owner, variant.and_then(Variant::from_name)) {
        (true, _) => OWN,
        (false, Some(Variant::Flip | Variant::Standard)) => TWO,
        // Every variant's list holds 四国 tables too.
        (false, Some(Variant::Siguo) | None) => FOUR,
    }
}

pub(super) fn values(choices: &[Choice]) -> Vec<&'static str> {
    choices.iter().map(|c| c.0).collect()
}

/// The stored results an everyone's-list result filter matches: a seat's win is
/// every result naming it among the winners (`south` alone in a two-player game, or
/// beside its ally at a 四国 table); a draw or an unscored end is itself.
pub(super) fn stored_results(result: &str) -> Vec<String> {
    match Seat4::ALL.into_iter().find(|s| s.name() == result) {
        Some(seat) => results_won_by(seat),
        None => vec![result.to_string()],
    }
}

/// The reasons a list of `variant` can be filtered by: its own ends (a 四国 table's
/// are not a two-player game's), every variant's for a list of all.
pub(super) fn reasons(variant: Option<&str>) -> Vec<&'static str> {
    let two = EndReason::ALL.iter().map(|r| r.name());
    let mut names: Vec<&'static str> = match variant.and_then(Variant::from_name) {
        Some(Variant::Siguo) => REASON_NAMES.to_vec(),
        Some(_) => two.collect(),
        None => two.chain(REASON_NAMES).collect(),
    };
    let mut seen = std::collections::HashSet::new();
    names.retain(|n| seen.insert(*n));
    names
}

/// A filter's value checked against every variant's choices (an unknown one is
/// refused, naming it) and kept only when it fits the variant chosen: switching the
/// variant in the form, which carries the other filters on, shows that variant's
/// games rather than an error (as the mode does, below).
fn fitting(
    value: &Option<String>,
    every: &[&str],
    fits: &[&str],
    what: &str,
) -> Result<Option<String>, AppError> {
    Ok(one_of(value, every, what)?.filter(|v| fits.contains(&v.as_str())))
}

/// The result filter as a list applies it (`owner`: a player's own list).
pub(super) fn result(
    value: &Option<String>,
    owner: bool,
    variant: Option<&str>,
) -> Result<Option<String>, AppError> {
    let every = values(result_choices(owner, None));
    fitting(
        value,
        &every,
        &values(result_choices(owner, variant)),
        "result",
    )
}

/// The reason filter as a list applies it.
pub(super) fn reason(
    value: &Option<String>,
    variant: Option<&str>,
) -> Result<Option<String>, AppError> {
    fitting(value, &reasons(None), &reasons(variant), "reason")
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
    fn results_and_reasons_fit_the_variant() {
        assert_eq!(
            values(result_choices(false, Some("flip"))),
            ["south", "north", "draw"]
        );
        assert!(values(result_choices(false, None)).contains(&"west"));
        assert_eq!(
            values(result_choices(true, Some("siguo"))),
            ["win", "draw", "loss"]
        );
        let south = stored_results("south");
        assert!(south.iter().any(|r| r == "south"), "a two-player win");
        assert!(south.iter().any(|r| r == "south+north"), "a 对家 win");
        assert!(!south.iter().any(|r| r == "east+west"));
        assert_eq!(stored_results("unscored"), ["unscored"]);
        assert!(reasons(Some("siguo")).contains(&"play_on_declined"));
        assert!(!reasons(Some("siguo")).contains(&"flag"));
        assert!(!reasons(Some("flip")).contains(&"one_alliance_left"));
        let all = reasons(None);
        assert_eq!(all.iter().filter(|r| **r == "agreed").count(), 1);
        assert!(all.contains(&"flag") && all.contains(&"all_in_tuoguan"));
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
