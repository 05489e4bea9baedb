//! Reads the JSDoc types the page is checked against (static/js/messages.js and
//! table_messages.js, read as one text: see [`page_types`]) and checks
//! real JSON messages against them, so that the server's messages and the page's idea of
//! them cannot drift apart. It understands the small part of the JSDoc type language
//! that file uses: named types, `'literal'`, unions, `T[]`, tuples `[A, B]`,
//! `Record<string, T>`, inline `{a: T, b?: T}` objects, and `@typedef {Object}` blocks
//! of `@property` lines.
#![allow(dead_code)]

use serde_json::Value;
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq)]
pub enum Type {
    Any,
    Str,
    Num,
    Bool,
    Null,
    Lit(String),
    Named(String),
    Union(Vec<Type>),
    Array(Box<Type>),
    /// A JSON array of exactly these items, in order.
    Tuple(Vec<Type>),
    Record(Box<Type>),
    /// Fields with whether each may be left out.
    Object(Fields),
}

pub type Fields = BTreeMap<String, (Type, bool)>;

pub struct Types(pub BTreeMap<String, Type>);

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        self.ws();
        if self.s.get(self.i) == Some(&c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn ident(&mut self) -> String {
        self.ws();
        let start = self.i;
        while self
            .s
            .get(self.i)
            .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
        {
            self.i += 1;
        }
        assert!(self.i > start, "a name at {}", self.rest());
        String::from_utf8_lossy(&self.s[start..self.i]).into_owned()
    }

    fn rest(&self) -> String {
        String::from_utf8_lossy(&self.s[self.i..]).into_owned()
    }

    fn union(&mut self) -> Type {
        let mut alts = vec![self.postfix()];
        while self.eat(b'|') {
            alts.push(self.postfix());
        }
        if alts.len() == 1 {
            alts.pop().unwrap()
        } else {
            Type::Union(alts)
        }
    }

    fn postfix(&mut self) -> Type {
        let mut t = self.primary();
        loop {
            self.ws();
            if self.s[self.i..].starts_with(b"[]") {
                self.i += 2;
                t = Type::Array(Box::new(t));
            } else {
                return t;
            }
        }
    }

    fn primary(&mut self) -> Type {
        if self.eat(b'(') {
            let t = self.union();
            assert!(self.eat(b')'), "a closing ) at {}", self.rest());
            return t;
        }
        if self.eat(b'[') {
            let mut items = vec![self.union()];
            while self.eat(b',') {
                items.push(self.union());
            }
            assert!(self.eat(b']'), "a closing ] at {}", self.rest());
            return Type::Tuple(items);
        }
        if self.eat(b'\'') {
            let start = self.i;
            while self.s[self.i] != b'\'' {
                self.i += 1;
            }
            let lit = String::from_utf8_lossy(&self.s[start..self.i]).into_owned();
            self.i += 1;
            return Type::Lit(lit);
        }
        if self.eat(b'{') {
            let mut fields = BTreeMap::new();
            while !self.eat(b'}') {
                let name = self.ident();
                let optional = self.eat(b'?');
                assert!(self.eat(b':'), "a : after {name} at {}", self.rest());
                fields.insert(name, (self.union(), optional));
                let _ = self.eat(b',') || self.eat(b';');
            }
            return Type::Object(fields);
        }
        let name = self.ident();
        match name.as_str() {
            "any" | "Object" => Type::Any,
            "string" => Type::Str,
            "number" => Type::Num,
            "boolean" => Type::Bool,
            "null" => Type::Null,
            "Record" => {
                assert!(self.eat(b'<'), "Record<");
                assert_eq!(self.ident(), "string", "records are keyed by strings");
                assert!(self.eat(b','), "Record<string,");
                let t = self.union();
                assert!(self.eat(b'>'), "Record<…>");
                Type::Record(Box::new(t))
            }
            _ => Type::Named(name),
        }
    }
}

fn parse_type(text: &str) -> Type {
    let mut p = Parser {
        s: text.as_bytes(),
        i: 0,
    };
    let t = p.union();
    p.ws();
    assert_eq!(p.i, text.len(), "the whole of type {text:?} is read");
    t
}

/// The `{…}` that opens `line` after `tag`, braces balanced, and what follows it.
fn braced<'a>(line: &'a str, tag: &str) -> Option<(&'a str, &'a str)> {
    let at = line.find(tag)? + tag.len();
    let rest = line[at..].trim_start();
    let bytes = rest.as_bytes();
    if bytes.first() != Some(&b'{') {
        return None;
    }
    let mut depth = 0;
    for (i, b) in bytes.iter().enumerate() {
        match b {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some((&rest[1..i], rest[i + 1..].trim()));
                }
            }
            _ => {}
        }
    }
    None
}

impl Types {
    pub fn parse(source: &str) -> Types {
        let mut out = BTreeMap::new();
        let mut open: Option<(String, Fields)> = None;
        for raw in source.lines() {
            let line = raw.trim().trim_start_matches("/**").trim_start_matches('*');
            if let Some((ty, rest)) = braced(line, "@typedef") {
                if let Some((name, fields)) = open.take() {
                    out.insert(name, Type::Object(fields));
                }
                let name = rest.trim_end_matches("*/").trim().to_string();
                if ty.starts_with("import(") {
                    // A name from the other file of types, which is read beside this.
                    continue;
                }
                if ty == "Object" {
                    open = Some((name, BTreeMap::new()));
                } else {
                    out.insert(name, parse_type(ty));
                }
            } else if let Some((ty, rest)) = braced(line, "@property") {
                let (name, optional) = match rest.split_whitespace().next() {
                    Some(n) if n.starts_with('[') => (n.trim_matches(['[', ']']).to_string(), true),
                    Some(n) => (n.to_string(), false),
                    None => panic!("a property without a name: {raw}"),
                };
                let (_, fields) = open.as_mut().expect("@property inside a @typedef");
                fields.insert(name, (parse_type(ty), optional));
            } else if line.contains("*/")
                && let Some((name, fields)) = open.take()
            {
                out.insert(name, Type::Object(fields));
            }
        }
        if let Some((name, fields)) = open.take() {
            out.insert(name, Type::Object(fields));
        }
        Types(out)
    }

