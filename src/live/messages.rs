//! Everything the server sends on its sockets (docs/protocol.md), as one typed enum:
//! a message that is not here cannot be sent, and a field cannot be misspelt in one
//! place only.

use super::summary::{GameSummary, OpenGame};
pub use super::tally_text::TallyText;
use crate::rules::scoring::ScoreRule;
use crate::rules::view::{BoardDelta, EventView, SeatPair, Status};
use crate::rules::{
    Action, Colour, EndReason, LayoutViolation, Outcome, Piece, Seat, Square, View,
};
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Debug, Serialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum ServerMsg {
    State {
        v: usize,
        d: Box<State>,
    },
    Event {
        v: usize,
        d: Box<Event>,
    },
    Ack {
        a: u64,
        v: usize,
    },
    Error {
        d: ErrorBody,
        #[serde(skip_serializing_if = "Option::is_none")]
        a: Option<u64>,
    },
    Pong,
    /// A 四国 table as this socket's viewer may see it, whole (live/table/view.rs).
    Table {
        v: usize,
        d: Box<super::table::TableView>,
    },
    Deploy {
        d: DeployView,
    },
    Marks {
        d: BTreeMap<Square, String>,
    },
    Presence {
        d: Presence,
    },
    Phrase {
        d: PhraseMsg,
    },
    Lobby {
        d: LobbyMsg,
    },
    /// To one player's lobby sockets: the challenges they have received and sent.
    Challenges {
        d: super::challenges::ChallengesMsg,
    },
}

impl ServerMsg {
    pub fn text(&self) -> String {
        // Room at the start for an event or state (an event with its tallies and legal
        // actions is 1–3 KB: grown from serde_json's 128 bytes it was copied over five
        // or six times). A queued frame keeps its allocation, so the small messages
        // (acks, pongs, presence) start small.
        let room = match self {
            ServerMsg::Event { .. } | ServerMsg::State { .. } => 2048,
            ServerMsg::Table { .. } => 4096,
            _ => 128,
        };
        let mut out = Vec::with_capacity(room);
        serde_json::to_writer(&mut out, self).expect("server messages serialise");
        String::from_utf8(out).expect("serde_json writes UTF-8")
    }

    /// The message as a frame for the sockets' queues, where clones share one copy.
    pub fn frame(&self) -> bytestring::ByteString {
        self.text().into()
    }

    pub fn error(body: ErrorBody, a: Option<u64>) -> ServerMsg {
        ServerMsg::Error { d: body, a }
    }
}

/// Why a request was refused: a machine word, a sentence, and for refused deployment
/// commands a finer `reason` and the layout's `violations`.
#[derive(Debug, Clone, Serialize)]
pub struct ErrorBody {
    pub code: &'static str,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub violations: Option<Vec<ViolationView>>,
}

impl ErrorBody {
    pub fn new(code: &'static str, message: impl Into<String>) -> ErrorBody {
        ErrorBody {
            code,
            message: message.into(),
            reason: None,
            violations: None,
        }
    }

