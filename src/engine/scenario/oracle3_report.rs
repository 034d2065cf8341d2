//! The oracle3 result shape (`tools/oracle/README.md`, "oracle3 output"): what the driver saw
//! (`reads`, alignment snapshots, checkpoints, failures, restored offsets) and what the engine's
//! trace says happened at each step, assembled by the oracle's own rules (`flink_oracle3.py`,
//! `assemble`), so that a run compares field by field with `tests/golden/oracle3/expected`.
//!
//! Every entry carries its `step` (the step whose trace range holds it: a step's effects include
//! its settle) and `attempt` (0, then 1 after a restart). Within a step the oracle lists the
//! source subtasks' entries first, in (source, subtask) order, then the keyed task's; the lists
//! below follow that order. One `pauseOrResumeSplits` call is one entry: the engine traces the
//! splits a single check paused or resumed one after the other, at one instant, for one subtask.
//! The keyed operator's watermark at a record is the last one before it in the trace: records
//! go straight to the window operator here (no channel latency, no capacity limit).

use super::oracle3::{Oracle3Run, Oracle3Scenario};
use crate::engine::sim::Simulation;
use crate::engine::status::WatermarkStatus;
use crate::engine::time::EventTime;
use crate::engine::trace::TraceKind;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};

/// `(source, split)` of engine partition `p`.
fn split_id(sim: &Simulation, p: u32) -> (u8, u32) {
    sim.partitions().get(p as usize).map_or((0, p), |x| (x.input, x.index_in_topic))
}

/// `(source, subtask within the source)` of global source subtask `s`.
fn subtask_id(sim: &Simulation, s: u32) -> (u8, u32) {
    sim.sources().get(s as usize).map_or((0, s), |x| (x.input, x.index_in_source))
}

fn status_word(s: WatermarkStatus) -> &'static str {
    if s.is_idle() {
        "idle"
    } else {
        "active"
    }
}

/// The alignment state of every aligned subtask that has not ended, as the oracle reads the
/// `SourceOperator`'s fields at the start of a step.
pub fn snapshots(sim: &Simulation, step: usize, attempt: u32) -> Vec<Value> {
    let mut out = Vec::new();
    for src in sim.sources().iter().filter(|s| !s.finished) {
        let Some(a) = &src.alignment else { continue };
        let mut splits: Vec<(u32, Value)> = (0..src.splits.len())
            .filter(|&i| !src.splits[i].released)
            .filter_map(|i| {
                let sampler = a.split_sampler(i)?;
                let split = split_id(sim, src.splits[i].partition).1;
                let v = json!({"split": split, "latest": sampler.latest().ms(), "oldest": sampler.oldest().ms(),
                               "paused": a.paused[i], "idle": src.split_idle(i)});
                Some((split, v))
            })
            .collect();
        splits.sort_by_key(|(p, _)| *p);
        let o = a.output_sampler();
        out.push(json!({
            "step": step, "attempt": attempt, "src": src.input, "subtask": src.index_in_source,
            "mode": if src.reads() { "READING" } else { "WAITING_FOR_ALIGNMENT" },
            "max_desired": a.max_desired.ms(), "latest": o.latest().ms(), "oldest": o.oldest().ms(),
            "idle": src.output.is_idle(), "drift_metric": a.drift_ms(),
            "splits": splits.into_iter().map(|(_, v)| v).collect::<Vec<_>>(),
        }));
    }
    out
}

/// Every reader's state in the last completed checkpoint: its splits with their offsets.
pub fn checkpoint_offsets(sim: &Simulation) -> Vec<Value> {
    let offsets = sim.failover().coordinator.last.as_ref().map(|c| c.offsets.clone()).unwrap_or_default();
    sim.sources()
        .iter()
        .map(|src| {
            let mut splits: Vec<[u64; 2]> = src
                .splits
                .iter()
                .map(|sp| [u64::from(split_id(sim, sp.partition).1), offsets.get(sp.partition as usize).copied().unwrap_or(0)])
                .collect();
            splits.sort_unstable();
            json!({"src": src.input, "subtask": src.index_in_source, "splits": splits})
        })
        .collect()
}

/// The splits each reader of the new attempt got back, with the offsets it reads from.
pub fn restored_splits(sim: &Simulation, step: usize, attempt: u32) -> Vec<Value> {
    sim.sources()
        .iter()
        .filter(|src| !src.splits.is_empty())
        .map(|src| {
            let mut splits: Vec<[u64; 2]> = src
                .splits
                .iter()
                .map(|sp| [u64::from(split_id(sim, sp.partition).1), sim.partitions()[sp.partition as usize].read_offset()])
                .collect();
            splits.sort_unstable();
            json!({"step": step, "attempt": attempt, "src": src.input, "subtask": src.index_in_source, "splits": splits})
        })
        .collect()
}

/// One `pauseOrResumeSplits` call being assembled.
struct PauseCall {
    seq: u64,
    subtask: u32,
    at: i64,
    entry: (usize, u32, Vec<u32>, Vec<u32>),
}

