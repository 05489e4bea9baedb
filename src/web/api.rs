//! The JSON API: lobby and games, records, the board, analysis, players and health.

use super::bearer::Caller;
use super::finished_cache::FinishedCache;
use crate::db::games::{self, GameRow};
use crate::db::{self, users};
use crate::engine::Level;
use crate::error::AppError;
use crate::live::{Cmd, GameSummary, Hub, LiveConfig, PlayerInfo, PlayerStanding, blocking, caps};
use crate::rules::{Options, Variant};
use actix_web::{HttpRequest, HttpResponse, web};
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::sync::Arc;

#[derive(Deserialize, Clone, Copy)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    pub variant: Variant,
    pub seconds_per_action: u32,
    pub rated: bool,
    /// Play the computer at this level: the game starts at once, and is casual.
    #[serde(default)]
    pub computer: Option<Level>,
}

impl NewGame {
    pub(crate) fn check(&self) -> Result<(), AppError> {
        if !self.variant.caps().two_player() {
            return Err(AppError::BadOption(format!(
                "{} tables are not open on the site yet: the variant is flip or standard",
                self.variant.name()
            )));
        }
        if self.rated && self.computer.is_some() {
            return Err(AppError::BadOption(
                "games against the computer are casual: send \"rated\": false".into(),
            ));
        }
        let s = self.seconds_per_action;
        if self.rated && !Options::SECONDS_OFFERED.contains(&s) {
            return Err(AppError::BadOption(
                "rated games take 15, 30 or 60 seconds per action".into(),
            ));
        }
        if !(1..=60).contains(&s) {
            return Err(AppError::BadOption(
                "seconds_per_action is a whole number from 1 to 60".into(),
            ));
        }
        Ok(())
    }

    fn row(&self, creator_id: i64, config: &LiveConfig) -> GameRow {
        crate::live::lobby::open_row(
            self.variant.name(),
            self.rated,
            self.seconds_per_action,
            creator_id,
            config,
        )
    }
}

/// Opens a game within the caller's caps. The caller holds `hub.seat_lock(user)`.
async fn open_game(hub: &Arc<Hub>, user: i64, spec: NewGame) -> Result<String, AppError> {
    let row = spec.row(user, hub.config());
    let id = row.id.clone();
    // Through the writer, committed with the games' steps (see db::writer).
    hub.pool()
        .write(move |c| -> Result<(), AppError> {
            let opening = caps::Start::Open {
                creator: user,
                rated: row.rated,
                computer: false,
            };
            caps::check(c, &opening)?;
            Ok(games::insert(c, &row)?)
        })
        .await?;
    hub.lobby_changed();
    Ok(id)
}

pub async fn create_game(
    hub: web::Data<Arc<Hub>>,
    caller: Caller,
    body: web::Json<NewGame>,
) -> Result<HttpResponse, AppError> {
    let user = caller.require()?;
    body.check()?;
    let _mine = hub.seat_lock(user).await;
    let id = match body.computer {
        Some(level) => {
            hub.play_computer(user, body.row(user, hub.config()), level)
                .await?
        }
        None => open_game(&hub, user, *body).await?,
    };
    Ok(HttpResponse::Created().json(json!({"id": id})))
}

/// Joins a compatible open game of someone else (found by its settings: creators who
/// are here first, newest first; never an abandoned one), or else hands back the
/// caller's own open game of those settings, or opens one.
pub async fn quick_pair(
    hub: web::Data<Arc<Hub>>,
    caller: Caller,
    body: web::Json<NewGame>,
) -> Result<HttpResponse, AppError> {
    let user = caller.require()?;
    body.check()?;
    if body.computer.is_some() {
        return Err(AppError::BadOption(
            "quick pairing finds a person; to play the computer, create a game with \
             \"computer\" (POST /api/games)"
                .into(),
        ));
    }
    let spec = *body;
    let (variant, spa, rated) = (
        spec.variant.name(),
        spec.seconds_per_action as i32,
        spec.rated,
    );
    let _mine = hub.seat_lock(user).await;
    // Held until the game is joined or opened, so that another request for these
    // settings waiting here finds the game this one opens.
    let _pairing = hub.pair_lock(variant, spa, rated).await;
    let candidates = hub.pair_candidates(user, variant, spa, rated).await?;
    for id in candidates {
        match hub.ask(&id, |reply| Cmd::Join { user, reply }).await {
            Ok(()) => return Ok(HttpResponse::Ok().json(json!({"id": id, "joined": true}))),
            // Someone else was quicker; try the next one.
            Err(AppError::Conflict(_)) => continue,
            // Past a cap (the caller's rated games in hand): the same for any game.
            Err(e) => return Err(e),
        }
    }
    // Asked twice (a double click, a retry): the game already waiting, not another.
    let id = match hub.own_waiting(user, variant, spa, rated).await? {
        Some(id) => id,
        None => open_game(&hub, user, spec).await?,
    };
    Ok(HttpResponse::Ok().json(json!({"id": id, "joined": false})))
}

