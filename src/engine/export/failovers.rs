//! The job's checkpoints, failures and restarts for the replay's `C` and `F` lines.
//!
//! The playground checkpoints at step 8 of an instant (after its reads and periodic emission),
//! and fails there too (a TaskManager over its memory) or at its start (a `fail` command: the
//! instant then reads and emits nothing): a `C` or `F` line follows the lines of its instant. The exported job waits at
//! every `C` line until a checkpoint taken there has completed, and its window task throws on
//! the marker an `F` line sends: Flink then restores that checkpoint, as the playground restored
//! its own, and the reader goes on after the `F` line, where the playground's re-reads are. While
//! the job is down the playground runs no periodic emission, so the replay has no ticks then.

use crate::engine::sim::Simulation;
use crate::engine::time::ProcTime;

/// What happened to the job at an instant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailoverEvent {
    /// A checkpoint completed (its id).
    Checkpoint(u64),
    /// The job failed, at the start of its instant (a `fail` command) or at its end; it restores
    /// the last checkpoint (its id, 0: none: from the start).
    Failure { restores: u64, at_start: bool },
    /// The job runs again (its periodic emission too, from this instant on).
    Restart,
}

/// An event and its instant, in ms after the start.
pub type FailoverChange = (i64, FailoverEvent);

pub struct Failovers {
    start_ms: i64,
    checkpoints: u64,
    failed_at: Option<ProcTime>,
    restored_at: Option<ProcTime>,
    /// Events seen and not written yet, in time order.
    changes: Vec<FailoverChange>,
}

impl Failovers {
    pub fn new(sim: &Simulation) -> Self {
        Failovers { start_ms: sim.config().start_time.0, checkpoints: 0, failed_at: None, restored_at: None, changes: Vec::new() }
    }

    /// Notes a restart, a checkpoint or a failure in the instant just run (a restart comes
    /// first in an instant; a checkpoint and a failure never come in the same one).
    pub fn after_instant(&mut self, sim: &Simulation) {
        let f = sim.failover();
        let t = sim.now().0 - self.start_ms;
        if f.restored_at != self.restored_at {
            self.restored_at = f.restored_at;
            self.changes.push((t, FailoverEvent::Restart));
        }
        if f.coordinator.completed() != self.checkpoints {
            self.checkpoints = f.coordinator.completed();
            self.changes.push((t, FailoverEvent::Checkpoint(self.checkpoints)));
        }
        if f.failed_at != self.failed_at {
            self.failed_at = f.failed_at;
            let restores = f.coordinator.last.as_ref().map_or(0, |c| c.id);
            self.changes.push((t, FailoverEvent::Failure { restores, at_start: f.failed_before_reads }));
        }
    }

    /// The events seen since the last call.
    pub fn take(&mut self) -> Vec<FailoverChange> {
        std::mem::take(&mut self.changes)
    }
}
