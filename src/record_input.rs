//! What a `junqi-record/1` text must be before it is read: not too large, not too many
//! actions, every object's keys unique. These checks walk the text without building
//! anything from it, so that a hostile record costs little memory: parsed whole into
//! `serde_json::Value`, a 51 MB record took 1.3 GB.

use crate::record::RecordError;
use std::fmt;
use std::io::{self, Read};

/// The largest record read: 4 MiB. The longest legal game (below) written with
/// `at_ms` and pretty-printed comes to about 1.5 MiB; a finished flip game is ~20 KB.
pub const MAX_RECORD_BYTES: usize = 4 << 20;

/// The most actions a record may hold. Flip chess ends by 300 steps, plus at most 3
/// draw offers a seat, their answers and one resignation or escape: 313 actions.
/// Standard 军棋 has no step limit but draws after 70 steps without an attack, and each
/// attack removes a piece of the 50, so it ends within about 51 × 70 = 3,570 steps; its
/// draw offers are unlimited by the rules but each one waits for an answer. 10,000
/// leaves room for both with a wide margin and bounds the replay's work.
pub const MAX_ACTIONS: usize = 10_000;

/// The byte-order mark some editors (Windows Notepad) put before UTF-8 text.
const BOM: char = '\u{feff}';

/// Checks `text` and gives it back without a leading byte-order mark.
pub fn precheck(text: &str) -> Result<&str, RecordError> {
    let text = text.strip_prefix(BOM).unwrap_or(text);
    if text.len() > MAX_RECORD_BYTES {
        return Err(too_large());
    }
    // serde_json keeps the last of two equal keys; a record must not say one square
    // (or anything else) twice, so check for that before reading it.
    let outline: Outline = serde_json::from_str(text).map_err(|e| RecordError::malformed(&e))?;
    for (field, n) in [("actions", outline.actions), ("at_ms", outline.at_ms)] {
        if n > MAX_ACTIONS {
            return Err(RecordError::field(format!(
                "{field} has {n} entries; a record holds at most {MAX_ACTIONS} actions \
                 (no game is that long)"
            )));
        }
    }
    Ok(text)
}

fn too_large() -> RecordError {
    RecordError::field(format!(
        "the record is larger than {} MiB; no game record is that large",
        MAX_RECORD_BYTES >> 20
    ))
}

/// Reads at most [`MAX_RECORD_BYTES`] (and a byte-order mark) from `input`: the
/// outer `Err` when it cannot be read (or is not UTF-8), the inner one when there is
/// more, without reading the rest.
pub fn read_limited(input: impl Read) -> io::Result<Result<String, RecordError>> {
    let limit = (MAX_RECORD_BYTES + BOM.len_utf8() + 1) as u64;
    let mut bytes = Vec::new();
    input.take(limit).read_to_end(&mut bytes)?;
    // The size first: the read may end inside a character of a record too large, which
    // is no reason to call the file unreadable.
    let mut bom = [0; 3];
    let body = bytes
        .strip_prefix(BOM.encode_utf8(&mut bom).as_bytes())
        .unwrap_or(&bytes);
    if body.len() > MAX_RECORD_BYTES {
        return Ok(Err(too_large()));
    }
    let text =
        String::from_utf8(bytes).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
    Ok(Ok(text))
}

/// A record's top level: keys unique at every depth, and the length of its two
/// per-action arrays (0 when they are not arrays: reading says why later).
#[derive(Default)]
struct Outline {
    actions: usize,
    at_ms: usize,
}

impl<'de> serde::Deserialize<'de> for Outline {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Outline, D::Error> {
        d.deserialize_any(OutlineVisitor)
    }
}

struct OutlineVisitor;

