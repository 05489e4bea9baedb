//! A game socket's queue of outgoing frames. It is bounded, and the game task only ever
//! tries to queue (never waits): a socket that lets `CAPACITY` frames pile up has
//! fallen behind, is told so, and gets nothing more; its socket then closes and the
//! client reconnects with `?v=N`. Frames are `ByteString`s, so one event cut for many
//! spectators is one allocation shared by all their queues.

use bytestring::ByteString;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use tokio::sync::mpsc::error::TrySendError;
use tokio::sync::{Notify, mpsc};

/// Frames one socket may have waiting. A reconnect's catch-up queues up to
/// `MAX_REPLAY` events (and its marks) at once, before the socket has taken any.
pub const CAPACITY: usize = 256;
const _: () = assert!(CAPACITY > super::publish::MAX_REPLAY + 16);

struct Lag {
    behind: AtomicBool,
    notify: Notify,
}

/// The game task's end.
pub struct Outbox {
    tx: mpsc::Sender<ByteString>,
    lag: Arc<Lag>,
}

/// The socket's end.
pub struct Inbox {
    rx: mpsc::Receiver<ByteString>,
}

/// The socket's way to hear that it fell behind (apart from `Inbox`, so that a socket
/// can wait on both at once).
pub struct Behind(Arc<Lag>);

pub fn outbox() -> (Outbox, Inbox, Behind) {
    let (tx, rx) = mpsc::channel(CAPACITY);
    let lag = Arc::new(Lag {
        behind: AtomicBool::new(false),
        notify: Notify::new(),
    });
    (
        Outbox {
            tx,
            lag: lag.clone(),
        },
        Inbox { rx },
        Behind(lag),
    )
}

impl Outbox {
    /// Queues `frame` without waiting. When the queue is full the socket has fallen
    /// behind: it is signalled, and this and every later frame are dropped (it will
    /// catch up from the log when it reconnects).
    pub fn push(&self, frame: ByteString) {
        if self.lag.behind.load(Ordering::Relaxed) {
            return;
        }
        if let Err(TrySendError::Full(_)) = self.tx.try_send(frame) {
            self.lag.behind.store(true, Ordering::Relaxed);
            // A stored permit: the socket sees it even if it is not waiting right now.
            self.lag.notify.notify_one();
        }
    }
}

impl Inbox {
    /// The next frame; `None` once the game task has let go of this socket.
    pub async fn recv(&mut self) -> Option<ByteString> {
        self.rx.recv().await
    }
}

impl Behind {
    /// Resolves once the socket has fallen behind.
    pub async fn wait(&self) {
        while !self.0.behind.load(Ordering::Relaxed) {
            self.0.notify.notified().await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn a_full_queue_marks_the_socket_behind_and_drops_the_rest() {
        let (out, mut inbox, behind) = outbox();
        for i in 0..CAPACITY {
            out.push(i.to_string().into());
        }
        let quick = Duration::from_millis(50);
        assert!(
            tokio::time::timeout(quick, behind.wait()).await.is_err(),
            "a full queue is not yet behind"
        );
        out.push("one too many".into());
        tokio::time::timeout(quick, behind.wait())
            .await
            .expect("behind once a frame did not fit");
        assert_eq!(inbox.recv().await.as_deref(), Some("0"));
        out.push("after".into());
        for _ in 1..CAPACITY {
            assert_ne!(inbox.recv().await.as_deref(), Some("after"));
        }
        drop(out);
        assert!(inbox.recv().await.is_none(), "nothing more once behind");
    }
}
