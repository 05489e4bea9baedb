//! A person against the computer over the real socket: the game created with
//! `"computer"`, the person's seat, and the game mirrored locally from the true deal
//! or layouts, every event of the computer's followed by the rules.

use super::{Client, Harness, Resp, Socket, action_message};
use junqi::record::Setup;
use junqi::rules::{Action, Game, Layout, Options, Seat, Variant};
use serde_json::{Value, json};

/// `POST /api/games` against the computer at `level`.
pub async fn create(client: &mut Client, variant: &str, spa: u32, level: &str) -> Resp {
    client
        .post(
            "/api/games",
            json!({"variant": variant, "seconds_per_action": spa, "rated": false,
                   "computer": level}),
        )
        .await
}

/// The seat and the true game of a running game, from the database: the deal (flip
/// chess) or the layouts (standard, once play has begun).
pub fn stored_game(h: &Harness, id: &str) -> Game {
    let row = h.row(id);
    let first = match row.first_seat.as_deref() {
        Some("south") => Seat::South,
        Some("north") => Seat::North,
        other => panic!("first seat {other:?}"),
    };
    let options: Options = serde_json::from_str(&row.options).unwrap();
    let deal: Value = serde_json::from_str(row.deal.as_deref().expect("a deal")).unwrap();
    let variant = Variant::from_name(&row.variant).unwrap();
    match Setup::parse(variant, &deal).unwrap() {
        Setup::Deal(d) => Game::new_flip(options, &d, first),
        Setup::Layouts { south, north } => Game::new_standard(options, &south, &north, first),
    }
}

/// The layouts of a standard game whose play has begun.
pub fn stored_layouts(h: &Harness, id: &str) -> (Layout, Layout) {
    let row = h.row(id);
    let v: Value = serde_json::from_str(row.deal.as_deref().expect("layouts stored")).unwrap();
    match Setup::parse(Variant::Standard, &v).unwrap() {
        Setup::Layouts { south, north } => (south, north),
        Setup::Deal(_) => panic!("a deal in a standard game"),
    }
}

/// The action an event reports, by whom; `None` for table events (rematch, start).
pub fn event_action(ev: &Value) -> Option<(Seat, Action)> {
    let d = &ev["d"];
    let seat = match d["seat"].as_str()? {
        "south" => Seat::South,
        "north" => Seat::North,
        _ => return None,
    };
    let sq = |k: &str| d[k].as_str().unwrap().parse().unwrap();
    let action = match d["kind"].as_str()? {
        "flip" => Action::Flip(sq("at")),
        "move" => Action::Move {
            from: sq("from"),
            to: sq("to"),
        },
        "pass" => Action::Pass,
        "timeout" => Action::Timeout,
        "offer_draw" => Action::OfferDraw,
        "decline_draw" => Action::DeclineDraw,
        "accept_draw" => Action::AcceptDraw,
        "resign" => Action::Resign,
        "escape" => Action::Escape,
        _ => return None,
    };
    Some((seat, action))
}

pub struct VsComputer {
    pub id: String,
    pub client: Client,
    pub socket: Socket,
    pub me: Seat,
    /// The game as the server must have it.
    pub game: Game,
    pub version: u64,
    /// Each event the computer's seat made, in order.
    pub computer_events: Vec<Value>,
}

impl VsComputer {
    /// The person `client` plays game `id`, already running against the computer: its
    /// seat from the summary, its socket (caught up from the start with `?v=0`), and
    /// the mirror. For standard 军棋, play must have begun.
    pub async fn seat(h: &Harness, client: Client, id: &str) -> VsComputer {
        let mut client = client;
        let summary = client.summary(id).await;
        assert_eq!(summary["status"], "running", "{summary}");
        let me = if summary["players"]["south"]["username"] == client.name.as_str() {
            Seat::South
        } else {
            Seat::North
        };
        let other = &summary["players"][me.other().name()]["username"];
        assert!(
            other.as_str().unwrap().starts_with("computer-"),
            "the other seat is the computer: {summary}"
        );
        let game = stored_game(h, id);
        // A standard game's version 1 is the start of play, which only a state shows.
        let (since, version) = if game.variant().caps().deploys() {
            (1, 1)
        } else {
            (0, 0)
        };
        let socket = client.socket(&format!("/ws/game/{id}?v={since}")).await;
        VsComputer {
            id: id.to_string(),
            client,
            socket,
            me,
            game,
            version,
            computer_events: Vec::new(),
        }
    }

    pub fn computer(&self) -> Seat {
        self.me.other()
    }

    /// The next event (at the next version), followed in the mirror; its action.
    pub async fn next_event(&mut self) -> (Value, Option<(Seat, Action)>) {
        let want = self.version + 1;
        let ev = self
            .socket
            .wait_for(&format!("event {want}"), |v| {
                v["t"] == "event" && v["v"] == want
            })
            .await;
        self.version = want;
        let action = event_action(&ev);
        if let Some((seat, a)) = action {
            self.game
                .apply(seat, a, None)
                .unwrap_or_else(|e| panic!("the mirror refuses {seat:?} {a:?}: {e}\n{ev}"));
            if seat == self.computer() {
                self.computer_events.push(ev.clone());
            }
        }
        (ev, action)
    }

    /// Follows events until the person is to move or the game is over.
    pub async fn until_my_turn(&mut self) {
        while !self.game.is_over() && self.game.to_move() != self.me {
            self.next_event().await;
        }
    }

    /// The person plays `action`; it must be acknowledged at the next version.
    pub async fn play(&mut self, action: Action) {
        let (t, d) = match action {
            Action::Pass => ("pass", Value::Null),
            other => action_message(other),
        };
        let v = self
            .socket
            .act(t, d.clone())
            .await
            .unwrap_or_else(|e| panic!("{t} {d} refused: {e}"));
        self.game.apply(self.me, action, None).unwrap();
        self.version += 1;
        // Its own event follows the ack (and is skipped by the waits that follow).
        assert_eq!(v, self.version, "{t} {d}");
    }

    /// Plays to the end with `choose` for the person, who resigns once `resign_at`
    /// steps have been played. Every computer turn must be answered in time.
    pub async fn play_out(&mut self, resign_at: u32, mut choose: impl FnMut(&Game) -> Action) {
        self.until_my_turn().await;
        while !self.game.is_over() {
            let action = if self.game.steps() >= resign_at {
                Action::Resign
            } else {
                choose(&self.game)
            };
            self.play(action).await;
            self.until_my_turn().await;
        }
    }

    /// Makes `socket.received` hold everything the game's task has sent this socket so
    /// far (a barrier through the task, not a wait of a fixed time).
    pub async fn settle(&mut self) {
        self.socket.barrier().await;
    }
}
