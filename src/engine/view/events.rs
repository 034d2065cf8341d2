//! `eventsSince(cursor)`: a delta of the bounded trace, keys by name.

use crate::engine::sim::Simulation;
use crate::engine::trace::TraceEvent;
use serde::Serialize;

/// The retained events from `cursor` on, how many of the requested ones the bounded trace had
/// already dropped, and the cursor to pass next time.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct EventBatch {
    pub events: Vec<TraceEvent<String>>,
    /// Requested events the bounded trace had already dropped.
    pub lost: u64,
    /// Pass this to the next `eventsSince`.
    pub cursor: u64,
}

impl Simulation {
    pub fn event_batch(&self, cursor: u64) -> EventBatch {
        let (events, lost) = self.trace().events_since(cursor);
        let keys = self.keys();
        EventBatch { events: events.iter().map(|e| e.with_key_names(keys)).collect(), lost, cursor: self.trace().cursor() }
    }
}
