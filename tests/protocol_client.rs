//! A client written from docs/protocol.md alone, with no rules library: it draws the
//! board from `state` and the events' `board` deltas, plays only what it was sent in
//! `legal` (a capture when one is offered, else at random), and asks
//! `/api/analysis/moves` about its own partial view. Whole flip and standard games.

#[macro_use]
mod support;

use serde_json::{Map, Value, json};
use support::{Client, Harness, Socket, TestDb};

db_tests! {
    plays_flip_from_the_protocol_alone => plays_flip_from_the_protocol_alone_sqlite, plays_flip_from_the_protocol_alone_postgres;
    plays_standard_from_the_protocol_alone => plays_standard_from_the_protocol_alone_sqlite, plays_standard_from_the_protocol_alone_postgres;
}

/// What the client knows: its board, the version, what it may do now, the counters.
struct Bot {
    client: Client,
    socket: Socket,
    seat: String,
    read: usize,
    v: u64,
    board: Map<String, Value>,
    legal: Vec<Value>,
    status: Value,
    tallies: Value,
    resign_after: u64,
    result: Option<Value>,
}

impl Bot {
    fn new(client: Client, socket: Socket) -> Bot {
        Bot {
            client,
            socket,
            seat: String::new(),
            read: 0,
            v: 0,
            board: Map::new(),
            legal: Vec::new(),
            status: Value::Null,
            tallies: Value::Null,
            resign_after: 200,
            result: None,
        }
    }

    fn take(&mut self, m: &Value) {
        let d = &m["d"];
        match m["t"].as_str() {
            Some("state") if !d["view"].is_null() => {
                let view = &d["view"];
                self.v = m["v"].as_u64().unwrap();
                self.seat = d["you"].as_str().unwrap_or("").to_string();
                self.board = view["board"].as_object().unwrap().clone();
                self.legal = view["legal"].as_array().unwrap().clone();
                self.tallies = view["tallies"].clone();
                self.resign_after = view["steps_before_resign_or_draw"].as_u64().unwrap() + 60;
                self.status = json!({"to_move": view["to_move"], "steps": view["steps"],
                                     "colours": view["colours"]});
                if !d["result"].is_null() {
                    self.result = Some(d["result"].clone());
                }
            }
            Some("event") if m["v"].as_u64() == Some(self.v + 1) => {
                self.v += 1;
                if let Some(delta) = d["board"].as_object() {
                    for (sq, cell) in delta {
                        if cell.is_null() {
                            self.board.remove(sq);
                        } else {
                            self.board.insert(sq.clone(), cell.clone());
                        }
                    }
                }
                if d.get("tallies").is_some() {
                    self.tallies = d["tallies"].clone();
                }
                if d.get("status").is_some() {
                    self.status = d["status"].clone();
                }
                self.legal = d["legal"].as_array().cloned().unwrap_or_default();
                if d.get("result").is_some() {
                    self.result = Some(d["result"].clone());
                }
            }
            _ => {}
        }
    }

    /// Reads until it has drawn version `v`.
    async fn reach(&mut self, v: u64) {
        loop {
            while self.read < self.socket.received.len() {
                let m = self.socket.received[self.read].clone();
                self.read += 1;
                self.take(&m);
            }
            if self.v >= v {
                return;
            }
            self.socket.recv().await;
        }
    }

    /// The client's choice: the first capture in `legal`, else one at random.
    fn choose(&self, seed: &mut u64) -> Value {
        if self.status["steps"].as_u64().unwrap_or(0) >= self.resign_after {
            return json!({"resign": true});
        }
        let capture = self.legal.iter().find(|a| {
            a["move"]["to"]
                .as_str()
                .is_some_and(|to| self.board.contains_key(to))
        });
        if let Some(a) = capture {
            return a.clone();
        }
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.legal[(*seed >> 33) as usize % self.legal.len()].clone()
    }

