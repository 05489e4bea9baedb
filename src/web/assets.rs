//! The pages' CSS, JavaScript and icon, compiled into the binary so that it serves them
//! from memory wherever it runs (no source tree needed beside it).
//!
//! build.rs lists every file under `static/` with a hash of its content. Each file is
//! served twice:
//! - `/static/<name>` (e.g. `/static/js/board.js`) with a short cache, for anything that
//!   asks for it by name;
//! - `/static/<stem>.<hash>.<ext>` (e.g. `/static/js/board.1a2b3c4d.js`), cached for a
//!   year as `immutable`: a new version of the file has a new name. Another hash than
//!   the file's current one is not found.
//!
//! Templates write `{{ "js/board.js"|asset }}` for the hashed URL, and `base.html`
//! carries an import map from every module's plain URL to its hashed URL, so that the
//! modules' relative imports load the hashed, immutable files too.
//!
//! Text files also carry copies compressed by build.rs at the highest levels (brotli
//! 11, gzip 9). A request gets the brotli copy when its Accept-Encoding allows it, else
//! the gzip copy, else the file itself, with `Content-Encoding` and `Vary:
//! Accept-Encoding`; the `Compress` middleware leaves an answer that carries a
//! Content-Encoding alone (it would compress at its own, lower levels). Every answer
//! carries a weak ETag of the content, and `If-None-Match` with it gets a 304.
//!
//! Written by hand rather than with a crate (actix-files serves from disk; the embedding
//! crates bring their own hashing and caching rules): one table, one lookup.

use actix_web::http::header::{
    self, AcceptEncoding, ContentEncoding, Encoding, EntityTag, Header as _, IfNoneMatch,
};
use actix_web::{HttpRequest, HttpResponse, web};

/// One file of `static/`.
#[derive(Debug)]
pub struct Asset {
    /// Path below `static/`, folders joined by `/`: `js/board.js`.
    pub name: &'static str,
    /// The same with the content hash before the extension: `js/board.1a2b3c4d.js`.
    pub hashed: &'static str,
    /// `W/"<first 16 hex digits of the SHA-256>"`.
    pub etag: &'static str,
    pub body: &'static [u8],
    /// The file compressed with brotli at quality 11, when it is text and that is smaller.
    pub br: Option<&'static [u8]>,
    /// The file compressed with gzip at level 9, likewise.
    pub gzip: Option<&'static [u8]>,
}

// `ASSETS: &[Asset]` and `IMPORT_MAP: &str`, written by build.rs.
include!(concat!(env!("OUT_DIR"), "/assets.rs"));

/// The file of that plain name.
pub fn find(name: &str) -> Option<&'static Asset> {
    ASSETS.iter().find(|a| a.name == name)
}

/// The URL under which a file is cached for good: `/static/<stem>.<hash>.<ext>`.
pub fn hashed_url(name: &str) -> Option<String> {
    find(name).map(|a| format!("/static/{}", a.hashed))
}

/// The template filter `asset`: `{{ "style.css"|asset }}` → `/static/style.1a2b3c4d.css`.
/// A name that is not a file of `static/` fails the page's rendering (an error, not a
/// quietly broken link).
pub mod filters {
    use askama::filters::Safe;

    #[askama::filter_fn]
    pub fn asset<S: AsRef<str>>(
        name: S,
        _env: &dyn askama::Values,
    ) -> askama::Result<Safe<String>> {
        let name = name.as_ref();
        // Safe: build.rs allows only letters, digits and `._-/` in names.
        super::hashed_url(name).map(Safe).ok_or_else(|| {
            askama::Error::Custom(format!("no file static/{name} for the asset filter").into())
        })
    }
}

