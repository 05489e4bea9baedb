//! What the state frame's bytes are spent on, and what trimming its encoding would save
//! beside deflating it (printed before the benchmarks in `frames.rs`).

use serde_json::{Map, Value};

use super::{STATES, STREAMS, alone, frames, state};

fn len(v: &Value) -> usize {
    serde_json::to_string(v).expect("values serialise").len()
}

/// Prints `map`'s fields by serialised size, largest first.
fn fields(title: &str, map: &Map<String, Value>, whole: usize) {
    let mut f: Vec<(&String, usize)> = map.iter().map(|(k, v)| (k, len(v))).collect();
    f.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let shown: Vec<String> = f
        .iter()
        .filter(|(_, n)| *n > 8)
        .map(|(k, n)| format!("{k} {n} ({:.0}%)", 100.0 * *n as f64 / whole as f64))
        .collect();
    println!("| {title} | {} |", shown.join(", "));
}

pub fn fields_report() {
    println!("## Fields by serialised size (bytes, share of the frame)");
    println!();
    println!("| frame | fields over 8 bytes |");
    println!("|---|---|");
    for (name, text) in STATES {
        let s = state(text);
        let v: Value = serde_json::from_str(s).expect("a frame is JSON");
        assert_eq!(len(&v), s.len(), "re-serialised to the same length");
        let d = v["d"].as_object().expect("d");
        fields(&format!("{name}: `d`"), d, s.len());
        for sub in ["view", "game", "last", "deploy"] {
            if let Some(m) = d.get(sub).and_then(Value::as_object) {
                fields(&format!("{name}: `d.{sub}`"), m, s.len());
            }
        }
    }
    for (game, stream) in STREAMS {
        let mut sum: Map<String, Value> = Map::new();
        let mut whole = 0;
        let mut events = 0;
        for f in frames(stream) {
            let v: Value = serde_json::from_str(f).expect("a frame is JSON");
            if v["t"] != "event" {
                continue;
            }
            events += 1;
            whole += f.len();
            for (k, x) in v["d"].as_object().expect("d") {
                let n = sum.get(k).and_then(Value::as_u64).unwrap_or(0) + len(x) as u64;
                sum.insert(k.clone(), n.into());
            }
        }
        let mut f: Vec<(String, u64)> = sum
            .into_iter()
            .map(|(k, n)| (k, n.as_u64().unwrap_or(0)))
            .collect();
        f.sort_by_key(|x| std::cmp::Reverse(x.1));
        let shown: Vec<String> = f
            .iter()
            .take(6)
            .map(|(k, n)| format!("{k} {n} ({:.0}%)", 100.0 * *n as f64 / whole as f64))
            .collect();
        println!(
            "| {game}: all {events} events, {whole} bytes: `d` | {} |",
            shown.join(", ")
        );
    }
    println!();
}

/// A trim of the frame's encoding, applied to a parsed frame.
type Trim = fn(&mut Value);

/// `last.tallies` dropped from a state: the same array as `view.tallies`.
fn trim_last_tallies(v: &mut Value) {
    // `get_mut`, not `v["d"]`: indexing would add `"d":null` to an ack.
    let last = v.get_mut("d").and_then(|d| d.get_mut("last"));
    if let Some(last) = last.and_then(Value::as_object_mut) {
        last.remove("tallies");
    }
}

/// Applies `f` to the value of every field named `key`, at any depth.
fn each(v: &mut Value, key: &str, f: &mut impl FnMut(&mut Value)) {
    match v {
        Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                if k == key {
                    f(x);
                } else {
                    each(x, key, f);
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| each(x, key, f)),
        _ => {}
    }
}

/// Tallies as `[up, down, removed]` in their fixed order (red first, by rank) instead
/// of objects naming the piece and colour each time.
fn trim_tallies(v: &mut Value) {
    each(v, "tallies", &mut |t| {
        if let Value::Array(a) = t {
            for x in a.iter_mut() {
                *x = Value::Array(vec![x["up"].take(), x["down"].take(), x["removed"].take()]);
            }
        }
    });
}

