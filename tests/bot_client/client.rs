//! An example bot, written only from docs/protocol.md ("Writing a bot"): it knows its
//! API token and the server's address, nothing else — no cookie, no rules library, no
//! database. It asks the HTTP API for games and plays one over the game socket: it keeps
//! the board by laying each event's `board` over the last `state`, chooses among the
//! `legal` actions the server sends the seat to move, waits for each `ack`, keeps
//! within the frame budget, and reconnects with `?v=N` when its socket goes.
//!
//! Who sits opposite makes no difference to it: another bot, a person, the computer.

use awc::http::header;
use awc::ws;
use futures_util::{SinkExt as _, StreamExt as _};
use serde_json::{Map, Value, json};
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// The documented budget: at most 100 frames in 20 seconds. The bot stays under it.
const BUDGET: usize = 90;
const WINDOW: Duration = Duration::from_secs(20);

/// How a finished game looked to the bot.
#[derive(Debug, Clone)]
pub struct Finished {
    pub seat: String,
    /// The version the game ended at.
    pub version: u64,
    /// The `result` of the event (or state) that ended it.
    pub result: Value,
    /// The board as the bot drew it from the messages alone.
    pub board: Map<String, Value>,
    /// Every message the bot received, in order (across reconnects).
    pub received: Vec<Value>,
    /// How many times the socket was opened again with `?v=N`.
    pub reconnects: u32,
}

pub struct BotClient {
    base: String,
    token: String,
    http: awc::Client,
    rng: u64,
    /// For the test of reconnecting: drop the socket on every this many-th turn.
    pub drop_every: Option<u32>,
}

/// What the bot keeps of one game while it plays.
#[derive(Default)]
struct Game {
    v: u64,
    seat: Option<String>,
    board: Map<String, Value>,
    status: Value,
    legal: Vec<Value>,
    warnings: Vec<Value>,
    /// The ack id of the action sent and not yet answered.
    waiting: Option<u64>,
    result: Option<Value>,
    /// Standard 军棋's deployment: 1 to send a layout, 2 to say ready, else nothing.
    deploy_step: u8,
}

impl BotClient {
    pub fn new(base: &str, token: &str, seed: u64) -> BotClient {
        BotClient {
            base: base.trim_end_matches('/').to_string(),
            token: token.to_string(),
            http: crate::support::http_client(),
            rng: seed | 1,
            drop_every: None,
        }
    }

    fn auth(&self) -> String {
        format!("Bearer {}", self.token)
    }

    /// One API call: the answer's JSON, or `Err((status, error code))`.
    pub async fn call(
        &self,
        method: &str,
        path: &str,
        body: Option<Value>,
    ) -> Result<Value, (u16, String)> {
        let url = format!("{}{path}", self.base);
        let req = match method {
            "GET" => self.http.get(url),
            "DELETE" => self.http.delete(url),
            _ => self.http.post(url),
        }
        .insert_header((header::AUTHORIZATION, self.auth()));
        let mut res = match body {
            Some(b) => req.send_json(&b).await,
            None => req.send().await,
        }
        .map_err(|e| (0, e.to_string()))?;
        let bytes = res.body().await.map_err(|e| (0, e.to_string()))?;
        let v: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        if res.status().is_success() {
            Ok(v)
        } else {
            let code = v["error"]["code"].as_str().unwrap_or("").to_string();
            Err((res.status().as_u16(), code))
        }
    }

    /// The bot's own account (`GET /api/me`).
    pub async fn me(&self) -> Result<Value, (u16, String)> {
        self.call("GET", "/api/me", None).await
    }

    /// Opens a game and answers its id.
    pub async fn open_game(&self, variant: &str, seconds: u32, rated: bool) -> String {
        let body = json!({"variant": variant, "seconds_per_action": seconds, "rated": rated});
        let made = self.call("POST", "/api/games", Some(body)).await;
        made.expect("a game opened")["id"]
            .as_str()
            .expect("an id")
            .to_string()
    }

    /// Starts a casual game against the site's computer player of `level`
    /// ("Playing the computer" in docs/protocol.md); the computer is seated at once.
    pub async fn challenge_computer(&self, variant: &str, seconds: u32, level: &str) -> String {
        let body = json!({"variant": variant, "seconds_per_action": seconds,
                          "rated": false, "computer": level});
        let made = self.call("POST", "/api/games", Some(body)).await;
        made.expect("a game against the computer")["id"]
            .as_str()
            .expect("an id")
            .to_string()
    }

