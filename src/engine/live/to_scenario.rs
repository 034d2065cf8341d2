//! "Turn into a scenario": a scenario with a live job's shape, to try fixes on. Taken from the
//! job: the source vertex that holds the watermark (else the first), its parallelism,
//! its split count when per-split watermarks are reported (one partition per split, else one
//! per subtask), each split on the subtask that read it (numbered so that Kafka's assignment,
//! as the playground makes it, gives it to that subtask), the keyed vertex's parallelism, a
//! tumbling window size read from a `TumblingEventTimeWindows(<ms>)` vertex name (else 1
//! minute), and which splits are stuck: the partitions of silent splits at the minimum
//! watermark get no producer, the others a steady one. A split at the minimum is not silent
//! when its subtask is back-pressured or emits with all its splits at the minimum (a slow
//! reader): the scenario says it cannot reproduce that. The simulation starts at the job's minimum watermark.
//! Not taken (the REST API does not show them): the watermark strategy (5 s bound, no idleness
//! assumed), rates, keys, back-pressure, the other source vertices.

use super::explain::explain;
use super::job::{LiveJob, LiveVertex};
use crate::engine::source::enumerator::split_owner;
use crate::engine::time::{EventTime, NO_WATERMARK};
use serde_json::{json, Value};

/// The simulated topic's name (Kafka's assignment starts at its hash).
const TOPIC: &str = "events";

/// A subtask that emitted a record this recently is not silent.
const SILENT_MS: i64 = 1_000;

/// One partition of the scenario: the live split's watermark, and whether its reader was silent.
#[derive(Clone, Copy, Default)]
struct Partition {
    watermark: Option<i64>,
    silent: bool,
    /// A live split's (else a gap the numbering left: subtasks with different split counts).
    live: bool,
}

/// The scenario JSON for `job` (valid for `Session::from_json`).
pub fn to_scenario(job: &LiveJob) -> Value {
    let holder = explain(job).holder;
    let sources: Vec<&LiveVertex> = job.vertices.iter().filter(|v| v.is_source()).collect();
    let source = holder.as_ref().and_then(|h| sources.iter().find(|v| v.id == h.vertex_id)).or(sources.first()).copied();
    let keyed = job.vertices.iter().find(|v| !v.is_source());
    let source_parallelism = source.map_or(1, |v| v.parallelism).max(1);
    let parts = source.map_or_else(Vec::new, |v| partitions(v, source_parallelism, holder.as_ref().map(|h| h.watermark)));
    let partitions = (parts.len() as u32).max(source_parallelism).max(1);
    let low = parts.iter().filter_map(|p| p.watermark).filter(|w| EventTime(*w) != NO_WATERMARK).min();
    let at_min = |p: &Partition| holder.as_ref().is_some_and(|h| p.watermark == Some(h.watermark));
    let numbered = |silent: bool| {
        (0..parts.len() as u32).filter(|&i| at_min(&parts[i as usize]) && parts[i as usize].silent == silent).collect::<Vec<_>>()
    };
    let (stuck, busy) = (numbered(true), numbered(false));
    let added: Vec<u32> = (0..parts.len() as u32).filter(|&i| !parts[i as usize].live).collect();
    let mut producers = vec![];
    if (stuck.len() as u32) < partitions {
        producers.push(json!({
            "partitions": { "all_except": stuck },
            "kind": "steady",
            "rate_per_s": 20,
            "jitter_ms": 1000,
            "keys": { "count": 50, "prefix": "key-" }
        }));
    }
    json!({
        "name": format!("live: {}", job.name),
        "description": description(job, source, sources.len(), [&stuck, &busy, &added]),
        "start_time_ms": low.map_or(crate::engine::scenario::schema::DEFAULT_START_MS, |w| w - w.rem_euclid(1000)),
        "duration_ms": 600_000,
        "topic": { "name": TOPIC, "partitions": partitions },
        "source": {
            "parallelism": source_parallelism.min(partitions),
            "watermark": { "generator": { "kind": "bounded_out_of_orderness", "bound_ms": 5000 }, "idle_timeout_ms": null }
        },
        "exchange": { "type": "hash" },
        "window": {
            "assigner": { "type": "tumbling", "size_ms": keyed.and_then(|v| window_size_ms(&v.name)).unwrap_or(60_000) },
            "parallelism": keyed.map_or(1, |v| v.parallelism),
            "aggregate": "count"
        },
        "producers": producers
    })
}

/// The source vertex's splits as partitions: the k-th split of subtask `s` (or the subtask
/// itself, without per-split watermarks) is the k-th partition Kafka's assignment gives `s`.
/// A split at the minimum `min` is silent unless its subtask is back-pressured, or emits while
/// every one of its splits is at the minimum (a slow reader): one that emits from another split,
/// ahead of it, says nothing of this one.
fn partitions(v: &LiveVertex, parallelism: u32, min: Option<i64>) -> Vec<Partition> {
    let mut out: Vec<Partition> = Vec::new();
    for s in &v.subtasks {
        let marks: Vec<Option<i64>> = if s.splits.is_empty() {
            vec![s.output_watermark]
        } else {
            s.splits.iter().map(|p| p.watermark.or(s.output_watermark)).collect()
        };
        let emits = s.source_idle_time_ms.is_some_and(|t| t < SILENT_MS) && marks.iter().all(|&m| m == min);
        let silent = !emits && s.back_pressured_ms_per_s.is_none_or(|b| b <= 0.0);
        let first = (0..parallelism).find(|&p| split_owner(TOPIC, p, parallelism) == s.index % parallelism).unwrap_or(0);
        for (k, watermark) in (0u32..).zip(marks) {
            let p = (first + k * parallelism) as usize;
            if out.len() <= p {
                out.resize(p + 1, Partition::default());
            }
            out[p] = Partition { watermark, silent, live: true };
        }
    }
    out
}

/// `stuck`, `busy` and `added`: the partitions of silent splits at the minimum, of splits at
/// the minimum that still read, and of none.
fn description(job: &LiveJob, source: Option<&LiveVertex>, sources: usize, [stuck, busy, added]: [&[u32]; 3]) -> String {
    let mut d = format!("Seeded from live job {} ({}): its shape and current watermarks", job.id, job.state);
    if let (Some(v), true) = (source, sources > 1) {
        d += &format!(", of its {sources} sources only {} (the one holding the minimum)", v.name);
    }
    if !stuck.is_empty() {
        d += &format!("; partitions {stuck:?} get no data, as the silent splits holding its minimum watermark did");
    }
    if !busy.is_empty() {
        d += &format!(
            "; partitions {busy:?} hold the minimum while their readers still emit (back-pressure or a slow reader), which this scenario does not reproduce: they get data"
        );
    }
    if !added.is_empty() {
        d += &format!(
            "; partitions {added:?} have no live split (the numbering that keeps each split on its subtask left them): they get data"
        );
    }
    d + ". Rates, keys and the watermark strategy are not in the REST API: assumed."
}

/// `TumblingEventTimeWindows(10000)` in a vertex name → 10000.
fn window_size_ms(name: &str) -> Option<i64> {
    let rest = name.split("TumblingEventTimeWindows(").nth(1)?;
    rest.split(')').next()?.trim().parse().ok().filter(|&ms| ms > 0)
}
