//! HEAD answers as GET does, without the body (RFC 9110 §9.3.2): same status,
//! Content-Type, Content-Length, ETag and Cache-Control, for every page, static file and
//! GET of the API. Routes are written for GET only; before routing, a HEAD request is
//! routed as the GET it asks about. actix-http remembers the method it read off the wire
//! and sends such an answer's headers (Content-Length included, the body's length) and
//! no body.
//!
//! The sockets stay GET only: an upgrade is a GET (RFC 6455 §4.1), and a HEAD is no
//! handshake.

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::Method;
use actix_web::middleware::Next;

/// Where the sockets are.
const SOCKETS: &str = "/ws/";

pub async fn as_get(
    mut req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    if req.method() == Method::HEAD && !req.path().starts_with(SOCKETS) {
        req.head_mut().method = Method::GET;
    }
    next.call(req).await
}
