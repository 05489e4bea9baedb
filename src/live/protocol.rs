//! Messages of the game socket (docs/protocol.md): parsing what clients send.

use crate::engine::Level;
use crate::quote::quoted;
use crate::record::{parse_layout, parse_square};
use crate::rules::siguo::{Seat4, Station};
use crate::rules::{Action, Layout, Square};
use serde_json::Value;

/// Largest text frame a socket accepts.
pub const MAX_FRAME: usize = 16 * 1024;
/// lila-ws's budget: at most this many messages per window.
pub const MESSAGE_BUDGET: usize = 100;
pub const BUDGET_WINDOW_SECS: u64 = 20;
/// Across all sockets of one address (but a player's on their own game): a burst of
/// two sockets' budgets, then two sockets' pace (10 a second). A browser pings every
/// 25 s, so even an address at its cap of 50 sockets sends 2 a second; a reconnect
/// counts as a frame, so opening fresh sockets does not buy a fresh budget.
pub const ADDRESS_BURST: u32 = 2 * MESSAGE_BUDGET as u32;
pub const ADDRESS_PER_SECOND: u32 = 2 * (MESSAGE_BUDGET as u64 / BUDGET_WINDOW_SECS) as u32;
/// Across all sockets of one account: three sockets' budgets and pace (15 a second),
/// so that a bot may play three games at a socket's full pace at once.
pub const PLAYER_BURST: u32 = 3 * MESSAGE_BUDGET as u32;
pub const PLAYER_PER_SECOND: u32 = 3 * (MESSAGE_BUDGET as u64 / BUDGET_WINDOW_SECS) as u32;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClientKind {
    Act(Action),
    Deploy(DeployCmd),
    Mark(MarkCmd),
    Rematch,
    /// A preset phrase or emote (快捷语), by id.
    Phrase(&'static str),
    /// What only a table of more than two seats (四国) takes.
    Table(TableCmd),
    Ping,
}

/// A player's command at a 四国 table, beside the draw, pass and resignation that
/// every variant shares (`Act`) and deployment (`Deploy`, on seat-relative squares).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TableCmd {
    /// Take an empty seat, or move to it, before the start.
    Sit(Seat4),
    /// Leave one's seat before the start.
    Stand,
    /// The creator gives an empty seat to the computer at a level.
    Computer(Seat4, Level),
    /// A move or attack between two stations.
    Move(Station, Station),
    /// 手动托管 on, or off, for the sender's own seat (two-player games take it too).
    Tuoguan(bool),
    /// 托管退出: leave the running game for good; the server plays on for the seat or
    /// the seat is defeated (RULES §5.5.1).
    Leave,
    /// The ally's answer to "play on?" after 断线托管.
    PlayOn(bool),
    /// A spectator sits behind a seat: sees its pieces if its player lists them
    /// (指定旁观, RULES §5.6), and the board turned to it.
    Behind(Seat4),
    /// A pass the player confirmed, knowing it is their 5th timeout-or-pass and
    /// defeats them (RULES §5.4.5).
    ConfirmedPass,
    /// After the end: no rematch; ends the open offer for everyone (rematch.rs).
    DeclineRematch,
}

/// What a player does to their layout during a standard deployment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeployCmd {
    Swap(Square, Square),
    Layout(Layout),
    Load(i64),
    Random,
    Save(String),
    Ready,
}

/// The guesses a piece can be marked with (子力标记).
pub const MARKS: [&str; 16] = [
    "司", "军", "师", "旅", "团", "营", "连", "排", "兵", "弹", "雷", "旗", "?", "大", "小", ">",
];

