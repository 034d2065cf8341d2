//! `WatermarkStatus` and the non-record stream elements that travel beside records.

use super::time::EventTime;
use serde::Serialize;

/// Flink's `WatermarkStatus`: an IDLE stream will not advance the watermark (it may still
/// carry records, FLIP-180).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "UPPERCASE")]
pub enum WatermarkStatus {
    Active,
    Idle,
}

impl WatermarkStatus {
    pub fn is_idle(self) -> bool {
        self == WatermarkStatus::Idle
    }
}

/// What an output emits besides records, in emission order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signal {
    Watermark(EventTime),
    Status(WatermarkStatus),
}
