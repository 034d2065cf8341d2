//! Restores of splits whose reading had ended (`engine::stopping_offset`): after the end of
//! input or a split's release that came after the checkpoint, the restored reader reads the
//! split again up to where it ended and ends there again; one that ended before the checkpoint
//! ends again at once. Without a checkpoint the start offsets are resolved again.
//!
//! The job is `common::restore_job`'s: checkpoints at 2000 and 4000, a keyed subtask killed at
//! 4900 and the restart at 5500.

mod common;

use common::restore_job::{fail_at, job as base};
use serde_json::{json, Value};
use wmp::engine::diagnosis::classify::PartitionClass;
use wmp::engine::scenario::build::parse;
use wmp::engine::sim::Simulation;
use wmp::engine::time::ProcTime;
use wmp::engine::trace::TraceKind;

const S: i64 = wmp::engine::scenario::schema::DEFAULT_START_MS;

fn built(v: &Value) -> Simulation {
    parse(&v.to_string()).expect("valid").build().expect("builds")
}

fn run(sim: &mut Simulation, at_ms: i64) {
    sim.run_until(ProcTime(S + at_ms)).expect("runs");
}

/// Offsets read from partition 0, with the relative time they were read at.
fn reads(sim: &Simulation) -> Vec<(i64, u64)> {
    (sim.trace().retained())
        .filter_map(|e| match e.kind {
            TraceKind::RecordRead { offset, .. } => Some((e.time.ms() - S, offset)),
            _ => None,
        })
        .collect()
}

fn read_at(sim: &Simulation, at_ms: i64) -> Vec<u64> {
    reads(sim).into_iter().filter(|&(t, _)| t == at_ms).map(|(_, o)| o).collect()
}

/// How many records were read up to `until_ms` (the offset read next after it).
fn read_by(sim: &Simulation, until_ms: i64) -> u64 {
    reads(sim).iter().filter(|&&(t, _)| t <= until_ms).count() as u64
}

/// The position in the trace of the first event at `at_ms` matching `f`.
fn position(sim: &Simulation, at_ms: i64, f: impl Fn(&TraceKind) -> bool) -> Option<usize> {
    sim.trace().retained().position(|e| e.time.ms() - S == at_ms && f(&e.kind))
}

fn ended(k: &TraceKind) -> bool {
    matches!(k, TraceKind::SourceWatermark { watermark, .. } if *watermark == wmp::engine::time::EventTime::MAX)
}

/// (start, count) of the windows fired at `at_ms`.
fn fired_at(sim: &Simulation, at_ms: i64) -> Vec<(i64, u64)> {
    sim.downstream().sink.results().filter(|r| r.time.ms() - S == at_ms).map(|r| (r.start.0 - S, r.agg.count)).collect()
}

#[test]
fn a_restart_after_the_end_of_input_reads_the_replayed_records_before_ending_it_again() {
    let mut sim = built(&base(json!([{"at_ms": 4500, "command": "end_of_input"}, fail_at(4900)])));
    run(&mut sim, 5600);
    let (checkpointed, at_end) = (read_by(&sim, 4000), read_by(&sim, 4499));
    assert_eq!(read_at(&sim, 5500), (checkpointed..at_end).collect::<Vec<_>>(), "from the checkpoint to where the input ended");
    let last_read = position(&sim, 5500, |k| matches!(k, TraceKind::RecordRead { .. })).unwrap();
    assert!(position(&sim, 5500, ended).unwrap() > last_read, "then Long.MAX_VALUE again");
    assert_eq!(fired_at(&sim, 5500), fired_at(&sim, 4500), "the same windows fire again, with the same contents");
    let late_after: Vec<u64> = (sim.trace().retained())
        .filter(|e| e.time.ms() - S >= 5500)
        .filter_map(|e| match e.kind {
            TraceKind::LateRecord { offset, .. } => Some(offset),
            _ => None,
        })
        .collect();
    assert!(late_after.iter().all(|&o| o >= at_end), "only what came after the end is late, as before the failure: {late_after:?}");
    assert_eq!(read_at(&sim, 5501).first(), Some(&at_end), "what waited beyond the end is read at the next instant");
}

