//! The scenario's `flow` block: the keyed operator's capacity and the channels' credits
//! (back-pressure), the cluster the job runs on and how its keyed state is estimated; and the
//! Kafka fetch size under `source` (`docs/FLOW.md`). Defaults are no capacity limit, one
//! TaskManager without a memory limit, 200 bytes per state entry, and one simulated record per
//! real one.

use crate::engine::error::InputError;
use crate::engine::limits::{MAX_PARALLELISM, MAX_SAFE};
use crate::engine::task_manager::ClusterConfig;
use serde::{Deserialize, Serialize};

/// What `record_scale` may be: one simulated record standing for a billion real ones.
pub const MAX_RECORD_SCALE: u64 = 1_000_000_000;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FlowSpec {
    /// Records per second one keyed subtask can process; `null`: unbounded.
    pub keyed_capacity_per_s: Option<u64>,
    /// Records one channel buffers before its sender waits (credits).
    pub channel_buffer_records: u64,
    /// One simulated record (and key) stands for this many real ones; the state-size estimate
    /// multiplies by it.
    pub record_scale: u64,
    /// Heap bytes per (key, window) state entry (or buffered join element).
    pub state_bytes_per_entry: u64,
    /// Subtask i of every operator runs on TaskManager `i % task_managers`.
    pub task_managers: u32,
    /// The state budget of one TaskManager; over it the TaskManager is lost. `null`: unlimited.
    pub task_manager_memory_bytes: Option<u64>,
}

impl Default for FlowSpec {
    fn default() -> Self {
        let c = ClusterConfig::default();
        FlowSpec {
            keyed_capacity_per_s: None,
            channel_buffer_records: crate::engine::flow::DEFAULT_CHANNEL_BUFFER_RECORDS,
            record_scale: c.record_scale,
            state_bytes_per_entry: c.state_bytes_per_entry,
            task_managers: c.task_managers,
            task_manager_memory_bytes: c.memory_bytes,
        }
    }
}

impl FlowSpec {
    /// Paths relative to the block.
    pub fn validate(&self) -> Result<(), InputError> {
        if self.keyed_capacity_per_s == Some(0) {
            return Err(InputError::new("keyed_capacity_per_s", "must be > 0, or null for unbounded"));
        }
        if !(1..=MAX_SAFE.unsigned_abs()).contains(&self.channel_buffer_records) {
            return Err(InputError::new("channel_buffer_records", format!("must be in 1..={MAX_SAFE}")));
        }
        if !(1..=MAX_RECORD_SCALE).contains(&self.record_scale) {
            return Err(InputError::new("record_scale", format!("must be in 1..={MAX_RECORD_SCALE}, got {}", self.record_scale)));
        }
        if self.state_bytes_per_entry == 0 {
            return Err(InputError::new("state_bytes_per_entry", "must be > 0"));
        }
        if !(1..=MAX_PARALLELISM).contains(&self.task_managers) {
            return Err(InputError::new("task_managers", format!("must be in 1..={MAX_PARALLELISM}, got {}", self.task_managers)));
        }
        if self.task_manager_memory_bytes == Some(0) {
            return Err(InputError::new("task_manager_memory_bytes", "must be > 0, or null for unlimited"));
        }
        Ok(())
    }

    pub fn cluster(&self) -> ClusterConfig {
        ClusterConfig {
            task_managers: self.task_managers,
            memory_bytes: self.task_manager_memory_bytes,
            state_bytes_per_entry: self.state_bytes_per_entry,
            record_scale: self.record_scale,
        }
    }
}

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
