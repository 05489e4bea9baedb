//! 托管 in two-player games: the computer stands in for a player, at level 入门, from
//! that seat's own view (a [`Computer`] built for the seat, never the game itself).
//!
//! The rule, the same as at 四国 tables (RULES §5.5.2, `rules::hidden_game::escape`):
//!
//! - **Manual 托管**: a player asks for it (`{"t":"tuoguan","d":{"on":true}}`) and ends
//!   it (`"on":false`), always for their own seat.
//! - **断线托管**: a player's sockets dropped while the game is played (they had one on the
//!   game and it closed, or a restart cut it; one not yet opened is no drop). The escape
//!   grace starts as before; after a hold-off — a quarter of the grace, at most 10 s,
//!   or at once when the seat is to move with 3 s or less left on its clock — the
//!   computer takes the seat until the player comes back (then this 托管 ends by
//!   itself) or the grace runs out, when the seat escapes exactly as without 托管.
//! - **The limit of three**: every 托管 taken up counts, of either kind; the first three
//!   may be ended, the 4th is for the rest of the game (neither the player nor a
//!   reconnect ends it).
//!
//! Each seat's count, kind and permanence are stored in `games.tuoguan` as they change
//! (not as actions: they are not steps), so a game loaded after a restart goes on with
//! them. The stand-in is rebuilt then from the seat's view at that moment.

use super::computer::Computer;
use super::messages::{ErrorBody, ServerMsg};
use super::task::Task;
use crate::db::games::{self, OPEN, RUNNING};
use crate::db::now_ms;
use crate::error::AppError;
use crate::rules::hidden_game::{TUOGUAN_THAT_MAY_END, TuoguanError, TuoguanKind};
use crate::rules::view::SeatPair;
use crate::rules::{Game, Seat};
use serde::ser::{SerializeStruct, Serializer};
use serde_json::Value;

/// The longest hold-off before 断线托管 begins.
const HOLD_OFF_CAP_MS: i64 = 10_000;
/// A disconnected seat to move with this little left on its clock is taken at once.
const LAST_MS: i64 = 3_000;

/// The hold-off before 断线托管 for an escape grace of `grace_ms`: a quarter of it, at
/// most 10 s, so the computer plays well before the escape and a brief drop of the
/// connection (a page reload) never starts it.
pub(super) fn hold_off_ms(grace_ms: i64) -> i64 {
    (grace_ms / 4).min(HOLD_OFF_CAP_MS)
}

/// One seat's 托管.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SeatTuoguan {
    /// The kind it is in now (manual or disconnect; a two-player game has no 托管退出).
    pub on: Option<TuoguanKind>,
    /// How many 托管 the seat has taken up, of every kind.
    pub count: u8,
    /// The 4th: the computer plays the seat to the end.
    pub permanent: bool,
}

fn kind_name(k: TuoguanKind) -> &'static str {
    match k {
        TuoguanKind::Manual => "manual",
        TuoguanKind::Disconnect => "disconnect",
        TuoguanKind::Exit => "exit",
    }
}

impl serde::Serialize for SeatTuoguan {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("SeatTuoguan", 3)?;
        st.serialize_field("on", &self.on.map(kind_name))?;
        st.serialize_field("count", &self.count)?;
        st.serialize_field("permanent", &self.permanent)?;
        st.end()
    }
}

impl SeatTuoguan {
    /// The seat takes up 托管 of `kind`: one more of the three, or the permanent 4th.
    pub fn start(&mut self, kind: TuoguanKind) -> Result<(), TuoguanError> {
        if self.on.is_some() {
            return Err(TuoguanError::AlreadyInTuoguan);
        }
        self.count = self.count.saturating_add(1);
        self.permanent = self.count > TUOGUAN_THAT_MAY_END;
        self.on = Some(kind);
        Ok(())
    }

