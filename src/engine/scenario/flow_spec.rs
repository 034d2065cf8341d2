//! The scenario's flow blocks (issue 13, `docs/FLOW.md`): the Kafka fetch size under `source`
//! and the capacities under `flow`.

use serde::{Deserialize, Serialize};

/// The Kafka consumer's fetch size, which decides the order a reader that cannot keep up
/// moves through its partitions in (`source::fetcher`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FetchSpec {
    /// `max.partition.fetch.bytes` (1 MiB).
    pub max_partition_fetch_bytes: u64,
    /// The size of one record in the topic.
    pub record_bytes: u64,
}

impl Default for FetchSpec {
    fn default() -> Self {
        FetchSpec { max_partition_fetch_bytes: 1_048_576, record_bytes: 100 }
    }
}

impl FetchSpec {
    /// Records of one partition in one fetch (at least one, as Kafka returns at least one
    /// record even when it is larger than the limit).
    pub fn records_per_partition(&self) -> u64 {
        (self.max_partition_fetch_bytes / self.record_bytes.max(1)).max(1)
    }
}

/// Capacities (`flow`): see `docs/FLOW.md`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FlowSpec {
    /// Records per second one keyed subtask can process; `null`: unbounded.
    pub keyed_capacity_per_s: Option<u64>,
    /// Records one channel buffers before its sender waits (credits).
    pub channel_buffer_records: u64,
}

impl Default for FlowSpec {
    fn default() -> Self {
        FlowSpec { keyed_capacity_per_s: None, channel_buffer_records: crate::engine::flow::DEFAULT_CHANNEL_BUFFER_RECORDS }
    }
}
