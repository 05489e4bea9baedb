//! The harness of the live tests: a fresh database per test (a SQLite file or a
//! PostgreSQL database of its own), the real `junqi` binary serving on a loopback port,
//! an HTTP client that carries the session cookie by hand, WebSocket helpers, and a
//! `Table` that plays a game over the sockets while mirroring it in a local `Game`
//! built from the true deal.
#![allow(dead_code)]

pub mod bots;
pub mod computer;
pub mod drawn;
pub mod hidden;
pub mod policy;

use awc::http::header;
use awc::ws;
use futures_util::{SinkExt as _, StreamExt as _};
use junqi::db::games::GameRow;
use junqi::record::{Record, parse_deal};
use junqi::rules::{Action, Deal, Game, Options, Seat};
use serde_json::{Value, json};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

/// How long any single wait in a test may take before the test fails.
pub const WAIT: Duration = Duration::from_secs(15);

// ---------------------------------------------------------------------------------
// Databases

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

const DEFAULT_POSTGRES: &str = "postgres://postgres@127.0.0.1:5432/test";

/// One test's database; removed (file) or dropped (PostgreSQL) when this is dropped.
pub struct TestDb {
    pub url: String,
    pub backend: Backend,
    sqlite_path: Option<std::path::PathBuf>,
    pg: Option<(String, String)>,
}

static UNIQUE: AtomicU64 = AtomicU64::new(0);

fn unique_name() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    format!(
        "junqi_test_{}_{}_{}",
        std::process::id(),
        UNIQUE.fetch_add(1, Ordering::Relaxed),
        nanos
    )
}

/// The URL of database `name` on the server `base` names.
fn with_database(base: &str, name: &str) -> String {
    let (head, query) = match base.split_once('?') {
        Some((h, q)) => (h, Some(q)),
        None => (base, None),
    };
    let rest = head
        .split_once("://")
        .map(|(_, r)| r)
        .expect("JUNQI_TEST_POSTGRES_URL is a postgres:// URL");
    let server = match rest.find('/') {
        Some(i) => &head[..head.len() - rest.len() + i],
        None => head,
    };
    match query {
        Some(q) => format!("{server}/{name}?{q}"),
        None => format!("{server}/{name}"),
    }
}

fn pg_admin(url: &str, sql: &str) -> Result<(), String> {
    use diesel::{Connection, RunQueryDsl};
    let mut c = diesel::PgConnection::establish(url).map_err(|e| e.to_string())?;
    diesel::sql_query(sql)
        .execute(&mut c)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

impl TestDb {
    /// A fresh database, or `None` when PostgreSQL tests are skipped on purpose
    /// (`JUNQI_SKIP_POSTGRES=1`). Without `JUNQI_TEST_POSTGRES_URL` the PostgreSQL
    /// variants fail: silently passing would hide that they never ran.
    pub fn new(backend: Backend) -> Option<TestDb> {
        match backend {
            Backend::Sqlite => {
                let path = std::env::temp_dir().join(format!("{}.db", unique_name()));
                Some(TestDb {
                    url: path.to_str().expect("temp path is UTF-8").to_string(),
                    backend,
                    sqlite_path: Some(path),
                    pg: None,
                })
            }
            Backend::Postgres => {
                if std::env::var("JUNQI_SKIP_POSTGRES").as_deref() == Ok("1") {
                    eprintln!("skipped: JUNQI_SKIP_POSTGRES=1");
                    return None;
                }
                // The local server every machine of this project runs; a failure to
                // reach it fails the test rather than skipping it.
                let base = std::env::var("JUNQI_TEST_POSTGRES_URL")
                    .ok()
                    .filter(|u| !u.is_empty())
                    .unwrap_or_else(|| DEFAULT_POSTGRES.to_string());
                let name = unique_name();
                pg_admin(&base, &format!("CREATE DATABASE {name}")).unwrap_or_else(|e| {
                    panic!(
                        "cannot create database {name} through JUNQI_TEST_POSTGRES_URL={base}: {e}"
                    )
                });
                Some(TestDb {
                    url: with_database(&base, &name),
                    backend,
                    sqlite_path: None,
                    pg: Some((base, name)),
                })
            }
        }
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let Some(path) = &self.sqlite_path {
            for suffix in ["", "-wal", "-shm", "-journal"] {
                let mut p = path.clone().into_os_string();
                p.push(suffix);
                let _ = std::fs::remove_file(p);
            }
        }
        if let Some((base, name)) = &self.pg
            && let Err(e) = pg_admin(
                base,
                &format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
            )
        {
            eprintln!("could not drop test database {name}: {e}");
        }
    }
}

/// Declares each test twice, on SQLite and on PostgreSQL:
/// `db_tests! { body => name_sqlite, name_postgres; … }` where `body` is an
/// `async fn(TestDb)`. (Used through `#[macro_use] mod support;`.)
#[allow(unused_macros)]
macro_rules! db_tests {
    ($($body:ident => $sqlite:ident, $postgres:ident;)+) => {$(
        #[actix_web::test]
        async fn $sqlite() {
            let db = $crate::support::TestDb::new($crate::support::Backend::Sqlite)
                .expect("SQLite is always available");
            $body(db).await;
        }

        #[actix_web::test]
        async fn $postgres() {
            if let Some(db) = $crate::support::TestDb::new($crate::support::Backend::Postgres) {
                $body(db).await;
            }
        }
    )+};
}

// ---------------------------------------------------------------------------------
// The server process

/// The real binary, serving on a loopback port. Killed when dropped.
pub struct Server {
    child: Child,
    pub addr: String,
    log: Arc<Mutex<String>>,
    database_url: String,
    grace_seconds: u64,
    deploy_seconds: u64,
    extra: Vec<String>,
}

/// What every test server runs with unless a test says otherwise: the tests register
/// and log in hundreds of players from one address, which the limits would refuse.
const NO_RATE_LIMITS: &str = "--no-rate-limits";

fn drain(
    stream: impl Read + Send + 'static,
    log: Arc<Mutex<String>>,
    ready: Option<mpsc::Sender<String>>,
) {
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stream);
        let mut line = String::new();
        loop {
            line.clear();
            match reader.read_line(&mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    log.lock().unwrap().push_str(&line);
                    if let (Some(tx), Some(addr)) = (
                        &ready,
                        line.trim_end().strip_prefix("junqi listening on http://"),
                    ) {
                        let _ = tx.send(addr.to_string());
                    }
                }
            }
        }
    });
}

