//! 角色秀: the small drawn figures shown beside a player's name on seat cards, in the
//! lobby, on the ladder and on profiles. One list here is the whole set: what a player
//! may pick, what `static/avatars/NAME.svg` must hold, and what is shown for an account
//! that has not picked.
//!
//! As QQ gives each seated player a figure at random, a player who has not picked gets
//! one of the set derived from their id: random-looking across players, but the same on
//! every page and every visit. The site's computer players always show their level's
//! own figure (they cannot pick), and a bot program shows the robot until its owner
//! picks for it.

use crate::db::users::User;
use crate::engine::Level;

/// One figure: its file's name (`static/avatars/{name}.svg`) and what it is called.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Avatar {
    pub name: &'static str,
    pub chinese: &'static str,
    pub english: &'static str,
}

const fn avatar(name: &'static str, chinese: &'static str, english: &'static str) -> Avatar {
    Avatar {
        name,
        chinese,
        english,
    }
}

/// The figures a player may pick, in the order the picker shows them.
pub const CHOICES: [Avatar; 12] = [
    avatar("soldier-red", "红军战士", "Red soldier"),
    avatar("soldier-blue", "蓝军战士", "Blue soldier"),
    avatar("scout", "侦察兵", "Scout"),
    avatar("engineer", "工兵", "Engineer"),
    avatar("medic", "卫生员", "Medic"),
    avatar("signaller", "通信兵", "Signaller"),
    avatar("tanker", "坦克兵", "Tank crewman"),
    avatar("pilot", "飞行员", "Pilot"),
    avatar("sailor", "水兵", "Sailor"),
    avatar("officer", "排长", "Platoon leader"),
    avatar("colonel", "团长", "Colonel"),
    avatar("general", "军长", "General"),
];

/// The computer players' own figures, one per level.
pub const COMPUTER_EASY: Avatar = avatar("computer-easy", "电脑·入门", "Computer · Easy");
pub const COMPUTER_NORMAL: Avatar = avatar("computer-normal", "电脑·普通", "Computer · Normal");
pub const COMPUTER_HARD: Avatar = avatar("computer-hard", "电脑·困难", "Computer · Hard");
pub const COMPUTER_MASTER: Avatar = avatar("computer-master", "电脑·大师", "Computer · Master");
/// Shown for a bot account (an outside program) that has not picked.
pub const BOT: Avatar = avatar("bot", "机器人", "Bot");

impl Avatar {
    /// The figure of that name among those a player may pick.
    pub fn choice(name: &str) -> Option<&'static Avatar> {
        CHOICES.iter().find(|a| a.name == name)
    }

    /// The computer player's figure at `level`.
    pub fn of_level(level: Level) -> Avatar {
        match level {
            Level::Easy => COMPUTER_EASY,
            Level::Normal => COMPUTER_NORMAL,
            Level::Hard => COMPUTER_HARD,
            Level::Master => COMPUTER_MASTER,
        }
    }

    /// What is shown for a player who has not picked, from their id alone: the id is
    /// mixed first (Fibonacci hashing), so that players who register one after another
    /// do not get the set in order.
    pub fn default_for(id: i64) -> Avatar {
        let mixed = (id as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32;
        CHOICES[(mixed % CHOICES.len() as u64) as usize]
    }

    /// What an account shows: its level's figure for a computer player, else the
    /// figure it picked (a name no longer in the set counts as none), else the robot
    /// for a bot and the default of its id for anyone else.
    pub fn shown(id: i64, kind: &str, computer: Option<Level>, picked: Option<&str>) -> Avatar {
        if let Some(level) = computer {
            return Avatar::of_level(level);
        }
        if let Some(a) = picked.and_then(Avatar::choice) {
            return *a;
        }
        if kind == crate::db::kinds::BOT {
            BOT
        } else {
            Avatar::default_for(id)
        }
    }

    /// `Avatar::shown` of a stored account.
    pub fn of_user(user: &User) -> Avatar {
        Avatar::shown(
            user.id,
            &user.kind,
            user.computer_level(),
            user.avatar.as_deref(),
        )
    }

    /// The file below `static/`.
    pub fn file(&self) -> String {
        format!("avatars/{}.svg", self.name)
    }

    /// The URL cached for good (the file's hashed name).
    pub fn url(&self) -> String {
        // Every figure's file exists (a test below checks): the plain name is only a
        // fallback that cannot be reached.
        crate::web::assets::hashed_url(&self.file())
            .unwrap_or_else(|| format!("/static/{}", self.file()))
    }
}