pub(crate) fn check_id(id: &str) -> Result<(), AppError> {
    if id.len() == 8 && id.chars().all(|c| c.is_ascii_alphanumeric()) {
        Ok(())
    } else {
        Err(AppError::NotFound(format!(
            "no game {}",
            crate::quote::quoted(id)
        )))
    }
}

pub async fn join_game(
    hub: web::Data<Arc<Hub>>,
    caller: Caller,
    path: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    let user = caller.require()?;
    let id = path.into_inner();
    check_id(&id)?;
    let _mine = hub.seat_lock(user).await;
    hub.ask(&id, |reply| Cmd::Join { user, reply }).await?;
    Ok(HttpResponse::Ok().json(json!({"id": id})))
}

pub async fn cancel_game(
    hub: web::Data<Arc<Hub>>,
    caller: Caller,
    path: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    let user = caller.require()?;
    let id = path.into_inner();
    check_id(&id)?;
    hub.ask(&id, |reply| Cmd::Cancel { user, reply }).await?;
    Ok(HttpResponse::NoContent().finish())
}

pub async fn open_games(hub: web::Data<Arc<Hub>>) -> Result<HttpResponse, AppError> {
    let list = hub.open_list().await?;
    Ok(HttpResponse::Ok().json(list))
}

/// The running games the lobby offers to watch (`live::watch_list`).
pub async fn live_games(hub: web::Data<Arc<Hub>>) -> Result<HttpResponse, AppError> {
    let list = hub.live_list().await?;
    Ok(HttpResponse::Ok().json(list))
}

/// A stored game with its creator and seated players.
pub struct LoadedGame {
    pub row: GameRow,
    pub creator: PlayerInfo,
    pub seats: [Option<PlayerInfo>; 2],
}

pub fn load_game(c: &mut db::DbConn, id: &str) -> Result<LoadedGame, AppError> {
    let row = games::get(c, id)?.ok_or_else(|| AppError::NotFound(format!("no game {id:?}")))?;
    let creator = PlayerInfo::load(c, row.creator_id, &row.variant)?;
    let seats = PlayerInfo::seats(c, &row)?;
    Ok(LoadedGame {
        row,
        creator,
        seats,
    })
}

pub async fn get_game(
    hub: web::Data<Arc<Hub>>,
    path: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    check_id(&id)?;
    // A running game's task holds what its stored row lacks (see `db::steps`).
    if let Some(Ok(summary)) = hub.ask_if_live(&id, |reply| Cmd::Summary { reply }).await
        && summary.status == games::RUNNING
    {
        return Ok(HttpResponse::Ok().json(summary));
    }
    let lookup = id.clone();
    let g = blocking(hub.pool(), move |c| load_game(c, &lookup)).await?;
    // A running game without a task (it is being started again): start it.
    let summary = if g.row.status == games::RUNNING {
        hub.ask(&id, |reply| Cmd::Summary { reply }).await?
    } else {
        GameSummary::of(&g.row, &g.creator, &g.seats)
    };
    Ok(HttpResponse::Ok().json(summary))
}

/// The game's record. The deal and salt are part of it only once the game has ended;
/// a finished game's is built once and kept (finished_cache.rs).
pub async fn game_record(
    req: HttpRequest,
    hub: web::Data<Arc<Hub>>,
    cache: web::Data<FinishedCache>,
    path: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    check_id(&id)?;
    cache.record(&req, &hub, id).await
}

/// A finished game's replay, computed here so that the page needs no rules, and kept.
pub async fn game_replay(
    req: HttpRequest,
    hub: web::Data<Arc<Hub>>,
    cache: web::Data<FinishedCache>,
    path: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    check_id(&id)?;
    cache.replay(&req, &hub, id).await
}

