//! Flow control (issue 13, `docs/FLOW.md`): the Kafka fetcher's order, start positions,
//! back-pressure and its metrics, the input-activity clock, and watermark alignment, each on a
//! small job whose outcome follows from Flink's rules (reference §1.7–1.8, §5).

use serde_json::{json, Value};
use wmp::engine::diagnosis::finding::FindingKind;
use wmp::engine::failover::JobStatus;
use wmp::engine::flow::back_pressure::BackPressureLevel;
use wmp::engine::scenario::build::parse;
use wmp::engine::sim::Simulation;
use wmp::engine::time::EventTime;
use wmp::engine::trace::TraceKind;

fn build(v: &Value) -> Simulation {
    parse(&v.to_string()).expect("valid").build().expect("builds")
}

fn run(v: &Value, ms: i64) -> Simulation {
    let mut s = build(v);
    s.run_until(s.config().start_time + ms).unwrap();
    s
}

fn job(partitions: u32) -> Value {
    json!({
        "trace": {"records": false},
        "topic": {"partitions": partitions},
        "source": {"watermark": {"generator": {"kind": "bounded_out_of_orderness", "bound_ms": 1000}}},
        "window": {"assigner": {"type": "tumbling", "size_ms": 10000}},
        "producers": []
    })
}

fn backlog(partitions: Value, count: u64, span_ms: i64) -> Value {
    json!({"partitions": partitions, "kind": "backlog", "count": count, "span_ms": span_ms})
}

fn count(s: &Simulation, f: impl Fn(&TraceKind) -> bool) -> usize {
    s.trace().retained().filter(|e| f(&e.kind)).count()
}

#[test]
fn a_slow_reader_moves_through_its_partitions_one_fetch_batch_each() {
    let mut v = job(3);
    v["source"]["read_rate_per_s"] = json!(1000);
    v["source"]["fetch"] = json!({"max_partition_fetch_bytes": 10_000, "record_bytes": 100});
    v["producers"] = json!([backlog(json!("all"), 1000, 3_600_000)]);
    let s = run(&v, 299);
    let read: Vec<u64> = s.sources()[0].splits.iter().map(|sp| sp.records_read).collect();
    assert_eq!(read, vec![100, 100, 100], "one batch of 100 records per partition per fetch round");
}

/// The backfill: with Kafka's fetch fairness a fast reader never leaves a partition
/// unread for the idle timeout; a fetch size that lets one partition hog the reader does.
#[test]
fn backfill_with_a_short_idle_timeout_loses_records_only_when_one_partition_hogs_the_reader() {
    let late = |fetch_bytes: u64| {
        let mut v = job(3);
        v["source"]["read_rate_per_s"] = json!(45_000);
        v["source"]["watermark"]["idle_timeout_ms"] = json!(2000);
        v["source"]["fetch"] = json!({"max_partition_fetch_bytes": fetch_bytes, "record_bytes": 100});
        v["producers"] = json!([backlog(json!("all"), 120_000, 3_600_000)]);
        run(&v, 20_000).downstream().late_total()
    };
    assert_eq!(late(1_048_576), 0);
    assert!(late(1 << 40) > 100_000, "draining partition after partition idles the others");
}

#[test]
fn start_positions_over_history() {
    let read_after = |start: Value| {
        let mut v = job(2);
        v["source"]["start_offset"] = start;
        v["producers"] = json!([backlog(json!("all"), 1000, 1_000_000)]);
        let s = run(&v, 100);
        s.sources()[0].splits.iter().map(|sp| sp.records_read).collect::<Vec<_>>()
    };
    let start = wmp::engine::scenario::schema::DEFAULT_START_MS;
    assert_eq!(read_after(json!("earliest")), vec![1000, 1000]);
    assert_eq!(read_after(json!("latest")), vec![0, 0]);
    assert_eq!(read_after(json!({"timestamp_ms": start - 250_000})), vec![250, 250]);
    assert_eq!(read_after(json!({"committed": {"offsets": [900, 10], "reset": "none"}})), vec![100, 990]);
    assert_eq!(read_after(json!({"committed": {"offsets": [900], "reset": "latest"}})), vec![100, 0]);
    let mut v = job(2);
    v["source"]["start_offset"] = json!({"committed": {"offsets": [900]}});
    let mut s = build(&v);
    let err = s.run_until(s.config().start_time + 10).unwrap_err();
    assert!(err.to_string().contains("NoOffsetForPartitionException"), "{err}");
}

