//! Checkpoint and restore (reference §12, `docs/FLOW.md`) as vectors: after a restore every
//! watermark is `Long.MIN_VALUE`, nothing is late until the first watermark, restored windows
//! fire on it, idleness needs a full timeout again, read offsets come back from the
//! checkpoint, replayed records and re-emitted results are counted; a TaskManager over its
//! memory is lost again and again; `restart: none` ends the job FAILED.
//!
//! The base job is `common::restore_job`'s (checkpoints at 2000 and 4000), with a keyed subtask
//! killed at 4900, restarted 600 ms later at 5500.

mod common;

use common::restore_job;
use serde_json::{json, Value};
use wmp::engine::explain::Reason;
use wmp::engine::failover::JobStatus;
use wmp::engine::report::report;
use wmp::engine::scenario::build::parse;
use wmp::engine::session::Session;
use wmp::engine::sim::Simulation;
use wmp::engine::status::WatermarkStatus;
use wmp::engine::time::{EventTime, ProcTime};
use wmp::engine::trace::{TraceEvent, TraceKind};

const S: i64 = wmp::engine::scenario::schema::DEFAULT_START_MS;

fn base() -> Value {
    restore_job::job(json!([restore_job::fail_at(4900)]))
}

fn sim_at(v: &Value, at_ms: i64) -> Simulation {
    let mut s = parse(&v.to_string()).expect("valid").build().expect("builds");
    s.run_until(ProcTime(S + at_ms)).expect("runs");
    s
}

fn events(sim: &Simulation) -> Vec<&TraceEvent> {
    sim.trace().retained().collect()
}

/// The relative time of the first event matching `f`.
fn first(sim: &Simulation, f: impl Fn(&TraceKind) -> bool) -> Option<i64> {
    sim.trace().retained().find(|e| f(&e.kind)).map(|e| e.time.ms() - S)
}

/// Offsets read from `partition`, with the time they were read at.
fn reads(sim: &Simulation, partition: u32) -> Vec<(i64, u64)> {
    events(sim)
        .iter()
        .filter_map(|e| match e.kind {
            TraceKind::RecordRead { partition: p, offset, .. } if p == partition => Some((e.time.ms() - S, offset)),
            _ => None,
        })
        .collect()
}

#[test]
fn checkpoints_complete_on_the_interval_and_the_restart_waits_the_delay() {
    let sim = sim_at(&base(), 6000);
    let marks: Vec<(i64, String)> = events(&sim)
        .iter()
        .filter_map(|e| match &e.kind {
            TraceKind::CheckpointCompleted { id } => Some((e.time.ms() - S, format!("checkpoint {id}"))),
            TraceKind::JobFailed { .. } => Some((e.time.ms() - S, "failed".into())),
            TraceKind::JobRestarted { attempt, checkpoint } => Some((e.time.ms() - S, format!("attempt {attempt} from {checkpoint:?}"))),
            _ => None,
        })
        .collect();
    let want = [(2000, "checkpoint 1"), (4000, "checkpoint 2"), (4900, "failed"), (5500, "attempt 2 from Some(2)"), (6000, "checkpoint 3")];
    assert_eq!(marks, want.map(|(t, s)| (t, s.to_string())));
    let run = sim.job_run();
    assert_eq!((run.status, run.attempt, run.restarts, run.restored_from), (JobStatus::Running, 2, 1, Some(2)));
    assert_eq!(run.failed_at, Some(ProcTime(S + 4900)));
    assert_eq!(sim.metrics().job.num_restarts, 1);
}

#[test]
fn nothing_runs_while_the_job_is_down() {
    let sim = sim_at(&base(), 5499);
    let during: Vec<&TraceEvent> = events(&sim).into_iter().filter(|e| e.time.ms() - S > 4900).collect();
    assert!(during.is_empty(), "{during:?}");
    let run = sim.job_run();
    assert_eq!((run.status, run.restarting_until), (JobStatus::Restarting, Some(ProcTime(S + 5500))));
    // Producers keep appending: the records wait in the partition.
    assert!(sim.snapshot().splits[0].unread >= 5, "{:?}", sim.snapshot().splits[0]);
    assert_eq!(sim.snapshot().operators[0].state_entries, 0, "the failed attempt's state is gone");
    let ex = sim.explain(0).unwrap();
    assert!(matches!(ex.reasons[0], Reason::JobDown { restarting_until: Some(_) }), "{}", ex.text);
}

