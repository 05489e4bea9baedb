//! The WebSocket endpoints: one game's socket and the lobby's.

use super::bearer::{Caller, by_token};
use super::frame_budget::FrameBudgets;
use super::origin::from_this_site;
use super::socket_caps::{Role, SocketCaps};
use super::throttle::Guard;
use super::ws_io::{Read, Reader, Stop, Writer, close_reason, fell_behind};
use crate::error::AppError;
use crate::live::messages::{ErrorBody, ServerMsg};
use crate::live::presence::Place;
use crate::live::protocol;
use crate::live::{Cmd, Hub, outbox};
use actix_web::{HttpRequest, HttpResponse, web};
use actix_ws::{CloseCode, CloseReason};
use bytestring::ByteString;
use serde::Deserialize;
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot};

/// Browsers always send `Origin` on a WebSocket upgrade; refusing a foreign one stops
/// another site from opening a socket with our player's cookie. An upgrade
/// authenticated by an API token carries no cookie and passes.
fn check_origin(req: &HttpRequest) -> Result<(), AppError> {
    if by_token(req) || from_this_site(req) {
        Ok(())
    } else {
        Err(AppError::BadOrigin)
    }
}

fn error_text(code: &'static str, message: &str, ack: Option<u64>) -> ByteString {
    ServerMsg::error(ErrorBody::new(code, message), ack).frame()
}

/// How a socket ends: an error to send first, if any, and the close frame's reason.
type Ending = (Option<ByteString>, Option<CloseReason>);

fn stopped(why: Stop) -> Ending {
    match why {
        Stop::Gone => (None, None),
        Stop::Slow => (None, Some(fell_behind())),
    }
}

/// The client's address as the login limits see it: behind a trusted proxy, the one
/// it forwarded (see `throttle::Guard::client_ip`).
fn client_address(req: &HttpRequest) -> Option<std::net::IpAddr> {
    match req.app_data::<web::Data<Guard>>() {
        Some(guard) => Some(guard.client_ip(req)),
        None => req.peer_addr().map(|a| a.ip()),
    }
}

#[derive(Deserialize)]
pub struct Since {
    v: Option<u64>,
}

/// Whether `user` is a player of game `id`, asked of its task (which knows its seats,
/// so no database read). `game` is the task's handle, renewed when the task stopped
/// meanwhile (an open or finished game whose last socket had just gone).
async fn is_player(
    hub: &Arc<Hub>,
    id: &str,
    game: &mut mpsc::UnboundedSender<Cmd>,
    user: i64,
) -> Result<bool, AppError> {
    for _ in 0..2 {
        let (reply, answer) = oneshot::channel();
        if game.send(Cmd::IsPlayer { user, reply }).is_ok()
            && let Ok(player) = answer.await
        {
            return player;
        }
        *game = hub.handle(id).await?;
    }
    Err(AppError::internal("the game task stopped"))
}

// Each argument is an actix extractor the handler needs; bundling them in a struct
// would only hide which shared state a socket's admission touches.
#[allow(clippy::too_many_arguments)]
pub async fn game_socket(
    req: HttpRequest,
    body: web::Payload,
    path: web::Path<String>,
    since: web::Query<Since>,
    caller: Caller,
    hub: web::Data<Arc<Hub>>,
    caps: web::Data<SocketCaps>,
    budgets: web::Data<FrameBudgets>,
) -> Result<HttpResponse, actix_web::Error> {
    check_origin(&req)?;
    let id = path.into_inner();
    let hub: Arc<Hub> = hub.get_ref().clone();
    let mut game = hub.handle(&id).await?;
    let user = caller.id();
    // Anonymous sockets are spectators without asking.
    let role = match user {
        Some(u) if is_player(&hub, &id, &mut game, u).await? => Role::Player,
        _ => Role::Spectator,
    };
    let address = client_address(&req);
    if let (Some(u), Some(ip)) = (user, address) {
        // The computer's thinking is shared by address too (live::computer::turns).
        hub.thinkers().note_address(u, ip);
    }
    let permit = caps.into_inner().admit(address, user, Some((&id, role)))?;
    let shared = budgets
        .into_inner()
        .open(address, user, role == Role::Player)?;
    let (response, ws, stream) = actix_ws::handle(&req, body)?;
    let (out, mut inbox, behind) = outbox();
    let (reply, conn) = oneshot::channel();
    let mut connect = Cmd::Connect {
        user,
        since: since.v,
        out,
        reply,
        seated: shared.seated(),
    };
    // The task may have stopped since it was asked (see `is_player`): the command comes
    // back, for a new one.
    if let Err(mpsc::error::SendError(back)) = game.send(connect) {
        connect = back;
        game = hub.handle(&id).await?;
        game.send(connect)
            .map_err(|_| AppError::internal("the game task stopped"))?;
    }
    let conn = conn
        .await
        .map_err(|_| AppError::internal("the game task stopped"))?;
    // Counted as here (the lobby's 在线 count, friends' online marks) while it lives.
    let here = Here::of(&hub, user, Some(&id));

    actix_web::rt::spawn(async move {
        let _permit = permit;
        let _here = here;
        let mut reader = Reader::new(stream, shared);
        let mut writer = Writer::new(ws);
        let (error, close): Ending = loop {
            tokio::select! {
                biased;
                () = behind.wait() => break (None, Some(fell_behind())),
                read = reader.next() => match read {
                    Read::Text(text) => match protocol::parse(&text) {
                        Ok(msg) if msg.kind == protocol::ClientKind::Ping => {
                            if let Err(why) = writer.text(ServerMsg::Pong.frame()).await { break stopped(why); }
                        }
                        Ok(msg) => {
                            if game.send(Cmd::Message { conn, msg }).is_err() {
                                break (None, Some(close_reason(CloseCode::Restart, "the game restarted: reconnect")));
                            }
                        }
                        Err(why) => {
                            let ack = serde_json::from_str::<serde_json::Value>(&text).ok().and_then(|v| v.get("a").and_then(|a| a.as_u64()));
                            if let Err(why) = writer.text(error_text("bad_message", &why, ack)).await { break stopped(why); }
                        }
                    },
                    Read::Ping(b) => if let Err(why) = writer.pong(&b).await { break stopped(why); },
                    Read::Gone => break (None, None),
                    Read::Refuse(error, reason) => break (error, Some(reason)),
                },
                frame = inbox.recv() => match frame {
                    Some(frame) => {
                        // A write that waits may be overtaken by the game task giving up on us.
                        let sent = tokio::select! {
                            biased;
                            () = behind.wait() => Err(Stop::Slow),
                            sent = writer.text(frame) => sent,
                        };
                        if let Err(why) = sent { break stopped(why); }
                    }
                    None => break (None, Some(close_reason(CloseCode::Restart, "the game restarted: reconnect"))),
                },
            }
        };
        let _ = game.send(Cmd::Disconnect { conn });
        writer.close(error, close).await;
    });
    Ok(response)
}

