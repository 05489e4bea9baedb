//! Saved standard 军棋 layouts: the JSON API (list, save, rename, delete, export to and
//! import from a `junqi-layout/1` file) and the page that manages them. A player only
//! ever reaches their own layouts; someone else's id is answered as unknown.

use super::assets::filters;
use super::auth::{Account, account, user_id};
use super::bearer::Caller;
use super::i18n::Lang;
use super::server::MAX_BODY;
use crate::db::layouts::{self, RenameOutcome, SaveOutcome, SavedLayout};
use crate::error::AppError;
use crate::layout_file::{self, MAX_SAVED, check_layout, check_name};
use crate::live::{Hub, blocking};
use crate::record::{layout_json, parse_layout, parse_layout_text};
use crate::rules::board::{Square, StationKind};
use crate::rules::{Layout, Piece};
use actix_session::Session;
use actix_web::http::header::{
    self, Charset, ContentDisposition, DispositionParam, DispositionType, ExtendedValue,
};
use actix_web::{HttpResponse, web};
use askama::Template;
use futures_util::StreamExt as _;
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;

fn stored_layout(row: &SavedLayout) -> Result<Layout, AppError> {
    parse_layout_text(&row.layout)
        .map_err(|m| AppError::internal(format!("saved layout {}{m}", row.id)))
}

fn answer(row: &SavedLayout) -> Result<Value, AppError> {
    Ok(json!({
        "id": row.id,
        "name": row.name,
        "layout": layout_json(&stored_layout(row)?),
        "updated_at": row.updated_at,
    }))
}

fn not_found(id: &str) -> AppError {
    AppError::NotFound(format!("no saved layout {id:?}"))
}

/// Ids are numbers; anything else names no layout, so it gets the same answer.
fn layout_id(raw: &str) -> Result<i64, AppError> {
    raw.parse().map_err(|_| not_found(raw))
}

/// Saves a checked layout, keeping the cap on how many one player may keep.
async fn store(
    hub: &Hub,
    user: i64,
    name: String,
    layout: &Layout,
) -> Result<HttpResponse, AppError> {
    let text = layout_json(layout).to_string();
    let saved = blocking(hub.pool(), move |c| {
        Ok(layouts::save_within(c, user, &name, &text, MAX_SAVED)?)
    })
    .await?;
    match saved {
        SaveOutcome::Saved(row) => Ok(HttpResponse::Created().json(answer(&row)?)),
        SaveOutcome::Full => Err(AppError::BadRequest(format!(
            "you can keep at most {MAX_SAVED} layouts; delete or overwrite one first"
        ))),
    }
}

pub async fn list(hub: web::Data<Arc<Hub>>, caller: Caller) -> Result<HttpResponse, AppError> {
    let user = caller.require()?;
    let rows = blocking(hub.pool(), move |c| Ok(layouts::list(c, user)?)).await?;
    let out = rows.iter().map(answer).collect::<Result<Vec<_>, _>>()?;
    Ok(HttpResponse::Ok().json(out))
}

#[derive(Deserialize)]
pub struct NewLayout {
    name: String,
    layout: Value,
}

pub async fn create(
    hub: web::Data<Arc<Hub>>,
    caller: Caller,
    body: web::Json<NewLayout>,
) -> Result<HttpResponse, AppError> {
    let user = caller.require()?;
    let NewLayout { name, layout } = body.into_inner();
    let name = check_name(&name).map_err(AppError::BadRequest)?;
    let layout = parse_layout(&layout).map_err(|m| AppError::BadRequest(format!("layout{m}")))?;
    check_layout(&layout).map_err(AppError::BadRequest)?;
    store(&hub, user, name, &layout).await
}

#[derive(Deserialize)]
pub struct NewName {
    name: String,
}

pub async fn rename(
    hub: web::Data<Arc<Hub>>,
    caller: Caller,
    path: web::Path<String>,
    body: web::Json<NewName>,
) -> Result<HttpResponse, AppError> {
    let user = caller.require()?;
    let raw = path.into_inner();
    let id = layout_id(&raw)?;
    let name = check_name(&body.name).map_err(AppError::BadRequest)?;
    let wanted = name.clone();
    let outcome = blocking(hub.pool(), move |c| {
        Ok(layouts::rename(c, user, id, &wanted)?)
    })
    .await?;
    match outcome {
        RenameOutcome::Renamed(row) => Ok(HttpResponse::Ok().json(answer(&row)?)),
        RenameOutcome::NotFound => Err(not_found(&raw)),
        RenameOutcome::NameTaken => Err(AppError::Conflict(format!(
            "you already have a layout named {name:?}"
        ))),
    }
}

pub async fn delete(
    hub: web::Data<Arc<Hub>>,
    caller: Caller,
    path: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    let user = caller.require()?;
    let raw = path.into_inner();
    let id = layout_id(&raw)?;
    if blocking(hub.pool(), move |c| Ok(layouts::delete(c, user, id)?)).await? {
        Ok(HttpResponse::NoContent().finish())
    } else {
        Err(not_found(&raw))
    }
}

/// A file name for the download: the layout's name with the characters file systems
/// refuse replaced.
fn file_name(name: &str) -> String {
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_control() || "/\\:*?\"<>|".contains(c) {
                '_'
            } else {
                c
            }
        })
        .collect();
    format!("{}.json", safe.trim_matches('.'))
}

