//! A one-second cache of the public pages anonymous visitors ask for most, `/games` and
//! `/ladder`, whose few variants are asked for again and again. An entry is keyed on
//! what its page reads of the query, normalised (not on the raw URL, which any junk
//! parameter makes new). An entry also lapses as soon as any game ends, so a finished
//! game or a new score shows at once; signed-in players are never served from it (their
//! pages mark their own rows). One request at a time renders a missing page; the others
//! asking for it meanwhile wait for that copy rather than all rendering it at once the
//! moment it lapses.

use super::auth::user_id;
use super::i18n::Lang;
use crate::error::AppError;
use crate::live::Hub;
use actix_session::Session;
use actix_web::HttpResponse;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const FRESH_FOR: Duration = Duration::from_secs(1);
/// Past this many entries, or this many bytes of pages, the stale ones are dropped
/// (and all, if none is stale). Parameters a page does read (a player's name, a search)
/// still make as many entries as anyone asks for.
const MAX_ENTRIES: usize = 4096;
const MAX_BYTES: usize = 16 << 20;

type Key = (String, bool);

#[derive(Default)]
pub struct PageCache {
    pages: Mutex<Pages>,
    /// One lock per page being (or lately) rendered.
    renders: Mutex<HashMap<Key, Arc<tokio::sync::Mutex<()>>>>,
}

#[derive(Default)]
struct Pages {
    map: HashMap<Key, Entry>,
    bytes: usize,
}

struct Entry {
    at: Instant,
    /// How many games had ended when the page was rendered.
    ended: u64,
    body: Arc<str>,
}

impl PageCache {
    /// The page keyed `key` in English or Chinese, if rendered within the last second and
    /// no game has ended since (`ended` is the current count).
    pub fn get(&self, key: &str, en: bool, ended: u64) -> Option<Arc<str>> {
        let pages = self.pages.lock().expect("page cache lock");
        pages
            .map
            .get(&(key.to_string(), en))
            .filter(|e| e.ended == ended && e.at.elapsed() < FRESH_FOR)
            .map(|e| e.body.clone())
    }

    /// Waits for the turn to render the page keyed `key` (first come, first served); the
    /// turn ends when the guard is dropped. Look the page up again once it is given:
    /// the request before may just have rendered it.
    pub async fn turn_to_render(&self, key: &str, en: bool) -> tokio::sync::OwnedMutexGuard<()> {
        let lock = {
            let mut locks = self.renders.lock().expect("render locks");
            if locks.len() >= MAX_ENTRIES {
                // At worst two requests render one page at once for a moment.
                locks.retain(|_, l| Arc::strong_count(l) > 1);
            }
            locks.entry((key.to_string(), en)).or_default().clone()
        };
        lock.lock_owned().await
    }

    /// Keeps a page rendered when `ended` games had ended (read before rendering).
    pub fn put(&self, key: String, en: bool, ended: u64, body: Arc<str>) {
        let mut pages = self.pages.lock().expect("page cache lock");
        let p = &mut *pages;
        if p.map.len() >= MAX_ENTRIES || p.bytes + body.len() > MAX_BYTES {
            p.map
                .retain(|_, e| e.ended == ended && e.at.elapsed() < FRESH_FOR);
            if p.map.len() >= MAX_ENTRIES || p.bytes + body.len() > MAX_BYTES {
                p.map.clear();
            }
            p.bytes = p.map.values().map(|e| e.body.len()).sum();
        }
        p.bytes += body.len();
        let old = p.map.insert(
            (key, en),
            Entry {
                at: Instant::now(),
                ended,
                body,
            },
        );
        if let Some(old) = old {
            p.bytes -= old.body.len();
        }
    }

    /// How many pages are kept.
    #[cfg(test)]
    fn entries(&self) -> usize {
        self.pages.lock().expect("page cache lock").map.len()
    }
}

