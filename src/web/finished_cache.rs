//! A finished game's record and replay, built once and kept, compressed.
//!
//! A finished game does not change, yet each `/api/games/{id}/replay` rebuilt the whole
//! game with the rules and compressed the answer, and each `/record` verified it again:
//! 164 replay requests a second, from anyone, put the server at 105 % of a core and the
//! person-to-person move acks went from 3 to 147 ms (median). Now:
//!
//! - A finished game's answer is built once, off the async threads (where the games'
//!   tasks run), on a few build slots of its own (half the cores, like password
//!   hashing), and compressed there once, with brotli and gzip. Requests for the same
//!   game while it is built wait for that build rather than building it again.
//! - It is kept in memory within a byte budget (moka, weighed by the compressed bytes);
//!   a request takes the copy its `Accept-Encoding` allows (`Content-Encoding`, `Vary:
//!   Accept-Encoding`; actix-web's `Compress` leaves an answer with a Content-Encoding
//!   alone), or the JSON itself, inflated from the gzip copy, for a client that takes
//!   neither.
//! - Every kept answer carries a weak ETag of its JSON; `If-None-Match` with it gets a
//!   304 and no body. `X-Cache: hit` says the answer was kept from before, `miss` that
//!   this request built it.
//! - A record never changes once the game has ended. A replay also names the players
//!   with their current scores and ranks, which move as they play on: a kept replay is
//!   built again after [`REPLAY_FRESH_FOR`], and its ETag changes only if its JSON did.
//! - A game that has not ended is never kept: its record is built for each request, as
//!   before (it changes with every action, and shows no deal or salt), and its replay
//!   is refused (409).
//! - Builds waiting for a slot are capped; past it a request is told to come back in a
//!   second (429, Retry-After: 1) rather than queue work without end.

