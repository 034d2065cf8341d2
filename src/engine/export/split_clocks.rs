//! The splits' input activity clocks for the replay's `P` lines. Flink 2.3 stops a split's
//! idleness clock while its source task is back-pressured or split alignment pauses the split
//! (FLIP-471, `PausableRelativeClock`; `flow::pausable_clock` here). The exported job has no
//! back-pressure of its own, so the replay tells each split's clock when to stand and when to
//! go on, as its `T` lines tell the periodic emission when to run.
//!
//! A clock is read after every instant the playground runs: pausing or resuming at `t` does not
//! change the clock's reading at `t` itself, only later ones, so where within the instant it
//! happened does not matter to the replay.

use crate::engine::sim::Simulation;
use crate::engine::time::ProcTime;

/// One clock change: processing time (ms after the start), the engine-wide partition, and
/// whether its clock stands from then on.
pub type ClockChange = (i64, u32, bool);

pub struct SplitClocks {
    /// Off: the scenario's clocks never stand (no flow control, Flink ≤ 1.20's wall clock), or a
    /// mid-stream operator reads its own clock after the source (not replayed).
    on: bool,
    start_ms: i64,
    /// Per engine-wide partition, whether its clock stood after the last instant seen.
    paused: Vec<bool>,
    /// The last restart seen: the restarted job's splits (and the replay job's restored
    /// generators) start with clocks that go on.
    restored_at: Option<ProcTime>,
    /// Changes seen and not written yet, in time order.
    changes: Vec<ClockChange>,
}

impl SplitClocks {
    pub fn new(sim: &Simulation) -> Self {
        let cfg = sim.config();
        let on = cfg.flow_controlled() && cfg.inputs.iter().all(|i| i.midstream.is_none());
        SplitClocks { on, start_ms: cfg.start_time.0, paused: vec![false; sim.partitions.len()], restored_at: None, changes: Vec::new() }
    }

    /// Notes every split clock that stood still or went on in the instant just run.
    pub fn after_instant(&mut self, sim: &Simulation) {
        if !self.on {
            return;
        }
        let t = sim.now().0 - self.start_ms;
        if sim.failover().restored_at != self.restored_at {
            self.restored_at = sim.failover().restored_at;
            self.paused.fill(false);
        }
        for split in sim.sources().iter().flat_map(|s| &s.splits) {
            let (p, paused) = (split.partition, split.clock.is_paused());
            if let Some(was) = self.paused.get_mut(p as usize).filter(|was| **was != paused) {
                *was = paused;
                self.changes.push((t, p, paused));
            }
        }
    }

    /// The changes seen since the last call.
    pub fn take(&mut self) -> Vec<ClockChange> {
        std::mem::take(&mut self.changes)
    }
}
