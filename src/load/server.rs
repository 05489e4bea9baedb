//! The server under load: started from this same binary, its output sent to a log
//! file, killed at the end (or mid-load in `--crash` mode); and what /proc tells of
//! its memory and CPU, of this process's CPU and of the whole machine's.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

pub struct Server {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
    args: Vec<String>,
    log: PathBuf,
    /// Run under callgrind, its counts written to this file at each dump (`--callgrind`).
    callgrind: Option<PathBuf>,
}

/// How long a start (migrations, resuming running games, binding) may take.
const START_WITHIN: Duration = Duration::from_secs(120);

impl Server {
    /// Starts `junqi --bind 127.0.0.1:PORT --database-url URL --no-rate-limits` and the
    /// extra arguments, and waits for its `junqi listening on` line.
    pub fn start(
        port: u16,
        database_url: &str,
        extra: &[String],
        log: &Path,
        callgrind: Option<PathBuf>,
    ) -> Result<Server, String> {
        let mut args = vec![
            "--bind".to_string(),
            format!("127.0.0.1:{port}"),
            "--database-url".to_string(),
            database_url.to_string(),
            "--no-rate-limits".to_string(),
            // The computer's replies are measured as the server's work: without the
            // pause a person's page gets before the answer.
            "--computer-pace-ms".to_string(),
            "0".to_string(),
        ];
        args.extend(extra.iter().cloned());
        Server::spawn(args, log.to_path_buf(), callgrind)
    }

    fn spawn(
        args: Vec<String>,
        log: PathBuf,
        callgrind: Option<PathBuf>,
    ) -> Result<Server, String> {
        let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&log)
            .map_err(|e| format!("cannot open the server log {}: {e}", log.display()))?;
        let stderr = file.try_clone().map_err(|e| e.to_string())?;
        let mut command = match &callgrind {
            // Only the holds are counted: the counts are zeroed as one begins and
            // dumped as it ends (`count`).
            Some(out) => {
                let mut c = Command::new("valgrind");
                c.arg("--tool=callgrind")
                    .arg(format!("--callgrind-out-file={}", out.display()))
                    .arg(exe);
                c
            }
            None => Command::new(exe),
        };
        let mut child = command
            .args(&args)
            .env(
                "RUST_LOG",
                std::env::var("RUST_LOG").unwrap_or_else(|_| "info".into()),
            )
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::from(stderr))
            .spawn()
            .map_err(|e| format!("cannot start the server: {e}"))?;
        let (tx, rx) = mpsc::channel();
        let stdout = child.stdout.take().expect("stdout is piped");
        std::thread::spawn(move || copy_lines(stdout, file, tx));
        let deadline = Instant::now() + START_WITHIN;
        loop {
            if let Ok(addr) = rx.recv_timeout(Duration::from_millis(50)) {
                return Ok(Server {
                    child,
                    addr,
                    args,
                    log,
                    callgrind,
                });
            }
            if let Ok(Some(status)) = child.try_wait() {
                return Err(format!(
                    "the server exited ({status}) before listening; see {}",
                    log.display()
                ));
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "the server did not listen within {} s; see {}",
                    START_WITHIN.as_secs(),
                    log.display()
                ));
            }
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// SIGKILL: no chance to finish anything (std's `kill` sends SIGKILL on Unix).
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Kills it and starts it again with the same arguments, on the same port.
    pub fn restart(&mut self) -> Result<(), String> {
        self.kill();
        let mut args = self.args.clone();
        if let Some(i) = args.iter().position(|a| a == "--bind") {
            args[i + 1] = self.addr.clone();
        }
        *self = Server::spawn(args, self.log.clone(), self.callgrind.clone())?;
        Ok(())
    }

    /// Resident memory, MiB.
    pub fn rss_mib(&self) -> f64 {
        status_kib(self.pid(), "VmRSS:") as f64 / 1024.0
    }

    /// The most resident memory since it started (since the last restart), MiB.
    pub fn peak_rss_mib(&self) -> f64 {
        status_kib(self.pid(), "VmHWM:") as f64 / 1024.0
    }

    /// Under callgrind: zeroes the counts, as a hold begins.
    pub fn zero_counts(&self) -> Result<(), String> {
        match &self.callgrind {
            Some(_) => self.callgrind_control("--zero"),
            None => Ok(()),
        }
    }

    /// Under callgrind: writes the counts since they were zeroed and returns the
    /// instructions in them. `None` when the server does not run under callgrind.
    pub fn dump_instructions(&self) -> Result<Option<u64>, String> {
        let Some(out) = &self.callgrind else {
            return Ok(None);
        };
        self.callgrind_control("--dump")?;
        newest_dump_total(out).map(Some)
    }

    fn callgrind_control(&self, what: &str) -> Result<(), String> {
        let status = Command::new("callgrind_control")
            .arg(what)
            .arg(self.pid().to_string())
            .stdout(Stdio::null())
            .status()
            .map_err(|e| format!("cannot run callgrind_control: {e}"))?;
        if status.success() {
            Ok(())
        } else {
            Err(format!("callgrind_control {what} failed: {status}"))
        }
    }

    pub fn cpu_ticks(&self) -> u64 {
        cpu_ticks(&format!("/proc/{}/stat", self.pid()))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Copies the server's standard output to the log, and hands over the address of its
/// `junqi listening on http://ADDR` line.
fn copy_lines(stdout: impl std::io::Read, mut log: File, ready: mpsc::Sender<String>) {
    let mut reader = BufReader::new(stdout);
    let mut line = String::new();
    loop {
        line.clear();
        match reader.read_line(&mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                let _ = log.write_all(line.as_bytes());
                if let Some(addr) = line.trim_end().strip_prefix("junqi listening on http://") {
                    let _ = ready.send(addr.to_string());
                }
            }
        }
    }
}

