//! The advisor's package against the presets: it is a fixed point once applied, late records a
//! raised bound takes in need no lateness on top (also with watermarks in flight), a backfill
//! keeps its bound, and SQL's watermark operator is judged on its own rows. It agrees with the
//! WHY panel: it promises nothing idleness cannot do, counts a source subtask without a split as
//! silent, names a Long.MAX_VALUE generator, says why its lateness differs from the late finding's
//! and why it keeps a timeout above the rule of thumb, and applies only what acts now.

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

fn diagnosed(json: &str, at_ms: i64) -> wmp::engine::diagnosis::Diagnosis {
    let mut s = Session::from_json(json).unwrap();
    run_to(&mut s, at_ms);
    s.sim().diagnose(&DiagnosisOptions::default())
}

/// Where idleness cannot release windows the advisor does not promise it does: while a
/// back-pressured subtask's idleness clock stands still (it read "holds windows up to 5.2 s"
/// beside a WHY panel saying the opposite); that change is not applied. After an
/// assignTimestampsAndWatermarks the timeout is the operator's (the source's is swallowed), and
/// setting one gives the operator it too: "5 s (keep)" read the swallowed one (a review).
#[test]
fn an_idle_timeout_that_cannot_release_windows_promises_no_hold() {
    let d = diagnosed(include_str!("../presets/midstream_assigner.json"), 75_000);
    let midstream = &d.advice.idle_timeout;
    assert_eq!(midstream.current_ms, None, "the operator's, not the source's 5 s: {midstream:?}");
    assert!(midstream.recommended_ms.is_some() && midstream.cost.contains("holds windows up to"), "{midstream:?}");
    assert!(midstream.not_applied.as_deref().is_some_and(|w| w.contains("operator after the source")), "{midstream:?}");
    assert!(!d.advice.actions.iter().any(|a| matches!(a, Action::IdleTimeout(_))), "{:?}", d.advice.actions);
    let pressed = diagnosed(include_str!("../presets/backpressure_never_idle.json"), 90_000).advice.idle_timeout;
    assert!(!pressed.cost.contains("holds windows up to"), "{}", pressed.cost);
    assert!(pressed.cost.contains("partition 3") && pressed.cost.contains("back-pressured"), "{}", pressed.cost);
    let heartbeat = diagnosed(include_str!("../presets/heartbeat_idle_timeout.json"), 60_000).advice.idle_timeout;
    assert!(heartbeat.cost.contains("holds windows up to"), "{}", heartbeat.cost);
}

/// The hold a timeout costs: idleness is checked only at each watermark interval, and the
/// countdown starts at the first quiet check after the one that saw the last record (reference
/// §1.6), so a partition is excluded up to three intervals after the timeout (a record at 201 ms
/// with 5 s and 200 ms goes idle at 5,800 ms); it read "timeout + interval".
#[test]
fn the_hold_an_idle_timeout_costs_counts_three_intervals() {
    let a = diagnosed(include_str!("../presets/heartbeat_idle_timeout.json"), 60_000).advice.idle_timeout;
    let t = a.recommended_ms.expect("a timeout is advised");
    let hold = wmp::engine::time::format_duration(t + 3 * 200);
    assert!(a.cost.contains(&format!("holds windows up to {hold} (the timeout plus up to three")), "{}", a.cost);
}

/// A source subtask that owns no split holds the watermark as a silent partition does, and an
/// idle timeout is its fix (the finding offers it): the advice does not say it "changes nothing",
/// and applies it.
#[test]
fn a_source_subtask_without_a_split_counts_as_a_silent_partition() {
    let d = diagnosed(include_str!("../presets/more_subtasks_than_partitions.json"), 30_000);
    let idle = &d.advice.idle_timeout;
    assert!(!idle.basis.contains("no partition is silent"), "{}", idle.basis);
    assert!(idle.basis.contains("source subtasks 1 and 2 own no partition"), "{}", idle.basis);
    assert_eq!(idle.not_applied, None);
    assert!(d.advice.actions.iter().any(|a| matches!(a, Action::IdleTimeout(Some(_)))), "{:?}", d.advice.actions);
}

