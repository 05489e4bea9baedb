//! Names kept for what the site itself shows: its computer players (accounts
//! `computer-easy`, `computer-normal`, `computer-hard`, `computer-master`, shown as
//! 电脑·入门, 电脑·普通, 电脑·困难, 电脑·大师; see `db::users`) and the badges beside a name that is not a person's
//! (电脑 / computer, 机器人 / bot). A person named 电脑·困难 or 机器人 would pass for
//! one of them.
//!
//! Names are compared folded: NFKC (fullwidth and styled letters become plain ones:
//! `ｃｏｍｐｕｔｅｒ`, `𝐜𝐨𝐦𝐩𝐮𝐭𝐞𝐫`), lower case, the few traditional and Japanese forms of
//! the badges' characters made simplified, and everything but letters and digits
//! dropped (spaces and separators such as `· ・ . _ -`). So `电 脑・困难`, `電腦` and
//! `COMPUTER_hard` are all refused. Look-alike letters of other scripts (a Cyrillic
//! `о` in `cоmputer`) are not folded.

use unicode_normalization::UnicodeNormalization as _;

/// Reserved anywhere in a display name, folded: the badges' and the computer players'
/// words (the computer players' display names all contain 电脑).
const RESERVED_WITHIN: &[&str] = &["电脑", "机器人", "computer"];

/// Reserved as a whole word of a display name: the English bot badge. (Within a word
/// it is an ordinary syllable: Abbott, Talbot.)
const RESERVED_WORDS: &[&str] = &["bot", "robot"];

/// Traditional and Japanese forms of the reserved words' characters.
fn simplified(c: char) -> char {
    match c {
        '電' => '电',
        '腦' | '脳' => '脑',
        '機' => '机',
        other => other,
    }
}

/// NFKC, lower case, simplified forms of the reserved characters.
fn normal(name: &str) -> impl Iterator<Item = char> + '_ {
    name.nfkc().flat_map(char::to_lowercase).map(simplified)
}

/// `name` folded for comparison: only its letters and digits, normalised.
pub fn fold(name: &str) -> String {
    normal(name).filter(|c| c.is_alphanumeric()).collect()
}

/// Whether a display name passes for the computer, a computer player or a badge.
pub fn display_name_reserved(name: &str) -> bool {
    let folded = fold(name);
    if RESERVED_WITHIN.iter().any(|w| folded.contains(w)) {
        return true;
    }
    let normalised: String = normal(name).collect();
    normalised
        .split(|c: char| !c.is_alphanumeric())
        .any(|word| RESERVED_WORDS.contains(&word))
}

/// Whether a new username passes for one of the computer players' (`computer-hard`,
/// `Computer_Hard`, `computerhard`…): any name that starts with "computer", folded.
pub fn username_reserved(name: &str) -> bool {
    fold(name).starts_with("computer")
}

/// Whether a new username passes for a guest's (`guest-00001234`, `Guest_1234`,
/// `guest1234`; see `db::guests`): "guest" and nothing but digits, folded. Guests'
/// names are drawn from these, so no registration can take one a guest holds or will.
pub fn guest_username_reserved(name: &str) -> bool {
    fold(name)
        .strip_prefix("guest")
        .is_some_and(|rest| rest.chars().all(|c| c.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::users::{computer_display_name, computer_username};
    use crate::engine::Level;

    #[test]
    fn the_computer_and_the_badges_in_any_form_are_reserved() {
        for level in Level::ALL {
            assert!(display_name_reserved(computer_display_name(level)));
            assert!(display_name_reserved(computer_username(level)));
            assert!(username_reserved(computer_username(level)));
        }
        for name in [
            "电脑",
            "电脑·困难",
            "电 脑・困难",
            "电脑·大师",
            "COMPUTER_master",
            "電腦",
            "机器人",
            "機器人",
            "小明的机器人",
            "ｃｏｍｐｕｔｅｒ",
            "𝐂𝐨𝐦𝐩𝐮𝐭𝐞𝐫",
            "COMPUTER_hard",
            "the computer",
            "bot",
            "BOT",
            "ｂｏｔ",
            "小明 bot",
            "Robot 7",
        ] {
            assert!(display_name_reserved(name), "{name}");
        }
        for name in [
            "小明", "电视", "脑子", "Abbott", "Talbot", "computa", "机器",
        ] {
            assert!(!display_name_reserved(name), "{name}");
        }
        for name in ["computer_hard", "Computer-Easy", "computerhard", "COMPUTER"] {
            assert!(username_reserved(name), "{name}");
        }
        for name in ["alice", "my_computer", "compute"] {
            assert!(!username_reserved(name), "{name}");
        }
        for name in [
            "guest-00001234",
            "Guest_1234",
            "guest1234",
            "GUEST",
            "guest-",
        ] {
            assert!(guest_username_reserved(name), "{name}");
        }
        for name in ["guesthouse", "guest-star", "my-guest-1", "guest-1a"] {
            assert!(!guest_username_reserved(name), "{name}");
        }
    }
}