/// The preset phrases and emotes a player may send (快捷语): no free text, so nothing
/// to moderate.
pub const PHRASES: [&str; 12] = [
    "hello",
    "hurry",
    "good_move",
    "again",
    "thanks",
    "sorry",
    "smile",
    "laugh",
    "cry",
    "angry",
    "thumbs_up",
    "flower",
];

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MarkCmd {
    /// Marks the piece on a square, or clears its mark ("清").
    Set { at: Square, mark: Option<String> },
    /// "全清": clears every mark.
    ClearAll,
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
        parse_square(s)
    };
    let station = |key: &str| -> Option<Station> { d.get(key)?.as_str()?.parse().ok() };
    let seat = || -> Result<Seat4, String> {
        let name = d.get("seat").and_then(Value::as_str);
        Seat4::ALL
            .into_iter()
            .find(|s| Some(s.name()) == name)
            .ok_or_else(|| format!("{t} needs a \"seat\" (south, east, north or west) in \"d\""))
    };
    let flag = |key: &str| -> Result<bool, String> {
        d.get(key)
            .and_then(Value::as_bool)
            .ok_or_else(|| format!("{t} needs \"{key}\": true or false in \"d\""))
    };
    let kind = match t {
        "flip" => ClientKind::Act(Action::Flip(square("at")?)),
        "move" => match station("from") {
            // 四国's stations (Sa1 …) and the two-player squares (a1 …) never share a name.
            Some(from) => ClientKind::Table(TableCmd::Move(
                from,
                station("to").ok_or("move from a station needs a station \"to\" in \"d\"")?,
            )),
            None => ClientKind::Act(Action::Move {
                from: square("from")?,
                to: square("to")?,
            }),
        },
        "sit" => ClientKind::Table(TableCmd::Sit(seat()?)),
        "stand" => ClientKind::Table(TableCmd::Stand),
        "behind" => ClientKind::Table(TableCmd::Behind(seat()?)),
        "seat_computer" => {
            let level = d
                .get("level")
                .and_then(Value::as_str)
                .and_then(Level::from_name)
                .ok_or("seat_computer needs a \"level\" (easy, normal, hard or master) in \"d\"")?;
            ClientKind::Table(TableCmd::Computer(seat()?, level))
        }
        "tuoguan" => {
            // Only "on": 托管 is always for the sender's own seat, so a "seat" (or any
            // other field) is a mistake to point out, not to ignore.
            if let Some(extra) = d.as_object().and_then(|o| o.keys().find(|k| *k != "on")) {
                return Err(format!(
                    "tuoguan takes only \"on\" in \"d\" (it is always for your own seat), \
                     not {}",
                    quoted(extra)
                ));
            }
            ClientKind::Table(TableCmd::Tuoguan(flag("on")?))
        }
        "leave" => ClientKind::Table(TableCmd::Leave),
        "play_on" => ClientKind::Table(TableCmd::PlayOn(flag("yes")?)),
        "pass" if d.get("confirm") == Some(&Value::Bool(true)) => {
            ClientKind::Table(TableCmd::ConfirmedPass)
        }
        "pass" => ClientKind::Act(Action::Pass),
        "resign" => ClientKind::Act(Action::Resign),
        "swap" => ClientKind::Deploy(DeployCmd::Swap(square("a")?, square("b")?)),
        "layout" => {
            let l = parse_layout(d.get("layout").unwrap_or(&Value::Null))
                .map_err(|e| format!("layout{e}"))?;
            ClientKind::Deploy(DeployCmd::Layout(l))
        }
        "load_layout" => ClientKind::Deploy(DeployCmd::Load(
            d.get("id")
                .and_then(Value::as_i64)
                .ok_or("load_layout needs a saved layout's \"id\" in \"d\"")?,
        )),
        "random_layout" => ClientKind::Deploy(DeployCmd::Random),
        "save_layout" => {
            let name = d
                .get("name")
                .and_then(Value::as_str)
                .ok_or("save_layout needs a \"name\" in \"d\"")?;
            ClientKind::Deploy(DeployCmd::Save(crate::layout_file::check_name(name)?))
        }
        "ready" => ClientKind::Deploy(DeployCmd::Ready),
        "mark" => {
            let mark = d
                .get("mark")
                .and_then(Value::as_str)
                .ok_or("mark needs a \"mark\" in \"d\"")?;
            ClientKind::Mark(match mark {
                "全清" => MarkCmd::ClearAll,
                "清" => MarkCmd::Set {
                    at: square("at")?,
                    mark: None,
                },
                m if MARKS.contains(&m) => MarkCmd::Set {
                    at: square("at")?,
                    mark: Some(m.to_string()),
                },
                other => {
                    return Err(format!(
                        "unknown mark {}; marks are {}, 清 and 全清",
                        quoted(other),
                        MARKS.join(" ")
                    ));
                }
            })
        }
        "offer_draw" => ClientKind::Act(Action::OfferDraw),
        "accept_draw" => ClientKind::Act(Action::AcceptDraw),
        "decline_draw" => ClientKind::Act(Action::DeclineDraw),
        "phrase" => {
            let id = d
                .get("id")
                .and_then(Value::as_str)
                .ok_or("phrase needs an \"id\" in \"d\"")?;
            let known = PHRASES.iter().find(|p| **p == id).ok_or_else(|| {
                format!(
                    "unknown phrase {}; phrases are {}",
                    quoted(id),
                    PHRASES.join(" ")
                )
            })?;
            ClientKind::Phrase(known)
        }
        "rematch" => ClientKind::Rematch,
        "decline_rematch" => ClientKind::Table(TableCmd::DeclineRematch),
        "ping" => ClientKind::Ping,
        other => return Err(format!("unknown message type {}", quoted(other))),
    };
    Ok(ClientMsg { ack, kind })
}

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
            "offer_draw",
            "accept_draw",
            "decline_draw",
            "rematch",
            "ping",
            "pass",
            "random_layout",
            "ready",
        ] {
            assert!(parse(&format!(r#"{{"t":"{t}"}}"#)).is_ok(), "{t}");
        }
    }

    #[test]
    fn reads_a_tables_commands_and_tells_stations_from_squares() {
        let station = |s: &str| s.parse::<Station>().unwrap();
        assert_eq!(
            parse(r#"{"t":"move","d":{"from":"Sa4","to":"Sa5"}}"#)
                .unwrap()
                .kind,
            ClientKind::Table(TableCmd::Move(station("Sa4"), station("Sa5")))
        );
        assert!(matches!(
            parse(r#"{"t":"move","d":{"from":"a4","to":"a5"}}"#)
                .unwrap()
                .kind,
            ClientKind::Act(Action::Move { .. })
        ));
        assert!(
            parse(r#"{"t":"move","d":{"from":"Sa4","to":"a5"}}"#)
                .unwrap_err()
                .contains("station")
        );
        assert_eq!(
            parse(r#"{"t":"sit","d":{"seat":"west"}}"#).unwrap().kind,
            ClientKind::Table(TableCmd::Sit(Seat4::West))
        );
        assert_eq!(
            parse(r#"{"t":"seat_computer","d":{"seat":"east","level":"hard"}}"#)
                .unwrap()
                .kind,
            ClientKind::Table(TableCmd::Computer(Seat4::East, Level::Hard))
        );
        assert_eq!(
            parse(r#"{"t":"tuoguan","d":{"on":true}}"#).unwrap().kind,
            ClientKind::Table(TableCmd::Tuoguan(true))
        );
        assert_eq!(
            parse(r#"{"t":"play_on","d":{"yes":false}}"#).unwrap().kind,
            ClientKind::Table(TableCmd::PlayOn(false))
        );
        assert_eq!(
            parse(r#"{"t":"decline_rematch"}"#).unwrap().kind,
            ClientKind::Table(TableCmd::DeclineRematch)
        );
        assert!(
            parse(r#"{"t":"sit","d":{"seat":"up"}}"#)
                .unwrap_err()
                .contains("seat")
        );
        assert!(
            parse(r#"{"t":"tuoguan","d":{}}"#)
                .unwrap_err()
                .contains("on")
        );
        assert!(
            parse(r#"{"t":"tuoguan","d":{"on":true,"seat":"north"}}"#)
                .unwrap_err()
                .contains("seat")
        );
        assert!(
            parse(r#"{"t":"seat_computer","d":{"seat":"east","level":"god"}}"#)
                .unwrap_err()
                .contains("level")
        );
    }

    #[test]
    fn reads_phrases_and_refuses_the_old_spellings() {
        assert_eq!(
            parse(r#"{"t":"phrase","d":{"id":"hello"},"a":1}"#)
                .unwrap()
                .kind,
            ClientKind::Phrase("hello")
        );
        assert!(
            parse(r#"{"t":"phrase","d":{"id":"rude"}}"#)
                .unwrap_err()
                .contains("rude")
        );
        for old in ["draw_offer", "draw_accept", "draw_decline"] {
            assert!(parse(&format!(r#"{{"t":"{old}"}}"#)).is_err(), "{old}");
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
        assert!(
            parse(r#"{"t":"mark","d":{"at":"c9","mark":"将"}}"#)
                .unwrap_err()
                .contains("将")
        );
        assert!(
            parse(r#"{"t":"layout","d":{"layout":{"a1":"king"}}}"#)
                .unwrap_err()
                .contains("a1")
        );
        assert!(
            parse(r#"{"t":"save_layout","d":{"name":"  "}}"#)
                .unwrap_err()
                .contains("name")
        );
    }

    #[test]
    fn reads_standard_messages() {
        assert_eq!(
            parse(r#"{"t":"swap","d":{"a":"b2","b":"c5"}}"#)
                .unwrap()
                .kind,
            ClientKind::Deploy(DeployCmd::Swap(
                "b2".parse().unwrap(),
                "c5".parse().unwrap()
            ))
        );
        assert_eq!(
            parse(r#"{"t":"mark","d":{"at":"c9","mark":"旅"}}"#)
                .unwrap()
                .kind,
            ClientKind::Mark(MarkCmd::Set {
                at: "c9".parse().unwrap(),
                mark: Some("旅".into())
            })
        );
        assert_eq!(
            parse(r#"{"t":"mark","d":{"mark":"全清"}}"#).unwrap().kind,
            ClientKind::Mark(MarkCmd::ClearAll)
        );
        assert_eq!(
            parse(r#"{"t":"load_layout","d":{"id":4}}"#).unwrap().kind,
            ClientKind::Deploy(DeployCmd::Load(4))
        );
    }

    #[test]
    fn an_error_quotes_a_short_prefix_of_a_long_value() {
        // A frame is at most 16 KiB; its error, sent back and perhaps logged, is short.
        let long = "将".repeat(5000);
        for message in [
            serde_json::json!({"t": long}),
            serde_json::json!({"t": "flip", "d": {"at": long}}),
            serde_json::json!({"t": "move", "d": {"from": "a1", "to": long}}),
            serde_json::json!({"t": "mark", "d": {"at": "a1", "mark": long}}),
            serde_json::json!({"t": "phrase", "d": {"id": long}}),
            serde_json::json!({"t": "layout", "d": {"layout": {long.as_str(): "flag"}}}),
            serde_json::json!({"t": "layout", "d": {"layout": {"a1": long}}}),
        ] {
            let error = parse(&message.to_string()).unwrap_err();
            assert!(error.contains("将将将"), "{error}");
            assert!(error.chars().count() < 200, "{} characters", error.len());
        }
    }
}
