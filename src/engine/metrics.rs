//! Metrics under Flink's names, per subtask, and the answer of Flink's REST endpoint
//! `GET /jobs/:jobid/vertices/:vertexid/watermarks` (reference §11). Both serialize to the JS
//! API's shapes (watermarks as `{ ms, raw }`); `wmp run`'s report writes its own, older form.

use super::sim::Simulation;
use super::time::{EventTime, ProcTime, END_OF_TIME, NO_WATERMARK};
use super::view::watermark::{as_opt_watermark, as_watermark};
use serde::Serialize;

/// Source subtask metrics (the source reader group).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct SourceMetrics {
    pub subtask: u32,
    #[serde(serialize_with = "as_watermark")]
    #[cfg_attr(test, ts(as = "super::view::Watermark"))]
    pub current_output_watermark: EventTime,
    /// `(idling ? idleStart : now) − lastEmittedWatermark`; null before the first watermark.
    pub watermark_lag: Option<i64>,
    pub num_records_out: u64,
    pub num_records_filtered: u64,
    pub idle: bool,
    pub idle_time_ms: i64,
    pub splits: usize,
}

/// Window operator subtask metrics.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct WindowMetrics {
    pub subtask: u32,
    #[serde(serialize_with = "as_watermark")]
    #[cfg_attr(test, ts(as = "super::view::Watermark"))]
    pub current_input_watermark: EventTime,
    #[serde(serialize_with = "as_watermark")]
    #[cfg_attr(test, ts(as = "super::view::Watermark"))]
    pub current_output_watermark: EventTime,
    /// Processing time minus the watermark (the "event-time lag" people alert on).
    pub watermark_lag: Option<i64>,
    pub num_records_in: u64,
    pub num_records_out: u64,
    pub num_late_records_dropped: u64,
    pub num_late_records_side_output: u64,
    pub idle: bool,
    pub idle_time_ms: i64,
    /// Keys × open windows.
    pub window_state_size: usize,
    pub records_in_window_state: u64,
    /// Two-input operators: `currentInput1Watermark`, `currentInput2Watermark` (the
    /// operator's `currentInputWatermark` is their minimum).
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "as_opt_watermark")]
    #[cfg_attr(test, ts(as = "Option<super::view::Watermark>", optional))]
    pub current_input1_watermark: Option<EventTime>,
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "as_opt_watermark")]
    #[cfg_attr(test, ts(as = "Option<super::view::Watermark>", optional))]
    pub current_input2_watermark: Option<EventTime>,
    /// Keyed state entries and their estimated bytes (`flow`), and the TaskManager it runs on.
    pub state_entries: u64,
    pub state_bytes: u64,
    pub task_manager: u32,
}

/// Job metrics (Flink's job scope): restarts and checkpoints.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct JobMetrics {
    pub num_restarts: u32,
    pub number_of_completed_checkpoints: u64,
    /// Flink reports −1 before the first restore; null here.
    pub last_checkpoint_restore_timestamp: Option<ProcTime>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Metrics {
    pub now: ProcTime,
    pub source: Vec<SourceMetrics>,
    pub window: Vec<WindowMetrics>,
    pub job: JobMetrics,
}

/// One entry of the REST watermarks answer; values are strings, as Flink sends them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct RestWatermark {
    pub id: String,
    pub value: String,
}

fn lag(now: ProcTime, w: EventTime) -> Option<i64> {
    (w != NO_WATERMARK && w != END_OF_TIME).then(|| now.ms().saturating_sub(w.ms()))
}

impl Simulation {
    pub fn metrics(&self) -> Metrics {
        let now = self.now.max(self.cfg.start_time);
        let source = self
            .sources
            .iter()
            .map(|s| {
                let idle_extra = s.idle_since.map_or(0, |t| now - t);
                let w = s.output.current_watermark();
                SourceMetrics {
                    subtask: s.index,
                    current_output_watermark: w,
                    watermark_lag: lag(s.idle_since.unwrap_or(now), w),
                    num_records_out: s.num_records_out,
                    num_records_filtered: s.num_records_filtered,
                    idle: s.output.is_idle(),
                    idle_time_ms: s.idle_time_ms + idle_extra,
                    splits: s.splits.iter().filter(|sp| !sp.released).count(),
                }
            })
            .collect();
        let window = self
            .down
            .windows
            .iter()
            .map(|w| WindowMetrics {
                subtask: w.index,
                current_input_watermark: w.current_input_watermark(),
                current_output_watermark: w.current_output_watermark,
                watermark_lag: lag(now, w.current_input_watermark()),
                num_records_in: w.num_records_in,
                num_records_out: w.num_records_out,
                num_late_records_dropped: w.num_late_records_dropped,
                num_late_records_side_output: w.num_late_records_side_output,
                idle: w.input.is_idle(),
                idle_time_ms: w.idle_time_ms + w.idle_since.map_or(0, |t| now - t),
                window_state_size: w.op.state_size(),
                records_in_window_state: w.op.records_in_state(),
                current_input1_watermark: (w.input.inputs() > 1).then(|| w.input.input_watermark(0)),
                current_input2_watermark: (w.input.inputs() > 1).then(|| w.input.input_watermark(1)),
                state_entries: self.state_entries(w.index as usize),
                state_bytes: self.cfg.cluster.bytes(self.state_entries(w.index as usize)),
                task_manager: self.cfg.cluster.task_manager_of(w.index),
            })
            .collect();
        let f = self.failover();
        let job = JobMetrics {
            num_restarts: f.attempt - 1,
            number_of_completed_checkpoints: f.coordinator.completed(),
            last_checkpoint_restore_timestamp: f.restored_at,
        };
        Metrics { now, source, window, job }
    }

    /// The REST watermarks answer for a vertex: `"source"` gives `[]` (sources register no
    /// task-level input watermark), `"window"` one entry per subtask.
    pub fn rest_watermarks(&self, vertex: &str) -> Option<Vec<RestWatermark>> {
        match vertex {
            "source" => Some(Vec::new()),
            "window" => Some(
                self.down
                    .windows
                    .iter()
                    .flat_map(|w| {
                        let mut out = vec![RestWatermark {
                            id: format!("{}.currentInputWatermark", w.index),
                            value: w.current_input_watermark().to_string(),
                        }];
                        // A two-input task reports each input too.
                        for i in (0..w.input.inputs()).filter(|_| w.input.inputs() > 1) {
                            out.push(RestWatermark {
                                id: format!("{}.currentInput{}Watermark", w.index, i + 1),
                                value: w.input.input_watermark(i).to_string(),
                            });
                        }
                        out
                    })
                    .collect(),
            ),
            _ => None,
        }
    }
}
