//! Differential tests against real Apache Flink 2.3 for watermark alignment and
//! checkpoint/restore: every scenario under `tests/golden/oracle3/scenarios` was run on Flink by
//! the project's own oracle (`tools/oracle/`, section oracle3 of its README), its output is in
//! `tests/golden/oracle3/expected`. The engine runs each scenario as the oracle's driver does
//! (`wmp::engine::scenario::oracle3`) and must reproduce the fields the scenario's
//! `expect_engine.compare` names: `exact` fields as they are, the listed fields of every
//! alignment snapshot, and the window firings of one (step, attempt, watermark) as a multiset
//! (Flink orders those ties by its timer heap). `tools/oracle/ORACLE3.md` is the contract.
//!
//! The guard checks stay: the files pair up, every expected output is a successful Flink 2.3.0
//! run with the buffer size its scenario asks for, and every field an `expect_engine` compares
//! exists in the expected output.

mod golden_files;

use golden_files::{groups, names, pairing_errors};
use serde_json::Value;
use std::path::Path;
use wmp::engine::scenario::{oracle3, oracle3_report};

/// Fields no `expect_engine` names for every golden, which the engine reproduces exactly as
/// well wherever Flink's output has them: the records at the window operator with its watermark
/// then, late records, and the alignment goldens' spreads and largest drift metric.
const ALSO_EXACT: &[&str] = &["records", "late", "split_spread", "max_split_spread", "max_drift_metric"];

fn strings(v: &Value) -> Vec<&str> {
    v.as_array().map(|a| a.iter().filter_map(Value::as_str).collect()).unwrap_or_default()
}

/// What is wrong with one scenario / expected-output pair.
fn file_errors(name: &str, sc: &Value, exp: &Value) -> Vec<String> {
    let mut errs = Vec::new();
    let mut err = |m: String| errs.push(format!("{name}: {m}"));
    if exp["scenario"].as_str() != name.strip_suffix(".json") {
        err("expected output of another scenario".into());
    }
    if exp["flink_version"] != "2.3.0" || exp.get("error").is_some() {
        err(format!("not a successful Flink 2.3.0 run: {} {}", exp["flink_version"], exp.get("error").unwrap_or(&Value::Null)));
    }
    let buffer = sc["flink"]["alignment_buffer_size"].as_i64().unwrap_or(3);
    if exp["config"]["cluster"]["pipeline.watermark-alignment.buffer-size"].as_i64() != Some(buffer) {
        err(format!("ran with another buffer size than {buffer}"));
    }
    let ee = &sc["expect_engine"];
    if ee["statement"].as_str().is_none_or(|s| s.len() < 40) {
        err("expect_engine.statement missing or too short".into());
    }
    let cmp = &ee["compare"];
    let exact = strings(&cmp["exact"]);
    if exact.is_empty() {
        err("expect_engine.compare.exact is empty".into());
    }
    for f in exact.iter().chain(strings(&cmp["multiset_per_step_and_wm"]).iter()) {
        if exp.get(*f).is_none() {
            err(format!("expect_engine compares `{f}`, which the expected output does not have"));
        }
    }
    for f in strings(&cmp["exact_fields_of_alignment"]) {
        if exp["alignment"].as_array().is_none_or(|a| a.is_empty() || a.iter().any(|s| s.get(f).is_none())) {
            err(format!("alignment snapshots without `{f}`"));
        }
    }
    if exp["windows"].as_array().is_some_and(|w| groups(&exp["windows"]).iter().map(|(_, g)| g.len()).sum::<usize>() != w.len()) {
        err("windows do not group by firing watermark".into());
    }
    let restores = sc.get("checkpointing").is_some_and(|c| !c.is_null());
    if restores && exp["failures"].as_array().is_none_or(|f| f.is_empty()) {
        err("a restore golden without a failure".into());
    }
    let aligns = sc["sources"].as_array().is_some_and(|s| s.iter().any(|s| s.get("alignment").is_some_and(|a| !a.is_null())));
    if aligns && exp["alignment"].as_array().is_none_or(|a| a.is_empty()) {
        err("an alignment golden without snapshots".into());
    }
    errs
}

#[test]
fn oracle3_goldens_pair_up_and_state_what_the_engine_must_reproduce() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/oracle3");
    let scenarios = names(&dir.join("scenarios"));
    let expected = names(&dir.join("expected"));
    let pairing = pairing_errors(&scenarios, &expected);
    assert!(pairing.is_empty(), "golden files do not pair up:\n{}", pairing.join("\n"));
    assert!(scenarios.len() >= 15, "at least 15 goldens");
    let read = |sub: &str, name: &str| -> Value {
        serde_json::from_str(&std::fs::read_to_string(dir.join(sub).join(name)).unwrap()).unwrap_or_else(|e| panic!("{sub}/{name}: {e}"))
    };
    let errs: Vec<String> = scenarios.iter().flat_map(|n| file_errors(n, &read("scenarios", n), &read("expected", n))).collect();
    assert!(errs.is_empty(), "{}", errs.join("\n"));
}

#[test]
fn a_statement_about_a_field_flink_did_not_output_is_detected() {
    let sc = serde_json::json!({
        "expect_engine": {"statement": "the fast split is paused at step 4 and resumed at step 7 as in Flink",
                          "compare": {"exact": ["emitted", "pause_resume"], "multiset_per_step_and_wm": ["windows"]}}
    });
    let exp = serde_json::json!({
        "scenario": "x", "flink_version": "2.3.0", "config": {"cluster": {"pipeline.watermark-alignment.buffer-size": 3}},
        "emitted": [], "windows": [], "alignment": [{"step": 0}]
    });
    assert_eq!(
        file_errors("x.json", &sc, &exp),
        vec!["x.json: expect_engine compares `pause_resume`, which the expected output does not have"]
    );
}

