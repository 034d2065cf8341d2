//! The `wmp` command-line contract, exercised on the built binary:
//! * a golden oracle scenario runs and gives the windows real Flink 2.3.0 gave;
//! * a native scenario runs, and its `trace_hash` is 16 hex digits and stable across runs;
//! * every bad input (unknown field, invalid window size, `idle_timeout_ms: 0`, malformed JSON,
//!   missing file, unknown scenario command, unknown CLI command, a bad scenario on stdin) exits with code 2 and prints exactly
//!   one line on stderr, naming the field path where there is one, and never panics;
//! * a reader that closes the pipe early (`| head`) ends the run quietly with exit code 0;
//! * `wmp sql` prints the scenario a SQL script gives on its base, the notes on stderr, and a
//!   bad script's `line L, column C` as that one line;
//! * `wmp export` writes the Flink project and lists it, notes on stderr, and refuses a scenario
//!   it cannot run in that one line, writing nothing; it refuses a non-empty `--out` without
//!   `--force`, and with it leaves no file of an earlier export behind;
//! * arguments: a file name that is not UTF-8 is read; a flag of another subcommand, an unknown
//!   or repeated flag is named in one line; `--flag=value` works; `--help` and `--version` print
//!   to stdout with exit code 0.
//!
//! Users script the CLI and CI greps its errors, so the exit code and the one-line error are API.

// It runs the `wmp` binary or the SQL reader / export: the `tools` feature's (on by default).
#![cfg(feature = "tools")]

use serde_json::{json, Value};
use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};