/// Why a picked name is refused, in the page's language.
pub fn unknown_message(name: &str, en: bool) -> String {
    let names: Vec<&str> = CHOICES.iter().map(|a| a.name).collect();
    if en {
        format!(
            "no figure {}: choose one of {}",
            crate::quote::quoted(name),
            names.join(", ")
        )
    } else {
        format!(
            "没有角色秀 {}：请从 {} 中选择",
            crate::quote::quoted(name),
            names.join("、")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::users;
    use std::collections::HashSet;

    fn every() -> Vec<Avatar> {
        let mut all = CHOICES.to_vec();
        all.extend([
            COMPUTER_EASY,
            COMPUTER_NORMAL,
            COMPUTER_HARD,
            COMPUTER_MASTER,
            BOT,
        ]);
        all
    }

    #[test]
    fn every_figure_has_a_small_drawn_file_and_two_names() {
        let mut names = HashSet::new();
        for a in every() {
            assert!(names.insert(a.name), "{} is listed twice", a.name);
            let asset = crate::web::assets::find(&a.file())
                .unwrap_or_else(|| panic!("static/{} is missing", a.file()));
            assert!(asset.body.starts_with(b"<svg"), "{} is an SVG", a.name);
            assert!(asset.body.len() <= 2048, "{} stays under 2 KB", a.name);
            assert!(a.url().starts_with("/static/avatars/") && a.url() != a.file());
            assert!(!a.chinese.is_empty() && !a.english.is_empty() && a.chinese != a.english);
            assert!(
                a.english.chars().all(|c| (c as u32) < 0x2e80),
                "{} has an English name",
                a.name
            );
        }
    }

    #[test]
    fn the_default_is_stable_from_the_set_and_spread() {
        for id in 1..200 {
            let a = Avatar::default_for(id);
            assert_eq!(a, Avatar::default_for(id));
            assert!(Avatar::choice(a.name).is_some());
        }
        let first_dozen: HashSet<&str> = (1..=12).map(|id| Avatar::default_for(id).name).collect();
        assert!(
            first_dozen.len() >= 6,
            "twelve players in a row get varied figures: {first_dozen:?}"
        );
        let all: HashSet<&str> = (1..=500).map(|id| Avatar::default_for(id).name).collect();
        assert_eq!(
            all.len(),
            CHOICES.len(),
            "every figure is someone's default"
        );
    }

    #[test]
    fn the_computer_shows_its_level_and_others_their_pick() {
        let hard = Avatar::shown(3, users::COMPUTER, Some(Level::Hard), Some("scout"));
        assert_eq!(hard, COMPUTER_HARD);
        assert_eq!(
            Avatar::shown(7, users::PERSON, None, Some("medic")).name,
            "medic"
        );
        assert_eq!(
            Avatar::shown(7, users::PERSON, None, Some("gone")),
            Avatar::default_for(7)
        );
        assert_eq!(Avatar::shown(7, crate::db::kinds::BOT, None, None), BOT);
        assert_eq!(
            Avatar::shown(7, users::GUEST, None, None),
            Avatar::default_for(7)
        );
        assert!(
            Avatar::choice("computer-hard").is_none(),
            "no one picks the computer's"
        );
        assert!(Avatar::choice("bot").is_none());
    }

    #[test]
    fn an_unknown_name_is_explained_in_both_languages() {
        assert!(unknown_message("x", true).contains("soldier-red"));
        assert!(unknown_message("x", false).contains("角色秀"));
    }
}
