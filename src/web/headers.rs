//! Headers every answer carries (pages, JSON, static files, errors): a strict
//! Content-Security-Policy, no framing by other sites, no MIME sniffing, and no
//! Referer to other sites.

use super::assets::IMPORT_MAP;
use actix_web::http::header;
use actix_web::middleware::DefaultHeaders;
use base64::Engine as _;
use sha2::{Digest, Sha256};
use std::sync::LazyLock;

/// Scripts and styles come from our own files only. The one inline script, the import
/// map in base.html, is allowed by the hash of its exact text rather than by
/// 'unsafe-inline'. Styles allow no inline `<style>` or `style="…"` either (the pages
/// set sizes through the CSSOM, which style-src does not govern). 'self' takes in our
/// own ws:/wss: for the sockets.
pub static CONTENT_SECURITY_POLICY: LazyLock<String> = LazyLock::new(|| {
    let map = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(IMPORT_MAP));
    format!(
        "default-src 'self'; script-src 'self' 'sha256-{map}'; style-src 'self'; \
         img-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; \
         form-action 'self'; frame-ancestors 'none'"
    )
});

pub fn security_headers() -> DefaultHeaders {
    DefaultHeaders::new()
        .add((
            header::CONTENT_SECURITY_POLICY,
            CONTENT_SECURITY_POLICY.as_str(),
        ))
        // frame-ancestors' older twin, for browsers without CSP level 2.
        .add((header::X_FRAME_OPTIONS, "DENY"))
        .add((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        // Our own pages still send it to us: the Origin check falls back on it.
        .add((header::REFERRER_POLICY, "same-origin"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_import_map_is_allowed_by_the_hash_of_its_text_and_nothing_inline_else() {
        let csp = CONTENT_SECURITY_POLICY.as_str();
        let hash = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(IMPORT_MAP));
        assert!(
            csp.contains(&format!("script-src 'self' 'sha256-{hash}';")),
            "{csp}"
        );
        assert!(!csp.contains("unsafe"), "{csp}");
    }
}
