//! The flow metrics' bookkeeping per processed millisecond: back-pressured time counts for each
//! source subtask that ended its reads back-pressured, and every 5 s the `TimerGauge`s close a
//! bucket (caught up after a skipped stretch, in which nothing was back-pressured or busy:
//! both keep an instant busy until they clear).

use super::timer_gauge::UPDATE_INTERVAL_MS;
use crate::engine::sim::Simulation;
use crate::engine::time::ProcTime;

impl Simulation {
    pub(crate) fn note_flow(&mut self, t: ProcTime) {
        if !self.cfg.flow_controlled() {
            return;
        }
        while self.next_metric_update < t {
            self.update_flow_metrics();
        }
        for src in &mut self.sources {
            if src.pressure.is_back_pressured {
                src.pressure.back_pressured.add(1);
            }
        }
        if self.next_metric_update == t {
            self.update_flow_metrics();
        }
    }

    fn update_flow_metrics(&mut self) {
        self.sources.iter_mut().for_each(|s| s.pressure.update());
        self.down.update_flow_metrics();
        self.next_metric_update += UPDATE_INTERVAL_MS;
    }
}
