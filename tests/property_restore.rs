//! Random jobs with checkpoints and failures (`docs/FLOW.md`): records are neither lost nor
//! duplicated across a restore except the documented replay.
//!
//! Read from the trace (record-level events on): within an attempt each partition is read in
//! offset order without gaps; a restore starts each partition at the restored checkpoint's
//! offset (the records still in channels then are part of the checkpoint and delivered again
//! after the restore, with latency or under back-pressure); so every offset below the last one read was read at least once,
//! and the ones read again are exactly those between a checkpoint and a failure — as many as
//! `records_replayed` says (a split released or an input ended after the checkpoint included).
//! Results the sink had before a failure and receives again are as
//! many as `results_duplicated` says. And the same scenario gives the same trace.

mod common;

use common::{command, config, producer, within_topic};
use proptest::prelude::*;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use wmp::engine::scenario::build::parse;
use wmp::engine::sim::Simulation;
use wmp::engine::trace::TraceKind;

/// A small random job with checkpointing, a restart strategy and `fail` commands.
fn scenario() -> impl Strategy<Value = Value> {
    let shape = (1u32..=3, 1u32..=2, 1u32..=2, 2000i64..6000, any::<u64>(), 1u32..=2);
    shape
        .prop_flat_map(|(partitions, sp, wp, duration, seed, tms)| {
            let target = prop_oneof![
                (0..tms).prop_map(|n| json!({"task_manager": n})),
                (0..wp).prop_map(|n| json!({"keyed_subtask": n})),
                (0..sp).prop_map(|n| json!({"source_subtask": n})),
            ];
            let fails =
                prop::collection::vec((0..duration, target).prop_map(|(at, t)| json!({"at_ms": at, "command": "fail", "target": t})), 1..4);
            // Ends a restore may have to read to again (`stopping_offset`).
            let release = (0..duration, 0u32..3).prop_map(|(at, p)| json!({"at_ms": at, "command": "release_split", "partition": p}));
            let end = (0..duration).prop_map(|at| json!({"at_ms": at, "command": "end_of_input"}));
            let fails = (fails, prop::option::of(release), prop::option::of(end)).prop_map(|(mut f, r, e)| {
                f.extend(r.into_iter().chain(e));
                f
            });
            let restart = prop_oneof![
                (0i64..800).prop_map(|d| json!({"type": "fixed_delay", "delay_ms": d, "attempts": 100})),
                (1i64..500).prop_map(|i| json!({"type": "exponential_delay", "initial_ms": i, "max_ms": 2000})),
            ];
            let checkpointing = (prop::option::of(50i64..1500), restart).prop_map(|(i, r)| json!({"interval_ms": i, "restart": r}));
            let window = prop_oneof![
                (100i64..1500).prop_map(|s| json!({"type": "tumbling", "size_ms": s})),
                (100i64..1000).prop_map(|g| json!({"type": "session", "gap_ms": g})),
            ];
            let source =
                (0i64..1000, prop::option::of(100i64..1500), prop::option::of(50u64..1000), prop_oneof![3 => Just(0i64), 1 => 1i64..30]);
            let cmds = prop::collection::vec(command(duration), 0..5);
            let prods = prop::collection::vec(producer(), 1..4);
            // Back-pressure keeps records in the channels across checkpoints; alignment pauses.
            let flow = (prop::option::of((50u64..2000, 1u64..100)), prop::option::of((0i64..1000, 1i64..800)));
            (Just((partitions, sp, wp, duration, seed, tms)), window, source, checkpointing, prods, cmds, fails, (0i64..=500, flow))
        })
        .prop_map(|((partitions, sp, wp, duration, seed, tms), window, source, checkpointing, producers, commands, fails, (lateness, flow))| {
            let (capacity, alignment) = flow;
            let mut flow_block = json!({"task_managers": tms});
            if let Some((c, b)) = capacity {
                flow_block["keyed_capacity_per_s"] = json!(c);
                flow_block["channel_buffer_records"] = json!(b);
            }
            let (bound, idle, rate, latency) = source;
            let mut commands = within_topic(commands, "partition", partitions);
            commands.extend(within_topic(fails, "partition", partitions));
            let released = commands.iter().find(|c| c["command"] == "release_split").map(|c| (c["at_ms"].clone(), c["partition"].clone()));
            if let Some((at, p)) = released {
                // Nothing names a split once it is released.
                commands.retain(|c| c["command"] == "release_split" || c["partition"] != p || c["at_ms"].as_i64() < at.as_i64());
            }
            json!({
                "seed": seed,
                "duration_ms": duration,
                "topic": {"partitions": partitions},
                "source": {
                    "parallelism": sp,
                    "watermark": {"generator": {"kind": "bounded_out_of_orderness", "bound_ms": bound}, "idle_timeout_ms": idle,
                        "alignment": alignment.map(|(drift, every)| json!({"group": "g", "max_drift_ms": drift, "update_interval_ms": every}))},
                    "read_rate_per_s": rate,
                },
                "exchange": {"type": "hash", "latency_ms": latency},
                "window": {"assigner": window, "parallelism": wp, "allowed_lateness_ms": lateness},
                "producers": within_topic(producers, "partitions", partitions),
                "commands": commands,
                "flow": flow_block,
                "checkpointing": checkpointing,
                "trace": {"capacity": 5_000_000, "records": true},
            })
        })
}