impl Server {
    pub fn start(database_url: &str, grace_seconds: u64, deploy_seconds: u64) -> Server {
        Self::start_with_log(
            database_url,
            grace_seconds,
            deploy_seconds,
            vec![NO_RATE_LIMITS.to_string()],
            Arc::new(Mutex::new(String::new())),
        )
    }

    /// A server with these flags instead of `--no-rate-limits`.
    pub fn start_with_flags(database_url: &str, flags: &[&str]) -> Server {
        Self::start_with_log(
            database_url,
            60,
            120,
            flags.iter().map(|f| f.to_string()).collect(),
            Arc::new(Mutex::new(String::new())),
        )
    }

    fn start_with_log(
        database_url: &str,
        grace_seconds: u64,
        deploy_seconds: u64,
        extra: Vec<String>,
        log: Arc<Mutex<String>>,
    ) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_junqi"))
            .args([
                "--bind",
                "127.0.0.1:0",
                "--database-url",
                database_url,
                "--grace-seconds",
                &grace_seconds.to_string(),
                "--deploy-seconds",
                &deploy_seconds.to_string(),
            ])
            .args(&extra)
            // The computer answers at once unless a test asks for its pace: many tests
            // play it through whole games.
            .args(
                (!extra.iter().any(|f| f.starts_with("--computer-pace-ms")))
                    .then_some("--computer-pace-ms=0"),
            )
            .env("RUST_LOG", "info")
            .env_remove("JUNQI_TRUST_PROXY")
            .env_remove("JUNQI_NO_RATE_LIMITS")
            .env_remove("JUNQI_SECURE_COOKIES")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the junqi binary starts");
        let (tx, rx) = mpsc::channel();
        drain(child.stdout.take().unwrap(), log.clone(), Some(tx));
        drain(child.stderr.take().unwrap(), log.clone(), None);
        let deadline = Instant::now() + Duration::from_secs(30);
        let addr = loop {
            if let Ok(addr) = rx.recv_timeout(Duration::from_millis(50)) {
                break addr;
            }
            if let Ok(Some(status)) = child.try_wait() {
                panic!(
                    "the server exited ({status}) before listening; its log:\n{}",
                    log.lock().unwrap()
                );
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                panic!(
                    "the server did not listen within 30 s; its log:\n{}",
                    log.lock().unwrap()
                );
            }
        };
        Server {
            child,
            addr,
            log,
            database_url: database_url.to_string(),
            grace_seconds,
            deploy_seconds,
            extra,
        }
    }

    pub fn base(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Everything the server wrote to stdout and stderr so far (all its runs).
    pub fn log(&self) -> String {
        self.log.lock().unwrap().clone()
    }

    /// SIGKILL, then a new process on the same database (it gets a new port).
    pub fn restart_hard(&mut self) {
        self.child.kill().expect("kill the server");
        self.child.wait().expect("reap the server");
        *self = Server::start_with_log(
            &self.database_url,
            self.grace_seconds,
            self.deploy_seconds,
            self.extra.clone(),
            self.log.clone(),
        );
    }
}