#[test]
fn every_watermark_is_min_after_the_restore() {
    let before = sim_at(&base(), 4800);
    assert_eq!(before.snapshot().operators[0].input_watermark, EventTime(S + 2799));
    let sim = sim_at(&base(), 5500);
    let snap = sim.snapshot();
    assert_eq!(snap.splits[0].watermark, Some(EventTime::MIN));
    assert_eq!(snap.sources[0].combined_watermark, EventTime::MIN);
    assert_eq!(snap.sources[0].output_watermark, EventTime::MIN);
    let op = &snap.operators[0];
    assert_eq!((op.input_watermark, op.output_watermark), (EventTime::MIN, EventTime::MIN));
    assert!(op.channels.iter().all(|c| c.watermark == EventTime::MIN && c.status == WatermarkStatus::Active));
    // The restored windows are back: [4 s, 5 s) and earlier ones still waiting for the watermark.
    assert!(op.state_entries >= 3, "{op:?}");
}

#[test]
fn nothing_is_late_until_the_first_watermark() {
    let mut v = base();
    let late = json!([{"ts": S + 100, "key": "late"}]);
    v["commands"] = json!([
        {"at_ms": 3500, "command": "produce", "partition": 0, "records": late},
        {"at_ms": 4900, "command": "fail", "target": {"keyed_subtask": 0}},
        {"at_ms": 5501, "command": "produce", "partition": 0, "records": late},
    ]);
    let sim = sim_at(&v, 8000);
    assert_eq!(sim.downstream().late_total(), 1, "late before the failure only");
    let late_at = first(&sim, |k| matches!(k, TraceKind::LateRecord { .. }));
    assert_eq!(late_at, Some(3500), "behind W = 1299");
    let fired: Vec<_> = sim.downstream().sink.results().filter(|r| sim.keys().name(r.key) == "late").collect();
    assert_eq!(fired.len(), 1, "{fired:?}");
    assert_eq!((fired[0].start, fired[0].agg.count, fired[0].time), (EventTime(S), 1, ProcTime(S + 5700)));
    assert_eq!(fired[0].watermark, EventTime(S + 3699), "the first watermark after the restore fired it");
}

#[test]
fn restored_windows_fire_on_the_first_watermark() {
    let sim = sim_at(&base(), 6200);
    let window = |start: i64| sim.downstream().sink.results().filter(move |r| r.start == EventTime(S + start)).collect::<Vec<_>>();
    // [2 s, 3 s) was in the checkpoint at 4000 (W then 1999) and had not fired at 4900 (W 2799).
    let w = window(2000);
    assert_eq!(w.len(), 1, "{w:?}");
    // The restarted sources tick first one interval after the restart at 5500 (reference §2.2),
    // not at 5600 on the old tasks' 200 ms grid.
    assert_eq!((w[0].time, w[0].watermark, w[0].agg.count, w[0].firing), (ProcTime(S + 5700), EventTime(S + 3699), 10, 0));
    let first_after = sim.downstream().sink.results().find(|r| r.time.ms() > S + 5500).unwrap();
    assert_eq!(first_after.start, EventTime(S + 2000), "the first result after the restore");
    assert_eq!(window(3000)[0].time, ProcTime(S + 6100), "[3 s, 4 s) ends after the first watermark, fires on a later one");
}

#[test]
fn read_offsets_come_back_from_the_checkpoint_and_replays_are_counted() {
    let sim = sim_at(&base(), 8000);
    let r = reads(&sim, 0);
    let at_checkpoint = r.iter().filter(|(t, _)| *t <= 4000).count() as u64;
    let before_failure = r.iter().filter(|(t, _)| *t < 4900).count() as u64;
    let after: Vec<u64> = r.iter().filter(|(t, _)| *t >= 5500).map(|(_, o)| *o).collect();
    assert_eq!(after[0], at_checkpoint, "the restore reads from the checkpointed offset");
    assert!(after.windows(2).all(|w| w[1] == w[0] + 1), "then in order, without gaps");
    assert_eq!(sim.records_replayed(), before_failure - at_checkpoint);
    assert_eq!(sim.job_run().records_replayed, 8, "read at 4100 … 4800");
}

