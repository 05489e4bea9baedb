//! The files of `static/` over HTTP, from the real binary: every file under its plain
//! name (short cache) and under its content-hashed name (a year, immutable) with the
//! file's exact bytes; another hash is not found; the pages link the hashed names and
//! carry an import map of every module; text goes out compressed to clients that ask,
//! from copies compressed at build time at least as tightly as `gzip -9`, with a weak
//! ETag that a revalidation matches.

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
    vary: String,
    etag: String,
    body: Vec<u8>,
}

/// A GET that leaves the body as sent (no decompression by the client).
async fn get(base: &str, path: &str, accept_encoding: Option<&str>) -> Got {
    fetch(base, path, accept_encoding, false).await
}

/// A GET, its body decoded by the client (awc) when `decode` and the server compressed it.
async fn fetch(base: &str, path: &str, accept_encoding: Option<&str>, decode: bool) -> Got {
    let enc = accept_encoding.unwrap_or("identity");
    request(base, path, &[(header::ACCEPT_ENCODING, enc)], decode).await
}

/// A GET with exactly these headers (awc adds an Accept-Encoding of its own only when
/// it is to decode the answer).
async fn request(
    base: &str,
    path: &str,
    headers: &[(header::HeaderName, &str)],
    decode: bool,
) -> Got {
    let client = awc::Client::builder().disable_redirects().finish();
    let mut req = client.get(format!("{base}{path}"));
    if !decode {
        req = req.no_decompress();
    }
    for (name, value) in headers {
        req = req.insert_header((name.clone(), *value));
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
    let (cache, content_type, encoding, etag) = (
        h(header::CACHE_CONTROL),
        h(header::CONTENT_TYPE),
        h(header::CONTENT_ENCODING),
        h(header::ETAG),
    );
    let vary: Vec<&str> = resp
        .headers()
        .get_all(header::VARY)
        .map(|v| v.to_str().unwrap())
        .collect();
    let vary = vary.join(", ");
    let body = resp.body().limit(8 << 20).await.unwrap().to_vec();
    Got {
        status: resp.status().as_u16(),
        cache,
        content_type,
        encoding,
        vary,
        etag,
        body,
    }
}

/// The size of `gzip -9` of the bytes, by the system's gzip: the yardstick for the
/// compressed copies the service sends.
fn gzip_9_len(body: &[u8]) -> usize {
    use std::io::Write as _;
    use std::process::{Command, Stdio};
    let mut child = Command::new("gzip")
        .args(["-9", "-n", "-c"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run gzip");
    let mut stdin = child.stdin.take().unwrap();
    let input = body.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input).unwrap());
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(out.status.success(), "gzip -9 failed");
    out.stdout.len()
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
        assert_eq!(plain.vary, "Accept-Encoding", "/static/{name}");
        assert!(
            plain.etag.starts_with("W/\""),
            "/static/{name}: {}",
            plain.etag
        );

        let hashed = format!("/static/{}", hashed_name(name, body));
        let got = get(&base, &hashed, None).await;
        assert_eq!(got.status, 200, "{hashed}");
        assert_eq!(&got.body, body, "{hashed}");
        assert_eq!(got.cache, "public, max-age=31536000, immutable", "{hashed}");
        assert_eq!(got.content_type, plain.content_type, "{hashed}");
        assert_eq!(got.etag, plain.etag, "{hashed}");
    }
}