fn overloaded(clock: &str) -> Value {
    let mut v = job(3);
    v["flow"] = json!({"keyed_capacity_per_s": 1000, "channel_buffer_records": 500});
    v["flink"] = json!({"idleness_clock": clock});
    v["source"]["watermark"]["idle_timeout_ms"] = json!(1000);
    v["producers"] = json!([{"partitions": [0, 1], "kind": "steady", "rate_per_s": 2000}]);
    v
}

#[test]
fn an_overloaded_keyed_subtask_back_pressures_the_source() {
    let s = run(&overloaded("input_activity"), 30_000);
    let src = &s.sources()[0];
    assert!(src.pressure.is_back_pressured);
    assert!(src.pressure.back_pressured.value() > 900, "{}", src.pressure.back_pressured.value());
    assert_eq!(src.pressure.level(), BackPressureLevel::High);
    let flow = &s.downstream().keyed_flow[0];
    assert!(flow.busy.value() >= 990, "{}", flow.busy.value());
    assert!((29_000..=30_000).contains(&flow.processed), "{}", flow.processed);
    let lag: usize = s.partitions().iter().map(|p| p.unread()).sum();
    assert!(lag > 80_000, "consumer lag grows: {lag}");
    assert!(s.downstream().channel_records(0, 0) <= 500);
}

/// FLIP-471: time spent back-pressured does not count as idle time, so the silent partition 2
/// never goes idle in 2.x and holds the watermark; with the wall clock (≤ 1.19.1 / 1.20.0) it does.
#[test]
fn a_back_pressured_silent_split_never_goes_idle_on_the_input_activity_clock() {
    let idle = |clock: &str| count(&run(&overloaded(clock), 20_000), |k| matches!(k, TraceKind::SplitIdle { partition: 2, .. }));
    assert_eq!(idle("input_activity"), 0);
    assert_eq!(idle("wall"), 1);
}

#[test]
fn explain_says_back_pressure_keeps_the_silent_split_active() {
    let s = run(&overloaded("input_activity"), 20_000);
    let ex = s.explain(0).unwrap();
    assert_eq!(ex.held_by.as_ref().and_then(|c| c.partition), Some(2), "{}", ex.text);
    assert!(ex.text.contains("back-pressured") && ex.text.contains("FLIP-471"), "{}", ex.text);
}

fn aligned_backfill(buffer: usize, aligned: bool) -> Value {
    let mut v = job(2);
    v["source"]["read_rate_per_s"] = json!(10_000);
    v["source"]["watermark"]["emit"] = json!("per_event");
    v["source"]["watermark"]["idle_timeout_ms"] = json!(2000);
    if aligned {
        v["source"]["watermark"]["alignment"] = json!({"group": "g", "max_drift_ms": 5000, "update_interval_ms": 1000});
    }
    v["flink"] = json!({"alignment_buffer_size": buffer});
    v["producers"] = json!([backlog(json!(0), 100_000, 3_600_000), {"partitions": [0, 1], "kind": "steady", "rate_per_s": 100}]);
    v
}

