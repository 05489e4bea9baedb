//! Migrations on SQLite and PostgreSQL: they go down and up again cleanly, a database
//! written by the release before the player-pages migration keeps every game, name,
//! score and chart point once upgraded, and players stored before display names keep
//! their accounts, with no display name, and the sessions migration drops the cookie key
//! under which a cookie carried the user id itself.

#[macro_use]
mod support;

use diesel::prelude::*;
use junqi::db::history::{self, Filter};
use junqi::db::{self, DbConn, profiles};
use support::TestDb;

db_tests! {
    all_migrations_go_down_and_up_again => all_migrations_go_down_and_up_again_sqlite, all_migrations_go_down_and_up_again_postgres;
    player_pages_migration_keeps_existing_games => player_pages_migration_keeps_existing_games_sqlite, player_pages_migration_keeps_existing_games_postgres;
    display_names_migration_keeps_players => display_names_migration_keeps_players_sqlite, display_names_migration_keeps_players_postgres;
    sessions_migration_drops_the_old_cookie_key => sessions_migration_drops_the_old_cookie_key_sqlite, sessions_migration_drops_the_old_cookie_key_postgres;
}

#[derive(QueryableByName)]
struct Newest {
    #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::Text>)]
    version: Option<String>,
}

/// Reverts migrations until none from `version` on (say "20261129000004", the
/// player-pages one) is applied: the shape of the release before it, whatever
/// migrations came after.
fn revert_to_before(c: &mut DbConn, version: &str) {
    loop {
        let newest: Newest =
            diesel::sql_query("SELECT MAX(version) AS version FROM __diesel_schema_migrations")
                .get_result(c)
                .unwrap();
        match newest.version {
            Some(v) if v.as_str() >= version => db::revert_last_migration(c).unwrap(),
            _ => break,
        }
    }
}

fn exec(c: &mut DbConn, sql: &str) {
    diesel::sql_query(sql)
        .execute(c)
        .unwrap_or_else(|e| panic!("{sql}: {e}"));
}

async fn all_migrations_go_down_and_up_again(db: TestDb) {
    let pool = db::connect(&db.url, 1).expect("migrations apply to a fresh database");
    let mut conn = pool.get().unwrap();
    db::revert_all_migrations(&mut conn).expect("every migration goes down");
    db::run_migrations(&mut conn).expect("and up again");
    exec(
        &mut conn,
        "INSERT INTO users (username, username_key, password_hash, created_at) \
         VALUES ('again', 'again', 'x', 1)",
    );
}

