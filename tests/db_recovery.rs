//! PostgreSQL connections lost under the service (a server restart, an administrator
//! ending sessions): the service finds out and opens fresh ones, with no restart of its
//! own. Connections back in the pool within the last half second are handed out
//! without a test query, so a request right after the loss may fail once per such
//! connection, with a clear error; after that every request is served.

#[macro_use]
mod support;

use diesel::prelude::*;
use std::time::{Duration, Instant};
use support::{Backend, Harness, TestDb};

#[derive(QueryableByName)]
struct Ended {
    #[diesel(sql_type = diesel::sql_types::Integer)]
    pid: i32,
    #[diesel(sql_type = diesel::sql_types::Bool)]
    signalled: bool,
}

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    n: i64,
}

/// Ends every other session on the test's database, as an administrator would, and
/// waits until they are gone. (`pg_terminate_backend` only signals a session; on a
/// loaded machine one can live on for a while and fail a request after the test has
/// moved on.)
fn end_sessions(url: &str) -> usize {
    let mut c = diesel::PgConnection::establish(url).expect("an admin connection");
    // In the select list, not the WHERE clause, so that it runs only on the rows the
    // WHERE clause keeps (never on this session).
    let ended: Vec<Ended> = diesel::sql_query(
        "SELECT pid, pg_terminate_backend(pid) AS signalled FROM pg_stat_activity \
         WHERE datname = current_database() AND pid <> pg_backend_pid()",
    )
    .load(&mut c)
    .expect("sessions ended");
    let pids: Vec<i32> = ended
        .iter()
        .filter(|e| e.signalled)
        .map(|e| e.pid)
        .collect();
    let deadline = Instant::now() + support::WAIT;
    loop {
        let left: Count =
            diesel::sql_query("SELECT count(*) AS n FROM pg_stat_activity WHERE pid = ANY($1)")
                .bind::<diesel::sql_types::Array<diesel::sql_types::Integer>, _>(&pids)
                .get_result(&mut c)
                .expect("count the sessions left");
        if left.n == 0 {
            return pids.len();
        }
        assert!(
            Instant::now() < deadline,
            "{} of the ended sessions are still there",
            left.n
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[actix_web::test]
async fn lost_postgres_connections_are_replaced() {
    let Some(db) = TestDb::new(Backend::Postgres) else {
        return;
    };
    let h = Harness::start(db);
    let mut alice = h.player("alice").await;
    let mut anon = h.client();
    assert_eq!(anon.get("/@/alice").await.status, 200);

    // Lost while idle: each connection is tested before it is used again.
    assert!(
        end_sessions(&h.db.url) >= 1,
        "the service had connections open"
    );
    // Not a wait for anything: the pool trusts a connection back within the last half
    // second without a test query (db::TRUSTED_FOR), on its own clock; this lets that
    // time pass, and a slow machine only makes it longer.
    tokio::time::sleep(Duration::from_millis(700)).await;
    for _ in 0..10 {
        let r = anon.get("/@/alice").await;
        assert_eq!(
            r.status, 200,
            "served after idle connections were lost: {}",
            r.text
        );
    }

    // Lost while busy: a request may fail, clearly, and the connection is not reused.
    end_sessions(&h.db.url);
    let mut failures = 0;
    for _ in 0..10 {
        let r = anon.get("/@/alice").await;
        if r.status != 200 {
            assert_eq!(
                r.status, 500,
                "a lost connection is an internal error: {}",
                r.text
            );
            failures += 1;
        }
    }
    assert!(
        failures <= 4,
        "at most once per pooled connection, not {failures} times"
    );
    for _ in 0..10 {
        assert_eq!(anon.get("/@/alice").await.status, 200);
    }
    // Writes work again too.
    let id = alice.create_game(30, true).await;
    assert_eq!(anon.get(&format!("/game/{id}")).await.status, 200);
}
