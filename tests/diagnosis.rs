//! The diagnosis, one scenario per symptom (`tests/diagnosis/*.json`): each names the finding
//! kind, the culprit, the partition classes and key numbers it expects at `at_ms`, and the fix
//! to apply — the test applies it, runs on, and asserts the symptom improved against the same
//! run without the fix (windows fire, fewer drops, lower delay, fewer flips, fewer duplicate
//! rows, a higher watermark). A fix that does not help fails here.
//!
//! File format: `{ about, at_ms, expect: {...}, options?: DiagnosisOptions, fix?: {...},
//! scenario }`; see `check_expectations` and `check_fix` for every key.

use serde_json::Value;
use std::path::Path;
use wmp::engine::diagnosis::{Diagnosis, DiagnosisOptions};
use wmp::engine::session::action::Action;
use wmp::engine::session::Session;
use wmp::engine::time::EventTime;

#[path = "diagnosis/checks.rs"]
mod checks;
#[path = "diagnosis/partitions.rs"]
mod partitions;
#[path = "diagnosis/two_sources.rs"]
mod two_sources;

fn cases() -> Vec<(String, Value)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/diagnosis");
    let mut files: Vec<_> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "json")).collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            (p.file_name().unwrap().to_string_lossy().to_string(), serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap())
        })
        .collect()
}

fn session(case: &Value) -> Session {
    Session::from_json(&case["scenario"].to_string()).unwrap()
}

fn options(case: &Value) -> DiagnosisOptions {
    case.get("options").map(|o| serde_json::from_value(o.clone()).unwrap()).unwrap_or_default()
}

fn run_to(s: &mut Session, at_ms: i64) {
    s.run_until(at_ms, &mut ()).unwrap();
}

#[test]
fn at_least_thirty_symptoms_are_covered() {
    assert!(cases().len() >= 30, "{} scenarios", cases().len());
}

