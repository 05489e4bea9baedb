//! The rank ladder page: players by score in a variant, with how many hold each rank.

use super::assets::filters;
use super::auth::{Account, account, user_id};
use super::history::one_of;
use super::i18n::Lang;
use super::page_cache::{PageCache, serve};
use crate::avatars::Avatar;
use crate::db::schema::{user_stats, users};
use crate::db::users::{self as dbusers, Stats, User};
use crate::db::{DbConn, DbError};
use crate::error::AppError;
use crate::live::{Hub, blocking};
use crate::rules::Rank;
use crate::rules::Variant;
use actix_session::Session;
use actix_web::{HttpResponse, web};
use askama::Template;
use diesel::prelude::*;
use serde::Deserialize;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub const LADDER_PAGE: i64 = 50;

/// How many players hold each rank, cached for a few seconds: counting is a scan of
/// the ladder index, and the numbers only drift slowly. When they are due, one request
/// counts afresh while the others keep showing the last counts, so that a busy ladder
/// never counts many times at once.
#[derive(Default)]
pub struct RankCounts(Mutex<HashMap<String, Counted>>);

#[derive(Default)]
struct Counted {
    at: Option<Instant>,
    counts: Vec<i64>,
    /// When a request took on counting afresh.
    counting_since: Option<Instant>,
}

const RANK_COUNTS_FOR: Duration = Duration::from_secs(10);
/// A count taken on but never stored (its request failed) is given up after this.
const COUNTING_GIVEN_UP_AFTER: Duration = Duration::from_secs(30);

impl RankCounts {
    /// The counts to show for `variant`, if any, and whether this request should count
    /// afresh (it must then call [`RankCounts::store`]).
    fn claim(&self, variant: &str) -> (Option<Vec<i64>>, bool) {
        let mut map = self.0.lock().expect("rank counts lock");
        let c = map.entry(variant.to_string()).or_default();
        let known = c.at.map(|_| c.counts.clone());
        if c.at.is_some_and(|at| at.elapsed() < RANK_COUNTS_FOR) {
            return (known, false);
        }
        let someone_counting = c
            .counting_since
            .is_some_and(|t| t.elapsed() < COUNTING_GIVEN_UP_AFTER);
        if someone_counting && known.is_some() {
            return (known, false);
        }
        c.counting_since = Some(Instant::now());
        (known, true)
    }

    fn store(&self, variant: &str, counts: Vec<i64>) {
        let mut map = self.0.lock().expect("rank counts lock");
        let c = map.entry(variant.to_string()).or_default();
        c.at = Some(Instant::now());
        c.counts = counts;
        c.counting_since = None;
    }
}

fn count_ranks(c: &mut DbConn, variant: &str) -> Result<Vec<i64>, DbError> {
    let ranks: Vec<Rank> = Rank::all().collect();
    let mut counts = Vec::with_capacity(ranks.len());
    for (i, r) in ranks.iter().enumerate() {
        let mut q = user_stats::table
            .filter(user_stats::variant.eq(variant))
            .filter(user_stats::user_id.ne_all(dbusers::off_ladder_ids()))
            .into_boxed();
        if let Some(from) = r.from_score {
            q = q.filter(user_stats::score.ge(from));
        }
        if let Some(next) = ranks.get(i + 1).and_then(|n| n.from_score) {
            q = q.filter(user_stats::score.lt(next));
        }
        counts.push(q.count().get_result::<i64>(c)?);
    }
    Ok(counts)
}

#[derive(Deserialize, Default)]
pub struct LadderQuery {
    variant: Option<String>,
    page: Option<u32>,
    q: Option<String>,
}

impl LadderQuery {
    /// What the ladder page reads of its query: variant, page and search, normalised
    /// (also the page cache's key, so that spellings of one page share an entry).
    pub(super) fn read(&self) -> Result<(String, u32, String), AppError> {
        let variant =
            one_of(&self.variant, &Variant::NAMES, "variant")?.unwrap_or_else(|| "flip".into());
        let page = self.page.unwrap_or(1).clamp(1, 1_000_000);
        let search: String = self
            .q
            .clone()
            .unwrap_or_default()
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
            .take(20)
            .collect::<String>()
            .to_lowercase();
        Ok((variant, page, search))
    }
}