    pub async fn join(&self, id: &str) -> Result<Value, (u16, String)> {
        self.call("POST", &format!("/api/games/{id}/join"), None)
            .await
    }

    fn next_random(&mut self) -> u64 {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        self.rng
    }

    /// Plays game `id` to its end from whichever seat the token's account holds.
    pub async fn play(&mut self, id: &str) -> Finished {
        let mut game = Game::default();
        let mut received = Vec::new();
        let mut sent: VecDeque<Instant> = VecDeque::new();
        let mut next_ack = 1u64;
        let mut reconnects = 0;
        let mut turns = 0u32;
        let deadline = Instant::now() + Duration::from_secs(600);
        loop {
            // A fresh socket gets a state; one that reconnects with ?v=N gets what it
            // missed since version N.
            let path = if reconnects == 0 {
                format!("/ws/game/{id}")
            } else {
                format!("/ws/game/{id}?v={}", game.v)
            };
            let (_, mut socket) = self
                .http
                .ws(format!("{}{path}", self.base))
                .max_frame_size(1 << 20)
                .header(header::AUTHORIZATION, self.auth())
                .connect()
                .await
                .expect("the game socket opens");
            game.waiting = None;
            loop {
                assert!(Instant::now() < deadline, "the game took too long");
                if let Some(result) = &game.result {
                    let _ = socket.send(ws::Message::Close(None)).await;
                    return Finished {
                        seat: game.seat.clone().unwrap_or_default(),
                        version: game.v,
                        result: result.clone(),
                        board: game.board,
                        received,
                        reconnects,
                    };
                }
                let my_turn = game.waiting.is_none() && !game.legal.is_empty();
                if my_turn {
                    turns += 1;
                    if self.drop_every.is_some_and(|n| turns % n == 0) {
                        // Gone without a word, as a dropped connection is, on its turn:
                        // the `legal` it holds stays good, since nothing can happen
                        // before it acts (but the clock).
                        break;
                    }
                }
                if let Some(msg) = self.choose(&mut game, &mut next_ack) {
                    pace(&mut sent).await;
                    if socket.send(ws::Message::Text(msg.into())).await.is_err() {
                        break;
                    }
                }
                let frame = tokio::time::timeout(Duration::from_secs(30), socket.next()).await;
                let msg = match frame {
                    Ok(Some(Ok(ws::Frame::Text(bytes)))) => {
                        serde_json::from_slice::<Value>(&bytes).expect("JSON from the server")
                    }
                    Ok(Some(Ok(ws::Frame::Ping(b)))) => {
                        let _ = socket.send(ws::Message::Pong(b)).await;
                        continue;
                    }
                    Ok(Some(Ok(ws::Frame::Close(_)))) | Ok(None) | Ok(Some(Err(_))) => break,
                    Ok(Some(Ok(_))) => continue,
                    Err(_) => panic!("nothing came for 30 s; the bot saw {game:?}"),
                };
                received.push(msg.clone());
                if !game.take(&msg) {
                    break; // a gap in the versions: catch up from a new socket
                }
            }
            reconnects += 1;
            assert!(reconnects < 50, "the socket keeps dropping");
        }
    }

    /// The next command to send, if it is the bot's turn and nothing is unanswered.
    fn choose(&mut self, game: &mut Game, next_ack: &mut u64) -> Option<String> {
        if game.waiting.is_some() || game.result.is_some() {
            return None;
        }
        let (t, d) = if game.deploy_step == 1 {
            // Standard 军棋: take a random valid layout, then say ready (出征).
            game.deploy_step = 2;
            ("random_layout", Value::Null)
        } else if game.deploy_step == 2 {
            game.deploy_step = 3;
            ("ready", Value::Null)
        } else if game.legal.is_empty() {
            return None;
        } else {
            let pick = self.pick(game);
            match (pick.get("flip"), pick.get("move")) {
                (Some(at), _) => ("flip", json!({"at": at})),
                (_, Some(m)) => ("move", m.clone()),
                _ => return None,
            }
        };
        let a = *next_ack;
        *next_ack += 1;
        game.waiting = Some(a);
        // Sent once: the next `event` (or an error) brings the next `legal`.
        game.legal.clear();
        let mut msg = json!({"t": t, "a": a});
        if !d.is_null() {
            msg["d"] = d;
        }
        Some(msg.to_string())
    }

