//! The server's messages as the load client reads them: small serde shapes that keep
//! only what playing needs (every other field is skipped unread), and the actions it
//! sends.

use serde::de::{self, IgnoredAny, Visitor};
use serde::{Deserialize, Deserializer};
use std::fmt;

/// A square's name (`a1` … `e12`), kept inline: legal lists name dozens of squares
/// per event, and thousands of events arrive a second.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Sq([u8; 3]);

impl Sq {
    /// A square's (or a 四国 station's: `Sa4`, `XSW`) name as sent, if it is one.
    pub fn from_bytes(b: &[u8]) -> Option<Sq> {
        if b.len() < 2 || b.len() > 3 || !b.is_ascii() {
            return None;
        }
        let mut sq = [0u8; 3];
        sq[..b.len()].copy_from_slice(b);
        Some(Sq(sq))
    }

    pub fn as_str(&self) -> &str {
        let len = self.0.iter().position(|&b| b == 0).unwrap_or(3);
        std::str::from_utf8(&self.0[..len]).unwrap_or("?")
    }
}

impl fmt::Debug for Sq {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for Sq {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Sq {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Sq, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Sq;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a square")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Sq, E> {
                Sq::from_bytes(s.as_bytes())
                    .ok_or_else(|| E::custom(format!("not a square: {s:?}")))
            }
        }
        d.deserialize_str(V)
    }
}

/// A flip or a move (attacks too), as `legal` lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Act {
    Flip(Sq),
    Move { from: Sq, to: Sq },
}

impl Act {
    /// The command that plays it, with ack id `a`.
    pub fn command(&self, a: u64) -> String {
        match self {
            Act::Flip(at) => format!(r#"{{"t":"flip","d":{{"at":"{at}"}},"a":{a}}}"#),
            Act::Move { from, to } => {
                format!(r#"{{"t":"move","d":{{"from":"{from}","to":"{to}"}},"a":{a}}}"#)
            }
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Seat {
    South,
    North,
}

impl Seat {
    pub fn name(self) -> &'static str {
        match self {
            Seat::South => "south",
            Seat::North => "north",
        }
    }
}

/// One message from a game socket.
#[derive(Deserialize)]
pub struct Msg<'a> {
    pub t: &'a str,
    pub v: Option<u64>,
    pub a: Option<u64>,
    #[serde(default)]
    pub d: Option<Data<'a>>,
}

/// The fields of `d` the client reads, for every kind of message at once (a state's,
/// an event's, an error's).
#[derive(Deserialize, Default)]
pub struct Data<'a> {
    // state
    pub you: Option<Seat>,
    pub view: Option<View>,
    pub game: Option<Summary<'a>>,
    // event (and state: the result)
    pub kind: Option<&'a str>,
    /// Who acted.
    pub seat: Option<Seat>,
    pub legal: Option<Vec<Act>>,
    pub result: Option<IgnoredAny>,
    pub outcome: Option<IgnoredAny>,
    // error
    pub code: Option<&'a str>,
}

#[derive(Deserialize)]
pub struct View {
    #[serde(default)]
    pub legal: Vec<Act>,
    pub outcome: Option<IgnoredAny>,
}

#[derive(Deserialize)]
pub struct Summary<'a> {
    pub status: &'a str,
}

/// `{"id": …}`, as creating a game answers.
#[derive(Deserialize)]
pub struct Created {
    pub id: String,
}

/// A stored action (`game_actions.action`): `{"seat":…,"flip":…}`, `{"seat":…,"move":
/// {…}}`, or another kind (timeout, resign, …), which the client never sends.
#[derive(Deserialize)]
pub struct StoredAction {
    pub seat: Seat,
    pub flip: Option<Sq>,
    #[serde(rename = "move")]
    pub mv: Option<FromTo>,
}

#[derive(Deserialize)]
pub struct FromTo {
    pub from: Sq,
    pub to: Sq,
}

impl StoredAction {
    /// The flip or move it is; `None` for the kinds a client never sends.
    pub fn act(&self) -> Option<Act> {
        match (&self.flip, &self.mv) {
            (Some(at), _) => Some(Act::Flip(*at)),
            (None, Some(m)) => Some(Act::Move {
                from: m.from,
                to: m.to,
            }),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_an_event_and_writes_commands() {
        let text = br#"{"t":"event","v":7,"d":{"seat":"south","kind":"move","from":"a2","to":"a6",
            "board":{"a2":null},"legal":[{"flip":"c3"},{"move":{"from":"a12","to":"b12"}}],
            "status":{"to_move":"north"},"at_ms":5200}}"#;
        let m: Msg = serde_json::from_slice(text).unwrap();
        assert_eq!((m.t, m.v), ("event", Some(7)));
        let d = m.d.unwrap();
        assert_eq!(d.kind, Some("move"));
        assert!(d.result.is_none() && d.outcome.is_none());
        let legal = d.legal.unwrap();
        assert_eq!(legal[0].command(3), r#"{"t":"flip","d":{"at":"c3"},"a":3}"#);
        assert_eq!(
            legal[1].command(4),
            r#"{"t":"move","d":{"from":"a12","to":"b12"},"a":4}"#
        );
        let ended: Msg = serde_json::from_str(
            r#"{"t":"state","v":3,"d":{"you":"north","view":null,"result":{"winner":null}}}"#,
        )
        .unwrap();
        let d = ended.d.unwrap();
        assert!(d.result.is_some() && d.you == Some(Seat::North));
        let stored: StoredAction =
            serde_json::from_str(r#"{"move":{"from":"a2","to":"a3"},"seat":"north"}"#).unwrap();
        assert_eq!(stored.seat, Seat::North);
        let sq = |s: &str| serde_json::from_value::<Sq>(serde_json::json!(s)).unwrap();
        assert_eq!(
            stored.act(),
            Some(Act::Move {
                from: sq("a2"),
                to: sq("a3")
            })
        );
        let timeout: StoredAction =
            serde_json::from_str(r#"{"seat":"south","timeout":true}"#).unwrap();
        assert_eq!(timeout.act(), None);
    }
}