#[test]
fn every_symptom_is_diagnosed_as_expected() {
    let mut failures = Vec::new();
    for (name, case) in cases() {
        let mut s = session(&case);
        run_to(&mut s, case["at_ms"].as_i64().unwrap());
        let d = s.sim().diagnose(&options(&case));
        if let Err(e) = check_expectations(&d, &case["expect"]) {
            failures.push(format!(
                "{name}: {e}\n  headline: {}\n  findings: {:?}",
                d.headline,
                d.findings.iter().map(|f| f.kind).collect::<Vec<_>>()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_offered_fix_improves_its_symptom() {
    let mut failures = Vec::new();
    for (name, case) in cases() {
        let Some(fix) = case.get("fix") else { continue };
        if let Err(e) = check_fix(&case, fix) {
            failures.push(format!("{name}: {e}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn kind_name(k: impl serde::Serialize) -> String {
    serde_json::to_value(k).unwrap().as_str().unwrap_or_default().to_string()
}

/// Keys: `cause` (a finding kind or null), `culprit_partition` (a number or null), `finding`
/// (a kind that must be present), `severity` (of `cause`'s finding), `absent` (kinds that must
/// not be), `classes` / `classes_not` (partition → class), `slow_cause`, `evidence` (name →
/// [min, max] over every finding that has it), `no_fixes` (the diagnosis offers none).
fn check_expectations(d: &Diagnosis, e: &Value) -> Result<(), String> {
    let kinds: Vec<String> = d.findings.iter().map(|f| kind_name(f.kind)).collect();
    if let Some(c) = e.get("cause") {
        let got = d.cause.map(kind_name);
        if c.as_str() != got.as_deref() {
            return Err(format!("cause {got:?}, expected {c}"));
        }
    }
    if let Some(c) = e.get("culprit_partition") {
        let got = d.culprit.as_ref().and_then(|c| c.partition);
        if c.as_u64().map(|v| v as u32) != got {
            return Err(format!("culprit partition {got:?}, expected {c}"));
        }
        if c.is_null() && e.get("cause").is_some_and(|c| c.is_null()) && d.culprit.is_some() && d.records_read == 0 {
            return Err("a culprit before anything was read".into());
        }
    }
    if let Some(k) = e.get("finding").and_then(Value::as_str) {
        if !kinds.iter().any(|x| x == k) {
            return Err(format!("no {k} finding"));
        }
    }
    if let Some(sev) = e.get("severity").and_then(Value::as_str) {
        let got = d.primary().map(|f| kind_name(f.severity));
        if got.as_deref() != Some(sev) {
            return Err(format!("severity {got:?}, expected {sev}"));
        }
    }
    for k in e.get("absent").and_then(Value::as_array).into_iter().flatten() {
        if kinds.iter().any(|x| Some(x.as_str()) == k.as_str()) {
            return Err(format!("unexpected {k} finding"));
        }
    }
    check_classes(d, e)?;
    for (name, range) in e.get("evidence").and_then(Value::as_object).into_iter().flatten() {
        let (lo, hi) = (range[0].as_f64().unwrap(), range[1].as_f64().unwrap());
        let vals: Vec<f64> = d.findings.iter().filter_map(|f| f.number(name)).collect();
        if !vals.iter().any(|v| (lo..=hi).contains(v)) {
            return Err(format!("evidence {name} {vals:?} not in [{lo}, {hi}]"));
        }
    }
    check_more(d, e)?;
    if e.get("no_fixes").and_then(Value::as_bool) == Some(true) && !d.fixes().is_empty() {
        return Err(format!("offers fixes {:?}", d.fixes().iter().map(|f| &f.label).collect::<Vec<_>>()));
    }
    Ok(())
}

/// Keys: `absent_cause` (kinds that must not be the cause), `not_holding` (kinds that must not
/// be marked as holding the watermark), `advice_bound_max` (the advised bound stays at or below
/// it), `no_advice` (no recommendation at all), `title_not` (fragments no finding's title or the
/// explanation's sentence may contain).
fn check_more(d: &Diagnosis, e: &Value) -> Result<(), String> {
    let cause = d.cause.map(kind_name);
    for k in e.get("absent_cause").and_then(Value::as_array).into_iter().flatten() {
        if cause.as_deref() == k.as_str() {
            return Err(format!("cause is {k}"));
        }
    }
    for k in e.get("not_holding").and_then(Value::as_array).into_iter().flatten() {
        if d.findings.iter().any(|f| f.holds_watermark && Some(kind_name(f.kind).as_str()) == k.as_str()) {
            return Err(format!("{k} marked as holding the watermark"));
        }
    }
    if let Some(max) = e.get("advice_bound_max").and_then(Value::as_i64) {
        if d.advice.bound.recommended_ms.is_some_and(|b| b > max) {
            return Err(format!("advised bound {:?} above {max}", d.advice.bound.recommended_ms));
        }
    }
    if e.get("no_advice").and_then(Value::as_bool) == Some(true) && !d.advice.actions.is_empty() {
        return Err(format!("advice {:?}", d.advice.actions));
    }
    for frag in e.get("title_not").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str) {
        let texts = d.findings.iter().map(|f| f.title.as_str()).chain(d.explanation.iter().map(|x| x.text.as_str()));
        if let Some(t) = texts.into_iter().find(|t| t.contains(frag)) {
            return Err(format!("says {frag:?}: {t}"));
        }
    }
    Ok(())
}

fn check_classes(d: &Diagnosis, e: &Value) -> Result<(), String> {
    let class_of = |p: &str| d.partitions.get(p.parse::<usize>().unwrap()).map(|f| kind_name(f.class));
    for (p, want) in e.get("classes").and_then(Value::as_object).into_iter().flatten() {
        if class_of(p).as_deref() != want.as_str() {
            return Err(format!("partition {p} is {:?}, expected {want}", class_of(p)));
        }
    }
    for (p, not) in e.get("classes_not").and_then(Value::as_object).into_iter().flatten() {
        if class_of(p).as_deref() == not.as_str() {
            return Err(format!("partition {p} is {not}"));
        }
    }
    for (p, want) in e.get("slow_cause").and_then(Value::as_object).into_iter().flatten() {
        let got = d.partitions.get(p.parse::<usize>().unwrap()).and_then(|f| f.slow_cause).map(kind_name);
        if got.as_deref() != want.as_str() {
            return Err(format!("partition {p}'s slow cause {got:?}, expected {want}"));
        }
    }
    Ok(())
}

/// What a fix should improve, measured at the same instant with and without it.
#[derive(Debug, PartialEq, PartialOrd)]
struct Measure {
    windows_fired: usize,
    late_dropped: u64,
    result_delay_ms: Option<i64>,
    idle_flips: u32,
    duplicate_rows: usize,
    watermark: EventTime,
}

fn measure(s: &Session, since_ms: i64) -> Measure {
    let sim = s.sim();
    let down = sim.downstream();
    let since = sim.config().start_time + since_ms;
    let delays: Vec<i64> = down.sink.results().filter(|r| r.time > since).map(|r| r.time.ms() - r.end.ms()).collect();
    Measure {
        windows_fired: down.sink.total(),
        late_dropped: down.late_counts().0,
        result_delay_ms: (!delays.is_empty()).then(|| delays.iter().sum::<i64>() / delays.len() as i64),
        idle_flips: sim.partition_facts().iter().map(|p| p.idle_flips).sum(),
        duplicate_rows: down.sink.duplicate_rows(),
        watermark: down.windows.iter().map(|w| w.current_input_watermark()).min().unwrap(),
    }
}

/// Keys: `finding` (whose fixes; default the first finding), `index` (which of its fixes),
/// `run_ms` (how long after `at_ms` to compare), `improves` (windows_fired, late_dropped,
/// result_delay, idle_flips, duplicates, watermark), `gone` (the finding is gone by then).
fn check_fix(case: &Value, fix: &Value) -> Result<(), String> {
    let at = case["at_ms"].as_i64().unwrap();
    let end = at + fix["run_ms"].as_i64().unwrap();
    let mut base = session(case);
    run_to(&mut base, at);
    let d = base.sim().diagnose(&options(case));
    let finding = match fix.get("finding").and_then(Value::as_str) {
        Some(k) => d.findings.iter().find(|f| kind_name(f.kind) == k),
        None => d.findings.first(),
    }
    .ok_or("no finding to fix")?;
    let f =
        finding.fixes.get(fix["index"].as_u64().unwrap() as usize).ok_or(format!("{:?} offers no fix {}", finding.kind, fix["index"]))?;
    let action: Action = f.action;
    let kind = finding.kind;
    // The same run again (the engine is deterministic), this time with the fix.
    let mut fixed = session(case);
    run_to(&mut fixed, at);
    fixed.apply_action(action).map_err(|e| format!("{}: {e}", f.label))?;
    // Right after it, the fix is not offered again (it is what is set now).
    if !action.restarts() && fixed.sim().diagnose(&options(case)).fixes().iter().any(|x| x.action == action) {
        return Err(format!("{} is offered again right after it was applied", f.label));
    }
    // Flips counted from the moment of the fix, in both runs.
    let flips_before = measure(&base, at).idle_flips;
    run_to(&mut base, end);
    run_to(&mut fixed, end);
    let (b, x) = (measure(&base, at), measure(&fixed, at));
    let flips = |m: &Measure| m.idle_flips.saturating_sub(if action.restarts() { 0 } else { flips_before });
    let improved = match fix["improves"].as_str().unwrap() {
        "windows_fired" => x.windows_fired > b.windows_fired,
        "late_dropped" => x.late_dropped < b.late_dropped,
        "result_delay" => x.result_delay_ms.zip(b.result_delay_ms).is_some_and(|(x, b)| x < b),
        "idle_flips" => flips(&x) < flips(&b),
        "duplicates" => x.duplicate_rows < b.duplicate_rows,
        "watermark" => x.watermark > b.watermark,
        other => return Err(format!("unknown measure {other}")),
    };
    if !improved {
        return Err(format!("{} ({action:?}) did not improve {}: without {b:?}, with {x:?}", f.label, fix["improves"]));
    }
    if fix.get("gone").and_then(Value::as_bool) == Some(true) {
        let after = fixed.sim().diagnose(&options(case));
        if after.finding(kind).is_some() {
            return Err(format!("{kind:?} is still there after {}: {}", f.label, after.headline));
        }
    }
    Ok(())
}

/// The preset card and the WHY panel never propose different values for the same fix: every
/// preset step labelled "Fix:" (or "Or:") is one of the fixes the diagnosis offers during the story (at
/// a quarter or half of the preset's duration), and the story's other numbers come from the
/// same advisor.
#[test]
fn every_preset_fix_step_is_what_the_diagnosis_offers() {
    use wmp::engine::scenario::catalog::presets;
    let mut failures = Vec::new();
    for p in presets() {
        let mut s = Session::from_json(p.json).unwrap();
        let dur = s.scenario().duration_ms;
        let mut offered = Vec::new();
        for at in [dur / 4, dur / 2] {
            s.run_until(at, &mut ()).unwrap();
            offered.extend(s.sim().diagnose(&DiagnosisOptions::default()).fixes().into_iter().map(|f| f.action));
        }
        // "Or:" is a second fix: its value is the diagnosis' too (it said 5 s where the WHY
        // panel offered 2 s).
        for step in p.steps.iter().filter(|st| st.label.starts_with("Fix:") || st.label.starts_with("Or:")) {
            if !offered.contains(&step.action) {
                failures.push(format!(
                    "{}: card step {:?} ({:?}) is not offered; the diagnosis offers {offered:?}",
                    p.id, step.label, step.action
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Before anything is read, no preset names a culprit; the diagnosis says so.
#[test]
fn no_preset_names_a_culprit_before_anything_is_read() {
    for p in wmp::engine::scenario::catalog::presets() {
        let s = Session::from_json(p.json).unwrap();
        let d = s.sim().diagnose(&DiagnosisOptions::default());
        assert_eq!(d.culprit, None, "{}", p.id);
        assert_eq!(kind_name(d.cause), "nothing_read_yet", "{}", p.id);
    }
}