/// Moves the rate limits' clock of a server started with `--frozen-rate-clock` on.
pub async fn advance_rate_clock(base: &str, by: Duration) {
    let r = Client::new(base)
        .post(
            "/test/rate-clock",
            json!({"advance_ms": by.as_millis() as u64}),
        )
        .await;
    assert_eq!(r.status, 200, "advance the rate clock: {}", r.text);
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

// ---------------------------------------------------------------------------------
// A test's world: server, direct database access, and the database itself

pub struct Harness {
    // Fields drop in order: the server and our pool go before the database.
    pub server: Server,
    pool: junqi::db::Pool,
    pub db: TestDb,
}

impl Harness {
    pub fn start(db: TestDb) -> Harness {
        Self::start_with_grace(db, 60)
    }

    pub fn start_with_grace(db: TestDb, grace_seconds: u64) -> Harness {
        Self::start_with(db, grace_seconds, 120)
    }

    /// A server with its escape grace and standard deployment time shortened.
    pub fn start_with(db: TestDb, grace_seconds: u64, deploy_seconds: u64) -> Harness {
        let server = Server::start(&db.url, grace_seconds, deploy_seconds);
        let pool = junqi::db::connect(&db.url, 1).expect("the test opens the database");
        Harness { server, pool, db }
    }

    /// A server started with more flags (`["--open-game-idle-seconds", "2"]`), the
    /// rate limits off as for every test server.
    pub fn start_args(db: TestDb, args: &[&str]) -> Harness {
        let mut flags = vec![NO_RATE_LIMITS];
        flags.extend_from_slice(args);
        Harness::start_with_flags(db, &flags)
    }

    /// A server with these flags (and so with the rate limits on, unless they say
    /// `--no-rate-limits`).
    pub fn start_with_flags(db: TestDb, flags: &[&str]) -> Harness {
        let server = Server::start_with_flags(&db.url, flags);
        let pool = junqi::db::connect(&db.url, 1).expect("the test opens the database");
        Harness { server, pool, db }
    }

    pub fn base(&self) -> String {
        self.server.base()
    }

    pub fn client(&self) -> Client {
        Client::new(&self.base())
    }

    /// A new player, registered and logged in.
    pub async fn player(&self, name: &str) -> Client {
        let mut c = self.client();
        let r = c
            .post(
                "/api/register",
                json!({"username": name, "password": "correct horse"}),
            )
            .await;
        assert_eq!(r.status, 201, "register {name}: {}", r.text);
        c.name = name.to_string();
        c
    }

    /// A connection straight to the test's database, as anyone who can read it has.
    pub fn conn(&self) -> junqi::db::PooledConn {
        self.pool.get().expect("a database connection")
    }

    /// The stored row of a game, read straight from the database.
    pub fn row(&self, id: &str) -> GameRow {
        let mut conn = self.pool.get().expect("a database connection");
        junqi::db::games::get(&mut conn, id)
            .expect("read the game")
            .unwrap_or_else(|| panic!("no game {id} in the database"))
    }

    pub fn log(&self) -> String {
        self.server.log()
    }

    /// A standard game's stored deployment in progress.
    pub fn deployment(&self, id: &str) -> Option<String> {
        let mut conn = self.pool.get().expect("a database connection");
        junqi::db::games::deployment(&mut conn, id).expect("read the deployment")
    }
}

// ---------------------------------------------------------------------------------
// HTTP

/// An HTTP answer: status, and the body as JSON (`Null` when it is not JSON).
#[derive(Debug, Clone)]
pub struct Resp {
    pub status: u16,
    pub json: Value,
    pub text: String,
    /// The Retry-After header, if any.
    pub retry_after: Option<String>,
}

impl Resp {
    /// Asserts the `{"error":{code,message}}` shape, the status and the code.
    pub fn assert_error(&self, status: u16, code: &str) {
        assert_eq!(
            self.status, status,
            "expected {status} {code}, got {}",
            self.text
        );
        assert_eq!(
            self.json["error"]["code"], code,
            "error code in {}",
            self.text
        );
        let message = self.json["error"]["message"].as_str().unwrap_or("");
        assert!(
            !message.is_empty(),
            "an error carries a message: {}",
            self.text
        );
    }
}

impl Resp {
    /// Asserts an error answered as a page of the site (the pages' addresses answer
    /// errors so): the status, HTML, the code.
    pub fn assert_error_page(&self, status: u16, code: &str) {
        assert_eq!(
            self.status, status,
            "expected {status} {code}, got {}",
            self.text
        );
        assert!(self.json.is_null(), "a page, not JSON: {}", self.text);
        for part in [
            "<!doctype html>".to_string(),
            "id=\"error-page\"".to_string(),
            format!("data-status=\"{status}\""),
            format!("data-code=\"{code}\""),
        ] {
            assert!(self.text.contains(&part), "{part} in {}", self.text);
        }
    }
}

/// A browser stand-in: an HTTP client that keeps the session cookie itself.
pub struct Client {
    pub base: String,
    pub cookie: Option<String>,
    pub name: String,
    /// Sent as X-Forwarded-For: the address a server run with `--trust-proxy` sees.
    pub forwarded_for: Option<String>,
    /// A bot's API token, sent as `Authorization: Bearer …` on every request and socket.
    pub bearer: Option<String>,
    /// The device cookie (`junqi_device=…`) a login left, sent with the session's.
    pub device: Option<String>,
    http: awc::Client,
}

/// An HTTP client for the tests. Its idle connections are dropped after 2 s, before the
/// server's 5 s keep-alive closes them: with awc's default of 15 s a request sent on a
/// connection just as the server closed it found the connection gone ("connector has
/// been disconnected"), which a loaded machine made likely. The timeout only catches a
/// server that hangs: 20 s was too short for 200 registrations hashed at once on two
/// cores busy with release builds (the last answer waits for every hash before it).
pub fn http_client() -> awc::Client {
    awc::Client::builder()
        .connector(awc::Connector::new().conn_keep_alive(Duration::from_secs(2)))
        .timeout(Duration::from_secs(90))
        .finish()
}

impl Client {
    pub fn new(base: &str) -> Client {
        Client {
            base: base.to_string(),
            cookie: None,
            name: String::new(),
            forwarded_for: None,
            bearer: None,
            device: None,
            http: http_client(),
        }
    }

    fn take_cookie(&mut self, headers: &awc::http::header::HeaderMap) {
        for v in headers.get_all(header::SET_COOKIE) {
            let Ok(v) = v.to_str() else { continue };
            if let Some(rest) = v.strip_prefix("junqi_device=") {
                let value = rest.split(';').next().unwrap_or("");
                self.device = Some(format!("junqi_device={value}"));
                continue;
            }
            let Some(rest) = v.strip_prefix("junqi_session=") else {
                continue;
            };
            let value = rest.split(';').next().unwrap_or("");
            let expired = v.to_ascii_lowercase().contains("max-age=0");
            self.cookie = (!value.is_empty() && !expired).then(|| format!("junqi_session={value}"));
        }
    }

    async fn send(&mut self, req: awc::ClientRequest, body: Option<(&str, Vec<u8>)>) -> Resp {
        let cookies: Vec<&str> = [&self.cookie, &self.device]
            .into_iter()
            .flatten()
            .map(String::as_str)
            .collect();
        let req = match cookies.is_empty() {
            false => req.insert_header((header::COOKIE, cookies.join("; "))),
            true => req,
        };
        let req = match &self.forwarded_for {
            Some(ip) => req.insert_header(("x-forwarded-for", ip.clone())),
            None => req,
        };
        let req = match &self.bearer {
            Some(t) => req.insert_header((header::AUTHORIZATION, format!("Bearer {t}"))),
            None => req,
        };
        let what = format!("{} {}", req.get_method(), req.get_uri());
        let sent = match body {
            Some((ct, bytes)) => {
                req.insert_header((header::CONTENT_TYPE, ct.to_string()))
                    .send_body(bytes)
                    .await
            }
            None => req.send().await,
        };
        let mut resp = sent.unwrap_or_else(|e| panic!("{what}: {e}"));
        self.take_cookie(resp.headers());
        let retry_after = resp
            .headers()
            .get(header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let bytes = resp
            .body()
            .limit(4 << 20)
            .await
            .unwrap_or_else(|e| panic!("{what}: body: {e}"));
        let text = String::from_utf8_lossy(&bytes).into_owned();
        Resp {
            status: resp.status().as_u16(),
            json: serde_json::from_str(&text).unwrap_or(Value::Null),
            text,
            retry_after,
        }
    }

    pub async fn get(&mut self, path: &str) -> Resp {
        let req = self.http.get(format!("{}{path}", self.base));
        self.send(req, None).await
    }

    pub async fn post(&mut self, path: &str, body: Value) -> Resp {
        let req = self.http.post(format!("{}{path}", self.base));
        self.send(
            req,
            Some(("application/json", body.to_string().into_bytes())),
        )
        .await
    }

    pub async fn delete(&mut self, path: &str) -> Resp {
        let req = self.http.delete(format!("{}{path}", self.base));
        self.send(req, None).await
    }

    pub async fn post_empty(&mut self, path: &str) -> Resp {
        let req = self.http.post(format!("{}{path}", self.base));
        self.send(req, None).await
    }

    pub async fn post_raw(&mut self, path: &str, content_type: &str, body: Vec<u8>) -> Resp {
        let req = self.http.post(format!("{}{path}", self.base));
        self.send(req, Some((content_type, body))).await
    }

    /// Opens a game and returns its id.
    pub async fn create_game(&mut self, seconds_per_action: u32, rated: bool) -> String {
        let r = self
            .post(
                "/api/games",
                json!({"variant": "flip", "seconds_per_action": seconds_per_action, "rated": rated}),
            )
            .await;
        assert_eq!(r.status, 201, "create a game: {}", r.text);
        r.json["id"].as_str().expect("a game id").to_string()
    }

    pub async fn join(&mut self, id: &str) {
        let r = self.post_empty(&format!("/api/games/{id}/join")).await;
        assert_eq!(r.status, 200, "join {id}: {}", r.text);
    }

    pub async fn summary(&mut self, id: &str) -> Value {
        let r = self.get(&format!("/api/games/{id}")).await;
        assert_eq!(r.status, 200, "summary of {id}: {}", r.text);
        r.json
    }

    pub async fn record(&mut self, id: &str) -> Value {
        let r = self.get(&format!("/api/games/{id}/record")).await;
        assert_eq!(r.status, 200, "record of {id}: {}", r.text);
        r.json
    }

    pub async fn player(&mut self, name: &str) -> Value {
        let r = self.get(&format!("/api/players/{name}")).await;
        assert_eq!(r.status, 200, "player {name}: {}", r.text);
        r.json
    }

    /// A socket on `path` (e.g. `/ws/game/ID?v=3`) carrying this client's cookie (or
    /// its bot token).
    pub async fn socket(&self, path: &str) -> Socket {
        self.try_socket(path)
            .await
            .unwrap_or_else(|e| panic!("connect {path}: {e}"))
    }

    pub async fn try_socket(&self, path: &str) -> Result<Socket, awc::error::WsClientError> {
        let mut headers = Vec::new();
        if let Some(c) = &self.cookie {
            headers.push((header::COOKIE, c.clone()));
        }
        if let Some(t) = &self.bearer {
            headers.push((header::AUTHORIZATION, format!("Bearer {t}")));
        }
        Socket::connect_with(&self.base, path, &headers).await
    }

    pub async fn game_socket(&self, id: &str) -> Socket {
        self.socket(&format!("/ws/game/{id}")).await
    }
}

// ---------------------------------------------------------------------------------
// WebSockets

/// What came in on a socket.
#[derive(Debug)]
pub enum Incoming {
    Json(Value),
    Closed(Option<ws::CloseReason>),
    Timeout,
}

/// The client half of a WebSocket, without naming `actix_codec::Framed`.
trait WsConn:
    futures_util::Sink<ws::Message, Error = awc::error::WsProtocolError>
    + futures_util::Stream<Item = Result<ws::Frame, awc::error::WsProtocolError>>
    + Unpin
{
}

impl<T> WsConn for T where
    T: futures_util::Sink<ws::Message, Error = awc::error::WsProtocolError>
        + futures_util::Stream<Item = Result<ws::Frame, awc::error::WsProtocolError>>
        + Unpin
{
}

pub struct Socket {
    framed: Box<dyn WsConn>,
    /// Every JSON message received, in order, whoever consumed it.
    pub received: Vec<Value>,
    pending: VecDeque<Value>,
    next_ack: u64,
    sent: VecDeque<Instant>,
    pub closed: bool,
}

impl Socket {
    pub async fn connect(
        base: &str,
        path: &str,
        cookie: Option<&str>,
        origin: Option<&str>,
    ) -> Result<Socket, awc::error::WsClientError> {
        let mut headers = Vec::new();
        if let Some(c) = cookie {
            headers.push((header::COOKIE, c.to_string()));
        }
        if let Some(o) = origin {
            headers.push((header::ORIGIN, o.to_string()));
        }
        Socket::connect_with(base, path, &headers).await
    }

    /// A socket on `path` with these request headers.
    pub async fn connect_with(
        base: &str,
        path: &str,
        headers: &[(header::HeaderName, String)],
    ) -> Result<Socket, awc::error::WsClientError> {
        let client = awc::Client::builder()
            .timeout(Duration::from_secs(20))
            .finish();
        let mut req = client.ws(format!("{base}{path}")).max_frame_size(1 << 20);
        for (name, value) in headers {
            req = if *name == header::ORIGIN {
                req.origin(value.clone())
            } else {
                req.header(name.clone(), value.clone())
            };
        }
        let (_, framed) = req.connect().await?;
        Ok(Socket {
            framed: Box::new(framed),
            received: Vec::new(),
            pending: VecDeque::new(),
            next_ack: 1,
            sent: VecDeque::new(),
            closed: false,
        })
    }

    /// Sends a text frame, keeping under the server's budget of 100 messages in 20 s.
    pub async fn send_text(&mut self, text: String) {
        let window = Duration::from_secs(20);
        while self.sent.front().is_some_and(|t| t.elapsed() >= window) {
            self.sent.pop_front();
        }
        if self.sent.len() >= 95 {
            let wait = window.saturating_sub(self.sent[0].elapsed()) + Duration::from_millis(50);
            actix_web::rt::time::sleep(wait).await;
            self.sent.pop_front();
        }
        self.sent.push_back(Instant::now());
        self.send_unlimited(text).await;
    }

    /// Sends a text frame at once, whatever the server's budget.
    pub async fn send_unlimited(&mut self, text: String) {
        self.framed
            .send(ws::Message::Text(text.into()))
            .await
            .expect("send a text frame");
    }

    pub async fn send(&mut self, v: Value) {
        self.send_text(v.to_string()).await;
    }

    /// The next thing off the wire within `within`.
    pub async fn incoming(&mut self, within: Duration) -> Incoming {
        if let Some(v) = self.pending.pop_front() {
            return Incoming::Json(v);
        }
        if self.closed {
            return Incoming::Closed(None);
        }
        let deadline = Instant::now() + within;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let frame = match actix_web::rt::time::timeout(left, self.framed.next()).await {
                Err(_) => return Incoming::Timeout,
                Ok(f) => f,
            };
            match frame {
                Some(Ok(ws::Frame::Text(bytes))) => {
                    let v: Value = serde_json::from_slice(&bytes).unwrap_or_else(|e| {
                        panic!(
                            "the server sent non-JSON text {:?}: {e}",
                            String::from_utf8_lossy(&bytes)
                        )
                    });
                    self.received.push(v.clone());
                    return Incoming::Json(v);
                }
                Some(Ok(ws::Frame::Ping(b))) => {
                    let _ = self.framed.send(ws::Message::Pong(b)).await;
                }
                Some(Ok(ws::Frame::Close(reason))) => {
                    self.closed = true;
                    return Incoming::Closed(reason);
                }
                Some(Ok(_)) => {}
                Some(Err(e)) => {
                    // A server killed under us resets the connection.
                    eprintln!("socket error: {e}");
                    self.closed = true;
                    return Incoming::Closed(None);
                }
                None => {
                    self.closed = true;
                    return Incoming::Closed(None);
                }
            }
        }
    }

    /// The next JSON message; fails the test after `WAIT` or on a close.
    pub async fn recv(&mut self) -> Value {
        match self.incoming(WAIT).await {
            Incoming::Json(v) => v,
            other => panic!(
                "expected a message, got {other:?}; so far: {:#?}",
                self.tail()
            ),
        }
    }

    /// The next message, or `None` when nothing comes within `within`.
    pub async fn maybe(&mut self, within: Duration) -> Option<Value> {
        match self.incoming(within).await {
            Incoming::Json(v) => Some(v),
            Incoming::Timeout => None,
            Incoming::Closed(r) => panic!("the socket closed ({r:?})"),
        }
    }

    fn tail(&self) -> &[Value] {
        &self.received[self.received.len().saturating_sub(5)..]
    }

    /// Reads until a message matches; the others are skipped (they stay in `received`).
    pub async fn wait_for(&mut self, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + WAIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.incoming(left).await {
                Incoming::Json(v) if pred(&v) => return v,
                Incoming::Json(_) => {}
                other => panic!(
                    "waiting for {what}: {other:?}; last messages: {:#?}",
                    self.tail()
                ),
            }
        }
    }

    pub async fn wait_state(&mut self) -> Value {
        self.wait_for("a state", |v| v["t"] == "state").await
    }

    pub async fn wait_event(&mut self, kind: &str) -> Value {
        self.wait_for(&format!("a {kind} event"), |v| {
            v["t"] == "event" && v["d"]["kind"] == kind
        })
        .await
    }

    /// Sends `{"t","d","a"}` with a fresh ack id and waits for its `ack` (Ok with the
    /// version) or `error` (Err with the error's `d`). Other messages are skipped.
    pub async fn act(&mut self, t: &str, d: Value) -> Result<u64, Value> {
        let a = self.next_ack;
        self.next_ack += 1;
        let mut msg = json!({"t": t, "a": a});
        if !d.is_null() {
            msg["d"] = d;
        }
        self.send(msg).await;
        self.answer(a).await
    }

    /// Waits for the `ack` or `error` carrying ack id `a`.
    pub async fn answer(&mut self, a: u64) -> Result<u64, Value> {
        let v = self
            .wait_for(&format!("the answer to ack {a}"), |v| {
                (v["t"] == "ack" || v["t"] == "error") && v["a"] == a
            })
            .await;
        if v["t"] == "ack" {
            Ok(v["v"].as_u64().expect("an ack carries a version"))
        } else {
            Err(v["d"].clone())
        }
    }

    /// Like `act`, expecting an error with `code`; returns its message.
    pub async fn act_err(&mut self, t: &str, d: Value, code: &str) -> String {
        match self.act(t, d.clone()).await {
            Ok(v) => panic!("{t} {d} was accepted (version {v}); expected error {code}"),
            Err(e) => {
                assert_eq!(e["code"], code, "{t} {d}: {e}");
                let m = e["message"].as_str().unwrap_or("").to_string();
                assert!(!m.is_empty(), "error {code} carries a message");
                m
            }
        }
    }

    /// Everything that arrives until nothing has come for `quiet`.
    pub async fn drain(&mut self, quiet: Duration) -> Vec<Value> {
        let mut out = Vec::new();
        loop {
            match self.incoming(quiet).await {
                Incoming::Json(v) => out.push(v),
                _ => return out,
            }
        }
    }

    /// Everything the game's task had queued for this socket before it read a command
    /// sent now; returns those messages (they stay in `received` too).
    ///
    /// The barrier is a move from a1 to a1: the task refuses it from anyone, in any
    /// state of any game (not a player, not started, deploying, over, or simply not a
    /// legal move), and a refusal changes nothing. The task handles commands one at a
    /// time and queues each socket's frames in order, so its refusal comes after every
    /// frame it sent this socket before. (A `ping` would not do: the socket answers it
    /// itself, without asking the task.) Use it instead of waiting a fixed time, both to
    /// collect what a command already handled has sent and to show that nothing else was
    /// sent. What a timer or another task (the computer, the lobby) may send later is
    /// not covered. The barrier's own refusal is not kept in `received`.
    pub async fn barrier(&mut self) -> Vec<Value> {
        let start = self.received.len();
        let a = self.next_ack;
        self.next_ack += 1;
        self.send(json!({"t": "move", "d": {"from": "a1", "to": "a1"}, "a": a}))
            .await;
        let refusal = self
            .wait_for("the barrier's refusal", |v| v["a"] == a)
            .await;
        assert_eq!(refusal["t"], "error", "the barrier was refused: {refusal}");
        assert_ne!(
            refusal["d"]["code"], "bad_message",
            "the barrier reached the game's task: {refusal}"
        );
        self.received.pop();
        self.received[start..].to_vec()
    }

    /// Waits until this socket has been told of version `v`: an event at `v` or later,
    /// or a state at `v` or later. Returns at once when it already has.
    /// The newest 四国 table message this socket has (its `d`), after everything the
    /// table's task had queued for it.
    pub async fn newest_table(&mut self) -> Value {
        self.barrier().await;
        self.received
            .iter()
            .rev()
            .find(|m| m["t"] == "table")
            .expect("a table")["d"]
            .clone()
    }

    pub async fn wait_version(&mut self, v: u64) {
        let seen = |m: &Value| {
            (m["t"] == "event" || m["t"] == "state") && m["v"].as_u64().is_some_and(|x| x >= v)
        };
        if !self.received.iter().any(seen) {
            self.wait_for(&format!("version {v}"), seen).await;
        }
    }

    /// The event at version `v`, whether it already came (and was skipped by an earlier
    /// wait) or is still to come.
    pub async fn event_at(&mut self, v: u64) -> Value {
        let at = |m: &Value| m["t"] == "event" && m["v"] == v;
        match self.received.iter().find(|m| at(m)) {
            Some(m) => m.clone(),
            None => {
                self.wait_for(&format!("the event at version {v}"), at)
                    .await
            }
        }
    }

    /// Everything still to come on a socket whose server is gone (killed or
    /// restarted), up to its close; fails the test after `WAIT`.
    pub async fn until_closed(&mut self) -> Vec<Value> {
        let mut out = Vec::new();
        let deadline = Instant::now() + WAIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.incoming(left).await {
                Incoming::Json(v) => out.push(v),
                Incoming::Closed(_) => return out,
                Incoming::Timeout => {
                    panic!("the socket stayed open; last messages: {:#?}", self.tail())
                }
            }
        }
    }

    pub async fn close(mut self) {
        let _ = self.framed.send(ws::Message::Close(None)).await;
        // Wait for the server's close so that it has seen us go.
        let _ = actix_web::rt::time::timeout(Duration::from_secs(2), async {
            while let Some(Ok(f)) = self.framed.next().await {
                if matches!(f, ws::Frame::Close(_)) {
                    break;
                }
            }
        })
        .await;
    }
}

