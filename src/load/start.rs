//! Starting a game for a pair of players over HTTP (create, join; cancel a game that
//! could not be joined) and opening a seat's socket, with the kind of each failure.

use super::accounts::{Pair, Player};
use super::protocol::Created;
use super::shared::Ctx;
use awc::error::{WsClientError, WsProtocolError};
use awc::http::header::COOKIE;
use awc::ws;
use futures_util::{Sink, Stream};

/// The client half of a WebSocket, without naming actix-codec's `Framed`.
pub trait WsConn:
    Sink<ws::Message, Error = WsProtocolError>
    + Stream<Item = Result<ws::Frame, WsProtocolError>>
    + Unpin
{
}

impl<T> WsConn for T where
    T: Sink<ws::Message, Error = WsProtocolError>
        + Stream<Item = Result<ws::Frame, WsProtocolError>>
        + Unpin
{
}

pub type Sock = Box<dyn WsConn>;

/// Creates a casual flip game as `a`, joins it as `b`, and opens both seats' sockets
/// (`a`'s first); returns the game's id and the sockets, or the kind of failure.
pub async fn start(
    ctx: &Ctx,
    pair: &Pair,
    client: &awc::Client,
) -> Result<(String, Sock, Sock), String> {
    let body = serde_json::json!({
        "variant": "flip",
        "seconds_per_action": ctx.seconds_per_action,
        "rated": false,
    });
    let mut created = client
        .post(ctx.url("/api/games"))
        .insert_header((COOKIE, pair.a.cookie.as_str()))
        .send_json(&body)
        .await
        .map_err(|_| "create_failed".to_string())?;
    if created.status().as_u16() != 201 {
        return Err(format!("create_{}", created.status().as_u16()));
    }
    let id = created
        .json::<Created>()
        .await
        .map_err(|_| "create_unreadable".to_string())?
        .id;
    let joined = client
        .post(ctx.url(&format!("/api/games/{id}/join")))
        .insert_header((COOKIE, pair.b.cookie.as_str()))
        .send()
        .await;
    let Ok(mut joined) = joined else {
        cancel(ctx, client, &pair.a, &id).await;
        return Err("join_failed".to_string());
    };
    let _ = joined.body().await;
    if joined.status().as_u16() != 200 {
        cancel(ctx, client, &pair.a, &id).await;
        return Err(format!("join_{}", joined.status().as_u16()));
    }
    let (a, b) = futures_util::join!(
        connect(ctx, client, &id, &pair.a, None),
        connect(ctx, client, &id, &pair.b, None)
    );
    Ok((id, a?, b?))
}

/// Cancels a game that could not be joined (it would stay open until the server
/// cancels it as abandoned). If the join went through after all, this is refused.
async fn cancel(ctx: &Ctx, client: &awc::Client, creator: &Player, id: &str) {
    if let Ok(mut r) = client
        .post(ctx.url(&format!("/api/games/{id}/cancel")))
        .insert_header((COOKIE, creator.cookie.as_str()))
        .send()
        .await
    {
        let _ = r.body().await;
    }
}

pub async fn connect(
    ctx: &Ctx,
    client: &awc::Client,
    id: &str,
    player: &Player,
    since: Option<u64>,
) -> Result<Sock, String> {
    let path = match since {
        Some(v) => format!("/ws/game/{id}?v={v}"),
        None => format!("/ws/game/{id}"),
    };
    let (_, framed) = client
        .ws(ctx.url(&path))
        .header(COOKIE, player.cookie.as_str())
        .max_frame_size(1 << 20)
        .connect()
        .await
        .map_err(|e| match e {
            WsClientError::InvalidResponseStatus(s) => format!("connect_{}", s.as_u16()),
            _ => "connect_failed".to_string(),
        })?;
    Ok(Box::new(framed))
}
