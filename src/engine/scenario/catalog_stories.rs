//! Every preset's story, played: what its card says happens does happen, and its steps do
//! what their labels say.

use super::*;
use crate::engine::command::{Command, Param};
use crate::engine::sim::Simulation;
use crate::engine::time::{EventTime, ProcTime, END_OF_TIME, NO_WATERMARK};

fn sim(id: &str) -> Simulation {
    super::super::build::parse(preset(id).unwrap().json).unwrap().build().unwrap()
}
fn at(s: &Simulation, secs: i64) -> ProcTime {
    s.config().start_time + secs * 1000
}
fn fired(s: &Simulation) -> usize {
    s.downstream().sink.total()
}
fn dropped(s: &Simulation) -> u64 {
    s.metrics().window.iter().map(|w| w.num_late_records_dropped).sum()
}
fn side(s: &Simulation) -> u64 {
    s.metrics().window.iter().map(|w| w.num_late_records_side_output).sum()
}
fn culprit_partition(s: &Simulation) -> Option<u32> {
    s.explain(0).and_then(|e| e.held_by).and_then(|c| c.partition)
}

#[test]
fn every_preset_parses_and_builds() {
    assert_eq!(presets().len(), 18);
    for p in presets() {
        let sc = super::super::build::parse(p.json).unwrap_or_else(|e| panic!("{}: {e}", p.id));
        sc.build().unwrap_or_else(|e| panic!("{}: {e}", p.id));
        assert!(preset(p.id).is_some());
    }
}

/// The page must read the same without CJK fonts installed: citations of the Chinese seed
/// quote it in English.
#[test]
fn preset_texts_are_in_latin_script() {
    for p in presets() {
        for text in [p.title, p.summary, p.look_at, p.try_this, p.source] {
            assert!(text.chars().all(|c| !('\u{2e80}'..='\u{9fff}').contains(&c)), "{}: {text}", p.id);
        }
    }
}

#[test]
fn seed_001_stalls_bursts_and_the_fixes_behave() {
    let mut s = sim("seed-001-heartbeat");
    s.run_until(at(&s, 80 * 60)).unwrap();
    assert_eq!(fired(&s), 0, "stalls for 90 minutes");
    assert_eq!(culprit_partition(&s), Some(11));
    s.run_until(at(&s, 91 * 60)).unwrap();
    assert!(fired(&s) > 1000, "burst at the second heartbeat");
    // The fix: the advised idle timeout, 5 s.
    let mut f = sim("seed-001-heartbeat");
    f.run_until(at(&f, 60)).unwrap();
    f.apply(Command::SetParam { param: Param::IdleTimeoutMs(Some(5_000)) }).unwrap();
    f.run_until(at(&f, 10 * 60)).unwrap();
    assert!(fired(&f) > 1000);
    // Retire the heartbeat with idleness off: nothing ever fires.
    let mut r = sim("seed-001-heartbeat");
    r.run_until(at(&r, 60)).unwrap();
    r.apply(Command::DetachProducers { partition: 11 }).unwrap();
    r.run_until(at(&r, 3 * 3600)).unwrap();
    assert_eq!(fired(&r), 0);
}

