//! A 四国 record's actions: what each seat did, and what the table did for it (托管
//! and escapes), written and read one by one with errors that name the field.

use crate::quote::quoted;
use crate::rules::hidden_game::{Applied, Escape, Escaped, HiddenGame, Step, TuoguanKind};
use crate::rules::siguo::{FourPlayer, Seat4, Station};
use serde_json::{Map, Value, json};

/// Makes one recorded action of `seat` on `game`, as a live table, a replay and the
/// record's verification all do: the step it made, if any (a move, pass, timeout or
/// resignation, or the defeat an escape brought).
pub fn apply_action(
    game: &mut HiddenGame<FourPlayer>,
    seat: Seat4,
    action: SiguoAction,
) -> Result<Option<Applied<FourPlayer>>, String> {
    Ok(match action {
        SiguoAction::Step(step) => Some(game.apply(seat, step).map_err(|e| e.to_string())?),
        SiguoAction::Tuoguan(kind) => {
            game.start_tuoguan(seat, kind).map_err(|e| e.to_string())?;
            None
        }
        SiguoAction::EndTuoguan => {
            game.end_tuoguan(seat).map_err(|e| e.to_string())?;
            None
        }
        SiguoAction::Escape(how) => match game.escape(seat, how).map_err(|e| e.to_string())? {
            Escaped::Defeated(a) => Some(a),
            _ => None,
        },
        SiguoAction::DeclinePlayOn => {
            game.decline_play_on(seat).map_err(|e| e.to_string())?;
            None
        }
    })
}

/// One entry of a 四国 record's `actions`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SiguoAction {
    /// A seat's own action: a move or attack, a pass, a timeout, a resignation or one
    /// of the draw's.
    Step(Step<Station>),
    /// The server starts playing the seat.
    Tuoguan(TuoguanKind),
    /// The player takes the seat back.
    EndTuoguan,
    /// The player left or stayed away past the grace.
    Escape(Escape),
    /// The ally of a seat in 断线托管 would not play on.
    DeclinePlayOn,
}

pub fn action_json(seat: Seat4, a: SiguoAction) -> Value {
    let (key, value) = match a {
        SiguoAction::Step(Step::Move { from, to }) => {
            ("move", json!({"from": from.as_str(), "to": to.as_str()}))
        }
        SiguoAction::Step(Step::Pass) => ("pass", json!(true)),
        SiguoAction::Step(Step::Timeout) => ("timeout", json!(true)),
        SiguoAction::Step(Step::Resign) => ("resign", json!(true)),
        SiguoAction::Step(Step::OfferDraw) => ("offer_draw", json!(true)),
        SiguoAction::Step(Step::AcceptDraw) => ("accept_draw", json!(true)),
        SiguoAction::Step(Step::DeclineDraw) => ("decline_draw", json!(true)),
        SiguoAction::Tuoguan(kind) => ("tuoguan", json!(kind_name(kind))),
        SiguoAction::EndTuoguan => ("end_tuoguan", json!(true)),
        SiguoAction::Escape(Escape::Left) => ("escape", json!("left")),
        SiguoAction::Escape(Escape::StayedAway) => ("escape", json!("stayed_away")),
        SiguoAction::DeclinePlayOn => ("decline_play_on", json!(true)),
    };
    let mut m = Map::new();
    m.insert("seat".into(), json!(seat));
    m.insert(key.into(), value);
    Value::Object(m)
}

fn kind_name(k: TuoguanKind) -> &'static str {
    match k {
        TuoguanKind::Manual => "manual",
        TuoguanKind::Disconnect => "disconnect",
        TuoguanKind::Exit => "exit",
    }
}

pub fn describe(a: SiguoAction) -> String {
    match a {
        SiguoAction::Step(Step::Move { from, to }) => format!("move {from}→{to}"),
        SiguoAction::Step(Step::Pass) => "pass".into(),
        SiguoAction::Step(Step::Timeout) => "timeout".into(),
        SiguoAction::Step(Step::Resign) => "resignation".into(),
        SiguoAction::Step(Step::OfferDraw) => "draw offer".into(),
        SiguoAction::Step(Step::AcceptDraw) => "draw accept".into(),
        SiguoAction::Step(Step::DeclineDraw) => "draw decline".into(),
        SiguoAction::Tuoguan(k) => format!("{} 托管", kind_name(k)),
        SiguoAction::EndTuoguan => "end of 托管".into(),
        SiguoAction::Escape(_) => "escape".into(),
        SiguoAction::DeclinePlayOn => "no to playing on".into(),
    }
}

pub fn parse_seat(v: Option<&Value>) -> Result<Seat4, String> {
    match v.and_then(Value::as_str) {
        Some(name) => Seat4::ALL
            .into_iter()
            .find(|s| s.name() == name)
            .ok_or_else(|| format!("unknown seat {} (south, east, north or west)", quoted(name))),
        None => Err("a seat (\"south\", \"east\", \"north\" or \"west\") is required".into()),
    }
}

pub fn parse_station(v: Option<&Value>, what: &str) -> Result<Station, String> {
    let name = v
        .and_then(Value::as_str)
        .ok_or_else(|| format!("{what} names a station"))?;
    name.parse()
        .map_err(|_| format!("{what}: unknown station {}", quoted(name)))
}

/// One action object: a `seat` and exactly one action key.
pub fn parse_action(v: &Value) -> Result<(Seat4, SiguoAction), String> {
    let obj = v.as_object().ok_or("an action is a JSON object")?;
    let seat = parse_seat(obj.get("seat"))?;
    let mut found = None;
    for (k, val) in obj {
        if k == "seat" {
            continue;
        }
        let flag = |a: SiguoAction| {
            if val == &Value::Bool(true) {
                Ok(a)
            } else {
                Err(format!("{k} must be true"))
            }
        };
        let action = match k.as_str() {
            "move" => SiguoAction::Step(Step::Move {
                from: parse_station(val.get("from"), "move.from")?,
                to: parse_station(val.get("to"), "move.to")?,
            }),
            "pass" => flag(SiguoAction::Step(Step::Pass))?,
            "timeout" => flag(SiguoAction::Step(Step::Timeout))?,
            "resign" => flag(SiguoAction::Step(Step::Resign))?,
            "offer_draw" => flag(SiguoAction::Step(Step::OfferDraw))?,
            "accept_draw" => flag(SiguoAction::Step(Step::AcceptDraw))?,
            "decline_draw" => flag(SiguoAction::Step(Step::DeclineDraw))?,
            "end_tuoguan" => flag(SiguoAction::EndTuoguan)?,
            "decline_play_on" => flag(SiguoAction::DeclinePlayOn)?,
            "tuoguan" => SiguoAction::Tuoguan(match val.as_str() {
                Some("manual") => TuoguanKind::Manual,
                Some("disconnect") => TuoguanKind::Disconnect,
                Some("exit") => TuoguanKind::Exit,
                _ => return Err("tuoguan is \"manual\", \"disconnect\" or \"exit\"".into()),
            }),
            "escape" => SiguoAction::Escape(match val.as_str() {
                Some("left") => Escape::Left,
                Some("stayed_away") => Escape::StayedAway,
                _ => return Err("escape is \"left\" or \"stayed_away\"".into()),
            }),
            other => return Err(format!("unknown action {}", quoted(other))),
        };
        if found.replace(action).is_some() {
            return Err("an action object names exactly one action".into());
        }
    }
    found
        .map(|a| (seat, a))
        .ok_or_else(|| "an action object names one action besides its seat".into())
}
