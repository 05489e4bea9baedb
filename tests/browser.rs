//! Runs the browser tests (tests/browser/*.test.mjs, node's test runner driving Debian's
//! Chromium through playwright-core) against a real server on a fresh SQLite database.

mod support;

use std::path::Path;
use std::process::Command;
use support::{Backend, Server, TestDb};

#[test]
fn browser_tests_pass_in_chromium() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser");
    assert!(
        Path::new("/usr/bin/chromium").exists(),
        "the browser tests need Debian's chromium: run the suite with tests/run, which installs it"
    );
    if !dir.join("node_modules/playwright-core").exists() {
        let status = Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund"])
            .current_dir(&dir)
            .status()
            .expect("run npm ci (the browser tests need Node.js and npm: run tests/run, which installs them)");
        assert!(status.success(), "npm ci failed in tests/browser");
    }
    let db = TestDb::new(Backend::Sqlite).expect("a SQLite database");
    let server = Server::start(&db.url, 60, 120);
    let out = Command::new("node")
        .args(["--test", "--test-reporter=spec"])
        .current_dir(&dir)
        .env("JUNQI_URL", server.base())
        .env("JUNQI_BIN", env!("CARGO_BIN_EXE_junqi"))
        .output()
        .expect("run node --test");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}");
    eprintln!("{stderr}");
    assert!(
        out.status.success(),
        "browser tests failed:\n{stdout}\n{stderr}\nserver log:\n{}",
        server.log()
    );
}