#[test]
fn empty_partition_holds_until_idleness_then_wakes_up_late() {
    let mut s = sim("empty-partition");
    s.run_until(at(&s, 60)).unwrap();
    assert_eq!(fired(&s), 0);
    assert_eq!(culprit_partition(&s), Some(3));
    assert_eq!(s.snapshot().operators[0].input_watermark, NO_WATERMARK);
    s.apply(Command::SetParam { param: Param::IdleTimeoutMs(Some(5_000)) }).unwrap();
    s.run_until(at(&s, 100)).unwrap();
    assert!(fired(&s) > 0);
    let producer =
        crate::engine::error::read(r#"{"partitions": 3, "kind": "steady", "rate_per_s": 5, "event_delay_ms": 40000, "keys": ["store-9"]}"#)
            .unwrap();
    s.apply(Command::AttachProducer { producer }).unwrap();
    s.run_until(at(&s, 160)).unwrap();
    assert!(dropped(&s) > 0, "the woken partition's old records are late");
}

#[test]
fn more_subtasks_than_partitions_holds_no_watermark() {
    let mut s = sim("more-subtasks-than-partitions");
    s.run_until(at(&s, 30)).unwrap();
    assert_eq!(fired(&s), 0);
    assert!(s.snapshot().operators.iter().all(|o| o.input_watermark == NO_WATERMARK));
    let ex = s.explain(0).unwrap();
    assert!(ex.text.contains("owns no partition"), "{}", ex.text);
    s.apply(Command::SetParam { param: Param::IdleTimeoutMs(Some(5_000)) }).unwrap();
    s.run_until(at(&s, 45)).unwrap();
    assert!(fired(&s) > 0);
}

#[test]
fn far_future_outlier_makes_everything_late_unless_clamped() {
    let mut s = sim("far-future-outlier");
    s.run_until(at(&s, 29)).unwrap();
    let before = fired(&s);
    assert!(before > 0);
    s.run_until(at(&s, 60)).unwrap();
    assert!(side(&s) > 100, "records after the outlier are late");
    let after = fired(&s);
    s.run_until(at(&s, 90)).unwrap();
    assert_eq!(fired(&s), after, "nothing fires after the outlier's burst");
    let mut sc = super::super::build::parse(preset("far-future-outlier").unwrap().json).unwrap();
    sc.source.transform.max_future_skew_ms = Some(0);
    let mut c = sc.build().unwrap();
    c.run_until(at(&c, 90)).unwrap();
    assert_eq!(side(&c) + dropped(&c), 0);
}

#[test]
fn timestamp_units_put_the_watermark_in_1970() {
    let mut s = sim("timestamp-units");
    s.run_until(at(&s, 120)).unwrap();
    assert_eq!(fired(&s), 0);
    let wm = s.snapshot().operators[0].input_watermark;
    assert!(wm > EventTime(0) && wm < EventTime(365 * 86_400_000), "{wm}");
    let ex = s.explain(0).unwrap();
    assert!(ex.text.contains("seconds read as milliseconds"), "{}", ex.text);
}

#[test]
fn bound_too_large_delays_every_result_by_the_bound() {
    let mut s = sim("bound-too-large");
    s.run_until(at(&s, 120)).unwrap();
    let sink: Vec<_> = s.downstream().sink.results().collect();
    assert!(!sink.is_empty());
    assert!(sink.iter().all(|r| r.time.ms() - r.end.ms() >= 59_000), "results arrive a minute late");
    s.apply(Command::SetParam { param: Param::BoundMs(1000) }).unwrap();
    s.run_until(at(&s, 200)).unwrap();
    let last = s.downstream().sink.last().unwrap();
    assert!(last.time.ms() - last.end.ms() < 3_000);
    assert_eq!(dropped(&s), 0);
}

#[test]
fn late_data_is_dropped_then_refired_then_side_output() {
    let mut s = sim("late-data");
    s.run_until(at(&s, 60)).unwrap();
    assert!(dropped(&s) > 100);
    assert!(s.downstream().sink.results().all(|r| r.firing == 0));
    s.apply(Command::SetParam { param: Param::AllowedLatenessMs(10_000) }).unwrap();
    s.apply(Command::SetParam { param: Param::LateSideOutput(true) }).unwrap();
    let dropped_before = dropped(&s);
    s.run_until(at(&s, 120)).unwrap();
    assert!(s.downstream().sink.duplicates() > 0, "late re-firings");
    assert!(side(&s) > 0, "what is still too late goes to the side output");
    assert_eq!(dropped(&s), dropped_before, "nothing more is dropped");
}

#[test]
fn heartbeat_defeats_idle_timeout_until_filtered() {
    let mut s = sim("heartbeat-idle-timeout");
    // Between two heartbeats (every 30 s) the heartbeat split holds the watermark.
    s.run_until(at(&s, 115)).unwrap();
    let ex = s.explain(0).unwrap();
    assert_eq!(ex.held_by.as_ref().and_then(|c| c.partition), Some(1), "{}", ex.text);
    let kept_active = |e: &crate::engine::explain::Explanation| {
        e.reasons.iter().any(|r| matches!(r, crate::engine::explain::Reason::KeptActiveBySparseRecords { partition: 1, .. }))
    };
    assert!(kept_active(&ex), "the heartbeat split is named: {}", ex.text);
    assert!(ex.text.contains("gets only heartbeats, one every 30.0 s"), "{}", ex.text);
    s.run_until(at(&s, 120)).unwrap();
    assert!(s.snapshot().splits.iter().all(|sp| !sp.idle));
    assert!(s.downstream().sink.results().any(|r| r.time.ms() - r.end.ms() > 15_000), "bursts up to 30 s late");
    s.apply(Command::SetParam { param: Param::DropHeartbeats(true) }).unwrap();
    s.run_until(at(&s, 200)).unwrap();
    assert!(s.snapshot().splits[1].idle);
    let last = s.downstream().sink.last().unwrap();
    assert!(last.time.ms() - last.end.ms() < 5_000);
}

#[test]
fn max_on_silence_closes_windows_and_drops_later_data() {
    let mut s = sim("max-on-silence");
    s.run_until(at(&s, 200)).unwrap();
    assert_eq!(s.snapshot().operators[0].input_watermark, END_OF_TIME);
    let n = fired(&s);
    s.run_until(at(&s, 360)).unwrap();
    assert_eq!(fired(&s), n, "nothing fires after MAX");
    assert!(dropped(&s) > 1000);
}

#[test]
fn the_quiet_side_holds_the_join_until_idleness() {
    let mut s = sim("quiet-side-join");
    s.run_until(at(&s, 60)).unwrap();
    assert_eq!(fired(&s), 0, "join never emits");
    let op = &s.snapshot().operators[0];
    assert_eq!(op.inputs.len(), 2);
    assert!(op.inputs[1].is_min && op.inputs[1].watermark == NO_WATERMARK, "{:?}", op.inputs);
    let ex = s.explain(0).unwrap();
    assert!(ex.text.contains("second input (rates) holds it"), "{}", ex.text);
    s.apply(Command::SetParam { param: Param::IdleTimeoutMs(Some(5_000)) }).unwrap();
    s.run_until(at(&s, 90)).unwrap();
    assert!(fired(&s) > 0);
    assert!(s.snapshot().operators[0].inputs[1].idle);
}

#[test]
fn a_union_waits_for_the_stopped_stream_until_idleness() {
    let mut s = sim("union-idle-stream");
    s.run_until(at(&s, 90)).unwrap();
    let n = fired(&s);
    assert!(n > 0, "windows before the stop fire");
    assert!(s.snapshot().operators[0].input_watermark < EventTime::from_proc(at(&s, 31)));
    assert_eq!(s.snapshot().operators[0].channels.len(), 2, "one valve over both sources' channels");
    s.apply(Command::SetParam { param: Param::IdleTimeoutMs(Some(2_000)) }).unwrap();
    s.run_until(at(&s, 100)).unwrap();
    assert!(fired(&s) > n + 10, "the windows catch up");
}

#[test]
fn a_midstream_assigner_hides_the_sources_idleness() {
    let mut s = sim("midstream-assigner");
    s.run_until(at(&s, 90)).unwrap();
    let n = fired(&s);
    assert!(s.snapshot().sources.iter().any(|x| x.idle), "the source itself went idle");
    assert!(s.snapshot().sources.iter().all(|x| x.midstream.as_ref().is_some_and(|m| !m.idle)), "the assigners did not");
    s.run_until(at(&s, 120)).unwrap();
    assert_eq!(fired(&s), n, "stuck");
    let mut sc = super::super::build::parse(preset("midstream-assigner").unwrap().json).unwrap();
    Action::WatermarksInSource.change(&mut sc);
    assert!(sc.source.midstream.is_none());
    let mut f = sc.build().unwrap();
    f.run_until(at(&f, 120)).unwrap();
    assert!(fired(&f) > n + 10, "in the source, idleness works");
    // Flink ≤ 1.14 forwarded the source's statuses through the assigner: idleness got through.
    let mut old = super::super::build::parse(preset("midstream-assigner").unwrap().json).unwrap();
    old.flink.midstream_forwards_status = true;
    let mut o = old.build().unwrap();
    o.run_until(at(&o, 120)).unwrap();
    assert!(fired(&o) > n + 10, "the ≤ 1.14 switch lets the source's idleness through");
}

#[test]
fn every_sql_row_reactivates_and_holds_for_the_idle_timeout() {
    let mut s = sim("sql-idle-reactivates");
    s.run_until(at(&s, 200)).unwrap();
    let delay = |s: &Simulation| s.downstream().sink.results().map(|r| r.time.ms() - r.end.ms()).max().unwrap_or(0);
    assert!(delay(&s) > 30_000, "results wait for the device: {}", delay(&s));
    let mut f = sim("sql-idle-reactivates");
    f.apply(Command::SetParam { param: Param::IdleTimeoutMs(Some(5_000)) }).unwrap();
    f.run_until(at(&f, 200)).unwrap();
    assert!(delay(&f) < 12_000, "each row holds the job for at most the timeout: {}", delay(&f));
    let idle_flips = f.trace().retained().filter(|e| matches!(e.kind, crate::engine::trace::TraceKind::MidstreamStatus { .. })).count();
    assert!(idle_flips >= 4, "idle after each row, active again with the next: {idle_flips}");
}

#[test]
fn a_continuous_trigger_fires_early_and_accumulates() {
    use crate::engine::operator::trigger::FiringKind;
    let mut s = sim("continuous-trigger");
    s.run_until(at(&s, 200)).unwrap();
    let rows: Vec<_> = s.downstream().sink.results().filter(|r| r.start.ms() == s.config().start_time.ms() + 60_000).collect();
    let early: Vec<_> = rows.iter().filter(|r| r.kind == FiringKind::Early).collect();
    let on_time = rows.iter().filter(|r| r.kind == FiringKind::OnTime).count();
    assert_eq!(on_time, 4, "one on-time row per key");
    assert_eq!(early.len(), 5 * 4, "five early rows per key: every 10 s of a minute but the end");
    for e in &early[..4] {
        let counts: Vec<u64> = rows.iter().filter(|r| r.key == e.key).map(|r| r.agg.count).collect();
        assert!(counts.windows(2).all(|w| w[0] <= w[1]), "accumulating: {counts:?}");
    }
    assert!(s.diagnose(&Default::default()).headline.starts_with("Early firings"));
    s.apply(Command::SetParam { param: Param::SinkMode(SinkMode::Upsert) }).unwrap();
    s.run_until(at(&s, 300)).unwrap();
    assert!(!s.diagnose(&Default::default()).headline.starts_with("Early firings"), "the upsert sink keeps one row per window");
}

#[test]
fn a_back_pressured_split_never_goes_idle_until_capacity_or_the_wall_clock() {
    use crate::engine::flow::back_pressure::BackPressureLevel;
    let mut s = sim("backpressure-never-idle");
    s.run_until(at(&s, 120)).unwrap();
    let snap = s.snapshot();
    assert_eq!(snap.sources[0].back_pressure_level, BackPressureLevel::High);
    // Its backlog is read by 00:01:00 (the reader lags); silent since, but never idle.
    assert!(!snap.splits[3].idle && snap.splits[3].unread == 0 && snap.splits[3].last_record_at < Some(at(&s, 90)), "{:?}", snap.splits[3]);
    let stalled = s.snapshot().operators[0].input_watermark;
    assert!(stalled < EventTime::from_proc(at(&s, 31)), "held at partition 3's last watermark");
    assert!(s.explain(0).unwrap().text.contains("back-pressured"));
    s.apply(Command::SetParam { param: Param::KeyedCapacityPerS(Some(5_000)) }).unwrap();
    s.run_until(at(&s, 180)).unwrap();
    assert!(s.snapshot().splits[3].idle, "no back-pressure: the clock runs again");
    assert!(s.snapshot().operators[0].input_watermark > EventTime::from_proc(at(&s, 100)));
    let mut old = super::super::build::parse(preset("backpressure-never-idle").unwrap().json).unwrap();
    Action::WallClockIdleness.change(&mut old);
    let mut o = old.build().unwrap();
    o.run_until(at(&o, 120)).unwrap();
    assert!(o.snapshot().splits[3].idle, "Flink 1.19.1 marked it idle while back-pressured");
}

#[test]
fn a_replay_without_alignment_loses_the_task_manager_and_with_it_does_not() {
    let mut s = sim("backfill-taskmanager-lost");
    s.run_until(at(&s, 300)).unwrap();
    let run = s.snapshot().run;
    assert!(run.restarts >= 3, "a restart loop: {run:?}");
    assert!(run.failure.as_deref().is_some_and(|f| f.contains("TaskManager 0 lost")), "{run:?}");
    let d = s.diagnose(&Default::default());
    assert!(d.fixes().iter().any(|f| f.action == Action::Alignment { max_drift_ms: 300_000 }));
    let mut a = sim("backfill-aligned");
    a.run_until(at(&a, 300)).unwrap();
    let run = a.snapshot().run;
    assert_eq!(run.restarts, 0, "{run:?}");
    assert!(
        a.snapshot().splits.iter().any(|sp| sp.paused)
            || a.trace().retained().any(|e| matches!(e.kind, crate::engine::trace::TraceKind::SplitPaused { .. }))
    );
    let most = a.snapshot().operators.iter().map(|o| o.state_bytes).max().unwrap();
    assert!(most < 4 << 30, "state stays under the TaskManager's memory: {most}");
    assert!(fired(&a) > 0);
}

#[test]
fn after_a_restore_windows_wait_for_the_idle_timeout_again() {
    let mut s = sim("restart-stalls-until-idle");
    s.run_until(at(&s, 119)).unwrap();
    let before = fired(&s);
    assert!(before > 0, "partition 3 is idle: windows fire");
    s.run_until(at(&s, 150)).unwrap();
    assert_eq!(s.snapshot().run.restarts, 1);
    let stalled = fired(&s);
    assert!(s
        .explain(0)
        .unwrap()
        .reasons
        .iter()
        .any(|r| matches!(r, crate::engine::explain::Reason::StalledAfterRestore { silent_partition: Some(3), .. })));
    s.run_until(at(&s, 170)).unwrap();
    assert!(fired(&s) > stalled, "after the 30 s idle timeout the burst comes");
    let results = s.downstream().sink.results().filter(|r| r.time > at(&s, 125) && r.time <= at(&s, 150)).count();
    assert_eq!(results, 0, "nothing fires while partition 3 counts its idle timeout again");
}
