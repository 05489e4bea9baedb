//! A person starts a game against the computer: the game is opened as any casual game
//! (within the person's caps, `caps`), and the computer player of the chosen level
//! joins it at once through the same join as a person (which checks the caps again, for
//! the game as running), so it starts dealt (flip chess) or deploying (standard 军棋)
//! before the answer goes out. Until then the game is reserved for the
//! computer: no one else can join it and the lobby does not list it.

use crate::db::games::{self, GameRow};
use crate::db::users;
use crate::engine::Level;
use crate::error::AppError;
use crate::live::caps::{self, Start};
use crate::live::{Cmd, Hub, blocking};
use std::sync::Arc;

/// Games one person may play against the computer at once (running, rematches
/// included; see `caps`): enough for a game of each variant and one to spare; each
/// takes a share of the thinking threads.
pub const MAX_COMPUTER_GAMES: i64 = 3;

/// Keeps an open game for the computer (or a challenge's accepter) for as long as it
/// lives.
pub(in crate::live) struct Reservation<'a> {
    hub: &'a Hub,
    id: String,
}

impl Drop for Reservation<'_> {
    fn drop(&mut self) {
        self.hub.reserved.lock().expect("hub lock").remove(&self.id);
    }
}

impl Hub {
    pub(in crate::live) fn reserve(&self, id: &str, player: i64) -> Reservation<'_> {
        self.reserved
            .lock()
            .expect("hub lock")
            .insert(id.to_string(), player);
        Reservation {
            hub: self,
            id: id.to_string(),
        }
    }

    /// Opens `row` (a casual game by `user`) and seats the computer player of `level`
    /// in it; the game's id once it has started. The caller holds `seat_lock(user)`.
    pub async fn play_computer(
        self: &Arc<Self>,
        user: i64,
        row: GameRow,
        level: Level,
    ) -> Result<String, AppError> {
        if row.rated {
            return Err(AppError::BadOption(
                "games against the computer are casual: send \"rated\": false".into(),
            ));
        }
        let computer = blocking(self.pool(), move |c| Ok(users::computer_player(c, level)?))
            .await
            .map_err(|e| {
                tracing::error!(error = %e, level = level.name(), "no computer player");
                AppError::Unavailable("the computer player is not available now".into())
            })?;
        let id = row.id.clone();
        let _kept = self.reserve(&id, computer.id);
        self.pool()
            .write(move |c| -> Result<(), AppError> {
                let opening = Start::Open {
                    creator: user,
                    rated: false,
                    computer: true,
                };
                caps::check(c, &opening)?;
                Ok(games::insert(c, &row)?)
            })
            .await?;
        let joined = self
            .ask(&id, |reply| Cmd::Join {
                user: computer.id,
                reply,
            })
            .await;
        if let Err(e) = joined {
            tracing::error!(game = %id, error = %e, "the computer could not join");
            let _ = self.ask(&id, |reply| Cmd::Cancel { user, reply }).await;
            return Err(e);
        }
        Ok(id)
    }
}
