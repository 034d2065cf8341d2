//! What the CLI tests share (`tests/cli.rs`, `tests/cli_args.rs`): the built `wmp` run with
//! arguments and stdin, temporary scenarios and directories, and the one-line error check.

#![allow(dead_code)] // each test file uses some of these

use serde_json::{json, Value};
use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};

pub const WMP: &str = env!("CARGO_BIN_EXE_wmp");

pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

pub fn wmp<S: AsRef<OsStr>>(args: &[S], stdin: Option<&str>) -> Output {
    let mut cmd = Command::new(WMP);
    cmd.args(args).current_dir(root()).stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() });
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("spawn wmp");
    if let Some(text) = stdin {
        // A refusal may come before wmp reads its stdin (two stdins): the pipe is closed then.
        if let Err(e) = child.stdin.take().unwrap().write_all(text.as_bytes()) {
            assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
        }
    }
    child.wait_with_output().unwrap()
}

/// A scenario file in the temp dir, removed on drop.
pub struct TempScenario(pub PathBuf);

impl TempScenario {
    pub fn new(text: &str) -> Self {
        static N: AtomicU32 = AtomicU32::new(0);
        let name = format!("wmp-cli-test-{}-{}.json", std::process::id(), N.fetch_add(1, Ordering::Relaxed));
        let path = std::env::temp_dir().join(name);
        std::fs::write(&path, text).unwrap();
        TempScenario(path)
    }
    pub fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempScenario {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// A small valid native scenario.
pub fn native_scenario() -> Value {
    json!({
        "name": "cli-native",
        "duration_ms": 3000,
        "topic": {"partitions": 2},
        "source": {"parallelism": 1, "watermark": {"generator": {"kind": "bounded_out_of_orderness", "bound_ms": 100}, "idle_timeout_ms": 500}},
        "window": {"assigner": {"type": "tumbling", "size_ms": 500}, "allowed_lateness_ms": 100, "late_side_output": true},
        "producers": [{"partitions": "all", "kind": "steady", "rate_per_s": 50, "jitter_ms": 300, "keys": {"count": 3}}],
        "commands": [{"at_ms": 1000, "command": "silence", "partition": 1}]
    })
}

/// Asserts a failed run: exit code 2, one stderr line, no panic; returns that line.
pub fn assert_input_error(out: &Output, what: &str) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!stderr.contains("panicked"), "{what}: wmp panicked:\n{stderr}");
    assert_eq!(out.status.code(), Some(2), "{what}: exit status {:?}, stderr:\n{stderr}", out.status);
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{what}: expected exactly one stderr line, got:\n{stderr}");
    assert!(out.stdout.is_empty(), "{what}: nothing on stdout expected, got {:?}", String::from_utf8_lossy(&out.stdout));
    lines[0].to_string()
}

/// Runs `wmp run` on a native scenario given as a JSON value (via a temp file).
pub fn run_bad_native(sc: &Value, what: &str) -> String {
    let f = TempScenario::new(&sc.to_string());
    assert_input_error(&wmp(&["run", f.path()], None), what)
}

/// A temp directory, removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(what: &str) -> Self {
        static N: AtomicU32 = AtomicU32::new(0);
        let path = std::env::temp_dir().join(format!("wmp-cli-{what}-{}-{}", std::process::id(), N.fetch_add(1, Ordering::Relaxed)));
        let _ = std::fs::remove_dir_all(&path);
        TempDir(path)
    }
    pub fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub fn stdout_of(out: &Output) -> String {
    assert!(out.status.success(), "{:?}: {}", out.status, String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}
