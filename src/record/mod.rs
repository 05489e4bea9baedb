//! The game record format `junqi-record/1`: reading, writing and replaying it.
//!
//! Reading is done by hand over `serde_json::Value` rather than by derive, because a
//! player handed a bad record deserves to hear which field or which action is wrong,
//! in words, and derive's messages cannot say that.

use crate::quote::{MESSAGE_CHARS, clipped, quoted};
use crate::rules::deal::{self, Deal};
use crate::rules::{
    Action, Colour, Game, Layout, Options, Outcome, Piece, Seat, SetupKind, Square, Variant,
};
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;
use std::fmt;

mod any;
mod claim;
mod fields;
pub mod siguo;
mod siguo_actions;
mod siguo_verdict;

pub use any::{AnyRecord, AnyVerdict};
pub use claim::Claimed;
pub use fields::{
    action_json, deal_json, layout_json, parse_action, parse_deal, parse_layout, parse_layout_text,
    parse_square,
};
use fields::{describe, opt_str, parse_layouts, seat, str_field};
pub use siguo::{SiguoRecord, SiguoTable};
pub use siguo_actions::{
    SiguoAction, action_json as siguo_action_json, apply_action as apply_siguo_action,
    parse_action as parse_siguo_action,
};
pub use siguo_verdict::SiguoVerdict;

pub const FORMAT: &str = "junqi-record/1";

/// Where the pieces started: a flip deal, or two standard layouts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Setup {
    Deal(Deal),
    Layouts { south: Layout, north: Layout },
}

impl Setup {
    /// SHA-256 over every piece in square order (South's layout red, North's blue).
    pub fn commitment(&self, salt: &str) -> String {
        match self {
            Setup::Deal(d) => d.commitment(salt),
            Setup::Layouts { south, north } => {
                let mut all: BTreeMap<Square, (Piece, Colour)> = BTreeMap::new();
                for (s, p) in &south.0 {
                    all.insert(*s, (*p, Colour::Red));
                }
                for (s, p) in &north.0 {
                    all.insert(*s, (*p, Colour::Blue));
                }
                deal::commitment(all.into_iter().map(|(s, (p, c))| (s, p, c)), salt)
            }
        }
    }

    /// The record's `deal` or `layouts` value.
    pub fn to_json(&self) -> Value {
        match self {
            Setup::Deal(d) => deal_json(d),
            Setup::Layouts { south, north } => {
                json!({"south": layout_json(south), "north": layout_json(north)})
            }
        }
    }

