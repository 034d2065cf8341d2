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

/// The union preset changed by `edit` (its JSON), run to `at_ms`.
fn union_edited(edit: impl FnOnce(&mut Value), at_ms: i64) -> Session {
    let mut sc: Value = serde_json::from_str(include_str!("../presets/union_idle_stream.json")).unwrap();
    edit(&mut sc);
    let mut s = Session::from_json(&sc.to_string()).unwrap();
    run_to(&mut s, at_ms);
    s
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

/// With two sources, a subtask without a split is counted against its own source: the second
/// source's parallelism and its topic's partitions, not the first source's nor every topic's.
#[test]
fn a_subtask_without_a_split_is_counted_in_its_own_source() {
    let s = union_edited(|sc| sc["second_input"]["source"]["parallelism"] = 3.into(), 20_000);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    let f = d.findings.iter().find(|f| f.kind == wmp::engine::diagnosis::finding::FindingKind::SubtaskWithoutSplit).expect("the finding");
    assert!(f.title.starts_with("Source subtask impressions·2 owns no partition (3 source subtasks for 2 partitions)"), "{}", f.title);
    assert!(
        f.fixes.iter().all(|x| !matches!(x.action, Action::SourceParallelism(_))),
        "the action would set the clicks source's: {:?}",
        f.fixes
    );
}

/// With two sources, a partition is judged by its own source's idle timeout: the impressions
/// stop at 30 s, and only their own source's timeout excludes them.
#[test]
fn a_partition_is_judged_by_its_own_sources_idle_timeout() {
    use wmp::engine::diagnosis::finding::FindingKind;
    let run = |first: Option<i64>, second: Option<i64>| {
        let mut sc: Value = serde_json::from_str(include_str!("../presets/union_idle_stream.json")).unwrap();
        sc["source"]["watermark"]["idle_timeout_ms"] = first.into();
        sc["second_input"]["source"]["watermark"]["idle_timeout_ms"] = second.into();
        let mut s = Session::from_json(&sc.to_string()).unwrap();
        run_to(&mut s, 60_000);
        let d = s.sim().diagnose(&DiagnosisOptions::default());
        d.findings.iter().filter(|f| f.kind == FindingKind::IdlePartition).map(|f| f.title.clone()).collect::<Vec<_>>()
    };
    let excluded = run(None, Some(5_000));
    assert!(excluded.is_empty(), "the impressions' own 5 s timeout has excluded them: {excluded:?}");
    let held = run(Some(5_000), None);
    assert!(held.iter().any(|t| t.contains("impressions") && t.contains("no idle timeout lets it go")), "{held:?}");
}

/// With two sources, a generator problem of the second is named too, with its topic.
#[test]
fn the_second_sources_missing_strategy_is_named() {
    use wmp::engine::diagnosis::finding::FindingKind;
    let s =
        union_edited(|sc| sc["second_input"]["source"]["watermark"]["generator"] = serde_json::json!({"kind": "no_watermarks"}), 20_000);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    let f = d.findings.iter().find(|f| f.kind == FindingKind::NoWatermarkStrategy).expect("the finding");
    assert!(f.title.starts_with("The source of impressions has no watermark strategy"), "{}", f.title);
}

/// With two sources whose idle timeouts differ (5 s and none), the advice proposes one value for
/// both (setting it sets every source's): the row shows a source's value it changes, the basis
/// says they differ, a constraint is met only when both meet it, and once applied it is kept.
#[test]
fn two_sources_with_different_idle_timeouts_get_one_for_both() {
    use wmp::engine::session::action::Action;
    let mut s = union_edited(|sc| sc["source"]["watermark"]["idle_timeout_ms"] = 5_000.into(), 25_000);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    let idle = &d.advice.idle_timeout;
    let rec = idle.recommended_ms.expect("a recommendation");
    assert_ne!(idle.current_ms, Some(rec), "the row shows a value the advice changes: {idle:?}");
    assert!(idle.basis.contains("the sources' idle timeouts differ (5.0 s and none)"), "{}", idle.basis);
    assert!(d.advice.actions.contains(&Action::IdleTimeout(Some(rec))), "{:?}", d.advice.actions);
    assert!(d.advice.constraints.iter().all(|c| !c.current_ok || c.text.starts_with("within")), "none is off: {:?}", d.advice.constraints);
    s.apply_action(Action::IdleTimeout(Some(rec))).unwrap();
    assert!(s.sim().config().inputs.iter().all(|i| i.source.idle_timeout_ms == Some(rec)));
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    assert_eq!(d.advice.idle_timeout.current_ms, Some(rec));
    assert!(!d.advice.actions.iter().any(|a| matches!(a, Action::IdleTimeout(_))), "kept once applied: {:?}", d.advice.actions);
}

/// With two sources, the job's watermark trails by the larger bound (the union's watermark is
/// the minimum of the two): the advisor and the bound findings read that one, not the first's.
#[test]
fn the_larger_bound_of_two_sources_is_the_jobs() {
    use wmp::engine::diagnosis::finding::FindingKind;
    let s = union_edited(|sc| sc["second_input"]["source"]["watermark"]["generator"]["bound_ms"] = 300_000.into(), 25_000);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    assert_eq!(d.advice.bound.current_ms, Some(300_000));
    let f = d.findings.iter().find(|f| f.kind == FindingKind::BoundTooLarge).expect("the finding");
    assert!(f.title.starts_with("The bound (5 min) is far above the disorder"), "{}", f.title);
}

/// A watermark operator after one of two sources replaces that source's strategy: the job's
/// bound counts the operator's, and the other source's bound is still advised (its strategy
/// makes its input's watermark). With an operator after both, nothing is advised for the sources.
#[test]
fn an_operator_after_one_of_two_sources_leaves_the_others_bound_advised() {
    use wmp::engine::diagnosis::diagnose::{job_bound_ms, source_bound_ms};
    let operator =
        serde_json::json!({"operator": "timestamps_and_watermarks", "generator": {"kind": "bounded_out_of_orderness", "bound_ms": 5000}});
    let one = operator.clone();
    let s = union_edited(|sc| sc["source"]["midstream"] = one, 25_000);
    assert_eq!(job_bound_ms(s.sim().config()), Some(5_000), "the operator's bound, not its source's 1 s");
    assert_eq!(source_bound_ms(s.sim().config()), Some(1_000), "the impressions source's own");
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    assert_eq!(d.advice.bound.current_ms, Some(1_000));
    assert!(d.advice.bound.recommended_ms.is_some(), "{}", d.advice.bound.basis);

    let both = union_edited(
        |sc| {
            sc["source"]["midstream"] = operator.clone();
            sc["second_input"]["source"]["midstream"] = operator;
        },
        25_000,
    );
    let d = both.sim().diagnose(&DiagnosisOptions::default());
    assert_eq!(d.advice.bound.current_ms, Some(5_000));
    assert_eq!(d.advice.bound.recommended_ms, None, "{}", d.advice.bound.basis);
}

#[test]
fn a_large_bound_is_too_large_only_when_it_is_the_jobs() {
    use wmp::engine::diagnosis::finding::FindingKind;
    let slow = |sc: &mut Value| {
        sc["second_input"]["source"]["watermark"]["generator"]["bound_ms"] = 60_000.into();
        sc["producers"][1].as_object_mut().unwrap().remove("stop_ms");
    };
    let too_large =
        |s: &Session| s.sim().diagnose(&DiagnosisOptions::default()).findings.iter().any(|f| f.kind == FindingKind::BoundTooLarge);
    assert!(too_large(&union_edited(slow, 120_000)), "the impressions source's 60 s bound delays every window");

    // A watermark operator after the clicks source, with a larger bound or one as large: the
    // sources' 60 s is not what delays the windows alone, so shortening it (the finding's fix)
    // would not bring a result sooner.
    let behind = |bound_ms: i64| {
        let operator = serde_json::json!({"operator": "timestamps_and_watermarks", "generator": {"kind": "bounded_out_of_orderness", "bound_ms": bound_ms}});
        union_edited(
            |sc| {
                slow(sc);
                sc["source"]["midstream"] = operator;
            },
            170_000,
        )
    };
    assert!(!too_large(&behind(120_000)), "the operator's bound (120 s) is the job's");
    assert!(!too_large(&behind(60_000)), "an operator's bound as large as the sources'");
}

/// A split read for no more than one quiet threshold (here 1 s) is not yet empty: a change in
/// the strategy panel before playing runs the instant at start + 1 ms, where every partition
/// had 0 records and the findings called partition 0 the critical culprit. The WHY panel's
/// reasons follow the same class. Past the threshold, the empty partition is named.
#[test]
fn an_empty_partition_is_judged_only_after_a_quiet_threshold() {
    use wmp::engine::diagnosis::finding::FindingKind;
    use wmp::engine::explain::Reason;
    let at = |json: &str, ms: i64| {
        let mut s = Session::from_json(json).unwrap();
        run_to(&mut s, ms);
        let d = s.sim().diagnose(&DiagnosisOptions::default());
        let never = s.sim().explain(0).unwrap().reasons.iter().any(|r| matches!(r, Reason::SplitNeverReceived { .. }));
        (d.findings.iter().any(|f| f.kind == FindingKind::EmptyPartition), never)
    };
    let seed = include_str!("../presets/seed_001_heartbeat.json");
    assert_eq!(at(seed, 1), (false, false), "seed 001 after 1 ms");
    assert_eq!(at(seed, 1_000), (false, false), "seed 001 at the threshold");
    let empty = include_str!("../presets/empty_partition.json");
    assert_eq!(at(empty, 1_000), (false, false), "the empty partition at the threshold");
    assert_eq!(at(empty, 1_001), (true, true), "the empty partition past it");
    // Before the first periodic watermark every channel and partition is at No Watermark
    // alike: nothing holds it yet (partition 0 was named, the first of them), and a warning
    // about another partition (seed 001's heartbeat after one record) is not why.
    let mut s = Session::from_json(seed).unwrap();
    run_to(&mut s, 1);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    assert_eq!(d.headline, "No watermark yet: the slowest window subtask (0) waits for a first one on each of its input channels.");
    assert_eq!((d.cause, d.culprit), (None, None), "the heartbeat warning is not why the watermark is held now");
    // A critical finding is still the cause: a missing strategy, while partition 1 (of source
    // subtask 0, which reads partitions 1 and 3) is just read. Every partition is at No
    // Watermark with it, so it is no culprit: the cause is the job's.
    let mut sc: Value = serde_json::from_str(empty).unwrap();
    sc["source"]["watermark"]["generator"] = serde_json::json!({"kind": "no_watermarks"});
    sc["producers"][0]["partitions"] = serde_json::json!([0, 2, 3]);
    let mut s = Session::from_json(&sc.to_string()).unwrap();
    run_to(&mut s, 500);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    assert_eq!(d.culprit, None);
    assert_eq!(d.cause.map(kind_name).as_deref(), Some("no_watermark_strategy"), "{}", d.headline);
    // Before the first periodic watermark (interval 200 ms) records are read and nothing is
    // wrong, but every subtask is at No Watermark: not "no problem found" beside it.
    let mut s = Session::from_json(empty).unwrap();
    run_to(&mut s, 100);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    assert_eq!(d.cause, None);
    assert_eq!(d.headline, "No watermark yet: the slowest window subtask (0) waits for a first one on each of its input channels.");
    // A partition added while the job runs is "just added" (early: a source subtask that has
    // emitted a watermark never goes back to No Watermark for a new split).
    let mut sc: Value = serde_json::from_str(seed).unwrap();
    sc["commands"] = serde_json::json!([{"at_ms": 200, "command": "add_partition"}]);
    let mut s = Session::from_json(&sc.to_string()).unwrap();
    run_to(&mut s, 500);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    assert!(d.headline.starts_with("Just added: partition 16 has had no record in the 300 ms it has been read"), "{}", d.headline);
    // A restart keeps the judgment: partition 3, empty for two minutes, is not "just started"
    // in the first second after the job is back (TaskManager 0 lost at 120 s, back at 125 s).
    let mut sc: Value = serde_json::from_str(include_str!("../presets/restart_stalls_until_idle.json")).unwrap();
    sc["source"]["watermark"]["idle_timeout_ms"] = Value::Null;
    let mut s = Session::from_json(&sc.to_string()).unwrap();
    run_to(&mut s, 125_100);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    assert_eq!(d.cause.map(kind_name).as_deref(), Some("empty_partition"), "{}", d.headline);
    let mut s = Session::from_json(empty).unwrap();
    run_to(&mut s, 500);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    assert_eq!((d.cause, d.culprit.and_then(|c| c.partition)), (None, Some(3)));
    assert_eq!(
        d.headline,
        "Just started: partition 3 has had no record in the 500 ms it has been read, so its source subtask is at No Watermark; this diagnosis calls it empty after 1.0 s without one, and without an idle timeout Flink never marks it idle."
    );
    // With an idle timeout, the headline names it: the diagnosis' quiet threshold is not it.
    let mut sc: Value = serde_json::from_str(empty).unwrap();
    sc["source"]["watermark"]["idle_timeout_ms"] = serde_json::json!(10_000);
    let mut s = Session::from_json(&sc.to_string()).unwrap();
    run_to(&mut s, 500);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    assert!(
        d.headline.ends_with("calls it empty after 1.0 s without one, and Flink marks it idle after its 10 s idle timeout."),
        "{}",
        d.headline
    );
    // A watermark interval of 0 (with watermarks per event, or nothing else would be said):
    // Flink never checks the timeout (explain reads it so too).
    sc["source"]["watermark"]["auto_watermark_interval_ms"] = serde_json::json!(0);
    sc["source"]["watermark"]["emit"] = serde_json::json!("per_event");
    let mut s = Session::from_json(&sc.to_string()).unwrap();
    run_to(&mut s, 500);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    assert!(d.headline.ends_with("without one, and with a watermark interval of 0 Flink never checks its idle timeout."), "{}", d.headline);
}

/// A backlog behind a partition its idle timeout excluded is still that far behind: the
/// backfill with idleness on the wall clock and 2.3's other switches (a split paused by
/// alignment, then declared idle, is never resumed) said "level with the other partitions in
/// event time" 15 h back.
#[test]
fn an_idle_slow_partition_says_how_far_it_trails() {
    let mut sc: Value = serde_json::from_str(include_str!("../presets/backfill_aligned.json")).unwrap();
    sc["flink"] = serde_json::json!({ "idleness_clock": "wall" });
    sc["source"]["watermark"]["idle_timeout_ms"] = 5_000.into();
    let mut s = Session::from_json(&sc.to_string()).unwrap();
    run_to(&mut s, 1_430_000);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    let f = d.findings.iter().find(|f| f.kind == wmp::engine::diagnosis::finding::FindingKind::SlowPartition).expect("the finding");
    assert!(f.title.contains("The idle timeout excluded it"), "{}", f.title);
    let behind = f.evidence.iter().find(|e| e.name == "behindMs").expect("behindMs");
    assert!(behind.value > 3_600_000.0 && behind.text.ends_with("behind the other partitions"), "{behind:?}");
}

/// Seed 001 preset, run to `at_ms` after `commands` (each at its own time, in order).
fn seed_001_with(commands: Vec<(i64, wmp::engine::command::Command)>, at_ms: i64) -> Session {
    let mut s = Session::from_json(include_str!("../presets/seed_001_heartbeat.json")).unwrap();
    for (t, c) in commands {
        // At 0 before the first instant runs (its records are read at once).
        if t > 0 {
            run_to(&mut s, t);
        }
        s.apply(c).unwrap();
    }
    run_to(&mut s, at_ms);
    s
}

/// Seed 001 (question 3): without an idle timeout, filtering the heartbeats turns the stall
/// between them into a permanent one (the partition then gets no record and never goes idle).
/// The heartbeat finding advised "Filter heartbeats before the watermark generator" first.
#[test]
fn the_heartbeat_finding_never_advises_the_filter_alone() {
    use wmp::engine::diagnosis::finding::FindingKind;
    let s = seed_001_with(vec![], 100 * 60_000);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    let f = d.finding(FindingKind::HeartbeatPartition).expect("the heartbeat finding");
    assert!(!f.detail.contains("Filter heartbeats before the watermark generator;"), "{}", f.detail);
    assert!(f.detail.contains("only together with an idle timeout") && f.detail.contains("becomes permanent"), "{}", f.detail);
    assert!(d.fixes().iter().all(|x| x.action != Action::DropHeartbeats(true)), "{:?}", d.fixes());
    // With a timeout in force the filter is the fix, and the text says the timeout does the rest.
    let mut sc: Value = serde_json::from_str(include_str!("../presets/heartbeat_idle_timeout.json")).unwrap();
    sc["source"]["watermark"]["idle_timeout_ms"] = 60_000.into();
    let mut s = Session::from_json(&sc.to_string()).unwrap();
    run_to(&mut s, 120_000);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    let f = d.finding(FindingKind::HeartbeatPartition).expect("the heartbeat finding");
    assert!(f.detail.contains("the 60.0 s idle timeout excludes it"), "{}", f.detail);
    assert!(f.fixes.iter().any(|x| x.action == Action::DropHeartbeats(true)), "{:?}", f.fixes);
}

/// With the heartbeat filter on, partition 11 read two heartbeats (00:00 and 01:30) and the
/// filter dropped both: the page said it "has never received a record … 0 records read".
#[test]
fn a_partition_whose_heartbeats_were_all_filtered_is_not_said_never_to_have_received_one() {
    use wmp::engine::command::{Command, Param};
    use wmp::engine::diagnosis::finding::FindingKind;
    let s = seed_001_with(vec![(0, Command::SetParam { param: Param::DropHeartbeats(true) })], 100 * 60_000);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    let p = &d.partitions[11];
    assert_eq!((p.records, p.filtered), (0, 2), "{p:?}");
    assert_eq!(d.partitions.iter().map(|p| p.filtered).sum::<u64>(), 2, "only partition 11's records were filtered");
    let f = d.finding(FindingKind::EmptyPartition).expect("the finding");
    assert!(f.title.starts_with("Partition 11 (source subtask 3) has read only heartbeats (2), and the filter drops them"), "{}", f.title);
    assert!(f.evidence.iter().all(|e| e.text != "0 records read"), "{:?}", f.evidence);
    assert_eq!(f.number("filtered"), Some(2.0));
    let ex = d.explanation.as_ref().unwrap();
    assert!(!ex.text.contains("never received") && ex.text.contains("partition 11 has read only heartbeats (2)"), "{}", ex.text);
}

/// Seed 001: partition 11's producer silenced at 01:35; at 03:40 the heartbeat due at 03:00
/// never came. It said "Partition 11 gets only heartbeats (one every 90 min)": silent longer
/// than its own period, its heartbeats stopped, and it is called silent.
#[test]
fn a_heartbeat_partition_silent_past_its_period_is_silent() {
    use wmp::engine::command::Command;
    use wmp::engine::diagnosis::classify::PartitionClass;
    use wmp::engine::diagnosis::finding::FindingKind;
    let s = seed_001_with(vec![(95 * 60_000, Command::Silence { partition: 11 })], 220 * 60_000);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    assert_eq!(d.partitions[11].class, PartitionClass::Idle, "{:?}", d.partitions[11]);
    assert!(d.finding(FindingKind::HeartbeatPartition).is_none(), "{}", d.headline);
    let f = d.finding(FindingKind::IdlePartition).expect("the finding");
    assert_eq!(f.partition, Some(11));
    assert!(
        f.title.starts_with("Partition 11 got only heartbeats, one every 90 min, but has had none for 2.2 h (they stopped)"),
        "{}",
        f.title
    );
    assert!(f.title.ends_with("and holds the watermark: no idle timeout lets it go."), "{}", f.title);
    // Before the heartbeat due at 03:00 (and a little slack) it is still a heartbeat partition.
    let s = seed_001_with(vec![(95 * 60_000, Command::Silence { partition: 11 })], 180 * 60_000 - 1);
    assert_eq!(s.sim().diagnose(&DiagnosisOptions::default()).partitions[11].class, PartitionClass::Heartbeat);
}

/// A cause of the whole job (no watermark strategy; an interval of 0) is pinned on no
/// partition: every channel and partition is at No Watermark alike, so the culprit, the
/// explanation's holder and the snapshot's minimum marks name none.
#[test]
fn a_job_wide_cause_is_pinned_on_no_partition() {
    use wmp::engine::command::{Command, Param};
    use wmp::engine::source::generator::GeneratorKind;
    let mut s = Session::from_json(include_str!("../presets/bound_too_large.json")).unwrap();
    s.apply(Command::SetParam { param: Param::Generator(GeneratorKind::NoWatermarks) }).unwrap();
    run_to(&mut s, 60_000);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    assert_eq!(d.cause.map(kind_name).as_deref(), Some("no_watermark_strategy"), "{}", d.headline);
    assert_eq!(d.culprit, None);
    let ex = d.explanation.as_ref().unwrap();
    assert!(ex.held_by.is_none() && !ex.text.contains("because of channel"), "{}", ex.text);
    assert!(ex.tied.is_some(), "{}", ex.text);
    assert!(d.findings.iter().all(|f| !f.holds_watermark), "{:?}", d.findings);
    assert!(s.sim().snapshot().operators.iter().flat_map(|o| &o.channels).all(|c| !c.is_min));

    let mut sc: Value = serde_json::from_str(include_str!("../presets/empty_partition.json")).unwrap();
    sc["source"]["watermark"]["auto_watermark_interval_ms"] = 0.into();
    let mut s = Session::from_json(&sc.to_string()).unwrap();
    run_to(&mut s, 60_000);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    assert_eq!(d.cause.map(kind_name).as_deref(), Some("periodic_emission_disabled"), "{}", d.headline);
    assert_eq!(d.culprit, None);
    let ex = d.explanation.as_ref().unwrap();
    assert!(ex.text.starts_with("Window subtask 0's watermark is No Watermark, as are all 2 of its input channels and all 4 partitions behind them, so no one of them holds it (the cause is job-wide): the auto-watermark interval"), "{}", ex.text);
}

/// A timeout below the interval (50 ms, interval 200 ms): Flink's idleness timer starts its
/// countdown at the first periodic check without a record and declares idle at a check more
/// than the timeout later, the next one (reference §1.6). It said "goes idle whenever one
/// interval passes without a record … normal traffic flips", while partition 0, a record every
/// 50 ms, stays active.
#[test]
fn a_timeout_below_the_interval_idles_a_split_after_two_quiet_checks() {
    use wmp::engine::diagnosis::finding::FindingKind;
    let mut sc: Value = serde_json::from_str(include_str!("../presets/heartbeat_idle_timeout.json")).unwrap();
    sc["source"]["watermark"]["idle_timeout_ms"] = 50.into();
    let mut s = Session::from_json(&sc.to_string()).unwrap();
    run_to(&mut s, 120_000);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    let f = d.finding(FindingKind::IdleTimeoutBelowInterval).expect("the finding");
    assert!(!f.title.contains("whenever one interval passes"), "{}", f.title);
    assert!(
        f.title.contains("goes idle at the second check in a row without a record, after a gap of more than 400 ms (always past 600 ms)"),
        "{}",
        f.title
    );
    assert!(!f.detail.contains("normal traffic flips"), "{}", f.detail);
    assert_eq!(d.partitions[0].idle_flips, 0, "partition 0's normal traffic stays active: {:?}", d.partitions[0]);
    assert!(d.partitions[1].idle_flips > 0, "partition 1, a heartbeat every 30 s, goes idle between them");
}
