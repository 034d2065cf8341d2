//! A cursor over what a run produced: trace events, window results, interval-join pairs and late
//! records since the last look. The JS API's listeners and the UI's tables both read "what is new" through it, so
//! the rules (which results are still retained, how many late records were dropped from the
//! bounded buffer before anyone looked) are written once.

use super::late_records::LateRecord;
use super::operator::join_results::JoinResult;
use super::operator::sink::WindowResult;
use super::sim::Simulation;
use super::trace::TraceEvent;

/// The most events a listener's run collects before it stops to hand them over (the JS API's
/// `on()`, the element's DOM events): an hour of seed 001 is some 300,000 watermark events,
/// which held in one batch took 480 MB of wasm memory (and nine hours trapped out of memory).
/// Up to this many window results may wait unread when an instant's burst comes, so the page
/// keeps more results than any preset's burst plus this (`tests/burst.rs`).
pub const MAX_BATCH: usize = 4096;

/// Where a reader stands in each of the four streams.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cursor {
    /// The next trace sequence number to read.
    pub trace: u64,
    /// The next window result index (emission order).
    pub windows: usize,
    /// Late records counted so far (dropped + side output): the index of the next one.
    pub late: u64,
    /// The next joined pair's index (emission order).
    pub joins: u64,
}

impl Cursor {
    /// A cursor past everything the simulation has produced so far.
    pub fn at_end(sim: &Simulation) -> Self {
        let d = sim.downstream();
        Cursor { trace: sim.trace().cursor(), windows: d.sink.total(), late: d.late_total(), joins: d.joins.total() }
    }

    /// Trace events not read yet: how many are waiting (retained or not).
    pub fn trace_waiting(&self, sim: &Simulation) -> u64 {
        sim.trace().cursor() - self.trace
    }

    /// Late records not read yet: how many are waiting (retained or not).
    pub fn late_waiting(&self, sim: &Simulation) -> u64 {
        sim.downstream().late_total() - self.late
    }

    /// The trace events since the last read that the bounded ring still holds, and how many it
    /// had already dropped. Moves the cursor to the end.
    pub fn read_trace(&mut self, sim: &Simulation) -> (Vec<TraceEvent>, u64) {
        let read = sim.trace().events_since(self.trace);
        self.trace = sim.trace().cursor();
        read
    }

    /// The window results emitted since the last read that the sink still retains, with their
    /// emission index. Moves the cursor to the end.
    pub fn read_windows<'a>(&mut self, sim: &'a Simulation) -> impl Iterator<Item = (usize, &'a WindowResult)> + 'a {
        let sink = &sim.downstream().sink;
        let from = self.windows.min(sink.total());
        self.windows = sink.total();
        sink.since(from)
    }

    /// The pairs an interval join emitted since the last read that are still kept, with their
    /// emission index. Moves the cursor to the end.
    pub fn read_joins<'a>(&mut self, sim: &'a Simulation) -> impl Iterator<Item = (u64, &'a JoinResult)> + 'a {
        let from = self.joins;
        self.joins = sim.downstream().joins.total();
        sim.downstream().joins.since(from)
    }

    /// The late records counted since the last read that the late buffer still holds, with their
    /// index among all late records. Moves the cursor to the end.
    pub fn read_late<'a>(&mut self, sim: &'a Simulation) -> impl Iterator<Item = (u64, &'a LateRecord)> + 'a {
        let total = sim.downstream().late_total();
        let late = &sim.downstream().late;
        let kept = (total.saturating_sub(self.late) as usize).min(late.len());
        self.late = total;
        let first = total - kept as u64;
        late.iter().skip(late.len() - kept).enumerate().map(move |(i, l)| (first + i as u64, l))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::scenario::build;

    #[test]
    fn each_stream_is_read_once_and_retention_is_respected() {
        let json = include_str!("../../tests/scenarios/late_data_allowed_lateness.json");
        let mut sc = build::parse(json).unwrap();
        sc.trace.late_records_retained = 3;
        let sim = sc.run().unwrap();
        let mut c = Cursor::default();
        let total_late = sim.downstream().late_total();
        assert!(total_late > 3, "the scenario has late records");
        let late: Vec<u64> = c.read_late(&sim).map(|(i, _)| i).collect();
        assert_eq!(late, vec![total_late - 3, total_late - 2, total_late - 1], "only the retained ones, with their global index");
        assert_eq!(c.read_late(&sim).count(), 0);
        let n = c.read_windows(&sim).count();
        assert_eq!(n, sim.downstream().sink.total());
        assert_eq!(c.read_windows(&sim).count(), 0);
        let (events, lost) = c.read_trace(&sim);
        assert_eq!(events.len() as u64 + lost, sim.trace().cursor(), "every event is either read or counted as lost");
        assert_eq!(c, Cursor::at_end(&sim));
    }
}