/// Serves an anonymous visitor's page keyed `key` from `cache` when it is fresh, or
/// renders it with `render` and keeps it.
pub async fn serve(
    hub: &Hub,
    cache: &PageCache,
    key: String,
    session: &Session,
    lang: Lang,
    render: impl AsyncFnOnce() -> Result<String, AppError>,
) -> Result<HttpResponse, AppError> {
    if user_id(session).is_some() {
        return Ok(lang.html(render().await?));
    }
    if let Some(body) = cache.get(&key, lang.en, hub.games_ended()) {
        return Ok(lang.html(body.to_string()));
    }
    let _turn = cache.turn_to_render(&key, lang.en).await;
    // Read before rendering: a game ending meanwhile makes this copy lapse.
    let ended = hub.games_ended();
    if let Some(body) = cache.get(&key, lang.en, ended) {
        return Ok(lang.html(body.to_string()));
    }
    let body = render().await?;
    cache.put(key, lang.en, ended, Arc::from(body.as_str()));
    Ok(lang.html(body))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::LiveConfig;
    use actix_web::test::{self, TestRequest};
    use actix_web::{App, web};

    /// Through the real routes and handlers: a thousand junk query strings over five
    /// real page variants leave five entries, and other spellings of the same page
    /// (empty parameters, another order) find them.
    #[actix_web::test]
    async fn junk_query_strings_share_their_pages_entry() {
        let db = std::env::temp_dir().join(format!("junqi_page_cache_{}.db", std::process::id()));
        let pool = crate::db::connect(db.to_str().unwrap(), 1).expect("a database");
        let config = LiveConfig {
            grace: Duration::from_secs(60),
            deploy_seconds: 120,
            open_game_idle: Duration::from_secs(300),
            think_threads: 1,
            computer_pace: Duration::ZERO,
        };
        let cache = web::Data::new(PageCache::default());
        let app = test::init_service(
            App::new()
                .app_data(web::Data::new(Hub::new(pool, config)))
                .app_data(web::Data::new(super::super::ladder::RankCounts::default()))
                .app_data(cache.clone())
                .configure(super::super::server::configure),
        )
        .await;
        let get = async |uri: &str| {
            let resp = test::call_service(&app, TestRequest::get().uri(uri).to_request()).await;
            assert_eq!(resp.status(), 200, "{uri}");
        };
        let variants = [
            "/games?",
            "/games?variant=flip&",
            "/games?lang=en&",
            "/ladder?",
            "/ladder?variant=standard&page=2&",
        ];
        for i in 0..200 {
            for v in variants {
                get(&format!("{v}junk{i}={i}&utm_source=x{i}")).await;
            }
        }
        assert_eq!(cache.entries(), variants.len());
        for same in [
            "/games?variant=&result=&reason=&before=&player=",
            "/games?utm=1&variant=flip",
            "/ladder?variant=flip&page=1&q=",
            "/ladder?page=2&variant=standard&q=%20%21",
        ] {
            get(same).await;
        }
        assert_eq!(cache.entries(), variants.len());
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
        }
    }

    #[test]
    fn an_entry_lapses_when_a_game_ends_or_a_second_passes() {
        let c = PageCache::default();
        c.put("/games".into(), false, 7, Arc::from("page"));
        c.put("/ladder".into(), false, 7, Arc::from("other"));
        assert_eq!(c.get("/games", false, 7).as_deref(), Some("page"));
        assert!(c.get("/games", true, 7).is_none(), "per language");
        assert!(c.get("/games?reason=flag", false, 7).is_none(), "per URL");
        assert!(c.get("/games", false, 8).is_none(), "a game ended since");
        std::thread::sleep(FRESH_FOR + Duration::from_millis(50));
        assert!(c.get("/games", false, 7).is_none(), "older than a second");
    }

    #[test]
    fn the_pages_kept_stay_under_their_byte_budget() {
        let c = PageCache::default();
        let page: Arc<str> = Arc::from("x".repeat(1 << 20));
        for i in 0..40 {
            c.put(format!("/ladder {i}"), false, 1, page.clone());
            let pages = c.pages.lock().unwrap();
            assert!(pages.bytes <= MAX_BYTES, "{} bytes", pages.bytes);
            assert_eq!(pages.bytes, pages.map.len() << 20);
        }
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