/// A stored variant name.
pub(crate) fn variant_of(name: &str) -> Result<Variant, AppError> {
    Variant::from_name(name).ok_or_else(|| AppError::internal(format!("stored variant {name:?}")))
}

/// Legal actions of a position as a client sees it, on the board its `variant` names:
/// a 四国 position goes to `analysis_siguo`, the rest are two-player positions
/// (analysis_position.rs).
pub async fn analysis_moves(body: web::Json<serde_json::Value>) -> Result<HttpResponse, AppError> {
    let body = body.into_inner();
    if body.get("variant").and_then(|v| v.as_str()) == Some("siguo") {
        let req = serde_json::from_value(body).map_err(malformed)?;
        return Ok(HttpResponse::Ok().json(super::analysis_siguo::answer(req)?));
    }
    let seen = super::analysis_position::read(&serde_json::from_value(body).map_err(malformed)?)?;
    let mut legal = Vec::new();
    seen.game.legal_actions(&mut legal);
    Ok(HttpResponse::Ok().json(json!({"legal": legal})))
}

/// A body that is JSON but not the request's shape.
pub(crate) fn malformed(e: serde_json::Error) -> AppError {
    AppError::BadRequest(format!("malformed JSON: {e}"))
}

#[derive(Deserialize)]
pub struct VariantQuery {
    #[serde(default)]
    variant: Option<String>,
    #[serde(default)]
    page: Option<u32>,
}

fn variant_param(q: &VariantQuery) -> Result<String, AppError> {
    match q.variant.as_deref().unwrap_or("flip") {
        v if crate::rules::Variant::NAMES.contains(&v) => Ok(v.to_string()),
        other => Err(AppError::BadRequest(format!(
            "unknown variant {}",
            crate::quote::quoted(other)
        ))),
    }
}

pub async fn player(
    hub: web::Data<Arc<Hub>>,
    path: web::Path<String>,
    q: web::Query<VariantQuery>,
) -> Result<HttpResponse, AppError> {
    let name = path.into_inner();
    let variant = variant_param(&q)?;
    let p = blocking(hub.pool(), move |c| {
        let user = users::by_name(c, &name)?.ok_or_else(|| {
            AppError::NotFound(format!("no player {}", crate::quote::quoted(&name)))
        })?;
        let stats = users::stats(c, user.id, &variant)?;
        Ok(PlayerStanding::of(&user, &stats))
    })
    .await?;
    Ok(HttpResponse::Ok().json(p))
}

pub const LADDER_PAGE: u32 = 50;

pub async fn ladder(
    hub: web::Data<Arc<Hub>>,
    q: web::Query<VariantQuery>,
) -> Result<HttpResponse, AppError> {
    let variant = variant_param(&q)?;
    let page = q.page.unwrap_or(1).max(1);
    let offset = (page - 1) as i64 * LADDER_PAGE as i64;
    let v = variant.clone();
    let rows = blocking(hub.pool(), move |c| {
        Ok(users::ladder(c, &v, offset, LADDER_PAGE as i64)?)
    })
    .await?;
    let players = rows
        .iter()
        .enumerate()
        .map(|(i, (u, s))| LadderRow {
            standing: PlayerStanding::of(u, s),
            position: offset + i as i64 + 1,
        })
        .collect();
    Ok(HttpResponse::Ok().json(Ladder {
        variant,
        page,
        players,
    }))
}

/// One page of a variant's ladder.
#[derive(Serialize)]
pub struct Ladder {
    pub variant: String,
    pub page: u32,
    pub players: Vec<LadderRow>,
}

/// A player's standing and place on the ladder (1 = first).
#[derive(Serialize)]
pub struct LadderRow {
    #[serde(flatten)]
    pub standing: PlayerStanding,
    pub position: i64,
}

pub async fn healthz(hub: web::Data<Arc<Hub>>) -> HttpResponse {
    let ok = blocking(hub.pool(), |c| {
        use diesel::connection::SimpleConnection;
        c.batch_execute("SELECT 1").map_err(AppError::internal)
    })
    .await;
    match ok {
        Ok(()) => HttpResponse::Ok().json(json!({"ok": true})),
        Err(_) => HttpResponse::ServiceUnavailable().json(json!({"ok": false})),
    }
}
