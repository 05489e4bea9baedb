//! What answers a socket upgrade, beside the sockets themselves.

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header;
use actix_web::middleware::Next;

/// An upgrade request is answered uncompressed (before the compression middleware sees
/// it, its `Accept-Encoding` is dropped). A refused upgrade (429, 503, 404) was
/// compressed for a browser and marked chunked, but actix-http writes the body of an
/// answer to an upgrade request as it comes, so the client got gzip bytes without the
/// chunks' framing, and no status it could read (found from outside with aiohttp).
pub async fn uncompressed(
    mut req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    if req.headers().contains_key(header::UPGRADE) {
        req.headers_mut().remove(header::ACCEPT_ENCODING);
    }
    next.call(req).await
}
