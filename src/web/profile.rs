//! Player profiles (`/@/{name}`): standing, score chart and latest games in a variant,
//! the record against the site's computer players, and on one's own profile the form
//! that sets the display name (昵称). A computer account's profile says what it is and
//! shows its record instead of a standing its casual games never move.

use super::assets::filters;
use super::auth::{Account, account, user_id, validate_username};
use super::chart::score_chart;
use super::display_name::{self, Refused};
use super::history::{FromSide, HistoryRow, display_names, one_of, rows};
use super::i18n::Lang;
use crate::avatars::{self, Avatar};
use crate::db::profiles::{self, Profile, Tally, VsComputer};
use crate::db::users as dbusers;
use crate::db::users::COMPUTER;
use crate::error::AppError;
use crate::live::{Hub, blocking};
use crate::rules::Rank;
use crate::rules::Variant;
use actix_session::Session;
use actix_web::http::{StatusCode, header};
use actix_web::{HttpResponse, web};
use askama::Template;
use serde::Deserialize;
use std::sync::Arc;

#[derive(Template)]
#[template(path = "profile.html")]
struct ProfilePage {
    user: Option<Account>,
    title: String,
    en: bool,
    name: String,
    display_name: Option<String>,
    /// The visitor's own profile: it carries the display-name form.
    own: bool,
    /// What the form sent when it was refused, and why.
    refused: Option<Refused>,
    /// The figure shown (角色秀), and on one's own profile the set to pick from.
    avatar: Avatar,
    avatar_choices: &'static [Avatar],
    variant: String,
    score: i64,
    rank: Rank,
    next: Option<Rank>,
    progress_pct: u32,
    wins: i32,
    draws: i32,
    losses: i32,
    games: i32,
    best_streak: i32,
    streak: i32,
    chart: String,
    recent: Vec<HistoryRow>,
    /// The profiled account is one of the site's computer players; then `level` names
    /// its level and `computer_record` is its record (flip, standard, 四国).
    computer: bool,
    level: Option<Level>,
    computer_record: [Tally; 3],
    /// A person's record against each computer level (empty on computer profiles, and
    /// when the site has no computer players).
    vs_computer: Vec<VsRow>,
    /// Whether the player has finished any game against the computer.
    met_computer: bool,
    /// A person's record (战绩) by variant and opponent, with win rates.
    records: Vec<RecordRow>,
    /// Another player's profile seen by a logged-in player (not a guest), when the
    /// profiled account can be followed and challenged: the social bar.
    ties: Option<Ties>,
    /// The challenge form's player (`challenge_form.html`).
    challenge_to: Option<String>,
}

/// What the viewer is to the profiled player, for the social bar.
struct Ties {
    following: bool,
    blocked: bool,
    online: bool,
}

/// One computer level as the profile names it.
struct Level {
    chinese: &'static str,
    english: &'static str,
}

/// The level of a computer account, from its username (`computer-easy` …).
fn level_of(username: &str) -> Option<Level> {
    let (chinese, english) = match username.strip_prefix("computer-")? {
        "easy" => ("入门", "Easy"),
        "normal" => ("普通", "Normal"),
        "hard" => ("困难", "Hard"),
        "master" => ("大师", "Master"),
        _ => return None,
    };
    Some(Level { chinese, english })
}

