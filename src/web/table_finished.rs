//! What `/api/games/{id}/record` and `/api/games/{id}/replay` answer for a 四国 table
//! (finished.rs dispatches here): its `junqi-record/1` record, replayed and checked
//! against its commitments, and a replay the page steps through without rules — the
//! whole board at the start (every layout) and, for each action, the step as everyone
//! may see it after the end and the stations it changed.
//!
//! Both wait for the end: a table's stored start holds every seat's layout.

use super::finished::Built;
use crate::db::games::{ActionRow, FINISHED, GameRow};
use crate::error::AppError;
use crate::record::{Claimed, SiguoRecord, apply_siguo_action, parse_siguo_action};
use crate::rules::delta::route;
use crate::rules::hidden_game::{EventView, HiddenGame, Sight, Step, cell};
use crate::rules::siguo::{FourPlayer, Station};
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

fn refused_while_running(row: &GameRow) -> Result<(), AppError> {
    if row.status == FINISHED {
        Ok(())
    } else {
        Err(AppError::Conflict(
            "a 四国 table's record and replay are served once it has ended".into(),
        ))
    }
}

/// The stored record of a finished table, with its actions.
fn stored(row: &GameRow, actions: &[ActionRow]) -> Result<SiguoRecord, AppError> {
    let start = row
        .deal
        .as_deref()
        .ok_or_else(|| AppError::internal("a finished table without its start"))?;
    let v: Value = serde_json::from_str(start).map_err(AppError::internal)?;
    let obj = v
        .as_object()
        .ok_or_else(|| AppError::internal("a stored start"))?;
    let mut record = SiguoRecord::from_json(obj).map_err(AppError::internal)?;
    record.actions.clear();
    for a in actions {
        let v: Value = serde_json::from_str(&a.action).map_err(AppError::internal)?;
        record
            .actions
            .push(parse_siguo_action(&v).map_err(AppError::internal)?);
    }
    record.claimed = Some(Claimed {
        result: Some(row.result.clone()),
        reason: Some(row.reason.clone()),
    });
    Ok(record)
}

pub fn record(row: &GameRow, actions: &[ActionRow]) -> Result<Built, AppError> {
    refused_while_running(row)?;
    let record = stored(row, actions)?;
    let verified = record.verify().is_ok();
    let mut v = record.to_json();
    v["id"] = json!(row.id);
    v["verified"] = json!(verified);
    Ok(Built {
        json: serde_json::to_vec(&v).map_err(AppError::internal)?,
        finished: true,
    })
}

/// Every occupied station as everyone sees it after the end.
fn board(game: &HiddenGame<FourPlayer>) -> BTreeMap<Station, Value> {
    game.position()
        .tokens()
        .map(|(at, t)| (at, json!(cell(t, Sight::ALL))))
        .collect()
}

pub fn replay(row: &GameRow, actions: &[ActionRow]) -> Result<Built, AppError> {
    refused_while_running(row)?;
    let record = stored(row, actions)?;
    let t = &record.table;
    let pos = record.start_position().map_err(AppError::internal)?;
    let mut game = record.game_at(pos);
    let mut before = board(&game);
    let start: Vec<Value> = (before.iter())
        .map(|(at, c)| {
            let mut c = c.clone();
            c["at"] = json!(at);
            c
        })
        .collect();
    let mut steps = Vec::with_capacity(record.actions.len());
    for &(seat, action) in &record.actions {
        let path = match action {
            crate::record::SiguoAction::Step(Step::Move { from, to }) => {
                Some(route(game.position(), from, to))
            }
            _ => None,
        };
        let applied = apply_siguo_action(&mut game, seat, action).map_err(AppError::internal)?;
        let after = board(&game);
        // The stations whose piece changed: what the page redraws, with no rule.
        let mut changes: Vec<Value> = Vec::new();
        for (at, c) in &after {
            if before.get(at) != Some(c) {
                changes.push(json!({"at": at, "cell": c}));
            }
        }
        for at in before.keys().filter(|at| !after.contains_key(at)) {
            changes.push(json!({"at": at, "cell": null}));
        }
        let mut step = Map::new();
        step.insert(
            "action".into(),
            crate::record::siguo_action_json(seat, action),
        );
        step.insert(
            "event".into(),
            json!(applied.map(|a| EventView::of(&a, path, Sight::ALL))),
        );
        step.insert("changes".into(), Value::Array(changes));
        steps.push(Value::Object(step));
        before = after;
    }
    let v = json!({
        "id": row.id,
        "variant": "siguo",
        "options": t.options,
        "seated": t.seated,
        "first": record.first,
        "start": start,
        "steps": steps,
        "result": row.result,
        "reason": row.reason,
    });
    Ok(Built {
        json: serde_json::to_vec(&v).map_err(AppError::internal)?,
        finished: true,
    })
}