/// Split alignment with buffer size 0 and per-event watermarks: a split is paused as soon as
/// its watermark passes the announced max, so a split's watermark only rises from at or below
/// the max allowed. With one subtask the group minimum is its own watermark, announced once a
/// second, so the history advances by about the max drift per update interval: alignment
/// throttles the backfill to 5 s of event time per second here.
#[test]
fn no_split_runs_ahead_of_the_announced_max_while_aligned() {
    let mut s = build(&aligned_backfill(0, true));
    let end = s.config().start_time + 15_000;
    let mut paused_seen = false;
    let mut before = [EventTime::MIN; 2];
    let mut allowed = EventTime::MAX;
    let mut at_5s = None;
    while s.now() < end {
        if s.now() >= s.config().start_time + 5_000 && at_5s.is_none() {
            at_5s = s.sources()[0].split_watermark(0);
        }
        s.step().unwrap();
        let src = &s.sources()[0];
        for (i, was) in before.iter_mut().enumerate() {
            let w = src.split_watermark(i).unwrap_or(EventTime::MIN);
            assert!(w <= *was || *was <= allowed, "split {i} rose from {was:?} above the max allowed {allowed:?}");
            *was = w;
            paused_seen |= src.split_paused(i);
        }
        allowed = src.alignment.as_ref().unwrap().max_desired;
    }
    assert!(paused_seen, "the live partition is paused while the history catches up");
    let advanced = before[0].ms() - at_5s.unwrap().ms();
    assert!((10 * 4_900..=10 * 5_100).contains(&advanced), "history advanced {advanced} ms of event time in 10 s");
    assert!(s.sources()[0].split_paused(1), "the live split waits for the history");
    let ex = s.explain(0).unwrap();
    assert!(ex.text.contains("watermark alignment pauses partition(s) 1 until partition 0 catches up"), "{}", ex.text);
    let unaligned = run(&aligned_backfill(0, false), 3_000);
    let w: Vec<i64> = (0..2).map(|i| unaligned.sources()[0].split_watermark(i).unwrap().ms()).collect();
    assert!(w[1] - w[0] > 2_000_000, "without alignment the live split runs most of an hour ahead: {w:?}");
}

/// V-AL-11: a paused split's clock is paused, so it never becomes idle while paused; on the
/// wall clock it would.
#[test]
fn a_paused_split_does_not_become_idle() {
    let idle = |clock: &str| {
        let mut v = aligned_backfill(3, true);
        v["flink"]["idleness_clock"] = json!(clock);
        count(&run(&v, 8_000), |k| matches!(k, TraceKind::SplitIdle { partition: 1, .. }))
    };
    assert_eq!(idle("input_activity"), 0);
    assert!(idle("wall") >= 1);
}

/// The 2.3 buffer lets a split run ahead for about `buffer × interval` before it is paused.
#[test]
fn the_sampling_buffer_delays_the_pause() {
    let first_pause = |buffer: usize| {
        let s = run(&aligned_backfill(buffer, true), 8_000);
        let first = s.trace().retained().find(|e| matches!(e.kind, TraceKind::SplitPaused { .. })).map(|e| e.time - s.config().start_time);
        first
    };
    // The first report (and so announcement) waits until the live split has a watermark: it
    // is first read at 2.1 s, after two fetch batches of the history (10,485 records each).
    assert_eq!(first_pause(0), Some(3_000), "paused at the first announcement");
    assert_eq!(first_pause(3), Some(5_000), "only once the oldest of three samples is ahead");
}

/// The job's status after each instant a run went through.
struct Statuses(Vec<JobStatus>);

impl wmp::engine::observer::Observer for Statuses {
    fn after_instant(&mut self, sim: &Simulation) -> std::ops::ControlFlow<()> {
        self.0.push(sim.job_status());
        std::ops::ControlFlow::Continue(())
    }
}

/// A reader that cannot pause splits fails the job at the first pause, unless
/// `allow-unaligned-source-splits` is set: then only the subtask level aligns.
#[test]
fn a_reader_without_split_pausing_fails_unless_unaligned_splits_are_allowed() {
    let mut v = aligned_backfill(0, true);
    v["source"]["reader_pauses_splits"] = json!(false);
    let mut s = build(&v);
    let mut seen = Statuses(Vec::new());
    let err = s.run_until_with(s.config().start_time + 8_000, &mut seen).unwrap_err();
    assert!(err.to_string().contains("UnsupportedOperationException"), "{err}");
    // The observer sees the instant it failed in: the page draws the failure's ✕ from it.
    assert_eq!(seen.0.last(), Some(&JobStatus::Failed));
    // The views say so: FAILED at the instant it threw, with the exception (it said RUNNING).
    let job = s.job_run();
    assert_eq!((job.status, job.failed_at), (JobStatus::Failed, Some(s.now())));
    assert!(job.failure.as_deref().is_some_and(|f| f.contains("UnsupportedOperationException")), "{job:?}");
    assert_eq!(count(&s, |k| matches!(k, TraceKind::JobFailed { .. })), 1);
    // The diagnosis names the exception, not a restore (there was none) or a partition.
    let d = s.diagnose(&Default::default());
    let f = d.findings.iter().find(|f| f.kind == FindingKind::JobRestarts).expect("a finding on the failure");
    assert!(f.title.starts_with("The job FAILED: an operator threw: ") && f.partition.is_none(), "{f:?}");
    assert!(!f.detail.contains("restore"), "{}", f.detail);
    v["flink"]["allow_unaligned_source_splits"] = json!(true);
    let s = run(&v, 8_000);
    assert_eq!(count(&s, |k| matches!(k, TraceKind::SplitPaused { .. })), 0);
}