#[test]
fn without_a_checkpoint_the_restore_reads_from_the_start_offsets() {
    let mut v = base();
    v["checkpointing"] = json!({"restart": {"type": "fixed_delay", "delay_ms": 600}});
    let sim = sim_at(&v, 8000);
    assert_eq!(first(&sim, |k| matches!(k, TraceKind::JobRestarted { attempt: 2, checkpoint: None })), Some(5500));
    let after: Vec<u64> = reads(&sim, 0).iter().filter(|(t, _)| *t >= 5500).map(|(_, o)| *o).collect();
    assert_eq!(after[0], 0);
    let before_failure = reads(&sim, 0).iter().filter(|(t, _)| *t < 4900).count() as u64;
    assert_eq!(sim.records_replayed(), before_failure, "everything read before the failure");
}

#[test]
fn results_emitted_again_are_counted_as_duplicates() {
    let mut v = base();
    v["commands"][0]["at_ms"] = json!(5300);
    let sim = sim_at(&v, 9000);
    let results: Vec<_> = sim.downstream().sink.results().collect();
    let pre: Vec<_> = results.iter().filter(|r| r.time.ms() <= S + 5300).map(|r| (r.key, r.start, r.end, r.firing)).collect();
    let again = results.iter().filter(|r| r.time.ms() > S + 5300 && pre.contains(&(r.key, r.start, r.end, r.firing))).count();
    assert_eq!(again, 1, "[2 s, 3 s) fired at 5000, after the checkpoint at 4000");
    assert_eq!(sim.job_run().results_duplicated, 1);
}

#[test]
fn idleness_needs_a_full_timeout_again_after_the_restore() {
    let mut v = base();
    v["topic"]["partitions"] = json!(2);
    v["source"]["watermark"]["idle_timeout_ms"] = json!(1500);
    v["producers"] = json!([
        {"partitions": 0, "kind": "steady", "rate_per_s": 10},
        {"partitions": 1, "kind": "steady", "rate_per_s": 10, "stop_ms": 1000}
    ]);
    let sim = sim_at(&v, 5900);
    let ex = sim.explain(0).unwrap();
    let stalled = ex.reasons.iter().find_map(|r| match r {
        Reason::StalledAfterRestore { silent_partition, idle_timeout_ms, .. } => Some((*silent_partition, *idle_timeout_ms)),
        _ => None,
    });
    assert_eq!(stalled, Some((Some(1), Some(1500))), "{}", ex.text);
    assert!(ex.text.contains("needs the idle timeout (1.5 s) again"), "{}", ex.text);
    assert_eq!(ex.watermark, EventTime::MIN);

    let sim = sim_at(&v, 9000);
    let idle: Vec<i64> =
        events(&sim).iter().filter(|e| matches!(e.kind, TraceKind::SplitIdle { partition: 1, .. })).map(|e| e.time.ms() - S).collect();
    assert_eq!(idle.len(), 2, "idle before the failure, and again after the restore: {idle:?}");
    assert!(idle[1] >= 5500 + 1500, "a full timeout after the restore: {idle:?}");
    let wm_after = events(&sim)
        .iter()
        .find(|e| e.time.ms() - S >= 5500 && matches!(e.kind, TraceKind::OperatorWatermark { .. }))
        .map(|e| e.time.ms() - S);
    assert_eq!(wm_after, Some(idle[1]), "the operator's first watermark waits for that");
    assert!(!sim.explain(0).unwrap().reasons.iter().any(|r| matches!(r, Reason::StalledAfterRestore { .. })));
}

#[test]
fn a_sql_window_aggregation_keeps_its_checkpointed_watermark() {
    let mut v = base();
    v["window"]["api"] = json!("sql");
    v["source"]["watermark"]["generator"] = json!({"kind": "sql_bounded", "delay_ms": 2000});
    v["commands"] = json!([
        {"at_ms": 4900, "command": "fail", "target": {"keyed_subtask": 0}},
        {"at_ms": 5501, "command": "produce", "partition": 0, "records": [{"ts": S + 100, "key": "late"}]},
    ]);
    let sim = sim_at(&v, 5550);
    assert_eq!(sim.snapshot().operators[0].input_watermark, EventTime(S + 2000), "the watermark at checkpoint 2 (4000)");
    assert_eq!(sim.downstream().late_total(), 1, "late detection survives the restore (reference §10.2)");
}