// ---------------------------------------------------------------------------------
// A game between two players, mirrored locally

pub fn action_message(action: Action) -> (&'static str, Value) {
    match action {
        Action::Flip(at) => ("flip", json!({"at": at})),
        Action::Move { from, to } => ("move", json!({"from": from, "to": to})),
        Action::Resign => ("resign", Value::Null),
        Action::OfferDraw => ("offer_draw", Value::Null),
        Action::AcceptDraw => ("accept_draw", Value::Null),
        Action::DeclineDraw => ("decline_draw", Value::Null),
        other => panic!("{other:?} is not sent by clients"),
    }
}

pub struct Seated {
    pub client: Client,
    pub socket: Socket,
}

pub struct Table {
    pub id: String,
    /// By seat index: south, north.
    pub seats: Vec<Seated>,
    /// The game as the server must have it, built from the true deal.
    pub game: Game,
    pub deal: Deal,
    pub row: GameRow,
    /// Events so far (the version the server must be at).
    pub version: u64,
}

impl Table {
    /// `a` opens a game and `b` joins it. Both connect their sockets first, so that
    /// even a 1-second clock cannot act before they listen.
    pub async fn open(h: &Harness, mut a: Client, mut b: Client, spa: u32, rated: bool) -> Table {
        let id = a.create_game(spa, rated).await;
        let mut sa = a.game_socket(&id).await;
        let mut sb = b.game_socket(&id).await;
        for s in [&mut sa, &mut sb] {
            let st = s.wait_state().await;
            assert_eq!(st["d"]["game"]["status"], "open", "{st}");
        }
        b.join(&id).await;
        for s in [&mut sa, &mut sb] {
            let st = s
                .wait_for("the state of the started game", |v| {
                    v["t"] == "state" && v["d"]["game"]["status"] == "running"
                })
                .await;
            assert_eq!(st["v"], 0, "a new game is at version 0: {st}");
        }
        Table::build(h, &id, (a, sa), (b, sb)).await
    }

