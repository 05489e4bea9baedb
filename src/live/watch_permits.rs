//! 指定旁观 (RULES §5.6): each player's list of users allowed to see the player's
//! pieces while watching. The list is stored (`db::watch_permits`); each running game's
//! task keeps its players' lists ([`Permits`], read once when a spectator first comes)
//! and is told of every change at once ([`Cmd::Permits`]), so that a spectator added
//! mid-game sees the player's pieces with the next message and one removed stops
//! seeing them with the next message.

use super::social::{Person, named, registered};
use super::{Cmd, Hub, blocking};
use crate::db::{now_ms, watch_permits};
use crate::error::AppError;
use std::collections::{HashMap, HashSet};

/// Users one player may list: friends and a coach, not an audience.
pub const MAX_PERMITS: i64 = 50;

/// A game's players' lists, as its task keeps them.
#[derive(Debug, Default)]
pub struct Permits {
    /// Whose lists were read, in the order asked; `None` until the first read.
    read_for: Option<Vec<i64>>,
    lists: HashMap<i64, HashSet<i64>>,
}

impl Permits {
    /// Whether the lists of `owners` still need reading (never read, or the players
    /// changed since).
    pub fn stale(&self, owners: &[i64]) -> bool {
        self.read_for.as_deref() != Some(owners)
    }

    pub fn read(&mut self, owners: Vec<i64>, lists: HashMap<i64, HashSet<i64>>) {
        self.read_for = Some(owners);
        self.lists = lists;
    }

    /// `owner`'s list changed: kept only for the game's own players.
    pub fn changed(&mut self, owner: i64, viewers: HashSet<i64>) {
        if self.lists.contains_key(&owner) {
            self.lists.insert(owner, viewers);
        }
    }

    pub fn allows(&self, owner: i64, viewer: i64) -> bool {
        owner != viewer && self.lists.get(&owner).is_some_and(|l| l.contains(&viewer))
    }
}

impl Hub {
    /// The lists of `owners` (a game's players), for a task's [`Permits`].
    pub(crate) async fn watch_lists(
        &self,
        owners: Vec<i64>,
    ) -> Result<HashMap<i64, HashSet<i64>>, AppError> {
        blocking(self.pool(), move |c| {
            Ok(watch_permits::lists_of(c, &owners)?)
        })
        .await
    }

    /// Whom `owner` lets see their pieces.
    pub async fn watch_list(&self, owner: i64) -> Result<Vec<Person>, AppError> {
        let users = blocking(self.pool(), move |c| Ok(watch_permits::listed(c, owner)?)).await?;
        Ok(users.iter().map(Person::of).collect())
    }

    /// `owner` lets (`on`) the player called `name` see their pieces, or stops; the
    /// games `owner` plays now are told at once.
    pub async fn set_watch_permit(&self, owner: i64, name: &str, on: bool) -> Result<(), AppError> {
        let name = name.to_string();
        let viewers = self
            .pool()
            .write(move |c| -> Result<HashSet<i64>, AppError> {
                registered(c, owner)?;
                let them = named(c, &name)?;
                if on {
                    if them.id == owner {
                        return Err(AppError::BadRequest(
                            "you always see your own pieces".into(),
                        ));
                    }
                    if watch_permits::count(c, owner)? >= MAX_PERMITS {
                        return Err(AppError::Limit(
                            "too_many_watchers",
                            format!(
                                "{MAX_PERMITS} players may see your pieces already; remove one first"
                            ),
                        ));
                    }
                    watch_permits::allow(c, owner, them.id, now_ms())?;
                } else {
                    watch_permits::revoke(c, owner, them.id)?;
                }
                let lists = watch_permits::lists_of(c, &[owner])?;
                Ok(lists.get(&owner).cloned().unwrap_or_default())
            })
            .await?;
        for seat in self.playing().games_of(owner) {
            if let Some(tx) = self.live_handle(&seat.game) {
                let _ = tx.send(Cmd::Permits {
                    owner,
                    viewers: viewers.clone(),
                });
            }
        }
        Ok(())
    }
}

/// A two-player game's spectators: one whom a player lists sees that player's pieces
/// (south's when both list them: one player's view, as §5.6 has it, not the truth).
impl super::task::Task {
    /// Reads the players' lists once both are seated, in the variants where a player
    /// knows pieces a spectator does not (standard 军棋; in flip chess nobody does).
    pub(super) async fn read_permits(&mut self) {
        if !self.variant.caps().owners_know_hidden {
            return;
        }
        let owners: Vec<i64> = self.seats.iter().flatten().map(|p| p.id).collect();
        if owners.len() < 2 || !self.permits.stale(&owners) {
            return;
        }
        match self.hub.watch_lists(owners.clone()).await {
            Ok(lists) => self.permits.read(owners, lists),
            // Unread lists show backs only: the safe side of a failed read.
            Err(e) => tracing::warn!(game = %self.row.id, error = %e, "cannot read watch lists"),
        }
    }

    /// The seat whose pieces spectator socket `conn` is let see, if any.
    pub(super) fn behind(&self, conn: u64) -> Option<crate::rules::Seat> {
        let user = self.conns.get(&conn)?.user?;
        crate::rules::Seat::BOTH.into_iter().find(|s| {
            self.seats[s.index()]
                .as_ref()
                .is_some_and(|p| self.permits.allows(p.id, user))
        })
    }

    /// A player's list changed: each spectator whose sight changed gets a fresh state.
    pub(super) async fn permits_changed(&mut self, owner: i64, viewers: HashSet<i64>) {
        let before: Vec<(u64, Option<crate::rules::Seat>)> =
            self.conns.keys().map(|&c| (c, self.behind(c))).collect();
        self.read_permits().await;
        self.permits.changed(owner, viewers);
        for (conn, was) in before {
            if self.seat_of(conn).is_none() && self.behind(conn) != was {
                self.send(conn, &self.state(conn));
            }
        }
    }
}
