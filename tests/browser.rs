//! Runs the browser tests (tests/browser/*.test.mjs, node's test runner driving Debian's
//! Chromium through playwright-core) against a real server on a fresh SQLite database.
//! Installs the tests' node modules (`npm ci`) first when they are missing or stale.

mod support;

use sha2::{Digest, Sha256};
use std::path::Path;
use std::process::Command;
use support::{Backend, Server, TestDb};

/// Runs `npm ci` in tests/browser when its node_modules is missing or was installed
/// from another package-lock.json (playwright-core and typescript, say, at other
/// versions or not at all). The same check as tests/run's, on the same stamp: the
/// lock file's SHA-256 kept in node_modules, so either may install and the other
/// sees it done.
fn install_node_modules(dir: &Path) {
    let lock =
        std::fs::read(dir.join("package-lock.json")).expect("tests/browser/package-lock.json");
    let lock_hash = hex::encode(Sha256::digest(&lock));
    let stamp = dir.join("node_modules/.junqi-package-lock.sha256");
    let fresh = std::fs::read_to_string(&stamp).is_ok_and(|s| s.trim() == lock_hash);
    if fresh {
        return;
    }
    let status = Command::new("npm")
        .args(["ci", "--no-audit", "--no-fund"])
        .current_dir(dir)
        .status()
        .expect("run npm ci (the browser tests need Node.js and npm: run tests/run, which installs them)");
    assert!(status.success(), "npm ci failed in tests/browser");
    std::fs::write(&stamp, format!("{lock_hash}\n")).expect("writing the node_modules stamp");
}

#[test]
fn browser_tests_pass_in_chromium() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser");
    assert!(
        Path::new("/usr/bin/chromium").exists(),
        "the browser tests need Debian's chromium: run the suite with tests/run, which installs it"
    );
    install_node_modules(&dir);
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