    /// Sits `a` and `b` at running game `id` (in whichever seats they have) and
    /// connects their sockets.
    pub async fn seat(h: &Harness, id: &str, a: Client, b: Client) -> Table {
        let mut sockets = Vec::new();
        for c in [&a, &b] {
            let mut s = c.game_socket(id).await;
            let st = s.wait_state().await;
            assert_eq!(st["v"], 0, "a new game is at version 0: {st}");
            assert_eq!(st["d"]["game"]["status"], "running", "{st}");
            sockets.push(s);
        }
        let sb = sockets.pop().unwrap();
        let sa = sockets.pop().unwrap();
        Table::build(h, id, (a, sa), (b, sb)).await
    }

    async fn build(h: &Harness, id: &str, a: (Client, Socket), mut b: (Client, Socket)) -> Table {
        let summary = b.0.summary(id).await;
        assert_eq!(summary["status"], "running", "{summary}");
        let south = summary["players"]["south"]["username"].as_str().unwrap();
        let (south, north) = if south == a.0.name { (a, b) } else { (b, a) };
        assert_eq!(
            summary["players"]["south"]["username"],
            south.0.name.as_str()
        );
        assert_eq!(
            summary["players"]["north"]["username"],
            north.0.name.as_str()
        );
        let row = h.row(id);
        let deal = parse_deal(&serde_json::from_str(row.deal.as_deref().unwrap()).unwrap())
            .expect("the stored deal parses");
        let first = match row.first_seat.as_deref() {
            Some("south") => Seat::South,
            Some("north") => Seat::North,
            other => panic!("first seat {other:?}"),
        };
        let options: Options = serde_json::from_str(&row.options).unwrap();
        let game = Game::new_flip(options, &deal, first);
        let seats = [south, north]
            .into_iter()
            .map(|(client, socket)| Seated { client, socket })
            .collect();
        Table {
            id: id.to_string(),
            seats,
            game,
            deal,
            row,
            version: 0,
        }
    }