#[test]
fn an_interval_join_gets_its_buffers_back_with_the_watermark_at_min() {
    let v = json!({
        "duration_ms": 8000,
        "topic": {"name": "left", "partitions": 1},
        "second_input": {"topic": {"name": "right", "partitions": 1}, "mode": "connect"},
        "interval_join": {"lower_ms": -3000, "upper_ms": 0},
        "producers": [
            {"topic": "left", "partitions": 0, "kind": "steady", "rate_per_s": 10},
            {"topic": "right", "partitions": 0, "kind": "steady", "rate_per_s": 10}
        ],
        "checkpointing": {"interval_ms": 2000, "restart": {"type": "fixed_delay", "delay_ms": 600}},
        "commands": [{"at_ms": 4900, "command": "fail", "target": {"keyed_subtask": 0}}],
        "trace": {"records": false}
    });
    let at_checkpoint = sim_at(&v, 4000);
    let buffered = at_checkpoint.snapshot().operators[0].join_buffered;
    assert!(buffered.is_some_and(|(l, r)| l > 0 && r > 0), "{buffered:?}");
    let sim = sim_at(&v, 5500);
    let op = &sim.snapshot().operators[0];
    assert_eq!(op.input_watermark, EventTime::MIN);
    // Restored at 5500 and the backlog since the checkpoint read again in that instant; with
    // W = MIN nothing is cleaned up, so the buffers hold the checkpoint's plus the replay.
    let (l, r) = op.join_buffered.unwrap();
    let (l0, r0) = buffered.unwrap();
    assert!(l >= l0 + 9 && r >= r0 + 9, "{:?} after {:?}", (l, r), (l0, r0));
    assert_eq!(op.state_entries, l + r);
}

fn memory_loop() -> Value {
    json!({
        "duration_ms": 30_000,
        "topic": {"partitions": 2},
        "source": {"parallelism": 2},
        "window": {"assigner": {"type": "tumbling", "size_ms": 600_000}, "parallelism": 2},
        "producers": [{"partitions": "all", "kind": "steady", "rate_per_s": 500, "keys": {"count": 100_000}}],
        "flow": {"task_managers": 2, "task_manager_memory_bytes": 500_000, "state_bytes_per_entry": 100},
        "checkpointing": {"interval_ms": 2000},
        "trace": {"records": false}
    })
}

#[test]
fn a_task_manager_over_its_memory_is_lost_and_the_job_restarts_in_a_loop() {
    let sim = sim_at(&memory_loop(), 30_000);
    let lost: Vec<(i64, u32, u64, u64)> = events(&sim)
        .iter()
        .filter_map(|e| match e.kind {
            TraceKind::TaskManagerLost { task_manager, used_bytes, limit_bytes } => {
                Some((e.time.ms() - S, task_manager, used_bytes, limit_bytes))
            }
            _ => None,
        })
        .collect();
    assert!(lost.len() >= 3, "{lost:?}");
    assert!(lost.iter().all(|&(_, tm, used, limit)| tm < 2 && used > limit && limit == 500_000), "{lost:?}");
    // Each loss fails the job, and the (default exponential) strategy restarts it from the last
    // checkpoint, whose state is smaller: it grows again until the next loss.
    let failed = events(&sim).iter().filter(|e| matches!(e.kind, TraceKind::JobFailed { .. })).count();
    let restarted = events(&sim).iter().filter(|e| matches!(e.kind, TraceKind::JobRestarted { .. })).count();
    assert_eq!(failed, lost.len());
    assert!(restarted == failed || restarted + 1 == failed, "{restarted} restarts after {failed} failures");
    let run = sim.job_run();
    assert_eq!(run.restarts as usize, restarted);
    assert!(run.failure.as_deref().is_some_and(|f| f.contains("lost")), "{run:?}");
    let h = sim.state_size_history();
    assert_eq!((h.bytes_per_entry, h.limit_bytes, h.task_manager_of.clone()), (100, Some(500_000), vec![0, 1]));
    let peak = h.samples.iter().map(|s| s.entries.iter().max().copied().unwrap_or(0)).max().unwrap();
    assert!(peak * 100 > 500_000, "the history shows the size that killed it: {peak}");
    assert!(h.samples.iter().any(|s| s.entries.iter().all(|&e| e == 0) && s.time.ms() > S), "and the drop");
}

