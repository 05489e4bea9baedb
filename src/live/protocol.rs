//! Messages of the game socket (docs/protocol.md): parsing what clients send.

use crate::rules::{Action, Square};
use serde_json::Value;

/// Largest text frame a socket accepts.
pub const MAX_FRAME: usize = 16 * 1024;
/// lila-ws's budget: at most this many messages per window.
pub const MESSAGE_BUDGET: usize = 100;
pub const BUDGET_WINDOW_SECS: u64 = 20;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClientKind {
    Act(Action),
    Rematch,
    Ping,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientMsg {
    pub ack: Option<u64>,
    pub kind: ClientKind,
}

/// Reads one client message, or says in words what is wrong with it.
pub fn parse(text: &str) -> Result<ClientMsg, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let obj = v.as_object().ok_or("a message is a JSON object")?;
    let t = obj
        .get("t")
        .and_then(Value::as_str)
        .ok_or("a message needs a type \"t\"")?;
    let ack = match obj.get("a") {
        None | Some(Value::Null) => None,
        Some(a) => Some(
            a.as_u64()
                .ok_or("the ack id \"a\" must be a whole number")?,
        ),
    };
    let d = obj.get("d").unwrap_or(&Value::Null);
    let square = |key: &str| -> Result<Square, String> {
        let s = d
            .get(key)
            .and_then(Value::as_str)
            .ok_or_else(|| format!("{t} needs \"{key}\" in \"d\""))?;
        s.parse()
            .map_err(|e: crate::rules::board::BadSquare| e.to_string())
    };
    let kind = match t {
        "flip" => ClientKind::Act(Action::Flip(square("at")?)),
        "move" => ClientKind::Act(Action::Move {
            from: square("from")?,
            to: square("to")?,
        }),
        "resign" => ClientKind::Act(Action::Resign),
        "draw_offer" => ClientKind::Act(Action::OfferDraw),
        "draw_accept" => ClientKind::Act(Action::AcceptDraw),
        "draw_decline" => ClientKind::Act(Action::DeclineDraw),
        "rematch" => ClientKind::Rematch,
        "ping" => ClientKind::Ping,
        other => return Err(format!("unknown message type {other:?}")),
    };
    Ok(ClientMsg { ack, kind })
}

pub fn error_json(code: &str, message: &str, ack: Option<u64>) -> String {
    let mut v = serde_json::json!({"t": "error", "d": {"code": code, "message": message}});
    if let Some(a) = ack {
        v["a"] = a.into();
    }
    v.to_string()
}

pub const PONG: &str = r#"{"t":"pong"}"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_client_message() {
        let m = parse(r#"{"t":"move","d":{"from":"a2","to":"a6"},"a":7}"#).unwrap();
        assert_eq!(m.ack, Some(7));
        assert!(matches!(m.kind, ClientKind::Act(Action::Move { .. })));
        assert_eq!(
            parse(r#"{"t":"flip","d":{"at":"c3"}}"#).unwrap().kind,
            ClientKind::Act(Action::Flip("c3".parse().unwrap()))
        );
        for t in [
            "resign",
            "draw_offer",
            "draw_accept",
            "draw_decline",
            "rematch",
            "ping",
        ] {
            assert!(parse(&format!(r#"{{"t":"{t}"}}"#)).is_ok(), "{t}");
        }
    }

    #[test]
    fn says_what_is_wrong() {
        assert!(parse("nope").unwrap_err().contains("not JSON"));
        assert!(parse("[]").unwrap_err().contains("object"));
        assert!(parse(r#"{"t":"fly"}"#).unwrap_err().contains("fly"));
        assert!(
            parse(r#"{"t":"flip","d":{"at":"z9"}}"#)
                .unwrap_err()
                .contains("z9")
        );
        assert!(
            parse(r#"{"t":"move","d":{"from":"a2"}}"#)
                .unwrap_err()
                .contains("to")
        );
        assert!(parse(r#"{"t":"ping","a":-1}"#).unwrap_err().contains("ack"));
    }
}
