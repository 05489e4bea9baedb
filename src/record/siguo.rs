//! 四国 games in the record format `junqi-record/1` (variant `siguo`): the table, every
//! seat's layout (committed at the start of play, shown at the end), the actions, and
//! the replay that gives the verdict.
//!
//! Layouts are written seat-relative (RULES §5.8): each seat's own area as South sees
//! its own, squares `a1` … `e6`, so a layout reads the same whichever seat deployed it.
//! Under 乱战 the record also carries the dealt hands with their own salt and
//! commitment (published when they were dealt, as the flip deal's are), and each layout
//! is checked against its seat's hand.

use super::fields::{layout_json, parse_layout, str_field};
use super::siguo_actions::{
    SiguoAction, action_json, apply_action, describe, parse_action, parse_seat,
};
use super::siguo_verdict::SiguoVerdict;
pub use super::siguo_verdict::{REASON_NAMES, reason_name, result_name, results_won_by};
use super::{Claimed, FORMAT, RecordError};
use crate::quote::quoted;
use crate::rules::Variant;
use crate::rules::hidden_game::{Escape, HiddenGame, TuoguanKind};
use crate::rules::siguo::board::area;
use crate::rules::siguo::deploy::violations;
use crate::rules::siguo::scoring::{Facts, SeatEnd, score};
use crate::rules::siguo::{Alliance, FourPlayer, HandDeal, Hands, Seat4, SiguoOptions};
use crate::rules::{Layout, Options, Position, Token};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

pub const RULESET: &str = "siguo";

/// Who sat down and the table's 四国 options.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiguoTable {
    /// Seats that sat down, in turn order (three in 三国).
    pub seated: Vec<Seat4>,
    pub options: SiguoOptions,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiguoRecord {
    pub table: SiguoTable,
    pub first: Seat4,
    /// Every seated seat's layout, seat-relative; `None` while the game runs.
    pub layouts: Option<BTreeMap<Seat4, Layout>>,
    /// 乱战: the hands dealt, their salt and commitment; `None` with the standard sets.
    pub hands: Option<HandDeal>,
    pub salt: Option<String>,
    pub commitment: Option<String>,
    pub actions: Vec<(Seat4, SiguoAction)>,
    pub claimed: Option<Claimed>,
}

/// SHA-256 over `station:piece:seat` entries in station order (`Sa1` … `We6`), joined
/// by `;`, then `|` and the salt: the two-player commitment's shape on this board.
pub fn commitment(pos: &Position<FourPlayer>, salt: &str) -> String {
    let mut text = String::with_capacity(3000 + salt.len());
    for (i, (s, t)) in pos.tokens().enumerate() {
        if i > 0 {
            text.push(';');
        }
        text.push_str(s.as_str());
        text.push(':');
        text.push_str(t.piece.name());
        text.push(':');
        text.push_str(t.colour.name());
    }
    text.push('|');
    text.push_str(salt);
    hex::encode(Sha256::digest(text.as_bytes()))
}

/// The layout `seat` deployed in `pos`, seat-relative.
pub fn layout_of(pos: &Position<FourPlayer>, seat: Seat4) -> Layout {
    let mut l = Layout::default();
    for s in area(seat) {
        if let Some(t) = pos.get(s).filter(|t| t.colour == seat) {
            l.0.insert(s.as_south_square().expect("an area station"), t.piece);
        }
    }
    l
}

impl SiguoRecord {
    /// A record of `game` at its start (before any action), with its layouts, and
    /// under 乱战 the deal its hands came from.
    pub fn begin(
        game: &HiddenGame<FourPlayer>,
        table: SiguoTable,
        hands: Option<HandDeal>,
    ) -> SiguoRecord {
        let pos = game.position();
        let layouts = table
            .seated
            .iter()
            .map(|&s| (s, layout_of(pos, s)))
            .collect();
        SiguoRecord {
            table,
            first: game.to_move(),
            layouts: Some(layouts),
            hands,
            salt: None,
            commitment: None,
            actions: Vec::new(),
            claimed: None,
        }
    }

