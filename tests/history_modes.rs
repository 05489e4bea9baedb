//! The history lists filter 四国 tables by mode (对家 `opposite`, 并肩 `adjacent`,
//! 混战 `none`: the option `alliance`), on SQLite and PostgreSQL: the mode is written
//! when a table ends and, for tables stored before it had a column, by the migration
//! from their options; `?alliance=` lists exactly the tables of that mode, across
//! pages, together with the player and result filters and on a player's own list; the
//! chips show with 四国 only; an unknown mode is a 400 and another variant ignores it.
//! The result filter finds a 四国 table by any seat of its winning side, and the
//! result and reason choices are each variant's own.

#[macro_use]
mod support;

use diesel::prelude::*;
use junqi::db::games::GameRow;
use junqi::db::schema::{game_players, games};
use junqi::db::tables::{self, SeatEnd, SeatRow, TableEnd};
use junqi::db::users::{self, GameResult};
use junqi::db::{self, DbConn};
use junqi::live::table::TableOptions;
use junqi::rules::siguo::{Alliance, SiguoOptions};
use support::{Harness, TestDb};

db_tests! {
    the_history_filters_tables_by_mode => modes_sqlite, modes_postgres;
}

const SEATS: [&str; 4] = ["south", "east", "north", "west"];

/// A table of `mode` with these four players, played and ended at `ended_at`: south
/// and its side win, or (`draw`) nobody does. Its options are stored as a real table's.
fn finished_table(
    c: &mut DbConn,
    who: [i64; 4],
    mode: Alliance,
    draw: bool,
    ended_at: i64,
) -> String {
    let options = TableOptions {
        siguo: SiguoOptions {
            alliance: mode,
            ..SiguoOptions::default()
        },
        grace_seconds: 60,
        deploy_seconds: 120,
    };
    let row = GameRow::open(
        junqi::live::new_game_id(),
        "siguo",
        false,
        30,
        serde_json::to_string(&options).unwrap(),
        who[0],
        ended_at - 100,
    );
    let id = row.id.clone();
    tables::create(c, &row, &SeatRow::new(&id, "south", who[0], 0)).unwrap();
    let side = |i: usize| match mode {
        Alliance::Opposite => i % 2,
        Alliance::Adjacent => i / 2,
        Alliance::None => i,
    };
    let seats: Vec<SeatRow> = (0..4)
        .map(|i| SeatRow::new(&id, SEATS[i], who[i], side(i) as i32))
        .collect();
    assert!(tables::set_seats(c, &id, &seats).unwrap());
    assert!(tables::start(c, &id, "{}", ended_at - 90, ended_at - 60).unwrap());
    let result = |i: usize| match () {
        _ if draw => GameResult::Draw,
        _ if side(i) == side(0) => GameResult::Win,
        _ => GameResult::Loss,
    };
    let ends: Vec<SeatEnd> = (0..4)
        .map(|i| SeatEnd {
            seat: SEATS[i],
            user_id: who[i],
            state: "done",
            result: Some(result(i)),
            score_change: Some(0),
            tuoguan_count: 0,
        })
        .collect();
    let winners: Vec<&str> = (0..4)
        .filter(|&i| result(i) == GameResult::Win)
        .map(|i| SEATS[i])
        .collect();
    let winners = winners.join("+");
    let end = TableEnd {
        result: if draw { "draw" } else { &winners },
        reason: if draw { "agreed" } else { "one_alliance_left" },
        steps: 60,
        ended_at,
        seats: &ends,
    };
    assert!(tables::end(c, &id, &end).unwrap());
    id
}

/// Game ids with the mode stored beside them.
type Modes = Vec<(String, Option<String>)>;

/// Each finished 四国 table's stored mode, and each of its history lines', by id.
fn stored_modes(c: &mut DbConn) -> (Modes, Modes) {
    let on_games = games::table
        .filter(games::variant.eq("siguo"))
        .order(games::id)
        .select((games::id, games::alliance))
        .load(c)
        .unwrap();
    let on_lines = game_players::table
        .filter(game_players::variant.eq("siguo"))
        .order((game_players::game_id, game_players::user_id))
        .select((game_players::game_id, game_players::alliance))
        .load(c)
        .unwrap();
    (on_games, on_lines)
}

