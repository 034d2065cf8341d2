//! Shared proptest settings for the property tests (`tests/property_*.rs`): deterministic
//! (fixed seed, no failure persistence), so a failure reproduces and prints the minimal
//! shrunk input, which then belongs in a plain regression test next to the vectors; and the
//! generators of producers and commands they share. [`run`] builds and runs a scenario for the
//! plain tests.

#![allow(dead_code)] // each test file uses some of these

pub mod restore_job;
pub mod run;

use proptest::prelude::*;
use proptest::test_runner::{Config as ProptestConfig, RngSeed};
use serde_json::{json, Value};

pub fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(0x5EED_0FF1_CE00),
        max_shrink_iters: 2048,
        ..ProptestConfig::default()
    }
}

/// A random producer (JSON); `partitions` is a partition index or `"all"`.
pub fn producer() -> impl Strategy<Value = Value> {
    let kind = prop_oneof![
        3 => (1u64..300).prop_map(|r| json!({"kind": "steady", "rate_per_s": r})),
        2 => (50i64..1500, 1u64..20).prop_map(|(e, c)| json!({"kind": "burst", "every_ms": e, "count": c})),
        1 => (50i64..1000).prop_map(|e| json!({"kind": "heartbeat", "every_ms": e})),
        1 => (1000i64..200_000).prop_map(|f| json!({"kind": "outlier", "future_ms": f})),
    ];
    (kind, prop::option::of(0u32..4), 1u32..5, 0i64..3000, 0i64..500, 0i64..1500, prop::option::of(500i64..5000)).prop_map(
        |(mut p, part, keys, jitter, delay, start, stop)| {
            p["partitions"] = part.map_or(json!("all"), |x| json!(x));
            p["keys"] = json!({"count": keys});
            p["jitter_ms"] = json!(jitter);
            p["event_delay_ms"] = json!(delay);
            p["start_ms"] = json!(start);
            if let Some(s) = stop {
                p["stop_ms"] = json!(start + s);
            }
            p
        },
    )
}

/// A scripted command; `partition` is reduced modulo the topic's partitions later.
pub fn command(duration: i64) -> impl Strategy<Value = Value> {
    let on_partition =
        prop_oneof![Just("silence"), Just("resume"), Just("mark_split_idle"), Just("mark_split_active"), Just("detach_producers")]
            .prop_map(|c| json!({"command": c}));
    let produce = prop::collection::vec((-5000i64..1000, 0u32..3), 1..5).prop_map(|recs| {
        let records: Vec<Value> = recs.into_iter().map(|(off, k)| json!({"ts_offset_ms": off, "key": format!("key-{k}")})).collect();
        json!({"command": "produce", "records": records})
    });
    let param = prop_oneof![
        (0i64..50).prop_map(|l| json!({"name": "channel_latency_ms", "value": l})),
        prop::option::of(20u64..2000).prop_map(|r| json!({"name": "read_rate_per_s", "value": r})),
        (0i64..2000).prop_map(|b| json!({"name": "bound_ms", "value": b})),
        prop::option::of(100i64..2000).prop_map(|t| json!({"name": "idle_timeout_ms", "value": t})),
    ]
    .prop_map(|p| json!({"command": "set_param", "param": p}));
    let cmd = prop_oneof![8 => on_partition, 2 => produce, 2 => param, 1 => Just(json!({"command": "add_partition"}))];
    (0..duration, cmd, 0u32..4).prop_map(|(at, mut c, p)| {
        c["at_ms"] = json!(at);
        if c["command"] != "add_partition" && c["command"] != "set_param" {
            c["partition"] = json!(p);
        }
        c
    })
}

/// Generated producers or commands with their `field` (`partitions`, `partition`) taken modulo
/// the topic's partition count.
pub fn within_topic(items: Vec<Value>, field: &str, partitions: u32) -> Vec<Value> {
    items
        .into_iter()
        .map(|mut v| {
            if let Some(x) = v[field].as_u64() {
                v[field] = json!(x % partitions as u64);
            }
            v
        })
        .collect()
}