    /// The position the layouts make, or why they do not make one.
    pub fn start_position(&self) -> Result<Position<FourPlayer>, RecordError> {
        let layouts = self.layouts.as_ref().ok_or_else(|| {
            RecordError::field(
                "the record has no layouts (they are served only after the game ends)",
            )
        })?;
        let opts = self.table.options;
        let hands = match (&self.hands, opts.random_pieces) {
            (Some(deal), true) => deal.hands,
            (None, false) => Hands::standard(&self.table.seated),
            (None, true) => {
                return Err(RecordError::field(
                    "a 乱战 record (random_pieces) needs the hands that were dealt",
                ));
            }
            (Some(_), false) => {
                return Err(RecordError::field(
                    "hands belong to 乱战 records only (options.random_pieces)",
                ));
            }
        };
        let mut pos = Position::<FourPlayer>::blank();
        for &seat in &self.table.seated {
            let l = layouts
                .get(&seat)
                .ok_or_else(|| RecordError::field(format!("layouts: no layout for {seat}")))?;
            let hand = hands
                .get(seat)
                .ok_or_else(|| RecordError::field(format!("hands: no hand for {seat}")))?;
            if let Some(v) = violations(l, hand, opts.bombs_on_front_row).first() {
                return Err(RecordError::field(format!("layouts.{seat}: {v}")));
            }
            for s in area(seat) {
                let sq = s.as_south_square().expect("an area station");
                if let Some(&p) = l.0.get(&sq) {
                    pos.put(s, Token::hidden(p, seat));
                }
            }
        }
        if let Some(extra) = layouts.keys().find(|s| !self.table.seated.contains(s)) {
            return Err(RecordError::field(format!(
                "layouts.{extra}: that seat did not sit down"
            )));
        }
        if self.table.seated.len() == 3 {
            let empty = Seat4::ALL
                .into_iter()
                .find(|s| !self.table.seated.contains(s))
                .expect("three of four seated");
            pos.close(area(empty).collect());
        }
        Ok(pos)
    }

    /// The game as it began from `pos` (this record's start position), at the table's
    /// rules, before any action: what a replay and the verification play on.
    pub fn game_at(&self, pos: Position<FourPlayer>) -> HiddenGame<FourPlayer> {
        let t = &self.table;
        HiddenGame::new(
            Variant::Siguo,
            Options::default(),
            t.options.alliance,
            pos,
            &t.seated,
            self.first,
        )
        .with_allies_visible(t.options.allies_visible)
    }

    /// Replays the record: the layouts, the commitment, and every action in turn.
    pub fn verify(&self) -> Result<SiguoVerdict, RecordError> {
        if let Some(deal) = &self.hands
            && !HandDeal::verifies(&deal.hands, &deal.salt, &deal.commitment)
        {
            return Err(RecordError::field(format!(
                "the hands' commitment does not match the hands and their salt (expected {}, the record says {})",
                deal.hands.commitment(&deal.salt),
                quoted(&deal.commitment)
            )));
        }
        let pos = self.start_position()?;
        let commitment_checked = match (&self.salt, &self.commitment) {
            (Some(salt), Some(c)) => {
                let expected = commitment(&pos, salt);
                if &expected != c {
                    return Err(RecordError::field(format!(
                        "the commitment does not match the layouts and salt (expected {expected}, the record says {})",
                        quoted(c)
                    )));
                }
                true
            }
            (None, None) => false,
            (None, _) => {
                return Err(RecordError::field(
                    "the record has a commitment but no salt",
                ));
            }
            (_, None) => {
                return Err(RecordError::field(
                    "the record has a salt but no commitment",
                ));
            }
        };
        let t = &self.table;
        let mut game = self.game_at(pos);
        let mut exited = [false; 4];
        for (i, &(seat, action)) in self.actions.iter().enumerate() {
            let refused = |e: String| RecordError {
                action: Some(i),
                message: format!("{seat} {}: {e}", describe(action)),
            };
            if !t.seated.contains(&seat) {
                return Err(refused("that seat did not sit down".into()));
            }
            let was_in_play = game.is_in_play(seat);
            apply_action(&mut game, seat, action).map_err(refused)?;
            // Leaving before one's own defeat is what §5.7.1 makes pay double: a seat
            // that left (托管退出), or whose escape defeated it.
            if was_in_play {
                exited[seat.index()] |= match action {
                    SiguoAction::Escape(Escape::Left) => true,
                    SiguoAction::Escape(Escape::StayedAway) => !game.is_in_play(seat),
                    SiguoAction::Tuoguan(kind) => kind == TuoguanKind::Exit,
                    _ => false,
                };
            }
        }
        self.check_claim(&game)?;
        let seated = Seat4::ALL.map(|s| t.seated.contains(&s));
        let ends = Seat4::ALL.map(|s| SeatEnd {
            exited: exited[s.index()],
            // As the live table scores it: a seat defeated while in 托管 stays in it.
            tuoguan_at_end: game.in_tuoguan(s),
        });
        let score = Facts::of(&game, ends, seated).and_then(|f| score(&f));
        Ok(SiguoVerdict {
            game,
            score,
            seated: t.seated.clone(),
            commitment_checked,
        })
    }

