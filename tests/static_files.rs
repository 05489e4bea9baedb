//! The files of `static/` over HTTP, from the real binary: every file under its plain
//! name (short cache) and under its content-hashed name (a year, immutable) with the
//! file's exact bytes; another hash is not found; the pages link the hashed names and
//! carry an import map of every module; text goes out compressed to clients that ask.

mod support;

use awc::http::header;
use sha2::{Digest, Sha256};
use std::path::Path;
use support::{Backend, Harness, TestDb};

/// Every file below `static/`, as `a/b.js`, with its bytes (hidden files left out, as
/// build.rs does).
fn static_files() -> Vec<(String, Vec<u8>)> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<(String, Vec<u8>)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.file_name().unwrap().to_string_lossy().starts_with('.') {
                continue;
            }
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let rel = path.strip_prefix(root).unwrap().to_string_lossy();
                out.push((rel.replace('\\', "/"), std::fs::read(&path).unwrap()));
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("static");
    let mut out = Vec::new();
    walk(&root, &root, &mut out);
    out.sort();
    out
}

/// `js/board.js` → `js/board.<first 8 hex of SHA-256>.js`, computed here on its own.
fn hashed_name(name: &str, body: &[u8]) -> String {
    let hash = Sha256::digest(body);
    let hex: String = hash[..4].iter().map(|b| format!("{b:02x}")).collect();
    let (stem, ext) = name.rsplit_once('.').unwrap();
    format!("{stem}.{hex}.{ext}")
}

struct Got {
    status: u16,
    cache: String,
    content_type: String,
    encoding: String,
    body: Vec<u8>,
}

/// A GET that leaves the body as sent (no decompression by the client).
async fn get(base: &str, path: &str, accept_encoding: Option<&str>) -> Got {
    fetch(base, path, accept_encoding, false).await
}

/// A GET, its body decoded by the client (awc) when `decode` and the server compressed it.
async fn fetch(base: &str, path: &str, accept_encoding: Option<&str>, decode: bool) -> Got {
    let client = awc::Client::builder().disable_redirects().finish();
    let mut req = client.get(format!("{base}{path}"));
    if !decode {
        req = req.no_decompress();
    }
    if let Some(enc) = accept_encoding {
        req = req.insert_header((header::ACCEPT_ENCODING, enc));
    } else {
        req = req.insert_header((header::ACCEPT_ENCODING, "identity"));
    }
    let mut resp = req
        .send()
        .await
        .unwrap_or_else(|e| panic!("GET {path}: {e}"));
    let h = |name: header::HeaderName| {
        resp.headers()
            .get(name)
            .map(|v| v.to_str().unwrap().to_string())
            .unwrap_or_default()
    };
    let (cache, content_type, encoding) = (
        h(header::CACHE_CONTROL),
        h(header::CONTENT_TYPE),
        h(header::CONTENT_ENCODING),
    );
    let body = resp.body().limit(8 << 20).await.unwrap().to_vec();
    Got {
        status: resp.status().as_u16(),
        cache,
        content_type,
        encoding,
        body,
    }
}

fn harness() -> Harness {
    Harness::start(TestDb::new(Backend::Sqlite).unwrap())
}

#[actix_web::test]
async fn every_file_is_served_by_its_plain_and_its_hashed_name() {
    let h = harness();
    let base = h.base();
    let files = static_files();
    assert!(files.iter().any(|(n, _)| n == "favicon.svg"));
    for (name, body) in &files {
        let plain = get(&base, &format!("/static/{name}"), None).await;
        assert_eq!(plain.status, 200, "/static/{name}");
        assert_eq!(&plain.body, body, "/static/{name}");
        assert_eq!(plain.cache, "public, max-age=300", "/static/{name}");
        assert!(!plain.content_type.is_empty(), "/static/{name}");
        assert_eq!(plain.encoding, "", "/static/{name}: asked for identity");

        let hashed = format!("/static/{}", hashed_name(name, body));
        let got = get(&base, &hashed, None).await;
        assert_eq!(got.status, 200, "{hashed}");
        assert_eq!(&got.body, body, "{hashed}");
        assert_eq!(got.cache, "public, max-age=31536000, immutable", "{hashed}");
        assert_eq!(got.content_type, plain.content_type, "{hashed}");
    }
}

#[actix_web::test]
async fn a_wrong_hash_or_an_unknown_file_is_not_found() {
    let h = harness();
    let base = h.base();
    let (name, body) = &static_files()[0];
    let right = hashed_name(name, body);
    let (stem, ext) = name.rsplit_once('.').unwrap();
    let wrong = format!("{stem}.00000000.{ext}");
    assert_ne!(right, wrong);
    for path in [
        format!("/static/{wrong}"),
        format!("/static/{stem}.{ext}.{ext}"),
        "/static/no-such-file.js".to_string(),
        "/static/../Cargo.toml".to_string(),
        "/static/%2e%2e/Cargo.toml".to_string(),
        "/static/".to_string(),
    ] {
        assert_eq!(get(&base, &path, None).await.status, 404, "{path}");
    }
}

