//! Saved standard 军棋 layouts outside the database: their names, and the small
//! `junqi-layout/1` JSON file they are exported to and imported from.

#[cfg(test)]
use crate::record::layout_json;
use crate::record::parse_layout;
use crate::rules::board::Square;
use crate::rules::layout::{Layout, LayoutViolation};
use crate::rules::{Piece, Seat};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// How many layouts one player may keep.
pub const MAX_SAVED: usize = 50;
/// Longest layout name, in characters.
pub const MAX_NAME: usize = 40;

/// A layout name as stored: trimmed, 1–40 characters, none of them hidden or
/// reordering text (control, bidi, zero-width: [`crate::text::hidden_or_reordering`]).
/// Any other character is allowed: layout names are free text, shown escaped.
pub fn check_name(name: &str) -> Result<String, String> {
    let name = name.trim();
    if name.is_empty() {
        return Err("a layout needs a name".into());
    }
    if name.chars().count() > MAX_NAME {
        return Err(format!("a layout name has at most {MAX_NAME} characters"));
    }
    if let Some(c) = crate::text::first_hidden(name) {
        return Err(format!(
            "a layout name cannot hold control, bidirectional or invisible characters ({})",
            crate::text::code_point(c)
        ));
    }
    Ok(name.to_string())
}

/// The `format` value of a layout file.
pub const FORMAT: &str = "junqi-layout/1";

/// Every rule `layout` (seen from its owner's side) breaks, as one message; `Ok` when
/// it may be saved.
pub fn check_layout(layout: &Layout) -> Result<(), String> {
    let broken = layout.violations(Seat::South);
    if broken.is_empty() {
        return Ok(());
    }
    // Empty stations are listed in one sentence: a sparse layout would otherwise repeat
    // the same explanation for each of up to 25 squares.
    let empty: Vec<String> = broken
        .iter()
        .filter_map(|v| match v {
            LayoutViolation::EmptyStation(s) => Some(s.to_string()),
            _ => None,
        })
        .collect();
    let mut reasons: Vec<String> = broken
        .iter()
        .filter(|v| !matches!(v, LayoutViolation::EmptyStation(_)))
        .map(ToString::to_string)
        .collect();
    match empty.len() {
        0 => {}
        1 => reasons.push(
            broken
                .iter()
                .find(|v| matches!(v, LayoutViolation::EmptyStation(_)))
                .expect("one empty station")
                .to_string(),
        ),
        _ => reasons.push(format!(
            "{} are empty; every non-camp station of your half holds a piece",
            empty.join(", ")
        )),
    }
    let mut message = format!("the layout breaks the rules: {}", reasons.join("; "));
    if broken
        .iter()
        .any(|v| matches!(v, LayoutViolation::OutsideOwnHalf(_)))
    {
        // The usual cause is a layout copied from North's squares of a game record.
        message.push_str(" (a saved layout is written from its owner's side: squares a1–e6)");
    }
    Err(message)
}

#[derive(Serialize)]
struct File<'a> {
    format: &'static str,
    name: &'a str,
    // The map of squares keeps square order (a1, b1, … e6), the order people read a
    // layout in, which a JSON object built from `Value` would not.
    layout: &'a BTreeMap<Square, Piece>,
}

/// The `junqi-layout/1` file of a saved layout, pretty-printed.
pub fn export(name: &str, layout: &Layout) -> String {
    let file = File {
        format: FORMAT,
        name,
        layout: &layout.0,
    };
    let mut text = serde_json::to_string_pretty(&file).expect("a layout file serialises");
    text.push('\n');
    text
}