    /// Reads what [`Setup::to_json`] wrote, for a game of `variant`.
    pub fn parse(variant: Variant, v: &Value) -> Result<Setup, RecordError> {
        match variant.caps().setup {
            SetupKind::Deal => parse_deal(v).map(Setup::Deal),
            SetupKind::Deployment => parse_layouts(v),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    pub variant: Variant,
    pub options: Options,
    pub base: i32,
    pub first: Seat,
    /// `None` while a game is running: the deal is not served before the end.
    pub setup: Option<Setup>,
    pub salt: Option<String>,
    pub commitment: Option<String>,
    pub actions: Vec<(Seat, Action)>,
    pub at_ms: Option<Vec<u64>>,
    /// When the clock alone ended the game (the three-hour draw).
    pub end_ms: Option<u64>,
    /// The result the record claims, if it carries one; checked on replay.
    pub claimed: Option<Claimed>,
}

/// Why a record is not valid. `action` is the index of the first bad action, if the
/// trouble is an action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordError {
    pub action: Option<usize>,
    pub message: String,
}

impl RecordError {
    pub(crate) fn field(message: impl Into<String>) -> RecordError {
        RecordError {
            action: None,
            message: bounded(message.into()),
        }
    }
    pub(crate) fn malformed(e: &serde_json::Error) -> RecordError {
        RecordError::field(format!(
            "malformed JSON at line {} column {}: {e}",
            e.line(),
            e.column()
        ))
    }
    fn at(index: usize, message: impl Into<String>) -> RecordError {
        RecordError {
            action: Some(index),
            message: bounded(message.into()),
        }
    }
}

/// Every message is cut to [`MESSAGE_CHARS`]: the values it quotes are cut where it is
/// written, but a library's message (serde's, reading `options`) may quote the record.
fn bounded(message: String) -> String {
    match clipped(&message, MESSAGE_CHARS) {
        std::borrow::Cow::Borrowed(_) => message,
        std::borrow::Cow::Owned(cut) => cut,
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.action {
            Some(i) => write!(f, "action {i}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for RecordError {}

/// The replayed outcome of a valid record.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    pub game: Game,
    pub score: Option<[i32; 2]>,
    pub commitment_checked: bool,
}

impl Verdict {
    pub fn to_json(&self) -> Value {
        let outcome = self.game.outcome();
        json!({
            "valid": true,
            "variant": self.game.variant(),
            "result": outcome.map(result_name),
            "reason": outcome.map(|o| o.reason),
            "steps": self.game.steps(),
            "colours": self.game.colours().map(|c| json!({"south": c[0], "north": c[1]})),
            "score": self.score.map(|s| json!({"south": s[0], "north": s[1]})),
            "commitment_checked": self.commitment_checked,
        })
    }
}

pub fn result_name(o: Outcome) -> &'static str {
    match o.winner {
        Some(s) => s.name(),
        None => "draw",
    }
}

pub fn invalid_json(e: &RecordError) -> Value {
    json!({"valid": false, "action": e.action, "error": e.message})
}

impl Record {
    /// A record of a game just begun, with no actions yet. `setup` is `None` where the
    /// deal may not be shown yet.
    pub fn new(
        variant: Variant,
        options: Options,
        base: i32,
        first: Seat,
        setup: Option<Setup>,
    ) -> Record {
        Record {
            variant,
            options,
            base,
            first,
            setup,
            salt: None,
            commitment: None,
            actions: Vec::new(),
            at_ms: None,
            end_ms: None,
            claimed: None,
        }
    }

    /// Builds the game the record starts from.
    pub fn start(&self) -> Result<Game, RecordError> {
        match &self.setup {
            Some(Setup::Deal(d)) if self.variant.caps().deals() => {
                Ok(Game::new_flip(self.options, d, self.first))
            }
            Some(Setup::Layouts { south, north }) if self.variant.caps().deploys() => {
                Ok(Game::new_standard(self.options, south, north, self.first))
            }
            Some(_) => Err(RecordError::field(match self.variant.caps().setup {
                SetupKind::Deal => {
                    format!("a {} record needs a deal, not layouts", self.variant.name())
                }
                SetupKind::Deployment => {
                    format!("a {} record needs layouts, not a deal", self.variant.name())
                }
            })),
            None => Err(RecordError::field(match self.variant.caps().setup {
                SetupKind::Deal => "the record has no deal (it is served only after the game ends)",
                SetupKind::Deployment => {
                    "the record has no layouts (they are served only after the game ends)"
                }
            })),
        }
    }

    /// The commitment string's entries for the record's setup, in square order.
    fn commitment_of(&self, salt: &str) -> Option<String> {
        Some(self.setup.as_ref()?.commitment(salt))
    }

    /// Replays the record: checks the setup, the commitment, and every action in turn.
    pub fn verify(&self) -> Result<Verdict, RecordError> {
        if let Some(at) = &self.at_ms
            && at.len() != self.actions.len()
        {
            return Err(RecordError::field(format!(
                "at_ms has {} entries for {} actions",
                at.len(),
                self.actions.len()
            )));
        }
        let commitment_checked = match (&self.salt, &self.commitment) {
            (Some(salt), Some(c)) => {
                let expected = self.commitment_of(salt).ok_or_else(|| {
                    RecordError::field("the record has no setup to check the commitment against")
                })?;
                if &expected != c {
                    return Err(RecordError::field(format!(
                        "the commitment does not match the deal and salt (expected {expected}, the record says {})",
                        quoted(c)
                    )));
                }
                true
            }
            (None, None) if self.variant.caps().deploys() => false,
            (None, _) => {
                return Err(RecordError::field(
                    "the record has no salt, so its deal cannot be checked",
                ));
            }
            (_, None) => return Err(RecordError::field("the record has no commitment")),
        };
        let mut game = self.start()?;
        for (i, &(seat, action)) in self.actions.iter().enumerate() {
            let at = self.at_ms.as_ref().map(|v| v[i]);
            game.apply(seat, action, at)
                .map_err(|e| RecordError::at(i, format!("{seat} {}: {e}", describe(action))))?;
        }
        if let Some(end) = self.end_ms {
            if end < game.elapsed_ms() {
                return Err(RecordError::field(format!(
                    "end_ms {end} is before the last action at {} ms",
                    game.elapsed_ms()
                )));
            }
            game.expire(end);
        }
        if let Some(claim) = &self.claimed {
            let outcome = game.outcome();
            claim.check(
                outcome.map(|o| result_name(o).to_string()),
                outcome.map(|o| o.reason.name().to_string()),
            )?;
        }
        let score = game.score(self.base);
        Ok(Verdict {
            game,
            score,
            commitment_checked,
        })
    }

    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("format".into(), json!(FORMAT));
        m.insert("variant".into(), json!(self.variant));
        m.insert("ruleset".into(), json!(self.variant.ruleset()));
        m.insert(
            "options".into(),
            serde_json::to_value(self.options).expect("options serialise"),
        );
        m.insert("base".into(), json!(self.base));
        m.insert("first".into(), json!(self.first));
        match &self.setup {
            Some(setup @ Setup::Deal(_)) => {
                m.insert("deal".into(), setup.to_json());
            }
            Some(setup @ Setup::Layouts { .. }) => {
                m.insert("layouts".into(), setup.to_json());
            }
            None => {}
        }
        if let Some(s) = &self.salt {
            m.insert("salt".into(), json!(s));
        }
        if let Some(c) = &self.commitment {
            m.insert("commitment".into(), json!(c));
        }
        let actions: Vec<Value> = self
            .actions
            .iter()
            .map(|&(seat, a)| action_json(seat, a))
            .collect();
        m.insert("actions".into(), Value::Array(actions));
        if let Some(at) = &self.at_ms {
            m.insert("at_ms".into(), json!(at));
        }
        if let Some(e) = self.end_ms {
            m.insert("end_ms".into(), json!(e));
        }
        if let Some(c) = &self.claimed {
            c.write(&mut m);
        }
        Value::Object(m)
    }

    /// Reads a record's text: at most [`MAX_RECORD_BYTES`](crate::record_input::MAX_RECORD_BYTES)
    /// and [`MAX_ACTIONS`](crate::record_input::MAX_ACTIONS) actions, each checked before
    /// anything is built from it; a leading byte-order mark is skipped.
    pub fn parse_str(text: &str) -> Result<Record, RecordError> {
        let text = crate::record_input::precheck(text)?;
        let v: Value = serde_json::from_str(text).map_err(|e| RecordError::malformed(&e))?;
        Record::from_json(&v)
    }

    pub fn from_json(v: &Value) -> Result<Record, RecordError> {
        let obj = v
            .as_object()
            .ok_or_else(|| RecordError::field("a record is a JSON object"))?;
        let format = str_field(obj, "format")?;
        if format != FORMAT {
            return Err(RecordError::field(format!(
                "format is {}; this verifier reads {FORMAT:?}",
                quoted(format)
            )));
        }
        let name = str_field(obj, "variant")?;
        let variant = match Variant::from_name(name) {
            Some(v) if v.caps().two_player() => v,
            Some(v) => {
                return Err(RecordError::field(format!(
                    "variant {} is a four-player game, whose record has seats and \
                     options (read by `AnyRecord`)",
                    v.name()
                )));
            }
            None => {
                return Err(RecordError::field(format!(
                    "unknown variant {} (flip, standard or siguo)",
                    quoted(name)
                )));
            }
        };
        let ruleset = str_field(obj, "ruleset")?;
        if ruleset != variant.ruleset() {
            return Err(RecordError::field(format!(
                "ruleset {} does not belong to variant {}; expected {:?}",
                quoted(ruleset),
                variant.name(),
                variant.ruleset()
            )));
        }
        let options: Options = match obj.get("options") {
            None | Some(Value::Null) => Options::default(),
            Some(o) => serde_json::from_value(o.clone())
                .map_err(|e| RecordError::field(format!("options: {e}")))?,
        };
        let base = match obj.get("base") {
            None => 1,
            Some(b) => b
                .as_i64()
                .filter(|&b| (1..=1_000_000).contains(&b))
                .ok_or_else(|| RecordError::field("base must be a whole number from 1"))?
                as i32,
        };
        let first = seat(obj.get("first"), "first")?;
        let setup = match variant.caps().setup {
            SetupKind::Deal => obj
                .get("deal")
                .map(parse_deal)
                .transpose()?
                .map(Setup::Deal),
            SetupKind::Deployment => obj.get("layouts").map(parse_layouts).transpose()?,
        };
        let salt = opt_str(obj, "salt")?;
        let commitment = opt_str(obj, "commitment")?;
        let actions = obj
            .get("actions")
            .ok_or_else(|| RecordError::field("missing field \"actions\""))?
            .as_array()
            .ok_or_else(|| RecordError::field("actions must be an array"))?
            .iter()
            .enumerate()
            .map(|(i, a)| parse_action(a).map_err(|m| RecordError::at(i, m)))
            .collect::<Result<Vec<_>, _>>()?;
        let at_ms = match obj.get("at_ms") {
            None | Some(Value::Null) => None,
            Some(Value::Array(xs)) => Some(
                xs.iter()
                    .enumerate()
                    .map(|(i, x)| {
                        x.as_u64().ok_or_else(|| {
                            RecordError::field(format!(
                                "at_ms[{i}] must be a whole number of milliseconds"
                            ))
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()?,
            ),
            Some(_) => return Err(RecordError::field("at_ms must be an array")),
        };
        let end_ms = match obj.get("end_ms") {
            None | Some(Value::Null) => None,
            Some(x) => Some(x.as_u64().ok_or_else(|| {
                RecordError::field("end_ms must be a whole number of milliseconds")
            })?),
        };
        let claimed = Claimed::parse(obj)?;
        Ok(Record {
            variant,
            options,
            base,
            first,
            setup,
            salt: salt.map(str::to_string),
            commitment: commitment.map(str::to_string),
            actions,
            at_ms,
            end_ms,
            claimed,
        })
    }
}
