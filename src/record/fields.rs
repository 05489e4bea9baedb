//! The record's JSON fields one by one: writing deals, actions and layouts, and
//! reading them back with errors that name the field.

use super::{RecordError, Setup};
use crate::quote::{QUOTE_CHARS, clipped, quoted};
use crate::rules::deal::Deal;
use crate::rules::{Action, Colour, Layout, Piece, Seat, Square};
use serde_json::{Map, Value, json};

/// A deal as square → `{piece, colour}`, in square order.
pub fn deal_json(d: &Deal) -> Value {
    Value::Object(
        d.entries()
            .map(|(s, (p, c))| (s.to_string(), json!({"piece": p, "colour": c})))
            .collect(),
    )
}

/// One action as the record writes it: `{"seat":…, "<action>":…}`.
pub fn action_json(seat: Seat, a: Action) -> Value {
    let mut v = serde_json::to_value(a).expect("action serialises");
    v.as_object_mut()
        .expect("action is an object")
        .insert("seat".into(), json!(seat));
    v
}

pub(super) fn describe(a: Action) -> String {
    match a {
        Action::Flip(s) => format!("flip {s}"),
        Action::Move { from, to } => format!("move {from}→{to}"),
        Action::Timeout => "timeout".into(),
        Action::Pass => "pass".into(),
        Action::OfferDraw => "draw offer".into(),
        Action::AcceptDraw => "draw accept".into(),
        Action::DeclineDraw => "draw decline".into(),
        Action::Resign => "resignation".into(),
        Action::Escape => "escape".into(),
    }
}

pub(super) fn str_field<'a>(
    obj: &'a Map<String, Value>,
    key: &str,
) -> Result<&'a str, RecordError> {
    obj.get(key)
        .ok_or_else(|| RecordError::field(format!("missing field {key:?}")))?
        .as_str()
        .ok_or_else(|| RecordError::field(format!("{key} must be a string")))
}

pub(super) fn opt_str<'a>(
    obj: &'a Map<String, Value>,
    key: &str,
) -> Result<Option<&'a str>, RecordError> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(RecordError::field(format!("{key} must be a string"))),
    }
}

pub(super) fn seat(v: Option<&Value>, what: &str) -> Result<Seat, RecordError> {
    parse_seat(v).map_err(|m| RecordError::field(format!("{what}: {m}")))
}

fn parse_seat(v: Option<&Value>) -> Result<Seat, String> {
    match v.and_then(Value::as_str) {
        Some("south") => Ok(Seat::South),
        Some("north") => Ok(Seat::North),
        Some(other) => Err(format!("unknown seat {} (south or north)", quoted(other))),
        None => Err("a seat (\"south\" or \"north\") is required".into()),
    }
}

/// A square by its name (`a1` … `e12`), or why not, quoting at most a short prefix of
/// what was sent (the rules' own error quotes all of it). The sockets read squares
/// with this too.
pub fn parse_square(s: &str) -> Result<Square, String> {
    s.parse()
        .map_err(|_| format!("unknown square {} (files a–e, ranks 1–12)", quoted(s)))
}

fn square(s: &str) -> Result<Square, String> {
    parse_square(s)
}

fn piece(v: &Value) -> Result<Piece, String> {
    let name = v.as_str().ok_or("a piece name must be a string")?;
    name.parse()
        .map_err(|_| format!("unknown piece {}", quoted(name)))
}

/// An object key as an error names it, unquoted (`deal a1: …`) and cut short.
fn key(k: &str) -> std::borrow::Cow<'_, str> {
    clipped(k, QUOTE_CHARS)
}

/// Reads a deal written as square → `{piece, colour}`.
pub fn parse_deal(v: &Value) -> Result<Deal, RecordError> {
    let obj = v
        .as_object()
        .ok_or_else(|| RecordError::field("deal must be an object of square → {piece, colour}"))?;
    let mut entries = Vec::with_capacity(obj.len());
    for (k, e) in obj {
        let err = |m: String| RecordError::field(format!("deal {}: {m}", key(k)));
        let s = square(k).map_err(err)?;
        let p = piece(e.get("piece").unwrap_or(&Value::Null)).map_err(err)?;
        let c = match e.get("colour").and_then(Value::as_str) {
            Some("red") => Colour::Red,
            Some("blue") => Colour::Blue,
            Some(other) => {
                return Err(err(format!(
                    "unknown colour {} (red or blue)",
                    quoted(other)
                )));
            }
            None => return Err(err("a colour (red or blue) is required".into())),
        };
        entries.push((s, p, c));
    }
    Deal::from_entries(entries).map_err(|e| RecordError::field(e.to_string()))
}