    pub fn get(&self, name: &str) -> &Type {
        self.0
            .get(name)
            .unwrap_or_else(|| panic!("messages.js has no type {name}"))
    }

    /// Checks `v` against `t`; the error names the path to the first mismatch.
    pub fn check(&self, t: &Type, v: &Value, path: &str) -> Result<(), String> {
        let fail = || Err(format!("{path}: {v} is not {t:?}"));
        match t {
            Type::Any => Ok(()),
            Type::Str if v.is_string() => Ok(()),
            Type::Num if v.is_number() => Ok(()),
            Type::Bool if v.is_boolean() => Ok(()),
            Type::Null if v.is_null() => Ok(()),
            Type::Lit(l) if v.as_str() == Some(l) => Ok(()),
            Type::Named(n) => self.check(self.get(n), v, path),
            Type::Union(alts) => {
                let mut why = Vec::new();
                for a in alts {
                    match self.check(a, v, path) {
                        Ok(()) => return Ok(()),
                        Err(e) => why.push(e),
                    }
                }
                Err(format!("{path}: matches none of {}", why.join("; ")))
            }
            Type::Array(item) => match v.as_array() {
                Some(items) => items
                    .iter()
                    .enumerate()
                    .try_for_each(|(i, x)| self.check(item, x, &format!("{path}[{i}]"))),
                None => fail(),
            },
            Type::Tuple(items) => match v.as_array() {
                Some(xs) if xs.len() == items.len() => items
                    .iter()
                    .zip(xs)
                    .enumerate()
                    .try_for_each(|(i, (t, x))| self.check(t, x, &format!("{path}[{i}]"))),
                _ => fail(),
            },
            Type::Record(item) => match v.as_object() {
                Some(m) => m
                    .iter()
                    .try_for_each(|(k, x)| self.check(item, x, &format!("{path}.{k}"))),
                None => fail(),
            },
            Type::Object(fields) => {
                let Some(m) = v.as_object() else {
                    return fail();
                };
                for k in m.keys() {
                    if !fields.contains_key(k) {
                        return Err(format!("{path}: field {k:?} is not declared"));
                    }
                }
                for (k, (ft, optional)) in fields {
                    match m.get(k) {
                        Some(x) => self.check(ft, x, &format!("{path}.{k}"))?,
                        None if *optional => {}
                        None => return Err(format!("{path}: required field {k:?} is missing")),
                    }
                }
                Ok(())
            }
            _ => fail(),
        }
    }

    /// The `t` of every message in union `name` (e.g. `ServerMsg`).
    pub fn message_tags(&self, name: &str) -> Vec<String> {
        let Type::Union(alts) = self.get(name) else {
            panic!("{name} is a union of messages");
        };
        alts.iter()
            .map(|a| match a {
                Type::Named(n) => match self.get(n) {
                    Type::Object(f) => match &f.get("t") {
                        Some((Type::Lit(t), false)) => t.clone(),
                        other => panic!("{n}.t is a literal, not {other:?}"),
                    },
                    other => panic!("{n} is an object, not {other:?}"),
                },
                other => panic!("{name} lists named messages, not {other:?}"),
            })
            .collect()
    }
}

/// The page's message types: static/js/messages.js and table_messages.js as one text.
pub fn page_types() -> Types {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/static/js/");
    let text: String = ["messages.js", "table_messages.js"]
        .iter()
        .map(|f| std::fs::read_to_string(format!("{dir}{f}")).expect("static/js types"))
        .collect::<Vec<_>>()
        .join("\n");
    Types::parse(&text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const SAMPLE: &str = r#"
/** @typedef {'south'|'north'} Seat */
/**
 * @typedef {Object} Msg
 * @property {'hello'} t
 * @property {Seat} seat
 * @property {{south: number|null, north?: number}} [n]
 * @property {Record<string, string[]>} [m]
 * @property {[Seat, string[]][]} [p]
 */
/** @typedef {Msg} AnyMsg */
"#;

    #[test]
    fn reads_and_checks() {
        let t = Types::parse(SAMPLE);
        let msg = t.get("Msg").clone();
        let ok = json!({"t": "hello", "seat": "north", "n": {"south": null}, "m": {"a": ["x"]}, "p": [["south", ["a1"]]]});
        t.check(&msg, &ok, "m").unwrap();
        for bad in [
            json!({"t": "hello"}),
            json!({"t": "hello", "seat": "east"}),
            json!({"t": "hello", "seat": "north", "extra": 1}),
            json!({"t": "hello", "seat": "north", "n": {"south": "1"}}),
            json!({"t": "hello", "seat": "north", "m": {"a": [1]}}),
            json!({"t": "hello", "seat": "north", "p": [["south"]]}),
            json!({"t": "hello", "seat": "north", "p": [["east", []]]}),
            json!({"t": "hello", "seat": "north", "p": [["south", ["a1"], 1]]}),
        ] {
            assert!(t.check(&msg, &bad, "m").is_err(), "{bad} is refused");
        }
    }
}
