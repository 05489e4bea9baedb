//! Records of any variant, told apart by their `variant` field.

use super::fields::str_field;
use super::{FORMAT, Record, RecordError, SiguoRecord, SiguoVerdict, Verdict};
use crate::quote::quoted;
use serde_json::Value;

/// A record of any variant: the two-player games', or 四国's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnyRecord {
    TwoPlayer(Record),
    Siguo(SiguoRecord),
}

/// What replaying a record of any variant gave.
#[derive(Debug, Clone)]
pub enum AnyVerdict {
    TwoPlayer(Box<Verdict>),
    Siguo(Box<SiguoVerdict>),
}

impl AnyRecord {
    /// Reads a record's text as [`Record::parse_str`] does, for any variant.
    pub fn parse_str(text: &str) -> Result<AnyRecord, RecordError> {
        let text = crate::record_input::precheck(text)?;
        let v: Value = serde_json::from_str(text).map_err(|e| RecordError::malformed(&e))?;
        AnyRecord::from_json(&v)
    }

    pub fn from_json(v: &Value) -> Result<AnyRecord, RecordError> {
        match v.as_object() {
            Some(obj) if obj.get("variant").and_then(Value::as_str) == Some("siguo") => {
                let format = str_field(obj, "format")?;
                if format != FORMAT {
                    return Err(RecordError::field(format!(
                        "format is {}; this verifier reads {FORMAT:?}",
                        quoted(format)
                    )));
                }
                SiguoRecord::from_json(obj).map(AnyRecord::Siguo)
            }
            _ => Record::from_json(v).map(AnyRecord::TwoPlayer),
        }
    }

    pub fn verify(&self) -> Result<AnyVerdict, RecordError> {
        match self {
            AnyRecord::TwoPlayer(r) => r.verify().map(|v| AnyVerdict::TwoPlayer(Box::new(v))),
            AnyRecord::Siguo(r) => r.verify().map(|v| AnyVerdict::Siguo(Box::new(v))),
        }
    }
}

impl AnyVerdict {
    pub fn to_json(&self) -> Value {
        match self {
            AnyVerdict::TwoPlayer(v) => v.to_json(),
            AnyVerdict::Siguo(v) => v.to_json(),
        }
    }
}
