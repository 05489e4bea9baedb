//! PostgreSQL connections lost under the service (a server restart, an administrator
//! ending sessions): the service finds out and opens fresh ones, with no restart of its
//! own. Connections back in the pool within the last half second are handed out
//! without a test query, so a request right after the loss may fail once per such
//! connection, with a clear error; after that every request is served.

#[macro_use]
mod support;

use diesel::prelude::*;
use std::time::Duration;
use support::{Backend, Harness, TestDb};

/// Ends every other session on the test's database, as an administrator would.
fn end_sessions(url: &str) -> usize {
    let mut c = diesel::PgConnection::establish(url).expect("an admin connection");
    #[derive(QueryableByName)]
    struct Ended {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        n: i64,
    }
    let ended: Ended = diesel::sql_query(
        "SELECT count(pg_terminate_backend(pid)) AS n FROM pg_stat_activity \
         WHERE datname = current_database() AND pid <> pg_backend_pid()",
    )
    .get_result(&mut c)
    .expect("sessions ended");
    ended.n as usize
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
