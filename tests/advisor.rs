//! The advisor's package against the presets: it is a fixed point once applied, late records a
//! raised bound takes in need no lateness on top (also with watermarks in flight), a backfill
//! keeps its bound, and SQL's watermark operator is judged on its own rows.

use serde_json::Value;
use wmp::engine::diagnosis::DiagnosisOptions;
use wmp::engine::session::action::Action;
use wmp::engine::session::Session;

fn run_to(s: &mut Session, at_ms: i64) {
    s.run_until(at_ms, &mut ()).unwrap();
}

/// Late records that the advised bound keeps on time need no allowed lateness on top: the
/// package is the bound alone (it offered bound 15 s *and* lateness 15 s with an upsert sink,
/// for the same records), the late finding still offers lateness as its own fix, and once the
/// bound is applied the advice stays what it is.
#[test]
fn late_records_the_advised_bound_covers_need_no_lateness_in_the_package() {
    use wmp::engine::diagnosis::finding::FindingKind;
    let mut s = Session::from_json(include_str!("../presets/late_data.json")).unwrap();
    run_to(&mut s, 60_000);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    assert!(d.advice.actions.contains(&Action::Bound(15_000)), "{:?}", d.advice.actions);
    assert!(!d.advice.actions.iter().any(|a| matches!(a, Action::AllowedLateness(_) | Action::Sink(_))), "{:?}", d.advice.actions);
    assert_eq!(d.advice.allowed_lateness.recommended_ms, Some(0));
    let late = d.findings.iter().find(|f| f.kind == FindingKind::LateRecordsDropped).expect("the late finding");
    assert!(late.fixes.iter().any(|f| f.action == Action::AllowedLateness(15_000)), "{:?}", late.fixes);
    s.apply_action(Action::Bound(15_000)).unwrap();
    run_to(&mut s, 70_000);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    assert!(!d.advice.actions.iter().any(|a| matches!(a, Action::Bound(_) | Action::AllowedLateness(_))), "{:?}", d.advice.actions);
    // Nor does the late finding offer lateness for records the bound now takes in.
    let offered = d.fixes().into_iter().map(|f| f.action).collect::<Vec<_>>();
    assert!(!offered.iter().any(|a| matches!(a, Action::AllowedLateness(_))), "{offered:?}");
}

/// The same with watermarks in flight: with 3 s of exchange latency the sources' watermarks of the old
/// bound still reach the windows after the raise, and records late behind them are measured
/// with the old bound (measured with the new one, the package asked for lateness again).
#[test]
fn a_raised_bound_is_measured_against_the_watermarks_still_in_flight() {
    let mut sc: Value = serde_json::from_str(include_str!("../presets/late_data.json")).unwrap();
    sc["exchange"] = serde_json::json!({"type": "hash", "latency_ms": 3000});
    let Ok(mut s) = Session::from_json(&sc.to_string()) else { panic!("the preset with channel latency: {sc}") };
    run_to(&mut s, 60_000);
    s.apply_action(Action::Bound(15_000)).unwrap();
    run_to(&mut s, 80_000);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    assert!(!d.advice.actions.iter().any(|a| matches!(a, Action::Bound(_) | Action::AllowedLateness(_))), "{:?}", d.advice.actions);
}

/// A backfill reads history in order: the advisor does not lower the bound to that order
/// (30 s → 0 in a replay would drop live records later), and the slow reader's advice knows
/// alignment is on (it read as if it were off).
#[test]
fn a_backfill_keeps_its_bound_and_its_slow_reader_knows_alignment_is_on() {
    use wmp::engine::diagnosis::finding::FindingKind;
    let mut s = Session::from_json(include_str!("../presets/backfill_aligned.json")).unwrap();
    run_to(&mut s, 900_000);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    assert_eq!(d.advice.bound.recommended_ms, Some(30_000), "{}", d.advice.bound.basis);
    assert!(!d.advice.actions.iter().any(|a| matches!(a, Action::Bound(_))), "{:?}", d.advice.actions);
    let slow = d.findings.iter().find(|f| f.kind == FindingKind::SlowPartition).expect("the slow reader");
    assert!(slow.detail.contains("Watermark alignment is on"), "{}", slow.detail);
}

/// A backfill has no silent partition: the idle timeout the advisor still proposes (every Kafka
/// source may want one) says that it changes nothing now, beside a WHY panel whose fix is
/// alignment; a preset with a silent partition does not say so.
#[test]
fn an_idle_timeout_advised_with_no_silent_partition_says_it_changes_nothing_now() {
    let basis = |json: &str, at_ms| {
        let mut s = Session::from_json(json).unwrap();
        run_to(&mut s, at_ms);
        s.sim().diagnose(&DiagnosisOptions::default()).advice.idle_timeout.basis
    };
    let backfill = basis(include_str!("../presets/backfill_taskmanager_lost.json"), 60_000);
    assert!(backfill.contains("no partition is silent now"), "{backfill}");
    let heartbeat = basis(include_str!("../presets/heartbeat_idle_timeout.json"), 60_000);
    assert!(!heartbeat.contains("no partition is silent"), "{heartbeat}");
}

