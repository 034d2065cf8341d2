//! What both oracle golden suites (`tests/oracle_golden.rs`, `tests/oracle2_golden.rs`) share:
//! the pairing of scenario files with Flink's expected outputs, and the comparison of results
//! fired by one watermark as a multiset (Flink orders those ties by its timer heap).

#![allow(dead_code)] // each suite uses some of these

use serde_json::Value;
use std::path::Path;

/// Results in emission order, grouped by the watermark that fired them, each group sorted:
/// `fields` make a result's identity, `wm` its group.
pub fn grouped(results: &Value, fields: &[&str]) -> Vec<(i64, Vec<String>)> {
    let mut out: Vec<(i64, Vec<String>)> = Vec::new();
    for w in results.as_array().expect("results array") {
        let wm = w["wm"].as_i64().unwrap_or(i64::MIN);
        let canon = fields.iter().map(|f| w[*f].to_string()).collect::<Vec<_>>().join("|");
        match out.last_mut() {
            Some((k, v)) if *k == wm => v.push(canon),
            _ => out.push((wm, vec![canon])),
        }
    }
    out.iter_mut().for_each(|(_, v)| v.sort());
    out
}

/// Window results grouped by firing watermark.
pub fn groups(windows: &Value) -> Vec<(i64, Vec<String>)> {
    grouped(windows, &["key", "window_start", "window_end", "count", "sum", "firing"])
}

/// The file names in `dir`, sorted.
pub fn names(dir: &Path) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    out.sort();
    out
}

/// What is wrong with the pairing of scenario files and expected outputs: a scenario without
/// its expected output, an expected output without its scenario, a file that is not `.json`.
pub fn pairing_errors(scenarios: &[String], expected: &[String]) -> Vec<String> {
    let mut errs = Vec::new();
    if scenarios.is_empty() {
        errs.push("no golden scenarios".to_string());
    }
    for n in scenarios.iter().chain(expected).filter(|n| !n.ends_with(".json")) {
        errs.push(format!("{n}: not a .json file"));
    }
    for n in scenarios.iter().filter(|n| !expected.contains(n)) {
        errs.push(format!("{n}: scenario without expected/{n}"));
    }
    for n in expected.iter().filter(|n| !scenarios.contains(n)) {
        errs.push(format!("{n}: expected output without scenarios/{n}"));
    }
    errs
}
