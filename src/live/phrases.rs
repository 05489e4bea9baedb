//! Preset phrases and emotes (快捷语) between the players of a game: fixed ids only,
//! so there is nothing to moderate, and rate-limited so that they cannot flood the
//! table.

use super::messages::{ErrorBody, PhraseMsg, ServerMsg};
use super::task::Task;
use crate::db::now_ms;

/// At most one phrase in this many milliseconds per seat…
const GAP_MS: i64 = 3_000;
/// …and at most `PER_MINUTE` in any minute.
const PER_MINUTE: usize = 10;
const MINUTE_MS: i64 = 60_000;

impl Task {
    /// A player's phrase: acknowledged, then sent to every socket of the game. A refused
    /// one (a spectator's, or one too soon) is answered with an error and goes nowhere.
    pub(super) fn phrase(&mut self, conn: u64, ack: Option<u64>, id: &'static str) {
        let Some(seat) = self.seat_of(conn) else {
            return self.send(conn, &ServerMsg::error(ErrorBody::not_a_player(), ack));
        };
        let now = now_ms();
        let sent = &mut self.phrases[seat.index()];
        while sent.front().is_some_and(|&t| now - t >= MINUTE_MS) {
            sent.pop_front();
        }
        let too_soon = sent.back().is_some_and(|&t| now - t < GAP_MS);
        if too_soon || sent.len() >= PER_MINUTE {
            let why = "at most one phrase every 3 seconds and 10 a minute";
            return self.send(
                conn,
                &ServerMsg::error(ErrorBody::new("rate_limited", why), ack),
            );
        }
        sent.push_back(now);
        self.ack(conn, ack);
        self.send_to_all(&ServerMsg::Phrase {
            d: PhraseMsg { seat, id },
        });
    }
}
