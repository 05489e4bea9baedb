//! The pages people use to look back at games: everyone's history and a player's.
//! All server-rendered; no script needed. (The ladder is in ladder.rs, profiles in
//! profile.rs.)

use super::assets::filters;
use super::auth::{Account, account, user_id, validate_username};
pub(super) use super::history_filters::one_of;
use super::history_filters::{
    HistoryQuery, ModeChip, Opt, alliance_words, options, query_string, reasons, result_choices,
    stored_results,
};
use super::history_sides::Side;
use super::i18n::Lang;
use super::page_cache::{PageCache, serve};
use crate::db::history::{self, Cursor, Filter, Listed};
use crate::db::users as dbusers;
use crate::db::{DbConn, DbError};
use crate::error::AppError;
use crate::live::{Hub, blocking};
use crate::rules::Rank;
use actix_session::Session;
use actix_web::{HttpResponse, web};
use askama::Template;
use std::collections::HashMap;
use std::sync::Arc;

pub const HISTORY_PAGE: i64 = 50;

pub struct HistoryRow {
    pub id: String,
    pub variant: String,
    /// A 四国 table's mode (`opposite`, `adjacent`, `none`); empty otherwise.
    pub alliance: String,
    /// The mode in words (对家, 并肩, 混战), for the row's tag.
    pub alliance_words: &'static str,
    pub rated: bool,
    /// South, then north.
    pub sides: [Option<Side>; 2],
    /// A 四国 table's seats, S, E, N, W (empty for a two-player game).
    pub four: Vec<super::history_sides::TableSide>,
    /// `south`, `north` or `draw`.
    pub result: String,
    /// `win`, `draw` or `loss` from the side the list reads from (the list's owner, or
    /// the viewer when they played the game); `None` when the list reads from no side.
    pub outcome: Option<&'static str>,
    pub reason: String,
    pub reason_text: String,
    pub steps: i32,
    pub date: String,
}

impl HistoryRow {
    /// The winner's name, for a row read from no side ("alice 胜").
    pub fn winner_name(&self) -> String {
        if !self.four.is_empty() {
            let won: Vec<&str> = (self.four.iter().filter(|s| s.won))
                .map(|s| s.shown_name())
                .collect();
            return won.join("、");
        }
        self.sides
            .iter()
            .flatten()
            .find(|s| s.won)
            .map_or(String::new(), |s| s.shown_name().to_string())
    }
}

/// Whose side a list of games reads its results from.
#[derive(Debug, Clone, Copy)]
pub(super) enum FromSide {
    /// The player whose own list it is (each row's own outcome).
    Owner,
    /// The signed-in viewer, in the games they played; else no one's.
    Viewer(Option<i64>),
}

/// `win`, `draw` or `loss` for a player of `seat` in a game of `result`.
fn outcome_of(result: &str, seat: &str) -> &'static str {
    match result {
        "draw" => "draw",
        r if r == seat => "win",
        _ => "loss",
    }
}

/// The stored outcome word as one of the three the page knows.
fn known_outcome(o: &str) -> Option<&'static str> {
    ["win", "draw", "loss"].into_iter().find(|k| *k == o)
}

pub use super::reason_text::reason_text;

pub(super) fn date(ms: Option<i64>) -> String {
    ms.and_then(chrono::DateTime::from_timestamp_millis)
        .map(|d| d.format("%Y-%m-%d %H:%M").to_string())
        .unwrap_or_default()
}

/// The display names and kinds of the players in `found` (one query; names in the rows
/// are the login names copied at the end of each game, display names may change since).
/// Also the seats of the 四国 tables among them (one more query, only if there are any).
pub(super) fn display_names(c: &mut DbConn, found: &[Listed]) -> Result<RowNames, DbError> {
    let tables: Vec<String> = (found.iter())
        .filter(|l| l.game.variant == crate::rules::Variant::Siguo.name())
        .map(|l| l.game.id.clone())
        .collect();
    let seats = crate::db::table_history::seat_lines(c, &tables)?;
    let mut ids: Vec<i64> = found
        .iter()
        .flat_map(|l| [l.game.south_id, l.game.north_id])
        .flatten()
        .chain(seats.values().flatten().map(|s| s.user_id))
        .collect();
    ids.sort_unstable();
    ids.dedup();
    Ok(RowNames {
        labels: dbusers::labels(c, &ids)?,
        seats,
    })
}

pub(super) type DisplayNames = HashMap<i64, dbusers::Label>;

/// What the rows need beside the games: the players' labels and the tables' seats.
#[derive(Default)]
pub(super) struct RowNames {
    pub labels: DisplayNames,
    pub seats: HashMap<String, Vec<crate::db::table_history::SeatLine>>,
}