/// The run in the shape of the oracle's output.
pub fn report(sc: &Oracle3Scenario, run: &Oracle3Run) -> Value {
    let sim = &run.sim;
    let keys = sim.keys();
    let starts = &run.step_starts;
    let step_of = |seq: u64| starts.partition_point(|&c| c <= seq).checked_sub(1);
    let (mut emitted, mut records, mut watermarks, mut statuses, mut windows, mut late) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut calls: Vec<(usize, u32, Value)> = Vec::new();
    let mut call: Option<PauseCall> = None;
    let mut per_subtask: BTreeMap<u32, (Vec<Value>, Vec<Value>)> = BTreeMap::new();
    let mut fired: BTreeMap<(String, i64, i64), u32> = BTreeMap::new();
    let (mut attempt, mut keyed_wm) = (0u32, EventTime::MIN);
    let finish = |c: PauseCall, calls: &mut Vec<(usize, u32, Value)>| {
        let (step, attempt, mut pause, mut resume) = c.entry;
        pause.sort_unstable();
        resume.sort_unstable();
        let (src, subtask) = subtask_id(sim, c.subtask);
        calls.push((
            step,
            c.subtask,
            json!({"step": step, "attempt": attempt, "src": src, "subtask": subtask, "pause": pause, "resume": resume}),
        ));
    };
    for e in sim.trace().retained() {
        if let TraceKind::JobRestarted { attempt: a, .. } = e.kind {
            attempt = a - 1;
            keyed_wm = EventTime::MIN;
        }
        let Some(step) = step_of(e.seq) else { continue };
        let head = |v: Value| {
            let mut v = v;
            v["step"] = json!(step);
            v["attempt"] = json!(attempt);
            v
        };
        match e.kind {
            TraceKind::SplitPaused { subtask, partition, .. } | TraceKind::SplitResumed { subtask, partition } => {
                let paused = matches!(e.kind, TraceKind::SplitPaused { .. });
                let split = split_id(sim, partition).1;
                let same = call.as_ref().is_some_and(|c| c.seq + 1 == e.seq && c.subtask == subtask && c.at == e.time.ms());
                if !same {
                    if let Some(c) = call.take() {
                        finish(c, &mut calls);
                    }
                    call = Some(PauseCall { seq: e.seq, subtask, at: e.time.ms(), entry: (step, attempt, Vec::new(), Vec::new()) });
                }
                if let Some(c) = &mut call {
                    c.seq = e.seq;
                    if paused {
                        c.entry.2.push(split);
                    } else {
                        c.entry.3.push(split);
                    }
                }
                continue;
            }
            TraceKind::RecordRead { subtask, partition, offset, ts, key } => {
                let (src, split) = split_id(sim, partition);
                let sub = subtask_id(sim, subtask).1;
                let v = head(json!({"src": src, "subtask": sub, "split": split, "idx": offset, "ts": ts.ms()}));
                emitted.push((step, subtask, v));
                let k = keys.name(key);
                records.push(head(json!({"src": src, "split": split, "idx": offset, "ts": ts.ms(), "key": k, "wm": keyed_wm.ms()})));
            }
            TraceKind::OperatorWatermark { subtask: 0, watermark } => {
                keyed_wm = watermark;
                watermarks.push(head(json!({"wm": watermark.ms()})));
            }
            TraceKind::OperatorStatus { subtask: 0, status } => statuses.push(head(json!({"status": status_word(status)}))),
            TraceKind::WindowFired { key, start, end, count, sum, watermark, .. } => {
                let k = keys.name(key).to_string();
                let n = fired.entry((k.clone(), start.ms(), end.ms())).or_insert(0);
                windows.push(head(json!({"key": k, "window_start": start.ms(), "window_end": end.ms(), "count": count, "sum": sum,
                    "wm": watermark.ms(), "firing": *n})));
                *n += 1;
            }
            TraceKind::LateRecord { partition, offset, ts, key, watermark, .. } => {
                let (src, split) = split_id(sim, partition);
                late.push(head(
                    json!({"src": src, "split": split, "idx": offset, "ts": ts.ms(), "key": keys.name(key), "wm": watermark.ms()}),
                ));
            }
            TraceKind::SourceWatermark { subtask, watermark } => {
                per_subtask.entry(subtask).or_default().0.push(head(json!({"wm": watermark.ms()})));
            }
            TraceKind::SourceStatus { subtask, status } => {
                per_subtask.entry(subtask).or_default().1.push(head(json!({"status": status_word(status)})));
            }
            _ => {}
        }
    }
    if let Some(c) = call.take() {
        finish(c, &mut calls);
    }
    // Within a step: the source subtasks' entries in subtask order (stable: each in its order).
    emitted.sort_by_key(|(step, s, _)| (*step, *s));
    calls.sort_by_key(|(step, s, _)| (*step, *s));
    let emitted: Vec<Value> = emitted.into_iter().map(|(_, _, v)| v).collect();
    let sources: Vec<Value> = sim
        .sources()
        .iter()
        .map(|s| {
            let (w, st) = per_subtask.remove(&s.index).unwrap_or_default();
            json!({"src": s.input, "subtask": s.index_in_source, "watermarks": w, "statuses": st})
        })
        .collect();
    let mut out = json!({
        "scenario": sc.name,
        "emitted": emitted,
        "reads": run.reads,
        "pause_resume": calls.into_iter().map(|(_, _, v)| v).collect::<Vec<_>>(),
        "alignment": run.alignment,
        "records": records,
        "watermarks": watermarks,
        "statuses": statuses,
        "windows": windows,
        "late": late,
        "sources": sources,
        "trace_hash": sim.trace().hash_hex(),
    });
    if sc.aligned() {
        spreads(sc, &run.alignment, &mut out);
    }
    if sc.checkpointing.is_some() {
        out["checkpoints"] = json!(run.checkpoints);
        out["failures"] = json!(run.failures);
        out["restored"] = json!(run.restored);
        out["replayed"] = json!(replayed(&out["emitted"]));
    }
    out["unread"] = json!(unread(sc, &out["emitted"], &run.restored));
    out
}

