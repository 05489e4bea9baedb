//! What both sockets share: reading frames within the budget, and writing without ever
//! waiting long on a client that does not read.

use super::frame_budget::Charge;
use crate::live::messages::{ErrorBody, ServerMsg};
use crate::live::protocol::{BUDGET_WINDOW_SECS, MAX_FRAME, MESSAGE_BUDGET};
use actix_web::web::{Bytes, BytesMut};
use actix_ws::{CloseCode, CloseReason, Item, Message, MessageStream, ProtocolError, Session};
use bytestring::ByteString;
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// How long one frame may wait to be taken by a client that has stopped reading (its
/// buffers and actix-ws's 32-frame queue are full) before the socket is closed.
pub const SEND_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a closing socket waits to hand over its close frame.
const CLOSE_TIMEOUT: Duration = Duration::from_secs(10);

/// The close codes this service uses (docs/protocol.md, "Closing").
pub fn close_reason(code: CloseCode, why: &str) -> CloseReason {
    CloseReason {
        code,
        description: Some(why.into()),
    }
}

/// Too slow to take what it was sent: reconnect with `?v=N` to catch up.
pub fn fell_behind() -> CloseReason {
    close_reason(
        CloseCode::Again,
        "too far behind: reconnect with ?v=N to catch up",
    )
}

fn error_text(code: &'static str, message: &str) -> ByteString {
    ServerMsg::error(ErrorBody::new(code, message), None)
        .text()
        .into()
}

/// lila-ws's rule, applied to every frame a client sends (text, binary, ping, pong,
/// each piece of a fragmented message): at most `MESSAGE_BUDGET` in any
/// `BUDGET_WINDOW_SECS`.
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

/// What a client sent, as far as a socket needs to know.
pub enum Read {
    Text(ByteString),
    Ping(Bytes),
    /// The client closed or the connection dropped.
    Gone,
    /// The client broke a rule: send the error (if any), then close with the reason.
    Refuse(Option<ByteString>, CloseReason),
}

/// Reads frames, counting each against the socket's budget and those it shares with
/// the other sockets of its address and account (`frame_budget`). Fragmented text is
/// put together here rather than by actix-ws's aggregator, so that every fragment counts.
pub struct Reader {
    stream: MessageStream,
    budget: Budget,
    shared: Charge,
    partial: Option<BytesMut>,
}

fn rate_limited(message: &str) -> Read {
    Read::Refuse(
        Some(error_text("rate_limited", message)),
        close_reason(CloseCode::Policy, "rate limited"),
    )
}

impl Reader {
    pub fn new(stream: MessageStream, shared: Charge) -> Reader {
        Reader {
            stream: stream.max_frame_size(MAX_FRAME),
            budget: Budget(VecDeque::new()),
            shared,
            partial: None,
        }
    }

    pub async fn next(&mut self) -> Read {
        loop {
            let msg = match self.stream.recv().await {
                None | Some(Ok(Message::Close(_))) => return Read::Gone,
                Some(Err(ProtocolError::Overflow)) => return too_large(),
                Some(Err(_)) => return Read::Refuse(None, close_reason(CloseCode::Protocol, "")),
                Some(Ok(msg)) => msg,
            };
            if !self.budget.allow() {
                return rate_limited("too many frames: at most 100 in 20 seconds");
            }
            if let Err((spent, _)) = self.shared.take() {
                return rate_limited(&spent.message());
            }
            match msg {
                Message::Text(text) if self.partial.is_none() => return Read::Text(text),
                Message::Ping(b) => return Read::Ping(b),
                Message::Pong(_) | Message::Nop => {}
                Message::Binary(_) | Message::Continuation(Item::FirstBinary(_)) => {
                    return Read::Refuse(
                        Some(error_text("bad_message", "send JSON text frames")),
                        close_reason(CloseCode::Unsupported, "binary frames are not accepted"),
                    );
                }
                Message::Continuation(Item::FirstText(b)) if self.partial.is_none() => {
                    self.partial = Some(BytesMut::from(&b[..]));
                }
                Message::Continuation(Item::Continue(b)) if self.partial.is_some() => {
                    if let Some(read) = self.append(&b, false) {
                        return read;
                    }
                }
                Message::Continuation(Item::Last(b)) if self.partial.is_some() => {
                    if let Some(read) = self.append(&b, true) {
                        return read;
                    }
                }
                // A new message before the last one ended, or a piece of none.
                Message::Text(_) | Message::Continuation(_) => {
                    return Read::Refuse(
                        None,
                        close_reason(CloseCode::Protocol, "bad fragmentation"),
                    );
                }
                Message::Close(_) => return Read::Gone,
            }
        }
    }
}

impl Reader {
    /// Adds a piece to the message under way; the message once `last` (or too large).
    fn append(&mut self, piece: &[u8], last: bool) -> Option<Read> {
        let whole = self.partial.as_mut()?;
        if whole.len() + piece.len() > MAX_FRAME {
            return Some(too_large());
        }
        whole.extend_from_slice(piece);
        if !last {
            return None;
        }
        let bytes = self.partial.take()?.freeze();
        Some(match ByteString::try_from(bytes) {
            Ok(text) => Read::Text(text),
            Err(_) => Read::Refuse(None, close_reason(CloseCode::Invalid, "text is not UTF-8")),
        })
    }
}

fn too_large() -> Read {
    Read::Refuse(
        Some(error_text("too_large", "a message may hold at most 16 KiB")),
        close_reason(CloseCode::Size, "message too large"),
    )
}

/// Why writing stopped.
pub enum Stop {
    /// The client went away.
    Gone,
    /// The client took nothing for `SEND_TIMEOUT`.
    Slow,
}

/// The sending half: every write gives up after `SEND_TIMEOUT`, so a client that never
/// reads holds at most actix-ws's queue of frames (shared, not copied: `ByteString`),
/// never a growing pile, and is closed.
pub struct Writer(Session);

impl Writer {
    pub fn new(session: Session) -> Writer {
        Writer(session)
    }

    pub async fn text(&mut self, text: ByteString) -> Result<(), Stop> {
        match tokio::time::timeout(SEND_TIMEOUT, self.0.text(text)).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(_)) => Err(Stop::Gone),
            Err(_) => Err(Stop::Slow),
        }
    }

    pub async fn pong(&mut self, b: &[u8]) -> Result<(), Stop> {
        match tokio::time::timeout(SEND_TIMEOUT, self.0.pong(b)).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(_)) => Err(Stop::Gone),
            Err(_) => Err(Stop::Slow),
        }
    }

    /// Sends `error` (when there is one and room for it) and the close frame, waiting at
    /// most `CLOSE_TIMEOUT` for a client that does not read; then the connection goes.
    pub async fn close(mut self, error: Option<ByteString>, reason: Option<CloseReason>) {
        let _ = tokio::time::timeout(CLOSE_TIMEOUT, async {
            if let Some(e) = error {
                let _ = self.0.text(e).await;
            }
            let _ = self.0.close(reason).await;
        })
        .await;
    }
}
