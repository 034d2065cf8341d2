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
//!
//! Arguments (a file name that is not UTF-8, flags per subcommand, `--help`, `export --force`,
//! the work budget named by `--at`) are in `tests/cli_args.rs`.
//! Users script the CLI and CI greps its errors, so the exit code and the one-line error are API.

// It runs the `wmp` binary or the SQL reader / export: the `tools` feature's (on by default).
#![cfg(feature = "tools")]

mod cli_support;

use cli_support::*;
use serde_json::{json, Value};
use std::process::{Command, Stdio};

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
    // Named as every message names `-` (an unreadable stdin, an empty SQL script on it).
    assert!(line.starts_with("wmp: stdin: window.assigner.size_ms"), "{line}");
    let line = assert_input_error(&wmp(&["validate", "-"], Some("not json")), "garbage stdin");
    assert!(line.starts_with("wmp: stdin: "), "{line}");
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
    assert!(text.contains("fix: Idle timeout 5 s") && text.contains("advice:"), "{text}");
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