fn wide(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

fn key_of(v: &Value) -> (i64, i64, i64) {
    (v["src"].as_i64().unwrap_or(0), v["split"].as_i64().unwrap_or(0), v["idx"].as_i64().unwrap_or(0))
}

/// Records emitted again by a later attempt than the one that first emitted them.
fn replayed(emitted: &Value) -> Vec<Value> {
    let mut first: BTreeMap<(i64, i64, i64), i64> = BTreeMap::new();
    let mut out = Vec::new();
    for e in emitted.as_array().into_iter().flatten() {
        let attempt = e["attempt"].as_i64().unwrap_or(0);
        let seen = *first.entry(key_of(e)).or_insert(attempt);
        if seen < attempt {
            out.push(json!({"step": e["step"], "attempt": attempt, "src": e["src"], "split": e["split"], "idx": e["idx"], "ts": e["ts"]}));
        }
    }
    out
}

/// Records the last attempt neither emitted nor restored past: what was never read.
fn unread(sc: &Oracle3Scenario, emitted: &Value, restored: &[Value]) -> Vec<Value> {
    let emitted = emitted.as_array().map(Vec::as_slice).unwrap_or_default();
    let last = emitted.iter().chain(restored).filter_map(|e| e["attempt"].as_i64()).max().unwrap_or(0);
    let mut done: BTreeSet<(i64, i64, i64)> = emitted.iter().filter(|e| e["attempt"].as_i64() == Some(last)).map(key_of).collect();
    for r in restored.iter().filter(|r| r["attempt"].as_i64() == Some(last)) {
        let src = r["src"].as_i64().unwrap_or(0);
        for pair in r["splits"].as_array().into_iter().flatten() {
            let (p, off) = (pair[0].as_i64().unwrap_or(0), pair[1].as_i64().unwrap_or(0));
            done.extend((0..off).map(|i| (src, p, i)));
        }
    }
    let mut out = Vec::new();
    for (s, src) in sc.sources.iter().enumerate() {
        for (p, split) in src.splits.iter().enumerate() {
            for (i, e) in split.iter().enumerate() {
                let id = (wide(s), wide(p), wide(i));
                if !done.contains(&id) {
                    out.push(json!({"src": s, "split": p, "idx": i, "ts": e.ts}));
                }
            }
        }
    }
    out
}

/// Per step and group, the spread (max − min) of the non-idle splits' latest watermarks; the
/// largest per group; the largest `watermarkAlignmentDrift` seen.
fn spreads(sc: &Oracle3Scenario, snaps: &[Value], out: &mut Value) {
    let group_of =
        |src: i64| usize::try_from(src).ok().and_then(|s| sc.sources.get(s)).and_then(|s| s.alignment.as_ref()).map(|a| a.group.clone());
    let mut by_step: BTreeMap<(i64, String), Vec<i64>> = BTreeMap::new();
    for snap in snaps {
        let Some(group) = group_of(snap["src"].as_i64().unwrap_or(0)) else { continue };
        let vals = by_step.entry((snap["step"].as_i64().unwrap_or(0), group)).or_default();
        for sp in snap["splits"].as_array().into_iter().flatten() {
            let latest = sp["latest"].as_i64().unwrap_or(i64::MIN);
            if sp["idle"] == false && latest != i64::MIN {
                vals.push(latest);
            }
        }
    }
    let mut spread = Vec::new();
    let mut max: BTreeMap<String, Option<i64>> =
        sc.sources.iter().filter_map(|s| s.alignment.as_ref()).map(|a| (a.group.clone(), None)).collect();
    for ((step, group), vals) in by_step {
        if vals.len() >= 2 {
            let v = vals.iter().max().unwrap_or(&0).saturating_sub(*vals.iter().min().unwrap_or(&0));
            spread.push(json!({"step": step, "group": group, "spread": v}));
            let m = max.entry(group).or_default();
            *m = Some(m.map_or(v, |x| x.max(v)));
        }
    }
    out["split_spread"] = json!(spread);
    out["max_split_spread"] = json!(max);
    out["max_drift_metric"] = json!(snaps.iter().filter_map(|s| s["drift_metric"].as_i64()).max());
}