/// The subtasks the advice names are those the graph shows without a split, numbered as the
/// views number them, also above the highest one that owns a partition (a rule read from the
/// partitions missed those); with the legacy connector they are idle at once and none is named.
#[test]
fn the_subtasks_without_a_split_are_the_ones_the_snapshot_shows() {
    for parallelism in [3, 5, 6] {
        let mut sc: serde_json::Value = serde_json::from_str(include_str!("../presets/more_subtasks_than_partitions.json")).unwrap();
        sc["source"]["parallelism"] = parallelism.into();
        let mut s = Session::from_json(&sc.to_string()).unwrap();
        run_to(&mut s, 30_000);
        let bare: Vec<String> =
            s.sim().snapshot().sources.iter().filter(|v| v.partitions.is_empty()).map(|v| v.subtask.to_string()).collect();
        assert_eq!(bare.len(), parallelism - 2);
        let basis = s.sim().diagnose(&DiagnosisOptions::default()).advice.idle_timeout.basis;
        let named = match bare.split_last() {
            Some((last, [])) => format!("source subtask {last} owns no partition"),
            Some((last, first)) => format!("source subtasks {} and {last} own no partition", first.join(", ")),
            None => unreachable!(),
        };
        assert!(basis.contains(&named), "parallelism {parallelism}: {basis}");
        sc["flink"] = serde_json::json!({"kafka_connector": "legacy"});
        let mut s = Session::from_json(&sc.to_string()).unwrap();
        run_to(&mut s, 30_000);
        let basis = s.sim().diagnose(&DiagnosisOptions::default()).advice.idle_timeout.basis;
        assert!(!basis.contains("own no partition") && !basis.contains("owns no partition"), "legacy, parallelism {parallelism}: {basis}");
    }
}

/// Where the package's idle timeout differs from the WHY panel's fix (the timeout at the set
/// bound), the row says why: two walks read 5 s beside a fix of 15 s as two answers.
#[test]
fn the_idle_timeout_row_says_why_it_differs_from_the_fix() {
    let mut differed = 0;
    for (json, at_ms) in
        [(include_str!("../presets/seed_001_heartbeat.json"), 100 * 60_000), (include_str!("../presets/empty_partition.json"), 30_000)]
    {
        let a = diagnosed(json, at_ms).advice;
        let (Some(alone), Some(rec)) = (a.idle_timeout_alone_ms, a.idle_timeout.recommended_ms) else { continue };
        if alone != rec {
            differed += 1;
            let said = format!("{}, which is what the WHY panel's fix offers alone", wmp::engine::time::format_duration(alone));
            assert!(a.idle_timeout.basis.contains(&said), "{}", a.idle_timeout.basis);
        } else {
            assert!(!a.idle_timeout.basis.contains("the WHY panel's fix"), "{}", a.idle_timeout.basis);
        }
    }
    assert!(differed > 0, "no case where they differ: the test says nothing");
}

/// A source subtask without a split that ended its input has sent Long.MAX_VALUE and holds
/// nothing: neither the advice nor the finding counts it (it read "holds every window subtask
/// at No Watermark" after the job's end of input), nor one subtask ended alone.
#[test]
fn a_finished_subtask_without_a_split_is_not_waiting() {
    use wmp::engine::command::Command;
    use wmp::engine::diagnosis::finding::FindingKind;
    let started = || {
        let mut s = Session::from_json(include_str!("../presets/more_subtasks_than_partitions.json")).unwrap();
        run_to(&mut s, 30_000);
        s
    };
    let mut s = started();
    s.apply(Command::EndOfInput).unwrap();
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    assert!(!d.advice.idle_timeout.basis.contains("own no partition"), "{}", d.advice.idle_timeout.basis);
    assert!(d.finding(FindingKind::SubtaskWithoutSplit).is_none(), "{:?}", d.findings.iter().map(|f| &f.title).collect::<Vec<_>>());
    let s = started();
    let bare: Vec<u32> = s.sim().subtasks_waiting_without_split().map(|x| x.index).collect();
    assert_eq!(bare, [1, 2]);
    let mut one = wmp::engine::sim::Simulation::clone(s.sim());
    one.end_input_of(1).unwrap();
    assert_eq!(one.subtasks_waiting_without_split().map(|x| x.index).collect::<Vec<_>>(), [2]);
}

/// After the Long.MAX_VALUE generator fired, the timestamps are fine: the advisor names the
/// generator (it read "fix the timestamps first"), and still applies nothing.
#[test]
fn after_the_max_generator_fired_the_advisor_names_the_generator() {
    for at_ms in [150_000, 300_000] {
        let d = diagnosed(include_str!("../presets/max_on_silence.json"), at_ms);
        for r in [&d.advice.bound, &d.advice.idle_timeout, &d.advice.allowed_lateness] {
            assert!(!r.basis.contains("timestamps first"), "{}", r.basis);
            assert!(r.basis.contains("generator") && r.basis.contains("Long.MAX_VALUE"), "{}", r.basis);
        }
        assert!(d.advice.actions.is_empty(), "{:?}", d.advice.actions);
    }
}