/// The same after the backfill has caught up: the records now arrive fresh and in order, but
/// the disorder measured is still mostly history's, so the bound stays (it advised 30 s → 0).
#[test]
fn a_backfill_that_caught_up_keeps_its_bound() {
    let mut sc: Value = serde_json::from_str(include_str!("../presets/backfill_aligned.json")).unwrap();
    sc["producers"][0]["count"] = 3_000.into();
    sc["producers"][1]["count"] = 750.into();
    let Ok(mut s) = Session::from_json(&sc.to_string()) else { panic!("the preset with a short backlog: {sc}") };
    run_to(&mut s, 600_000);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    let delays: Vec<_> = d.partitions.iter().map(|p| p.data_delay_ms).collect();
    assert!(delays.iter().all(|&a| a.is_some_and(|a| a < 60_000)), "caught up: {delays:?}");
    assert_eq!(d.advice.bound.recommended_ms, Some(30_000), "{}", d.advice.bound.basis);
    assert!(d.advice.bound.basis.contains("arrived up to"), "{}", d.advice.bound.basis);
}

/// SQL's watermark operator: the advisor's table judges the operator's timeout, not the
/// sources', and has no row for the rows' gaps (the advice ignores them on purpose): once its
/// 5 s is applied, "now" and "advised" agree on every row (they disagreed on three).
#[test]
fn the_sql_operators_idle_timeout_is_judged_on_its_own_rows() {
    let mut s = Session::from_json(include_str!("../presets/sql_idle_reactivates.json")).unwrap();
    run_to(&mut s, 60_000);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    assert_eq!(d.advice.idle_timeout.recommended_ms, Some(5_000));
    assert!(!d.advice.constraints.iter().any(|c| c.text.contains("gaps")), "{:?}", d.advice.constraints);
    s.apply_action(Action::IdleTimeout(Some(5_000))).unwrap();
    // `table.exec.source.idle-timeout` reaches the operator, not the source before it, which has
    // no strategy to idle (its splits showed IDLE, and the export refused the job).
    assert_eq!(s.sim().config().inputs[0].source.idle_timeout_ms, None);
    run_to(&mut s, 70_000);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    assert!(d.advice.constraints.iter().all(|c| c.current_ok == c.recommended_ok), "{:?}", d.advice.constraints);
    assert!(!d.advice.actions.iter().any(|a| matches!(a, Action::IdleTimeout(_))), "{:?}", d.advice.actions);
    // Its sparse partition's finding does not say an idle timeout cannot help: here it does.
    let mut s = Session::from_json(include_str!("../presets/sql_idle_reactivates.json")).unwrap();
    run_to(&mut s, 240_000);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    assert!(d.findings.iter().any(|f| f.kind == wmp::engine::diagnosis::finding::FindingKind::SlowPartition), "the premise");
    assert!(
        d.findings.iter().all(|f| !f.title.contains("does not fix it")),
        "{:?}",
        d.findings.iter().map(|f| &f.title).collect::<Vec<_>>()
    );
}

/// SQL's operator with the interval at 0: it emits every increase at once and checks idleness
/// on a timer of its own (reference §10.1), so no finding says periodic emission or idleness
/// is off, there is no interval row, and a 4.5 s timeout (a row holds the job up to 9 s, within
/// the 10 s tolerated) is kept.
#[test]
fn sql_operator_with_the_interval_at_zero_is_not_a_periodic_strategy() {
    use wmp::engine::diagnosis::finding::FindingKind;
    let mut sc: Value = serde_json::from_str(include_str!("../presets/sql_idle_reactivates.json")).unwrap();
    sc["source"]["watermark"]["auto_watermark_interval_ms"] = 0.into();
    sc["source"]["midstream"]["idle_timeout_ms"] = 4_500.into();
    let Ok(mut s) = Session::from_json(&sc.to_string()) else { panic!("the preset with interval 0: {sc}") };
    run_to(&mut s, 60_000);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    let kinds: Vec<_> = d.findings.iter().map(|f| f.kind).collect();
    for k in [FindingKind::PeriodicEmissionDisabled, FindingKind::IdlenessNeverDetected, FindingKind::IdleTimeoutBelowInterval] {
        assert!(!kinds.contains(&k), "{k:?} in {kinds:?}");
    }
    assert_eq!(d.advice.idle_timeout.recommended_ms, Some(4_500), "{}", d.advice.idle_timeout.basis);
    assert!(d.advice.idle_timeout.cost.contains("up to 9.0 s"), "{}", d.advice.idle_timeout.cost);
    assert!(!d.advice.constraints.iter().any(|c| c.text.contains("interval")), "{:?}", d.advice.constraints);
    assert!(d.advice.constraints.iter().all(|c| c.current_ok == c.recommended_ok), "{:?}", d.advice.constraints);
}
