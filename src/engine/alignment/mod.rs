//! Watermark alignment (reference §1.7, §5): FLIP-182 (a source subtask stops reading while its
//! watermark is ahead of the group's minimum by more than the max drift) and FLIP-217 (single
//! splits are paused instead). The coordinator aggregates what subtasks report and announces
//! the max allowed watermark; the 2.3 sampling buffer delays the decisions.

pub mod aggregator;
pub mod coordinator;
pub mod sampler;
pub mod schedule;
pub mod source_alignment;

use crate::engine::limits::MAX_INTERVAL_MS;
use serde::{Deserialize, Serialize};

/// `withWatermarkAlignment(group, maxDrift, updateInterval)` (`WatermarkAlignmentParams`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct AlignmentParams {
    pub group: String,
    pub max_drift_ms: i64,
    #[serde(default = "default_update_interval")]
    pub update_interval_ms: i64,
}

fn default_update_interval() -> i64 {
    1_000
}

impl AlignmentParams {
    /// Flink's checks: group non-null, `maxDrift ≥ 0`, `updateInterval > 0`.
    pub fn validate(&self) -> Result<(), (&'static str, &'static str)> {
        if self.group.is_empty() {
            return Err(("group", "must name the alignment group"));
        }
        if self.max_drift_ms < 0 {
            return Err(("max_drift_ms", "must be ≥ 0"));
        }
        if self.update_interval_ms <= 0 {
            return Err(("update_interval_ms", "must be > 0"));
        }
        // Flink takes any positive long; past a day the schedule's sums would overflow.
        if self.update_interval_ms > MAX_INTERVAL_MS {
            return Err(("update_interval_ms", "at most 86,400,000 (a day)"));
        }
        Ok(())
    }
}

/// The job-wide alignment switches (`pipeline.watermark-alignment.*`, versions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AlignmentSwitches {
    /// `pipeline.watermark-alignment.buffer-size` (2.3: 3; 0 = before 2.3).
    pub buffer_size: usize,
    /// `pipeline.watermark-alignment.allow-unaligned-source-splits`: a reader that cannot pause
    /// splits is aligned at subtask level only instead of failing the job.
    pub allow_unaligned_source_splits: bool,
}

impl Default for AlignmentSwitches {
    fn default() -> Self {
        AlignmentSwitches { buffer_size: 3, allow_unaligned_source_splits: false }
    }
}

/// What the job fails with when split alignment is needed and the reader cannot pause.
pub const UNSUPPORTED_SPLIT_PAUSE: &str = "the job failed: UnsupportedOperationException: Split reader does not support pause or resume of splits (set pipeline.watermark-alignment.allow-unaligned-source-splits: true to align at source level only)";
