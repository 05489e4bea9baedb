//! Starting the service: database, sessions, live games and routes.

use super::{
    access_log, analysis_evaluate, api, assets, auth, bearer, board_api, bots, device_cookie,
    display_name, error, finished_cache, frame_budget, guest, head, headers, history, ladder,
    layouts, origin, page_cache, pages, profile, rate_clock, review, sessions, social, socket_caps,
    tables_api, throttle, upgrades, ws,
};
use crate::db;
use crate::live::{Hub, LiveConfig};
use actix_session::SessionMiddleware;
use actix_session::config::PersistentSession;
use actix_web::cookie::{Key, SameSite, time};
use actix_web::{App, HttpServer, middleware, web};
use std::io;
use std::io::Write as _;
use std::time::Duration;

#[derive(Debug, Clone)]
pub struct ServeConfig {
    pub bind: String,
    pub database_url: String,
    pub grace: Duration,
    pub deploy_seconds: u32,
    pub secure_cookies: bool,
    pub workers: usize,
    pub db_connections: u32,
    pub open_game_idle: Duration,
    /// Client addresses from X-Forwarded-For (behind a reverse proxy).
    pub trust_proxy: bool,
    /// Login and registration limits on (off for load tests and the test suite).
    pub rate_limits: bool,
    /// Threads of the computer's thinking pool.
    pub think_threads: usize,
    pub computer_pace: std::time::Duration,
    /// Tests only: the limits' clock stands still until `POST /test/rate-clock`.
    pub frozen_rate_clock: bool,
}

/// Request bodies and socket frames are capped at this size.
pub const MAX_BODY: usize = 16 * 1024;

/// Each connection's kernel send buffer. Left to itself Linux grows it to 4 MiB, which
/// a client that never reads fills (thousands of idle sockets: gigabytes of kernel
/// memory, and TCP memory pressure for every other connection). 64 KiB (the kernel
/// doubles it) still takes a whole page or script at once.
const SEND_BUFFER: usize = 64 * 1024;

fn on_connect(conn: &dyn std::any::Any, _: &mut actix_web::dev::Extensions) {
    if let Some(tcp) = conn.downcast_ref::<actix_web::rt::net::TcpStream>()
        && let Err(e) = socket2::SockRef::from(tcp).set_send_buffer_size(SEND_BUFFER)
    {
        tracing::warn!(error = %e, "cannot set a connection's send buffer");
    }
}

