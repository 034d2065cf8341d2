//! The plain objects the API returns, in camelCase. Every watermark is a [`Watermark`]
//! (`{ ms, raw }`): `raw` is the exact 64-bit value as a decimal string (as Flink's REST API
//! sends it), `ms` the same value as a number, or `null` for `Long.MIN_VALUE` ("No Watermark"),
//! `Long.MAX_VALUE` (end of input) and anything beyond ±2^53 − 1. Timestamps and processing
//! times are numbers of milliseconds since the epoch. `src/api/wmp.d.ts` mirrors this file.

use super::convert::MAX_SAFE;
use crate::engine::downstream::LateRecord;
use crate::engine::explain::{Explanation, Reason};
use crate::engine::keys::KeyTable;
use crate::engine::metrics::{Metrics, SourceMetrics, WindowMetrics};
use crate::engine::operator::aggregate::AggregateKind;
use crate::engine::operator::sink::WindowResult;
use crate::engine::sim::Simulation;
use crate::engine::status::WatermarkStatus;
use crate::engine::time::{EventTime, ProcTime, END_OF_TIME, NO_WATERMARK};
use crate::engine::trace::{TraceEvent, TraceKind};
use serde::Serialize;
use serde_json::Value;

/// A watermark: exact as `raw`, convenient as `ms`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Watermark {
    pub ms: Option<i64>,
    pub raw: String,
}

impl Watermark {
    pub fn new(w: EventTime) -> Self {
        let ms = (w != NO_WATERMARK && w != END_OF_TIME && w.ms().unsigned_abs() <= MAX_SAFE as u64).then_some(w.ms());
        Watermark { ms, raw: w.to_string() }
    }
}