/// Legal actions as strings: `"c3"` for a flip, `"a2-a6"` for a move.
fn trim_legal(v: &mut Value) {
    for key in ["legal", "repetition_warnings"] {
        each(v, key, &mut |t| {
            if let Value::Array(a) = t {
                for x in a.iter_mut() {
                    let s = if let Some(at) = x.get("flip").and_then(Value::as_str) {
                        at.to_owned()
                    } else if let Some(m) = x.get("move") {
                        format!(
                            "{}-{}",
                            m["from"].as_str().unwrap_or(""),
                            m["to"].as_str().unwrap_or("")
                        )
                    } else {
                        continue;
                    };
                    *x = Value::String(s);
                }
            }
        });
    }
}

/// The game summary without `creator` (always one of `players`) and the ranks without
/// their names (the page has the ladder): `{level, progress}` and the next level's
/// `from_score`.
fn trim_summary(v: &mut Value) {
    let game = v.get_mut("d").and_then(|d| d.get_mut("game"));
    let Some(game) = game.and_then(Value::as_object_mut) else {
        return;
    };
    let seated = match (game.get("creator"), game.get("players")) {
        (Some(c), Some(p)) => p["south"] == *c || p["north"] == *c,
        _ => false,
    };
    if seated {
        game.remove("creator");
    }
    let mut g = Value::Object(std::mem::take(game));
    each(&mut g, "rank", &mut |r| {
        if let Value::Object(m) = r {
            m.remove("chinese");
            m.remove("english");
            if let Some(Value::Object(next)) = m.get_mut("next") {
                next.remove("chinese");
                next.remove("english");
            }
        }
    });
    *game = match g {
        Value::Object(m) => m,
        _ => unreachable!(),
    };
}

/// Board cells as short strings: `"bomb red up"`, `"red down"`, `"down"`.
fn trim_board(v: &mut Value) {
    each(v, "board", &mut |b| {
        if let Value::Object(m) = b {
            for cell in m.values_mut() {
                if let Value::Object(c) = cell {
                    let words: Vec<&str> = ["piece", "colour", "face"]
                        .iter()
                        .filter_map(|k| c.get(*k).and_then(Value::as_str))
                        .collect();
                    *cell = Value::String(words.join(" "));
                }
            }
        }
    });
}

const TRIMS: [(&str, Trim); 5] = [
    ("`last.tallies` dropped", trim_last_tallies),
    ("tallies as [up, down, removed]", trim_tallies),
    ("legal actions as strings", trim_legal),
    ("summary without `creator` and rank names", trim_summary),
    ("board cells as strings", trim_board),
];

pub fn trims_report() {
    println!("## Trimming the frame instead: bytes raw / level 6 alone");
    println!();
    let names: Vec<&str> = TRIMS.iter().map(|t| t.0).collect();
    println!("| frame | as sent | {} | all of them |", names.join(" | "));
    println!("|---|---|{}---|", "---|".repeat(TRIMS.len()));
    let row = |name: &str, texts: &[&str]| {
        let parsed: Vec<Value> = texts
            .iter()
            .map(|t| serde_json::from_str(t).expect("a frame is JSON"))
            .collect();
        let measure = |vs: &[Value]| {
            let (mut raw, mut l6) = (0, 0);
            for v in vs {
                let s = serde_json::to_string(v).expect("values serialise");
                raw += s.len();
                l6 += alone(6, &s);
            }
            format!("{raw} / {l6}")
        };
        let as_sent = measure(&parsed);
        let raw: usize = texts.iter().map(|t| t.len()).sum();
        assert!(
            as_sent.starts_with(&format!("{raw} /")),
            "re-serialised as sent"
        );
        let mut cells = vec![as_sent];
        for (_, trim) in TRIMS {
            let mut vs = parsed.clone();
            vs.iter_mut().for_each(trim);
            cells.push(measure(&vs));
        }
        let mut vs = parsed.clone();
        for (_, trim) in TRIMS {
            vs.iter_mut().for_each(trim);
        }
        cells.push(measure(&vs));
        println!("| {name} | {} |", cells.join(" | "));
    };
    for (name, text) in STATES {
        row(name, &[state(text)]);
    }
    for (game, stream) in STREAMS {
        let later: Vec<&str> = frames(stream).into_iter().skip(1).collect();
        row(
            &format!("{game}: the {} frames after the first, summed", later.len()),
            &later,
        );
    }
    println!();
}
