//! Preset phrases and emotes (快捷语) between the players of a game: fixed ids only,
//! so there is nothing to moderate, and rate-limited so that they cannot flood the
//! table.

use super::messages::{ErrorBody, PhraseMsg, ServerMsg};
use super::task::Task;
use crate::db::now_ms;
use std::collections::VecDeque;

/// At most one phrase in this many milliseconds per seat…
const GAP_MS: i64 = 3_000;
/// …and at most `PER_MINUTE` in any minute.
const PER_MINUTE: usize = 10;
const MINUTE_MS: i64 = 60_000;

/// Whether a seat that sent phrases at `sent` (oldest first) may send one at `now`;
/// if so, it is counted.
fn allow(sent: &mut VecDeque<i64>, now: i64) -> bool {
    while sent.front().is_some_and(|&t| now - t >= MINUTE_MS) {
        sent.pop_front();
    }
    let too_soon = sent.back().is_some_and(|&t| now - t < GAP_MS);
    if too_soon || sent.len() >= PER_MINUTE {
        return false;
    }
    sent.push_back(now);
    true
}

impl Task {
    /// A player's phrase: acknowledged, then sent to every socket of the game but those
    /// of players who block the sender (who is not told: a block is not announced). A
    /// refused one (a spectator's, or one too soon) is answered with an error and goes
    /// nowhere.
    pub(super) fn phrase(&mut self, conn: u64, ack: Option<u64>, id: &'static str) {
        let Some((seat, sender)) = self.player(conn) else {
            return self.send(conn, &ServerMsg::error(ErrorBody::not_a_player(), ack));
        };
        if !allow(&mut self.phrases[seat.index()], now_ms()) {
            let why = "at most one phrase every 3 seconds and 10 a minute";
            return self.send(
                conn,
                &ServerMsg::error(ErrorBody::new("rate_limited", why), ack),
            );
        }
        self.ack(conn, ack);
        let text = ServerMsg::Phrase {
            d: PhraseMsg { seat, id },
        }
        .frame();
        let social = self.hub.social();
        for c in self.conns.values() {
            if !c.user.is_some_and(|u| social.blocks(u, sender)) {
                c.out.push(text.clone());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_every_three_seconds_and_ten_a_minute() {
        let mut sent = VecDeque::new();
        assert!(allow(&mut sent, 0));
        assert!(!allow(&mut sent, 2_999), "too soon");
        assert!(allow(&mut sent, 3_000));
        // Every 3 s: the 11th within a minute is refused, and allowed once the first
        // has aged out.
        let mut t = 3_000;
        for _ in 2..10 {
            t += 3_000;
            assert!(allow(&mut sent, t));
        }
        assert_eq!(sent.len(), 10);
        assert!(!allow(&mut sent, t + 3_000), "the 11th in a minute");
        assert!(allow(&mut sent, 60_000), "the first has aged out");
    }
}
