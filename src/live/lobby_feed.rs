//! The lobby's list as one shared frame, brought up to date after games are opened,
//! joined, cancelled or expired, and after a table's seats change.
//!
//! Working the list out reads up to a few hundred open games, so it must not run once
//! per change: when hundreds of games start at once, hundreds of such reads queued at
//! the database in front of the joins themselves, and a join took seconds. Changes only
//! mark the list stale; one refresher at a time works it out again, at once for a lone
//! change and at most once per [`MIN_GAP`] while changes keep coming. Nobody waits for
//! it: lobby sockets receive the new frame when it is ready.

use super::Hub;
use super::messages::{LobbyMsg, ServerMsg};
use bytestring::ByteString;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::SeqCst};
use std::time::Duration;
use tokio::sync::watch;

/// The shortest time between two refreshes while changes keep coming.
pub const MIN_GAP: Duration = Duration::from_millis(200);

pub struct LobbyFeed {
    frame: watch::Sender<ByteString>,
    /// Changes reported since the start.
    changes: AtomicU64,
    /// How many of those the frame takes into account.
    shown: AtomicU64,
    /// Whether a refresher is running.
    busy: AtomicBool,
    /// Refreshes done since the start.
    refreshes: AtomicU64,
}

impl LobbyFeed {
    pub fn new() -> LobbyFeed {
        let empty = ServerMsg::Lobby {
            d: LobbyMsg {
                open: Vec::new(),
                tables: Vec::new(),
                live: Vec::new(),
                online: 0,
            },
        };
        LobbyFeed {
            frame: watch::channel(ByteString::from(empty.text())).0,
            changes: AtomicU64::new(0),
            shown: AtomicU64::new(0),
            busy: AtomicBool::new(false),
            refreshes: AtomicU64::new(0),
        }
    }

    pub fn subscribe(&self) -> watch::Receiver<ByteString> {
        self.frame.subscribe()
    }

    /// Claims the refresher's place when a change is not yet shown and nobody holds it.
    fn claim(&self) -> bool {
        self.changes.load(SeqCst) != self.shown.load(SeqCst) && !self.busy.swap(true, SeqCst)
    }
}

impl Hub {
    /// Marks the lobby's list stale; it is worked out again shortly, off the caller's path.
    pub fn lobby_changed(self: &Arc<Self>) {
        self.feed.changes.fetch_add(1, SeqCst);
        if self.feed.claim() {
            let hub = self.clone();
            actix_web::rt::spawn(async move { hub.refresh_lobby_while_stale().await });
        }
    }

    /// Whether any lobby socket is listening.
    pub(super) fn lobby_watched(&self) -> bool {
        self.feed.frame.receiver_count() > 0
    }

    /// Refreshes done since the start.
    pub fn lobby_refreshes(&self) -> u64 {
        self.feed.refreshes.load(SeqCst)
    }

    /// Run by the one refresher: refreshes until a gap passes without a change.
    async fn refresh_lobby_while_stale(self: Arc<Self>) {
        let feed = &self.feed;
        loop {
            let changes = feed.changes.load(SeqCst);
            if changes == feed.shown.load(SeqCst) {
                feed.busy.store(false, SeqCst);
                // A change reported just before the place was given up found it taken
                // and left the refresh to this loop.
                if !feed.claim() {
                    return;
                }
                continue;
            }
            self.refresh_lobby().await;
            feed.shown.store(changes, SeqCst);
            actix_web::rt::time::sleep(MIN_GAP).await;
        }
    }

    /// Works the list out now and hands it to every lobby socket.
    pub async fn refresh_lobby(&self) {
        self.feed.refreshes.fetch_add(1, SeqCst);
        let live = self.live_list().await.unwrap_or_else(|e| {
            tracing::error!(error = %e, "cannot list the live games");
            Vec::new()
        });
        let tables = self.open_tables().await.unwrap_or_else(|e| {
            tracing::error!(error = %e, "cannot list the open tables");
            Vec::new()
        });
        match self.open_list().await {
            Ok(open) => {
                let msg = ServerMsg::Lobby {
                    d: LobbyMsg {
                        open,
                        tables,
                        live,
                        online: self.presence.online(),
                    },
                };
                self.feed.frame.send_replace(ByteString::from(msg.text()));
            }
            Err(e) => tracing::error!(error = %e, "cannot refresh the lobby"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::{games, users};
    use crate::live::LiveConfig;
    use std::time::Instant;

    async fn lists(frames: &mut watch::Receiver<ByteString>, id: &str) {
        let shown = tokio::time::timeout(Duration::from_secs(10), async {
            loop {
                if frames.borrow_and_update().contains(id) {
                    return;
                }
                frames.changed().await.expect("the feed lives");
            }
        })
        .await;
        assert!(shown.is_ok(), "the lobby never listed {id}");
    }

    /// Hundreds of changes in a burst (as when hundreds of games start at once) cost a
    /// refresh per gap, not one each, and the list still ends up showing the last one.
    #[actix_web::test]
    async fn a_burst_of_changes_refreshes_once_per_gap_and_ends_up_current() {
        let db = std::env::temp_dir().join(format!("junqi_lobby_feed_{}.db", std::process::id()));
        let _ = std::fs::remove_file(&db);
        let pool = crate::db::connect(db.to_str().unwrap(), 2).expect("a database");
        let hub = Hub::new(
            pool.clone(),
            LiveConfig {
                grace: Duration::from_secs(60),
                deploy_seconds: 120,
                open_game_idle: Duration::from_secs(300),
                think_threads: 1,
                computer_pace: Duration::ZERO,
            },
        );
        let creator = {
            let mut c = pool.get().expect("a connection");
            users::create(&mut c, "opener", "not-a-real-hash")
                .expect("the user is stored")
                .expect("the name is free")
                .id
        };
        let open = |id: &str| {
            let row = games::GameRow::open(id.into(), "flip", false, 30, "{}".into(), creator, 1);
            games::insert(&mut pool.get().expect("a connection"), &row).expect("stored");
        };
        let mut frames = hub.lobby();

        let began = Instant::now();
        for i in 0..400 {
            if i == 390 {
                open("Burst001");
            }
            hub.lobby_changed();
            if i % 20 == 0 {
                actix_web::rt::time::sleep(Duration::from_millis(25)).await;
            }
        }
        let burst = began.elapsed();
        lists(&mut frames, "Burst001").await;
        let refreshes = hub.lobby_refreshes();
        let allowed = 2 + (burst.as_millis() / MIN_GAP.as_millis()) as u64;
        assert!(
            (1..=allowed).contains(&refreshes),
            "400 changes over {burst:?} took {refreshes} refreshes (at most {allowed})"
        );

        // Once quiet, a lone change is shown again.
        actix_web::rt::time::sleep(MIN_GAP * 2).await;
        open("Lone0001");
        hub.lobby_changed();
        lists(&mut frames, "Lone0001").await;
        let _ = std::fs::remove_file(&db);
    }
}
