//! Accounts under pressure: concurrent registrations on SQLite never meet "database is
//! locked". Every test runs on SQLite and on PostgreSQL.

#[macro_use]
mod support;

use serde_json::json;
use support::{Client, Harness, TestDb};

db_tests! {
    concurrent_registrations_all_succeed => concurrent_registrations_all_succeed_sqlite, concurrent_registrations_all_succeed_postgres;
}

/// 200 registrations at once (each reads whether the name is taken, then writes) all
/// answer 201; two at once for one name give one 201 and one 409, never a 500. Before
/// write transactions began IMMEDIATE, SQLite refused some with "database is locked".
async fn concurrent_registrations_all_succeed(db: TestDb) {
    let h = Harness::start(db);
    let base = h.base();
    let register = |name: String| {
        let base = base.clone();
        async move {
            let mut c = Client::new(&base);
            let r = c
                .post(
                    "/api/register",
                    json!({"username": name, "password": "correct horse"}),
                )
                .await;
            (name, r)
        }
    };
    let answers =
        futures_util::future::join_all((0..200).map(|i| register(format!("racer{i}")))).await;
    let failed: Vec<String> = answers
        .iter()
        .filter(|(_, r)| r.status != 201)
        .map(|(name, r)| format!("{name}: {} {}", r.status, r.text))
        .collect();
    assert!(
        failed.is_empty(),
        "{} of 200 registrations failed, e.g. {:?}",
        failed.len(),
        &failed[..failed.len().min(5)]
    );

    let pairs = (0..20).flat_map(|i| [format!("twin{i}"), format!("TWIN{i}")]);
    let answers = futures_util::future::join_all(pairs.map(register)).await;
    for pair in answers.chunks(2) {
        let mut statuses = [pair[0].1.status, pair[1].1.status];
        statuses.sort();
        assert_eq!(
            statuses,
            [201, 409],
            "{}: {} / {}",
            pair[0].0,
            pair[0].1.text,
            pair[1].1.text
        );
    }
}