const WMP: &str = env!("CARGO_BIN_EXE_wmp");

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn wmp<S: AsRef<OsStr>>(args: &[S], stdin: Option<&str>) -> Output {
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
struct TempScenario(PathBuf);

impl TempScenario {
    fn new(text: &str) -> Self {
        static N: AtomicU32 = AtomicU32::new(0);
        let name = format!("wmp-cli-test-{}-{}.json", std::process::id(), N.fetch_add(1, Ordering::Relaxed));
        let path = std::env::temp_dir().join(name);
        std::fs::write(&path, text).unwrap();
        TempScenario(path)
    }
    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempScenario {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// A small valid native scenario.
fn native_scenario() -> Value {
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
fn assert_input_error(out: &Output, what: &str) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!stderr.contains("panicked"), "{what}: wmp panicked:\n{stderr}");
    assert_eq!(out.status.code(), Some(2), "{what}: exit status {:?}, stderr:\n{stderr}", out.status);
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{what}: expected exactly one stderr line, got:\n{stderr}");
    assert!(out.stdout.is_empty(), "{what}: nothing on stdout expected, got {:?}", String::from_utf8_lossy(&out.stdout));
    lines[0].to_string()
}

/// Runs `wmp run` on a native scenario given as a JSON value (via a temp file).
fn run_bad_native(sc: &Value, what: &str) -> String {
    let f = TempScenario::new(&sc.to_string());
    assert_input_error(&wmp(&["run", f.path()], None), what)
}

#[test]
fn oracle_scenario_matches_flink_windows() {
    let out = wmp(&["run", "--format", "oracle", "tests/golden/oracle/scenarios/01_inorder_tumbling.json"], None);
    assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    let got: Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    let windows = got["windows"].as_array().expect("windows array");
    assert!(!windows.is_empty());
    let expected: Value =
        serde_json::from_str(&std::fs::read_to_string(root().join("tests/golden/oracle/expected/01_inorder_tumbling.json")).unwrap())
            .unwrap();
    assert_eq!(&got["windows"], &expected["windows"], "windows differ from real Flink's");
}

#[test]
fn two_input_oracle_scenario_matches_flink() {
    let out = wmp(&["run", "--format", "oracle2", "tests/golden/oracle2/scenarios/14_join_late_side_output.json"], None);
    assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    let got: Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    let expected: Value =
        serde_json::from_str(&std::fs::read_to_string(root().join("tests/golden/oracle2/expected/14_join_late_side_output.json")).unwrap())
            .unwrap();
    assert!(!got["joins"].as_array().unwrap().is_empty());
    assert_eq!(&got["late"], &expected["late"], "late elements differ from real Flink's");
    let bad = wmp(
        &["validate", "--format", "oracle2", "-"],
        Some(r#"{"inputs": [], "operator": {"type": "union", "window": {"type": "tumbling", "size_ms": 10}}}"#),
    );
    assert!(!bad.status.success());
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("inputs: operator needs 2 input(s), got 0"),
        "{}",
        String::from_utf8_lossy(&bad.stderr)
    );
    // SQL's watermark operator ahead of its rows is named here too, as in a native scenario.
    let sql =
        std::fs::read_to_string(root().join("tests/golden/oracle2/scenarios/23_sql_row_reactivates_after_idle_timeout.json")).unwrap();
    let sql = sql.replace(r#""delay_ms": 0"#, r#""delay_ms": -1500"#);
    let bad = wmp(&["validate", "--format", "oracle2", "-"], Some(&sql));
    assert!(
        !bad.status.success() && String::from_utf8_lossy(&bad.stderr).contains("midstream.delay_ms"),
        "{}",
        String::from_utf8_lossy(&bad.stderr)
    );
}

#[test]
fn alignment_and_restore_oracle_scenario_matches_flink() {
    let out = wmp(&["run", "--format", "oracle3", "tests/golden/oracle3/scenarios/11_restore_replay_duplicates.json"], None);
    assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    let got: Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    let expected: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("tests/golden/oracle3/expected/11_restore_replay_duplicates.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(got["scenario"], "11_restore_replay_duplicates", "named after its file, as the oracle names it");
    for field in ["emitted", "records", "replayed", "restored", "checkpoints"] {
        assert_eq!(&got[field], &expected[field], "{field} differs from real Flink's");
    }
    let bad = wmp(&["validate", "--format", "oracle3", "-"], Some(r#"{"sources": [{"splits": [[]]}], "schedule": [{"fail": {}}]}"#));
    assert!(!bad.status.success());
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("schedule[0].fail") && err.contains("checkpointing"), "{err}");
}

#[test]
fn native_scenario_runs_with_stable_trace_hash() {
    let f = TempScenario::new(&native_scenario().to_string());
    let hashes: Vec<String> = (0..2)
        .map(|_| {
            let out = wmp(&["run", f.path()], None);
            assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
            let v: Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
            assert!(!v["windows"].as_array().unwrap().is_empty(), "3 s of 500 ms windows should fire some");
            v["trace_hash"].as_str().expect("trace_hash string").to_string()
        })
        .collect();
    assert_eq!(hashes[0].len(), 16, "{}", hashes[0]);
    assert!(hashes[0].chars().all(|c| c.is_ascii_hexdigit()), "{}", hashes[0]);
    assert_eq!(hashes[0], hashes[1]);
}

/// `wmp run x.json | head`: a reader that goes away is not an error (no panic, exit 0).
#[test]
fn a_closed_pipe_is_not_an_error() {
    let f = TempScenario::new(&native_scenario().to_string());
    let mut child = Command::new(WMP).args(["run", f.path()]).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("spawn wmp");
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{:?}", out.status);
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

#[test]
fn native_scenario_from_stdin_runs() {
    let out = wmp(&["run", "-"], Some(&native_scenario().to_string()));
    assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    let from_file = {
        let f = TempScenario::new(&native_scenario().to_string());
        wmp(&["run", f.path()], None).stdout
    };
    assert_eq!(out.stdout, from_file, "stdin and file give the same report");
}

#[test]
fn unknown_field_is_named() {
    let mut sc = native_scenario();
    sc["window"]["frobnicate"] = json!(1);
    let line = run_bad_native(&sc, "unknown field");
    assert!(line.contains("frobnicate"), "{line}");
    assert!(line.contains("window"), "the path should name `window`: {line}");
}

/// The objects that take another JSON form too (keys as a list or `{count, prefix}`, partitions
/// as an index, a list, "all" or `{all_except}`, an oracle partition as events or `{events}`)
/// refuse unknown fields as the others do: a typo (`prefx`) was read as nothing.
#[test]
fn unknown_field_of_an_object_with_another_form_is_named() {
    let mut sc = native_scenario();
    sc["producers"][0]["keys"]["prefx"] = json!("zzz-");
    assert!(run_bad_native(&sc, "keys typo").contains("producers[0].keys.prefx"));
    let mut sc = native_scenario();
    sc["producers"][0]["partitions"] = json!({"all_except": [0], "only": "x"});
    assert!(run_bad_native(&sc, "partitions typo").contains("producers[0].partitions.only"));
    let mut oracle: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("tests/golden/oracle/scenarios/04_two_partitions_lagging.json")).unwrap(),
    )
    .unwrap();
    oracle["partitions"][0]["bogus"] = json!(1);
    let f = TempScenario::new(&oracle.to_string());
    let line = assert_input_error(&wmp(&["run", "--format", "oracle", f.path()], None), "oracle partition typo");
    assert!(line.contains("partitions[0].bogus"), "{line}");
}

#[test]
fn negative_window_size_is_named() {
    let mut sc = native_scenario();
    sc["window"]["assigner"]["size_ms"] = json!(-500);
    let line = run_bad_native(&sc, "negative size_ms");
    assert!(line.contains("window.assigner.size_ms"), "{line}");
}

#[test]
fn zero_idle_timeout_is_named() {
    let mut sc = native_scenario();
    sc["source"]["watermark"]["idle_timeout_ms"] = json!(0);
    let line = run_bad_native(&sc, "idle_timeout_ms 0");
    assert!(line.contains("source.watermark.idle_timeout_ms"), "{line}");
}

#[test]
fn a_watermark_operator_ahead_of_its_rows_is_named() {
    let mut sc = native_scenario();
    sc["source"]["midstream"] = json!({"operator": "sql_watermark_assigner", "delay_ms": -1500});
    let line = run_bad_native(&sc, "negative SQL delay");
    assert!(line.contains("source.midstream.delay_ms") && line.contains("must be >= 0"), "{line}");
    sc["source"]["midstream"] =
        json!({"operator": "timestamps_and_watermarks", "generator": {"kind": "bounded_out_of_orderness", "bound_ms": -1}});
    let line = run_bad_native(&sc, "negative mid-stream bound");
    assert!(line.contains("source.midstream.generator.bound_ms"), "{line}");
    sc["source"]["midstream"] = json!({"operator": "timestamps_and_watermarks", "generator": {"kind": "monotonous"}, "idle_timeout_ms": 0});
    let line = run_bad_native(&sc, "a zero mid-stream idle timeout");
    assert!(line.contains("source.midstream.idle_timeout_ms") && line.contains("withIdleness rejects"), "{line}");
}

#[test]
fn bad_command_argument_is_named() {
    let mut sc = native_scenario();
    sc["commands"] = json!([{"at_ms": 10, "command": "silence", "partition": 7}]);
    let line = run_bad_native(&sc, "command on a missing partition");
    assert!(line.contains("commands[0].partition"), "{line}");
}

/// `validate` makes every check `run` makes before it runs: a command aimed at a partition that
/// does not exist at its time is refused by both, with the same line.
#[test]
fn validate_checks_what_run_checks() {
    let mut sc = native_scenario();
    sc["commands"] = json!([{"at_ms": 10, "command": "add_partition"}, {"at_ms": 20, "command": "mark_split_idle", "partition": 2}, {"at_ms": 30, "command": "release_split", "partition": 2}, {"at_ms": 40, "command": "mark_split_idle", "partition": 2}]);
    let f = TempScenario::new(&sc.to_string());
    let validate = assert_input_error(&wmp(&["validate", f.path()], None), "validate");
    let run = assert_input_error(&wmp(&["run", f.path()], None), "run");
    assert_eq!(validate, run);
    assert!(run.contains("commands[3].partition") && run.contains("already released"), "{run}");
    sc["commands"].as_array_mut().unwrap().pop();
    let f = TempScenario::new(&sc.to_string());
    assert!(wmp(&["validate", f.path()], None).status.success(), "partition 2 exists once added, until released");
}

#[test]
fn unknown_scenario_command_is_named() {
    let mut sc = native_scenario();
    sc["commands"] = json!([{"at_ms": 10, "command": "silence", "partition": 0}, {"at_ms": 20, "command": "frobnicate"}]);
    let line = run_bad_native(&sc, "unknown scenario command");
    assert!(line.contains("commands[1]") && line.contains("frobnicate"), "{line}");
}

#[test]
fn malformed_json_fails_cleanly() {
    let f = TempScenario::new("{\"topic\": {\"partitions\": 1}, \"window\": ");
    assert_input_error(&wmp(&["run", f.path()], None), "malformed JSON");
    let f = TempScenario::new("");
    assert_input_error(&wmp(&["run", f.path()], None), "empty file");
}

#[test]
fn missing_file_fails_cleanly() {
    let line = assert_input_error(&wmp(&["run", "tests/no/such/scenario.json"], None), "missing file");
    assert!(line.contains("tests/no/such/scenario.json"), "{line}");
}

#[test]
fn bad_scenario_on_stdin_fails_cleanly() {
    let mut sc = native_scenario();
    sc["window"]["assigner"]["size_ms"] = json!(-1);
    let line = assert_input_error(&wmp(&["run", "-"], Some(&sc.to_string())), "bad stdin");
    assert!(line.contains("window.assigner.size_ms"), "{line}");
    assert_input_error(&wmp(&["validate", "-"], Some("not json")), "garbage stdin");
}

#[test]
fn bad_oracle_scenario_fails_cleanly() {
    let line = assert_input_error(
        &wmp(&["run", "--format", "oracle", "-"], Some(r#"{"partitions": [[]], "window": {"type": "tumbling", "size_ms": 0}}"#)),
        "oracle size 0",
    );
    assert!(line.contains("size_ms"), "{line}");
}

#[test]
fn unknown_format_fails_cleanly() {
    let f = TempScenario::new(&native_scenario().to_string());
    assert_input_error(&wmp(&["run", "--format", "yaml", f.path()], None), "unknown format");
}

#[test]
fn unknown_command_fails_with_one_line() {
    let f = TempScenario::new(&native_scenario().to_string());
    let line = assert_input_error(&wmp(&["frobnicate", f.path()], None), "unknown command");
    assert!(line.contains("frobnicate"), "{line}");
    assert_input_error(&wmp(&["run", f.path(), "extra"], None), "extra argument");
    assert_input_error(&wmp::<&str>(&[], None), "no arguments");
}

#[test]
fn diagnose_prints_the_diagnosis_as_json_or_text() {
    let out = wmp(&["diagnose", "--at", "60000", "presets/empty_partition.json"], None);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let d: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(d["cause"], json!("empty_partition"));
    assert_eq!(d["culprit"]["partition"], json!(3));
    assert_eq!(d["findings"][0]["fixes"][0]["action"], json!({"kind": "idle_timeout", "value": 5000}));
    let text = wmp(&["diagnose", "--text", "--at", "60000", "presets/empty_partition.json"], None);
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.starts_with("Partition 3 (source subtask 0) has never received a record"), "{text}");
    assert!(text.contains("fix: Idle timeout 5.0 s") && text.contains("advice:"), "{text}");
    // Kinds as the JSON and DIAGNOSIS.md spell them (it printed `EmptyPartition`).
    assert!(text.contains("\n[CRITICAL] empty_partition (holds the watermark): "), "{text}");
    let line = assert_input_error(&wmp(&["diagnose", "--at", "soon", "presets/empty_partition.json"], None), "bad --at");
    assert!(line.contains("--at"), "{line}");
    // `wmp run` reports the end state's diagnosis and the sink's mode too.
    let run = wmp(&["run", "presets/late_data.json"], None);
    let report: Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(report["sink_mode"], json!("append"));
    assert_eq!(report["diagnosis"]["cause"], json!("bound_too_small"));
}

#[test]
fn a_failed_job_reports_its_run_and_a_bad_fail_target_is_named() {
    let mut sc = native_scenario();
    sc["checkpointing"] = json!({"interval_ms": 500, "restart": {"type": "fixed_delay", "delay_ms": 200, "attempts": 1}});
    sc["commands"] = json!([
        {"at_ms": 1000, "command": "fail", "target": {"task_manager": 0}},
        {"at_ms": 2000, "command": "fail", "target": {"keyed_subtask": 0}}
    ]);
    let f = TempScenario::new(&sc.to_string());
    let out = wmp(&["run", f.path()], None);
    assert!(out.status.success(), "the run succeeds and says the job failed: {}", String::from_utf8_lossy(&out.stderr));
    let got: Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    let job = &got["job"];
    assert_eq!((job["status"].as_str(), job["attempt"].as_u64(), job["restarts"].as_u64()), (Some("FAILED"), Some(2), Some(1)), "{job}");
    assert!(job["failure"].as_str().unwrap().contains("keyed subtask 0"), "{job}");
    assert_eq!(got["metrics"]["job"]["numRestarts"], json!(1));
    sc["commands"][0]["target"] = json!({"source_subtask": 1});
    let line = run_bad_native(&sc, "a source subtask the job does not have");
    assert!(line.contains("commands[0].target.source_subtask: no source subtask 1 (the job has 1)"), "{line}");
}

#[test]
fn sql_gives_the_scenario_and_notes_what_it_does_not_model() {
    let sql = "SET 'table.exec.source.idle-timeout' = '60 s';\nSET 'table.local-time-zone' = 'UTC';\n";
    let out = wmp(&["sql", "--preset", "seed-001-heartbeat", "-"], Some(sql));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let sc: Value = serde_json::from_slice(&out.stdout).expect("scenario JSON on stdout");
    assert_eq!(sc["source"]["watermark"]["idle_timeout_ms"], json!(60_000));
    assert_eq!(sc["topic"]["partitions"], json!(16), "the base's partitions");
    assert_eq!(
        stderr.trim(),
        "wmp: note: line 2, column 5: 'table.local-time-zone' = 'UTC' is read but not modelled: the playground computes windows in UTC"
    );
    // The printed scenario runs.
    let f = TempScenario::new(&String::from_utf8_lossy(&out.stdout));
    assert!(wmp(&["validate", f.path()], None).status.success());
    // A base file gives the same.
    let base = TempScenario::new(include_str!("../presets/seed_001_heartbeat.json"));
    let again = wmp(&["sql", "--base", base.path(), "-"], Some(sql));
    assert_eq!(again.stdout, out.stdout);
}

#[test]
fn bad_sql_names_line_and_column() {
    let sql = "SET 'pipeline.auto-watermark-interval' = '200 ms';\nCREATE TABLE t (ts TIMESTAMP(3)) WITH ('connector' = 'filesystem');";
    assert_eq!(
        assert_input_error(&wmp(&["sql", "-"], Some(sql)), "bad connector"),
        "wmp: line 2, column 54: 'connector' = 'filesystem': the playground models Kafka sources only ('kafka')"
    );
    let out = wmp(&["sql", "--preset", "nope", "-"], Some(""));
    assert!(assert_input_error(&out, "bad preset").starts_with("wmp: no preset \"nope\""));
}

#[test]
fn export_writes_the_project_and_refuses_what_it_cannot_run_in_one_line() {
    let dir = std::env::temp_dir().join(format!("wmp-cli-export-{}", std::process::id()));
    let out = wmp(&["export", "presets/late_data.json", "--out", dir.to_str().unwrap(), "--sql"], None);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let listed = String::from_utf8_lossy(&out.stdout);
    for f in
        ["pom.xml", "README.md", "src/main/java/playground/PlaygroundJob.java", "src/main/resources/replay.tsv.gz", "expected-output.txt"]
    {
        assert!(dir.join(f).is_file() && listed.contains(f), "{f} written and listed");
    }
    // The streamed, gzipped replay is the one the JS API writes in memory, line for line.
    let gz = dir.join("src/main/resources/replay.tsv.gz");
    let unzipped = std::process::Command::new("gzip").arg("-dc").arg(&gz).output().expect("gzip");
    assert!(unzipped.status.success(), "{}", String::from_utf8_lossy(&unzipped.stderr));
    let scenario = wmp::engine::scenario::build::parse(&std::fs::read_to_string("presets/late_data.json").unwrap()).unwrap();
    let job = wmp::engine::export::export_job(&scenario).unwrap();
    let in_memory = &job.files.iter().find(|f| f.path == wmp::engine::export::REPLAY_PATH).unwrap().text;
    assert!(in_memory.lines().count() > 100, "{in_memory}");
    assert_eq!(String::from_utf8_lossy(&unzipped.stdout), *in_memory);
    assert!(std::fs::read_to_string(dir.join("README.md")).unwrap().contains("`replay.tsv.gz` (gzip"));
    let notes = String::from_utf8_lossy(&out.stderr);
    assert!(notes.lines().all(|l| l.starts_with("wmp: note: ")) && notes.contains("no SQL script"), "{notes}");
    assert!(notes.contains("a DataStream window (window.api \"datastream\")"), "the note says why: {notes}");
    std::fs::remove_dir_all(&dir).unwrap();
    // SQL's watermark operator forwards the source's idleness, which the job's one reader has for all splits.
    let mut sql: serde_json::Value = serde_json::from_str(&std::fs::read_to_string("presets/sql_idle_reactivates.json").unwrap()).unwrap();
    sql["source"]["watermark"]["idle_timeout_ms"] = 5000.into();
    let sql = TempScenario::new(&sql.to_string());
    let refused = wmp(&["export", sql.path(), "--out", dir.to_str().unwrap()], None);
    assert!(assert_input_error(&refused, "refused").contains("source.watermark.idle_timeout_ms: cannot be exported yet"));
    assert!(!dir.exists(), "nothing is written for a refused scenario");
    assert!(assert_input_error(&wmp(&["export", "presets/late_data.json"], None), "no --out").contains("--out DIR"));
}

/// A temp directory, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(what: &str) -> Self {
        static N: AtomicU32 = AtomicU32::new(0);
        let path = std::env::temp_dir().join(format!("wmp-cli-{what}-{}-{}", std::process::id(), N.fetch_add(1, Ordering::Relaxed)));
        let _ = std::fs::remove_dir_all(&path);
        TempDir(path)
    }
    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn stdout_of(out: &Output) -> String {
    assert!(out.status.success(), "{:?}: {}", out.status, String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `std::env::args` panics on an argument that is not UTF-8; a file may be named so on Unix.
#[cfg(unix)]
#[test]
fn an_argument_that_is_not_utf8_is_read_or_refused_in_one_line() {
    use std::os::unix::ffi::OsStrExt;
    let dir = TempDir::new("latin1");
    std::fs::create_dir_all(&dir.0).unwrap();
    let file = dir.0.join(OsStr::from_bytes(b"caf\xe9.json"));
    std::fs::write(&file, native_scenario().to_string()).unwrap();
    assert_eq!(stdout_of(&wmp(&[OsStr::new("validate"), file.as_os_str()], None)), "ok\n");
    let mut out_flag = std::ffi::OsString::from("--out=");
    out_flag.push(dir.0.join(OsStr::from_bytes(b"job\xe9")));
    let out = wmp(&[OsStr::new("export"), OsStr::new("presets/late_data.json"), out_flag.as_os_str()], None);
    assert!(stdout_of(&out).contains("pom.xml"));
    assert!(dir.0.join(OsStr::from_bytes(b"job\xe9/pom.xml")).is_file(), "--out=DIR keeps DIR's bytes");
    for args in [&[OsStr::new("run"), OsStr::new("--format"), OsStr::from_bytes(b"\xff")][..], &[OsStr::from_bytes(b"r\xfcn")]] {
        assert_input_error(&wmp(args, None), "a value or command that is not UTF-8");
    }
    let missing = dir.0.join(OsStr::from_bytes(b"no\xe9.json"));
    assert!(assert_input_error(&wmp(&[OsStr::new("run"), missing.as_os_str()], None), "missing").contains("No such file"));
}

#[test]
fn export_refuses_a_non_empty_directory_unless_forced_and_leaves_nothing_stale() {
    let dir = TempDir::new("export-force");
    let resources = dir.0.join("src/main/resources");
    std::fs::create_dir_all(&resources).unwrap();
    std::fs::write(dir.0.join("README.md"), "my own notes").unwrap();
    let line = assert_input_error(&wmp(&["export", "presets/late_data.json", "--out", dir.path()], None), "non-empty --out");
    assert!(line.contains("not empty") && line.contains("--force"), "{line}");
    assert_eq!(std::fs::read_to_string(dir.0.join("README.md")).unwrap(), "my own notes", "untouched without --force");
    // An earlier export's files (the JS API's plain replay, a SQL job's scripts) would be replayed or run.
    for stale in ["src/main/resources/replay.tsv", "src/main/resources/job.sql", "job.sql"] {
        std::fs::write(dir.0.join(stale), "stale").unwrap();
    }
    // A refused scenario leaves the directory as it was, forced or not.
    let mut refused: Value = serde_json::from_str(&std::fs::read_to_string("presets/sql_idle_reactivates.json").unwrap()).unwrap();
    refused["source"]["watermark"]["idle_timeout_ms"] = 5000.into();
    let refused = TempScenario::new(&refused.to_string());
    assert_input_error(&wmp(&["export", refused.path(), "--out", dir.path(), "--force"], None), "refused");
    assert_eq!(std::fs::read_dir(&resources).unwrap().count(), 2, "no partial replay left");
    let out = wmp(&["export", "presets/late_data.json", "--out", dir.path(), "--force"], None);
    let listed = stdout_of(&out);
    assert!(listed.lines().all(|l| l.starts_with(dir.path())), "{listed}");
    assert!(std::fs::read_to_string(dir.0.join("README.md")).unwrap().contains("replay.tsv.gz"));
    for stale in ["src/main/resources/replay.tsv", "src/main/resources/job.sql", "job.sql"] {
        assert!(!dir.0.join(stale).exists(), "{stale} left from the earlier export");
    }
    assert!(resources.join("replay.tsv.gz").is_file());
    let line = assert_input_error(&wmp(&["export", "presets/late_data.json", "--out", ""], None), "empty --out");
    assert!(line.contains("--out"), "{line}");
    // A link inside DIR is not followed: forced, the export wrote through README.md into the
    // file it pointed to.
    #[cfg(unix)]
    {
        let outside = TempDir::new("export-outside");
        std::fs::create_dir_all(&outside.0).unwrap();
        std::fs::write(outside.0.join("mine.md"), "not the export's").unwrap();
        std::fs::remove_file(dir.0.join("README.md")).unwrap();
        std::os::unix::fs::symlink(outside.0.join("mine.md"), dir.0.join("README.md")).unwrap();
        let line = assert_input_error(&wmp(&["export", "presets/late_data.json", "--out", dir.path(), "--force"], None), "a link");
        assert!(line.contains("README.md: a symbolic link"), "{line}");
        assert_eq!(std::fs::read_to_string(outside.0.join("mine.md")).unwrap(), "not the export's");
    }
}

#[test]
fn a_flag_of_another_subcommand_is_named_with_both() {
    let f = TempScenario::new(&native_scenario().to_string());
    for (args, flag, of) in [
        (&["run", "--at", "5", f.path()][..], "--at", "diagnose"),
        (&["run", "--text", f.path()], "--text", "diagnose"),
        (&["validate", "--at", "5", f.path()], "--at", "diagnose"),
        (&["validate", "--trace", f.path()], "--trace", "run"),
        (&["diagnose", "--trace", f.path()], "--trace", "run"),
        (&["diagnose", "--format", "oracle", f.path()], "--format", "run and validate"),
        (&["sql", "--out", "x", "-"], "--out", "export"),
    ] {
        let line = assert_input_error(&wmp(args, Some("")), &format!("{args:?}"));
        assert!(line.contains(&format!("{flag} is a flag of {of}, not of {}", args[0])), "{line}");
    }
}

#[test]
fn flags_are_named_when_unknown_or_repeated_and_take_values_after_equals() {
    let f = TempScenario::new(&native_scenario().to_string());
    let line = assert_input_error(&wmp(&["run", "--bogus", f.path()], None), "unknown flag");
    assert!(line.contains("unknown flag --bogus"), "{line}");
    let line = assert_input_error(&wmp(&["diagnose", "--at", "1000", "--at", "2000", f.path()], None), "repeated --at");
    assert!(line.contains("--at is given twice"), "{line}");
    let line = assert_input_error(&wmp(&["export", f.path(), "--out", "a", "--out", "b"], None), "repeated --out");
    assert!(line.contains("--out is given twice"), "{line}");
    let line = assert_input_error(&wmp(&["run", "--format", "", f.path()], None), "empty --format");
    assert!(line.contains("--format must be native, oracle, oracle2 or oracle3"), "{line}");
    let equals = wmp(&["run", "--format=oracle", "tests/golden/oracle/scenarios/01_inorder_tumbling.json"], None);
    let spaced = wmp(&["run", "--format", "oracle", "tests/golden/oracle/scenarios/01_inorder_tumbling.json"], None);
    assert_eq!(stdout_of(&equals), stdout_of(&spaced));
    let at = wmp(&["diagnose", "--at=60000", "presets/empty_partition.json"], None);
    assert!(stdout_of(&at).contains("empty_partition"));
    // A flag is no value: `--out --force` made a directory named "--force".
    let line = assert_input_error(&wmp(&["export", f.path(), "--out", "--force"], None), "flag as a value");
    assert!(line.contains("--out needs a directory, got the flag --force"), "{line}");
}

#[test]
fn help_and_version_print_to_stdout_with_exit_0() {
    for args in [&["help"][..], &["--help"], &["-h"], &["run", "--help"], &["export", "-h"]] {
        let text = stdout_of(&wmp(args, None));
        assert!(text.starts_with("usage:") && text.contains("wmp export SCENARIO|- --out DIR [--sql] [--force]"), "{args:?}: {text}");
    }
    assert_eq!(stdout_of(&wmp(&["--version"], None)), format!("wmp {}\n", env!("CARGO_PKG_VERSION")));
}

/// The engine's budget error names the scenario's `duration_ms`; past it because of `--at`, the
/// flag is the cause.
#[test]
fn a_diagnose_time_past_the_work_budget_names_at() {
    let line = assert_input_error(&wmp(&["diagnose", "--at", "9007199254740991", "presets/empty_partition.json"], None), "huge --at");
    assert!(line.starts_with("wmp: --at 9007199254740991: running that far") && !line.contains("atMs"), "{line}");
    let furthest: i64 = line.split("; --at ").nth(1).and_then(|t| t.split(' ').next()).and_then(|n| n.parse().ok()).expect(&line);
    assert!(furthest > 180_000, "{line}");
}

#[test]
fn sql_names_the_presets_both_stdins_and_an_empty_script() {
    let line = assert_input_error(&wmp(&["sql", "--preset", "nope", "-"], Some("")), "bad preset");
    assert!(line.contains("seed-001-heartbeat") && line.contains("late-data") && !line.contains("README"), "{line}");
    let line = assert_input_error(&wmp(&["sql", "-", "--base", "-"], Some("SET 'a' = 'b';")), "two stdins");
    assert!(line.contains("both read stdin"), "{line}");
    let empty = TempScenario::new("  \n");
    let line = assert_input_error(&wmp(&["sql", empty.path()], None), "empty script");
    assert!(line.ends_with("the SQL script is empty"), "{line}");
}
