//! Metrics under Flink's names, per subtask, and the answer of Flink's REST endpoint
//! `GET /jobs/:jobid/vertices/:vertexid/watermarks` (reference §11). Both serialize to the JS
//! API's shapes (watermarks as `{ ms, raw }`); `wmp run`'s report writes its own, older form.

use super::flow::back_pressure::BackPressureLevel;
use super::sim::Simulation;
use super::source::subtask::SourceSubtask;
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
    /// `(idling ? idleStart : now) − lastEmittedWatermark`, idling as the reader is (nothing to
    /// read), not the watermark status; null before the first watermark.
    pub watermark_lag: Option<i64>,
    pub num_records_out: u64,
    pub num_records_filtered: u64,
    pub idle: bool,
    pub idle_time_ms: i64,
    pub splits: usize,
    /// Back-pressure (`flow`): false / 0 without a capacity limit.
    #[serde(rename = "isBackPressured")]
    pub is_back_pressured: bool,
    pub back_pressured_time_ms_per_second: i64,
    /// The fullest output channel's share of its credits (0..1).
    pub out_pool_usage: f64,
    /// The Kafka connector's `pendingRecords`: records not yet read from its splits.
    pub pending_records: u64,
    /// `watermarkAlignmentDrift` (registered at the first alignment announcement).
    pub watermark_alignment_drift: Option<i64>,
}

/// Window operator subtask metrics.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct WindowMetrics {
    pub subtask: u32,
    /// Flink's gauge: with two inputs the lower of both, idle or not (the operator's own
    /// watermark, which leaves idle inputs out, is the snapshot's).
    #[serde(serialize_with = "as_watermark")]
    #[cfg_attr(test, ts(as = "super::view::Watermark"))]
    pub current_input_watermark: EventTime,
    #[serde(serialize_with = "as_watermark")]
    #[cfg_attr(test, ts(as = "super::view::Watermark"))]
    pub current_output_watermark: EventTime,
    /// Processing time minus `currentInputWatermark` (the "event-time lag" people alert on).
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
    /// `busyTimeMsPerSecond` (0 without a capacity limit: processing then takes no time).
    pub busy_time_ms_per_second: i64,
    /// The fullest input channel's share of its credits (0..1).
    pub in_pool_usage: f64,
    /// Two-input operators: each input's watermark, named as Flink's older per-input gauges
    /// (Flink 2.3 registers neither, only `currentInputWatermark`, their minimum).
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

/// The REST back-pressure answer for a vertex.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub struct RestBackPressure {
    pub status: &'static str,
    pub backpressure_level: &'static str,
    pub end_timestamp: i64,
    pub subtasks: Vec<RestSubtaskBackPressure>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct RestSubtaskBackPressure {
    pub subtask: u32,
    #[serde(rename = "backpressure-level")]
    pub backpressure_level: &'static str,
    /// `backPressuredTimeMsPerSecond / 1000`.
    pub ratio: f64,
    #[serde(rename = "idleRatio")]
    pub idle_ratio: f64,
    #[serde(rename = "busyRatio")]
    pub busy_ratio: f64,
}

impl RestSubtaskBackPressure {
    fn new(subtask: u32, back_pressured_ms: i64, busy_ms: i64) -> Self {
        let (ratio, busy_ratio) = (back_pressured_ms as f64 / 1000.0, busy_ms as f64 / 1000.0);
        RestSubtaskBackPressure {
            subtask,
            backpressure_level: BackPressureLevel::of(back_pressured_ms).rest_name(),
            ratio,
            idle_ratio: (1.0 - ratio - busy_ratio).max(0.0),
            busy_ratio,
        }
    }
}

fn lag(now: ProcTime, w: EventTime) -> Option<i64> {
    (w != NO_WATERMARK && w != END_OF_TIME).then(|| now.ms().saturating_sub(w.ms()))
}

impl Simulation {
    /// Since when source subtask `s`'s reader has had nothing to read (Flink's `idleStartTime`,
    /// which stops the source's `watermarkLag`): none while a readable split has records left
    /// (a rate limit or back-pressure keeps the reader busy) or the subtask waits for alignment;
    /// else its last record, or the tasks' start when it read none. It is not the watermark
    /// status: a silent split without `withIdleness` stops the lag too (reference §11).
    fn reader_idle_since(&self, s: &SourceSubtask) -> Option<ProcTime> {
        let unread = |i: usize| self.partitions[s.splits[i].partition as usize].readable() > 0;
        if !s.reads() || (0..s.splits.len()).any(|i| s.readable(i) && unread(i)) {
            return None;
        }
        Some(s.last_record_at.unwrap_or_else(|| self.failover.restored_at.unwrap_or(self.cfg.start_time)))
    }

