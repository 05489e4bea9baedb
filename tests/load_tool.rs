//! `junqi load`, run small: a level of a few games on a fresh SQLite file, a crash
//! round (the server killed mid-load, restarted, every acknowledged action checked),
//! games against the computer beside a level, and 四国 tables alone and beside games.

use serde_json::Value;
use std::process::Command;

fn temp_db(name: &str) -> (tempdir::Dir, String) {
    let dir = tempdir::Dir::new(name);
    let url = dir.path.join("load.db").to_string_lossy().into_owned();
    (dir, url)
}

/// A directory removed at the end of the test.
mod tempdir {
    pub struct Dir {
        pub path: std::path::PathBuf,
    }

    impl Dir {
        pub fn new(name: &str) -> Dir {
            let path = std::env::temp_dir().join(format!("junqi-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&path);
            std::fs::create_dir_all(&path).unwrap();
            Dir { path }
        }
    }

    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}

fn load(url: &str, log: &std::path::Path, args: &[&str]) -> (bool, Value) {
    let (ok, report, _) = load_logged(url, log, args);
    (ok, report)
}

/// `load`, also handing back what the tool printed as it went (its progress and each
/// level's lines of the report).
fn load_logged(url: &str, log: &std::path::Path, args: &[&str]) -> (bool, Value, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_junqi"))
        .args(["load", "--json", "--database-url", url])
        .arg(format!("--server-log={}", log.display()))
        .args(args)
        .env_remove("DATABASE_URL")
        .output()
        .expect("junqi load runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let report: Value = serde_json::from_str(stdout.trim()).unwrap_or_else(|e| {
        let server = std::fs::read_to_string(log).unwrap_or_default();
        panic!("no JSON report ({e}): {stdout}\n{stderr}\nserver:\n{server}")
    });
    eprintln!("{stderr}");
    (out.status.success(), report, stderr.into_owned())
}

#[test]
fn a_small_level_plays_without_errors() {
    let (dir, url) = temp_db("load-level");
    let log = dir.path.join("server.log");
    let (ok, report) = load(
        &url,
        &log,
        &[
            "--levels", "20", "--warmup", "1", "--hold", "3", "--rate", "2",
        ],
    );
    assert!(ok, "{report}");
    let level = &report["levels"][0];
    assert_eq!(level["games"], 20, "{report}");
    assert_eq!(level["live"], 20, "{report}");
    assert_eq!(level["errors"], 0, "{report}");
    assert!(level["actions"].as_u64().unwrap() >= 60, "{report}");
    assert!(
        level["latency_ms"]["samples"].as_u64().unwrap() > 0,
        "{report}"
    );
    assert!(level["ack_ms"]["p99"].as_f64().unwrap() > 0.0, "{report}");
    assert!(level["server_rss_mib"].as_f64().unwrap() > 0.0, "{report}");
    assert!(
        level["server_peak_mib"].as_f64().unwrap() >= level["server_rss_mib"].as_f64().unwrap(),
        "the peak is at least what the server holds at the end: {report}"
    );

    // Again on the same database: the players are found, not made twice.
    let (ok, report) = load(
        &url,
        &log,
        &["--levels", "5", "--warmup", "0", "--hold", "1"],
    );
    assert!(ok, "{report}");
    assert_eq!(report["levels"][0]["errors"], 0, "{report}");
}

#[test]
fn a_crash_loses_no_acknowledged_action() {
    let (dir, url) = temp_db("load-crash");
    let log = dir.path.join("server.log");
    let (ok, report) = load(
        &url,
        &log,
        &[
            "--crash",
            "--crash-games",
            "20",
            "--crash-rounds",
            "1",
            "--crash-seconds",
            "4",
            "--rate",
            "4",
        ],
    );
    let crash = &report["crash"];
    let round = &crash["rounds"][0];
    assert!(ok, "{report}");
    assert!(round["games"].as_u64().unwrap() >= 20, "{report}");
    assert!(round["acked"].as_u64().unwrap() >= 100, "{report}");
    assert_eq!(crash["lost"], 0, "{report}");
    assert_eq!(crash["doubled"], 0, "{report}");
    assert_eq!(crash["stalled"], 0, "{report}");
    assert_eq!(crash["errors"], 0, "{report}");
    let log = std::fs::read_to_string(&log).unwrap();
    assert!(!log.contains("panicked"), "{log}");
}

#[test]
fn computer_games_play_beside_the_levels() {
    let (dir, url) = temp_db("load-computer");
    let log = dir.path.join("server.log");
    let (ok, report) = load(
        &url,
        &log,
        &[
            "--levels",
            "10",
            "--warmup",
            "1",
            "--hold",
            "4",
            "--rate",
            "2",
            "--computer-games",
            "3",
            "--computer-level",
            "easy",
        ],
    );
    assert!(ok, "{report}");
    let level = &report["levels"][0];
    assert_eq!(level["errors"], 0, "{report}");
    let computer = &level["computer"];
    assert_eq!(computer["level"], "easy", "{report}");
    assert_eq!(computer["live"], 3, "{report}");
    assert_eq!(computer["errors"], 0, "{report}");
    // The computer answered the person's actions while the level was measured.
    assert!(
        computer["replies_ms"]["samples"].as_u64().unwrap() >= 3,
        "{report}"
    );
}

#[test]
fn siguo_tables_play_alone_and_beside_games() {
    let (dir, url) = temp_db("load-tables");
    let log = dir.path.join("server.log");
    // Every table message is also read by serde and compared with the client's scan
    // (a difference is an error). The level's tables are all set up (seated, ready,
    // deployed) before the warm-up begins: the tool waits for that, not for a time.
    let (ok, report, printed) = load_logged(
        &url,
        &log,
        &[
            "--levels",
            "0",
            "--siguo-tables",
            "4",
            "--table-rate",
            "2",
            "--warmup",
            "1",
            "--hold",
            "5",
            "--check-table-parse",
        ],
    );
    assert!(ok, "{report}");
    let level = &report["levels"][0];
    assert_eq!(level["games"], 0, "{report}");
    assert_eq!(level["errors"], 0, "{report}");
    let tables = &level["tables"];
    assert_eq!(tables["tables"], 4, "{report}");
    assert_eq!(tables["live"], 4, "{report}");
    assert_eq!(tables["errors"], 0, "{report}");
    assert!(tables["started"].as_u64().unwrap() >= 4, "{report}");
    // Four tables at two actions a second each for five seconds play about 40; a
    // busy machine plays fewer, but some were acknowledged and seen by another seat.
    assert!(tables["actions"].as_u64().unwrap() >= 4, "{report}");
    assert!(
        tables["ack_ms"]["samples"].as_u64().unwrap() >= 4,
        "{report}"
    );
    assert!(
        tables["seen_ms"]["samples"].as_u64().unwrap() >= 4,
        "{report}"
    );
    assert!(tables["ack_ms"]["p99"].as_f64().unwrap() > 0.0, "{report}");
    assert!(tables["message_kib"].as_f64().unwrap() > 1.0, "{report}");
    assert!(tables["serde_us_per_message"].is_number(), "{report}");
    assert!(printed.contains("四国 tables: 4 of 4 live"), "{printed}");
    assert!(level["server_cpu_pct"].as_f64().unwrap() > 0.0, "{report}");

    // Beside a level of two-player games, on the same database (the players found,
    // not made again): both kinds play, on addresses of their own.
    let (ok, report) = load(
        &url,
        &log,
        &[
            "--levels",
            "6",
            "--siguo-tables",
            "2",
            "--warmup",
            "0",
            "--hold",
            "3",
            "--rate",
            "2",
            "--table-rate",
            "2",
        ],
    );
    assert!(ok, "{report}");
    let level = &report["levels"][0];
    assert_eq!(level["live"], 6, "{report}");
    assert_eq!(level["errors"], 0, "{report}");
    assert!(level["actions"].as_u64().unwrap() > 0, "{report}");
    let tables = &level["tables"];
    assert_eq!(tables["live"], 2, "{report}");
    assert_eq!(tables["errors"], 0, "{report}");
    assert!(tables["actions"].as_u64().unwrap() > 0, "{report}");
    let log = std::fs::read_to_string(&log).unwrap();
    assert!(!log.contains("panicked"), "{log}");
}
