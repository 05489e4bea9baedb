//! The WebSocket endpoints: one game's socket and the lobby's.

use super::auth::user_id;
use crate::error::AppError;
use crate::live::messages::{ErrorBody, ServerMsg};
use crate::live::presence::Place;
use crate::live::protocol::{self, BUDGET_WINDOW_SECS, MAX_FRAME, MESSAGE_BUDGET};
use crate::live::{Cmd, Hub};
use actix_session::Session;
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};
use actix_ws::{AggregatedMessage, CloseCode, CloseReason, ProtocolError};
use serde::Deserialize;
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, oneshot};

/// Browsers always send `Origin` on a WebSocket upgrade; refusing a foreign one stops
/// another site from opening a socket with our player's cookie.
fn check_origin(req: &HttpRequest) -> Result<(), AppError> {
    let Some(origin) = req.headers().get(header::ORIGIN) else {
        return Ok(());
    };
    let origin = origin.to_str().map_err(|_| AppError::BadOrigin)?;
    let authority = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
        .ok_or(AppError::BadOrigin)?;
    let host = req.connection_info().host().to_string();
    if authority.eq_ignore_ascii_case(&host) {
        Ok(())
    } else {
        Err(AppError::BadOrigin)
    }
}

fn error_text(code: &'static str, message: &str, ack: Option<u64>) -> String {
    ServerMsg::error(ErrorBody::new(code, message), ack).text()
}

/// lila-ws's rule: at most `MESSAGE_BUDGET` messages in any `BUDGET_WINDOW_SECS`.
struct Budget(VecDeque<Instant>);

impl Budget {
    fn allow(&mut self) -> bool {
        let now = Instant::now();
        let window = Duration::from_secs(BUDGET_WINDOW_SECS);
        while self
            .0
            .front()
            .is_some_and(|t| now.duration_since(*t) >= window)
        {
            self.0.pop_front();
        }
        if self.0.len() >= MESSAGE_BUDGET {
            return false;
        }
        self.0.push_back(now);
        true
    }
}

#[derive(Deserialize)]
pub struct Since {
    v: Option<u64>,
}

pub async fn game_socket(
    req: HttpRequest,
    body: web::Payload,
    path: web::Path<String>,
    since: web::Query<Since>,
    session: Session,
    hub: web::Data<Arc<Hub>>,
) -> Result<HttpResponse, actix_web::Error> {
    check_origin(&req)?;
    let id = path.into_inner();
    let hub: Arc<Hub> = hub.get_ref().clone();
    let game = hub.handle(&id).await?;
    let user = user_id(&session);
    let (response, mut ws, stream) = actix_ws::handle(&req, body)?;
    let mut stream = stream
        .max_frame_size(MAX_FRAME)
        .aggregate_continuations()
        .max_continuation_size(MAX_FRAME);
    let (out, mut outbox) = mpsc::unbounded_channel::<String>();
    let (reply, conn) = oneshot::channel();
    game.send(Cmd::Connect {
        user,
        since: since.v,
        out,
        reply,
    })
    .map_err(|_| AppError::internal("the game task stopped"))?;
    let conn = conn
        .await
        .map_err(|_| AppError::internal("the game task stopped"))?;

    actix_web::rt::spawn(async move {
        let mut budget = Budget(VecDeque::new());
        let close = loop {
            tokio::select! {
                incoming = stream.recv() => match incoming {
                    Some(Ok(AggregatedMessage::Text(text))) => {
                        if !budget.allow() {
                            let _ = ws.text(error_text("rate_limited", "too many messages: at most 100 in 20 seconds", None)).await;
                            break Some(CloseReason { code: CloseCode::Policy, description: Some("rate limited".into()) });
                        }
                        match protocol::parse(&text) {
                            Ok(msg) if msg.kind == protocol::ClientKind::Ping => {
                                if ws.text(ServerMsg::Pong.text()).await.is_err() { break None; }
                            }
                            Ok(msg) => {
                                if game.send(Cmd::Message { conn, msg }).is_err() {
                                    break Some(CloseReason { code: CloseCode::Restart, description: None });
                                }
                            }
                            Err(why) => {
                                let ack = serde_json::from_str::<serde_json::Value>(&text).ok().and_then(|v| v.get("a").and_then(|a| a.as_u64()));
                                if ws.text(error_text("bad_message", &why, ack)).await.is_err() { break None; }
                            }
                        }
                    }
                    Some(Ok(AggregatedMessage::Binary(_))) => {
                        if ws.text(error_text("bad_message", "send JSON text frames", None)).await.is_err() { break None; }
                    }
                    Some(Ok(AggregatedMessage::Ping(b))) => {
                        if ws.pong(&b).await.is_err() { break None; }
                    }
                    Some(Ok(AggregatedMessage::Pong(_))) => {}
                    Some(Ok(AggregatedMessage::Close(_))) | None => break None,
                    Some(Err(ProtocolError::Overflow)) => {
                        let _ = ws.text(error_text("too_large", "a message may hold at most 16 KiB", None)).await;
                        break Some(CloseReason { code: CloseCode::Size, description: Some("message too large".into()) });
                    }
                    Some(Err(_)) => break Some(CloseReason { code: CloseCode::Protocol, description: None }),
                },
                text = outbox.recv() => match text {
                    Some(text) => if ws.text(text).await.is_err() { break None; },
                    None => break Some(CloseReason { code: CloseCode::Restart, description: None }),
                },
            }
        };
        let _ = game.send(Cmd::Disconnect { conn });
        let _ = ws.close(close).await;
    });
    Ok(response)
}

pub async fn lobby_socket(
    req: HttpRequest,
    body: web::Payload,
    session: Session,
    hub: web::Data<Arc<Hub>>,
) -> Result<HttpResponse, actix_web::Error> {
    check_origin(&req)?;
    // A logged-in player's lobby socket keeps their open games from expiring.
    let here = user_id(&session).map(|u| hub.presence().enter(u, Place::Lobby));
    let (response, mut ws, stream) = actix_ws::handle(&req, body)?;
    let mut stream = stream
        .max_frame_size(MAX_FRAME)
        .aggregate_continuations()
        .max_continuation_size(MAX_FRAME);
    let mut lobby = hub.lobby();
    actix_web::rt::spawn(async move {
        let _here = here;
        let first = lobby.borrow_and_update().to_string();
        if ws.text(first).await.is_err() {
            return;
        }
        let mut budget = Budget(VecDeque::new());
        loop {
            tokio::select! {
                changed = lobby.changed() => {
                    if changed.is_err() { break; }
                    let text = lobby.borrow_and_update().to_string();
                    if ws.text(text).await.is_err() { break; }
                }
                incoming = stream.recv() => match incoming {
                    Some(Ok(AggregatedMessage::Text(_))) => {
                        if !budget.allow() || ws.text(ServerMsg::Pong.text()).await.is_err() { break; }
                    }
                    Some(Ok(AggregatedMessage::Ping(b))) => {
                        if ws.pong(&b).await.is_err() { break; }
                    }
                    Some(Ok(AggregatedMessage::Binary(_) | AggregatedMessage::Pong(_))) => {}
                    _ => break,
                },
            }
        }
        let _ = ws.close(None).await;
    });
    Ok(response)
}