    /// The player takes the seat back; refused for the permanent 4th.
    pub fn end(&mut self) -> Result<(), TuoguanError> {
        if self.on.is_none() {
            return Err(TuoguanError::NotInTuoguan);
        }
        if self.permanent {
            return Err(TuoguanError::Permanent);
        }
        self.on = None;
        Ok(())
    }

    /// Whether taking it up now would be for the rest of the game.
    pub fn next_is_permanent(&self) -> bool {
        self.count >= TUOGUAN_THAT_MAY_END
    }
}

/// Both seats' 托管, and the computer standing in for each seat in 托管.
#[derive(Default)]
pub(super) struct Tuoguan {
    pub seats: [SeatTuoguan; 2],
    pub standins: [Option<Computer>; 2],
    /// Each seat whose player's sockets dropped during play (or were cut by a restart)
    /// and have not come back: only those are taken by 断线托管. A player who has not
    /// opened the game yet (a game just started, the page still loading) has dropped
    /// nothing; staying away the whole grace is an escape as ever.
    pub dropped: [bool; 2],
}

impl Tuoguan {
    /// Reads what [`stored_json`] wrote; the stand-ins are the caller's.
    pub fn from_json(text: &str) -> Result<Tuoguan, AppError> {
        let v: Value = serde_json::from_str(text).map_err(AppError::internal)?;
        let mut t = Tuoguan::default();
        for seat in Seat::BOTH {
            let s = &v[seat.name()];
            let on = match s["on"].as_str() {
                None => None,
                Some("manual") => Some(TuoguanKind::Manual),
                Some("disconnect") => Some(TuoguanKind::Disconnect),
                Some(other) => return Err(AppError::internal(format!("stored 托管 {other:?}"))),
            };
            let count = s["count"].as_u64().unwrap_or(0).min(u8::MAX as u64) as u8;
            t.seats[seat.index()] = SeatTuoguan {
                on,
                count,
                permanent: s["permanent"].as_bool().unwrap_or(false),
            };
        }
        Ok(t)
    }

    /// Builds the stand-in of every seat in 托管 from `game` as that seat sees it now.
    pub fn stand_in_all(&mut self, game: &Game) {
        for seat in Seat::BOTH {
            if self.seats[seat.index()].on.is_some() {
                self.standins[seat.index()] = Some(Computer::stand_in(seat, game));
            }
        }
    }
}

/// The stored JSON of the seats' 托管
/// (`{"south":{"on":…,"count":…,"permanent":…},"north":…}`), the form of the
/// messages' `presence.tuoguan` too.
fn stored_json(seats: [SeatTuoguan; 2]) -> String {
    serde_json::to_string(&SeatPair(seats)).expect("托管 serialises")
}

/// What a seat's socket may do about 托管 now (the `can` block of `presence`).
#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct Can {
    /// Ask for 托管: the game runs and the seat is not in 托管.
    pub tuoguan: bool,
    /// End it: the seat is in 托管 that may be ended.
    pub end_tuoguan: bool,
    /// Taking 托管 up now would be the 4th, for the rest of the game: the page warns
    /// and asks to confirm.
    pub tuoguan_permanent: bool,
}

impl Task {
    /// Each seat's 托管, for the `presence` part of every state and presence message.
    pub(super) fn tuoguan_view(&self) -> SeatPair<SeatTuoguan> {
        SeatPair(self.tuoguan.seats)
    }

    /// What `seat`'s sockets may do about 托管.
    pub(super) fn tuoguan_can(&self, seat: Seat) -> Can {
        let t = self.tuoguan.seats[seat.index()];
        let playing = self.row.status == RUNNING && self.game.as_ref().is_none_or(|g| !g.is_over());
        Can {
            tuoguan: playing && t.on.is_none(),
            end_tuoguan: playing && t.on.is_some() && !t.permanent,
            tuoguan_permanent: t.next_is_permanent(),
        }
    }