/// The key that seals (encrypts and authenticates) session cookies. It is no login
/// secret (a cookie's token is random and the database keeps only its hash); it lets
/// forged cookies be dropped before the database is asked, and it is kept so that
/// sessions outlive a restart.
pub fn session_key(pool: &db::Pool) -> Result<Key, db::DbError> {
    let mut conn = pool.get()?;
    let fresh = hex::encode(Key::generate().master());
    let stored = db::setting_or_insert(&mut conn, "session_key", &fresh)?;
    let bytes = hex::decode(stored)
        .map_err(|e| db::DbError::Migration(format!("stored session key: {e}")))?;
    Ok(Key::from(&bytes))
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.app_data(
        web::JsonConfig::default()
            .limit(MAX_BODY)
            .error_handler(error::json_error),
    )
    .app_data(web::QueryConfig::default().error_handler(error::query_error))
    .app_data(web::PathConfig::default().error_handler(error::path_error))
    .app_data(web::PayloadConfig::default().limit(MAX_BODY))
    .route("/healthz", web::get().to(api::healthz))
    .service(
        web::scope("/api")
            .route("/register", web::post().to(auth::register))
            .route("/login", web::post().to(auth::login))
            .route("/guest", web::post().to(guest::start))
            .route("/logout", web::post().to(auth::logout))
            .route("/logout-all", web::post().to(auth::logout_all))
            .route("/me", web::get().to(auth::me))
            .route("/me", web::patch().to(display_name::patch_me))
            .route("/bot", web::get().to(bots::get))
            .route("/bot/kind", web::post().to(bots::set_kind))
            .route("/bot/tokens", web::get().to(bots::list_tokens))
            .route("/bot/tokens", web::post().to(bots::create_token))
            .route("/bot/tokens/{id}", web::delete().to(bots::revoke_token))
            .route("/games", web::post().to(api::create_game))
            .route("/games/quick", web::post().to(api::quick_pair))
            .route("/tables", web::post().to(tables_api::create_table))
            .route("/tables/quick", web::post().to(tables_api::quick_table))
            .route("/tables/open", web::get().to(tables_api::open_tables))
            .route("/games/open", web::get().to(api::open_games))
            .route("/games/live", web::get().to(api::live_games))
            .route("/games/{id}", web::get().to(api::get_game))
            .route("/games/{id}/join", web::post().to(api::join_game))
            .route("/games/{id}/cancel", web::post().to(api::cancel_game))
            .route("/games/{id}/record", web::get().to(api::game_record))
            .route("/games/{id}/replay", web::get().to(api::game_replay))
            .route("/games/{id}/review", web::post().to(review::start))
            .route("/games/{id}/review", web::get().to(review::get))
            .route("/board", web::get().to(board_api::board))
            .route("/analysis/moves", web::post().to(api::analysis_moves))
            .route(
                "/analysis/evaluate",
                web::post().to(analysis_evaluate::evaluate),
            )
            .route("/players/{name}", web::get().to(api::player))
            .route("/ladder", web::get().to(api::ladder))
            .route("/friends", web::get().to(social::friends))
            .route("/follows", web::post().to(social::follow))
            .route("/follows/{name}", web::delete().to(social::unfollow))
            .route("/blocks", web::post().to(social::block))
            .route("/blocks/{name}", web::delete().to(social::unblock))
            .route("/watch-permits", web::get().to(social::watch_list))
            .route("/watch-permits", web::post().to(social::allow_watcher))
            .route(
                "/watch-permits/{name}",
                web::delete().to(social::disallow_watcher),
            )
            .route("/challenges", web::get().to(social::list))
            .route("/challenges", web::post().to(social::create))
            .route("/challenges/{id}/accept", web::post().to(social::accept))
            .route("/challenges/{id}/decline", web::post().to(social::decline))
            .route("/challenges/{id}/cancel", web::post().to(social::cancel))
            .route("/layouts", web::get().to(layouts::list))
            .route("/layouts", web::post().to(layouts::create))
            // Before `/layouts/{id}`, which would otherwise take "import" for an id.
            .route("/layouts/import", web::post().to(layouts::import))
            .route("/layouts/{id}", web::patch().to(layouts::rename))
            .route("/layouts/{id}", web::delete().to(layouts::delete))
            .route("/layouts/{id}/export", web::get().to(layouts::export))
            .default_service(web::to(error::no_such_route)),
    )
    .route("/ws/lobby", web::get().to(ws::lobby_socket))
    .route("/ws/game/{id}", web::get().to(ws::game_socket))
    .route("/static/{path:.*}", web::get().to(assets::asset))
    .route("/favicon.ico", web::get().to(assets::favicon))
    // The pages, last: the scope takes every address left, and answers errors (an
    // unknown game or player, an address that names nothing) as pages.
    .service(
        web::scope("")
            .wrap(middleware::from_fn(error::as_page))
            .route("/", web::get().to(pages::lobby))
            .route("/login", web::get().to(pages::login))
            .route("/register", web::get().to(pages::register))
            .route("/rules", web::get().to(pages::rules))
            .route("/games", web::get().to(history::games))
            .route("/ladder", web::get().to(ladder::ladder))
            .route("/layouts", web::get().to(layouts::page))
            .route("/bot", web::get().to(bots::page))
            .route("/friends", web::get().to(social::page))
            .route("/@/{name}", web::get().to(profile::profile))
            .route("/@/{name}", web::post().to(profile::profile_form))
            .route(
                "/@/{name}/avatar",
                web::post().to(super::avatar_pick::profile_form),
            )
            .route("/@/{name}/games", web::get().to(history::player_games))
            .route("/game/{id}", web::get().to(pages::game))
            .default_service(web::to(error::no_such_page)),
    );
}