pub(super) fn parse_layouts(v: &Value) -> Result<Setup, RecordError> {
    let side = |seat: Seat| -> Result<Layout, RecordError> {
        let obj = v.get(seat.name()).unwrap_or(&Value::Null);
        let l = parse_layout(obj).map_err(|m| RecordError::field(format!("layouts.{seat}{m}")))?;
        let bad = l.violations(seat);
        if let Some(first) = bad.first() {
            return Err(RecordError::field(format!("layouts.{seat}: {first}")));
        }
        Ok(l)
    };
    Ok(Setup::Layouts {
        south: side(Seat::South)?,
        north: side(Seat::North)?,
    })
}

/// One side's layout, `{"a1":"flag",…}` (a value may also be `{"piece":"flag"}`), read
/// without judging whether it is a legal deployment. An error starts with the key it
/// concerns, if any (`" a1: …"`), or `" must be …"`.
pub fn parse_layout(v: &Value) -> Result<Layout, String> {
    let obj = v
        .as_object()
        .ok_or(" must be an object of square → piece")?;
    let mut l = Layout::default();
    for (k, e) in obj {
        let err = |m: String| format!(" {}: {m}", key(k));
        let s = square(k).map_err(err)?;
        let p = match e {
            Value::Object(o) => piece(o.get("piece").unwrap_or(&Value::Null)),
            other => piece(other),
        }
        .map_err(err)?;
        l.0.insert(s, p);
    }
    Ok(l)
}

/// A layout stored as JSON text (saved, last used, or in a deployment).
pub fn parse_layout_text(text: &str) -> Result<Layout, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!(" is not JSON: {e}"))?;
    parse_layout(&v)
}

/// One side's layout as `{"a1":"flag",…}` in square order.
pub fn layout_json(l: &Layout) -> Value {
    Value::Object(l.0.iter().map(|(s, p)| (s.to_string(), json!(p))).collect())
}

/// One action object: a `seat` and exactly one action key.
pub fn parse_action(v: &Value) -> Result<(Seat, Action), String> {
    let obj = v.as_object().ok_or("an action is a JSON object")?;
    let seat = parse_seat(obj.get("seat"))?;
    let mut found = None;
    for (k, val) in obj {
        if k == "seat" {
            continue;
        }
        // Who played it, beside the action: the computer standing in for the seat.
        if k == "by" {
            if val != "tuoguan" {
                return Err("by, when present, must be \"tuoguan\"".into());
            }
            continue;
        }
        let flag = |name: &str, a: Action| {
            if val == &Value::Bool(true) {
                Ok(a)
            } else {
                Err(format!("{name} must be true"))
            }
        };
        let action = match k.as_str() {
            "flip" => Action::Flip(square(val.as_str().ok_or("flip names a square")?)?),
            "move" => {
                let from = val
                    .get("from")
                    .and_then(Value::as_str)
                    .ok_or("move needs from and to squares")?;
                let to = val
                    .get("to")
                    .and_then(Value::as_str)
                    .ok_or("move needs from and to squares")?;
                Action::Move {
                    from: square(from)?,
                    to: square(to)?,
                }
            }
            "timeout" => flag(k, Action::Timeout)?,
            "pass" => flag(k, Action::Pass)?,
            "offer_draw" => flag(k, Action::OfferDraw)?,
            "accept_draw" => flag(k, Action::AcceptDraw)?,
            "decline_draw" => flag(k, Action::DeclineDraw)?,
            "resign" => flag(k, Action::Resign)?,
            "escape" => flag(k, Action::Escape)?,
            other => return Err(format!("unknown action {}", quoted(other))),
        };
        if found.replace(action).is_some() {
            return Err("an action object holds exactly one action".into());
        }
    }
    let action = found.ok_or("the action object names no action")?;
    Ok((seat, action))
}