    /// Both seats ask for a rematch; returns the new game's table (same two players).
    pub async fn rematch(mut self, h: &Harness) -> Table {
        assert!(self.game.is_over(), "a rematch comes after the end");
        for seat in Seat::BOTH {
            let v = self
                .socket(seat)
                .act("rematch", Value::Null)
                .await
                .unwrap_or_else(|e| panic!("rematch refused: {e}"));
            self.version += 1;
            assert_eq!(v, self.version, "the rematch offer is an event");
        }
        let ev = self.socket(Seat::South).wait_event("rematch").await;
        assert_eq!(ev["v"], self.version + 1, "{ev}");
        let next = ev["d"]["next"]
            .as_str()
            .expect("the rematch names the new game")
            .to_string();
        let mut seats = self.seats.into_iter();
        let (a, b) = (seats.next().unwrap(), seats.next().unwrap());
        drop(a.socket);
        drop(b.socket);
        Table::seat(h, &next, a.client, b.client).await
    }

    pub fn seated(&mut self, seat: Seat) -> &mut Seated {
        &mut self.seats[seat.index()]
    }

    pub fn socket(&mut self, seat: Seat) -> &mut Socket {
        &mut self.seats[seat.index()].socket
    }

    pub fn client(&mut self, seat: Seat) -> &mut Client {
        &mut self.seats[seat.index()].client
    }

