//! Properties of the diagnosis over random jobs.
//!
//! * A partition fed by a steady producer — regular real records, whatever its rate, jitter,
//!   event-time lag or start — is never called sparse/heartbeat, and the diagnosis never
//!   offers to filter heartbeats away: that would throw real data away (issue 11's worst case).
//! * Before anything is read no culprit is named; the diagnosis is a pure function of the
//!   state (asking twice gives the same answer).

mod common;

use common::config;
use proptest::prelude::*;
use serde_json::{json, Value};
use wmp::engine::diagnosis::classify::PartitionClass;
use wmp::engine::diagnosis::finding::FindingKind;
use wmp::engine::diagnosis::DiagnosisOptions;
use wmp::engine::session::action::Action;
use wmp::engine::session::Session;

/// A job whose every partition has one steady producer of its own.
fn steady_job() -> impl Strategy<Value = Value> {
    let partition = (1u64..=500, 0i64..3000, 0i64..60_000, 0i64..20_000);
    (
        prop::collection::vec(partition, 1..=5),
        1u32..=3,
        0i64..=5000,
        prop::option::of(100i64..=60_000),
        prop_oneof![Just(200i64), 50i64..1000],
        any::<u64>(),
    )
        .prop_map(|(parts, sp, bound, idle, interval, seed)| {
            let producers: Vec<Value> = parts
                .iter()
                .enumerate()
                .map(|(i, &(rate, jitter, delay, start))| {
                    json!({"partitions": i, "kind": "steady", "rate_per_s": rate, "jitter_ms": jitter, "event_delay_ms": delay, "start_ms": start, "keys": {"count": 3}})
                })
                .collect();
            json!({
                "seed": seed,
                "duration_ms": 120_000,
                "topic": {"partitions": parts.len()},
                "source": {"parallelism": sp, "watermark": {"generator": {"kind": "bounded_out_of_orderness", "bound_ms": bound}, "idle_timeout_ms": idle, "auto_watermark_interval_ms": interval}},
                "window": {"assigner": {"type": "tumbling", "size_ms": 10_000}, "parallelism": 2},
                "producers": producers,
                "trace": {"capacity": 100, "records": false},
            })
        })
}

proptest! {
    #![proptest_config(config(64))]

    #[test]
    fn a_steady_partition_is_never_called_a_heartbeat(sc in steady_job(), checkpoints in 1i64..5) {
        let mut s = Session::from_json(&sc.to_string()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let first = s.sim().diagnose(&DiagnosisOptions::default());
        prop_assert!(first.culprit.is_none(), "a culprit before anything was read");
        for k in 1..=checkpoints {
            s.run_until(120_000 * k / checkpoints, &mut ()).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let d = s.sim().diagnose(&DiagnosisOptions::default());
            for p in &d.partitions {
                prop_assert_ne!(p.class, PartitionClass::Heartbeat, "partition {} at {} ms: {:?}", p.partition, s.elapsed(), p);
            }
            prop_assert!(d.finding(FindingKind::HeartbeatPartition).is_none(), "{}", d.headline);
            prop_assert!(!d.findings.iter().flat_map(|f| &f.fixes).any(|f| matches!(f.action, Action::DropHeartbeats(true))), "{}", d.headline);
            prop_assert_eq!(&d, &s.sim().diagnose(&DiagnosisOptions::default()));
        }
    }
}