    /// `{"t":"tuoguan","d":{"on":…}}` from socket `conn`: always for the sender's own
    /// seat. Answered with an ack (托管 is not a step: the version stays) or an error
    /// that changed nothing; every socket then gets a `presence` message.
    pub(super) async fn tuoguan_cmd(&mut self, conn: u64, ack: Option<u64>, on: bool) {
        let refuse = |code, message: &str| ServerMsg::error(ErrorBody::new(code, message), ack);
        // An open game's creator holds no seat yet: the game's state is what to tell.
        if self.row.status == OPEN {
            return self.send(conn, &refuse("illegal", "the game has not started"));
        }
        let Some(seat) = self.seat_of(conn) else {
            let why = "spectators cannot ask for 托管: only a player, for their own seat";
            return self.send(conn, &refuse("not_a_player", why));
        };
        if self.row.status != RUNNING || self.game.as_ref().is_some_and(Game::is_over) {
            return self.send(conn, &refuse("game_over", "the game is over"));
        }
        if self.game.is_none() {
            let why = "托管 starts with play, once the deployment is over";
            return self.send(conn, &refuse("illegal", why));
        }
        let changed = if on {
            self.start_tuoguan(seat, TuoguanKind::Manual).await
        } else {
            self.end_tuoguan(seat).await
        };
        match changed {
            Ok(()) => {
                self.ack(conn, ack);
                self.show_tuoguan();
            }
            Err(why) => self.send(conn, &ServerMsg::error(why, ack)),
        }
    }

    /// `seat` takes up 托管 of `kind`: stored, then the computer stands in for it.
    pub(super) async fn start_tuoguan(
        &mut self,
        seat: Seat,
        kind: TuoguanKind,
    ) -> Result<(), ErrorBody> {
        let mut next = self.tuoguan.seats[seat.index()];
        next.start(kind)
            .map_err(|e| ErrorBody::new("illegal", e.to_string()))?;
        self.store_tuoguan(seat, next).await?;
        if let Some(game) = &self.game {
            self.tuoguan.standins[seat.index()] = Some(Computer::stand_in(seat, game));
        }
        Ok(())
    }

    /// The player takes `seat` back: stored, then the stand-in stops.
    pub(super) async fn end_tuoguan(&mut self, seat: Seat) -> Result<(), ErrorBody> {
        let mut next = self.tuoguan.seats[seat.index()];
        next.end()
            .map_err(|e| ErrorBody::new("illegal", e.to_string()))?;
        self.store_tuoguan(seat, next).await?;
        // Dropping it withdraws its question, if one is out.
        self.tuoguan.standins[seat.index()] = None;
        Ok(())
    }

    /// Stores the seats' 托管 with `seat`'s as `next`, then adopts it. On a storage
    /// error nothing changes.
    async fn store_tuoguan(&mut self, seat: Seat, next: SeatTuoguan) -> Result<(), ErrorBody> {
        let mut seats = self.tuoguan.seats;
        seats[seat.index()] = next;
        let text = stored_json(seats);
        let id = self.row.id.clone();
        let stored = self
            .hub
            .pool()
            .write(move |c| games::set_tuoguan(c, &id, &text))
            .await;
        match stored {
            Ok(true) => {
                self.tuoguan.seats = seats;
                Ok(())
            }
            Ok(false) => Err(ErrorBody::new("game_over", "the game is over")),
            Err(e) => {
                tracing::error!(game = %self.row.id, error = %e, "cannot store 托管");
                Err(ErrorBody::new(
                    "internal",
                    "托管 could not be stored; try again",
                ))
            }
        }
    }

    /// Tells every socket both seats' 托管 (and each player's `can`), in a `presence`
    /// message.
    pub(super) fn show_tuoguan(&self) {
        self.send_presence(None);
    }

