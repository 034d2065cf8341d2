//! The `wmp` command line's arguments, on the built binary: a file name that is not UTF-8 is
//! read; a flag of another subcommand, an unknown or repeated flag, a flag given as a value are
//! named in one line; `--flag=value` works; `--help` and `--version` print to stdout with exit
//! code 0; `export` refuses a non-empty `--out` without `--force`, leaves no earlier export's
//! file with it and follows no link; a time past the work budget names `--at`; `sql` names the
//! presets, two stdins and an empty script.

// It runs the `wmp` binary or the SQL reader / export: the `tools` feature's (on by default).
#![cfg(feature = "tools")]

mod cli_support;

use cli_support::*;
use serde_json::Value;
use std::ffi::OsStr;

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

/// `--help` (or `-h`) anywhere before `--` prints the help, whatever is wrong around it: whoever
/// asks may not know the flags yet. After `--` it is a file's name.
#[test]
fn help_anywhere_before_the_double_dash_wins_over_a_mistake() {
    for args in
        [&["run", "--bogus", "--help"][..], &["diagnose", "--at", "x", "-h", "f"], &["export", "--out", "--help"], &["sql", "-h", "--at=1"]]
    {
        let out = wmp(args, None);
        let text = stdout_of(&out);
        assert!(text.starts_with("usage:") && out.stderr.is_empty(), "{args:?}: {text}");
    }
    let line = assert_input_error(&wmp(&["run", "--", "--help"], None), "a file named --help");
    assert!(line.starts_with("wmp: --help: "), "{line}");
}

/// The usage lines are written once, in `src/bin/wmp/args.rs` (`wmp --help` prints them): a copy
/// in a doc comment or a doc page drifts from what the parser takes.
#[test]
fn the_usage_lines_are_written_once() {
    let help = stdout_of(&wmp(&["--help"], None));
    let usage: Vec<&str> = help.lines().map(str::trim).filter(|l| l.starts_with("wmp ")).collect();
    assert!(usage.len() >= 6, "{help}");
    let mut files = vec![root().join("README.md"), root().join("src/bin/wmp.rs")];
    for dir in ["src/bin/wmp", "docs"] {
        files.extend(std::fs::read_dir(root().join(dir)).unwrap().map(|e| e.unwrap().path()));
    }
    for file in files.iter().filter(|f| !f.ends_with("args.rs")) {
        let text = std::fs::read_to_string(file).unwrap();
        for line in &usage {
            assert!(!text.contains(line), "{} repeats {line:?}: point to `wmp --help` instead", file.display());
        }
    }
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
