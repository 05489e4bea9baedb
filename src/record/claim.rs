//! The result and reason a record claims: read, written, and checked against the
//! replay, the same for every variant.

use super::RecordError;
use super::fields::opt_str;
use crate::quote::{QUOTE_CHARS, clipped};
use serde_json::{Map, Value, json};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claimed {
    /// `None`: the record says nothing; `Some(None)`: it says the game is not over.
    pub result: Option<Option<String>>,
    pub reason: Option<Option<String>>,
}

impl Claimed {
    /// The record's `result` and `reason`, if it has either.
    pub(super) fn parse(obj: &Map<String, Value>) -> Result<Option<Claimed>, RecordError> {
        if !obj.contains_key("result") && !obj.contains_key("reason") {
            return Ok(None);
        }
        let claim = |key: &str| -> Result<Option<Option<String>>, RecordError> {
            if obj.contains_key(key) {
                Ok(Some(opt_str(obj, key)?.map(str::to_string)))
            } else {
                Ok(None)
            }
        };
        Ok(Some(Claimed {
            result: claim("result")?,
            reason: claim("reason")?,
        }))
    }

    pub(super) fn write(&self, m: &mut Map<String, Value>) {
        if let Some(r) = &self.result {
            m.insert("result".into(), json!(r));
        }
        if let Some(r) = &self.reason {
            m.insert("reason".into(), json!(r));
        }
    }

    /// Refuses a claim the replay (its `result` and `reason`, `None` while the game
    /// runs) does not bear out.
    pub(super) fn check(
        &self,
        result: Option<String>,
        reason: Option<String>,
    ) -> Result<(), RecordError> {
        let shown = |x: &Option<String>| {
            x.as_deref().map_or_else(
                || "null (not over)".into(),
                |s| clipped(s, QUOTE_CHARS).into_owned(),
            )
        };
        for (what, claimed, replayed) in [
            ("result", &self.result, result),
            ("reason", &self.reason, reason),
        ] {
            if let Some(claimed) = claimed
                && claimed != &replayed
            {
                return Err(RecordError::field(format!(
                    "the record says the {what} is {}, the replay gives {}",
                    shown(claimed),
                    shown(&replayed)
                )));
            }
        }
        Ok(())
    }
}