    fn check_claim(&self, game: &HiddenGame<FourPlayer>) -> Result<(), RecordError> {
        match &self.claimed {
            Some(claim) => claim.check(
                result_name(game),
                game.ending().map(|e| reason_name(e).to_string()),
            ),
            None => Ok(()),
        }
    }

    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("format".into(), json!(FORMAT));
        m.insert("variant".into(), json!("siguo"));
        m.insert("ruleset".into(), json!(RULESET));
        m.insert("seats".into(), json!(self.table.seated));
        m.insert(
            "options".into(),
            serde_json::to_value(self.table.options).expect("options serialise"),
        );
        if let Some(d) = &self.hands {
            m.insert(
                "hands".into(),
                serde_json::to_value(d.hands).expect("hands serialise"),
            );
            m.insert("hands_salt".into(), json!(d.salt));
            m.insert("hands_commitment".into(), json!(d.commitment));
        }
        m.insert("first".into(), json!(self.first));
        if let Some(ls) = &self.layouts {
            let obj: Map<String, Value> = ls
                .iter()
                .map(|(s, l)| (s.name().to_string(), layout_json(l)))
                .collect();
            m.insert("layouts".into(), Value::Object(obj));
        }
        if let Some(s) = &self.salt {
            m.insert("salt".into(), json!(s));
        }
        if let Some(c) = &self.commitment {
            m.insert("commitment".into(), json!(c));
        }
        let actions = self
            .actions
            .iter()
            .map(|&(s, a)| action_json(s, a))
            .collect();
        m.insert("actions".into(), Value::Array(actions));
        if let Some(c) = &self.claimed {
            c.write(&mut m);
        }
        Value::Object(m)
    }

    /// Reads a record whose `format` is checked and whose `variant` is `siguo`.
    pub fn from_json(obj: &Map<String, Value>) -> Result<SiguoRecord, RecordError> {
        let ruleset = str_field(obj, "ruleset")?;
        if ruleset != RULESET {
            return Err(RecordError::field(format!(
                "ruleset {} does not belong to variant siguo; expected {RULESET:?}",
                quoted(ruleset)
            )));
        }
        let table = parse_table(obj)?;
        let first =
            parse_seat(obj.get("first")).map_err(|m| RecordError::field(format!("first: {m}")))?;
        if !table.seated.contains(&first) {
            return Err(RecordError::field(format!(
                "first: {first} did not sit down"
            )));
        }
        let layouts = match obj.get("layouts") {
            None | Some(Value::Null) => None,
            Some(Value::Object(ls)) => {
                let mut out = BTreeMap::new();
                for (k, v) in ls {
                    let seat = parse_seat(Some(&Value::String(k.clone())))
                        .map_err(|m| RecordError::field(format!("layouts: {m}")))?;
                    let l = parse_layout(v)
                        .map_err(|m| RecordError::field(format!("layouts.{seat}{m}")))?;
                    out.insert(seat, l);
                }
                Some(out)
            }
            Some(_) => {
                return Err(RecordError::field(
                    "layouts must be an object of seat → layout",
                ));
            }
        };
        let opt = |key: &str| super::fields::opt_str(obj, key).map(|s| s.map(str::to_string));
        let hands = match obj.get("hands") {
            None | Some(Value::Null) => None,
            Some(h) => {
                let hands: Hands = serde_json::from_value(h.clone())
                    .map_err(|e| RecordError::field(format!("hands: {e}")))?;
                let need = |key: &str| {
                    opt(key)?.ok_or_else(|| {
                        RecordError::field(format!("hands come with {key}, which is missing"))
                    })
                };
                Some(HandDeal {
                    hands,
                    salt: need("hands_salt")?,
                    commitment: need("hands_commitment")?,
                })
            }
        };
        let actions = obj
            .get("actions")
            .ok_or_else(|| RecordError::field("missing field \"actions\""))?
            .as_array()
            .ok_or_else(|| RecordError::field("actions must be an array"))?
            .iter()
            .enumerate()
            .map(|(i, a)| {
                parse_action(a).map_err(|m| RecordError {
                    action: Some(i),
                    message: m,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let claimed = Claimed::parse(obj)?;
        Ok(SiguoRecord {
            table,
            first,
            layouts,
            hands,
            salt: opt("salt")?,
            commitment: opt("commitment")?,
            actions,
            claimed,
        })
    }
}

/// The record's `seats` and `options`.
fn parse_table(obj: &Map<String, Value>) -> Result<SiguoTable, RecordError> {
    let err = |m: String| RecordError::field(format!("seats: {m}"));
    let seated: Vec<Seat4> = match obj.get("seats") {
        None => Seat4::ALL.to_vec(),
        Some(Value::Array(xs)) => xs
            .iter()
            .map(|x| parse_seat(Some(x)).map_err(err))
            .collect::<Result<_, _>>()?,
        Some(_) => return Err(err("an array of seats".into())),
    };
    let mut sorted = seated.clone();
    sorted.sort();
    sorted.dedup();
    if sorted != seated || !(3..=4).contains(&seated.len()) {
        return Err(err(
            "three or four different seats in turn order (south, east, north, west)".into(),
        ));
    }
    let options: SiguoOptions = match obj.get("options") {
        None | Some(Value::Null) => SiguoOptions::default(),
        Some(o) => serde_json::from_value(o.clone())
            .map_err(|e| RecordError::field(format!("options: {e}")))?,
    };
    if seated.len() == 3 && options.alliance != Alliance::None {
        return Err(err(
            "three seats (三国) play free-for-all: options.alliance \"none\"".into(),
        ));
    }
    Ok(SiguoTable { seated, options })
}
