//! The scenario's `flow` block: the cluster the job runs on and how its keyed state is
//! estimated (`docs/FLOW.md`). Defaults are one TaskManager without a memory limit, 200 bytes
//! per state entry, and one simulated record per real one.

use crate::engine::error::InputError;
use crate::engine::limits::MAX_PARALLELISM;
use crate::engine::task_manager::ClusterConfig;
use serde::{Deserialize, Serialize};

/// What `record_scale` may be: one simulated record standing for a billion real ones.
pub const MAX_RECORD_SCALE: u64 = 1_000_000_000;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FlowSpec {
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
