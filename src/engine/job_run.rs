//! The job's run as the views show it: its status, attempts, checkpoints, failures and
//! restarts, what a restore replayed, the TaskManagers' memory, and the keyed state size over
//! time (`snapshot().job`, `stateSizeHistory()`, the `job` member of `wmp run`'s report).
//! Counts are real ones: simulated counts and bytes are multiplied by `flow.record_scale`.

use super::failover::JobStatus;
use super::sim::Simulation;
use super::state_size::StateSample;
use super::time::ProcTime;
use serde::Serialize;

/// A completed checkpoint.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct CheckpointView {
    pub id: u64,
    /// Processing time it completed at.
    pub at: ProcTime,
}

/// One TaskManager's keyed state against its memory.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct TaskManagerView {
    pub index: u32,
    /// Estimated bytes of the keyed state of the subtasks it runs (0 while the job is down).
    pub used_bytes: u64,
    /// `flow.task_manager_memory_bytes` (null: unlimited).
    pub limit_bytes: Option<u64>,
    /// Keyed subtasks it runs.
    pub keyed_subtasks: Vec<u32>,
}

/// The job's run across attempts (`snapshot().run`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct JobRunView {
    pub status: JobStatus,
    /// 1 for the first run, one more per restart.
    pub attempt: u32,
    pub restarts: u32,
    /// `execution.checkpointing.interval` (null: off).
    pub checkpoint_interval_ms: Option<i64>,
    pub checkpoints_completed: u64,
    pub last_checkpoint: Option<CheckpointView>,
    /// The last failure: when, and why.
    pub failed_at: Option<ProcTime>,
    pub failure: Option<String>,
    /// While RESTARTING: when the restart strategy's delay ends.
    pub restarting_until: Option<ProcTime>,
    /// The last restore: when, and from which checkpoint (null: from the start offsets).
    pub restored_at: Option<ProcTime>,
    pub restored_from: Option<u64>,
    /// Records read again after restores (below a read position reached before a failure).
    pub records_replayed: u64,
    /// Results the sink received again after restores (duplicate rows for an append sink).
    pub results_duplicated: u64,
    pub task_managers: Vec<TaskManagerView>,
}

/// The keyed state size over processing time (`stateSizeHistory()`). A failure shows as two
/// samples at the same time, the size that failed and zero; checkpoints and failures are in the
/// trace (`checkpoint_completed`, `job_failed`, `job_restarted`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct StateSizeHistoryView {
    /// The sampling interval now (it doubles as the history fills).
    pub interval_ms: i64,
    /// Bytes per state entry: a sample's entries (real ones, × `record_scale`) times this are
    /// its bytes.
    pub bytes_per_entry: u64,
    pub limit_bytes: Option<u64>,
    /// The TaskManager of each keyed subtask.
    pub task_manager_of: Vec<u32>,
    pub samples: Vec<StateSample>,
}

impl Simulation {
    pub fn job_run(&self) -> JobRunView {
        let f = &self.failover;
        let c = &self.cfg.cluster;
        let used = self.task_manager_bytes();
        let keyed = self.down.windows.len() as u32;
        JobRunView {
            status: f.status,
            attempt: f.attempt,
            restarts: f.restarts(),
            checkpoint_interval_ms: f.coordinator.interval_ms(),
            checkpoints_completed: f.coordinator.completed(),
            last_checkpoint: f.coordinator.last.as_ref().map(|k| CheckpointView { id: k.id, at: k.at }),
            failed_at: f.failed_at,
            failure: f.failure.clone(),
            restarting_until: f.restarting_until,
            restored_at: f.restored_at,
            restored_from: f.restored_from,
            records_replayed: self.cfg.cluster.scaled(self.records_replayed()),
            results_duplicated: self.cfg.cluster.scaled(f.results_duplicated),
            task_managers: (0..used.len() as u32)
                .map(|tm| TaskManagerView {
                    index: tm,
                    used_bytes: used[tm as usize],
                    limit_bytes: c.memory_bytes,
                    keyed_subtasks: (0..keyed).filter(|&i| c.task_manager_of(i) == tm).collect(),
                })
                .collect(),
        }
    }

    pub fn state_size_history(&self) -> StateSizeHistoryView {
        let c = &self.cfg.cluster;
        let h = &self.failover.history;
        StateSizeHistoryView {
            interval_ms: h.interval_ms(),
            bytes_per_entry: c.state_bytes_per_entry,
            limit_bytes: c.memory_bytes,
            task_manager_of: (0..self.down.windows.len() as u32).map(|i| c.task_manager_of(i)).collect(),
            samples: h
                .samples()
                .iter()
                .map(|x| StateSample { time: x.time, entries: x.entries.iter().map(|&e| c.scaled(e)).collect() })
                .collect(),
        }
    }
}
