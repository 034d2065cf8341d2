//! Checkpoints (`execution.checkpointing.interval`): what a completed checkpoint holds and the
//! coordinator that takes one at every `start + k × interval` while the job runs.
//!
//! A checkpoint is modelled as instantaneous and consistent: it is taken after everything the
//! instant processed (step 8 of the instant), as if the barriers had passed every operator at
//! once. Barrier propagation, alignment time, asynchronous snapshot duration, the minimum pause
//! between checkpoints and the random initial delay after a restore are not modelled; nor can
//! a checkpoint fail or time out.
//!
//! What it stores is what Flink stores (reference §12): per partition the read offset (the
//! next offset its split would read, Kafka's position in the split state); the records still in
//! the channels (see `CompletedCheckpoint::in_flight`); per keyed subtask
//! the operator's keyed state with its timers (window contents, pending windows and their
//! trigger and cleanup timers; an interval join's buffers and cleanup timers); and, for the
//! views, how many results the sink had received. Not stored: any watermark (split, source,
//! channel, valve, operator — except a SQL window aggregation's, §10.2), idleness, generator or
//! alignment state. The restore itself is in `failover`.

use super::element::Record;
use super::operator::interval_join::IntervalJoinOperator;
use super::operator::window_operator::WindowOperator;
use super::restart_strategy::RestartStrategy;
use super::time::{EventTime, ProcTime};
use super::window_subtask::WindowSubtask;

/// The `checkpointing` block, resolved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CheckpointConfig {
    /// `None`: checkpointing is off.
    pub interval_ms: Option<i64>,
    pub restart: RestartStrategy,
}

impl Default for CheckpointConfig {
    fn default() -> Self {
        CheckpointConfig { interval_ms: None, restart: RestartStrategy::None {} }
    }
}

/// One keyed subtask's checkpointed state.
#[derive(Clone, Debug)]
pub struct KeyedState {
    pub op: WindowOperator,
    pub join: Option<IntervalJoinOperator>,
}

impl KeyedState {
    pub fn of(w: &WindowSubtask) -> Self {
        KeyedState { op: w.op.clone(), join: w.join.clone() }
    }
}

/// A completed checkpoint.
#[derive(Clone, Debug)]
pub struct CompletedCheckpoint {
    /// 1, 2, … as Flink numbers them.
    pub id: u64,
    pub at: ProcTime,
    /// Per partition (engine numbering) that existed then: the next offset to read.
    pub offsets: Vec<u64>,
    /// Per keyed subtask.
    pub keyed: Vec<KeyedState>,
    /// The records in the channels, per channel index, in order: read (so not below the
    /// offsets) but not yet in the keyed state. The restore gets them back exactly once, as an
    /// unaligned checkpoint does, but without the watermarks between them (Flink's aligned
    /// barrier processes both first; docs/FLOW.md's Simplified).
    pub in_flight: Vec<(usize, Vec<InFlightRecord>)>,
    /// Window results and joined pairs the sink had received.
    pub sink_results: usize,
    pub join_results: u64,
}

/// A record in a channel at a checkpoint: the record, its assigned timestamp and the job input
/// it came from (its key's slot is routed again after the restore).
pub type InFlightRecord = (Record, EventTime, u8);

/// Triggers checkpoints on the interval's grid.
#[derive(Clone, Debug)]
pub struct CheckpointCoordinator {
    interval_ms: Option<i64>,
    start: ProcTime,
    next_at: Option<ProcTime>,
    next_id: u64,
    pub last: Option<CompletedCheckpoint>,
}

impl CheckpointCoordinator {
    pub fn new(interval_ms: Option<i64>, start: ProcTime) -> Self {
        CheckpointCoordinator { interval_ms, start, next_at: interval_ms.map(|i| start + i), next_id: 1, last: None }
    }

    pub fn interval_ms(&self) -> Option<i64> {
        self.interval_ms
    }

    /// When the next checkpoint is due.
    pub fn next_at(&self) -> Option<ProcTime> {
        self.next_at
    }

    /// Completed checkpoints so far.
    pub fn completed(&self) -> u64 {
        self.next_id - 1
    }

    /// The checkpoint after the one due now, or the first one at or after `t` after a restart
    /// (the grid stays the one from the job start).
    pub fn schedule_from(&mut self, t: ProcTime) {
        if let Some(i) = self.interval_ms {
            let k = (t - self.start).max(1);
            self.next_at = Some(self.start + (k + i - 1) / i * i);
        }
    }

    /// Stores a completed checkpoint and schedules the next one.
    pub fn complete(&mut self, mut c: CompletedCheckpoint) -> u64 {
        c.id = self.next_id;
        self.next_id += 1;
        let (id, at) = (c.id, c.at);
        self.last = Some(c);
        self.schedule_from(at + 1);
        id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn empty(at: i64) -> CompletedCheckpoint {
        CompletedCheckpoint { id: 0, at: ProcTime(at), offsets: vec![], keyed: vec![], in_flight: vec![], sink_results: 0, join_results: 0 }
    }

    #[test]
    fn the_grid_starts_at_the_job_start() {
        let mut c = CheckpointCoordinator::new(Some(1000), ProcTime(100));
        assert_eq!(c.next_at(), Some(ProcTime(1100)));
        assert_eq!(c.complete(empty(1100)), 1);
        assert_eq!(c.next_at(), Some(ProcTime(2100)));
        c.schedule_from(ProcTime(5000));
        assert_eq!(c.next_at(), Some(ProcTime(5100)));
        c.schedule_from(ProcTime(5100));
        assert_eq!(c.next_at(), Some(ProcTime(5100)), "on the grid: that instant");
        assert_eq!((c.complete(empty(5100)), c.completed()), (2, 2));
        assert_eq!(CheckpointCoordinator::new(None, ProcTime(0)).next_at(), None);
    }
}
