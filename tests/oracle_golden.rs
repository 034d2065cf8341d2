//! Differential tests against real Apache Flink 2.3: every scenario under
//! `tests/golden/oracle/scenarios` was run on Flink by `../shared/oracle`, its output is in
//! `tests/golden/oracle/expected`. Our engine must reproduce the watermark sequence and the
//! late records exactly, and the window results in order, where results fired by one watermark
//! are compared as a multiset (Flink orders those ties by its timer heap). Every scenario file
//! must have its expected output and every expected output its scenario (no count to keep up
//! to date: a new pair is checked as soon as it is committed).

mod golden_files;

use golden_files::{groups, names, pairing_errors};
use serde_json::Value;
use std::path::Path;
use wmp::engine::scenario::oracle;

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

/// What is missing from an expected output for it to be checked: the scenario it answers (named
/// as the file), the watermarks, the windows and the late (or dropped) records.
fn shape_errors(name: &str, exp: &Value) -> Vec<String> {
    let mut errs = Vec::new();
    let stem = name.strip_suffix(".json").unwrap_or(name);
    if exp["scenario"].as_str() != Some(stem) {
        errs.push(format!("{name}: expected output is for scenario {}", exp["scenario"]));
    }
    for field in ["watermarks", "windows"] {
        if !exp[field].is_array() {
            errs.push(format!("{name}: expected output has no {field} array"));
        }
    }
    if !exp["late"].is_array() && !exp["dropped"].is_array() {
        errs.push(format!("{name}: expected output has neither late nor dropped"));
    }
    errs
}

#[test]
fn engine_matches_real_flink_on_every_golden_scenario() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/oracle");
    let scenarios = names(&dir.join("scenarios"));
    let expected = names(&dir.join("expected"));
    let pairing = pairing_errors(&scenarios, &expected);
    assert!(pairing.is_empty(), "golden files do not pair up:\n{}", pairing.join("\n"));
    let mut errs = Vec::new();
    let mut checked = 0;
    for name in &scenarios {
        let text = std::fs::read_to_string(dir.join("scenarios").join(name)).unwrap();
        let sc = oracle::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let sim = sc.run().unwrap_or_else(|e| panic!("{name}: {e}"));
        let got = oracle::report(&sc, &sim);
        let exp: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("expected").join(name)).unwrap())
            .unwrap_or_else(|e| panic!("expected/{name}: {e}"));
        errs.extend(shape_errors(name, &exp));
        errs.extend(check(name, &got, &exp));
        checked += 1;
    }
    assert!(errs.is_empty(), "{} mismatches with real Flink:\n{}", errs.len(), errs.join("\n"));
    assert_eq!(checked, scenarios.len(), "every golden scenario is checked");
}

#[test]
fn an_unpaired_or_incomplete_golden_file_is_detected() {
    let v = |names: &[&str]| names.iter().map(|n| n.to_string()).collect::<Vec<_>>();
    assert!(pairing_errors(&v(&["01_a.json", "02_b.json"]), &v(&["01_a.json", "02_b.json"])).is_empty());
    let errs = pairing_errors(&v(&["01_a.json", "02_b.json", "notes.txt"]), &v(&["01_a.json", "03_c.json", "notes.txt"]));
    assert_eq!(errs.len(), 4, "{errs:?}");
    assert!(errs.iter().any(|e| e.starts_with("02_b.json: scenario without expected")));
    assert!(errs.iter().any(|e| e.starts_with("03_c.json: expected output without scenario")));
    assert_eq!(pairing_errors(&[], &[]), vec!["no golden scenarios".to_string()]);
    let full = serde_json::json!({"scenario": "01_a", "watermarks": [], "dropped": [], "windows": []});
    assert!(shape_errors("01_a.json", &full).is_empty());
    assert_eq!(shape_errors("02_b.json", &full).len(), 1, "output of another scenario");
    assert_eq!(shape_errors("01_a.json", &serde_json::json!({"scenario": "01_a"})).len(), 3);
}

#[test]
fn a_wrong_expectation_is_detected() {
    let exp: Value = serde_json::json!({"watermarks": [1, 2], "late": [], "windows": []});
    let got: Value = serde_json::json!({"watermarks": [1], "late": [], "windows": []});
    assert_eq!(check("x", &got, &exp).len(), 1);
}