    /// When the next 断线托管 is due, and for which seat: a seat without a socket, not
    /// in 托管, in a game being played.
    pub(super) fn tuoguan_due(&self) -> Option<(i64, Seat)> {
        let game = self.game.as_ref()?;
        if self.row.status != RUNNING || game.is_over() {
            return None;
        }
        let hold_off = hold_off_ms(self.hub.config().grace.as_millis() as i64);
        Seat::BOTH
            .into_iter()
            .filter(|s| {
                self.tuoguan.seats[s.index()].on.is_none() && self.tuoguan.dropped[s.index()]
            })
            .filter_map(|s| {
                let away = self.away_since[s.index()]?;
                let mut at = away + hold_off;
                if let (true, Some(deadline)) = (game.to_move() == s, self.row.deadline_at) {
                    at = at.min(deadline - LAST_MS);
                }
                Some((at.max(away), s))
            })
            .min()
    }

    /// The clock's side of 断线托管: starts it for a seat whose hold-off is over.
    /// Returns whether it did (the caller then looks at the clocks again).
    pub(super) async fn tuoguan_on_timer(&mut self) -> bool {
        let Some((at, seat)) = self.tuoguan_due() else {
            return false;
        };
        if at > now_ms() {
            return false;
        }
        match self.start_tuoguan(seat, TuoguanKind::Disconnect).await {
            Ok(()) => {
                self.show_tuoguan();
                true
            }
            Err(why) => {
                tracing::error!(game = %self.row.id, why = %why.message, "断线托管 did not start");
                false
            }
        }
    }

    /// Sockets went: a seat that had one and has none now has dropped.
    pub(super) fn tuoguan_dropped(&mut self, before: [bool; 2]) {
        for seat in Seat::BOTH {
            if before[seat.index()] && !self.connected(seat) && self.row.status == RUNNING {
                self.tuoguan.dropped[seat.index()] = true;
            }
        }
    }

    /// A player came back: their 断线托管 ends, unless it is the permanent 4th.
    pub(super) async fn tuoguan_back(&mut self) {
        for seat in Seat::BOTH {
            if self.connected(seat) {
                self.tuoguan.dropped[seat.index()] = false;
            }
            let t = self.tuoguan.seats[seat.index()];
            if t.on == Some(TuoguanKind::Disconnect)
                && !t.permanent
                && self.away_since[seat.index()].is_none()
            {
                match self.end_tuoguan(seat).await {
                    Ok(()) => self.show_tuoguan(),
                    Err(why) => {
                        tracing::error!(game = %self.row.id, why = %why.message, "断线托管 did not end")
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_may_be_ended_and_the_fourth_is_for_good() {
        let mut t = SeatTuoguan::default();
        for n in 1..=3 {
            assert!(!t.next_is_permanent(), "before the {n}th");
            t.start(TuoguanKind::Manual).unwrap();
            assert_eq!(
                t.start(TuoguanKind::Manual),
                Err(TuoguanError::AlreadyInTuoguan)
            );
            assert!(!t.permanent);
            t.end().unwrap();
            assert_eq!(t.end(), Err(TuoguanError::NotInTuoguan));
        }
        assert!(t.next_is_permanent());
        t.start(TuoguanKind::Disconnect).unwrap();
        assert!(t.permanent);
        assert_eq!(t.end(), Err(TuoguanError::Permanent));
        assert_eq!(t.on, Some(TuoguanKind::Disconnect));
    }

    #[test]
    fn the_stored_form_reads_back() {
        let mut t = Tuoguan::default();
        t.seats[1].start(TuoguanKind::Disconnect).unwrap();
        t.seats[0].count = 3;
        let back = Tuoguan::from_json(&stored_json(t.seats)).unwrap();
        assert_eq!(back.seats, t.seats);
        assert_eq!(
            stored_json(t.seats),
            r#"{"south":{"on":null,"count":3,"permanent":false},"north":{"on":"disconnect","count":1,"permanent":false}}"#
        );
    }

    #[test]
    fn the_hold_off_is_a_quarter_of_the_grace_and_at_most_ten_seconds() {
        assert_eq!(hold_off_ms(60_000), 10_000);
        assert_eq!(hold_off_ms(8_000), 2_000);
    }
}
