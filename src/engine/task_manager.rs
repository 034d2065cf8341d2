//! TaskManagers: where the subtasks run, and the memory their keyed state takes.
//!
//! Subtask i of every operator (keyed subtask i, source subtask i) runs on TaskManager
//! `i % task_managers` — Flink's default slot sharing puts one subtask of each operator in a
//! slot, and slots are spread over the TaskManagers; the exact placement of a real cluster
//! (`cluster.evenly-spread-out-slots`, slots per TaskManager) is not modelled.
//!
//! Only keyed state counts against a TaskManager's memory: per keyed subtask its entries —
//! (key, window) states of a window operator (`WindowOperator::state_size`), buffered elements
//! of an interval join — times `state_bytes_per_entry` times `record_scale` (one simulated
//! record or key stands for `record_scale` real ones). A TaskManager whose summed estimate goes
//! over `task_manager_memory_bytes` is lost (the heap or the container limit) and the job fails.

use super::operator::interval_join::Side;
use super::sim::Simulation;
use super::window_subtask::WindowSubtask;

/// The `flow` block's cluster settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClusterConfig {
    pub task_managers: u32,
    /// The state budget of one TaskManager; `None`: unlimited.
    pub memory_bytes: Option<u64>,
    pub state_bytes_per_entry: u64,
    pub record_scale: u64,
}

impl Default for ClusterConfig {
    fn default() -> Self {
        ClusterConfig { task_managers: 1, memory_bytes: None, state_bytes_per_entry: 200, record_scale: 1 }
    }
}

impl ClusterConfig {
    /// The TaskManager subtask `i` (of any operator) runs on.
    pub fn task_manager_of(&self, subtask: u32) -> u32 {
        subtask % self.task_managers.max(1)
    }

    /// The estimated heap bytes of `entries` state entries (saturating).
    pub fn bytes(&self, entries: u64) -> u64 {
        entries.saturating_mul(self.state_bytes_per_entry).saturating_mul(self.record_scale)
    }

    /// A count of simulated records, keys' results or state entries as real ones (the views
    /// show these; tables of single records list the simulated ones).
    #[inline]
    pub fn scaled(&self, n: u64) -> u64 {
        n.saturating_mul(self.record_scale)
    }
}

/// State entries of one keyed subtask: window states, or a join's buffered elements.
pub fn state_entries(w: &WindowSubtask) -> u64 {
    match &w.join {
        Some(j) => j.buffered(Side::Left) + j.buffered(Side::Right),
        None => w.op.state_size() as u64,
    }
}

impl Simulation {
    /// State entries of keyed subtask `i` while its attempt runs (0 while the job is down: the
    /// failed tasks' state is gone until the restore).
    pub fn state_entries(&self, i: usize) -> u64 {
        match self.down.windows.get(i) {
            Some(w) if self.failover.is_running() => state_entries(w),
            _ => 0,
        }
    }

    /// Estimated state bytes per TaskManager.
    pub fn task_manager_bytes(&self) -> Vec<u64> {
        let c = &self.cfg.cluster;
        let mut used = vec![0u64; c.task_managers.max(1) as usize];
        for i in 0..self.down.windows.len() {
            let tm = c.task_manager_of(i as u32) as usize;
            used[tm] = used[tm].saturating_add(c.bytes(self.state_entries(i)));
        }
        used
    }

    /// The first TaskManager over its memory budget, with its usage.
    pub(crate) fn task_manager_over_limit(&self) -> Option<(u32, u64, u64)> {
        let limit = self.cfg.cluster.memory_bytes?;
        let used = self.task_manager_bytes();
        used.iter().position(|&u| u > limit).map(|tm| (tm as u32, used[tm], limit))
    }
}

/// Why a TaskManager was lost, in the job's failure cause. Both sizes round to the same text
/// near the limit ("4 GiB over 4 GiB"), so the excess is said too.
pub fn lost_reason(task_manager: u32, used_bytes: u64, limit_bytes: u64) -> String {
    let (used, limit, over) = (format_bytes(used_bytes), format_bytes(limit_bytes), format_bytes(used_bytes.saturating_sub(limit_bytes)));
    format!("TaskManager {task_manager} lost: its keyed state (about {used}) went over its memory ({limit}) by {over}")
}

/// Bytes in binary units, as people read memory: "0 B", "1.5 KiB", "512 MiB", "4 GiB".
pub fn format_bytes(n: u64) -> String {
    const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut v = n as f64;
    let mut u = 0;
    while v >= 1024.0 && u < UNITS.len() - 1 {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 || v >= 100.0 || (v - v.round()).abs() < 0.05 {
        format!("{} {}", v.round(), UNITS[u])
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lost_task_manager_says_by_how_much() {
        assert_eq!(
            lost_reason(0, 4_300_000_000, 4 << 30),
            "TaskManager 0 lost: its keyed state (about 4 GiB) went over its memory (4 GiB) by 4.8 MiB"
        );
    }

    #[test]
    fn bytes_read_in_binary_units() {
        assert_eq!(format_bytes(0), "0 B");
        assert_eq!(format_bytes(1023), "1023 B");
        assert_eq!(format_bytes(4 << 30), "4 GiB");
        assert_eq!(format_bytes(4_300_000_000), "4 GiB");
        assert_eq!(format_bytes(3_900_000_000), "3.6 GiB");
        assert_eq!(format_bytes(512 << 20), "512 MiB");
        assert_eq!(format_bytes(1536), "1.5 KiB");
    }

    #[test]
    fn placement_and_bytes() {
        let c = ClusterConfig { task_managers: 3, memory_bytes: None, state_bytes_per_entry: 200, record_scale: 1000 };
        assert_eq!((0..5).map(|i| c.task_manager_of(i)).collect::<Vec<_>>(), vec![0, 1, 2, 0, 1]);
        assert_eq!(c.bytes(7), 1_400_000);
        assert_eq!(ClusterConfig { record_scale: u64::MAX, ..c }.bytes(u64::MAX), u64::MAX, "saturates");
    }
}