    pub fn not_a_player() -> ErrorBody {
        ErrorBody::new("not_a_player", "you are not playing in this game")
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct ViolationView {
    pub code: &'static str,
    pub square: Option<Square>,
    pub message: String,
}

impl ViolationView {
    pub fn all(v: &[LayoutViolation]) -> Vec<ViolationView> {
        v.iter()
            .map(|x| ViolationView {
                code: x.code(),
                square: x.square(),
                message: x.to_string(),
            })
            .collect()
    }
}

#[derive(Debug, Clone, Copy, Serialize)]
pub struct Clock {
    pub to_move: Seat,
    pub remaining_ms: i64,
    pub seconds_per_action: i32,
}

#[derive(Debug, Clone, Copy, Serialize)]
pub struct Presence {
    pub connected: SeatPair<bool>,
    /// Milliseconds until an absent seat loses by escape; null while present or when
    /// no game is being played.
    pub escape_ms: SeatPair<Option<i64>>,
    /// How many watch the game (sockets that are not a player's), as last announced:
    /// a change is told at most once a second (`watchers.rs`).
    pub watchers: u32,
    /// Each seat's 托管 (`tuoguan.rs`), for everyone to see on the seat cards.
    pub tuoguan: SeatPair<super::tuoguan::SeatTuoguan>,
    /// What this socket's seat may do about 托管; left out for a spectator.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub can: Option<super::tuoguan::Can>,
}

#[derive(Debug, Clone, Serialize)]
pub struct RematchView {
    pub south: bool,
    pub north: bool,
    pub next: Option<String>,
}

/// How a game ended and why each score changed as it did.
#[derive(Debug, Clone, Serialize)]
pub struct GameResult {
    pub winner: Option<Seat>,
    pub reason: EndReason,
    pub score: SeatPair<i32>,
    pub base: i32,
    pub rule: ScoreRule,
}

/// The deployment as one socket may see it (standard only).
#[derive(Debug, Clone, Serialize)]
pub struct DeployView {
    pub remaining_ms: i64,
    pub seconds: u32,
    pub ready: SeatPair<bool>,
    /// The socket's own layout, piece by square; null for a spectator.
    pub layout: Option<BTreeMap<Square, Piece>>,
    pub violations: Vec<ViolationView>,
    /// The colour the socket's seat plays; left out for a spectator.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub colour: Option<Colour>,
}

#[derive(Debug, Clone, Serialize)]
pub struct PhraseMsg {
    pub seat: Seat,
    pub id: &'static str,
}

#[derive(Debug, Clone, Serialize)]
pub struct LobbyMsg {
    pub open: Vec<OpenGame>,
    /// Open 四国 tables with their seats (`lobby_tables.rs`).
    pub tables: Vec<super::OpenTable>,
    /// Running games to watch (`watch_list.rs`).
    pub live: Vec<super::LiveGame>,
    /// How many are here: players with a socket open, and visitors' sockets.
    pub online: usize,
}

/// The whole game as one socket may see it.
#[derive(Debug, Serialize)]
pub struct State {
    pub game: GameSummary,
    pub you: Option<Seat>,
    pub view: Option<View>,
    pub clock: Option<Clock>,
    /// Kept beside `presence` for older clients.
    pub connected: SeatPair<bool>,
    pub presence: Presence,
    pub rematch: RematchView,
    pub deploy: Option<DeployView>,
    pub marks: Option<BTreeMap<Square, String>>,
    /// The latest step, cut for this socket, so that a fresh page can show it.
    pub last: Option<Box<Event>>,
    pub result: Option<GameResult>,
}

/// What an event is: an action the rules accepted, or something of the table.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum What {
    Step(EventView),
    Table(TableEvent),
}

#[derive(Debug, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TableEvent {
    /// A standard game's deployment is over and play begins.
    Start {
        first: Seat,
    },
    /// The three hours ran out with no action.
    TimeLimit {
        outcome: Option<Outcome>,
    },
    RematchOffer {
        seat: Seat,
    },
    Rematch {
        next: String,
    },
}

/// One thing that happened, cut for one viewer, with all that viewer needs to draw it.
#[derive(Debug, Serialize)]
pub struct Event {
    #[serde(flatten)]
    pub what: What,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub route: Option<Vec<Square>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board: Option<BoardDelta>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tallies: Option<TallyText>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<Status>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<GameResult>,
    /// The ending event's score changes (also inside `result`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<SeatPair<Option<i32>>>,
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "super::action_text::actions"
    )]
    pub legal: Option<Vec<Action>>,
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "super::action_text::actions"
    )]
    pub repetition_warnings: Option<Vec<Action>>,
    /// Only on the latest event; null when no clock runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<Option<Clock>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at_ms: Option<u64>,
    /// The step was played by the computer standing in for the seat (托管).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub tuoguan: bool,
}

impl Event {
    pub fn bare(what: What) -> Event {
        Event {
            what,
            route: None,
            board: None,
            tallies: None,
            status: None,
            result: None,
            score: None,
            legal: None,
            repetition_warnings: None,
            clock: None,
            at_ms: None,
            tuoguan: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_carry_their_type() {
        assert_eq!(ServerMsg::Pong.text(), r#"{"t":"pong"}"#);
        assert_eq!(
            ServerMsg::Ack { a: 3, v: 7 }.text(),
            r#"{"t":"ack","a":3,"v":7}"#
        );
        let e = ServerMsg::error(ErrorBody::new("illegal", "no"), None).text();
        assert_eq!(e, r#"{"t":"error","d":{"code":"illegal","message":"no"}}"#);
        let ev = Event::bare(What::Table(TableEvent::RematchOffer { seat: Seat::North }));
        let text = ServerMsg::Event {
            v: 2,
            d: Box::new(ev),
        }
        .text();
        assert_eq!(
            text,
            r#"{"t":"event","v":2,"d":{"kind":"rematch_offer","seat":"north"}}"#
        );
    }
}