#[test]
fn a_restore_from_a_checkpoint_after_the_end_of_input_ends_it_at_once() {
    let mut sim = built(&base(json!([{"at_ms": 3500, "command": "end_of_input"}, fail_at(4900)])));
    run(&mut sim, 5600);
    let first_read = position(&sim, 5500, |k| matches!(k, TraceKind::RecordRead { .. })).unwrap();
    assert!(position(&sim, 5500, ended).unwrap() < first_read, "Long.MAX_VALUE before anything is read again");
}

#[test]
fn a_finished_reader_reads_its_split_again_up_to_its_end_and_finishes_again() {
    let mut sim = built(&base(json!([fail_at(4900)])));
    run(&mut sim, 4500);
    sim.end_input_of(0).expect("ends");
    run(&mut sim, 8000);
    let (checkpointed, at_end) = (read_by(&sim, 4000), read_by(&sim, 4500));
    assert_eq!(read_at(&sim, 5500), (checkpointed..at_end).collect::<Vec<_>>());
    assert!(position(&sim, 5500, ended).is_some(), "Long.MAX_VALUE once the split is read again");
    assert!(reads(&sim).iter().all(|&(t, _)| t <= 5500), "then the finished reader reads nothing more");
    assert_eq!(sim.downstream().late_total(), 0);
    assert_eq!(fired_at(&sim, 5500), fired_at(&sim, 4500));
}

#[test]
fn a_split_released_after_the_checkpoint_is_read_again_up_to_its_release() {
    let mut sim = built(&base(json!([{"at_ms": 4500, "command": "release_split", "partition": 0}, fail_at(4900)])));
    run(&mut sim, 8000);
    let (checkpointed, released) = (read_by(&sim, 4000), read_by(&sim, 4499));
    assert_eq!(read_at(&sim, 5500), (checkpointed..released).collect::<Vec<_>>(), "the records lost before");
    let last_read = position(&sim, 5500, |k| matches!(k, TraceKind::RecordRead { .. })).unwrap();
    let release = position(&sim, 5500, |k| matches!(k, TraceKind::SplitReleased { .. })).expect("released again");
    assert!(release > last_read);
    assert!(reads(&sim).iter().all(|&(t, _)| t <= 5500), "nothing beyond the release is read");
    assert_eq!(sim.records_replayed(), released - checkpointed);
}

#[test]
fn a_split_released_before_the_checkpoint_stays_released() {
    let mut sim = built(&base(json!([{"at_ms": 3500, "command": "release_split", "partition": 0}, fail_at(4900)])));
    run(&mut sim, 8000);
    assert!(reads(&sim).iter().all(|&(t, _)| t < 3500));
    assert_eq!(position(&sim, 5500, |k| matches!(k, TraceKind::SplitAdded { .. })), None, "not in the checkpoint's reader state");
}

#[test]
fn without_a_checkpoint_latest_is_resolved_again_at_the_restart() {
    let mut v = base(json!([fail_at(4900)]));
    v["checkpointing"] = json!({"restart": {"type": "fixed_delay", "delay_ms": 600}});
    v["source"]["start_offset"] = json!("latest");
    let mut sim = built(&v);
    run(&mut sim, 5400);
    let produced = sim.partitions()[0].produced;
    run(&mut sim, 8000);
    let after: Vec<u64> = reads(&sim).into_iter().filter(|&(t, _)| t >= 5500).map(|(_, o)| o).collect();
    assert_eq!(after[0], produced, "the log's end at the restart: what was produced while the job was down is skipped");
    assert_eq!(sim.records_replayed(), 0);
}