/// The next list of a player's challenges; never, for a visitor (or once the channel
/// closed).
async fn next_notice(
    notices: &mut Option<tokio::sync::watch::Receiver<ByteString>>,
) -> Option<ByteString> {
    if let Some(rx) = notices
        && rx.changed().await.is_ok()
    {
        return Some(rx.borrow_and_update().clone());
    }
    std::future::pending().await
}

/// A socket's presence, left when dropped: a player's in its place, or a visitor's.
struct Here {
    _player: Option<crate::live::presence::Here>,
    _visitor: Option<crate::live::presence::Visitor>,
}

impl Here {
    fn of(hub: &Hub, user: Option<i64>, game: Option<&str>) -> Here {
        let place = game.map_or(Place::Lobby, |g| Place::Game(g.to_string()));
        Here {
            _player: user.map(|u| hub.presence().enter(u, place)),
            _visitor: user.is_none().then(|| hub.presence().enter_visitor()),
        }
    }
}

pub async fn lobby_socket(
    req: HttpRequest,
    body: web::Payload,
    caller: Caller,
    hub: web::Data<Arc<Hub>>,
    caps: web::Data<SocketCaps>,
    budgets: web::Data<FrameBudgets>,
) -> Result<HttpResponse, actix_web::Error> {
    check_origin(&req)?;
    let address = client_address(&req);
    let permit = caps.into_inner().admit(address, caller.id(), None)?;
    let shared = budgets.into_inner().open(address, caller.id(), false)?;
    // A logged-in player's lobby socket keeps their open games from expiring.
    let here = Here::of(&hub, caller.id(), None);
    let (response, ws, stream) = actix_ws::handle(&req, body)?;
    let mut lobby = hub.lobby();
    // A player's challenges come on their own channel beside the shared list; a
    // visitor's never changes.
    let user = caller.id();
    let mut notices = user.map(|u| hub.challenge_notices(u));
    let hub: Arc<Hub> = hub.get_ref().clone();
    actix_web::rt::spawn(async move {
        let _permit = permit;
        let _here = here;
        let mut reader = Reader::new(stream, shared);
        let mut writer = Writer::new(ws);
        let first = lobby.borrow_and_update().clone();
        // The watch keeps only the newest list, so a slow reader skips lists rather
        // than queueing them.
        let mut sent = writer.text(first).await;
        if let (Ok(()), Some(u)) = (&sent, user) {
            match crate::live::challenges::lists(hub.pool(), u).await {
                Ok(msg) => sent = writer.text(msg.frame()).await,
                Err(e) => tracing::error!(error = %e, "cannot list a player's challenges"),
            }
        }
        drop(hub);
        let (error, close): Ending = match sent {
            Err(why) => stopped(why),
            Ok(()) => loop {
                tokio::select! {
                    changed = lobby.changed() => {
                        if changed.is_err() { break (None, None); }
                        let frame = lobby.borrow_and_update().clone();
                        if let Err(why) = writer.text(frame).await { break stopped(why); }
                    }
                    Some(frame) = next_notice(&mut notices) => {
                        if let Err(why) = writer.text(frame).await { break stopped(why); }
                    }
                    read = reader.next() => match read {
                        // Clients send nothing but pings.
                        Read::Text(_) => if let Err(why) = writer.text(ServerMsg::Pong.frame()).await { break stopped(why); },
                        Read::Ping(b) => if let Err(why) = writer.pong(&b).await { break stopped(why); },
                        Read::Gone => break (None, None),
                        Read::Refuse(error, reason) => break (error, Some(reason)),
                    },
                }
            },
        };
        writer.close(error, close).await;
    });
    Ok(response)
}