/// Runs the service until it is stopped. Prints `junqi listening on http://ADDR` once
/// the socket is bound (tests read this line to find the port).
pub async fn run(config: ServeConfig) -> io::Result<()> {
    let pool =
        db::connect(&config.database_url, config.db_connections).map_err(io::Error::other)?;
    let key = session_key(&pool).map_err(io::Error::other)?;
    let hub = Hub::new(
        pool,
        LiveConfig {
            grace: config.grace,
            deploy_seconds: config.deploy_seconds,
            open_game_idle: config.open_game_idle,
            think_threads: config.think_threads,
            computer_pace: config.computer_pace,
        },
    );
    // The computer players' accounts, before any game can ask for them. A name a
    // person already holds keeps only that level from being played.
    {
        let pool = hub.pool().clone();
        let made = actix_web::web::block(move || {
            let mut c = pool.get()?;
            db::users::ensure_computer_players(&mut c)
        })
        .await
        .map_err(io::Error::other)?;
        if let Err(e) = made {
            tracing::error!(error = %e, "cannot make the computer players' accounts");
        }
    }
    let resumed = hub.resume_running().await.map_err(io::Error::other)?;
    tracing::info!(resumed, "running games resumed");
    hub.start_expiry();
    let store_pool = hub.pool().clone();
    let clock = if config.frozen_rate_clock {
        rate_clock::RateClock::frozen()
    } else {
        rate_clock::RateClock::real()
    };
    let frozen = clock.is_frozen();
    let clock_data = web::Data::new(clock.clone());
    let avatar_limit = web::Data::new(super::avatar_pick::AvatarLimit::new(
        config.rate_limits,
        &clock,
    ));
    let reviews = web::Data::new(review::Reviews::new(
        config.rate_limits,
        &clock,
        crate::review::REVIEW_BUDGET,
    ));
    let evaluator = web::Data::new(analysis_evaluate::Evaluator::new(
        config.rate_limits,
        &clock,
    ));
    let guard = web::Data::new(throttle::Guard::new(
        config.rate_limits,
        config.trust_proxy,
        clock,
    ));
    let devices = web::Data::new(device_cookie::DeviceCookies::new(
        &key,
        config.secure_cookies,
    ));
    let forgetful = (guard.clone(), reviews.clone(), evaluator.clone());
    actix_web::rt::spawn(async move {
        let mut every = tokio::time::interval(Duration::from_secs(60));
        loop {
            every.tick().await;
            forgetful.0.forget_recovered();
            forgetful.1.forget_recovered();
            forgetful.2.forget_recovered();
        }
    });
    let data = web::Data::new(hub);
    let rank_counts = web::Data::new(ladder::RankCounts::default());
    let page_cache = web::Data::new(page_cache::PageCache::default());
    let socket_caps = web::Data::new(socket_caps::SocketCaps::default());
    let frame_budgets = web::Data::new(frame_budget::FrameBudgets::default());
    let finished_cache = web::Data::new(finished_cache::FinishedCache::default());
    let access = web::Data::new(access_log::AccessLog::default());
    actix_web::rt::spawn(access_log::count_skipped(access.clone()));
    let secure = config.secure_cookies;
    let server = HttpServer::new(move || {
        App::new()
            .app_data(data.clone())
            .app_data(rank_counts.clone())
            .app_data(page_cache.clone())
            .app_data(socket_caps.clone())
            .app_data(frame_budgets.clone())
            .app_data(finished_cache.clone())
            .app_data(reviews.clone())
            .app_data(evaluator.clone())
            .app_data(access.clone())
            // Innermost, before routing: HEAD is routed as GET (head.rs).
            .wrap(middleware::from_fn(head::as_get))
            .wrap(middleware::from_fn(origin::same_site_only))
            .app_data(guard.clone())
            .app_data(devices.clone())
            .app_data(avatar_limit.clone())
            .app_data(clock_data.clone())
            .wrap(
                SessionMiddleware::builder(
                    sessions::DbSessionStore::new(store_pool.clone()),
                    key.clone(),
                )
                .cookie_name("junqi_session".into())
                .cookie_http_only(true)
                .cookie_same_site(SameSite::Lax)
                .cookie_secure(secure)
                // The cookie is set only at login, so it outlasts the server's
                // sliding 30 days of the session (db::sessions::TTL_MS), which
                // decide; 400 days is the most browsers keep a cookie.
                .session_lifecycle(
                    PersistentSession::default().session_ttl(time::Duration::days(400)),
                )
                .build(),
            )
            // Outside the session: a request with an API token is that token's bot
            // account, and its cookie is dropped before the session is looked at.
            .wrap(middleware::from_fn(bearer::authenticate))
            .wrap(headers::security_headers())
            // Text answers (pages, JSON) go out compressed to clients that accept it
            // (brotli, zstd or gzip) at the middleware's quick, low levels. It leaves
            // alone answers that carry a Content-Encoding, among them the static files,
            // which assets.rs sends from copies compressed at build time at the top
            // levels; and socket upgrades (101).
            .wrap(middleware::Compress::default())
            .wrap(middleware::from_fn(upgrades::uncompressed))
            // Outermost: every answer, errors and refusals included, within a budget
            // of lines under a flood (access_log.rs).
            .wrap(middleware::from_fn(access_log::log))
            // Before the site's routes: their catch-all scope answers every path
            // registered after it with a 404 page.
            .configure(|cfg| {
                if frozen {
                    rate_clock::routes(cfg);
                }
            })
            .configure(configure)
    })
    .on_connect(on_connect)
    .workers(config.workers)
    .bind(&config.bind)?;
    for addr in server.addrs() {
        println!("junqi listening on http://{addr}");
    }
    io::stdout().flush()?;
    server.run().await
}