/// V-AL-7 (`SourceOperatorAlignmentTest#testReportedWatermarkDoNotDecrease`): a split added with
/// an older record does not lower what the subtask reports: the output watermark never goes
/// back, and the report is the last forwarded watermark.
#[test]
fn v_al_7_the_reported_watermark_never_decreases() {
    let start = wmp::engine::scenario::schema::DEFAULT_START_MS;
    let mut v = job(1);
    v["source"]["watermark"] = json!({"generator": {"kind": "bounded_out_of_orderness", "bound_ms": 0}, "emit": "per_event",
        "alignment": {"group": "g", "max_drift_ms": 100, "update_interval_ms": 1}});
    v["flink"] = json!({"alignment_buffer_size": 0});
    v["commands"] = json!([
        {"at_ms": 1, "command": "produce", "partition": 0, "records": [{"ts": start + 2000, "key": "a"}]},
        {"at_ms": 3, "command": "add_partition"},
        {"at_ms": 4, "command": "produce", "partition": 1, "records": [{"ts": start + 1000, "key": "a"}]}
    ]);
    let mut s = build(&v);
    s.run_until(s.config().start_time + 3).unwrap();
    assert_eq!(s.alignment_group_min(0), Some(EventTime(start + 1999)));
    s.run_until(s.config().start_time + 10).unwrap();
    assert_eq!(s.sources()[0].split_watermark(1), Some(EventTime(start + 999)), "the new split is behind");
    assert_eq!(s.alignment_group_min(0), Some(EventTime(start + 1999)), "the report stays at 1999");
}

/// One source subtask ends its input alone (`Simulation::end_input_of`: a bounded source's
/// reader is done with its splits): it emits `Long.MAX_VALUE`, reads nothing more and reports
/// `Long.MAX_VALUE` to the alignment coordinator, so the group minimum is the other subtask's;
/// the keyed operator's watermark stays with the subtask that goes on.
#[test]
fn one_source_subtask_ends_its_input_alone() {
    let mut v = job(2);
    v["source"]["parallelism"] = json!(2);
    v["source"]["watermark"]["emit"] = json!("per_event");
    v["source"]["watermark"]["alignment"] = json!({"group": "g", "max_drift_ms": 100_000, "update_interval_ms": 100});
    v["producers"] = json!([{"partitions": [0, 1], "kind": "steady", "rate_per_s": 100}]);
    let mut s = run(&v, 2_000);
    let ending = s.split_of(0).unwrap().0;
    let other = s.split_of(1).unwrap().0;
    assert_ne!(ending, other);
    s.end_input_of(ending).unwrap();
    let read = |s: &Simulation| s.sources()[ending as usize].splits.iter().map(|x| x.records_read).sum::<u64>();
    let read_at_end = read(&s);
    s.run_until(s.config().start_time + 3_000).unwrap();
    assert_eq!(read(&s), read_at_end, "a finished subtask reads nothing");
    let max_from =
        |sub: u32| count(&s, |k| matches!(k, TraceKind::SourceWatermark { subtask, watermark: EventTime::MAX } if *subtask == sub));
    assert_eq!((max_from(ending), max_from(other)), (1, 0));
    // 3000 is a report instant: the other subtask reported its output watermark last.
    let other_wm = s.sources()[other as usize].output.current_watermark();
    assert_eq!(s.alignment_group_min(0), Some(other_wm));
    assert!(s.downstream().windows[0].current_input_watermark() < EventTime::MAX);
    assert!(s.end_input_of(ending).is_err(), "it ended already");
}

