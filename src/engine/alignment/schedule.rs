//! When alignment runs (step 7 of a millisecond, `docs/FLOW.md`): at every `updateInterval`
//! after the start (after a restart, after the restart), each subtask of an aligned source samples, checks and reports, then the
//! coordinator announces the max allowed watermark to the subtasks that reported. Flink runs
//! these on separate timers and an RPC; the engine runs them at the same instant, in this
//! order, with no delay.

use crate::engine::sim::Simulation;
use crate::engine::time::{EventTime, ProcTime};

impl Simulation {
    /// The minimum over input `input`'s alignment group as the coordinator knows it (the last
    /// reports), if the input is aligned and anything was reported.
    pub fn alignment_group_min(&self, input: u8) -> Option<EventTime> {
        self.coordinator.group_min(input)
    }

    /// At a restart the new tasks report first one update interval after they open, as at the
    /// job start (the restored `SourceOperator` schedules its reports at a fixed delay, reference
    /// §5.1), and the engine's coordinator announces at the same instants.
    pub(crate) fn realign_alignment_ticks(&mut self, t: ProcTime) {
        for (input, next) in self.next_alignment.iter_mut().enumerate() {
            let Some(every) = self.cfg.inputs[input].alignment.as_ref().map(|a| a.update_interval_ms) else { continue };
            *next = Some(t.saturating_add(every));
        }
    }

    /// While the job is down nothing reports or announces; the schedule moves past `t`.
    pub(crate) fn skip_alignment_ticks(&mut self, t: ProcTime) {
        for (input, next) in self.next_alignment.iter_mut().enumerate() {
            let Some(interval) = self.cfg.inputs[input].alignment.as_ref().map(|a| a.update_interval_ms) else { continue };
            while next.is_some_and(|n| n <= t) {
                *next = next.map(|n| n + interval);
            }
        }
    }

    pub(crate) fn align(&mut self, t: ProcTime) {
        for input in 0..self.next_alignment.len() {
            if self.next_alignment[input] != Some(t) {
                continue;
            }
            let Some(interval) = self.cfg.inputs[input].alignment.as_ref().map(|a| a.update_interval_ms) else { continue };
            let subtasks: Vec<usize> = (0..self.sources.len()).filter(|&s| self.sources[s].input as usize == input).collect();
            for &s in &subtasks {
                let ended = self.input_ended(s);
                if let Some(w) = self.sources[s].alignment_tick(ended, t, &mut self.trace) {
                    let index = self.sources[s].index_in_source;
                    self.coordinator.report(input as u8, index, w);
                }
            }
            if let Some(max_allowed) = self.coordinator.max_allowed(input as u8) {
                for &s in &subtasks {
                    if self.coordinator.has_reported(input as u8, self.sources[s].index_in_source) {
                        self.sources[s].on_announcement(max_allowed, t, &mut self.trace);
                    }
                }
            }
            self.next_alignment[input] = Some(t + interval);
        }
    }
}