/// Late records read after `from_ms`, by (partition, offset).
fn late_after(sim: &Simulation, from_ms: i64) -> Vec<(u32, u64)> {
    (sim.trace().retained())
        .filter(|e| e.time.ms() - S >= from_ms)
        .filter_map(|e| match e.kind {
            TraceKind::LateRecord { partition, offset, .. } => Some((partition, offset)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_subtask_whose_split_was_released_before_its_end_of_input_waits_for_that_split_too() {
    let cmds =
        json!([{"at_ms": 4300, "command": "release_split", "partition": 0}, {"at_ms": 4500, "command": "end_of_input"}, fail_at(4900)]);
    let mut sim = built(&base(cmds));
    run(&mut sim, 6000);
    let (checkpointed, released) = (read_by(&sim, 4000), read_by(&sim, 4299));
    assert_eq!(read_at(&sim, 5500), (checkpointed..released).collect::<Vec<_>>());
    let last_read = position(&sim, 5500, |k| matches!(k, TraceKind::RecordRead { .. })).unwrap();
    assert!(position(&sim, 5500, ended).unwrap() > last_read, "Long.MAX_VALUE only after the released split is read again");
    assert_eq!(late_after(&sim, 5500), vec![], "nothing late: the split is released again, nothing read after it");
}

/// Two partitions; partition 1 gets a record only after the end of input.
fn after_the_end_on_partition_1() -> Value {
    let mut v = base(json!([
        {"at_ms": 4500, "command": "end_of_input"},
        {"at_ms": 4600, "command": "produce", "partition": 1, "records": [{"key": "after-the-end"}]},
        fail_at(4900)
    ]));
    v["topic"]["partitions"] = json!(2);
    v
}

#[test]
fn a_split_with_nothing_to_read_again_still_waits_at_its_end_for_its_subtask() {
    // Late before the failure, late after.
    let mut sim = built(&after_the_end_on_partition_1());
    run(&mut sim, 6000);
    assert_eq!(late_after(&sim, 0).iter().filter(|l| l.0 == 1).count(), 2, "late before the failure, and after the restore");
    assert!(late_after(&sim, 5500).contains(&(1, 0)), "{:?}", late_after(&sim, 5500));
}

#[test]
fn a_second_failure_while_reading_again_keeps_the_finished_readers_end() {
    // At 5 records/s the reader is still reading again (offsets 19 … 21) when the job fails again.
    let mut v = base(json!([fail_at(4900), fail_at(5800)]));
    v["source"]["read_rate_per_s"] = json!(5);
    let mut sim = built(&v);
    run(&mut sim, 4500);
    let at_end = read_by(&sim, 4500);
    sim.end_input_of(0).expect("ends");
    run(&mut sim, 12_000);
    assert_eq!(sim.failover().restarts(), 2);
    assert!(reads(&sim).iter().all(|&(_, o)| o < at_end), "the finished reader never reads past its end");
    let after = (sim.trace().retained()).filter(|e| e.time.ms() - S > 6400).any(|e| ended(&e.kind));
    assert!(after, "and finishes again after the second restore");
}

#[test]
fn latest_is_resolved_again_at_every_restart_without_a_checkpoint() {
    let mut v = base(json!([fail_at(4900), fail_at(7000)]));
    v["checkpointing"] = json!({"restart": {"type": "fixed_delay", "delay_ms": 600, "attempts": 2}});
    v["source"]["start_offset"] = json!("latest");
    let mut sim = built(&v);
    run(&mut sim, 7500);
    let produced = sim.partitions()[0].produced;
    run(&mut sim, 9000);
    assert_eq!(reads(&sim).into_iter().find(|&(t, _)| t >= 7600).map(|(_, o)| o), Some(produced));
    assert_eq!(sim.records_replayed(), 0);
}

/// The base job read at 5 records/s: a restore from the checkpoint at 4000 is still reading
/// again at 5800.
fn slow(commands: Value) -> Simulation {
    let mut v = base(commands);
    v["source"]["read_rate_per_s"] = json!(5);
    built(&v)
}

fn ended_after(sim: &Simulation, from_ms: i64) -> bool {
    sim.trace().retained().any(|e| e.time.ms() - S > from_ms && ended(&e.kind))
}

#[test]
fn an_end_of_input_while_the_job_is_down_fires_nothing_until_the_restore() {
    let mut sim = built(&base(json!([fail_at(4900), {"at_ms": 5000, "command": "end_of_input"}])));
    run(&mut sim, 6000);
    assert!(sim.downstream().sink.results().all(|r| r.time.ms() - S <= 4900 || r.time.ms() - S >= 5500));
    assert!(ended_after(&sim, 5499), "the restored job ends its input once it has read again");
}

#[test]
fn a_split_released_while_read_again_no_longer_holds_its_subtasks_end() {
    let cmds = json!([
        {"at_ms": 4500, "command": "end_of_input"},
        fail_at(4900),
        {"at_ms": 5750, "command": "release_split", "partition": 0},
        fail_at(5800)
    ]);
    let mut sim = slow(cmds);
    run(&mut sim, 9000);
    assert_eq!(sim.failover().restarts(), 2);
    assert!(ended_after(&sim, 6400), "the second restore ends the input again");
}

#[test]
fn a_partition_removed_while_read_again_stays_released_after_another_restore() {
    let cmds = json!([
        {"at_ms": 4500, "command": "release_split", "partition": 0},
        fail_at(4900),
        {"at_ms": 5750, "command": "remove_partition", "partition": 0},
        fail_at(5800)
    ]);
    let mut sim = slow(cmds);
    run(&mut sim, 9000);
    assert_eq!(sim.failover().restarts(), 2);
    assert!(reads(&sim).iter().all(|&(t, _)| t < 6400), "nothing reads the removed partition");
}

#[test]
fn a_partition_added_while_read_again_waits_for_its_subtasks_end_too() {
    let cmds = json!([
        {"at_ms": 4500, "command": "end_of_input"},
        fail_at(4900),
        {"at_ms": 5600, "command": "add_partition"},
        {"at_ms": 5650, "command": "produce", "partition": 1, "records": [{"key": "new"}]}
    ]);
    let mut sim = slow(cmds);
    run(&mut sim, 5700);
    assert!(!ended_after(&sim, 5500), "still reading partition 0 again");
    let p1 = &sim.partitions()[1];
    assert_eq!((p1.unread(), p1.readable()), (1, 0), "its record waits for the end of input, as it came after it");
    run(&mut sim, 6200);
    assert!(ended_after(&sim, 5500));
    assert_eq!(sim.partitions()[1].readable(), 1, "then it can be read (late)");
}

#[test]
fn a_split_held_at_its_end_does_not_hold_back_its_siblings_alignment() {
    // Partition 0's generator saw ts 4900 before the checkpoint; after it, only a late ts 110.
    // The restored generator starts afresh, so the split held at its end has a watermark far
    // behind partition 1's replay: kept in the subtask's watermark, it would pause partition 1
    // by split alignment (drift 1 s) short of its end, and the input would never end again.
    // Finished at its end, as Flink's bounded split is, it holds nothing back.
    let mut v = base(json!([
        {"at_ms": 1000, "command": "produce", "partition": 0, "records": [{"ts_offset_ms": 3900}]},
        {"at_ms": 4010, "command": "produce", "partition": 0, "records": [{"ts_offset_ms": -3900}]},
        {"at_ms": 5900, "command": "end_of_input"},
        fail_at(5950)
    ]));
    v["topic"]["partitions"] = json!(2);
    v["producers"][0]["partitions"] = json!(1);
    v["source"]["read_rate_per_s"] = json!(20);
    v["source"]["watermark"]["alignment"] = json!({"group": "g", "max_drift_ms": 1000, "update_interval_ms": 100});
    let mut sim = built(&v);
    run(&mut sim, 7000);
    assert!(!ended_after(&sim, 6549), "still reading partition 1 again");
    let held = sim.split_watermarks().find(|w| w.0 == 0).expect("partition 0").1;
    let rose = (sim.trace().retained()).filter(|e| e.time.ms() - S > 6550).any(|e| match e.kind {
        TraceKind::SourceWatermark { watermark, .. } => watermark > held,
        _ => false,
    });
    assert!(rose, "the subtask's watermark follows partition 1, above partition 0's {held:?}");
    let class = |p: u32| sim.partition_facts().into_iter().find(|f| f.partition == p).map(|f| f.class);
    assert_eq!(class(0), Some(PartitionClass::Waiting), "waits at its end, not a silent partition holding the watermark");
    let at_its_end: Vec<bool> = sim.snapshot().splits.iter().map(|sp| sp.at_its_end).collect();
    assert_eq!(at_its_end, [true, false], "as the snapshot says");
    run(&mut sim, 12_000);
    assert_eq!(sim.failover().restarts(), 1);
    assert!(ended_after(&sim, 6549), "the restored subtask ends its input again");
}

#[test]
fn a_split_finished_at_its_end_keeps_its_watermark_and_idleness_for_after_the_end() {
    // Partition 1 has nothing to read again: it waits at its end while partition 0 is read
    // again (5 records/s), and its idle timeout passes meanwhile.
    let mut v = base(json!([
        {"at_ms": 1000, "command": "produce", "partition": 1, "records": [{"key": "once"}]},
        {"at_ms": 4500, "command": "end_of_input"},
        fail_at(4900)
    ]));
    v["topic"]["partitions"] = json!(2);
    v["source"]["read_rate_per_s"] = json!(5);
    v["source"]["watermark"]["idle_timeout_ms"] = json!(100);
    let mut sim = built(&v);
    run(&mut sim, 6000);
    assert!(!ended_after(&sim, 5499), "still reading partition 0 again");
    let p1 = |sim: &Simulation| sim.split_watermarks().find(|w| w.0 == 1).map(|w| w.2);
    assert_eq!(p1(&sim), Some(true), "idle while it waits at its end");
    run(&mut sim, 9000);
    assert!(ended_after(&sim, 5499));
    assert_eq!(p1(&sim), Some(true), "and still idle once the input has ended again");
}

#[test]
fn records_beyond_a_splits_end_are_not_lag_while_it_waits_there() {
    let mut v = after_the_end_on_partition_1();
    v["source"]["read_rate_per_s"] = json!(5);
    let mut sim = built(&v);
    run(&mut sim, 6000);
    assert!(!ended_after(&sim, 5499), "still reading partition 0 again");
    let p1 = sim.partition_facts().into_iter().find(|f| f.partition == 1).expect("partition 1");
    assert_eq!(p1.unread, 0, "its record waits beyond its end");
    assert_eq!((p1.class, p1.slow_cause), (PartitionClass::Waiting, None), "not a reader that cannot keep up");
}

#[test]
fn a_split_paused_by_alignment_is_resumed_at_the_end_of_input_and_reads_on() {
    // Partition 1 runs 5 s ahead (drift 1 s): paused, its second record waits until the end.
    let mut v = base(json!([
        {"at_ms": 1000, "command": "produce", "partition": 1, "records": [{"ts_offset_ms": 5000}]},
        {"at_ms": 2000, "command": "produce", "partition": 1, "records": [{"ts_offset_ms": 5000}]},
        {"at_ms": 3000, "command": "end_of_input"}
    ]));
    v["topic"]["partitions"] = json!(2);
    v["source"]["watermark"]["alignment"] = json!({"group": "g", "max_drift_ms": 1000, "update_interval_ms": 100});
    let mut sim = built(&v);
    run(&mut sim, 2900);
    assert!(sim.snapshot().splits[1].paused, "paused by split alignment");
    let p1_reads =
        |sim: &Simulation| (sim.trace().retained()).filter(|e| matches!(e.kind, TraceKind::RecordRead { partition: 1, .. })).count();
    assert_eq!(p1_reads(&sim), 1);
    run(&mut sim, 3100);
    assert!(!sim.snapshot().splits[1].paused, "resumed at the end of input");
    assert!(position(&sim, 3000, |k| matches!(k, TraceKind::SplitResumed { partition: 1, .. })).is_some());
    assert_eq!(p1_reads(&sim), 2, "and reads on past the end, as its sibling does");
}
