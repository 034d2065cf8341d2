//! Differential tests against real Apache Flink 2.3: every scenario under
//! `tests/golden/oracle/scenarios` was run on Flink by `../shared/oracle`, its output is in
//! `tests/golden/oracle/expected`. Our engine must reproduce the watermark sequence and the
//! late records exactly, and the window results in order, where results fired by one watermark
//! are compared as a multiset (Flink orders those ties by its timer heap).

use serde_json::Value;
use std::path::Path;
use wmp::engine::scenario::oracle;

fn groups(windows: &Value) -> Vec<(i64, Vec<String>)> {
    let mut out: Vec<(i64, Vec<String>)> = Vec::new();
    for w in windows.as_array().expect("windows array") {
        let wm = w["wm"].as_i64().expect("wm");
        let canon = ["key", "window_start", "window_end", "count", "sum", "firing"].map(|f| w[f].to_string()).join("|");
        match out.last_mut() {
            Some((k, v)) if *k == wm => v.push(canon),
            _ => out.push((wm, vec![canon])),
        }
    }
    out.iter_mut().for_each(|(_, v)| v.sort());
    out
}

fn check(name: &str, got: &Value, exp: &Value) -> Vec<String> {
    let mut errs = Vec::new();
    if got["watermarks"] != exp["watermarks"] {
        errs.push(format!("{name}: watermarks {} != flink {}", got["watermarks"], exp["watermarks"]));
    }
    let field = if exp.get("late").is_some() { "late" } else { "dropped" };
    if got[field] != exp[field] {
        errs.push(format!("{name}: {field} {} != flink {}", got[field], exp[field]));
    }
    if groups(&got["windows"]) != groups(&exp["windows"]) {
        errs.push(format!("{name}: windows {} != flink {}", got["windows"], exp["windows"]));
    }
    errs
}

#[test]
fn engine_matches_real_flink_on_every_golden_scenario() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/oracle");
    let mut files: Vec<_> = std::fs::read_dir(dir.join("scenarios")).expect("scenarios dir").map(|e| e.unwrap().path()).collect();
    files.sort();
    assert!(files.len() >= 15, "expected at least 15 golden scenarios, found {}", files.len());
    let mut errs = Vec::new();
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        let sc = oracle::parse(&std::fs::read_to_string(f).unwrap()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let sim = sc.run().unwrap_or_else(|e| panic!("{name}: {e}"));
        let got = oracle::report(&sc, &sim);
        let exp: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("expected").join(&name)).unwrap()).unwrap();
        errs.extend(check(&name, &got, &exp));
    }
    assert!(errs.is_empty(), "{} mismatches with real Flink:\n{}", errs.len(), errs.join("\n"));
}

#[test]
fn a_wrong_expectation_is_detected() {
    let exp: Value = serde_json::json!({"watermarks": [1, 2], "late": [], "windows": []});
    let got: Value = serde_json::json!({"watermarks": [1], "late": [], "windows": []});
    assert_eq!(check("x", &got, &exp).len(), 1);
}