/// Stops a run at the first instant after which the job is FAILED, as a full batch of events
/// may stop a JS API run there.
struct StopAtTheFailure;

impl wmp::engine::observer::Observer for StopAtTheFailure {
    fn after_instant(&mut self, sim: &Simulation) -> std::ops::ControlFlow<()> {
        if sim.job_status() == JobStatus::Failed {
            std::ops::ControlFlow::Break(())
        } else {
            std::ops::ControlFlow::Continue(())
        }
    }
}

#[test]
fn a_run_stopped_where_the_job_failed_goes_on_to_its_end_as_one_run_does() {
    let mut v = base();
    v["checkpointing"] = json!({"interval_ms": 2000, "restart": {"type": "none"}});
    let mut session = Session::new(parse(&v.to_string()).unwrap()).unwrap();
    let end = session.end_of_run();
    assert!(!session.run_to_end(&mut StopAtTheFailure).unwrap(), "stopped at the failure");
    assert!(session.halted().is_some());
    assert!(session.run_to_end(&mut ()).is_err(), "a new call is refused");
    assert!(session.end_run(end, &mut ()).expect("the call goes on"), "and gets there");
    assert_eq!(session.now(), end);
}

#[test]
fn restart_none_ends_the_job_failed() {
    let mut v = base();
    v["checkpointing"] = json!({"interval_ms": 2000, "restart": {"type": "none"}});
    let mut session = Session::new(parse(&v.to_string()).unwrap()).unwrap();
    session.run_to_end(&mut ()).expect("the run itself succeeds");
    assert!(session.halted().is_some_and(|m| m.contains("FAILED")), "{:?}", session.halted());
    assert!(session.run_for(1000, &mut ()).is_err(), "a FAILED job takes no more calls");
    let sim = session.sim();
    assert_eq!(sim.job_status(), JobStatus::Failed);
    assert_eq!(sim.trace().retained().last().map(|e| e.time.ms() - S), Some(4900), "nothing after the failure");
    assert_eq!(sim.next_event_time(), None);
    let r = report("none", sim, false);
    assert_eq!(r["job"]["status"], json!("FAILED"));
    assert_eq!((r["job"]["attempt"].as_u64(), r["job"]["restarts"].as_u64()), (Some(1), Some(0)));

    // Without checkpointing Flink's default is no restart either; fixed delay stops after its attempts.
    let mut v = base();
    v["checkpointing"] = json!({"interval_ms": null});
    assert_eq!(sim_at(&v, 6000).job_status(), JobStatus::Failed);
    let mut v = base();
    v["checkpointing"]["restart"]["attempts"] = json!(1);
    v["commands"] = json!([
        {"at_ms": 3000, "command": "fail", "target": {"task_manager": 0}},
        {"at_ms": 6000, "command": "fail", "target": {"source_subtask": 0}}
    ]);
    let sim = sim_at(&v, 9000);
    assert_eq!((sim.job_status(), sim.job_run().restarts), (JobStatus::Failed, 1));
}

#[test]
fn the_same_scenario_gives_the_same_trace_whole_or_in_chunks() {
    let v = memory_loop();
    let whole = sim_at(&v, 30_000).trace().hash_hex();
    assert_eq!(sim_at(&v, 30_000).trace().hash_hex(), whole);
    let mut s = parse(&v.to_string()).unwrap().build().unwrap();
    for t in (0..=30_000).step_by(777) {
        s.run_until(ProcTime(S + t)).unwrap();
    }
    s.run_until(ProcTime(S + 30_000)).unwrap();
    assert_eq!(s.trace().hash_hex(), whole);
    let mut other = v.clone();
    other["seed"] = json!(7);
    assert_ne!(sim_at(&other, 30_000).trace().hash_hex(), whole, "the jitter and keys follow the seed");
}

