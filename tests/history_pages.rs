//! The history, ladder and profile pages against a seeded database, on SQLite and
//! PostgreSQL: every game reachable by paging, filters that filter, a ladder in score
//! order with the right rank counts, and profiles that agree with the API.

#[macro_use]
mod support;

use junqi::db::schema::{game_players, games, user_stats};
use support::{Harness, TestDb};

use diesel::prelude::*;

const PLAYERS: u64 = 60;
const GAMES: u64 = 400;
const SEED: u64 = 7;

fn attr_values(html: &str, attr: &str) -> Vec<String> {
    let needle = format!("{attr}=\"");
    html.match_indices(&needle)
        .map(|(i, _)| {
            let rest = &html[i + needle.len()..];
            rest[..rest.find('"').expect("closing quote")].to_string()
        })
        .collect()
}

fn next_link(html: &str, id: &str) -> Option<String> {
    let at = html.find(&format!("id=\"{id}\""))?;
    let tag_start = html[..at].rfind('<')?;
    let tag = &html[tag_start..at + html[at..].find('>')?];
    let href = attr_values(tag, "href").into_iter().next()?;
    Some(href.replace("&amp;", "&"))
}

async fn seeded(db: TestDb) -> Harness {
    let pool = junqi::db::connect(&db.url, 2).expect("open the test database");
    junqi::seed::run(&pool, PLAYERS, GAMES, SEED).expect("seed");
    drop(pool);
    Harness::start(db)
}

fn player(i: u64) -> String {
    format!("s{SEED}_{i:06}")
}

async fn every_game_is_reachable_by_paging_in_order(db: TestDb) {
    let url = db.url.clone();
    let h = seeded(db).await;
    let mut c = h.client();
    let mut seen: Vec<String> = Vec::new();
    let mut path = "/games".to_string();
    loop {
        let r = c.get(&path).await;
        assert_eq!(r.status, 200, "{path}: {}", r.text);
        let ids = attr_values(&r.text, "data-game-id");
        assert!(ids.len() <= 50, "a page holds at most 50 games");
        seen.extend(ids);
        match next_link(&r.text, "history-next") {
            Some(href) => path = format!("/games{href}"),
            None => break,
        }
    }
    let mut conn = junqi::db::connect(&url, 1).unwrap().get().unwrap();
    let expected: Vec<String> = games::table
        .filter(games::status.eq("finished"))
        .order((games::ended_at.desc(), games::id.desc()))
        .select(games::id)
        .load(&mut **conn)
        .unwrap();
    assert_eq!(seen.len() as u64, GAMES, "every finished game appears once");
    assert_eq!(seen, expected, "newest first, no game twice, none skipped");

    // A reason filter shows only that reason, all of them.
    let r = c.get("/games?reason=flag").await;
    let reasons = attr_values(&r.text, "data-reason");
    assert!(!reasons.is_empty());
    assert!(reasons.iter().all(|x| x == "flag"), "{reasons:?}");
    let flags: i64 = games::table
        .filter(games::reason.eq("flag"))
        .count()
        .get_result(&mut **conn)
        .unwrap();
    assert_eq!(reasons.len() as i64, flags.min(50));

    // A bad filter is refused with a clear error, not ignored.
    let r = c.get("/games?reason=bribery").await;
    assert_eq!(r.status, 400);
    assert!(r.text.contains("bribery"));
}

async fn a_players_pages_agree_with_their_record(db: TestDb) {
    let url = db.url.clone();
    let h = seeded(db).await;
    let mut c = h.client();
    let name = player(3);
    let api = c.player(&name).await;
    let games_played = api["games"].as_i64().unwrap();
    assert!(games_played > 0, "seeded players have games");

    // Their history: every row has them in it, all their games across pages.
    let mut rows = 0;
    let mut path = format!("/@/{name}/games");
    loop {
        let r = c.get(&path).await;
        assert_eq!(r.status, 200);
        let ids = attr_values(&r.text, "data-game-id");
        rows += ids.len() as i64;
        let body = &r.text[r.text.find("<tbody>").expect("a table body")..];
        let mentions = body.matches(&format!("href=\"/@/{name}\"")).count();
        assert_eq!(mentions, ids.len(), "each row names the player once");
        match next_link(&r.text, "history-next") {
            Some(href) => path = format!("/@/{name}/games{href}"),
            None => break,
        }
    }
    assert_eq!(rows, games_played);

    // Won-only filter matches their win count.
    let r = c.get(&format!("/@/{name}/games?result=win")).await;
    let wins = attr_values(&r.text, "data-game-id").len() as i64;
    assert_eq!(wins, api["wins"].as_i64().unwrap().min(50));

    // The profile shows the same score and counts as the API.
    let r = c.get(&format!("/@/{name}")).await;
    assert_eq!(r.status, 200);
    let score = attr_values(&r.text, "data-score")[0]
        .parse::<i64>()
        .unwrap();
    assert_eq!(score, api["score"].as_i64().unwrap());
    assert!(
        r.text
            .contains(&format!("id=\"stat-games\">{games_played}<"))
    );
    assert!(
        r.text.contains("<svg class=\"score-chart\""),
        "the score chart is drawn on the server"
    );
    let rank = api["rank"]["chinese"].as_str().unwrap();
    assert!(r.text.contains(rank));

    // Unknown players are a 404, not an empty page.
    assert_eq!(c.get("/@/nobody_here").await.status, 404);

    // The per-player index holds exactly their games.
    let mut conn = junqi::db::connect(&url, 1).unwrap().get().unwrap();
    let indexed: i64 = game_players::table
        .inner_join(junqi::db::schema::users::table)
        .filter(junqi::db::schema::users::username.eq(&name))
        .count()
        .get_result(&mut **conn)
        .unwrap();
    assert_eq!(indexed, games_played);
}