    /// Counts are real ones (× `flow.record_scale`, see `snapshot_with`).
    pub fn metrics(&self) -> Metrics {
        let x = |n: u64| self.cfg.cluster.scaled(n);
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
                    watermark_lag: lag(self.reader_idle_since(s).unwrap_or(now), w),
                    num_records_out: x(s.num_records_out),
                    num_records_filtered: x(s.num_records_filtered),
                    idle: s.output.is_idle(),
                    idle_time_ms: s.idle_time_ms + idle_extra,
                    splits: s.splits.iter().filter(|sp| !sp.released).count(),
                    is_back_pressured: s.pressure.is_back_pressured,
                    back_pressured_time_ms_per_second: s.pressure.back_pressured.value(),
                    out_pool_usage: self.pool_usage(self.down.targets[s.index as usize].iter().map(|&d| (s.index, d))),
                    pending_records: x(s
                        .splits
                        .iter()
                        .filter(|sp| !sp.released)
                        .map(|sp| self.partitions[sp.partition as usize].unread() as u64)
                        .sum()),
                    watermark_alignment_drift: s.alignment.as_ref().and_then(|a| a.drift_ms()),
                }
            })
            .collect();
        let window = self
            .down
            .windows
            .iter()
            .map(|w| (w, w.input_watermark_gauge()))
            .map(|(w, input)| WindowMetrics {
                subtask: w.index,
                current_input_watermark: input,
                current_output_watermark: w.current_output_watermark,
                watermark_lag: lag(now, input),
                num_records_in: x(w.num_records_in),
                num_records_out: x(w.num_records_out),
                num_late_records_dropped: x(w.num_late_records_dropped),
                num_late_records_side_output: x(w.num_late_records_side_output),
                idle: w.input.is_idle(),
                idle_time_ms: w.idle_time_ms + w.idle_since.map_or(0, |t| now - t),
                window_state_size: x(w.op.state_size() as u64) as usize,
                records_in_window_state: x(w.op.records_in_state()),
                busy_time_ms_per_second: self.down.keyed_flow[w.index as usize].busy.value(),
                in_pool_usage: self.pool_usage(w.input.channels().map(|(ch, _)| (ch.source, w.index))),
                current_input1_watermark: (w.input.inputs() > 1).then(|| w.input.input_watermark(0)),
                current_input2_watermark: (w.input.inputs() > 1).then(|| w.input.input_watermark(1)),
                state_entries: x(self.state_entries(w.index as usize)),
                state_bytes: self.cfg.cluster.bytes(self.state_entries(w.index as usize)),
                task_manager: self.cfg.cluster.task_manager_of(w.index),
            })
            .collect();
        let f = self.failover();
        let job = JobMetrics {
            num_restarts: f.restarts(),
            number_of_completed_checkpoints: f.coordinator.completed(),
            last_checkpoint_restore_timestamp: f.restored_at,
        };
        Metrics { now, source, window, job }
    }

    /// The fullest of these (source, keyed subtask) channels as a share of its credits.
    fn pool_usage(&self, channels: impl Iterator<Item = (u32, u32)>) -> f64 {
        let cap = self.cfg.flow.channel_buffer_records.max(1) as f64;
        channels.map(|(s, d)| self.down.channel_records(s, d) as f64 / cap).fold(0.0, f64::max).min(1.0)
    }

    /// `GET /jobs/:jobid/vertices/:vertexid/backpressure` (`JobVertexBackPressureInfo`): the
    /// vertex's level is its worst subtask's. `"source"` is every source subtask (both inputs').
    pub fn rest_back_pressure(&self, vertex: &str) -> Option<RestBackPressure> {
        match vertex {
            "source" => self.rest_back_pressure_of_sources(0..self.sources.len() as u32),
            "window" => Some(self.back_pressure_info(
                self.down.keyed_flow.iter().enumerate().map(|(i, f)| RestSubtaskBackPressure::new(i as u32, 0, f.busy.value())).collect(),
            )),
            _ => None,
        }
    }

    /// The back-pressure of the source subtasks with global indexes `range` (one job input's
    /// source vertex), numbered from 0 within it.
    pub fn rest_back_pressure_of_sources(&self, range: std::ops::Range<u32>) -> Option<RestBackPressure> {
        let subtasks = self
            .sources
            .iter()
            .filter(|s| range.contains(&s.index))
            .map(|s| RestSubtaskBackPressure::new(s.index - range.start, s.pressure.back_pressured.value(), 0))
            .collect();
        Some(self.back_pressure_info(subtasks))
    }

    fn back_pressure_info(&self, subtasks: Vec<RestSubtaskBackPressure>) -> RestBackPressure {
        let worst = subtasks.iter().map(|s| s.ratio).fold(0.0, f64::max);
        RestBackPressure {
            status: "ok",
            backpressure_level: BackPressureLevel::of((worst * 1000.0) as i64).rest_name(),
            end_timestamp: self.now.max(self.cfg.start_time).ms(),
            subtasks,
        }
    }

    /// The REST watermarks answer for a vertex: `"source"` gives `[]` (sources register no
    /// task-level input watermark), `"window"` one entry per subtask: `JobVertexWatermarksHandler`
    /// reads only `currentInputWatermark`, a two-input task's minimum of both inputs.
    pub fn rest_watermarks(&self, vertex: &str) -> Option<Vec<RestWatermark>> {
        match vertex {
            "source" => Some(Vec::new()),
            "window" => Some(
                self.down
                    .windows
                    .iter()
                    .map(|w| RestWatermark {
                        id: format!("{}.currentInputWatermark", w.index),
                        value: w.input_watermark_gauge().to_string(),
                    })
                    .collect(),
            ),
            _ => None,
        }
    }
}