#[test]
fn bad_blocks_and_targets_are_named() {
    let err = |edit: &dyn Fn(&mut Value)| {
        let mut v = base();
        edit(&mut v);
        match parse(&v.to_string()).and_then(|sc| Session::new(sc).map(|_| ())) {
            Err(e) => format!("{}: {}", e.path, e.message),
            Ok(()) => "ok".into(),
        }
    };
    assert!(err(&|v| v["checkpointing"]["interval_ms"] = json!(5)).starts_with("checkpointing.interval_ms: "));
    assert!(err(&|v| v["checkpointing"]["restart"] = json!({"type": "exponential_delay", "multiplier": 1.0}))
        .starts_with("checkpointing.restart.multiplier: "));
    assert!(err(&|v| v["checkpointing"]["restart"] = json!({"type": "none", "delay_ms": 1})).starts_with("checkpointing.restart"));
    assert!(err(&|v| v["flow"] = json!({"task_managers": 0})).starts_with("flow.task_managers: "));
    assert!(err(&|v| v["flow"] = json!({"record_scale": 0})).starts_with("flow.record_scale: "));
    assert!(err(&|v| v["flow"] = json!({"task_manager_memory_bytes": 0})).starts_with("flow.task_manager_memory_bytes: "));
    assert_eq!(
        err(&|v| v["commands"][0]["target"] = json!({"task_manager": 1})),
        "commands[0].target.task_manager: no TaskManager 1 (the job has 1)"
    );
    assert_eq!(
        err(&|v| v["commands"][0]["target"] = json!({"keyed_subtask": 3})),
        "commands[0].target.keyed_subtask: no keyed subtask 3 (the job has 1)"
    );
    assert!(err(&|v| v["commands"][0]["target"] = json!({"job_manager": 0})).starts_with("commands[0]"));
    assert_eq!(err(&|_| {}), "ok");
}

/// `{"command": "checkpoint"}` (Flink's REST `POST /jobs/:id/checkpoints`) completes a checkpoint
/// at once, between the periodic ones, and a restore goes back to it; the periodic grid goes on.
#[test]
fn a_triggered_checkpoint_completes_at_once_and_is_restored_from() {
    let mut v = base();
    v["commands"] = json!([
        {"at_ms": 4500, "command": "checkpoint"},
        {"at_ms": 4900, "command": "fail", "target": {"keyed_subtask": 0}},
        {"at_ms": 5200, "command": "checkpoint"}
    ]);
    let sim = sim_at(&v, 6000);
    let marks: Vec<(i64, String)> = events(&sim)
        .iter()
        .filter_map(|e| match &e.kind {
            TraceKind::CheckpointCompleted { id } => Some((e.time.ms() - S, format!("checkpoint {id}"))),
            TraceKind::JobRestarted { checkpoint, .. } => Some((e.time.ms() - S, format!("restored from {checkpoint:?}"))),
            _ => None,
        })
        .collect();
    // The one at 5200 comes while the job is down: there is nothing to checkpoint.
    let want =
        [(2000, "checkpoint 1"), (4000, "checkpoint 2"), (4500, "checkpoint 3"), (5500, "restored from Some(3)"), (6000, "checkpoint 4")];
    assert_eq!(marks, want.map(|(t, s)| (t, s.to_string())));
    // Read again from the offset of 4500: commands run first in their millisecond, so the
    // record read at 4500 comes after the checkpoint.
    let all = reads(&sim, 0);
    let before = all.iter().filter(|&&(t, _)| t < 4500).count() as u64;
    let again = all.iter().find(|&&(t, _)| t >= 5500).copied();
    assert_eq!(again, Some((5500, before)));
}