fn content_type(name: &str) -> &'static str {
    match name.rsplit_once('.').map_or("", |(_, ext)| ext) {
        "css" => "text/css; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "svg" => "image/svg+xml",
        "json" | "map" => "application/json",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// `/favicon.ico`, asked for by browsers whatever the page says: the same icon.
pub async fn favicon(req: HttpRequest) -> HttpResponse {
    serve(&req, "favicon.svg")
}

/// `/static/{path}`: a file by its plain or its hashed name.
pub async fn asset(req: HttpRequest, path: web::Path<String>) -> HttpResponse {
    serve(&req, &path.into_inner())
}

/// The copy to send: brotli, gzip or the file, by the request's Accept-Encoding
/// (quality values honoured; between equals brotli, then gzip). No header, a header
/// that does not parse, or one that refuses every copy this file has: the file itself.
fn choose(req: &HttpRequest, asset: &Asset) -> (Option<ContentEncoding>, &'static [u8]) {
    let br = Encoding::brotli();
    let gzip = Encoding::gzip();
    let identity = Encoding::identity();
    let mut offered = vec![&identity];
    if asset.br.is_some() {
        offered.push(&br);
    }
    if asset.gzip.is_some() {
        offered.push(&gzip);
    }
    let chosen = AcceptEncoding::parse(req)
        .ok()
        .and_then(|accept| accept.negotiate(offered.into_iter()));
    match (chosen, asset.br, asset.gzip) {
        (Some(Encoding::Known(ContentEncoding::Brotli)), Some(br), _) => {
            (Some(ContentEncoding::Brotli), br)
        }
        (Some(Encoding::Known(ContentEncoding::Gzip)), _, Some(gzip)) => {
            (Some(ContentEncoding::Gzip), gzip)
        }
        _ => (None, asset.body),
    }
}

fn serve(req: &HttpRequest, path: &str) -> HttpResponse {
    let (asset, cache) = if let Some(a) = find(path) {
        // Short: a plain name carries no version, so a deploy must show within minutes.
        (a, "public, max-age=300")
    } else if let Some(a) = ASSETS.iter().find(|a| a.hashed == path) {
        (a, "public, max-age=31536000, immutable")
    } else {
        return HttpResponse::NotFound()
            .content_type("text/plain; charset=utf-8")
            .body("no such file");
    };
    let unchanged = not_modified(req, asset);
    let mut resp = if unchanged {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    resp.insert_header((header::CACHE_CONTROL, cache))
        .insert_header((header::ETAG, asset.etag))
        .insert_header((header::VARY, "Accept-Encoding"));
    if unchanged {
        return resp.finish();
    }
    let (encoding, body) = choose(req, asset);
    if let Some(encoding) = encoding {
        resp.insert_header((header::CONTENT_ENCODING, encoding.as_str()));
    }
    resp.content_type(content_type(asset.name)).body(body)
}

/// The request's `If-None-Match` names this file's ETag (weak comparison, as the
/// header asks) or is `*`.
fn not_modified(req: &HttpRequest, asset: &Asset) -> bool {
    match IfNoneMatch::parse(req) {
        Ok(IfNoneMatch::Any) => true,
        Ok(IfNoneMatch::Items(tags)) => {
            let ours: EntityTag = asset.etag.parse().expect("build.rs writes a valid ETag");
            tags.iter().any(|tag| tag.weak_eq(&ours))
        }
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn files_below(root: &Path, dir: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let hidden = path.file_name().unwrap().to_string_lossy().starts_with('.');
            if hidden {
                continue;
            }
            if path.is_dir() {
                files_below(root, &path, out);
            } else {
                let rel = path.strip_prefix(root).unwrap().to_string_lossy();
                out.push(rel.replace('\\', "/"));
            }
        }
    }

    #[test]
    fn the_table_lists_every_file_under_static_with_its_hash() {
        let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/static"));
        let mut on_disk = Vec::new();
        files_below(root, root, &mut on_disk);
        on_disk.sort();
        let listed: Vec<&str> = ASSETS.iter().map(|a| a.name).collect();
        assert_eq!(on_disk, listed);
        for a in ASSETS {
            assert_eq!(
                a.body,
                std::fs::read(root.join(a.name)).unwrap(),
                "{}",
                a.name
            );
            let (stem, ext) = a.name.rsplit_once('.').unwrap();
            let hash = a
                .hashed
                .strip_prefix(stem)
                .unwrap()
                .strip_suffix(ext)
                .unwrap();
            assert_eq!(hash.len(), 10, "{}", a.hashed);
            assert!(
                hash[1..9].bytes().all(|b| b.is_ascii_hexdigit()),
                "{}",
                a.hashed
            );
        }
    }

    #[test]
    fn the_import_map_maps_every_module_and_nothing_else() {
        let map: serde_json::Value = serde_json::from_str(IMPORT_MAP).unwrap();
        let imports = map["imports"].as_object().unwrap();
        let modules: Vec<&Asset> = ASSETS.iter().filter(|a| a.name.ends_with(".js")).collect();
        assert_eq!(imports.len(), modules.len());
        for a in modules {
            let plain = format!("/static/{}", a.name);
            assert_eq!(imports[&plain], format!("/static/{}", a.hashed));
        }
    }
}