/// The rows of a history page: (game id, its data-alliance), in order.
fn rows(html: &str) -> Vec<(String, String)> {
    html.split("<tr class=\"game-row\"")
        .skip(1)
        .map(|row| {
            let tag = &row[..row.find('>').unwrap()];
            let attr = |name: &str| {
                let key = format!("{name}=\"");
                tag.find(&key).map_or(String::new(), |at| {
                    let rest = &tag[at + key.len()..];
                    rest[..rest.find('"').unwrap()].to_string()
                })
            };
            (attr("data-game-id"), attr("data-alliance"))
        })
        .collect()
}

fn ids(html: &str) -> Vec<String> {
    rows(html).into_iter().map(|(id, _)| id).collect()
}

/// The href of the link whose tag holds `marker`, unescaped.
fn href_of(html: &str, marker: &str) -> Option<String> {
    let at = html.find(marker)?;
    let tag = &html[html[..at].rfind('<')?..at + html[at..].find('>')?];
    let from = tag.find("href=\"")? + 6;
    Some(
        tag[from..from + tag[from..].find('"')?]
            .replace("&amp;", "&")
            .replace("&#38;", "&"),
    )
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

async fn the_history_filters_tables_by_mode(db: TestDb) {
    let pool = db::connect(&db.url, 1).unwrap();
    // A few two-player games beside the tables.
    junqi::seed::run(&pool, 4, 6, 3).expect("seed");
    let mut conn = pool.get().unwrap();
    let c: &mut DbConn = &mut conn;
    let p = |c: &mut DbConn, name: &str| users::create(c, name, "x").unwrap().unwrap().id;
    let [ann, bob, cat, dan, eve] = ["ann", "bob", "cat", "dan", "eve"].map(|n| p(c, n));
    let t0 = 1_800_000_000_000_i64;
    // 51 并肩 tables (more than a page), ann at three of them, one of those a draw;
    // two 对家 tables and one 混战 table, all with ann. Each ends a second apart, so the
    // newest-first order is known; the kinds are interleaved in time.
    let mut adjacent = Vec::new();
    let mut ann_adjacent = Vec::new();
    let mut adjacent_draw = String::new();
    let mut opposite = Vec::new();
    let mut none = Vec::new();
    for i in 0..54_i64 {
        let at = t0 + i * 1000;
        match i {
            10 | 30 => opposite.push(finished_table(
                c,
                [ann, bob, cat, dan],
                Alliance::Opposite,
                false,
                at,
            )),
            20 => none.push(finished_table(
                c,
                [ann, bob, cat, dan],
                Alliance::None,
                false,
                at,
            )),
            5 | 25 | 45 => {
                let draw = i == 25;
                let id = finished_table(c, [bob, ann, cat, dan], Alliance::Adjacent, draw, at);
                if draw {
                    adjacent_draw = id.clone();
                }
                ann_adjacent.push(id.clone());
                adjacent.push(id);
            }
            _ => adjacent.push(finished_table(
                c,
                [eve, bob, cat, dan],
                Alliance::Adjacent,
                false,
                at,
            )),
        }
    }
    assert_eq!(adjacent.len(), 51);
    let newest_first = |v: &[String]| v.iter().rev().cloned().collect::<Vec<_>>();

    // The end wrote each table's mode on its row and on its players' lines.
    let written = stored_modes(c);
    let mode_of = |id: &String| {
        if opposite.contains(id) {
            "opposite"
        } else if none.contains(id) {
            "none"
        } else {
            "adjacent"
        }
    };
    assert_eq!(written.0.len(), 54);
    for (id, mode) in &written.0 {
        assert_eq!(mode.as_deref(), Some(mode_of(id)), "{id}");
    }
    assert_eq!(written.1.len(), 54 * 4, "a line per player of each table");
    assert!(
        written
            .1
            .iter()
            .all(|(id, m)| m.as_deref() == Some(mode_of(id)))
    );
    // Tables stored before the column existed get the same modes from their options.
    db::revert_migrations_after(c, "2026-12-07-000100_siguo_stats").expect("down");
    assert!(
        diesel::sql_query("SELECT alliance FROM games")
            .execute(c)
            .is_err(),
        "the column is gone"
    );
    db::run_migrations(c).expect("up again");
    assert_eq!(
        stored_modes(c),
        written,
        "the migration reads the mode from the options"
    );
    drop(conn);
    drop(pool);

    let h = Harness::start(db);
    let mut web = h.client();

    // Every mode's list holds exactly its tables, newest first; 并肩's second page
    // keeps the mode.
    let page = web.get("/games?variant=siguo&alliance=adjacent").await;
    assert_eq!(page.status, 200, "{}", page.text);
    let first = rows(&page.text);
    assert_eq!(first.len(), 50, "a full page");
    assert!(first.iter().all(|(_, m)| m == "adjacent"), "{first:?}");
    let next = href_of(&page.text, "id=\"history-next\"").expect("an older page");
    assert!(next.contains("alliance=adjacent"), "{next}");
    let second = web.get(&format!("/games{next}")).await;
    let mut listed = ids(&page.text);
    listed.extend(ids(&second.text));
    assert_eq!(
        listed,
        newest_first(&adjacent),
        "every 并肩 table once, no other"
    );
    for (mode, tables) in [("opposite", &opposite), ("none", &none)] {
        let page = web
            .get(&format!("/games?variant=siguo&alliance={mode}"))
            .await;
        assert_eq!(page.status, 200);
        assert_eq!(ids(&page.text), newest_first(tables), "{mode}");
        assert!(rows(&page.text).iter().all(|(_, m)| m == mode));
    }
    // Every mode: all 54 tables across two pages, and no two-player game.
    let all = web.get("/games?variant=siguo").await;
    assert_eq!(ids(&all.text).len(), 50);
    assert!(rows(&all.text).iter().all(|(_, m)| !m.is_empty()));

    // The chips: shown with 四国, each a link to its mode with the other filters kept,
    // the chosen one marked; not shown for another variant.
    for (value, href) in [
        ("", "?variant=siguo&result=draw"),
        ("opposite", "?variant=siguo&result=draw&alliance=opposite"),
        ("adjacent", "?variant=siguo&result=draw&alliance=adjacent"),
        ("none", "?variant=siguo&result=draw&alliance=none"),
    ] {
        let page = web
            .get("/games?variant=siguo&result=draw&alliance=adjacent")
            .await;
        let chip = format!("data-alliance=\"{value}\"");
        assert_eq!(href_of(&page.text, &chip).as_deref(), Some(href), "{value}");
    }
    let chosen = web.get("/games?variant=siguo&alliance=none").await;
    assert!(
        chosen
            .text
            .contains("data-alliance=\"none\" aria-current=\"page\"")
    );
    assert_eq!(chosen.text.matches("aria-current=\"page\"").count(), 1);
    assert!(chosen.text.contains("id=\"history-modes\""));
    let flip = web.get("/games?variant=flip").await;
    assert!(
        !flip.text.contains("id=\"history-modes\""),
        "no chips for flip chess"
    );
    assert!(!ids(&flip.text).is_empty(), "the seeded games");
    // With another variant the mode is dropped: that variant's games, not an error.
    let ignored = web.get("/games?variant=flip&alliance=adjacent").await;
    assert_eq!(ignored.status, 200);
    assert_eq!(ids(&ignored.text), ids(&flip.text));

    // With the other filters: result, player; and a player's own list.
    let draws = web
        .get("/games?variant=siguo&alliance=adjacent&result=draw")
        .await;
    assert_eq!(ids(&draws.text), [adjacent_draw.clone()]);
    let anns = web
        .get("/games?player=ann&variant=siguo&alliance=adjacent")
        .await;
    assert_eq!(ids(&anns.text), newest_first(&ann_adjacent));
    let own = web
        .get("/@/ann/games?variant=siguo&alliance=adjacent")
        .await;
    assert_eq!(own.status, 200, "{}", own.text);
    assert_eq!(ids(&own.text), newest_first(&ann_adjacent));
    assert!(
        own.text.contains("id=\"history-modes\""),
        "the chips on a player's list too"
    );
    assert_eq!(
        href_of(&own.text, "data-alliance=\"none\"").as_deref(),
        Some("?variant=siguo&alliance=none"),
        "a player's list keeps its own address"
    );
    let own_draws = web
        .get("/@/ann/games?variant=siguo&alliance=adjacent&result=draw")
        .await;
    assert_eq!(ids(&own_draws.text), [adjacent_draw.clone()]);
    let own_none = web.get("/@/ann/games?variant=siguo&alliance=none").await;
    assert_eq!(ids(&own_none.text), none);
    let own_all = web.get("/@/ann/games?variant=siguo").await;
    assert_eq!(
        sorted(ids(&own_all.text)),
        sorted([&opposite[..], &none[..], &ann_adjacent[..]].concat()),
        "every mode: all six of her tables"
    );
    let eves = web
        .get("/@/eve/games?variant=siguo&alliance=opposite")
        .await;
    assert!(ids(&eves.text).is_empty(), "eve sat at 并肩 tables only");

    // The result filter names a winning seat: a seat of the winning alliance (every
    // table here was won by south's side), across modes and variants.
    let won_by = |a: &[String], b: &[String]| [a, b].concat();
    let east_won: Vec<String> = adjacent
        .iter()
        .filter(|id| **id != adjacent_draw)
        .cloned()
        .collect();
    for (path, expected) in [
        (
            "/games?variant=siguo&alliance=adjacent&result=east",
            east_won.clone(),
        ),
        ("/games?variant=siguo&result=north", opposite.clone()),
        (
            "/games?variant=siguo&alliance=none&result=south",
            none.clone(),
        ),
        ("/games?variant=siguo&result=west", Vec::new()),
        (
            "/games?variant=siguo&reason=agreed",
            vec![adjacent_draw.clone()],
        ),
        (
            "/games?variant=siguo&alliance=opposite&reason=one_alliance_left",
            opposite.clone(),
        ),
    ] {
        let page = web.get(path).await;
        assert_eq!(page.status, 200, "{path}: {}", page.text);
        assert_eq!(ids(&page.text), newest_first(&expected), "{path}");
    }
    let south_or_north = web.get("/games?result=north").await;
    let listed = ids(&south_or_north.text);
    assert!(
        opposite.iter().all(|id| listed.contains(id)),
        "every variant's north wins hold the 对家 tables"
    );
    assert!(
        listed.len() > opposite.len(),
        "and the seeded two-player games"
    );
    assert!(
        !won_by(&none, &adjacent)
            .iter()
            .any(|id| listed.contains(id))
    );
    // The choices fit the variant: four seats and 四国's reasons for 四国 only.
    let four = web.get("/games?variant=siguo").await;
    for choice in [
        "value=\"east\"",
        "value=\"unscored\"",
        "value=\"play_on_declined\"",
    ] {
        assert!(four.text.contains(choice), "{choice}");
        assert!(!flip.text.contains(choice), "not for flip chess: {choice}");
    }
    assert!(!four.text.contains("value=\"flag\""), "no flag in 四国");
    // A choice of another variant is dropped (the form carries it on when the variant
    // is switched); one that no variant has is refused, naming it.
    for path in [
        "/games?variant=flip&result=east",
        "/games?variant=flip&reason=one_alliance_left",
    ] {
        let r = web.get(path).await;
        assert_eq!(r.status, 200, "{path}");
        assert_eq!(ids(&r.text), ids(&flip.text), "{path}: flip's games");
    }
    let r = web.get("/games?variant=siguo&reason=flag").await;
    assert_eq!(ids(&r.text), ids(&four.text), "no flag filter for 四国");
    for path in [
        "/games?variant=siguo&result=eastern",
        "/games?reason=flagged",
    ] {
        let r = web.get(path).await;
        r.assert_error_page(400, "bad_request");
        assert!(r.text.contains("ed\""), "{path}: {}", r.text);
    }

    // An unknown mode is refused, naming it, whatever else is asked.
    for path in [
        "/games?variant=siguo&alliance=duijia",
        "/games?alliance=duijia",
        "/@/ann/games?variant=siguo&alliance=duijia",
    ] {
        let r = web.get(path).await;
        r.assert_error_page(400, "bad_request");
        assert!(r.text.contains("duijia"), "{path}: {}", r.text);
    }
}
