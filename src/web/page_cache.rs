//! A one-second cache of the public pages anonymous visitors ask for most, `/games` and
//! `/ladder`, whose few URLs are asked for again and again. An entry also lapses as soon
//! as any game ends, so a finished game or a new score shows at once; signed-in players
//! are never served from it (their pages mark their own rows). One request at a time
//! renders a missing page; the others asking for it meanwhile wait for that copy
//! rather than all rendering it at once the moment it lapses.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const FRESH_FOR: Duration = Duration::from_secs(1);
/// Past this many entries the stale ones are dropped (and all, if none is stale).
const MAX_ENTRIES: usize = 4096;

type Key = (String, bool);

#[derive(Default)]
pub struct PageCache {
    pages: Mutex<HashMap<Key, Entry>>,
    /// One lock per page being (or lately) rendered.
    renders: Mutex<HashMap<Key, Arc<tokio::sync::Mutex<()>>>>,
}

struct Entry {
    at: Instant,
    /// How many games had ended when the page was rendered.
    ended: u64,
    body: Arc<str>,
}

impl PageCache {
    /// The page at `url` in English or Chinese, if rendered within the last second and
    /// no game has ended since (`ended` is the current count).
    pub fn get(&self, url: &str, en: bool, ended: u64) -> Option<Arc<str>> {
        let map = self.pages.lock().expect("page cache lock");
        map.get(&(url.to_string(), en))
            .filter(|e| e.ended == ended && e.at.elapsed() < FRESH_FOR)
            .map(|e| e.body.clone())
    }

    /// Waits for the turn to render the page at `url` (first come, first served); the
    /// turn ends when the guard is dropped. Look the page up again once it is given:
    /// the request before may just have rendered it.
    pub async fn turn_to_render(&self, url: &str, en: bool) -> tokio::sync::OwnedMutexGuard<()> {
        let lock = {
            let mut locks = self.renders.lock().expect("render locks");
            if locks.len() >= MAX_ENTRIES {
                // At worst two requests render one page at once for a moment.
                locks.retain(|_, l| Arc::strong_count(l) > 1);
            }
            locks.entry((url.to_string(), en)).or_default().clone()
        };
        lock.lock_owned().await
    }

    /// Keeps a page rendered when `ended` games had ended (read before rendering).
    pub fn put(&self, url: String, en: bool, ended: u64, body: Arc<str>) {
        let mut map = self.pages.lock().expect("page cache lock");
        if map.len() >= MAX_ENTRIES {
            map.retain(|_, e| e.ended == ended && e.at.elapsed() < FRESH_FOR);
            if map.len() >= MAX_ENTRIES {
                map.clear();
            }
        }
        map.insert(
            (url, en),
            Entry {
                at: Instant::now(),
                ended,
                body,
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_lapses_when_a_game_ends_or_a_second_passes() {
        let c = PageCache::default();
        c.put("/games".into(), false, 7, Arc::from("page"));
        assert_eq!(c.get("/games", false, 7).as_deref(), Some("page"));
        assert!(c.get("/games", true, 7).is_none(), "per language");
        assert!(c.get("/games?reason=flag", false, 7).is_none(), "per URL");
        assert!(c.get("/games", false, 8).is_none(), "a game ended since");
        std::thread::sleep(FRESH_FOR + Duration::from_millis(50));
        assert!(c.get("/games", false, 7).is_none(), "older than a second");
    }

    #[tokio::test]
    async fn one_request_at_a_time_renders_a_page() {
        let c = PageCache::default();
        let wait = Duration::from_millis(50);
        let first = c.turn_to_render("/games", false).await;
        assert!(
            tokio::time::timeout(wait, c.turn_to_render("/games", false))
                .await
                .is_err(),
            "the second request waits for the first one's copy"
        );
        let other = tokio::time::timeout(wait, c.turn_to_render("/ladder", false)).await;
        assert!(other.is_ok(), "another page renders meanwhile");
        drop(first);
        assert!(
            tokio::time::timeout(wait, c.turn_to_render("/games", false))
                .await
                .is_ok(),
            "and goes once the first is done"
        );
    }
}