/// Reads a `junqi-layout/1` file: its name (as [`check_name`] keeps it) and a layout
/// that keeps every deployment rule. The error says what is wrong, all of it where the
/// layout breaks several rules.
pub fn import(text: &str) -> Result<(String, Layout), String> {
    let value: Value = serde_json::from_str(text.trim_start_matches('\u{feff}'))
        .map_err(|e| format!("the file is not JSON: {e}"))?;
    let obj = value
        .as_object()
        .ok_or("the file must hold a JSON object with format, name and layout")?;
    match obj.get("format") {
        None => return Err(format!("the file has no \"format\"; expected {FORMAT:?}")),
        Some(Value::String(f)) if f == FORMAT => {}
        Some(Value::String(f)) => {
            return Err(format!("the format is {f:?}; expected {FORMAT:?}"));
        }
        Some(_) => return Err(format!("\"format\" must be the string {FORMAT:?}")),
    }
    let name = match obj.get("name") {
        None => return Err("the file has no \"name\"".into()),
        Some(Value::String(n)) => check_name(n)?,
        Some(_) => return Err("\"name\" must be a string".into()),
    };
    let layout = parse_layout(obj.get("layout").ok_or("the file has no \"layout\"")?)
        .map_err(|m| format!("layout{m}"))?;
    check_layout(&layout)?;
    Ok((name, layout))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::StdRng;
    use serde_json::json;

    fn random() -> Layout {
        Layout::random(Seat::South, &mut StdRng::seed_from_u64(11))
    }

    fn file(layout: Value) -> String {
        json!({"format": FORMAT, "name": "铁桶阵", "layout": layout}).to_string()
    }

    fn err(text: &str) -> String {
        import(text).expect_err("the file is refused")
    }

    #[test]
    fn an_exported_layout_imports_as_itself() {
        let layout = random();
        let text = export("铁桶阵", &layout);
        assert_eq!(import(&text), Ok(("铁桶阵".to_string(), layout.clone())));
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["format"], FORMAT);
        assert_eq!(v["name"], "铁桶阵");
        assert_eq!(v["layout"], layout_json(&layout));
    }

    #[test]
    fn the_file_lists_squares_in_board_order() {
        let text = export("x", &random());
        let a1 = text.find("\"a1\"").unwrap();
        let b1 = text.find("\"b1\"").unwrap();
        let a2 = text.find("\"a2\"").unwrap();
        assert!(a1 < b1 && b1 < a2, "{text}");
        assert!(text.contains('\n'), "pretty-printed");
    }

    #[test]
    fn a_byte_order_mark_and_the_long_piece_form_are_accepted() {
        let layout = random();
        let long: serde_json::Map<String, Value> = layout
            .0
            .iter()
            .map(|(s, p)| (s.to_string(), json!({"piece": p})))
            .collect();
        let text = format!("\u{feff}{}", file(Value::Object(long)));
        assert_eq!(import(&text).unwrap().1, layout);
    }

    #[test]
    fn text_that_is_not_json_is_refused_as_such() {
        assert!(err("not a layout").starts_with("the file is not JSON"));
        assert!(err("").starts_with("the file is not JSON"));
        assert!(err("[1,2]").contains("JSON object"));
    }

    #[test]
    fn the_format_must_be_named_and_right() {
        let l = layout_json(&random());
        assert!(err(&json!({"name": "a", "layout": l}).to_string()).contains("no \"format\""));
        let wrong = json!({"format": "junqi-record/1", "name": "a", "layout": l}).to_string();
        assert!(
            err(&wrong).contains("\"junqi-record/1\""),
            "{}",
            err(&wrong)
        );
        let number = json!({"format": 1, "name": "a", "layout": l}).to_string();
        assert!(err(&number).contains("must be the string"));
    }

    #[test]
    fn the_name_must_be_a_usable_name() {
        let l = layout_json(&random());
        assert!(err(&json!({"format": FORMAT, "layout": l}).to_string()).contains("no \"name\""));
        let blank = json!({"format": FORMAT, "name": "  ", "layout": l}).to_string();
        assert_eq!(err(&blank), "a layout needs a name");
        let long = json!({"format": FORMAT, "name": "阵".repeat(MAX_NAME + 1), "layout": l});
        assert!(err(&long.to_string()).contains("at most 40"));
        let number = json!({"format": FORMAT, "name": 7, "layout": l}).to_string();
        assert_eq!(err(&number), "\"name\" must be a string");
        let padded = json!({"format": FORMAT, "name": " 左 ", "layout": l}).to_string();
        assert_eq!(import(&padded).unwrap().0, "左");
    }

    #[test]
    fn bad_squares_and_pieces_are_named() {
        assert!(err(&json!({"format": FORMAT, "name": "a"}).to_string()).contains("no \"layout\""));
        assert!(err(&file(json!([]))).starts_with("layout must be"));
        let mut l = layout_json(&random());
        l["z9"] = json!("mine");
        assert!(err(&file(l)).contains("layout z9: unknown square"));
        let mut l = layout_json(&random());
        l["a1"] = json!("queen");
        assert!(err(&file(l)).contains("layout a1: unknown piece \"queen\""));
    }

    #[test]
    fn every_broken_rule_is_listed() {
        let mut layout = random();
        let flag = *layout.0.iter().find(|(_, p)| **p == Piece::Flag).unwrap().0;
        let front = "c6".parse().unwrap();
        // Flag to the front rank, and whatever stood there to the headquarters.
        layout.swap(flag, front);
        let mut v = layout_json(&layout);
        v.as_object_mut().unwrap().remove("a5");
        let message = err(&file(v));
        assert!(message.contains("the flag on c6"), "{message}");
        assert!(message.contains("a5 is empty"), "{message}");
        assert!(message.contains("placed, the set has"), "{message}");
    }

    #[test]
    fn empty_stations_are_named_in_one_sentence() {
        let message = check_layout(&Layout::default()).unwrap_err();
        assert_eq!(
            message.matches("every non-camp station").count(),
            1,
            "{message}"
        );
        assert!(message.contains("a1, b1, c1"), "{message}");
        assert!(message.contains("0 × marshal placed"), "{message}");
    }

    #[test]
    fn north_squares_get_a_hint() {
        let north = random().from_own_view(Seat::North);
        let message = err(&file(layout_json(&north)));
        assert!(message.contains("is not in your half"), "{message}");
        assert!(message.contains("a1–e6"), "{message}");
    }

    #[test]
    fn check_layout_passes_a_valid_layout() {
        assert_eq!(check_layout(&random()), Ok(()));
    }
}