/// Alignment goes on after a restore: the new tasks report and get announcements on the grid
/// again, whatever instant the restart falls on (TaskManager 0 killed at an odd millisecond).
#[test]
fn alignment_goes_on_after_a_restore() {
    let json = wmp::engine::scenario::catalog::preset("backfill-aligned").unwrap().json;
    let mut s = parse(json).unwrap().build().unwrap();
    let start = s.config().start_time;
    s.run_until(start + 60_003).unwrap();
    s.apply(wmp::engine::command::Command::Fail { target: wmp::engine::failover::FailTarget::TaskManager(0) }).unwrap();
    s.run_until(start + 120_000).unwrap();
    let restarted = s.trace().retained().filter(|e| matches!(e.kind, TraceKind::JobRestarted { .. })).map(|e| e.time).next();
    let restarted = restarted.expect("the job restarted");
    let paused_after = count(&s, |k| matches!(k, TraceKind::SplitPaused { .. }));
    assert!(
        s.trace().retained().any(|e| e.time > restarted && matches!(e.kind, TraceKind::SplitPaused { .. })),
        "splits are paused again after the restore ({paused_after} pauses in all)"
    );
    assert!(s.sources().iter().all(|src| src.alignment.as_ref().is_some_and(|a| a.max_desired != EventTime::MAX)), "announced again");
}

/// In the back-pressure preset partition 3's backlog drains at about 59 s. From then on its
/// idleness clock stands still: no finding may promise that the timeout "excludes it soon"
/// (it said so for the first 5 s, while the back-pressure finding said "never"), and once the
/// partition counts as stopped the back-pressure finding is the cause and offers the fix.
#[test]
fn while_back_pressure_stands_the_idleness_clock_no_finding_promises_the_timeout() {
    let preset = wmp::engine::scenario::catalog::preset("backpressure-never-idle").unwrap();
    let mut s = parse(preset.json).unwrap().build().unwrap();
    let start = s.config().start_time;
    let (mut held_seen, mut stopped_seen) = (false, false);
    for t in (55_000..=90_000).step_by(250) {
        s.run_until(start + t).unwrap();
        let (src, i) = s.split_of(3).unwrap();
        let held = s.sources()[src as usize].idleness_held_by_pressure(i);
        let d = s.diagnose(&Default::default());
        held_seen |= held;
        if held {
            for f in &d.findings {
                assert!(!f.title.contains("excludes it soon") && !f.title.contains("excludes it in"), "at {t} ms: {}", f.title);
            }
        }
        if d.findings.iter().any(|f| f.partition == Some(3) && f.kind == FindingKind::IdlePartition) {
            stopped_seen = true;
            assert_eq!(d.cause, Some(FindingKind::BackPressure), "at {t} ms: {}", d.headline);
            assert!(d.fixes().iter().any(|f| f.label.starts_with("Window capacity")), "at {t} ms");
        }
    }
    assert!(held_seen && stopped_seen, "the story reaches the stopped, back-pressured partition");
}

/// Preset 15 (a back-pressured split never goes idle), diagnosed every 5 s for two minutes: a
/// back-pressured reader's partition is never blamed on its producer or clock (its records
/// waited in Kafka; between two reads nothing may be unread), and a partition with records
/// waiting unread is never the "silent split" that never goes idle. The headline stays on
/// the back-pressure all along: it held the slow partition's story (partition 2 or 3,
/// whichever was behind) for the first minute, then switched.
#[test]
fn a_back_pressured_job_is_not_blamed_on_producers_or_called_silent_while_records_wait() {
    use wmp::engine::diagnosis::classify::SlowCause;
    use wmp::engine::diagnosis::DiagnosisOptions;
    use wmp::engine::explain::Reason;
    let mut s = parse(include_str!("../presets/backpressure_never_idle.json")).unwrap().build().unwrap();
    let start = s.config().start_time;
    for at in (20_000..=120_000).step_by(5_000) {
        s.run_until(start + at).unwrap();
        let d = s.diagnose(&DiagnosisOptions::default());
        assert_eq!(d.cause, Some(wmp::engine::diagnosis::finding::FindingKind::BackPressure), "at {at}: {}", d.headline);
        for p in &d.partitions {
            let throttled = p.subtask.is_some_and(|t| s.sources()[t as usize].pressure.is_back_pressured);
            assert!(
                !(throttled && p.slow_cause == Some(SlowCause::EventTimeDelay)),
                "at {at}: partition {} {:?}",
                p.partition,
                p.slow_cause
            );
        }
        if let Some(e) = d.explanation.as_ref() {
            for r in &e.reasons {
                if let Reason::BackPressuredNeverIdle { partition, .. } = r {
                    let unread = d.partitions[*partition as usize].unread;
                    assert_eq!(unread, 0, "at {at}: partition {partition} called silent with {unread} records unread");
                }
            }
        }
    }
}

