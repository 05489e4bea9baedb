//! Runs the real `junqi arena`: the two-player-only players are refused at a 四国
//! table with exit code 2 and a message naming them, every player name is accepted,
//! and `--threads` reports the same games as one thread.

use serde_json::Value;
use std::process::{Command, Output};

fn arena(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_junqi"))
        .arg("arena")
        .args(args)
        .output()
        .expect("junqi runs")
}

#[test]
fn siguo_refuses_the_two_player_only_players() {
    for (a, b, named) in [
        ("hard-v1", "random", "hard-v1"),
        ("greedy", "expectimax2", "expectimax2"),
    ] {
        let out = arena(&["--variant", "siguo", "--a", a, "--b", b, "--games", "1"]);
        assert_eq!(out.status.code(), Some(2), "{a} vs {b}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(named) && err.contains("四国"), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn unknown_players_are_refused_with_the_names() {
    let out = arena(&["--a", "grandmaster", "--b", "random"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    for name in [
        "easy",
        "normal",
        "hard",
        "master",
        "hard-v1",
        "expectimax2",
        "random",
        "greedy",
    ] {
        assert!(err.contains(name), "{name} missing from {err}");
    }
}

/// The JSON report without its times.
fn results(args: &[&str]) -> Value {
    let out = arena(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut v: Value = serde_json::from_slice(&out.stdout).expect("a JSON report");
    let o = v.as_object_mut().unwrap();
    o.remove("seconds");
    for t in o["think"].as_array_mut().unwrap() {
        let t = t.as_object_mut().unwrap();
        for k in ["mean_ms", "p99_ms", "max_ms"] {
            t.remove(k);
        }
    }
    v
}

#[test]
fn threads_report_the_games_of_one_thread() {
    for variant in ["flip", "standard"] {
        let args = [
            "--variant",
            variant,
            "--a",
            "greedy",
            "--b",
            "random",
            "--games",
            "6",
            "--seed",
            "4",
            "--json",
        ];
        let one = results(&args);
        let three = results(&[&args[..], &["--threads", "3"]].concat());
        assert_eq!(one, three);
        assert_eq!(one["games"], 6);
    }
}