async fn player_pages_migration_keeps_existing_games(db: TestDb) {
    let pool = db::connect(&db.url, 1).unwrap();
    let mut conn = pool.get().unwrap();
    let c: &mut DbConn = &mut conn;
    // Back to the shape the release before player pages stored (display names, then
    // player pages, undone), and a finished game in it.
    db::revert_migrations_after(c, "2026-11-29-000003_score_chart").unwrap();
    exec(
        c,
        "INSERT INTO users (id, username, username_key, password_hash, created_at) VALUES \
         (1, 'Alice', 'alice', 'x', 1), (2, 'bob', 'bob', 'x', 1)",
    );
    for user in [1, 2] {
        for variant in ["flip", "standard"] {
            exec(
                c,
                &format!(
                    "INSERT INTO user_stats (user_id, variant, score, wins, draws, losses, games) \
                     VALUES ({user}, '{variant}', 0, 0, 0, 0, 0)"
                ),
            );
        }
    }
    exec(
        c,
        "UPDATE user_stats SET score = 9, wins = 2, games = 3, losses = 1 \
         WHERE user_id = 1 AND variant = 'flip'",
    );
    for (id, ended, result, reason, score_s, score_n, before_s) in [
        ("G1", 1000, "south", "flag", 5, -5, 0),
        ("G2", 2000, "north", "resign", -3, 3, 5),
        ("G3", 3000, "south", "no_moves", 7, -7, 2),
    ] {
        exec(
            c,
            &format!(
                "INSERT INTO games (id, variant, status, rated, seconds_per_action, options, base, \
                 creator_id, south_id, north_id, first_seat, result, reason, score_south, \
                 score_north, colour_south, steps, created_at, started_at, ended_at, \
                 score_before_south, score_before_north) VALUES ('{id}', 'flip', 'finished', \
                 TRUE, 30, '{{}}', 1, 1, 1, 2, 'south', '{result}', '{reason}', {score_s}, \
                 {score_n}, 'red', 42, 1, 1, {ended}, {before_s}, 0)"
            ),
        );
        for (user, outcome) in [
            (1, if result == "south" { "win" } else { "loss" }),
            (2, if result == "south" { "loss" } else { "win" }),
        ] {
            exec(
                c,
                &format!(
                    "INSERT INTO game_players (user_id, game_id, variant, outcome, ended_at) \
                     VALUES ({user}, '{id}', 'flip', '{outcome}', {ended})"
                ),
            );
        }
        exec(
            c,
            &format!(
                "INSERT INTO score_history (user_id, game_id, variant, delta, score_after, \
                 created_at) VALUES (1, '{id}', 'flip', {score_s}, {}, {ended})",
                before_s + score_s
            ),
        );
    }

    db::run_migrations(c).expect("the player-pages migration applies to existing data");

    let lines = history::page(
        c,
        &Filter {
            player: Some("ALICE".into()),
            ..Filter::default()
        },
        None,
        50,
    )
    .unwrap();
    let ids: Vec<&str> = lines.iter().map(|l| l.game.id.as_str()).collect();
    assert_eq!(ids, ["G3", "G2", "G1"], "every game, newest first");
    let g2 = &lines[1];
    assert_eq!(g2.south_name.as_deref(), Some("Alice"));
    assert_eq!(g2.north_name.as_deref(), Some("bob"));
    assert_eq!(g2.game.result.as_deref(), Some("north"));
    assert_eq!(g2.game.reason.as_deref(), Some("resign"));
    assert_eq!(
        (g2.game.score_south, g2.game.score_north),
        (Some(-3), Some(3))
    );
    assert_eq!(g2.game.score_before_south, Some(5));
    assert_eq!(g2.game.steps, 42);
    assert!(g2.game.rated);
    assert_eq!(g2.game.colour_south.as_deref(), Some("red"));

    let wins = history::page(
        c,
        &Filter {
            player: Some("bob".into()),
            outcome: Some("win".into()),
            ..Filter::default()
        },
        None,
        50,
    )
    .unwrap();
    assert_eq!(wins.len(), 1, "bob's outcomes came across");
    assert_eq!(wins[0].game.id, "G2");

    let alice = profiles::by_name(c, "alice", "flip", 10)
        .unwrap()
        .expect("the profile reads");
    assert_eq!(
        alice.scores,
        [5, 2, 9],
        "the chart keeps the scores, oldest first"
    );
    assert_eq!(alice.stats.score, 9);
    assert_eq!(alice.recent.len(), 3);
    let bob = profiles::by_name(c, "bob", "flip", 10).unwrap().unwrap();
    assert!(bob.scores.is_empty(), "bob had no score history");
    let standard = profiles::by_name(c, "alice", "standard", 10)
        .unwrap()
        .unwrap();
    assert!(standard.recent.is_empty() && standard.scores.is_empty());
    assert!(profiles::by_name(c, "carol", "flip", 10).unwrap().is_none());
}

async fn display_names_migration_keeps_players(db: TestDb) {
    let pool = db::connect(&db.url, 1).unwrap();
    let mut conn = pool.get().unwrap();
    let c: &mut DbConn = &mut conn;
    db::revert_migrations_after(c, "2026-11-29-000004_player_pages").unwrap();
    exec(
        c,
        "INSERT INTO users (id, username, username_key, password_hash, created_at) VALUES \
         (1, 'Alice', 'alice', 'x', 1)",
    );
    db::run_migrations(c).expect("the display-names migration applies to existing players");
    let alice = junqi::db::users::by_name(c, "alice").unwrap().unwrap();
    assert_eq!((alice.id, alice.username.as_str()), (1, "Alice"));
    assert_eq!(alice.display_name, None);
    assert!(junqi::db::users::set_display_name(c, 1, Some("小明")).unwrap());
    let alice = junqi::db::users::by_id(c, 1).unwrap().unwrap();
    assert_eq!(alice.display_name.as_deref(), Some("小明"));
    assert!(
        !junqi::db::users::set_display_name(c, 99, Some("x")).unwrap(),
        "no such player"
    );
}

async fn sessions_migration_drops_the_old_cookie_key(db: TestDb) {
    let pool = db::connect(&db.url, 1).unwrap();
    let mut conn = pool.get().unwrap();
    let c: &mut DbConn = &mut conn;
    revert_to_before(c, "20261129000006");
    exec(
        c,
        "INSERT INTO settings (key, value) VALUES ('session_key', 'old'), ('other', 'kept')",
    );
    db::run_migrations(c).expect("the sessions migration applies");
    assert_eq!(db::setting(c, "session_key").unwrap(), None);
    assert_eq!(db::setting(c, "other").unwrap().as_deref(), Some("kept"));
    exec(
        c,
        "INSERT INTO users (id, username, username_key, password_hash, created_at) VALUES \
         (1, 'Alice', 'alice', 'x', 1)",
    );
    junqi::db::sessions::create(c, "hash", 1, Some("agent"), 5).unwrap();
    assert_eq!(junqi::db::sessions::user_of(c, "hash", 6).unwrap(), Some(1));
}