/// Window firings grouped by (step, attempt, watermark), in emission order, each group sorted.
fn firing_groups(windows: &Value) -> Vec<((i64, i64, i64), Vec<String>)> {
    let mut out: Vec<((i64, i64, i64), Vec<String>)> = Vec::new();
    for w in windows.as_array().map(Vec::as_slice).unwrap_or_default() {
        let at = (w["step"].as_i64().unwrap_or(-1), w["attempt"].as_i64().unwrap_or(-1), w["wm"].as_i64().unwrap_or(i64::MIN));
        let canon =
            ["key", "window_start", "window_end", "count", "sum", "firing"].iter().map(|f| w[*f].to_string()).collect::<Vec<_>>().join("|");
        match out.last_mut() {
            Some((k, v)) if *k == at => v.push(canon),
            _ => out.push((at, vec![canon])),
        }
    }
    out.iter_mut().for_each(|(_, v)| v.sort());
    out
}

/// Where two JSON lists first differ, for a readable message.
fn first_difference(got: &Value, exp: &Value) -> String {
    match (got.as_array(), exp.as_array()) {
        (Some(g), Some(e)) => match (0..g.len().max(e.len())).find(|&i| g.get(i) != e.get(i)) {
            Some(i) => format!(
                "first difference at [{i}]: engine {} / flink {} (lengths {} / {})",
                g.get(i).unwrap_or(&Value::Null),
                e.get(i).unwrap_or(&Value::Null),
                g.len(),
                e.len()
            ),
            None => "equal".into(),
        },
        _ => format!("engine {got} / flink {exp}"),
    }
}

/// What differs between the engine's output and Flink's, in the fields the scenario compares.
fn comparison_errors(name: &str, sc: &Value, got: &Value, exp: &Value) -> Vec<String> {
    let mut errs = Vec::new();
    let cmp = &sc["expect_engine"]["compare"];
    let mut exact = strings(&cmp["exact"]);
    let also: Vec<&str> = ALSO_EXACT.iter().copied().filter(|f| exp.get(*f).is_some() && !exact.contains(f)).collect();
    exact.extend(also);
    for f in exact {
        let g = got.get(f).unwrap_or(&Value::Null);
        if g != &exp[f] {
            errs.push(format!("{name}: {f}: {}", first_difference(g, &exp[f])));
        }
    }
    let fields = strings(&cmp["exact_fields_of_alignment"]);
    if !fields.is_empty() {
        let pick = |v: &Value| -> Value {
            Value::Array(
                v.as_array()
                    .map(Vec::as_slice)
                    .unwrap_or_default()
                    .iter()
                    .map(|s| fields.iter().map(|f| (f.to_string(), s[*f].clone())).collect())
                    .collect(),
            )
        };
        let (g, e) = (pick(&got["alignment"]), pick(&exp["alignment"]));
        if g != e {
            errs.push(format!("{name}: alignment: {}", first_difference(&g, &e)));
        }
    }
    for f in strings(&cmp["multiset_per_step_and_wm"]) {
        if firing_groups(&got[f]) != firing_groups(&exp[f]) {
            errs.push(format!("{name}: {f} (multiset per step and watermark): {}", first_difference(&got[f], &exp[f])));
        }
    }
    errs
}

#[test]
fn engine_matches_real_flink_on_every_oracle3_golden() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/oracle3");
    let mut errs = Vec::new();
    for name in names(&dir.join("scenarios")) {
        let text = std::fs::read_to_string(dir.join("scenarios").join(&name)).unwrap();
        let mut sc = oracle3::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        sc.name = name.trim_end_matches(".json").to_string();
        let run = sc.run().unwrap_or_else(|e| panic!("{name}: {e}"));
        let got = oracle3_report::report(&sc, &run);
        let read = |sub: &str| -> Value { serde_json::from_str(&std::fs::read_to_string(dir.join(sub).join(&name)).unwrap()).unwrap() };
        errs.extend(comparison_errors(&name, &read("scenarios"), &got, &read("expected")));
    }
    assert!(errs.is_empty(), "{} mismatches with real Flink:\n{}", errs.len(), errs.join("\n"));
}

#[test]
fn a_wrong_expectation_is_detected() {
    let sc = serde_json::json!({"expect_engine": {"compare": {"exact": ["reads"], "exact_fields_of_alignment": ["mode"],
                                                              "multiset_per_step_and_wm": ["windows"]}}});
    let w = |key: &str| serde_json::json!({"step": 1, "attempt": 0, "wm": 999, "key": key, "window_start": 0, "window_end": 1000, "count": 1, "sum": 1, "firing": 0});
    let exp = serde_json::json!({"reads": [{"got": 1}], "alignment": [{"mode": "READING", "latest": 5}], "windows": [w("a"), w("b")]});
    let same = serde_json::json!({"reads": [{"got": 1}], "alignment": [{"mode": "READING", "latest": 6}], "windows": [w("b"), w("a")]});
    assert!(comparison_errors("x", &sc, &same, &exp).is_empty(), "ties in one firing compare as a multiset; unlisted fields are free");
    let wrong = serde_json::json!({"reads": [{"got": 2}], "alignment": [{"mode": "WAITING_FOR_ALIGNMENT"}], "windows": [w("a")]});
    assert_eq!(comparison_errors("x", &sc, &wrong, &exp).len(), 3);
}
