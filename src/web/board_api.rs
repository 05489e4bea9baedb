//! `GET /api/board[?variant=…]`: the boards the pages draw, as data, so that a page
//! (or a bot) draws stations and lines without knowing the rules. Each answer is
//! written once: the boards never change while the server runs.

use crate::error::AppError;
use crate::rules::Variant;
use crate::rules::board::{self, EdgeKind, Square};
use crate::rules::siguo::{self, Station, station::GRID};
use actix_web::http::header::ContentType;
use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::sync::LazyLock;

#[derive(Deserialize)]
pub struct BoardQuery {
    variant: Option<String>,
}

/// The two-player board of flip chess and standard 军棋 (RULES §2).
static TWO_PLAYER: LazyLock<String> = LazyLock::new(|| {
    let stations: Vec<_> = Square::all()
        .map(|s| json!({"square": s, "kind": s.kind(), "file": s.file(), "rank": s.rank()}))
        .collect();
    json!({
        "stations": stations,
        "edges": edges(board::edges()),
        "rail_lines": board::rail_lines(),
    })
    .to_string()
});

/// The four-player board of 四国军棋 (RULES §5.1): station ids of §5.1.1, each with its
/// kind, the seat whose area holds it (none for the 九宫) and its place on the 17 × 17
/// grid; the connections and the 18 straight lines.
static FOUR_PLAYER: LazyLock<String> = LazyLock::new(|| {
    let stations: Vec<_> = Station::all()
        .map(|s| {
            let (x, y) = s.grid();
            json!({"station": s, "kind": s.kind(), "seat": s.seat(), "x": x, "y": y})
        })
        .collect();
    json!({
        "grid": {"width": GRID, "height": GRID},
        "stations": stations,
        "edges": edges(siguo::board::edges()),
        "rail_lines": siguo::board::rail_lines(),
    })
    .to_string()
});

/// A board's connections as the API writes them, whatever its places.
fn edges<P: Serialize>(edges: &[(P, P, EdgeKind)]) -> Vec<Value> {
    edges
        .iter()
        .map(|(a, b, k)| json!({"from": a, "to": b, "kind": k}))
        .collect()
}

pub async fn board(q: web::Query<BoardQuery>) -> Result<HttpResponse, AppError> {
    let text: &'static str = match q.variant.as_deref() {
        Some("siguo") => &FOUR_PLAYER,
        None => &TWO_PLAYER,
        Some(name) if Variant::from_name(name).is_some() => &TWO_PLAYER,
        Some(other) => {
            return Err(AppError::BadRequest(format!(
                "unknown variant {}: the boards are those of flip, standard and siguo",
                crate::quote::quoted(other)
            )));
        }
    };
    Ok(HttpResponse::Ok()
        .insert_header(ContentType::json())
        .body(text))
}
