//! Flip chess's tallies as they go on the wire, written once per event from texts made
//! once.
//!
//! Every flip and every capture sends all 24 tallies (12 kinds × 2 colours) to every
//! socket. Serialised field by field for each viewer's cut, they were a quarter of the
//! server's instructions per action (callgrind over `junqi load --callgrind`, 100 games:
//! 53 k of 198 k instructions per action). They are public and the same for every
//! viewer, so an event's tallies are written once and each cut embeds the same text;
//! and a tally can only be one of a few hundred (a kind and colour, at most 3 pieces
//! face up and 3 face down), so each is written once, the first time, and copied from
//! then on.

use crate::rules::view::PieceTally;
use crate::rules::{Colour, Piece};
use serde::ser::{Serialize, SerializeSeq, Serializer};
use serde_json::value::RawValue;
use std::sync::LazyLock;

/// The tallies' JSON, ready to be embedded in a message.
#[derive(Debug, Clone)]
pub struct TallyText(Box<RawValue>);

/// Counts of one kind face up (or face down) go up to this.
const MOST: usize = 3;
const _: () = {
    let mut i = 0;
    while i < Piece::ALL.len() {
        assert!(Piece::ALL[i].count() as usize <= MOST);
        i += 1;
    }
};

fn index(t: &PieceTally) -> Option<usize> {
    let (up, down) = (t.up as usize, t.down as usize);
    (up <= MOST && down <= MOST).then(|| {
        ((t.colour.index() * Piece::ALL.len() + t.piece as usize) * (MOST + 1) + up) * (MOST + 1)
            + down
    })
}

/// Every tally's text, as serde writes it, by `index`.
static TEXTS: LazyLock<Vec<Box<RawValue>>> = LazyLock::new(|| {
    let mut texts = Vec::new();
    for colour in Colour::BOTH {
        for piece in Piece::ALL {
            for up in 0..=MOST as u8 {
                for down in 0..=MOST as u8 {
                    let t = PieceTally {
                        piece,
                        colour,
                        up,
                        down,
                        removed: piece.count().saturating_sub(up + down),
                    };
                    debug_assert_eq!(index(&t), Some(texts.len()));
                    texts.push(serde_json::value::to_raw_value(&t).expect("tallies serialise"));
                }
            }
        }
    }
    texts
});

struct FromTexts<'a>(&'a [PieceTally]);

impl Serialize for FromTexts<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for t in self.0 {
            // Only a tally the table was not made for (none the rules allow) is written
            // afresh; its `removed` could differ from the table's.
            match index(t).map(|i| &TEXTS[i]) {
                Some(text) if t.up + t.down + t.removed == t.piece.count() => {
                    seq.serialize_element(text)?
                }
                _ => seq.serialize_element(t)?,
            }
        }
        seq.end()
    }
}

impl TallyText {
    pub fn of(tallies: &[PieceTally]) -> TallyText {
        // `to_raw_value` keeps what it wrote without reading it back (a text built by
        // hand would be parsed again by `RawValue::from_string`).
        TallyText(serde_json::value::to_raw_value(&FromTexts(tallies)).expect("tallies serialise"))
    }
}

impl Serialize for TallyText {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tally_is_written_as_serde_writes_it() {
        let mut all = Vec::new();
        for colour in Colour::BOTH {
            for piece in Piece::ALL {
                for up in 0..=piece.count() {
                    for down in 0..=piece.count() - up {
                        all.push(PieceTally {
                            piece,
                            colour,
                            up,
                            down,
                            removed: piece.count() - up - down,
                        });
                    }
                }
            }
        }
        // And one the rules never make, written afresh.
        all.push(PieceTally {
            piece: Piece::Flag,
            colour: Colour::Red,
            up: 7,
            down: 0,
            removed: 0,
        });
        assert_eq!(
            serde_json::to_string(&TallyText::of(&all)).unwrap(),
            serde_json::to_string(&all).unwrap()
        );
    }
}
