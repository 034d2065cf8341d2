//! The oracle3 goldens (`tests/golden/oracle3`): watermark alignment and checkpoint/restore
//! scenarios that the project's own oracle (`tools/oracle/`, section oracle3 of its README) ran on
//! real Apache Flink 2.3. Comparing the engine with them needs the engine's alignment and
//! checkpointing (issue 13, `docs/FLOW.md`); `tools/oracle/ORACLE3.md` is the contract for that
//! test. Until it is wired, this suite keeps the files themselves usable for it: they pair up,
//! every expected output is a successful Flink 2.3.0 run of its scenario with the configuration
//! the scenario asks for, and every scenario's `expect_engine` names fields its expected output
//! has.

mod golden_files;

use golden_files::{groups, names, pairing_errors};
use serde_json::Value;
use std::path::Path;

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
    if !restores && exp["alignment"].as_array().is_none_or(|a| a.is_empty()) {
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