use super::finished::{self, Built};
use crate::db::games::RUNNING;
use crate::error::AppError;
use crate::live::{Cmd, Hub, blocking};
use actix_web::http::header::{
    self, AcceptEncoding, ContentEncoding, Encoding, EntityTag, Header as _, IfNoneMatch,
};
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse};
use sha2::{Digest, Sha256};
use std::io::{Read, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;
use tokio::sync::Semaphore;

/// Bytes of compressed answers kept, for records and for replays each. A 300-step
/// replay is about 12 KB as brotli and 16 KB as gzip, so each holds about a thousand
/// long games.
const MAX_BYTES: u64 = 32 << 20;

/// How long a replay is kept before it is built again, for its players' standings.
pub const REPLAY_FRESH_FOR: Duration = Duration::from_secs(60);

/// Builds waiting for a slot, per slot, before requests are turned away: a long game's
/// replay takes a few milliseconds to build and compress.
const WAITING_PER_SLOT: usize = 64;

/// brotli's quality for the kept copies: 9 compresses a long replay in a few
/// milliseconds, within a few per cent of 11's size at a tenth of its time.
const BROTLI_QUALITY: u32 = 9;
const BROTLI_WINDOW: u32 = 22;

/// One kept answer.
pub struct Answer {
    /// `W/"<16 hex digits of the SHA-256 of the JSON>"`.
    etag: String,
    br: Bytes,
    gzip: Bytes,
}

impl Answer {
    fn of(json: &[u8]) -> Result<Answer, AppError> {
        let digest = Sha256::digest(json);
        let etag = format!("W/\"{}\"", hex::encode(&digest[..8]));
        let mut br = Vec::with_capacity(json.len() / 4);
        {
            let mut w = brotli::CompressorWriter::new(&mut br, 4096, BROTLI_QUALITY, BROTLI_WINDOW);
            w.write_all(json).map_err(AppError::internal)?;
        }
        let mut gz = flate2::write::GzEncoder::new(
            Vec::with_capacity(json.len() / 3),
            flate2::Compression::best(),
        );
        gz.write_all(json).map_err(AppError::internal)?;
        let gzip = gz.finish().map_err(AppError::internal)?;
        Ok(Answer {
            etag,
            br: Bytes::from(br),
            gzip: Bytes::from(gzip),
        })
    }

    fn weight(&self) -> u32 {
        let bytes = self.br.len() + self.gzip.len() + self.etag.len() + 64;
        u32::try_from(bytes).unwrap_or(u32::MAX)
    }

    /// The JSON itself, for a client that takes neither compressed copy.
    fn json(&self) -> Result<Vec<u8>, AppError> {
        let mut out = Vec::with_capacity(self.gzip.len() * 6);
        flate2::read::GzDecoder::new(&self.gzip[..])
            .read_to_end(&mut out)
            .map_err(AppError::internal)?;
        Ok(out)
    }
}

/// Why a build's answer is not kept.
#[derive(Debug)]
enum Unkept {
    /// Refused (no such game, not started, not ended): the error goes out.
    Refused(AppError),
    /// A record of a game that has not ended: sent to this request (and to those that
    /// waited for the same build), not kept.
    Live(Vec<u8>),
}

impl From<AppError> for Unkept {
    fn from(e: AppError) -> Unkept {
        Unkept::Refused(e)
    }
}

type Kept = moka::future::Cache<String, Arc<Answer>>;

fn kept(fresh_for: Option<Duration>) -> Kept {
    let b = moka::future::Cache::builder()
        .max_capacity(MAX_BYTES)
        .weigher(|_: &String, a: &Arc<Answer>| a.weight());
    match fresh_for {
        Some(d) => b.time_to_live(d).build(),
        None => b.build(),
    }
}

pub struct FinishedCache {
    records: Kept,
    replays: Kept,
    slots: Semaphore,
    waiting: AtomicUsize,
    max_waiting: usize,
}

impl Default for FinishedCache {
    fn default() -> FinishedCache {
        let slots = super::throttle::hashing_slots();
        FinishedCache {
            records: kept(None),
            replays: kept(Some(REPLAY_FRESH_FOR)),
            slots: Semaphore::new(slots),
            waiting: AtomicUsize::new(0),
            max_waiting: slots * WAITING_PER_SLOT,
        }
    }
}

/// Gives a waiting place back when the wait ends, however it ends.
struct Waiting<'a>(&'a AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

#[derive(Clone, Copy)]
enum Kind {
    Record,
    Replay,
}

impl FinishedCache {
    /// `GET /api/games/{id}/record`.
    pub async fn record(
        &self,
        req: &HttpRequest,
        hub: &Hub,
        id: String,
    ) -> Result<HttpResponse, AppError> {
        self.serve(req, hub, id, Kind::Record).await
    }

    /// `GET /api/games/{id}/replay`.
    pub async fn replay(
        &self,
        req: &HttpRequest,
        hub: &Hub,
        id: String,
    ) -> Result<HttpResponse, AppError> {
        self.serve(req, hub, id, Kind::Replay).await
    }

    async fn serve(
        &self,
        req: &HttpRequest,
        hub: &Hub,
        id: String,
        kind: Kind,
    ) -> Result<HttpResponse, AppError> {
        let cache = match kind {
            Kind::Record => &self.records,
            Kind::Replay => &self.replays,
        };
        let built_here = AtomicBool::new(false);
        let answer = cache
            .try_get_with(id.clone(), async {
                built_here.store(true, Ordering::Relaxed);
                let built = self.build(hub, id, kind).await?;
                if !built.finished {
                    return Err(Unkept::Live(built.json));
                }
                let answer = actix_web::web::block(move || Answer::of(&built.json))
                    .await
                    .map_err(AppError::from)??;
                Ok(Arc::new(answer))
            })
            .await;
        match answer {
            Ok(a) => respond(req, &a, kind, built_here.load(Ordering::Relaxed)),
            Err(unkept) => match &*unkept {
                Unkept::Refused(e) => Err(e.clone()),
                Unkept::Live(json) => Ok(HttpResponse::Ok()
                    .content_type("application/json")
                    .insert_header((header::CACHE_CONTROL, "no-cache"))
                    .body(json.clone())),
            },
        }
    }

    /// Builds the answer on a build slot: the database read, then the rules' work.
    async fn build(&self, hub: &Hub, id: String, kind: Kind) -> Result<Built, AppError> {
        let _waiting = {
            let before = self.waiting.fetch_add(1, Ordering::AcqRel);
            let w = Waiting(&self.waiting);
            if before >= self.max_waiting {
                return Err(AppError::RateLimited(1));
            }
            w
        };
        let _slot = self.slots.acquire().await.map_err(AppError::internal)?;
        match kind {
            Kind::Record => {
                let (row, mut actions) =
                    blocking(hub.pool(), move |c| finished::load_record(c, &id)).await?;
                // A running game's newer actions are in its task (see `db::step_log`).
                if row.status == RUNNING
                    && let Some(live) = hub
                        .ask_if_live(&row.id, |reply| Cmd::Actions { reply })
                        .await
                {
                    actions = live?;
                }
                actix_web::web::block(move || finished::record(&row, &actions)).await?
            }
            Kind::Replay => {
                let (g, actions) =
                    blocking(hub.pool(), move |c| finished::load_replay(c, &id)).await?;
                actix_web::web::block(move || finished::replay(&g, &actions)).await?
            }
        }
    }
}

/// The kept answer, as the request asks for it.
fn respond(
    req: &HttpRequest,
    answer: &Answer,
    kind: Kind,
    built_here: bool,
) -> Result<HttpResponse, AppError> {
    let unchanged = not_modified(req, &answer.etag);
    let mut resp = if unchanged {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    let cache_control = match kind {
        // A finished game's record is the same for good.
        Kind::Record => "public, max-age=86400",
        // The players' standings in it move: ask again, with the ETag.
        Kind::Replay => "no-cache",
    };
    resp.insert_header((header::CACHE_CONTROL, cache_control))
        .insert_header((header::ETAG, answer.etag.as_str()))
        .insert_header((header::VARY, "Accept-Encoding"))
        .insert_header(("x-cache", if built_here { "miss" } else { "hit" }));
    if unchanged {
        return Ok(resp.finish());
    }
    resp.content_type("application/json");
    Ok(match choose(req) {
        Some(ContentEncoding::Brotli) => resp
            .insert_header((header::CONTENT_ENCODING, "br"))
            .body(answer.br.clone()),
        Some(_) => resp
            .insert_header((header::CONTENT_ENCODING, "gzip"))
            .body(answer.gzip.clone()),
        None => resp.body(answer.json()?),
    })
}

/// The copy to send, by the request's Accept-Encoding (quality values honoured;
/// between equals brotli, then gzip): `None` for the JSON itself.
fn choose(req: &HttpRequest) -> Option<ContentEncoding> {
    let br = Encoding::brotli();
    let gzip = Encoding::gzip();
    let identity = Encoding::identity();
    let chosen = AcceptEncoding::parse(req)
        .ok()?
        .negotiate([&identity, &br, &gzip].into_iter())?;
    match chosen {
        Encoding::Known(ContentEncoding::Brotli) => Some(ContentEncoding::Brotli),
        Encoding::Known(ContentEncoding::Gzip) => Some(ContentEncoding::Gzip),
        _ => None,
    }
}

/// The request's `If-None-Match` names this ETag (weak comparison, as the header asks)
/// or is `*`.
fn not_modified(req: &HttpRequest, etag: &str) -> bool {
    match IfNoneMatch::parse(req) {
        Ok(IfNoneMatch::Any) => true,
        Ok(IfNoneMatch::Items(tags)) => {
            let Ok(ours) = etag.parse::<EntityTag>() else {
                return false;
            };
            tags.iter().any(|tag| tag.weak_eq(&ours))
        }
        Err(_) => false,
    }
}
