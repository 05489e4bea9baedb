//! The hidden-information check of standard 军棋: what one viewer received keeps the
//! other side's pieces unnamed until the end.

use serde_json::{Value, json};

/// Everything one viewer received up to the end must keep the other side's pieces
/// unnamed: an enemy piece may carry a name only when it is a flag shown to everyone.
/// `own` is the viewer's colour, `None` for a spectator.
pub fn assert_hidden(messages: &[Value], own: Option<&str>) {
    fn scan(v: &Value, own: Option<&str>, msg: &Value) {
        match v {
            Value::Object(o) => {
                if let (Some(piece), Some(colour)) = (o.get("piece"), o.get("colour"))
                    && Some(colour.as_str().unwrap_or("")) != own
                {
                    assert!(
                        piece == "flag" && o.get("face") == Some(&json!("up")),
                        "a hidden enemy piece named ({v}) in {msg}"
                    );
                }
                for x in o.values() {
                    scan(x, own, msg);
                }
            }
            Value::Array(a) => a.iter().for_each(|x| scan(x, own, msg)),
            _ => {}
        }
    }
    for m in messages {
        if m["d"]["outcome"].is_object() || m["d"]["view"]["outcome"].is_object() {
            break;
        }
        scan(m, own, m);
    }
}