/// The plain-ASCII `filename` for clients that ignore `filename*`.
fn ascii_file_name(name: &str) -> String {
    let ascii: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_ ".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if ascii.chars().any(|c| c.is_ascii_alphanumeric()) {
        format!("{}.json", ascii.trim())
    } else {
        "layout.json".into()
    }
}

pub async fn export(
    hub: web::Data<Arc<Hub>>,
    caller: Caller,
    path: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    let user = caller.require()?;
    let raw = path.into_inner();
    let id = layout_id(&raw)?;
    let row = blocking(hub.pool(), move |c| Ok(layouts::get(c, user, id)?))
        .await?
        .ok_or_else(|| not_found(&raw))?;
    let text = layout_file::export(&row.name, &stored_layout(&row)?);
    let disposition = ContentDisposition {
        disposition: DispositionType::Attachment,
        parameters: vec![
            DispositionParam::Filename(ascii_file_name(&row.name)),
            DispositionParam::FilenameExt(ExtendedValue {
                charset: Charset::Ext("UTF-8".into()),
                language_tag: None,
                value: file_name(&row.name).into_bytes(),
            }),
        ],
    };
    Ok(HttpResponse::Ok()
        .content_type("application/json")
        .insert_header(disposition)
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .body(text))
}

/// Takes the file's text as the body, whatever its content type: browsers post a file
/// read with FileReader as text/plain, tools as application/json.
pub async fn import(
    hub: web::Data<Arc<Hub>>,
    caller: Caller,
    mut payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    let user = caller.require()?;
    let mut bytes = web::BytesMut::new();
    while let Some(chunk) = payload.next().await {
        let chunk = chunk.map_err(|e| AppError::BadRequest(format!("reading the body: {e}")))?;
        if bytes.len() + chunk.len() > MAX_BODY {
            return Err(AppError::TooLarge);
        }
        bytes.extend_from_slice(&chunk);
    }
    let text = std::str::from_utf8(&bytes)
        .map_err(|_| AppError::BadRequest("the file is not UTF-8 text".into()))?;
    let (name, layout) = layout_file::import(text).map_err(AppError::BadRequest)?;
    store(&hub, user, name, &layout).await
}

/// One station of a layout preview.
pub struct Cell {
    pub square: String,
    /// `camp`, `hq` or `post`, for the page's CSS.
    pub kind: &'static str,
    pub piece: Option<Piece>,
}

impl Cell {
    /// The piece's English name, for the tooltip on English pages.
    pub fn english(&self) -> String {
        self.piece
            .map(|p| p.name().replace('_', " "))
            .unwrap_or_default()
    }
}

pub struct LayoutCard {
    pub id: i64,
    pub name: String,
    pub updated: String,
    /// Front rank (6) first, as the owner sees their half across the table.
    pub rows: Vec<Vec<Cell>>,
}

fn card(row: &SavedLayout) -> Result<LayoutCard, AppError> {
    let layout = stored_layout(row)?;
    let rows = (1..=6)
        .rev()
        .map(|rank| {
            (0..5)
                .map(|file| {
                    let s = Square::new(file, rank).expect("a square of South's half");
                    Cell {
                        square: s.to_string(),
                        kind: match s.kind() {
                            StationKind::Camp => "camp",
                            StationKind::Headquarters => "hq",
                            _ => "post",
                        },
                        piece: layout.0.get(&s).copied(),
                    }
                })
                .collect()
        })
        .collect();
    Ok(LayoutCard {
        id: row.id,
        name: row.name.clone(),
        updated: super::history::date(Some(row.updated_at)),
        rows,
    })
}

#[derive(Template)]
#[template(path = "layouts.html")]
struct LayoutsPage {
    user: Option<Account>,
    title: String,
    en: bool,
    layouts: Vec<LayoutCard>,
    max_saved: usize,
}

pub async fn page(
    hub: web::Data<Arc<Hub>>,
    session: Session,
    lang: Lang,
) -> Result<HttpResponse, AppError> {
    let Some(uid) = user_id(&session) else {
        let to = if lang.en {
            "/login?next=%2Flayouts&lang=en"
        } else {
            "/login?next=%2Flayouts"
        };
        return Ok(HttpResponse::SeeOther()
            .insert_header((header::LOCATION, to))
            .finish());
    };
    let rows = blocking(hub.pool(), move |c| Ok(layouts::list(c, uid)?)).await?;
    let page = LayoutsPage {
        user: account(&hub, &session).await,
        title: if lang.en {
            "My layouts".into()
        } else {
            "我的布阵".into()
        },
        en: lang.en,
        layouts: rows.iter().map(card).collect::<Result<_, _>>()?,
        max_saved: MAX_SAVED,
    };
    Ok(lang.html(page.render().map_err(AppError::internal)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn download_names_keep_the_layout_name_but_not_path_characters() {
        assert_eq!(file_name("铁桶阵"), "铁桶阵.json");
        assert_eq!(file_name("../a/b"), "_a_b.json");
        assert_eq!(file_name("a:b?"), "a_b_.json");
        assert_eq!(ascii_file_name("铁桶阵"), "layout.json");
        assert_eq!(ascii_file_name("left 左"), "left _.json");
    }
}