    pub fn seat_of(&self, name: &str) -> Seat {
        if self.seats[0].client.name == name {
            Seat::South
        } else {
            Seat::North
        }
    }

    /// `seat` plays `action` over its socket; the server must acknowledge it at the next
    /// version. The mirror follows.
    pub async fn play(&mut self, seat: Seat, action: Action) -> u64 {
        let (t, d) = action_message(action);
        let v = self
            .socket(seat)
            .act(t, d.clone())
            .await
            .unwrap_or_else(|e| panic!("{seat:?} {t} {d} refused: {e}"));
        self.game
            .apply(seat, action, None)
            .unwrap_or_else(|e| panic!("the mirror refuses what the server took: {e}"));
        self.version += 1;
        assert_eq!(v, self.version, "{t} {d} acknowledged at version {v}");
        v
    }

    /// Like `play`, but a refusal is returned (and the mirror left as it was) rather than
    /// failing the test.
    pub async fn try_play(&mut self, seat: Seat, action: Action) -> Result<u64, Value> {
        let (t, d) = action_message(action);
        let v = self.socket(seat).act(t, d).await?;
        self.game
            .apply(seat, action, None)
            .unwrap_or_else(|e| panic!("the mirror refuses what the server took: {e}"));
        self.version += 1;
        assert_eq!(v, self.version, "{action:?} acknowledged at version {v}");
        Ok(v)
    }