/// A row of the record-against-the-computer table.
struct VsRow {
    username: String,
    /// What the row is headed by: the account's display name, else its level, else
    /// its username.
    label: String,
    /// By variant: flip, then standard, each with its win rate.
    cells: [(&'static str, Tally, String); 2],
}

/// The share of `t` won, as the profile shows it: "67%", or "—" before any game.
fn win_rate(t: &Tally) -> String {
    match t.games() {
        0 => "—".into(),
        n => format!("{}%", (t.wins * 100 + n / 2) / n),
    }
}

/// One row of a person's record (战绩): a variant against people, against the
/// computer, or in all.
struct RecordRow {
    variant: &'static str,
    /// `people`, `computer` or `all`.
    against: &'static str,
    label: String,
    tally: Tally,
    rate: String,
}

/// A person's record by variant, against people and the computer: every finished game
/// counts, casual ones too (the rated standing is the stats above it).
fn record_rows(total: [Tally; 3], vs: &[VsComputer], en: bool) -> Vec<RecordRow> {
    let mut rows = Vec::new();
    for (i, variant) in ["flip", "standard"].into_iter().enumerate() {
        let computer = vs.iter().fold(Tally::default(), |acc, c| {
            let t = if i == 0 { c.flip } else { c.standard };
            Tally {
                wins: acc.wins + t.wins,
                draws: acc.draws + t.draws,
                losses: acc.losses + t.losses,
            }
        });
        let all = total[i];
        let people = Tally {
            wins: all.wins - computer.wins,
            draws: all.draws - computer.draws,
            losses: all.losses - computer.losses,
        };
        let name = match (i, en) {
            (0, true) => "Flip chess",
            (0, false) => "翻翻棋",
            (_, true) => "Standard",
            (_, false) => "标准军棋",
        };
        for (against, tally, zh, english) in [
            ("people", people, "对人", "vs people"),
            ("computer", computer, "对电脑", "vs computer"),
            ("all", all, "合计", "all"),
        ] {
            rows.push(RecordRow {
                variant,
                against,
                label: format!("{name} · {}", if en { english } else { zh }),
                rate: win_rate(&tally),
                tally,
            });
        }
    }
    // 四国 tables: in all (a table mixes people and the computer, so it is not split).
    rows.push(RecordRow {
        variant: "siguo",
        against: "all",
        label: if en {
            "Four-player · all"
        } else {
            "四国军棋 · 合计"
        }
        .to_string(),
        rate: win_rate(&total[2]),
        tally: total[2],
    });
    rows
}

impl VsRow {
    fn new(c: VsComputer, en: bool) -> VsRow {
        let label = match (level_of(&c.username), &c.display_name) {
            (Some(l), _) if en => format!("Computer · {}", l.english),
            (_, Some(d)) => d.clone(),
            (Some(l), None) => format!("电脑·{}", l.chinese),
            (None, None) => c.username.clone(),
        };
        VsRow {
            username: c.username,
            label,
            cells: [
                ("flip", c.flip, win_rate(&c.flip)),
                ("standard", c.standard, win_rate(&c.standard)),
            ],
        }
    }
}

#[derive(Deserialize, Default)]
pub struct ProfileQuery {
    variant: Option<String>,
}

/// How many of a player's games the profile lists.
const RECENT_GAMES: i64 = 10;

pub async fn profile(
    hub: web::Data<Arc<Hub>>,
    session: Session,
    lang: Lang,
    path: web::Path<String>,
    q: web::Query<ProfileQuery>,
) -> Result<HttpResponse, AppError> {
    let variant = one_of(&q.variant, &Variant::NAMES, "variant")?.unwrap_or_else(|| "flip".into());
    let page = profile_page(&hub, &session, lang, path.into_inner(), variant, None).await?;
    Ok(lang.html(page))
}

#[derive(Deserialize)]
pub struct DisplayNameForm {
    display_name: String,
    /// Sent by the form's "remove" button.
    remove: Option<String>,
}

/// The display-name form of one's own profile (`POST /@/{name}`): back to the profile
/// once stored (303), or the profile again with the refusal (400).
pub async fn profile_form(
    hub: web::Data<Arc<Hub>>,
    session: Session,
    lang: Lang,
    path: web::Path<String>,
    form: web::Form<DisplayNameForm>,
) -> Result<HttpResponse, AppError> {
    let name = path.into_inner();
    let me = account(&hub, &session).await.ok_or(AppError::NotLoggedIn)?;
    if dbusers::username_key(&me.username) != dbusers::username_key(&name) {
        return Err(AppError::Forbidden(
            "a display name is set on one's own profile".into(),
        ));
    }
    let value = if form.remove.is_some() {
        ""
    } else {
        &form.display_name
    };
    match display_name::from_form(&hub, &session, value, lang.en).await? {
        None => Ok(HttpResponse::SeeOther()
            .insert_header((header::LOCATION, format!("/@/{}", me.username)))
            .finish()),
        Some(refused) => {
            let page =
                profile_page(&hub, &session, lang, name, "flip".into(), Some(refused)).await?;
            let mut res = lang.html(page);
            *res.status_mut() = StatusCode::BAD_REQUEST;
            Ok(res)
        }
    }
}

async fn profile_page(
    hub: &Arc<Hub>,
    session: &Session,
    lang: Lang,
    name: String,
    variant: String,
    refused: Option<Refused>,
) -> Result<String, AppError> {
    let v = variant.clone();
    let lookup = name;
    let en = lang.en;
    let (profile, names, vs_computer, computer_record, avatar) = blocking(hub.pool(), move |c| {
        let profile = match validate_username(&lookup) {
            Ok(()) => profiles::by_name(c, &lookup, &v, RECENT_GAMES)?,
            Err(_) => None,
        }
        .ok_or_else(|| {
            AppError::NotFound(format!("no player {}", crate::quote::quoted(&lookup)))
        })?;
        let names = display_names(c, &profile.recent)?;
        // A computer's own record, or a person's in all (split by opponent below).
        let own = profiles::all_games_record(c, profile.user_id)?;
        let vs = if profile.kind == COMPUTER {
            Vec::new()
        } else {
            profiles::record_vs_computers(c, profile.user_id)?
        };
        let avatar = dbusers::by_id(c, profile.user_id)?
            .map(|u| Avatar::of_user(&u))
            .unwrap_or_else(|| Avatar::default_for(profile.user_id));
        Ok((profile, names, vs, own, avatar))
    })
    .await?;
    let Profile {
        user_id: id,
        username: name,
        display_name,
        kind,
        stats,
        scores,
        recent,
    } = profile;
    let recent = rows(recent, &names, en, FromSide::Owner);
    let rank = Rank::for_score(stats.score);
    let user = account(hub, session).await;
    let viewer = user_id(session).filter(|&v| v != id);
    let social = matches!(
        kind.as_str(),
        crate::db::kinds::PERSON | crate::db::kinds::BOT
    ) && user
        .as_ref()
        .is_some_and(|u| u.kind != crate::db::kinds::GUEST);
    let ties = match viewer.filter(|_| social) {
        Some(v) => {
            let (following, blocked) = hub.ties(v, id).await?;
            Some(Ties {
                following,
                blocked,
                online: hub.presence().is_online(id),
            })
        }
        None => None,
    };
    let page = ProfilePage {
        user,
        ties,
        title: match &display_name {
            // Isolated (FSI … PDI), as <bdi> does on the page: a right-to-left name
            // cannot turn the title around.
            Some(d) => format!("\u{2068}{d}\u{2069} ({name})"),
            None => name.clone(),
        },
        en,
        level: level_of(&name),
        challenge_to: Some(name.clone()),
        name,
        display_name,
        own: user_id(session) == Some(id),
        refused,
        avatar,
        avatar_choices: &avatars::CHOICES,
        variant,
        score: stats.score,
        next: rank.next(),
        progress_pct: (Rank::progress(stats.score) * 100.0).round() as u32,
        rank,
        wins: stats.wins,
        draws: stats.draws,
        losses: stats.losses,
        games: stats.games,
        best_streak: stats.best_streak,
        streak: stats.streak,
        chart: score_chart(
            &scores,
            if en {
                "no rated games yet"
            } else {
                "还没有积分赛"
            },
        ),
        recent,
        computer: kind == COMPUTER,
        met_computer: vs_computer
            .iter()
            .any(|c| c.flip.games() + c.standard.games() > 0),
        records: if kind == COMPUTER {
            Vec::new()
        } else {
            record_rows(computer_record, &vs_computer, en)
        },
        computer_record,
        vs_computer: vs_computer.into_iter().map(|c| VsRow::new(c, en)).collect(),
    };
    page.render().map_err(AppError::internal)
}
