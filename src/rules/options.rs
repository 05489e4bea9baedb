//! Which game is played and with which per-room options (RULES §3 "option" items).

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    /// 翻翻棋: face-down deal, colours decided by flips.
    Flip,
    /// Standard two-player 军棋 with hidden deployed pieces.
    Standard,
}

impl Variant {
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Flip => "flip",
            Variant::Standard => "standard",
        }
    }

    pub fn from_name(name: &str) -> Option<Variant> {
        [Variant::Flip, Variant::Standard]
            .into_iter()
            .find(|v| v.name() == name)
    }

    /// The named rule set a record of this variant carries.
    pub const fn ruleset(self) -> &'static str {
        match self {
            Variant::Flip => "qq",
            Variant::Standard => "standard",
        }
    }

    /// Flip chess's three hours; none in standard 军棋.
    pub const fn time_limit_ms(self) -> Option<u64> {
        self.limits().millis_to_draw
    }

    pub(crate) const fn limits(self) -> Limits {
        match self {
            Variant::Flip => Limits {
                timeouts_to_lose: 3,
                quiet_steps_to_draw: 80,
                steps_to_draw: Some(300),
                millis_to_draw: Some(3 * 60 * 60 * 1000),
                steps_before_resign_or_draw: 50,
                draw_offers_per_player: Some(3),
                repetition: true,
                headquarters_lock: false,
            },
            Variant::Standard => Limits {
                timeouts_to_lose: 5,
                quiet_steps_to_draw: 70,
                steps_to_draw: None,
                millis_to_draw: None,
                steps_before_resign_or_draw: 40,
                draw_offers_per_player: None,
                repetition: false,
                headquarters_lock: true,
            },
        }
    }
}

/// The fixed numbers of a variant; not options, the rules themselves.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    pub timeouts_to_lose: u8,
    pub quiet_steps_to_draw: u32,
    pub steps_to_draw: Option<u32>,
    pub millis_to_draw: Option<u64>,
    pub steps_before_resign_or_draw: u32,
    pub draw_offers_per_player: Option<u8>,
    pub repetition: bool,
    pub headquarters_lock: bool,
}

/// How flip chess hands out colours (RULES §3.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ColourRule {
    /// The first flip matching the previous flip in the game gives its colour to its flipper.
    #[default]
    MatchPrevious,
    /// A player's own two consecutive flips matching give that colour to that player.
    TwoInARow,
    /// The first flip gives its colour to its flipper.
    FirstFlip,
}

/// Per-room options. Every field has the `qq` default, so `{}` is a complete value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    pub colour_rule: ColourRule,
    /// Refuse a ranked piece attacking a higher-ranked face-up piece (flip chess).
    pub no_suicide: bool,
    /// Time allowed for one action.
    pub seconds_per_action: u32,
    /// How long a disconnected player may stay away before losing by escape.
    pub grace_seconds: u32,
    /// Standard 军棋's deployment time.
    pub deploy_seconds: u32,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            colour_rule: ColourRule::MatchPrevious,
            no_suicide: false,
            seconds_per_action: 30,
            grace_seconds: 60,
            deploy_seconds: 120,
        }
    }
}

impl Options {
    /// Clock lengths a room may choose.
    pub const SECONDS_OFFERED: [u32; 3] = [15, 30, 60];
}
