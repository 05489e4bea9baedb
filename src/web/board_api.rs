//! `GET /api/board[?variant=…]`: the boards the pages draw, as data, so that a page
//! (or a bot) draws stations and lines without knowing the rules. Each answer is
//! written once: the boards never change while the server runs.

use crate::error::AppError;
use crate::rules::board::{self, Square};
use crate::rules::siguo::{self, Station};
use actix_web::http::header::ContentType;
use actix_web::{HttpResponse, web};
use serde::Deserialize;
use serde_json::json;
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
    let edges: Vec<_> = board::edges()
        .iter()
        .map(|(a, b, k)| json!({"from": a, "to": b, "kind": k}))
        .collect();
    json!({"stations": stations, "edges": edges, "rail_lines": board::rail_lines()}).to_string()
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
    let edges: Vec<_> = siguo::board::edges()
        .iter()
        .map(|(a, b, k)| json!({"from": a, "to": b, "kind": k}))
        .collect();
    json!({
        "grid": {"width": 17, "height": 17},
        "stations": stations,
        "edges": edges,
        "rail_lines": siguo::board::rail_lines(),
    })
    .to_string()
});

pub async fn board(q: web::Query<BoardQuery>) -> Result<HttpResponse, AppError> {
    let text: &'static str = match q.variant.as_deref() {
        None | Some("flip" | "standard") => &TWO_PLAYER,
        Some("siguo") => &FOUR_PLAYER,
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
