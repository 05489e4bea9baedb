//! Which game is played and with which per-room options (RULES §3 "option" items).

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    /// 翻翻棋: face-down deal, colours decided by flips.
    Flip,
    /// Standard two-player 军棋 with hidden deployed pieces.
    Standard,
    /// Four-player 四国军棋 (RULES §5) on the 129-station board.
    Siguo,
}

impl Variant {
    pub const ALL: [Variant; 3] = [Variant::Flip, Variant::Standard, Variant::Siguo];
    /// Their names, as pages and the API take them (`?variant=`).
    pub const NAMES: [&'static str; 3] = [
        Variant::Flip.name(),
        Variant::Standard.name(),
        Variant::Siguo.name(),
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Variant::Flip => "flip",
            Variant::Standard => "standard",
            Variant::Siguo => "siguo",
        }
    }

    pub fn from_name(name: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.name() == name)
    }

    /// The named rule set a record of this variant carries.
    pub const fn ruleset(self) -> &'static str {
        match self {
            Variant::Flip => "qq",
            Variant::Standard => "standard",
            Variant::Siguo => "siguo",
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
            },
            // RULES §5.4 has §4's numbers.
            Variant::Standard | Variant::Siguo => Limits {
                timeouts_to_lose: 5,
                quiet_steps_to_draw: 70,
                steps_to_draw: None,
                millis_to_draw: None,
                steps_before_resign_or_draw: 40,
                draw_offers_per_player: None,
            },
        }
    }

    /// What the variant allows and shows: every difference between the variants that
    /// is not a number (`limits`) is asked of this table, never of the variant's name,
    /// so that a variant added here is made to say what it does in each respect.
    pub const fn caps(self) -> Caps {
        match self {
            Variant::Flip => Caps {
                board: BoardKind::TwoPlayer,
                setup: SetupKind::Deal,
                owners_know_hidden: false,
                guarded_attacks: true,
                public_tallies: true,
                passes: false,
                draw_offer_once_per_own_step: false,
                repetition_loses: true,
                headquarters_lock: false,
                marks: false,
                flag_shown_when_marshal_falls: false,
                reveal_at_end: false,
                score_table: ScoreTable::Flip,
            },
            Variant::Standard => Caps {
                board: BoardKind::TwoPlayer,
                setup: SetupKind::Deployment,
                owners_know_hidden: true,
                guarded_attacks: false,
                public_tallies: false,
                passes: true,
                draw_offer_once_per_own_step: false,
                repetition_loses: false,
                headquarters_lock: true,
                marks: true,
                flag_shown_when_marshal_falls: true,
                reveal_at_end: true,
                score_table: ScoreTable::Standard,
            },
            // §4's play on the four-player board (RULES §5.3–5.4), with §5.4.4's one
            // draw offer per own step and §5.7's scores.
            Variant::Siguo => Caps {
                board: BoardKind::FourPlayer,
                setup: SetupKind::Deployment,
                owners_know_hidden: true,
                guarded_attacks: false,
                public_tallies: false,
                passes: true,
                draw_offer_once_per_own_step: true,
                repetition_loses: false,
                headquarters_lock: true,
                marks: true,
                flag_shown_when_marshal_falls: true,
                reveal_at_end: true,
                score_table: ScoreTable::Siguo,
            },
        }
    }
}

/// How the pieces come onto the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SetupKind {
    /// Dealt face down at random (RULES §3.1, §3.4): a face-down piece is nobody's yet, for
    /// everyone; flipping one is an action, and only face-up pieces move.
    Deal,
    /// Each seat deploys its own layout before play (RULES §4.1).
    Deployment,
}

/// Which board a variant is played on, and so how many seats it has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardKind {
    /// RULES §1: two seats.
    TwoPlayer,
    /// RULES §5.1: four seats (three in 三国).
    FourPlayer,
}

/// The capabilities of a variant (`Variant::caps`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caps {
    pub board: BoardKind,
    pub setup: SetupKind,
    /// A seat knows its own hidden pieces, and everyone sees whose a hidden piece is.
    pub owners_know_hidden: bool,
    /// Only face-up pieces may be attacked, a mine only by an engineer or a bomb, a
    /// flag only once its colour's mines are gone, and the `no_suicide` option applies
    /// (RULES §3.6–3.8). Otherwise any enemy piece outside a camp may be attacked (§4.5).
    pub guarded_attacks: bool,
    /// The pieces still to be found and those taken are counted for everyone.
    pub public_tallies: bool,
    /// A seat may pass instead of moving.
    pub passes: bool,
    /// A seat may offer a draw once between two of its own steps (RULES §5.4.4).
    pub draw_offer_once_per_own_step: bool,
    /// Making a move a 4th time within one's own last 8 actions loses (RULES §3.11).
    pub repetition_loses: bool,
    /// A piece in a headquarters never moves again (RULES §4.5; not in §3.5).
    pub headquarters_lock: bool,
    /// Players may mark what they think an enemy piece is (子力标记).
    pub marks: bool,
    /// When a side's marshal falls, its flag is shown (RULES §4.4; not in §3.7).
    pub flag_shown_when_marshal_falls: bool,
    /// At the end every piece is shown to everyone.
    pub reveal_at_end: bool,
    /// Which score table settles a finished game.
    pub score_table: ScoreTable,
}

/// The score tables (RULES §3.1 with §3.3's escape rows; §4.8; §5.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScoreTable {
    /// Flip chess: the growing base score and the loser's lost pieces.
    Flip,
    /// Standard 军棋: ±1, nothing within 30 steps.
    Standard,
    /// 四国: by alliance, with the escape and 托管 rows (`siguo::scoring`).
    Siguo,
}

impl Caps {
    pub const fn deals(self) -> bool {
        matches!(self.setup, SetupKind::Deal)
    }

    pub const fn deploys(self) -> bool {
        matches!(self.setup, SetupKind::Deployment)
    }

    /// Played by two seats on the board of RULES §1.
    pub const fn two_player(self) -> bool {
        matches!(self.board, BoardKind::TwoPlayer)
    }
}

/// The fixed numbers of a variant; not options, the rules themselves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Limits {
    pub timeouts_to_lose: u8,
    pub quiet_steps_to_draw: u32,
    pub steps_to_draw: Option<u32>,
    pub millis_to_draw: Option<u64>,
    pub steps_before_resign_or_draw: u32,
    pub draw_offers_per_player: Option<u8>,
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