async fn the_ladder_orders_by_score_and_counts_ranks(db: TestDb) {
    let url = db.url.clone();
    let h = seeded(db).await;
    let mut c = h.client();
    let r = c.get("/ladder").await;
    assert_eq!(r.status, 200);
    let scores: Vec<i64> = attr_values(&r.text, "data-score")
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    assert_eq!(scores.len(), 50, "a full first page");
    assert!(
        scores.windows(2).all(|w| w[0] >= w[1]),
        "best first: {scores:?}"
    );
    let mut conn = junqi::db::connect(&url, 1).unwrap().get().unwrap();
    let best: i64 = user_stats::table
        .filter(user_stats::variant.eq("flip"))
        .select(diesel::dsl::max(user_stats::score))
        .first::<Option<i64>>(&mut **conn)
        .unwrap()
        .unwrap();
    assert_eq!(scores[0], best);

    // Page 2 holds the rest; the 18 rank counts add up to every player.
    let r2 = c.get("/ladder?page=2").await;
    assert_eq!(
        attr_values(&r2.text, "data-score").len() as u64,
        PLAYERS - 50
    );
    let counts_table = &r.text[r.text.find("id=\"rank-counts\"").unwrap()..];
    let levels = attr_values(counts_table, "data-level");
    assert_eq!(levels.len(), 18);
    let total: i64 = counts_table
        .split("<td class=\"num\">")
        .skip(1)
        .enumerate()
        .filter(|(i, _)| i % 2 == 1)
        .map(|(_, s)| s[..s.find('<').unwrap()].trim().parse::<i64>().unwrap())
        .sum();
    assert_eq!(total as u64, PLAYERS);

    // Name search finds by prefix.
    let r = c.get(&format!("/ladder?q={}", &player(1)[..8])).await;
    let names = attr_values(&r.text, "data-username");
    assert!(
        !names.is_empty() && names.iter().all(|n| n.starts_with(&player(1)[..8])),
        "{names:?}"
    );

    // A logged-in player sees their own position highlighted.
    let mut me = h.player("ladder_me").await;
    let r = me.get("/ladder").await;
    let mine = &r.text[r
        .text
        .find("id=\"my-position\"")
        .expect("the position is shown")..];
    let href = attr_values(mine, "href")[0].replace("&amp;", "&");
    let r = me.get(&format!("/ladder{href}")).await;
    let row = &r.text[r
        .text
        .find("class=\"ladder-row me\"")
        .expect("the player's own row is marked")..];
    assert!(row.contains("data-username=\"ladder_me\""));
}

async fn pages_switch_language(db: TestDb) {
    let h = seeded(db).await;
    let mut c = h.client();
    let zh = c.get("/ladder").await;
    assert!(zh.text.contains("<html lang=\"zh-CN\">") && zh.text.contains("天梯"));
    let en = c.get("/ladder?lang=en").await;
    assert!(en.text.contains("<html lang=\"en\">") && en.text.contains("Ladder"));
    assert!(
        en.text.contains("title=\"Private\""),
        "rank names carry English in English mode"
    );
}

db_tests! {
    every_game_is_reachable_by_paging_in_order => paging_sqlite, paging_postgres;
    a_players_pages_agree_with_their_record => player_pages_sqlite, player_pages_postgres;
    the_ladder_orders_by_score_and_counts_ranks => ladder_sqlite, ladder_postgres;
    pages_switch_language => language_sqlite, language_postgres;
}
