//! "Turn into a scenario": a scenario with a live job's shape, to try fixes on. Taken from the
//! job: the first source vertex's parallelism, its split count when per-split watermarks are
//! reported (one partition per split, else one per subtask), the keyed vertex's parallelism,
//! a tumbling window size read from a `TumblingEventTimeWindows(<ms>)` vertex name (else 1
//! minute), and which splits are stuck: the partitions of splits at the minimum watermark get no
//! producer, the others a steady one. The simulation starts at the job's minimum watermark.
//! Not taken (the REST API does not show them): the watermark strategy (5 s bound, no idleness
//! assumed), rates, keys, and which split Flink gave to which subtask (partition p is read by
//! subtask p mod parallelism, as in the playground).

use super::explain::explain;
use super::job::LiveJob;
use crate::engine::time::{EventTime, NO_WATERMARK};
use serde_json::{json, Value};

/// The scenario JSON for `job` (valid for `Session::from_json`).
pub fn to_scenario(job: &LiveJob) -> Value {
    let source = job.vertices.iter().find(|v| v.is_source());
    let keyed = job.vertices.iter().find(|v| !v.is_source());
    let source_parallelism = source.map_or(1, |v| v.parallelism);
    // One watermark per partition: a split's, else its subtask's output watermark.
    let watermarks: Vec<Option<i64>> = source.map_or_else(Vec::new, |v| {
        v.subtasks
            .iter()
            .flat_map(|s| {
                if s.splits.is_empty() {
                    vec![s.output_watermark]
                } else {
                    s.splits.iter().map(|p| p.watermark.or(s.output_watermark)).collect()
                }
            })
            .collect()
    });
    let partitions = (watermarks.len() as u32).max(source_parallelism).max(1);
    let low = watermarks.iter().flatten().copied().filter(|w| EventTime(*w) != NO_WATERMARK).min();
    let stuck: Vec<u32> = match explain(job).holder {
        Some(h) => (0..watermarks.len() as u32).filter(|&p| watermarks[p as usize] == Some(h.watermark)).collect(),
        None => Vec::new(),
    };
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
        "description": format!(
            "Seeded from live job {} ({}): its shape and current watermarks; partitions {:?} get no data, as the splits holding its minimum watermark did. Rates, keys and the watermark strategy are not in the REST API: assumed.",
            job.id, job.state, stuck
        ),
        "start_time_ms": low.map_or(crate::engine::scenario::schema::DEFAULT_START_MS, |w| w - w.rem_euclid(1000)),
        "duration_ms": 600_000,
        "topic": { "name": "events", "partitions": partitions },
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

/// `TumblingEventTimeWindows(10000)` in a vertex name → 10000.
fn window_size_ms(name: &str) -> Option<i64> {
    let rest = name.split("TumblingEventTimeWindows(").nth(1)?;
    rest.split(')').next()?.trim().parse().ok().filter(|&ms| ms > 0)
}
