//! A client that only draws: it keeps the board of its last `state` and lays every
//! later event's `board` delta over it, verbatim, with no rules. The tests compare
//! what it ends with against fresh states and against the true game.

use serde_json::{Map, Value};

#[derive(Debug, Clone, Default)]
pub struct Drawn {
    /// The version drawn so far.
    pub v: u64,
    pub board: Map<String, Value>,
    /// The newest event applied, if any came after the last state.
    pub last_event: Option<Value>,
}

impl Drawn {
    /// Starts from a board (a state's `view.board`) at version `v`.
    pub fn at(v: u64, board: &Value) -> Drawn {
        Drawn {
            v,
            board: board.as_object().cloned().unwrap_or_default(),
            last_event: None,
        }
    }

    /// Draws every message of a socket in order: a state starts afresh, an event at
    /// the next version is laid over the board. Returns how many events it applied.
    pub fn follow<'a>(&mut self, messages: impl IntoIterator<Item = &'a Value>) -> usize {
        let mut applied = 0;
        for m in messages {
            let v = m["v"].as_u64();
            match (m["t"].as_str(), v) {
                (Some("state"), Some(v)) if !m["d"]["view"].is_null() => {
                    *self = Drawn::at(v, &m["d"]["view"]["board"]);
                }
                (Some("event"), Some(v)) if v == self.v + 1 => {
                    apply(&mut self.board, &m["d"]["board"]);
                    self.v = v;
                    self.last_event = Some(m.clone());
                    applied += 1;
                }
                _ => {}
            }
        }
        applied
    }
}

/// Lays one `board` delta over a board: a cell replaces, null empties.
pub fn apply(board: &mut Map<String, Value>, delta: &Value) {
    if let Some(delta) = delta.as_object() {
        for (sq, cell) in delta {
            if cell.is_null() {
                board.remove(sq);
            } else {
                board.insert(sq.clone(), cell.clone());
            }
        }
    }
}