    /// Asks analysis about exactly what this client sees.
    async fn ask_analysis(&mut self, variant: &str) {
        let mut removed = Vec::new();
        for t in self.tallies.as_array().into_iter().flatten() {
            for _ in 0..t["removed"].as_u64().unwrap() {
                removed.push(json!({"piece": t["piece"], "colour": t["colour"]}));
            }
        }
        let ask = json!({"variant": variant, "to_move": self.seat, "colours": self.status["colours"],
                         "board": self.board, "removed": removed});
        let r = self.client.post("/api/analysis/moves", ask).await;
        assert_eq!(r.status, 200, "{}", r.text);
        let mut got: Vec<String> = r.json["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(Value::to_string)
            .collect();
        let mut sent: Vec<String> = self.legal.iter().map(Value::to_string).collect();
        got.sort();
        sent.sort();
        assert_eq!(got, sent, "analysis of my own view gives what I was sent");
    }
}

/// The message for an action as `legal` lists it.
fn message(action: &Value) -> (&'static str, Value) {
    if let Some(at) = action.get("flip") {
        ("flip", json!({"at": at}))
    } else if let Some(m) = action.get("move") {
        ("move", m.clone())
    } else {
        ("resign", Value::Null)
    }
}

async fn play_to_the_end(bots: &mut [Bot; 2], variant: &str, mut v: u64) -> Value {
    let mut seed = 7u64;
    for turn in 0.. {
        for b in bots.iter_mut() {
            b.reach(v).await;
        }
        if let Some(result) = bots[0].result.clone() {
            assert_eq!(Some(&result), bots[1].result.as_ref());
            return result;
        }
        let movers: Vec<usize> = (0..2).filter(|&i| !bots[i].legal.is_empty()).collect();
        assert_eq!(movers.len(), 1, "exactly one seat is sent legal actions");
        let bot = &mut bots[movers[0]];
        if turn % 10 == 3 {
            bot.ask_analysis(variant).await;
        }
        let (t, d) = message(&bot.choose(&mut seed));
        v = bot
            .socket
            .act(t, d.clone())
            .await
            .unwrap_or_else(|e| panic!("{t} {d} from the legal list was refused: {e}"));
    }
    unreachable!()
}

async fn seat_two(h: &Harness, variant: &str) -> (String, [Bot; 2]) {
    let mut a = h.player(&format!("{variant}_one")).await;
    let mut b = h.player(&format!("{variant}_two")).await;
    let r = a
        .post(
            "/api/games",
            json!({"variant": variant, "seconds_per_action": 60, "rated": true}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let id = r.json["id"].as_str().unwrap().to_string();
    let sa = a.game_socket(&id).await;
    let sb = b.game_socket(&id).await;
    b.join(&id).await;
    (id, [Bot::new(a, sa), Bot::new(b, sb)])
}

async fn plays_flip_from_the_protocol_alone(db: TestDb) {
    let h = Harness::start(db);
    let (id, mut bots) = seat_two(&h, "flip").await;
    for b in bots.iter_mut() {
        b.socket
            .wait_for("the game", |m| {
                m["t"] == "state" && m["d"]["game"]["status"] == "running"
            })
            .await;
        b.read = 0;
    }
    let result = play_to_the_end(&mut bots, "flip", 0).await;
    assert!(result["rule"]["code"].is_string(), "{result}");
    let summary = bots[0].client.summary(&id).await;
    assert_eq!(summary["status"], "finished");
    assert_eq!(summary["score"], result["score"]);
}

async fn plays_standard_from_the_protocol_alone(db: TestDb) {
    let h = Harness::start(db);
    let (id, mut bots) = seat_two(&h, "standard").await;
    for b in bots.iter_mut() {
        b.socket
            .wait_for("the deployment", |m| {
                m["t"] == "state" && !m["d"]["deploy"].is_null()
            })
            .await;
        b.socket.act("random_layout", Value::Null).await.unwrap();
        b.socket.act("ready", Value::Null).await.unwrap();
    }
    for b in bots.iter_mut() {
        b.socket
            .wait_for("play", |m| m["t"] == "state" && m["v"] == 1)
            .await;
    }
    let result = play_to_the_end(&mut bots, "standard", 1).await;
    assert!(result["rule"]["code"].is_string(), "{result}");
    let summary = bots[0].client.summary(&id).await;
    assert_eq!(summary["status"], "finished");
    assert_eq!(summary["score"], result["score"]);
}