/// Callgrind's dumps for `out` (`out.1`, `out.2`, …), newest last.
fn dumps(out: &Path) -> Vec<(u64, PathBuf)> {
    let dir = out
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let stem = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut found: Vec<(u64, PathBuf)> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(|e| {
            let name = e.ok()?.file_name().to_string_lossy().into_owned();
            let n: u64 = name.strip_prefix(&stem)?.strip_prefix('.')?.parse().ok()?;
            Some((n, dir.join(name)))
        })
        .collect();
    found.sort();
    found
}

/// Removes the dumps an earlier run left for `out`.
pub fn remove_dumps(out: &Path) {
    for (_, path) in dumps(out) {
        let _ = std::fs::remove_file(path);
    }
}

/// The instructions (`Ir`) of the newest dump callgrind wrote for `out`: its dumps are
/// `out.1`, `out.2`, …, each with a `totals:` line.
fn newest_dump_total(out: &Path) -> Result<u64, String> {
    let (_, newest) = dumps(out)
        .pop()
        .ok_or_else(|| format!("callgrind wrote no dump beside {}", out.display()))?;
    let text = std::fs::read_to_string(&newest)
        .map_err(|e| format!("cannot read {}: {e}", newest.display()))?;
    text.lines()
        .find_map(|l| {
            l.strip_prefix("totals:")?
                .split_whitespace()
                .next()?
                .parse()
                .ok()
        })
        .ok_or_else(|| format!("no totals in {}", newest.display()))
}

/// A memory figure of /proc/PID/status (`VmRSS:`, `VmHWM:`), KiB.
fn status_kib(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// utime + stime of a process, in clock ticks (fields 14 and 15 of /proc/PID/stat,
/// counted after the command name, which is in parentheses and may hold spaces).
fn cpu_ticks(stat_path: &str) -> u64 {
    let stat = std::fs::read_to_string(stat_path).unwrap_or_default();
    let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else {
        return 0;
    };
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // `rest` starts at field 3 (the state).
    let at = |n: usize| {
        fields
            .get(n - 3)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    at(14) + at(15)
}

/// This process's CPU, in clock ticks.
pub fn own_cpu_ticks() -> u64 {
    cpu_ticks("/proc/self/stat")
}

/// The whole machine's (busy, total) clock ticks, from /proc/stat's `cpu` line.
pub fn machine_ticks() -> (u64, u64) {
    let stat = std::fs::read_to_string("/proc/stat").unwrap_or_default();
    let Some(line) = stat.lines().find(|l| l.starts_with("cpu ")) else {
        return (0, 0);
    };
    let v: Vec<u64> = line
        .split_whitespace()
        .skip(1)
        .filter_map(|f| f.parse().ok())
        .collect();
    let total: u64 = v.iter().take(8).sum();
    // idle and iowait
    let idle = v.get(3).copied().unwrap_or(0) + v.get(4).copied().unwrap_or(0);
    (total - idle, total)
}

/// Clock ticks per second of /proc's CPU times (USER_HZ): 100 on every Linux
/// architecture the service runs on (it is fixed for user space, whatever the
/// kernel's own tick rate).
pub const TICKS_PER_SECOND: f64 = 100.0;

/// The cores this machine has.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Raises this process's open-file limit to its hard limit (the server, started from
/// here, inherits it); returns the limit now in force.
pub fn raise_open_files() -> u64 {
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(n) => n,
        Err(_) => rlimit::getrlimit(rlimit::Resource::NOFILE).map_or(0, |(soft, _)| soft),
    }
}

/// A free port on 127.0.0.1 (the system's pick, let go again at once).
pub fn free_port() -> Result<u16, String> {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .map_err(|e| format!("cannot find a free port: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_this_process() {
        assert!(status_kib(std::process::id(), "VmRSS:") > 0);
        assert!(
            status_kib(std::process::id(), "VmHWM:") >= status_kib(std::process::id(), "VmRSS:")
        );
        let (busy, total) = machine_ticks();
        assert!(total > 0 && busy <= total);
        let _ = own_cpu_ticks();
    }
}