/// Whether channels ever have latency (then a checkpoint's offsets may stop before the read
/// position: the records in flight).
fn has_latency(sc: &Value) -> bool {
    sc["exchange"]["latency_ms"].as_i64() > Some(0)
        || sc["commands"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["param"]["name"] == "channel_latency_ms" && c["param"]["value"].as_i64() > Some(0))
}

/// Replays the trace's reads against the rules above; returns how many reads were re-reads.
fn check_reads(sim: &Simulation, latency: bool) -> Result<u64, TestCaseError> {
    // Per partition: the next offset expected (None right after a restore: at most `limit`).
    let mut next: BTreeMap<u32, u64> = BTreeMap::new();
    let mut limit: BTreeMap<u32, u64> = BTreeMap::new();
    let mut checkpoints: BTreeMap<u64, BTreeMap<u32, u64>> = BTreeMap::new();
    let mut times_read: BTreeMap<(u32, u64), u32> = BTreeMap::new();
    let (mut rereads, mut restarts) = (0u64, 0u32);
    for e in sim.trace().retained() {
        match e.kind {
            TraceKind::RecordRead { partition, offset, .. } => {
                match limit.remove(&partition) {
                    Some(at_most) if latency => {
                        prop_assert!(offset <= at_most, "p{partition}: restored at {offset}, after the checkpoint's {at_most}")
                    }
                    Some(at) => {
                        prop_assert_eq!(offset, at, "p{}: restored at {}, not at the checkpoint's offset {}", partition, offset, at)
                    }
                    None => {
                        let want = next.get(&partition).copied().unwrap_or(0);
                        prop_assert_eq!(
                            offset,
                            want,
                            "p{}: read {} where {} was next (gap or repeat within an attempt)",
                            partition,
                            offset,
                            want
                        );
                    }
                }
                next.insert(partition, offset + 1);
                let n = times_read.entry((partition, offset)).or_default();
                rereads += u64::from(*n > 0);
                *n += 1;
            }
            TraceKind::CheckpointCompleted { id } => {
                checkpoints.insert(id, next.clone());
            }
            TraceKind::JobRestarted { checkpoint, .. } => {
                restarts += 1;
                let restored = checkpoint.and_then(|c| checkpoints.get(&c)).cloned().unwrap_or_default();
                for &p in next.keys() {
                    limit.insert(p, restored.get(&p).copied().unwrap_or(0));
                }
                next = restored;
            }
            _ => {}
        }
    }
    // Nothing lost: every offset below the highest one read was read.
    for (&p, &n) in &next {
        let max = times_read.range((p, 0)..=(p, u64::MAX)).map(|(&(_, o), _)| o).max().unwrap_or(0);
        prop_assert!(max + 1 >= n);
        for o in 0..=max {
            prop_assert!(times_read.contains_key(&(p, o)), "p{p}: offset {o} was never read (up to {max})");
        }
    }
    prop_assert!(times_read.values().all(|&n| n <= restarts + 1), "an offset read more often than there were attempts");
    Ok(rereads)
}

/// Results received after a failure that the sink had received before it.
fn duplicates(sim: &Simulation) -> u64 {
    let failures: Vec<i64> =
        sim.trace().retained().filter(|e| matches!(e.kind, TraceKind::JobFailed { .. })).map(|e| e.time.ms()).collect();
    let results: Vec<_> = sim.downstream().sink.results().collect();
    let mut n = 0;
    for r in &results {
        let Some(&f) = failures.iter().rev().find(|&&f| f < r.time.ms()) else { continue };
        let before: BTreeSet<_> = results.iter().filter(|x| x.time.ms() <= f).map(|x| (x.key, x.start, x.end, x.firing)).collect();
        n += u64::from(before.contains(&(r.key, r.start, r.end, r.firing)));
    }
    n
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn restores_lose_nothing_and_replay_exactly_what_they_count(sc in scenario()) {
        let parsed = parse(&sc.to_string()).map_err(|e| TestCaseError::fail(format!("invalid scenario: {e}")))?;
        let sim = parsed.run().map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assume!(sim.trace().retained().next().is_some_and(|e| e.seq == 0), "the whole trace is retained");
        let rereads = check_reads(&sim, has_latency(&sc))?;
        prop_assert_eq!(sim.records_replayed(), rereads, "records_replayed");
        prop_assert_eq!(sim.job_run().results_duplicated, duplicates(&sim), "results_duplicated");
        let again = parse(&sc.to_string()).unwrap().run().unwrap();
        prop_assert_eq!(again.trace().hash_hex(), sim.trace().hash_hex(), "the same scenario, the same trace");
    }
}