pub(super) fn rows(
    found: Vec<Listed>,
    names: &RowNames,
    en: bool,
    from: FromSide,
) -> Vec<HistoryRow> {
    found.into_iter().map(|l| row(l, names, en, from)).collect()
}

fn row(listed: Listed, all: &RowNames, en: bool, from: FromSide) -> HistoryRow {
    let names = &all.labels;
    let g = listed.game;
    let result = g.result.clone().unwrap_or_default();
    let seats = all.seats.get(&g.id).map(Vec::as_slice).unwrap_or(&[]);
    let outcome = match from {
        FromSide::Owner => listed.outcome.as_deref().and_then(known_outcome),
        FromSide::Viewer(Some(me)) if !seats.is_empty() => {
            super::history_sides::outcome_of(seats, me)
        }
        FromSide::Viewer(Some(me)) if g.south_id == Some(me) => Some(outcome_of(&result, "south")),
        FromSide::Viewer(Some(me)) if g.north_id == Some(me) => Some(outcome_of(&result, "north")),
        FromSide::Viewer(_) => None,
    };
    let rated = g.rated;
    let side = |id: Option<i64>,
                name: Option<String>,
                before: Option<i64>,
                change: Option<i32>,
                seat: &str| {
        id.map(|id| Side {
            name: name.unwrap_or_default(),
            display_name: names.get(&id).and_then(|l| l.display_name.clone()),
            kind: names
                .get(&id)
                .map_or_else(|| "person".to_string(), |l| l.kind.clone()),
            rank: Rank::for_score(before.unwrap_or(0)),
            score_change: change.filter(|_| rated),
            won: result == seat,
        })
    };
    HistoryRow {
        four: super::history_sides::sides(seats, names, rated, en),
        sides: [
            side(
                g.south_id,
                listed.south_name,
                g.score_before_south,
                g.score_south,
                "south",
            ),
            side(
                g.north_id,
                listed.north_name,
                g.score_before_north,
                g.score_north,
                "north",
            ),
        ],
        reason_text: reason_text(
            Some(g.variant.as_str()),
            g.reason.as_deref().unwrap_or(""),
            en,
        ),
        reason: g.reason.clone().unwrap_or_default(),
        alliance_words: alliance_words(g.alliance.as_deref().unwrap_or(""), en),
        alliance: g.alliance.unwrap_or_default(),
        id: g.id,
        variant: g.variant,
        rated: g.rated,
        result,
        outcome,
        steps: g.steps,
        date: date(g.ended_at),
    }
}

#[derive(Template)]
#[template(path = "games.html")]
struct GamesPage {
    user: Option<Account>,
    title: String,
    en: bool,
    /// Set on a player's own history page.
    owner: Option<String>,
    player: String,
    variants: Vec<Opt>,
    /// The 四国 mode chips: only when 四国 is the variant chosen.
    modes: Vec<ModeChip>,
    /// The mode chosen, which the form carries on (empty for every mode).
    alliance: String,
    results: Vec<Opt>,
    reasons: Vec<Opt>,
    rows: Vec<HistoryRow>,
    next: Option<String>,
    first: String,
    unknown_player: bool,
}

