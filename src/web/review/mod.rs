//! 复盘分析 over HTTP: `POST /api/games/{id}/review?side=south` starts the engine's
//! review of a finished flip or standard game from one side (or answers the one kept),
//! `GET` the same address says how far it has come and, once done, gives it
//! (docs/protocol.md, "Game review"). The work itself is in `crate::review`; the bounds
//! on who may start how much are in jobs.rs.

pub mod jobs;

use super::api::check_id;
use super::bearer::Caller;
use crate::db::games::{self, FINISHED, GameRow};
use crate::error::AppError;
use crate::live::{Hub, blocking};
use crate::rules::{Seat, Variant};
use actix_web::http::header;
use actix_web::{HttpResponse, web};
pub use jobs::Reviews;
use jobs::Status;
use serde::Deserialize;
use serde_json::json;
use std::sync::Arc;
use std::sync::atomic::Ordering;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideQuery {
    #[serde(default)]
    side: Option<Seat>,
}

/// The game's row, if it may be reviewed: a finished two-player game.
fn reviewable(row: Option<GameRow>, id: &str) -> Result<GameRow, AppError> {
    let row =
        row.ok_or_else(|| AppError::NotFound(format!("no game {}", crate::quote::quoted(id))))?;
    if !Variant::from_name(&row.variant).is_some_and(|v| v.caps().two_player()) {
        return Err(AppError::BadOption(
            "reviews are of flip chess and standard games; 四国 tables are not reviewed".into(),
        ));
    }
    if row.status != FINISHED {
        return Err(AppError::Moved(
            "game_not_finished",
            "a game is reviewed once it has ended".into(),
        ));
    }
    Ok(row)
}

/// The side asked for, or else the asker's own seat in the game.
fn side_of(row: &GameRow, asked: Option<Seat>, user: Option<i64>) -> Result<Seat, AppError> {
    if let Some(side) = asked {
        return Ok(side);
    }
    match user {
        Some(u) if row.south_id == Some(u) => Ok(Seat::South),
        Some(u) if row.north_id == Some(u) => Ok(Seat::North),
        _ => Err(AppError::BadRequest(
            "say which side to review: ?side=south or ?side=north".into(),
        )),
    }
}

fn answer(status: Status, side: Seat) -> HttpResponse {
    match status {
        Status::Done(bytes) => HttpResponse::Ok()
            .content_type("application/json")
            // Every review answered is one kept from before: a request never waits for one.
            .insert_header(("x-cache", "hit"))
            .insert_header((header::CACHE_CONTROL, "no-cache"))
            .body(bytes),
        Status::Pending(p) => {
            let running = p.running.load(Ordering::Relaxed);
            HttpResponse::Accepted().json(json!({
                "status": if running { "running" } else { "queued" },
                "side": side,
                "done": p.done.load(Ordering::Relaxed),
                "total": p.total,
            }))
        }
        Status::Failed => HttpResponse::Ok().json(json!({"status": "failed", "side": side})),
        Status::None => HttpResponse::Ok().json(json!({"status": "none", "side": side})),
    }
}

async fn row_of(hub: &Hub, id: &str) -> Result<GameRow, AppError> {
    let lookup = id.to_string();
    let row = blocking(hub.pool(), move |c| Ok(games::get(c, &lookup)?)).await?;
    reviewable(row, id)
}

/// `POST /api/games/{id}/review[?side=…]`: signed-in players (guests too), for a
/// finished game; 202 with the progress while it is computed, 200 with it once done.
pub async fn start(
    hub: web::Data<Arc<Hub>>,
    reviews: web::Data<Reviews>,
    caller: Caller,
    path: web::Path<String>,
    q: web::Query<SideQuery>,
) -> Result<HttpResponse, AppError> {
    let user = caller.require()?;
    let id = path.into_inner();
    check_id(&id)?;
    let row = row_of(&hub, &id).await?;
    let side = side_of(&row, q.side, Some(user))?;
    let key = (id.clone(), side);
    match reviews.status(&key) {
        s @ (Status::Done(_) | Status::Pending(_)) => return Ok(answer(s, side)),
        Status::Failed | Status::None => reviews.may_start(&key, user)?,
    }
    let actions = blocking(hub.pool(), move |c| Ok(games::actions(c, &id)?)).await?;
    let status = reviews.start(key, user, row, actions)?;
    Ok(answer(status, side))
}

/// `GET /api/games/{id}/review[?side=…]`: anyone may read a review once it is done;
/// nothing is computed here.
pub async fn get(
    hub: web::Data<Arc<Hub>>,
    reviews: web::Data<Reviews>,
    caller: Caller,
    path: web::Path<String>,
    q: web::Query<SideQuery>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    check_id(&id)?;
    let row = row_of(&hub, &id).await?;
    let side = side_of(&row, q.side, caller.id())?;
    Ok(answer(reviews.status(&(id, side)), side))
}