    /// The seat to move plays `action`.
    pub async fn step(&mut self, action: Action) -> u64 {
        self.play(self.game.to_move(), action).await
    }

    /// `n` harmless steps (quiet moves, else flips), never ending the game.
    pub async fn harmless_steps(&mut self, n: u32, rng: &mut policy::Rng) {
        for _ in 0..n {
            let a = policy::harmless(&self.game, rng, false).expect("a harmless step exists");
            self.step(a).await;
        }
    }

    /// The server applied a step the mirror must follow (a timeout).
    pub fn follow(&mut self, seat: Seat, action: Action) {
        self.game
            .apply(seat, action, None)
            .expect("the mirror follows");
        self.version += 1;
    }

    pub async fn summary(&mut self) -> Value {
        let id = self.id.clone();
        self.seats[0].client.summary(&id).await
    }

    pub async fn record(&mut self) -> Value {
        let id = self.id.clone();
        self.seats[0].client.record(&id).await
    }
}

/// Replays a finished game's record with the rules library and checks that the
/// summary's result, reason and score are what the rules give. Returns the replay.
pub fn check_against_rules(summary: &Value, record: &Value) -> junqi::record::Verdict {
    let rec =
        Record::from_json(record).unwrap_or_else(|e| panic!("the record parses: {e}\n{record}"));
    let verdict = rec
        .verify()
        .unwrap_or_else(|e| panic!("the record verifies: {e}"));
    assert!(verdict.commitment_checked, "the commitment is checked");
    let outcome = verdict.game.outcome().expect("the replay ends");
    assert_eq!(
        summary["result"],
        junqi::record::result_name(outcome),
        "{summary}"
    );
    assert_eq!(summary["reason"], outcome.reason.name(), "{summary}");
    let score = verdict.score.expect("a finished game has a score");
    assert_eq!(
        summary["score"],
        json!({"south": score[0], "north": score[1]}),
        "score per the rules at base {}",
        rec.base
    );
    assert_eq!(summary["steps"], verdict.game.steps(), "{summary}");
    verdict
}
