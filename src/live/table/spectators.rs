//! A table's spectators (RULES §5.6, 指定旁观): each chooses a seat to sit behind, and
//! sees that seat's pieces only when its player lists them; everyone else sees backs.
//! Also the hub's register of running games (`playing.rs`), which tells a player's
//! list changes to the games they sit in.

use super::{Phase, Table};
use crate::live::messages::ServerMsg;
use crate::rules::siguo::Seat4;
use std::collections::HashSet;

impl Table {
    /// The people seated, in seat order: the owners of the lists that count here.
    fn people(&self) -> Vec<i64> {
        self.seats
            .iter()
            .flatten()
            .filter(|p| p.info.computer.is_none())
            .map(|p| p.info.id)
            .collect()
    }

    /// Reads the seated players' lists, once the seats are settled (the table left
    /// its open phase) and again if they changed.
    pub(super) async fn read_permits(&mut self) {
        if matches!(self.phase, Phase::Open) {
            return;
        }
        let owners = self.people();
        if !self.permits.stale(&owners) {
            return;
        }
        match self.hub.watch_lists(owners.clone()).await {
            Ok(lists) => self.permits.read(owners, lists),
            // Unread lists show backs only: the safe side of a failed read.
            Err(e) => tracing::warn!(table = %self.row.id, error = %e, "cannot read watch lists"),
        }
    }

    /// Whose pieces spectator socket `conn` sees: the seat it sits behind (by
    /// default the first whose player lists it), if that seat's player lists it.
    pub(super) fn sight_of(&self, conn: u64) -> Option<Seat4> {
        let c = self.conns.get(&conn)?;
        let user = c.user?;
        if self.seat_of_user(Some(user)).is_some() {
            return None;
        }
        let allows = |s: Seat4| {
            self.seats[s.index()]
                .as_ref()
                .is_some_and(|p| self.permits.allows(p.info.id, user))
        };
        match c.behind {
            Some(s) => Some(s).filter(|&s| allows(s)),
            None => Seat4::ALL.into_iter().find(|&s| allows(s)),
        }
    }

    /// Spectator socket `conn` sits behind `seat` now.
    pub(super) fn sit_behind(&mut self, conn: u64, seat: Seat4) {
        if let Some(c) = self.conns.get_mut(&conn) {
            c.behind = Some(seat);
        }
        self.send_view(conn);
    }

    /// A seated player's list changed: every spectator is sent the table as it may
    /// see it now (one whose sight did not change gets the same view again).
    pub(super) async fn permits_changed(&mut self, owner: i64, viewers: HashSet<i64>) {
        self.read_permits().await;
        self.permits.changed(owner, viewers);
        let watching: Vec<u64> = (self.conns.iter())
            .filter(|(_, c)| self.seat_of_user(c.user).is_none() && c.user.is_some())
            .map(|(&id, _)| id)
            .collect();
        for conn in watching {
            self.send_view(conn);
        }
    }

    /// Sends socket `conn` the table as it sees it, at the current version.
    pub(super) fn send_view(&self, conn: u64) {
        let Some(c) = self.conns.get(&conn) else {
            return;
        };
        let you = self.seat_of_user(c.user);
        let msg = ServerMsg::Table {
            v: self.version,
            d: Box::new(self.view(you, self.sight_of(conn))),
        };
        self.send(conn, &msg);
    }

    /// Keeps the hub's register of running games in step: the table's people are
    /// seated there from the deployment to the end.
    pub(super) fn take_seats(&mut self) {
        let running = match &self.phase {
            Phase::Open => false,
            Phase::Deploying(_) => true,
            Phase::Playing(p) => !p.game.is_over(),
        };
        if !running {
            self.seated = None;
        } else if self.seated.is_none() {
            let started = self.row.started_at.unwrap_or(self.row.created_at);
            let users = self.people();
            self.seated = Some(self.hub.playing().seat(&self.row.id, started, users));
        }
    }
}