#[actix_web::test]
async fn pages_link_hashed_files_and_map_every_module() {
    let h = harness();
    let base = h.base();
    let files = static_files();
    for page in ["/", "/rules", "/games", "/ladder", "/login", "/register"] {
        let got = get(&base, page, None).await;
        assert_eq!(got.status, 200, "{page}");
        let html = String::from_utf8(got.body).unwrap();

        // The import map: first script of the page, every module mapped to its hash.
        let open = "<script type=\"importmap\">";
        let at = html
            .find(open)
            .unwrap_or_else(|| panic!("{page}: no import map"));
        let first_script = html.find("<script").unwrap();
        assert_eq!(
            at, first_script,
            "{page}: the import map comes before any script"
        );
        let json = &html[at + open.len()..];
        let json = &json[..json.find("</script>").unwrap()];
        let map: serde_json::Value = serde_json::from_str(json).unwrap();
        let imports = map["imports"].as_object().unwrap();
        let modules: Vec<_> = files.iter().filter(|(n, _)| n.ends_with(".js")).collect();
        assert_eq!(imports.len(), modules.len(), "{page}: {json}");
        for (name, body) in modules {
            assert_eq!(
                imports[&format!("/static/{name}")],
                format!("/static/{}", hashed_name(name, body)),
                "{page}"
            );
        }

        // Every static reference in the page outside the map is a hashed name.
        for (i, _) in html.match_indices("=\"/static/") {
            let url = &html[i + 2..];
            let url = &url[..url.find('"').unwrap()];
            let name = url.strip_prefix("/static/").unwrap();
            let file = files.iter().find(|(n, b)| hashed_name(n, b) == name);
            assert!(file.is_some(), "{page}: {url} is not a hashed file name");
        }
        for css in ["style.css", "pages.css", "favicon.svg"] {
            let (n, b) = files.iter().find(|(n, _)| n == css).unwrap();
            let url = format!("\"/static/{}\"", hashed_name(n, b));
            assert!(html.contains(&url), "{page} links {url}");
        }
    }
}

#[actix_web::test]
async fn text_is_compressed_for_clients_that_accept_it() {
    let h = harness();
    let base = h.base();
    let files = static_files();
    // The largest script, by its plain and its hashed name.
    let (name, body) = files
        .iter()
        .filter(|(n, _)| n.ends_with(".js"))
        .max_by_key(|(_, b)| b.len())
        .unwrap();
    let hashed = format!("/static/{}", hashed_name(name, body));
    for path in [format!("/static/{name}"), hashed] {
        for enc in ["gzip", "br", "zstd"] {
            let raw = get(&base, &path, Some(enc)).await;
            assert_eq!(raw.status, 200, "{path} {enc}");
            assert_eq!(raw.encoding, enc, "{path} with Accept-Encoding: {enc}");
            assert!(
                raw.body.len() < body.len() / 2,
                "{path} {enc}: {} bytes of {}",
                raw.body.len(),
                body.len()
            );
            let decoded = fetch(&base, &path, Some(enc), true).await;
            assert_eq!(&decoded.body, body, "{path} {enc} decodes to the file");
        }
    }

    // Pages, CSS and JSON too.
    for path in ["/rules", "/static/style.css", "/api/ladder"] {
        let raw = get(&base, path, Some("gzip, deflate, br")).await;
        assert_eq!(raw.status, 200, "{path}");
        assert_eq!(raw.encoding, "br", "{path}");
        let identity = get(&base, path, None).await;
        assert_eq!(identity.encoding, "", "{path}");
        let decoded = fetch(&base, path, Some("gzip"), true).await;
        assert_eq!(decoded.body, identity.body, "{path}");
    }
}

#[actix_web::test]
async fn a_socket_upgrade_asked_with_accept_encoding_still_opens() {
    use futures_util::StreamExt as _;
    let h = harness();
    // As a browser asks: it sends Accept-Encoding on the upgrade request too.
    let client = awc::Client::new();
    let (resp, mut framed) = client
        .ws(format!("{}/ws/lobby", h.base()))
        .header(header::ACCEPT_ENCODING, "gzip, deflate, br, zstd")
        .connect()
        .await
        .expect("the upgrade succeeds");
    assert_eq!(resp.status().as_u16(), 101);
    assert!(resp.headers().get(header::CONTENT_ENCODING).is_none());
    let frame = tokio::time::timeout(support::WAIT, framed.next())
        .await
        .expect("a first message in time")
        .expect("a frame")
        .expect("a valid frame");
    let awc::ws::Frame::Text(text) = frame else {
        panic!("expected text, got {frame:?}");
    };
    let msg: serde_json::Value = serde_json::from_slice(&text).unwrap();
    assert_eq!(msg["t"], "lobby", "{msg}");
}
