//! The job the restore vectors share (`tests/restore.rs`, `tests/restore_ended.rs`): one
//! partition, a steady producer (10 records/s, timestamps = processing time), a bound of 2 s,
//! tumbling 1 s windows, periodic emission every 200 ms, checkpoints every 2 s (at 2000 and
//! 4000), restarts 600 ms after a failure; every record in the trace.

use serde_json::{json, Value};

/// The job with its `commands`.
pub fn job(commands: Value) -> Value {
    json!({
        "duration_ms": 12_000,
        "topic": {"partitions": 1},
        "source": {"watermark": {"generator": {"kind": "bounded_out_of_orderness", "bound_ms": 2000}}},
        "window": {"assigner": {"type": "tumbling", "size_ms": 1000}},
        "producers": [{"partitions": 0, "kind": "steady", "rate_per_s": 10}],
        "checkpointing": {"interval_ms": 2000, "restart": {"type": "fixed_delay", "delay_ms": 600, "attempts": 5}},
        "commands": commands,
        "trace": {"capacity": 1_000_000, "records": true}
    })
}

/// A keyed subtask killed at `at_ms`.
pub fn fail_at(at_ms: i64) -> Value {
    json!({"at_ms": at_ms, "command": "fail", "target": {"keyed_subtask": 0}})
}
