//! The objects `on(event, cb)` hands to its callbacks: watermark and idle/active changes (read
//! from the trace) and where the clock is after a call. Window results and late records are
//! handed over as `results` shows them.

use super::watermark::as_watermark;
use crate::engine::time::{EventTime, ProcTime};
use serde::Serialize;

/// Where a watermark or a status changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Split,
    Source,
    /// The watermark operator chained after a source subtask (`subtask` is the source's).
    Chained,
    Operator,
}

/// A `watermark` event.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct WatermarkEvent {
    pub seq: u64,
    pub time: ProcTime,
    pub level: Level,
    pub subtask: u32,
    /// Set for split events.
    pub partition: Option<u32>,
    #[serde(serialize_with = "as_watermark")]
    #[cfg_attr(test, ts(as = "super::Watermark"))]
    pub watermark: EventTime,
}

/// An `idle` or `active` event.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct StatusEvent {
    pub seq: u64,
    pub time: ProcTime,
    pub level: Level,
    pub subtask: u32,
    /// Set for split events.
    pub partition: Option<u32>,
}

/// A `step` event: where the clock is after the call.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct StepEvent {
    pub now: ProcTime,
    pub elapsed_ms: i64,
}