impl<'de> serde::de::Visitor<'de> for OutlineVisitor {
    type Value = Outline;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Outline, A::Error> {
        let mut seen = std::collections::HashSet::new();
        let mut outline = Outline::default();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                return Err(twice(&key));
            }
            match key.as_str() {
                "actions" => outline.actions = map.next_value::<Counted>()?.0,
                "at_ms" => outline.at_ms = map.next_value::<Counted>()?.0,
                _ => {
                    map.next_value::<UniqueKeys>()?;
                }
            }
        }
        Ok(outline)
    }

    // Anything else is no record; `Record::from_json` says so.
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<Outline, A::Error> {
        UniqueKeysVisitor.visit_seq(seq).map(|_| Outline::default())
    }
    fn visit_bool<E>(self, _: bool) -> Result<Outline, E> {
        Ok(Outline::default())
    }
    fn visit_i64<E>(self, _: i64) -> Result<Outline, E> {
        Ok(Outline::default())
    }
    fn visit_u64<E>(self, _: u64) -> Result<Outline, E> {
        Ok(Outline::default())
    }
    fn visit_f64<E>(self, _: f64) -> Result<Outline, E> {
        Ok(Outline::default())
    }
    fn visit_str<E>(self, _: &str) -> Result<Outline, E> {
        Ok(Outline::default())
    }
    fn visit_unit<E>(self) -> Result<Outline, E> {
        Ok(Outline::default())
    }
}

fn twice<E: serde::de::Error>(key: &str) -> E {
    E::custom(format!(
        "the key {} appears twice in one object",
        crate::quote::quoted(key)
    ))
}

/// Any JSON value with unique keys; an array's length.
struct Counted(usize);

impl<'de> serde::Deserialize<'de> for Counted {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Counted, D::Error> {
        d.deserialize_any(CountedVisitor)
    }
}

struct CountedVisitor;

impl<'de> serde::de::Visitor<'de> for CountedVisitor {
    type Value = Counted;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Counted, A::Error> {
        let mut n = 0;
        while seq.next_element::<UniqueKeys>()?.is_some() {
            n += 1;
        }
        Ok(Counted(n))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Counted, A::Error> {
        UniqueKeysVisitor.visit_map(map).map(|_| Counted(0))
    }
    fn visit_bool<E>(self, _: bool) -> Result<Counted, E> {
        Ok(Counted(0))
    }
    fn visit_i64<E>(self, _: i64) -> Result<Counted, E> {
        Ok(Counted(0))
    }
    fn visit_u64<E>(self, _: u64) -> Result<Counted, E> {
        Ok(Counted(0))
    }
    fn visit_f64<E>(self, _: f64) -> Result<Counted, E> {
        Ok(Counted(0))
    }
    fn visit_str<E>(self, _: &str) -> Result<Counted, E> {
        Ok(Counted(0))
    }
    fn visit_unit<E>(self) -> Result<Counted, E> {
        Ok(Counted(0))
    }
}

/// Any JSON value, refused if an object anywhere in it names a key twice.
struct UniqueKeys;

impl<'de> serde::Deserialize<'de> for UniqueKeys {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<UniqueKeys, D::Error> {
        d.deserialize_any(UniqueKeysVisitor)
    }
}

struct UniqueKeysVisitor;

impl<'de> serde::de::Visitor<'de> for UniqueKeysVisitor {
    type Value = UniqueKeys;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<UniqueKeys, A::Error> {
        let mut seen = std::collections::HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                return Err(twice(&key));
            }
            map.next_value::<UniqueKeys>()?;
        }
        Ok(UniqueKeys)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<UniqueKeys, A::Error> {
        while seq.next_element::<UniqueKeys>()?.is_some() {}
        Ok(UniqueKeys)
    }

    fn visit_bool<E>(self, _: bool) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }
    fn visit_i64<E>(self, _: i64) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }
    fn visit_u64<E>(self, _: u64) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }
    fn visit_f64<E>(self, _: f64) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }
    fn visit_str<E>(self, _: &str) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }
    fn visit_unit<E>(self) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }
}
