//! An example 四国 bot, written only from docs/protocol.md ("四国 tables" and "Writing
//! a bot"): with its API token it opens a table or sits at one over the game socket,
//! presses ready, says ready again to deploy the arrangement it was dealt, and on its
//! turn plays one of the `legal` station pairs it is sent, waiting for each `ack`. It
//! keeps nothing but the newest table message, which is all a client needs.

use awc::http::header;
use awc::ws;
use futures_util::{SinkExt as _, StreamExt as _};
use serde_json::{Value, json};
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// At most 100 frames in 20 seconds (the documented budget); the bot keeps under it.
const BUDGET: usize = 90;
const WINDOW: Duration = Duration::from_secs(20);

/// How a finished table looked to the bot.
#[derive(Debug)]
pub struct TableEnd {
    pub seat: String,
    /// The last table message (phase `over`).
    pub last: Value,
    /// Every table message received, in order.
    pub received: Vec<Value>,
    /// How many moves the bot made.
    pub moves: u32,
    /// How the socket ended if it ended before the game did.
    pub cut_off: Option<String>,
}

pub struct TableBot {
    base: String,
    token: String,
    http: awc::Client,
    rng: u64,
}

impl TableBot {
    pub fn new(base: &str, token: &str, seed: u64) -> TableBot {
        TableBot {
            base: base.trim_end_matches('/').to_string(),
            token: token.to_string(),
            http: crate::support::http_client(),
            rng: seed | 1,
        }
    }

    /// `POST /api/tables`: the new table's id (the caller is seated south).
    pub async fn open_table(&self, body: Value) -> String {
        let mut res = self
            .http
            .post(format!("{}/api/tables", self.base))
            .insert_header((header::AUTHORIZATION, format!("Bearer {}", self.token)))
            .send_json(&body)
            .await
            .expect("POST /api/tables");
        let bytes = res.body().await.expect("a body");
        let v: Value = serde_json::from_slice(&bytes).expect("JSON");
        assert_eq!(res.status().as_u16(), 201, "a table opened: {v}");
        v["id"].as_str().expect("an id").to_string()
    }

    fn next_random(&mut self) -> u64 {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        self.rng
    }

    /// Sits in `seat` (unless already seated) and plays table `id` to its end.
    pub async fn play(&mut self, id: &str, seat: &str) -> TableEnd {
        let (_, mut socket) = self
            .http
            .ws(format!("{}/ws/game/{id}", self.base))
            .max_frame_size(1 << 20)
            .header(header::AUTHORIZATION, format!("Bearer {}", self.token))
            .connect()
            .await
            .expect("the table socket opens");
        let deadline = Instant::now() + Duration::from_secs(600);
        let mut received = Vec::new();
        let mut sent: VecDeque<Instant> = VecDeque::new();
        let mut table = Value::Null;
        let mut waiting: Option<u64> = None;
        let mut next_ack = 1u64;
        let mut moves = 0;
        loop {
            assert!(Instant::now() < deadline, "the table took too long");
            if table["phase"] == "over" {
                let _ = socket.send(ws::Message::Close(None)).await;
                return TableEnd {
                    seat: seat.to_string(),
                    last: table,
                    received,
                    moves,
                    cut_off: None,
                };
            }
            // Over the frame budget the bot holds its next command but keeps reading:
            // a socket that stops reading is one the server may close.
            let held = hold_for(&mut sent);
            if waiting.is_none()
                && held.is_none()
                && let Some((t, d)) = self.choose(&table, seat)
            {
                if t == "move" {
                    moves += 1;
                }
                sent.push_back(Instant::now());
                let a = next_ack;
                next_ack += 1;
                waiting = Some(a);
                let mut msg = json!({"t": t, "a": a});
                if !d.is_null() {
                    msg["d"] = d;
                }
                socket
                    .send(ws::Message::Text(msg.to_string().into()))
                    .await
                    .expect("a command sent");
            }
            let quiet = held.unwrap_or(Duration::from_secs(60));
            let frame = tokio::time::timeout(quiet, socket.next()).await;
            let msg: Value = match frame {
                Err(_) if held.is_some() => continue,
                Ok(Some(Ok(ws::Frame::Text(bytes)))) => {
                    serde_json::from_slice(&bytes).expect("JSON from the server")
                }
                Ok(Some(Ok(ws::Frame::Ping(b)))) => {
                    let _ = socket.send(ws::Message::Pong(b)).await;
                    continue;
                }
                Ok(Some(Ok(ws::Frame::Close(reason)))) => {
                    return TableEnd {
                        seat: seat.to_string(),
                        last: table,
                        received,
                        moves,
                        cut_off: Some(format!("closed: {reason:?}")),
                    };
                }
                Ok(Some(Ok(_))) => continue,
                other => {
                    let why = format!("{other:?}, waiting for ack {waiting:?}");
                    return TableEnd {
                        seat: seat.to_string(),
                        last: table,
                        received,
                        moves,
                        cut_off: Some(why),
                    };
                }
            };
            match msg["t"].as_str() {
                Some("table") => {
                    received.push(msg["d"].clone());
                    table = msg["d"].clone();
                }
                // An answer (or a refusal, which changed nothing): the newest table
                // message, which came before it, says what may be done next.
                Some("ack") | Some("error") if msg["a"].as_u64() == waiting => waiting = None,
                _ => {}
            }
        }
    }

    /// What to send now, from the newest table message alone.
    fn choose(&mut self, table: &Value, seat: &str) -> Option<(&'static str, Value)> {
        let can = &table["can"];
        match table["phase"].as_str()? {
            "open" if table["you"].is_null() && can["sit"] == true => {
                Some(("sit", json!({"seat": seat})))
            }
            "open" if can["ready"] == true => Some(("ready", Value::Null)),
            // The arrangement dealt is a lawful layout: 出征 with it.
            "deploying" if can["deploy"] == true => Some(("ready", Value::Null)),
            "playing" => {
                let legal = table["legal"].as_array().filter(|l| !l.is_empty())?;
                let i = (self.next_random() % legal.len() as u64) as usize;
                let pair = &legal[i];
                Some(("move", json!({"from": pair[0], "to": pair[1]})))
            }
            _ => None,
        }
    }
}

/// How long until one more frame keeps within the budget; `None`: it does now.
fn hold_for(sent: &mut VecDeque<Instant>) -> Option<Duration> {
    while sent.front().is_some_and(|t| t.elapsed() >= WINDOW) {
        sent.pop_front();
    }
    (sent.len() >= BUDGET)
        .then(|| WINDOW.saturating_sub(sent[0].elapsed()) + Duration::from_millis(1))
}