    /// A capture of an enemy piece if there is one, else a flip, else any move; never
    /// a move that would lose by repetition while another is open.
    fn pick(&mut self, game: &Game) -> Value {
        let safe: Vec<&Value> = game
            .legal
            .iter()
            .filter(|a| !game.warnings.contains(a))
            .collect();
        let pool: Vec<&Value> = if safe.is_empty() {
            game.legal.iter().collect()
        } else {
            safe
        };
        let mine = game
            .seat
            .as_deref()
            .and_then(|s| game.status["colours"][s].as_str());
        let captures: Vec<&Value> = pool
            .iter()
            .copied()
            .filter(|a| {
                let to = a["move"]["to"].as_str().unwrap_or("");
                let target = &game.board.get(to);
                target.is_some_and(|c| c["colour"].as_str().is_some_and(|c| Some(c) != mine))
            })
            .collect();
        let flips: Vec<&Value> = pool
            .iter()
            .copied()
            .filter(|a| a.get("flip").is_some())
            .collect();
        let choice = [captures, flips, pool]
            .into_iter()
            .find(|p| !p.is_empty())
            .expect("legal is not empty");
        let i = (self.next_random() % choice.len() as u64) as usize;
        choice[i].clone()
    }
}

/// Waits until one more frame keeps within the budget.
async fn pace(sent: &mut VecDeque<Instant>) {
    while sent.front().is_some_and(|t| t.elapsed() >= WINDOW) {
        sent.pop_front();
    }
    if sent.len() >= BUDGET {
        let wait = WINDOW.saturating_sub(sent[0].elapsed());
        tokio::time::sleep(wait).await;
        sent.pop_front();
    }
    sent.push_back(Instant::now());
}

impl std::fmt::Debug for Game {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "v{} seat {:?} waiting {:?} legal {}",
            self.v,
            self.seat,
            self.waiting,
            self.legal.len()
        )
    }
}

impl Game {
    /// Takes one message in. `false` when an event skipped a version (reconnect).
    fn take(&mut self, msg: &Value) -> bool {
        let d = &msg["d"];
        match msg["t"].as_str() {
            Some("state") => {
                self.v = msg["v"].as_u64().unwrap_or(0);
                self.seat = d["you"].as_str().map(str::to_string);
                self.result = d["result"].as_object().map(|_| d["result"].clone());
                let seat = self.seat.as_deref().unwrap_or("");
                let ready = d["deploy"]["ready"][seat].as_bool();
                if ready == Some(false) && self.deploy_step == 0 {
                    self.deploy_step = 1;
                }
                if let Some(view) = d["view"].as_object() {
                    self.board = view["board"].as_object().cloned().unwrap_or_default();
                    self.status = Value::Object(view.clone());
                    self.legal = list(&view["legal"]);
                    self.warnings = list(&view["repetition_warnings"]);
                }
            }
            Some("event") => {
                let v = msg["v"].as_u64().unwrap_or(0);
                if v <= self.v {
                    return true; // seen already
                }
                if v != self.v + 1 {
                    return false;
                }
                self.v = v;
                for (sq, cell) in d["board"].as_object().into_iter().flatten() {
                    if cell.is_null() {
                        self.board.remove(sq);
                    } else {
                        self.board.insert(sq.clone(), cell.clone());
                    }
                }
                if d["status"].is_object() {
                    self.status = d["status"].clone();
                }
                // Only the newest event carries `legal`, and only to the seat to move.
                self.legal = list(&d["legal"]);
                self.warnings = list(&d["repetition_warnings"]);
                if d["result"].is_object() {
                    self.result = Some(d["result"].clone());
                }
            }
            Some("ack") if msg["a"].as_u64() == self.waiting => self.waiting = None,
            Some("error") if msg["a"].as_u64().is_some() && msg["a"].as_u64() == self.waiting => {
                // Nothing changed (the clock may have moved the turn on): wait for the
                // next event's `legal`.
                self.waiting = None;
            }
            _ => {}
        }
        true
    }
}

fn list(v: &Value) -> Vec<Value> {
    v.as_array().cloned().unwrap_or_default()
}
