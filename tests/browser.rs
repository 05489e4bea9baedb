//! Runs the browser tests (tests/browser/*.test.mjs, node's test runner driving Debian's
//! Chromium through playwright-core) against a real server on a fresh SQLite database.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

#[test]
fn browser_tests_pass_in_chromium() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser");
    assert!(
        Path::new("/usr/bin/chromium").exists(),
        "the browser tests need Debian's chromium (apt-get install chromium)"
    );
    if !dir.join("node_modules/playwright-core").exists() {
        let status = Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund"])
            .current_dir(&dir)
            .status()
            .expect("run npm ci (the browser tests need Node.js and npm)");
        assert!(status.success(), "npm ci failed in tests/browser");
    }

    let db = std::env::temp_dir().join(format!("junqi-browser-{}.db", std::process::id()));
    let mut server = Command::new(env!("CARGO_BIN_EXE_junqi"))
        .args(["--bind", "127.0.0.1:0", "--database-url"])
        .arg(&db)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the server");
    let mut lines = BufReader::new(server.stdout.take().expect("server stdout")).lines();
    let url = loop {
        let line = lines
            .next()
            .expect("the server printed its address")
            .expect("read the server's output");
        if let Some(url) = line.strip_prefix("junqi listening on ") {
            break url.to_string();
        }
    };
    // Keep reading so the server never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines {});

    let out = Command::new("node")
        .args(["--test", "--test-reporter=spec"])
        .current_dir(&dir)
        .env("JUNQI_URL", &url)
        .output()
        .expect("run node --test");
    let _ = server.kill();
    let _ = server.wait();
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}");
    eprintln!("{stderr}");
    assert!(out.status.success(), "browser tests failed:\n{stdout}\n{stderr}");
}
