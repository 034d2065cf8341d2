//! How many window results one instant emits at most, for every preset run to its end: a
//! playground in the page keeps the newest `PAGE_WINDOW_RESULTS` (`TraceSpec::in_page`), and an
//! element's `window` events lose none only while no instant emits more than that less the
//! results that may wait unread when it comes (`MAX_BATCH`).

use std::ops::ControlFlow;
use wmp::engine::deltas::MAX_BATCH;
use wmp::engine::observer::Observer;
use wmp::engine::scenario::schema::PAGE_WINDOW_RESULTS;
use wmp::engine::session::Session;
use wmp::engine::sim::Simulation;

/// The most window results any one instant emitted.
#[derive(Default)]
struct Burst {
    seen: usize,
    most: usize,
}

impl Observer for Burst {
    fn after_instant(&mut self, sim: &Simulation) -> ControlFlow<()> {
        let total = sim.downstream().sink.total();
        self.most = self.most.max(total - self.seen);
        self.seen = total;
        ControlFlow::Continue(())
    }
}

#[test]
fn no_preset_emits_more_window_results_at_one_instant_than_the_page_keeps() {
    for p in wmp::engine::scenario::catalog::presets() {
        let mut s = Session::from_json(p.json).unwrap();
        let mut burst = Burst::default();
        s.run_to_end(&mut burst).unwrap_or_else(|e| panic!("{}: {e}", p.id));
        assert!(burst.most + MAX_BATCH <= PAGE_WINDOW_RESULTS, "{}: {} window results at one instant", p.id, burst.most);
    }
}