/// With two sources, the failure names the source subtask as every view does (`clicks·0`,
/// its source and its index there), not by the scenario's global `source_subtask` number.
#[test]
fn a_failed_source_subtask_is_named_by_its_source() {
    let mut v = base();
    v["topic"] = json!({"name": "views", "partitions": 1});
    v["second_input"] = json!({
        "topic": {"name": "clicks", "partitions": 1},
        "source": {"watermark": {"generator": {"kind": "bounded_out_of_orderness", "bound_ms": 2000}}},
        "mode": "union"
    });
    v["commands"] = json!([{"at_ms": 4900, "command": "fail", "target": {"source_subtask": 1}}]);
    let sim = sim_at(&v, 6000);
    let reason = events(&sim).iter().find_map(|e| match &e.kind {
        TraceKind::JobFailed { reason } => Some(reason.clone()),
        _ => None,
    });
    assert_eq!(reason.as_deref(), Some("source subtask clicks·0 failed (command)"));
}

/// Preset 18 while RESTARTING: records wait because no reader runs, not because a reader cannot
/// keep up (the WHY panel said "partition 0 … its reader cannot keep up" beside "the job is
/// RESTARTING"): no partition is slow, and the job's finding alone says why.
#[test]
fn while_the_job_is_down_no_partition_is_a_slow_reader() {
    use wmp::engine::diagnosis::classify::PartitionClass;
    use wmp::engine::diagnosis::finding::FindingKind;
    use wmp::engine::diagnosis::DiagnosisOptions;
    let mut s = parse(include_str!("../presets/restart_stalls_until_idle.json")).unwrap().build().unwrap();
    s.run_until(ProcTime(s.config().start_time.ms() + 122_000)).unwrap();
    assert_eq!(s.job_run().status, JobStatus::Restarting);
    let d = s.diagnose(&DiagnosisOptions::default());
    assert!(d.partitions.iter().all(|p| p.class != PartitionClass::Slow && p.slow_cause.is_none()), "{:?}", d.partitions);
    // The partition that was behind says why it still is ("steady" beside a backlog read as well).
    assert!(d.partitions.iter().any(|p| p.class == PartitionClass::Waiting), "{:?}", d.partitions);
    // On the page's clock, as the status strip says it (a UTC date read as another instant).
    let down = d.findings.iter().find(|f| f.kind == FindingKind::JobRestarts).expect("the job's finding");
    assert!(down.title.starts_with("The job is down (RESTARTING until 00:02:0") && down.title.contains(", in "), "{}", down.title);
    assert!(
        d.findings.iter().all(|f| f.kind != FindingKind::SlowPartition),
        "{:?}",
        d.findings.iter().map(|f| &f.title).collect::<Vec<_>>()
    );
    let ex = s.explain(0).unwrap();
    assert!(ex.reasons.iter().all(|r| !matches!(r, Reason::SlowPartition { .. })), "{}", ex.text);
    assert!(matches!(ex.reasons[0], Reason::JobDown { .. }), "{}", ex.text);
}

/// A backlog that waits for the restart is not "silent, with no idle timeout" (the WHY panel
/// proposed withIdleness for a partition whose records wait unread while the job is down).
#[test]
fn a_partition_waiting_for_the_restart_is_not_called_silent() {
    let mut s = parse(include_str!("../presets/backfill_taskmanager_lost.json")).unwrap().build().unwrap();
    s.run_until(ProcTime(s.config().start_time.ms() + 900_000)).unwrap();
    assert_eq!(s.job_run().status, JobStatus::Restarting);
    for w in 0..2 {
        let ex = s.explain(w).unwrap();
        assert!(ex.reasons.iter().all(|r| !matches!(r, Reason::SplitSilentNoIdleTimeout { .. })), "{}", ex.text);
    }
}

/// The restarted sources report for alignment first one update interval after they open, as at
/// the job start (reference §5.1), not on the old tasks' grid: with reports every second and the
/// restart at 5500, the new coordinator (its aggregates are not checkpointed) hears the first
/// report at 6500, not 6000.
#[test]
fn the_restarted_sources_report_for_alignment_one_interval_after_the_restart() {
    let mut v = base();
    v["source"]["watermark"]["alignment"] = json!({"group": "g", "max_drift_ms": 20_000, "update_interval_ms": 1_000});
    assert!(sim_at(&v, 5_000).alignment_group_min(0).is_some(), "reported before the failure");
    assert_eq!(sim_at(&v, 6_400).alignment_group_min(0), None, "nothing reported yet after the restart");
    assert!(sim_at(&v, 6_500).alignment_group_min(0).is_some());
}
