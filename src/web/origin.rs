//! Requests that change something are accepted from this site's own pages only. The
//! session cookie is SameSite=Lax, which still lets some cross-site requests carry it;
//! without this check a form on another site could seat a player in a rated game,
//! cancel their games, log them out or import a layout (as text/plain, which needs no
//! preflight). Clients that are not browsers send no `Origin` and are not affected.

use super::throttle::Guard;
use crate::error::AppError;
use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::{Method, header};
use actix_web::middleware::Next;
use actix_web::{Error, HttpRequest, ResponseError, web};

/// Whether `url` (an `Origin`, or a `Referer`) names this server's host.
fn names_this_host(url: &str, host: &str) -> bool {
    let Some(rest) = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"))
    else {
        return false; // "null", or another scheme
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    authority.eq_ignore_ascii_case(host)
}

/// The host the request was sent to: its `Host` header (or, over HTTP/2, its URI's
/// authority). Only behind a reverse proxy (`--trust-proxy`) the host the proxy
/// forwards (`Forwarded`, `X-Forwarded-Host`); otherwise anyone could send those and
/// name their own site as ours.
fn this_host(req: &HttpRequest) -> String {
    let trust_proxy = req
        .app_data::<web::Data<Guard>>()
        .is_some_and(|g| g.trusts_proxy());
    if trust_proxy {
        return req.connection_info().host().to_string();
    }
    req.headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .or_else(|| req.uri().authority().map(|a| a.as_str()))
        .unwrap_or("")
        .to_string()
}

/// Browsers send `Origin` on every request that changes something (and on socket
/// upgrades). Without it, `Sec-Fetch-Site` or else `Referer` tells where a request
/// came from; a request with none of them is not from a browser's page and passes.
pub fn from_this_site(req: &HttpRequest) -> bool {
    let host = this_host(req);
    let headers = req.headers();
    let text = |name| headers.get(name).map(|v| v.to_str().unwrap_or(""));
    if let Some(origin) = text(header::ORIGIN) {
        return names_this_host(origin, &host);
    }
    if let Some(site) = text(header::HeaderName::from_static("sec-fetch-site")) {
        return matches!(site, "same-origin" | "none");
    }
    if let Some(referer) = text(header::REFERER) {
        return names_this_host(referer, &host);
    }
    true
}

fn changes_something(method: &Method) -> bool {
    !matches!(
        *method,
        Method::GET | Method::HEAD | Method::OPTIONS | Method::TRACE
    )
}

/// The middleware: 403 `bad_origin` for a request that changes something and comes
/// from another site's page. A request authenticated by an API token carries no
/// cookie (see `bearer`), which is what this check protects, and passes.
/// (An answer, not an `Err`, so that the middleware around it add their headers.)
pub async fn same_site_only(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, Error> {
    if changes_something(req.method())
        && !super::bearer::by_token(req.request())
        && !from_this_site(req.request())
    {
        let refused = AppError::BadOrigin.error_response();
        return Ok(req.into_response(refused).map_into_right_body());
    }
    Ok(next.call(req).await?.map_into_left_body())
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    fn with(headers: &[(&'static str, &str)]) -> bool {
        behind_proxy(false, headers)
    }

    fn behind_proxy(trust_proxy: bool, headers: &[(&'static str, &str)]) -> bool {
        let guard = Guard::new(
            true,
            trust_proxy,
            super::super::rate_clock::RateClock::real(),
        );
        let mut r = TestRequest::post()
            .insert_header((header::HOST, "junqi.example:8080"))
            .app_data(web::Data::new(guard));
        for &(k, v) in headers {
            r = r.insert_header((k, v.to_string()));
        }
        from_this_site(&r.to_http_request())
    }

    /// The forwarded host is the proxy's word, believed only with `--trust-proxy`.
    #[test]
    fn forwarded_hosts_are_believed_from_a_trusted_proxy_only() {
        for forwarded in [
            ("x-forwarded-host", "evil.example"),
            ("forwarded", "host=evil.example"),
        ] {
            let evil = [("origin", "https://evil.example"), forwarded];
            assert!(!with(&evil), "{forwarded:?}");
            assert!(behind_proxy(true, &evil), "{forwarded:?}");
            let own = [("origin", "https://junqi.example:8080"), forwarded];
            assert!(with(&own), "{forwarded:?}");
        }
    }

    #[test]
    fn where_a_request_comes_from() {
        assert!(with(&[]), "no browser headers: curl, a bot");
        assert!(with(&[("origin", "http://junqi.example:8080")]));
        assert!(with(&[("origin", "https://JUNQI.example:8080")]));
        for foreign in [
            "http://evil.example",
            "http://junqi.example:8080.evil.example",
            "http://junqi.example",
            "null",
            "",
        ] {
            assert!(!with(&[("origin", foreign)]), "{foreign}");
        }
        // Origin decides when present.
        assert!(!with(&[
            ("origin", "http://evil.example"),
            ("sec-fetch-site", "same-origin")
        ]));
        assert!(with(&[("sec-fetch-site", "same-origin")]));
        assert!(!with(&[("sec-fetch-site", "cross-site")]));
        assert!(!with(&[("sec-fetch-site", "same-site")]));
        assert!(with(&[("referer", "http://junqi.example:8080/game/x?y#z")]));
        assert!(!with(&[(
            "referer",
            "http://evil.example/junqi.example:8080"
        )]));
        assert!(!with(&[(
            "referer",
            "http://junqi.example:8080@evil.example/"
        )]));
    }
}