pub struct LadderRow {
    pub position: i64,
    pub name: String,
    pub display_name: Option<String>,
    /// `person`, `bot` or `computer`: the badge beside the name.
    pub kind: String,
    /// The figure (角色秀) before the name.
    pub avatar: Avatar,
    pub rank: Rank,
    pub score: i64,
    pub wins: i32,
    pub draws: i32,
    pub losses: i32,
    pub games: i32,
    pub me: bool,
}

#[derive(Template)]
#[template(path = "ladder.html")]
struct LadderPage {
    user: Option<Account>,
    title: String,
    en: bool,
    variant: String,
    search: String,
    page: u32,
    rows: Vec<LadderRow>,
    ranks: Vec<(Rank, i64)>,
    has_next: bool,
    my_position: Option<(i64, u32)>,
}

pub async fn ladder(
    hub: web::Data<Arc<Hub>>,
    counts: web::Data<RankCounts>,
    cache: web::Data<PageCache>,
    session: Session,
    lang: Lang,
    q: web::Query<LadderQuery>,
) -> Result<HttpResponse, AppError> {
    let key = format!("/ladder {:?}", q.read()?);
    serve(&hub, &cache, key, &session, lang, async || {
        ladder_page(&hub, &counts, &session, lang, q.into_inner()).await
    })
    .await
}

async fn ladder_page(
    hub: &Arc<Hub>,
    counts: &RankCounts,
    session: &Session,
    lang: Lang,
    q: LadderQuery,
) -> Result<String, AppError> {
    let (variant, page, search) = q.read()?;
    let me = user_id(session);
    let (cached, count_afresh) = counts.claim(&variant);
    let (v, s) = (variant.clone(), search.clone());
    let offset = (page as i64 - 1) * LADDER_PAGE;
    let (found, counted, mine) = blocking(hub.pool(), move |c| {
        let found: Vec<(User, Stats)> = if s.is_empty() {
            dbusers::ladder(c, &v, offset, LADDER_PAGE + 1)?
        } else {
            users::table
                .inner_join(user_stats::table)
                .filter(user_stats::variant.eq(&v))
                .filter(users::kind.ne_all(dbusers::OFF_LADDER))
                .filter(users::username_key.like(format!("{s}%")))
                .order((user_stats::score.desc(), user_stats::user_id.asc()))
                .offset(offset)
                .limit(LADDER_PAGE + 1)
                .select((User::as_select(), Stats::as_select()))
                .load(c)?
        };
        let counted = if count_afresh {
            Some(count_ranks(c, &v)?)
        } else {
            None
        };
        let mine = match me {
            Some(uid) => dbusers::ladder_position(c, uid, &v)?,
            None => None,
        };
        Ok((found, counted, mine))
    })
    .await?;
    let rank_counts = match (counted, cached) {
        (Some(fresh), _) => {
            counts.store(&variant, fresh.clone());
            fresh
        }
        (None, cached) => cached.unwrap_or_default(),
    };
    let has_next = found.len() as i64 > LADDER_PAGE;
    let rows: Vec<LadderRow> = found
        .into_iter()
        .take(LADDER_PAGE as usize)
        .enumerate()
        .map(|(i, (u, s))| LadderRow {
            // Positions are by score over everyone; within a search they count the matches.
            position: offset + i as i64 + 1,
            me: Some(u.id) == me,
            avatar: Avatar::of_user(&u),
            name: u.username,
            display_name: u.display_name,
            kind: u.kind,
            rank: Rank::for_score(s.score),
            score: s.score,
            wins: s.wins,
            draws: s.draws,
            losses: s.losses,
            games: s.games,
        })
        .collect();
    let page_view = LadderPage {
        user: account(hub, session).await,
        title: if lang.en {
            "Ladder".into()
        } else {
            "天梯".into()
        },
        en: lang.en,
        variant,
        search,
        page,
        rows,
        ranks: Rank::all().zip(rank_counts).collect(),
        has_next,
        my_position: mine.map(|p| (p, ((p - 1) / LADDER_PAGE) as u32 + 1)),
    };
    page_view.render().map_err(AppError::internal)
}
