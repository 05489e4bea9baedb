//! The pages' CSS and JavaScript, compiled into the binary so that it serves them from
//! memory wherever it runs (no source tree needed beside it). Written by hand rather
//! than with a crate: ten files, one lookup.

use actix_web::http::header;
use actix_web::{HttpResponse, web};

macro_rules! assets {
    ($($name:literal),+ $(,)?) => {
        &[$(($name, include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/static/", $name)) as &[u8])),+]
    };
}

/// Every file under `static/`; a test checks that none is missing.
pub const ASSETS: &[(&str, &[u8])] = assets!(
    "auth.js",
    "board.js",
    "common.js",
    "favicon.svg",
    "game.js",
    "layouts.js",
    "lobby.js",
    "pages.css",
    "rules.js",
    "style.css",
);

fn content_type(name: &str) -> &'static str {
    if name.ends_with(".css") {
        "text/css; charset=utf-8"
    } else if name.ends_with(".svg") {
        "image/svg+xml"
    } else {
        "text/javascript; charset=utf-8"
    }
}

/// `/favicon.ico`, asked for by browsers whatever the page says: the same icon.
pub async fn favicon() -> HttpResponse {
    serve("favicon.svg")
}

pub async fn asset(path: web::Path<String>) -> HttpResponse {
    serve(&path.into_inner())
}

fn serve(name: &str) -> HttpResponse {
    match ASSETS.iter().find(|(n, _)| *n == name) {
        Some((n, body)) => HttpResponse::Ok()
            .content_type(content_type(n))
            // Short: file names carry no version, so a deploy must show within minutes.
            .insert_header((header::CACHE_CONTROL, "public, max-age=300"))
            .body(*body),
        None => HttpResponse::NotFound()
            .content_type("text/plain; charset=utf-8")
            .body("no such file"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_under_static_is_served() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/static");
        let mut on_disk: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        on_disk.sort();
        let served: Vec<&str> = ASSETS.iter().map(|(n, _)| *n).collect();
        assert_eq!(on_disk, served, "list every file of static/ in ASSETS");
    }
}
