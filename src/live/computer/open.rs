//! A person starts a game against the computer: the game is opened as any casual game
//! (within the person's caps), and the computer player of the chosen level joins it at
//! once through the same join as a person, so it starts dealt (flip chess) or deploying
//! (standard 军棋) before the answer goes out. Until then the game is reserved for the
//! computer: no one else can join it and the lobby does not list it.

use crate::db::games::{self, GameRow};
use crate::db::{DbConn, users};
use crate::engine::Level;
use crate::error::AppError;
use crate::live::{Cmd, Hub, blocking, lobby};
use std::sync::Arc;

/// Games one person may play against the computer at once: enough for a game of each
/// variant and one to spare; each takes a share of the thinking threads.
pub const MAX_COMPUTER_GAMES: i64 = 3;

/// Refuses a game against the computer past [`MAX_COMPUTER_GAMES`] running.
fn check_computer_room(c: &mut DbConn, user: i64) -> Result<(), AppError> {
    let computers = users::computer_ids(c)?;
    if games::computer_games_running(c, user, &computers)? >= MAX_COMPUTER_GAMES {
        return Err(AppError::Limit(
            "too_many_computer_games",
            format!(
                "you already play {MAX_COMPUTER_GAMES} games against the computer; finish \
                 or resign one before starting another"
            ),
        ));
    }
    Ok(())
}

/// Keeps an open game for the computer for as long as it lives.
struct Reservation<'a> {
    hub: &'a Hub,
    id: String,
}

impl Drop for Reservation<'_> {
    fn drop(&mut self) {
        self.hub.reserved.lock().expect("hub lock").remove(&self.id);
    }
}

impl Hub {
    fn reserve(&self, id: &str, player: i64) -> Reservation<'_> {
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
                lobby::check_open_room(c, user)?;
                check_computer_room(c, user)?;
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