async fn history_page(
    hub: &Arc<Hub>,
    session: &Session,
    lang: Lang,
    owner: Option<String>,
    q: HistoryQuery,
) -> Result<String, AppError> {
    let variant = one_of(&q.variant, &crate::rules::Variant::NAMES, "variant")?;
    let alliance = super::history_filters::alliance(&q.alliance, variant.as_deref())?;
    let result_choices = result_choices(owner.is_some(), variant.as_deref());
    let result = super::history_filters::result(&q.result, owner.is_some(), variant.as_deref())?;
    let reason_names = reasons(variant.as_deref());
    let reason = super::history_filters::reason(&q.reason, variant.as_deref())?;
    let before = match q.before.as_deref() {
        None | Some("") => None,
        Some(c) => {
            Some(Cursor::decode(c).ok_or_else(|| AppError::BadRequest("bad page cursor".into()))?)
        }
    };
    let player = owner.clone().or(q.player.clone()).filter(|p| !p.is_empty());
    let (variant_f, alliance_f, result_f, reason_f, before_f, player_f, is_owner) = (
        variant.clone(),
        alliance.clone(),
        result.clone(),
        reason.clone(),
        before.clone(),
        player.clone(),
        owner.is_some(),
    );
    let en = lang.en;
    let found = blocking(hub.pool(), move |c| {
        if player_f
            .as_deref()
            .is_some_and(|n| validate_username(n).is_err())
        {
            return Ok(None);
        }
        let filter = Filter {
            player: player_f.clone(),
            variant: variant_f,
            alliance: alliance_f,
            results: if is_owner {
                None
            } else {
                result_f.as_deref().map(stored_results)
            },
            outcome: if is_owner { result_f } else { None },
            reason: reason_f,
        };
        let found = history::page(c, &filter, before_f.as_ref(), HISTORY_PAGE)?;
        // No games may also mean no such player: only then is it worth asking.
        if found.is_empty()
            && let Some(name) = &player_f
            && dbusers::by_name(c, name)?.is_none()
        {
            return Ok(None);
        }
        let names = display_names(c, &found)?;
        Ok(Some((found, names)))
    })
    .await?;
    if owner.is_some() && found.is_none() {
        return Err(AppError::NotFound(format!(
            "no player {}",
            crate::quote::quoted(&owner.unwrap_or_default())
        )));
    }
    let unknown_player = found.is_none();
    let (found, names) = found.unwrap_or_default();
    // The filters every link of the page keeps: the pager's, and the mode chips'
    // (which put their own mode in place of the one chosen).
    let listed_player = if owner.is_some() {
        ""
    } else {
        player.as_deref().unwrap_or("")
    };
    let kept = [
        ("player", listed_player),
        ("variant", variant.as_deref().unwrap_or("")),
        ("result", result.as_deref().unwrap_or("")),
        ("reason", reason.as_deref().unwrap_or("")),
    ];
    let with_alliance = |extra: &[(&'static str, &str)]| {
        let mut pairs = kept.to_vec();
        pairs.push(("alliance", alliance.as_deref().unwrap_or("")));
        pairs.extend_from_slice(extra);
        query_string(&pairs)
    };
    let next = (found.len() as i64 == HISTORY_PAGE).then(|| {
        let last = found.last().expect("a full page has a last row");
        let cursor = Cursor {
            ended_at: last.game.ended_at.unwrap_or(0),
            id: last.game.id.clone(),
        }
        .encode();
        with_alliance(&[("before", &cursor)])
    });
    let first = with_alliance(&[]);
    let modes = if variant.as_deref() == Some(crate::rules::Variant::Siguo.name()) {
        super::history_filters::mode_chips(&kept, alliance.as_deref(), en)
    } else {
        Vec::new()
    };
    let reason_choices: Vec<(&'static str, String, String)> = reason_names
        .iter()
        .map(|&r| (r, reason_text(None, r, false), reason_text(None, r, true)))
        .collect();
    let reason_refs: Vec<(&'static str, &str, &str)> = reason_choices
        .iter()
        .map(|(v, z, e)| (*v, z.as_str(), e.as_str()))
        .collect();
    let title = match (&owner, en) {
        (Some(o), false) => format!("{o} 的棋谱"),
        (Some(o), true) => format!("Games of {o}"),
        (None, false) => "棋谱".to_string(),
        (None, true) => "Games".to_string(),
    };
    let is_owner_list = owner.is_some();
    let page = GamesPage {
        user: account(hub, session).await,
        title,
        en,
        player: if owner.is_some() {
            String::new()
        } else {
            player.unwrap_or_default()
        },
        owner,
        variants: options(
            &[
                ("flip", "翻翻棋", "flip chess"),
                ("standard", "标准军棋", "standard"),
                ("siguo", "四国军棋", "four-player"),
            ],
            variant.as_deref(),
            en,
        ),
        modes,
        alliance: alliance.clone().unwrap_or_default(),
        results: options(result_choices, result.as_deref(), en),
        reasons: options(&reason_refs, reason.as_deref(), en),
        rows: rows(
            found,
            &names,
            en,
            if is_owner_list {
                FromSide::Owner
            } else {
                FromSide::Viewer(user_id(session))
            },
        ),
        next,
        first,
        unknown_player,
    };
    page.render().map_err(AppError::internal)
}

pub async fn games(
    hub: web::Data<Arc<Hub>>,
    cache: web::Data<PageCache>,
    session: Session,
    lang: Lang,
    q: web::Query<HistoryQuery>,
) -> Result<HttpResponse, AppError> {
    let key = q.cache_key()?;
    serve(&hub, &cache, key, &session, lang, async || {
        history_page(&hub, &session, lang, None, q.into_inner()).await
    })
    .await
}

pub async fn player_games(
    hub: web::Data<Arc<Hub>>,
    session: Session,
    lang: Lang,
    path: web::Path<String>,
    q: web::Query<HistoryQuery>,
) -> Result<HttpResponse, AppError> {
    let body = history_page(
        &hub,
        &session,
        lang,
        Some(path.into_inner()),
        q.into_inner(),
    )
    .await?;
    Ok(lang.html(body))
}