/// The back-pressure preset on Flink 1.19.1's wall clock: the backlogged splits go idle with
/// records waiting and their records turn late, the opposite of FLIP-471's "never idle". The
/// finding says so, first and critical, in that version's words (the walk read the input-activity
/// clock's words beside two idle backlogged splits and 11,080 drops). Capacity is the fix: the
/// test applies it and fewer records are late.
#[test]
fn on_the_wall_clock_back_pressure_idles_backlogged_splits_and_the_finding_says_so() {
    use wmp::engine::diagnosis::DiagnosisOptions;
    use wmp::engine::scenario::flink_version::FlinkVersion;
    use wmp::engine::session::action::Action;
    let run = |capacity_fix: bool| {
        let mut sc = parse(include_str!("../presets/backpressure_never_idle.json")).unwrap();
        sc.flink = FlinkVersion::V1_19_1.apply_to(&sc.flink);
        let mut s = wmp::engine::session::Session::new(sc).unwrap();
        s.run_until(60_000, &mut ()).unwrap();
        let d = s.sim().diagnose(&DiagnosisOptions::default());
        if capacity_fix {
            let fix = d.fixes().into_iter().find(|f| matches!(f.action, Action::KeyedCapacity(_))).expect("a capacity fix");
            s.apply_action(fix.action).unwrap();
        }
        s.run_until(90_000, &mut ()).unwrap();
        (d, s.sim().snapshot().late_records)
    };
    let (d, late) = run(false);
    let f = d.primary().expect("a cause");
    assert_eq!((f.kind, f.severity), (FindingKind::BackPressure, wmp::engine::diagnosis::finding::Severity::Critical), "{}", d.headline);
    assert!(f.title.contains("wall clock") && f.title.contains("went idle") && f.title.contains(" late"), "{}", f.title);
    assert!(!f.detail.starts_with("Since Flink 1.19.2"), "{}", f.detail);
    let (_, late_fixed) = run(true);
    assert!(late_fixed < late, "the capacity fix: {late_fixed} late, without it {late}");
    // On the input-activity clock the same preset keeps FLIP-471's words.
    let mut s = parse(include_str!("../presets/backpressure_never_idle.json")).unwrap().build().unwrap();
    s.run_until(s.config().start_time + 66_000).unwrap();
    let d = s.diagnose(&Default::default());
    assert!(d.headline.contains("FLIP-471"), "{}", d.headline);
}

/// A source's `watermarkLag` is Flink's (reference §11): processing time minus its watermark
/// while the reader has records, frozen from when it runs dry after its last record, whatever
/// the watermark status (it grew while the split went idle, and without withIdleness for ever).
/// A rate-limited reader with a backlog is busy: its lag keeps growing.
#[test]
fn a_sources_watermark_lag_stops_when_its_reader_runs_dry() {
    let mut v = job(1);
    v["producers"] = json!([{"partitions": 0, "kind": "steady", "rate_per_s": 10, "stop_ms": 5000}]);
    let lag_at = |v: &Value, ms| run(v, ms).metrics().source[0].watermark_lag;
    // The last record (timestamp 4.9 s) at 4.9 s; the watermark 4.9 s − 1 s − 1 ms after it.
    assert_eq!(lag_at(&v, 30_000), Some(1_001));
    assert_eq!(lag_at(&v, 60_000), Some(1_001), "frozen while the reader has nothing");
    v["source"]["watermark"]["idle_timeout_ms"] = json!(2_000);
    assert_eq!(lag_at(&v, 60_000), Some(1_001), "the idle status does not move it");
    let mut backlog_job = job(1);
    backlog_job["source"]["read_rate_per_s"] = json!(10);
    backlog_job["producers"] = json!([backlog(json!(0), 1_000, 1_000)]);
    let (early, late) = (lag_at(&backlog_job, 30_000).unwrap(), lag_at(&backlog_job, 60_000).unwrap());
    assert!(late > early + 20_000, "busy reading a backlog: {early} then {late}");
}
