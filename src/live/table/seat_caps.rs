//! Storing a change of an open table's seats within the caps of whoever sits down
//! (`caps::seat_at_table`): a rated table in hand counts as a rated game, a table with
//! the computer as a game against it. The check and the new seats are one write
//! through the database's writer, as every start of a two-player game is, so that two
//! tables taking the same player at once cannot both pass on the same count.

use super::Table;
use crate::db::tables;
use crate::error::AppError;
use crate::live::caps::{self, TableSeating};
use crate::live::messages::ErrorBody;
use crate::live::summary::PlayerInfo;

impl Table {
    /// Stores the seats as they are now; `before` is who sat where before the change.
    /// Refused past a cap (with the cap's code), or when the table is no longer open.
    pub(super) async fn store_seats(&self, before: &[Option<PlayerInfo>]) -> Result<(), ErrorBody> {
        let had: Vec<i64> = before.iter().flatten().map(|p| p.id).collect();
        let mut newcomers: Vec<i64> = self
            .seats
            .iter()
            .flatten()
            .map(|s| s.info.id)
            .filter(|id| !had.contains(id))
            .collect();
        // The computer may take several seats: one newcomer.
        newcomers.dedup();
        let seating = TableSeating {
            creator: self.row.creator_id,
            rated: self.row.rated,
            newcomers,
            computer_before: before.iter().flatten().any(|p| p.computer.is_some()),
            computer_after: self
                .seats
                .iter()
                .flatten()
                .any(|s| s.info.computer.is_some()),
        };
        let rows = self.seat_rows();
        let id = self.row.id.clone();
        let stored = self
            .hub
            .pool()
            .write(move |c| -> Result<bool, AppError> {
                caps::seat_at_table(c, &seating)?;
                Ok(tables::set_seats(c, &id, &rows)?)
            })
            .await;
        match stored {
            Ok(true) => Ok(()),
            Ok(false) => Err(ErrorBody::new("illegal", "the table is no longer open")),
            Err(e @ AppError::Internal(_)) => {
                tracing::error!(table = %self.row.id, error = %e, "cannot store the seats");
                Err(ErrorBody::new(
                    "internal",
                    "the seats could not be stored; try again",
                ))
            }
            Err(e) => Err(ErrorBody::new(e.code(), e.message())),
        }
    }
}

/// A refused seat as the lobby's join hears it: a cap stays the cap (quick pairing
/// stops there, as any other table would refuse alike); anything else means this
/// table cannot take the player now (taken, started), and another may.
pub(super) fn refused(e: ErrorBody) -> AppError {
    match e.code {
        "too_many_rated_games" | "too_many_computer_games" => AppError::Limit(e.code, e.message),
        "not_rated_together" => AppError::NotRatedTogether(e.message),
        "guest_casual_only" => AppError::GuestCasualOnly,
        _ => AppError::Conflict(e.message),
    }
}
