//! The API of 四国 tables (RULES §5): opening one, quick pairing into one, and the
//! lobby's list of open tables. Bodies are read here rather than by the JSON
//! extractor, so that a bad one is answered in words that name what is wrong.

use super::bearer::Caller;
use crate::error::AppError;
use crate::live::Hub;
use crate::live::table::NewTable;
use actix_web::{HttpResponse, web};
use serde_json::{Value, json};
use std::sync::Arc;

/// Opens a 四国 table with the caller in the south seat; with `computer`, the computer
/// takes the other three and it starts at once.
pub async fn create_table(
    hub: web::Data<Arc<Hub>>,
    caller: Caller,
    body: web::Json<Value>,
) -> Result<HttpResponse, AppError> {
    let user = caller.require()?;
    let spec = NewTable::parse(body.into_inner())?;
    spec.check()?;
    let _mine = hub.seat_lock(user).await;
    let id = crate::live::table::create(&hub, user, spec).await?;
    Ok(HttpResponse::Created().json(json!({"id": id})))
}

/// Seats the caller at a free seat of a compatible open table, or opens one
/// (`Hub::quick_table`): `{"id", "seat"}`.
pub async fn quick_table(
    hub: web::Data<Arc<Hub>>,
    caller: Caller,
    body: web::Json<Value>,
) -> Result<HttpResponse, AppError> {
    let user = caller.require()?;
    let spec = NewTable::parse(body.into_inner())?;
    spec.check()?;
    let _mine = hub.seat_lock(user).await;
    let (id, seat) = hub.quick_table(user, spec).await?;
    Ok(HttpResponse::Ok().json(json!({"id": id, "seat": seat})))
}

/// The lobby's list of open tables, as its socket sends it.
pub async fn open_tables(hub: web::Data<Arc<Hub>>) -> Result<HttpResponse, AppError> {
    Ok(HttpResponse::Ok().json(hub.open_tables().await?))
}
