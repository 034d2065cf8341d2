//! The hook of the run loops: something that watches a run one instant at a time.
//!
//! `Simulation::run_until_with` and `step_to_next_interesting_with` call the observer after
//! every processed instant, so the JS API can pull event deltas before the bounded trace drops
//! them and the UI's playback can stop when its frame budget is spent — without loops of their
//! own. The unit observer `()` watches nothing and costs nothing.

use super::sim::Simulation;
use std::ops::ControlFlow;

pub trait Observer {
    /// Called after each processed instant. `Break` stops the run there: the clock stays at
    /// that instant.
    fn after_instant(&mut self, sim: &Simulation) -> ControlFlow<()>;
}

impl Observer for () {
    #[inline(always)]
    fn after_instant(&mut self, _: &Simulation) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
}
