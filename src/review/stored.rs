//! A stored finished game as the review walks it: its start (the deal or both layouts,
//! served only once the game has ended) and its actions in order.

use super::Played;
use crate::db::games::{ActionRow, FINISHED, GameRow};
use crate::record::{Record, Setup, parse_action};
use crate::rules::{Game, Options, Seat, Variant};
use serde_json::Value;

/// The game at its first step, and every stored action with its time. Errors are for
/// the log: a finished game that cannot be replayed is the server's fault.
pub fn load(row: &GameRow, actions: &[ActionRow]) -> Result<(Game, Vec<Played>), String> {
    if row.status != FINISHED {
        return Err(format!("game {} has not ended", row.id));
    }
    let variant = Variant::from_name(&row.variant)
        .filter(|v| v.caps().two_player())
        .ok_or_else(|| format!("variant {:?} is not a two-player game", row.variant))?;
    let options: Options = serde_json::from_str(&row.options).map_err(|e| e.to_string())?;
    let first = match row.first_seat.as_deref() {
        Some("south") => Seat::South,
        Some("north") => Seat::North,
        other => return Err(format!("first seat {other:?}")),
    };
    let deal: Value = serde_json::from_str(row.deal.as_deref().ok_or("no deal stored")?)
        .map_err(|e| e.to_string())?;
    let setup = Setup::parse(variant, &deal).map_err(|e| e.to_string())?;
    let game = Record::new(variant, options, row.base, first, Some(setup))
        .start()
        .map_err(|e| e.to_string())?;
    let played = actions
        .iter()
        .map(|a| {
            let v: Value = serde_json::from_str(&a.action).map_err(|e| e.to_string())?;
            let (seat, action) = parse_action(&v)?;
            Ok((seat, action, a.at_ms.max(0) as u64))
        })
        .collect::<Result<Vec<Played>, String>>()?;
    Ok((game, played))
}