#[actix_web::test]
async fn text_files_go_out_compressed_at_build_time_no_larger_than_gzip_9() {
    let h = harness();
    let base = h.base();
    let text: Vec<_> = static_files()
        .into_iter()
        .filter(|(n, _)| [".js", ".css", ".svg"].iter().any(|ext| n.ends_with(ext)))
        .collect();
    assert!(text.iter().any(|(n, _)| n == "js/game/main.js"));
    for (name, body) in &text {
        let path = format!("/static/{}", hashed_name(name, body));
        let yardstick = gzip_9_len(body);
        let identity = get(&base, &path, None).await;
        assert_eq!(identity.encoding, "", "{path}");
        assert_eq!(&identity.body, body, "{path}");
        let mut sizes = Vec::new();
        for enc in ["br", "gzip"] {
            let raw = get(&base, &path, Some(enc)).await;
            assert_eq!(raw.status, 200, "{path} {enc}");
            assert_eq!(raw.encoding, enc, "{path} {enc}");
            // One Vary: the answer was not compressed again by the middleware.
            assert_eq!(raw.vary, "Accept-Encoding", "{path} {enc}");
            assert_eq!(raw.cache, "public, max-age=31536000, immutable", "{path}");
            assert_eq!(raw.content_type, identity.content_type, "{path} {enc}");
            assert_eq!(
                raw.etag, identity.etag,
                "{path} {enc}: one content, one ETag"
            );
            assert!(
                raw.body.len() <= yardstick,
                "{path} {enc}: {} bytes, gzip -9 makes {yardstick}",
                raw.body.len()
            );
            let decoded = fetch(&base, &path, Some(enc), true).await;
            assert_eq!(&decoded.body, body, "{path} {enc} decodes to the file");
            sizes.push(raw.body.len());
        }
        assert!(sizes[0] < sizes[1], "{path}: brotli {sizes:?} beats gzip");
    }
}

#[actix_web::test]
async fn the_encoding_follows_accept_encoding() {
    let h = harness();
    let base = h.base();
    let (name, body) = static_files()
        .into_iter()
        .find(|(n, _)| n == "js/game/main.js")
        .unwrap();
    let path = format!("/static/{}", hashed_name(&name, &body));
    for (accept, expect) in [
        ("gzip, deflate, br, zstd", "br"),
        ("br", "br"),
        ("gzip", "gzip"),
        ("deflate, gzip", "gzip"),
        ("br;q=0, gzip", "gzip"),
        ("gzip;q=1, br;q=0.5", "gzip"),
        ("identity", ""),
        ("br;q=0, gzip;q=0", ""),
        ("nonsense;;;", ""),
    ] {
        let got = get(&base, &path, Some(accept)).await;
        assert_eq!(got.status, 200, "{accept}");
        assert_eq!(got.encoding, expect, "Accept-Encoding: {accept}");
        assert_eq!(got.vary, "Accept-Encoding", "{accept}");
        if expect.is_empty() {
            assert_eq!(got.body, body, "{accept}");
        }
    }
    // No Accept-Encoding at all: the file as it is.
    let got = request(&base, &path, &[], false).await;
    assert_eq!(got.encoding, "");
    assert_eq!(got.body, body);
}

#[actix_web::test]
async fn a_revalidation_with_the_etag_is_not_modified() {
    let h = harness();
    let base = h.base();
    let (name, body) = static_files()
        .into_iter()
        .find(|(n, _)| n == "style.css")
        .unwrap();
    let hashed = format!("/static/{}", hashed_name(&name, &body));
    for (path, cache) in [
        (format!("/static/{name}"), "public, max-age=300"),
        (hashed, "public, max-age=31536000, immutable"),
    ] {
        let first = get(&base, &path, Some("br")).await;
        let etag = first.etag.clone();
        let strong = etag.trim_start_matches("W/").to_string();
        for tag in [etag.as_str(), strong.as_str(), "\"x\", W/\"y\", ", "*"] {
            let tag = if tag.ends_with(", ") {
                format!("{tag}{etag}")
            } else {
                tag.to_string()
            };
            let got = request(
                &base,
                &path,
                &[
                    (header::IF_NONE_MATCH, &tag),
                    (header::ACCEPT_ENCODING, "br"),
                ],
                false,
            )
            .await;
            assert_eq!(got.status, 304, "{path} If-None-Match: {tag}");
            assert!(got.body.is_empty(), "{path}");
            assert_eq!(got.etag, etag, "{path}");
            assert_eq!(got.cache, cache, "{path}");
            assert_eq!(got.vary, "Accept-Encoding", "{path}");
        }
        let other = request(
            &base,
            &path,
            &[
                (header::IF_NONE_MATCH, "W/\"0000000000000000\""),
                (header::ACCEPT_ENCODING, "br"),
            ],
            false,
        )
        .await;
        assert_eq!(other.status, 200, "{path}: another ETag");
        assert_eq!(other.body, first.body, "{path}");
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
