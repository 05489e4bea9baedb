//! Legal actions as they go on the wire, from texts written once.
//!
//! The seat to move is sent its legal actions with every event: in flip chess some 30
//! to 60 of them, each `{"flip":"c5"}` or `{"move":{"from":"c5","to":"c6"}}`, whose
//! keys and square names serde escapes one by one (18 k instructions per action,
//! callgrind over `junqi load --callgrind`, 100 games). A flip or a move's text depends
//! only on its squares, so each is written once, the first time one is sent, and
//! embedded from then on.

use crate::rules::board::SQUARES;
use crate::rules::{Action, Square};
use serde::ser::{Serialize, SerializeSeq, Serializer};
use serde_json::value::RawValue;
use std::sync::LazyLock;

struct Texts {
    flips: Vec<Box<RawValue>>,
    /// `from * SQUARES + to`.
    moves: Vec<Box<RawValue>>,
}

/// 60 flips and 3,600 moves (every pair of squares, possible or not, to keep the look-up
/// a plain index): about 150 KB, made once.
static TEXTS: LazyLock<Texts> = LazyLock::new(|| {
    let raw = |a: Action| serde_json::value::to_raw_value(&a).expect("actions serialise");
    Texts {
        flips: Square::all().map(|at| raw(Action::Flip(at))).collect(),
        moves: Square::all()
            .flat_map(|from| Square::all().map(move |to| raw(Action::Move { from, to })))
            .collect(),
    }
});

struct Wire<'a>(&'a Action);

impl Serialize for Wire<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match *self.0 {
            Action::Flip(at) => TEXTS.flips[at.index()].serialize(s),
            Action::Move { from, to } => {
                TEXTS.moves[from.index() * SQUARES + to.index()].serialize(s)
            }
            other => other.serialize(s),
        }
    }
}

/// For `#[serde(serialize_with)]` on an `Option<Vec<Action>>` that is skipped when
/// `None`.
pub fn actions<S: Serializer>(list: &Option<Vec<Action>>, s: S) -> Result<S::Ok, S::Error> {
    let list = list.as_deref().unwrap_or_default();
    let mut seq = s.serialize_seq(Some(list.len()))?;
    for a in list {
        seq.serialize_element(&Wire(a))?;
    }
    seq.end()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Serialize)]
    struct Both {
        #[serde(serialize_with = "actions")]
        fast: Option<Vec<Action>>,
        plain: Vec<Action>,
    }

    #[test]
    fn every_flip_and_move_is_written_as_serde_writes_it() {
        let mut all: Vec<Action> = Square::all().map(Action::Flip).collect();
        all.extend(
            Square::all().flat_map(|from| Square::all().map(move |to| Action::Move { from, to })),
        );
        all.extend([Action::Pass, Action::Resign, Action::OfferDraw]);
        let both = serde_json::to_value(Both {
            fast: Some(all.clone()),
            plain: all,
        })
        .unwrap();
        assert_eq!(both["fast"], both["plain"]);
        let text = serde_json::to_string(&Both {
            fast: Some(vec![Action::Flip("c5".parse().unwrap())]),
            plain: vec![],
        })
        .unwrap();
        assert_eq!(text, r#"{"fast":[{"flip":"c5"}],"plain":[]}"#);
    }
}