fn wm(w: EventTime) -> Watermark {
    Watermark::new(w)
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SplitView {
    pub partition: u32,
    pub subtask: Option<u32>,
    pub produced: u64,
    pub read: u64,
    pub unread: usize,
    pub max_timestamp: Option<EventTime>,
    pub watermark: Option<Watermark>,
    pub idle: bool,
    pub idle_deadline: Option<ProcTime>,
    pub last_record_at: Option<ProcTime>,
    pub released: bool,
    pub silent: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SourceView {
    pub subtask: u32,
    pub partitions: Vec<u32>,
    pub combined_watermark: Watermark,
    pub output_watermark: Watermark,
    pub idle: bool,
    pub main_output_idle: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ChannelView {
    pub channel: usize,
    pub source_subtask: u32,
    pub watermark: Watermark,
    pub status: WatermarkStatus,
    pub aligned: bool,
    pub is_min: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OpenWindow {
    pub key: String,
    pub start: EventTime,
    pub end: EventTime,
    pub count: u64,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OperatorView {
    pub subtask: u32,
    pub input_watermark: Watermark,
    pub output_watermark: Watermark,
    pub idle: bool,
    pub channels: Vec<ChannelView>,
    pub window_state_size: usize,
    /// Windows waiting for the watermark, earliest first (at most the requested number).
    pub open_windows: Vec<OpenWindow>,
    pub open_window_count: usize,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SnapshotView {
    pub now: ProcTime,
    pub elapsed_ms: i64,
    pub start_time: ProcTime,
    pub started: bool,
    pub finished: bool,
    pub splits: Vec<SplitView>,
    pub sources: Vec<SourceView>,
    pub operators: Vec<OperatorView>,
    pub windows_fired: usize,
    pub late_records: u64,
    pub trace_cursor: u64,
    pub trace_hash: String,
    pub metrics: MetricsView,
}

/// The job's picture now; `open_windows` caps the open windows listed per operator.
pub fn snapshot(sim: &Simulation, finished: bool, open_windows: usize) -> SnapshotView {
    let s = sim.snapshot();
    let keys = sim.keys();
    let start = sim.config().start_time;
    let splits = s
        .splits
        .into_iter()
        .map(|v| SplitView {
            partition: v.partition,
            subtask: v.subtask,
            produced: v.produced,
            read: v.read,
            unread: v.unread,
            max_timestamp: v.max_timestamp,
            watermark: v.watermark.map(wm),
            idle: v.idle,
            idle_deadline: v.idle_deadline,
            last_record_at: v.last_record_at,
            released: v.released,
            silent: v.silent,
        })
        .collect();
    let sources = s
        .sources
        .into_iter()
        .map(|v| SourceView {
            subtask: v.subtask,
            partitions: v.partitions,
            combined_watermark: wm(v.combined_watermark),
            output_watermark: wm(v.output_watermark),
            idle: v.idle,
            main_output_idle: v.main_output_idle,
        })
        .collect();
    let windows = &sim.downstream().windows;
    let operators = s
        .operators
        .into_iter()
        .map(|o| {
            let (open, count) = match windows.get(o.subtask as usize) {
                Some(w) => {
                    let list = w.op.pending_windows().take(open_windows).map(|(k, st, e, n)| OpenWindow { key: keys.name(k).to_string(), start: st, end: e, count: n }).collect();
                    (list, w.op.pending_count())
                }
                None => (Vec::new(), 0),
            };
            OperatorView {
                subtask: o.subtask,
                input_watermark: wm(o.input_watermark),
                output_watermark: wm(o.output_watermark),
                idle: o.idle,
                channels: o
                    .channels
                    .into_iter()
                    .map(|c| ChannelView { channel: c.channel, source_subtask: c.source_subtask, watermark: wm(c.watermark), status: c.status, aligned: c.aligned, is_min: c.is_min })
                    .collect(),
                window_state_size: o.window_state_size,
                open_windows: open,
                open_window_count: count,
            }
        })
        .collect();
    SnapshotView {
        now: s.now,
        elapsed_ms: sim.now() - start,
        start_time: start,
        started: sim.now() >= start,
        finished,
        splits,
        sources,
        operators,
        windows_fired: s.windows_fired,
        late_records: s.late_records,
        trace_cursor: s.trace_cursor,
        trace_hash: s.trace_hash,
        metrics: metrics(sim.metrics()),
    }
}

/// One window result as the sink received it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WindowEmission {
    /// Position in emission order (`windows(from)` takes these).
    pub index: usize,
    pub subtask: u32,
    pub key: String,
    pub start: EventTime,
    pub end: EventTime,
    /// The aggregate the scenario emits (`window.aggregate`).
    pub value: i64,
    pub count: u64,
    pub sum: i64,
    pub min: i64,
    pub max: i64,
    pub watermark: Watermark,
    /// 0 for the on-time firing, 1, 2, … for late re-firings.
    pub firing: u32,
    /// Processing time of the firing.
    pub time: ProcTime,
}

pub fn window_emission(index: usize, r: &WindowResult, keys: &KeyTable, agg: AggregateKind) -> WindowEmission {
    WindowEmission {
        index,
        subtask: r.subtask,
        key: keys.name(r.key).to_string(),
        start: r.start,
        end: r.end,
        value: r.agg.value(agg),
        count: r.agg.count,
        sum: r.agg.sum,
        min: r.agg.min,
        max: r.agg.max,
        watermark: wm(r.watermark),
        firing: r.firing,
        time: r.time,
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LateRecordView {
    pub subtask: u32,
    pub partition: u32,
    pub offset: u64,
    pub ts: EventTime,
    pub key: String,
    pub value: i64,
    pub watermark: Watermark,
    pub side_output: bool,
    pub time: ProcTime,
}

pub fn late_record(l: &LateRecord, keys: &KeyTable) -> LateRecordView {
    LateRecordView {
        subtask: l.subtask,
        partition: l.partition,
        offset: l.offset,
        ts: l.ts,
        key: keys.name(l.key).to_string(),
        value: l.value,
        watermark: wm(l.watermark),
        side_output: l.side_output,
        time: l.time,
    }
}

/// Source subtask metrics under Flink's names.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SourceMetricsView {
    pub subtask: u32,
    pub current_output_watermark: Watermark,
    pub watermark_lag: Option<i64>,
    pub num_records_out: u64,
    pub num_records_filtered: u64,
    pub idle: bool,
    pub idle_time_ms: i64,
    pub splits: usize,
}

/// Window operator subtask metrics under Flink's names.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WindowMetricsView {
    pub subtask: u32,
    pub current_input_watermark: Watermark,
    pub current_output_watermark: Watermark,
    pub watermark_lag: Option<i64>,
    pub num_records_in: u64,
    pub num_records_out: u64,
    pub num_late_records_dropped: u64,
    pub num_late_records_side_output: u64,
    pub idle: bool,
    pub idle_time_ms: i64,
    pub window_state_size: usize,
    pub records_in_window_state: u64,
}

#[derive(Serialize)]
pub struct MetricsView {
    pub now: ProcTime,
    pub source: Vec<SourceMetricsView>,
    pub window: Vec<WindowMetricsView>,
}

fn source_metrics(m: SourceMetrics) -> SourceMetricsView {
    SourceMetricsView {
        subtask: m.subtask,
        current_output_watermark: wm(m.current_output_watermark),
        watermark_lag: m.watermark_lag,
        num_records_out: m.num_records_out,
        num_records_filtered: m.num_records_filtered,
        idle: m.idle,
        idle_time_ms: m.idle_time_ms,
        splits: m.splits,
    }
}

fn window_metrics(m: WindowMetrics) -> WindowMetricsView {
    WindowMetricsView {
        subtask: m.subtask,
        current_input_watermark: wm(m.current_input_watermark),
        current_output_watermark: wm(m.current_output_watermark),
        watermark_lag: m.watermark_lag,
        num_records_in: m.num_records_in,
        num_records_out: m.num_records_out,
        num_late_records_dropped: m.num_late_records_dropped,
        num_late_records_side_output: m.num_late_records_side_output,
        idle: m.idle,
        idle_time_ms: m.idle_time_ms,
        window_state_size: m.window_state_size,
        records_in_window_state: m.records_in_window_state,
    }
}

pub fn metrics(m: Metrics) -> MetricsView {
    MetricsView { now: m.now, source: m.source.into_iter().map(source_metrics).collect(), window: m.window.into_iter().map(window_metrics).collect() }
}

/// Who holds an operator's watermark.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CulpritView {
    pub channel: usize,
    pub source_subtask: u32,
    pub partition: Option<u32>,
}

/// A reason, as data; `kind` names it (snake_case, as in the engine).
#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "snake_case", rename_all_fields = "camelCase")]
pub enum ReasonView {
    AllInputsIdle,
    SubtaskWithoutSplit { source_subtask: u32 },
    SplitNeverReceived { partition: u32, idle_timeout_ms: Option<i64> },
    SplitSilentNoIdleTimeout { partition: u32, silent_ms: i64 },
    KeptActiveBySparseRecords { partition: u32, idle_timeout_ms: i64, last_record_ago_ms: i64 },
    IdleCountdown { partition: u32, idle_at: ProcTime },
    PeriodicEmissionDisabled,
    ChannelNotRealigned { channel: usize, source_subtask: u32 },
    FarFutureTimestamp { partition: u32, max_timestamp: EventTime, ahead_ms: i64 },
    SecondsReadAsMillis { watermark: Watermark },
    MillisReadAsSeconds { watermark: Watermark },
    /// A reason this API version does not know yet (the engine's debug text).
    Other { text: String },
}

#[allow(unreachable_patterns)]
fn reason(r: &Reason) -> ReasonView {
    match *r {
        Reason::AllInputsIdle => ReasonView::AllInputsIdle,
        Reason::SubtaskWithoutSplit { source_subtask } => ReasonView::SubtaskWithoutSplit { source_subtask },
        Reason::SplitNeverReceived { partition, idle_timeout_ms } => ReasonView::SplitNeverReceived { partition, idle_timeout_ms },
        Reason::SplitSilentNoIdleTimeout { partition, silent_ms } => ReasonView::SplitSilentNoIdleTimeout { partition, silent_ms },
        Reason::KeptActiveBySparseRecords { partition, idle_timeout_ms, last_record_ago_ms } => {
            ReasonView::KeptActiveBySparseRecords { partition, idle_timeout_ms, last_record_ago_ms }
        }
        Reason::IdleCountdown { partition, idle_at } => ReasonView::IdleCountdown { partition, idle_at },
        Reason::PeriodicEmissionDisabled => ReasonView::PeriodicEmissionDisabled,
        Reason::ChannelNotRealigned { channel, source_subtask } => ReasonView::ChannelNotRealigned { channel, source_subtask },
        Reason::FarFutureTimestamp { partition, max_timestamp, ahead_ms } => ReasonView::FarFutureTimestamp { partition, max_timestamp, ahead_ms },
        Reason::SecondsReadAsMillis { watermark } => ReasonView::SecondsReadAsMillis { watermark: wm(watermark) },
        Reason::MillisReadAsSeconds { watermark } => ReasonView::MillisReadAsSeconds { watermark: wm(watermark) },
        _ => ReasonView::Other { text: format!("{r:?}") },
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExplanationView {
    pub subtask: u32,
    pub watermark: Watermark,
    pub held_by: Option<CulpritView>,
    pub reasons: Vec<ReasonView>,
    pub waiting_windows: Vec<OpenWindow>,
    pub waiting_total: usize,
    pub text: String,
}

pub fn explanation(e: Explanation) -> ExplanationView {
    ExplanationView {
        subtask: e.subtask,
        watermark: wm(e.watermark),
        held_by: e.held_by.map(|c| CulpritView { channel: c.channel, source_subtask: c.source_subtask, partition: c.partition }),
        reasons: e.reasons.iter().map(reason).collect(),
        waiting_windows: e.waiting_windows.into_iter().map(|w| OpenWindow { key: w.key, start: w.start, end: w.end, count: w.count }).collect(),
        waiting_total: e.waiting_total,
        text: e.text,
    }
}

/// A trace event's payload; `kind` is the engine's snake_case name.
#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "snake_case", rename_all_fields = "camelCase")]
pub enum TraceKindView {
    Command { command: Value },
    RecordRead { subtask: u32, partition: u32, offset: u64, ts: EventTime, key: String },
    RecordFiltered { subtask: u32, partition: u32, offset: u64 },
    SplitWatermark { subtask: u32, partition: u32, watermark: Watermark },
    SplitIdle { subtask: u32, partition: u32 },
    SplitActive { subtask: u32, partition: u32 },
    SplitAdded { subtask: u32, partition: u32 },
    SplitReleased { subtask: u32, partition: u32 },
    SourceWatermark { subtask: u32, watermark: Watermark },
    SourceStatus { subtask: u32, status: WatermarkStatus },
    EndOfInputDropped { subtask: u32 },
    OperatorWatermark { subtask: u32, watermark: Watermark },
    OperatorStatus { subtask: u32, status: WatermarkStatus },
    WindowFired { subtask: u32, key: String, start: EventTime, end: EventTime, count: u64, sum: i64, watermark: Watermark, firing: u32 },
    LateRecord { subtask: u32, partition: u32, offset: u64, ts: EventTime, key: String, watermark: Watermark, side_output: bool },
    /// An event this API version does not know yet (the engine's debug text).
    Other { text: String },
}

#[derive(Serialize)]
pub struct TraceEventView {
    pub seq: u64,
    pub time: ProcTime,
    #[serde(flatten)]
    pub kind: TraceKindView,
}

#[allow(unreachable_patterns)]
pub fn trace_event(e: &TraceEvent, keys: &KeyTable) -> TraceEventView {
    let name = |k: u32| keys.name(k).to_string();
    let kind = match &e.kind {
        TraceKind::Command { text } => TraceKindView::Command { command: serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.clone())) },
        &TraceKind::RecordRead { subtask, partition, offset, ts, key } => TraceKindView::RecordRead { subtask, partition, offset, ts, key: name(key) },
        &TraceKind::RecordFiltered { subtask, partition, offset } => TraceKindView::RecordFiltered { subtask, partition, offset },
        &TraceKind::SplitWatermark { subtask, partition, watermark } => TraceKindView::SplitWatermark { subtask, partition, watermark: wm(watermark) },
        &TraceKind::SplitIdle { subtask, partition } => TraceKindView::SplitIdle { subtask, partition },
        &TraceKind::SplitActive { subtask, partition } => TraceKindView::SplitActive { subtask, partition },
        &TraceKind::SplitAdded { subtask, partition } => TraceKindView::SplitAdded { subtask, partition },
        &TraceKind::SplitReleased { subtask, partition } => TraceKindView::SplitReleased { subtask, partition },
        &TraceKind::SourceWatermark { subtask, watermark } => TraceKindView::SourceWatermark { subtask, watermark: wm(watermark) },
        &TraceKind::SourceStatus { subtask, status } => TraceKindView::SourceStatus { subtask, status },
        &TraceKind::EndOfInputDropped { subtask } => TraceKindView::EndOfInputDropped { subtask },
        &TraceKind::OperatorWatermark { subtask, watermark } => TraceKindView::OperatorWatermark { subtask, watermark: wm(watermark) },
        &TraceKind::OperatorStatus { subtask, status } => TraceKindView::OperatorStatus { subtask, status },
        &TraceKind::WindowFired { subtask, key, start, end, count, sum, watermark, firing } => {
            TraceKindView::WindowFired { subtask, key: name(key), start, end, count, sum, watermark: wm(watermark), firing }
        }
        &TraceKind::LateRecord { subtask, partition, offset, ts, key, watermark, side_output } => {
            TraceKindView::LateRecord { subtask, partition, offset, ts, key: name(key), watermark: wm(watermark), side_output }
        }
        other => TraceKindView::Other { text: format!("{other:?}") },
    };
    TraceEventView { seq: e.seq, time: e.time, kind }
}

/// `eventsSince(cursor)`: the retained events from `cursor` on, how many of the requested ones
/// the bounded trace had already dropped, and the cursor to pass next time.
#[derive(Serialize)]
pub struct EventBatch {
    pub events: Vec<TraceEventView>,
    pub lost: u64,
    pub cursor: u64,
}

/// One preset of the catalog, without its scenario.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PresetInfo {
    pub id: &'static str,
    pub title: &'static str,
    pub summary: &'static str,
    pub look_at: &'static str,
    pub try_this: &'static str,
    pub source: &'static str,
}
