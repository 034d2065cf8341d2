//! Differential tests against real Apache Flink 2.3 for two-input jobs and the watermark
//! operators after a source: every scenario under `tests/golden/oracle2/scenarios` was run on
//! Flink by the project's own oracle (`tools/oracle/`), its output is in
//! `tests/golden/oracle2/expected`. The engine must reproduce exactly the keyed operator's
//! watermarks, each input's valve output (`processWatermark1/2`), the statuses reaching and
//! leaving the operator, what each source and each chained watermark operator emitted, the late
//! (or dropped) elements, and the window results or joined pairs in order — results of one
//! watermark (or one element) compared as a multiset.

mod golden_files;

use golden_files::{grouped, groups, names, pairing_errors};
use serde_json::Value;
use std::path::Path;
use wmp::engine::scenario::oracle2;

/// Joined pairs grouped by the element that produced them (consecutive pairs sharing a side's
/// element): Flink iterates the other side's buffer in the state backend's order.
fn join_groups(joins: &Value) -> Vec<(i64, Vec<String>)> {
    let mut tagged = joins.clone();
    if let Some(a) = tagged.as_array_mut() {
        for j in a.iter_mut() {
            let wm = j["ts"].as_i64().unwrap_or(0);
            j["wm"] = serde_json::json!(wm);
        }
    }
    grouped(&tagged, &["key", "left_ts", "right_ts", "left_value", "right_value", "ts"])
}

const EXACT: &[&str] = &["watermarks", "late", "dropped", "input_watermarks", "statuses", "output_statuses", "sources", "midstream"];

fn check(name: &str, got: &Value, exp: &Value) -> Vec<String> {
    let mut errs = Vec::new();
    for field in EXACT {
        if let Some(e) = exp.get(*field) {
            if got.get(*field) != Some(e) {
                errs.push(format!("{name}: {field} {} != flink {e}", got.get(*field).unwrap_or(&Value::Null)));
            }
        }
    }
    if let Some(w) = exp.get("windows") {
        if groups(&got["windows"]) != groups(w) {
            errs.push(format!("{name}: windows {} != flink {w}", got["windows"]));
        }
    }
    if let Some(j) = exp.get("joins") {
        if join_groups(&got["joins"]) != join_groups(j) {
            errs.push(format!("{name}: joins {} != flink {j}", got["joins"]));
        }
    }
    errs
}

#[test]
fn engine_matches_real_flink_on_every_two_input_golden() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/oracle2");
    let scenarios = names(&dir.join("scenarios"));
    let expected = names(&dir.join("expected"));
    let pairing = pairing_errors(&scenarios, &expected);
    assert!(pairing.is_empty(), "golden files do not pair up:\n{}", pairing.join("\n"));
    assert!(scenarios.len() >= 20, "at least 20 goldens");
    let mut errs = Vec::new();
    for name in &scenarios {
        let text = std::fs::read_to_string(dir.join("scenarios").join(name)).unwrap();
        let sc = oracle2::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let sim = sc.run().unwrap_or_else(|e| panic!("{name}: {e}"));
        let got = oracle2::report(&sc, &sim);
        let exp: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("expected").join(name)).unwrap())
            .unwrap_or_else(|e| panic!("expected/{name}: {e}"));
        assert_eq!(exp["scenario"].as_str(), name.strip_suffix(".json"), "{name}: expected output of another scenario");
        errs.extend(check(name, &got, &exp));
    }
    assert!(errs.is_empty(), "{} mismatches with real Flink:\n{}", errs.len(), errs.join("\n"));
}

#[test]
fn a_wrong_expectation_is_detected() {
    let exp: Value =
        serde_json::json!({"watermarks": [1], "statuses": [[1, "idle"]], "joins": [{"key": "a", "left_ts": 1, "right_ts": 2, "ts": 2}]});
    let got: Value = serde_json::json!({"watermarks": [1], "statuses": [[0, "idle"]], "joins": []});
    assert_eq!(check("x", &got, &exp).len(), 2);
}