/// The late finding offers lateness at the set bound, the package none on top of its raised
/// bound: the lateness row says so, with the finding's value (it read "0 (keep)" beside "Allowed
/// lateness 15.0 s", and "10 s (keep)" once 10 s was set).
#[test]
fn the_lateness_row_says_why_it_differs_from_the_late_findings_fix() {
    use wmp::engine::diagnosis::finding::FindingKind;
    let mut s = Session::from_json(include_str!("../presets/late_data.json")).unwrap();
    for (at_ms, set) in [(60_000, 0), (90_000, 10_000)] {
        if set > 0 {
            s.apply_action(Action::AllowedLateness(set)).unwrap();
        }
        run_to(&mut s, at_ms);
        let d = s.sim().diagnose(&DiagnosisOptions::default());
        let late = d.findings.iter().find(|f| f.kind == FindingKind::LateRecordsDropped).expect("the late finding");
        let offered = late.fixes.iter().find_map(|f| match f.action {
            Action::AllowedLateness(l) => Some(l),
            _ => None,
        });
        assert_eq!(offered, d.advice.allowed_lateness_alone_ms, "one rule");
        let row = &d.advice.allowed_lateness;
        assert_eq!(row.recommended_ms, Some(set), "{}", row.basis);
        assert!(row.basis.contains("with the bound as it is (2.0 s) they need 15.0 s"), "{}", row.basis);
        assert!(row.basis.contains("late-records finding"), "{}", row.basis);
    }
}

/// "Apply advice" applies what acts now and meets the constraints: not late-data's 45 s idle
/// timeout nor a backfill's 2 min (no partition is silent, so they change nothing), nor a
/// timeout above the delay the user tolerates. The rows still show them, saying why not. With
/// nothing silent that is the reason given first, whatever the constraints: late data's row said
/// "no value meets every constraint", and named a WHY-panel fix that was not there.
#[test]
fn advice_that_changes_nothing_now_or_meets_no_constraint_is_not_applied() {
    let nothing_silent = "it changes nothing now: no partition is silent";
    let tight = DiagnosisOptions { tolerated_delay_ms: Some(1_000), ..DiagnosisOptions::default() };
    let cases = [
        (include_str!("../presets/late_data.json"), 60_000, DiagnosisOptions::default(), nothing_silent),
        (include_str!("../presets/backfill_aligned.json"), 300_000, DiagnosisOptions::default(), nothing_silent),
        (include_str!("../presets/backfill_taskmanager_lost.json"), 60_000, DiagnosisOptions::default(), nothing_silent),
        (include_str!("../presets/empty_partition.json"), 30_000, tight, "no value meets every constraint"),
    ];
    for (json, at_ms, options, why) in cases {
        let mut s = Session::from_json(json).unwrap();
        run_to(&mut s, at_ms);
        let d = s.sim().diagnose(&options);
        let idle = &d.advice.idle_timeout;
        assert!(idle.recommended_ms.is_some_and(|t| idle.current_ms != Some(t)), "a change is shown: {idle:?}");
        assert!(idle.not_applied.as_deref().is_some_and(|n| n.contains(why)), "{:?}", idle.not_applied);
        assert!(!d.advice.actions.iter().any(|a| matches!(a, Action::IdleTimeout(_))), "{:?}", d.advice.actions);
        if why == nothing_silent {
            assert!(!idle.basis.contains("WHY panel's fix"), "no finding offers an idle timeout: {}", idle.basis);
        }
    }
    // Within the tolerated delay (two minutes), a backfill's is left out for changing nothing now.
    let mut s = Session::from_json(include_str!("../presets/backfill_taskmanager_lost.json")).unwrap();
    run_to(&mut s, 60_000);
    let d = s.sim().diagnose(&DiagnosisOptions { tolerated_delay_ms: Some(120_000), ..DiagnosisOptions::default() });
    let idle = &d.advice.idle_timeout;
    assert!(idle.not_applied.as_deref().is_some_and(|n| n.contains("changes nothing now")), "{idle:?}");
    assert!(!d.advice.actions.iter().any(|a| matches!(a, Action::IdleTimeout(_))), "{:?}", d.advice.actions);
}

/// A kept idle timeout that fails the rule of thumb says why it keeps it (after the preset's
/// "withIdleness(5 s)" it read "5 s (keep)" beside "≤ a third of the window (3.3 s) ✗").
#[test]
fn a_kept_idle_timeout_above_the_rule_of_thumb_says_why() {
    let mut s = Session::from_json(include_str!("../presets/empty_partition.json")).unwrap();
    run_to(&mut s, 15_000);
    s.apply_action(Action::IdleTimeout(Some(5_000))).unwrap();
    run_to(&mut s, 30_000);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    let idle = &d.advice.idle_timeout;
    assert_eq!((idle.current_ms, idle.recommended_ms), (Some(5_000), Some(5_000)));
    let thumb = d.advice.constraints.iter().find(|c| c.text.starts_with("rule of thumb")).expect("the row");
    assert!(!thumb.recommended_ok, "the premise: {thumb:?}");
    assert!(idle.basis.contains("kept although above the rule of thumb"), "{}", idle.basis);
}
