//! What `/api/games/{id}/record` and `/api/games/{id}/replay` answer, built from the
//! stored game: a short read of the database, then work with the rules alone (no
//! connection held, no HTTP), so that finished_cache.rs can run it off the async
//! threads and keep what a finished game answers.

use super::api::{LoadedGame, load_game, variant_of};
use crate::db::games::{self, ActionRow, FINISHED, GameRow};
use crate::db::{self};
use crate::error::AppError;
use crate::live::PlayerRef;
use crate::record::{Claimed, Record, Setup, parse_action};
use crate::rules::{Options, Seat};
use serde_json::{Value, json};

/// A game's answer as JSON, and whether the game had ended (then it never changes).
pub struct Built {
    pub json: Vec<u8>,
    pub finished: bool,
}

/// What a record is made of: the game's row and its actions.
pub fn load_record(c: &mut db::DbConn, id: &str) -> Result<(GameRow, Vec<ActionRow>), AppError> {
    let row = games::get(c, id)?.ok_or_else(|| AppError::NotFound(format!("no game {id:?}")))?;
    let actions = games::actions(c, id)?;
    Ok((row, actions))
}

/// The game's record. The deal and salt are part of it only once the game has ended;
/// then it is replayed with the rules and checked against the commitment.
pub fn record(row: &GameRow, actions: &[ActionRow]) -> Result<Built, AppError> {
    if row.variant == crate::rules::Variant::Siguo.name() {
        return super::table_finished::record(row, actions);
    }
    let first = match row.first_seat.as_deref() {
        Some("north") => Seat::North,
        Some("south") => Seat::South,
        _ => {
            return Err(AppError::Conflict(
                "the game has not started; it has no record yet".into(),
            ));
        }
    };
    let options: Options = serde_json::from_str(&row.options).map_err(AppError::internal)?;
    let finished = row.status == FINISHED;
    let variant = variant_of(&row.variant)?;
    let setup = match (&row.deal, finished) {
        (Some(d), true) => {
            let v: Value = serde_json::from_str(d).map_err(AppError::internal)?;
            Some(Setup::parse(variant, &v).map_err(AppError::internal)?)
        }
        _ => None,
    };
    let mut record = Record::new(variant, options, row.base, first, setup);
    record.commitment = row.commitment.clone();
    record.salt = if finished { row.salt.clone() } else { None };
    let mut at_ms = Vec::with_capacity(actions.len());
    let mut by_tuoguan = Vec::new();
    for (i, a) in actions.iter().enumerate() {
        let v: Value = serde_json::from_str(&a.action).map_err(AppError::internal)?;
        if v["by"] == "tuoguan" {
            by_tuoguan.push(i);
        }
        record
            .actions
            .push(parse_action(&v).map_err(AppError::internal)?);
        at_ms.push(a.at_ms.max(0) as u64);
    }
    record.at_ms = Some(at_ms);
    record.end_ms = row.end_ms.map(|e| e as u64);
    if finished {
        record.claimed = Some(Claimed {
            result: Some(row.result.clone()),
            reason: Some(row.reason.clone()),
        });
    }
    let verified = finished && record.verify().is_ok();
    let mut v = record.to_json();
    // Steps played by the computer standing in for a seat (托管) keep their mark.
    for i in by_tuoguan {
        v["actions"][i]["by"] = json!("tuoguan");
    }
    v["id"] = json!(row.id);
    // Replayed here with the rules and checked against the commitment.
    v["verified"] = json!(verified);
    Ok(Built {
        json: serde_json::to_vec(&v).map_err(AppError::internal)?,
        finished,
    })
}

/// What a replay is made of: the game with its players, and its actions. Refused
/// (409) while the game is open or running.
pub fn load_replay(c: &mut db::DbConn, id: &str) -> Result<(LoadedGame, Vec<ActionRow>), AppError> {
    let g = load_game(c, id)?;
    if g.row.status != FINISHED {
        return Err(AppError::Conflict(
            "a replay is served once the game has ended".into(),
        ));
    }
    let actions = games::actions(c, id)?;
    Ok((g, actions))
}

/// A finished game's replay, computed here so that the page needs no rules.
pub fn replay(g: &LoadedGame, actions: &[ActionRow]) -> Result<Built, AppError> {
    if g.row.variant == crate::rules::Variant::Siguo.name() {
        return super::table_finished::replay(&g.row, actions);
    }
    let players = PlayerRef::seats(&g.seats);
    let replay = crate::live::replay::replay(&g.row, actions, players)?;
    Ok(Built {
        json: serde_json::to_vec(&replay).map_err(AppError::internal)?,
        finished: true,
    })
}
