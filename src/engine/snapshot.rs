//! A plain, serializable picture of the whole job at the current instant: splits, source
//! subtasks, operator subtasks with their input channels. The UI reads these structs every
//! frame; the JS API's `snapshot()` serializes them as they are (camelCase, watermarks as
//! `{ ms, raw }`, see `view::watermark`), so a field added here reaches both, and its
//! declaration reaches `types.gen.d.ts`.
//!
//! The per-frame picture is cheap: the open-window lists (they walk the window state) and the
//! metrics are only computed when [`SnapshotOptions`] asks for them.

use super::flow::back_pressure::BackPressureLevel;
use super::job_run::JobRunView;
use super::metrics::Metrics;
use super::operator::interval_join::Side;
use super::sim::Simulation;
use super::status::WatermarkStatus;
use super::time::{EventTime, ProcTime};
use super::view::watermark::{as_opt_watermark, as_watermark};
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct SplitView {
    pub partition: u32,
    /// The job input whose topic holds it (0, or 1 for the second topic), and its number there.
    pub input: u8,
    pub partition_in_topic: u32,
    /// The source subtask that owns the split (null if unassigned).
    pub subtask: Option<u32>,
    pub produced: u64,
    pub read: u64,
    pub unread: usize,
    pub max_timestamp: Option<EventTime>,
    /// The split's own watermark (its partial in the multiplexer); null if unassigned.
    #[serde(serialize_with = "as_opt_watermark")]
    #[cfg_attr(test, ts(as = "Option<super::view::Watermark>"))]
    pub watermark: Option<EventTime>,
    pub idle: bool,
    /// When the idleness timer will declare it idle if nothing arrives (processing time).
    pub idle_deadline: Option<ProcTime>,
    pub last_record_at: Option<ProcTime>,
    pub released: bool,
    /// Every producer of the partition is silenced (or it has none).
    pub silent: bool,
    /// Split alignment paused it: its watermark is ahead of the group's allowed maximum.
    pub paused: bool,
    /// Read again after a restore up to where its source subtask's input had ended, it waits
    /// there for its siblings: finished, its watermark does not count in the subtask's.
    pub at_its_end: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct SourceView {
    pub subtask: u32,
    /// The job input it reads for (0, or 1 for the second source), and its index there.
    pub input: u8,
    pub subtask_in_source: u32,
    /// The watermark operator chained after it, if any.
    pub midstream: Option<MidstreamView>,
    pub partitions: Vec<u32>,
    #[serde(serialize_with = "as_watermark")]
    #[cfg_attr(test, ts(as = "super::view::Watermark"))]
    pub combined_watermark: EventTime,
    #[serde(serialize_with = "as_watermark")]
    #[cfg_attr(test, ts(as = "super::view::Watermark"))]
    pub output_watermark: EventTime,
    pub idle: bool,
    pub main_output_idle: bool,
    /// The TaskManager it runs on (`flow.task_managers`).
    pub task_manager: u32,
    /// No room in an output channel: the subtask reads nothing (`isBackPressured`).
    pub back_pressured: bool,
    /// The Web UI's colour for it (from `backPressuredTimeMsPerSecond`).
    pub back_pressure_level: BackPressureLevel,
    /// Watermark alignment, when its strategy has it.
    pub alignment: Option<AlignmentView>,
}

/// A source subtask's side of watermark alignment.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct AlignmentView {
    pub group: String,
    pub max_drift_ms: i64,
    /// The last announced maximum (`Long.MAX_VALUE` until the first announcement).
    #[serde(serialize_with = "as_watermark")]
    #[cfg_attr(test, ts(as = "super::view::Watermark"))]
    pub max_allowed: EventTime,
    /// `WAITING_FOR_ALIGNMENT`: it reads nothing until the group catches up.
    pub waiting: bool,
    /// `watermarkAlignmentDrift`.
    pub drift_ms: Option<i64>,
}

/// A watermark operator chained after a source subtask.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct MidstreamView {
    /// `assignTimestampsAndWatermarks` or `SQL watermark operator`.
    pub operator: String,
    /// The last watermark it sent on.
    #[serde(serialize_with = "as_watermark")]
    #[cfg_attr(test, ts(as = "super::view::Watermark"))]
    pub output_watermark: EventTime,
    pub idle: bool,
}

/// One logical input of a two-input operator (`currentInputNWatermark`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct LogicalInputView {
    pub input: usize,
    pub topic: String,
    #[serde(serialize_with = "as_watermark")]
    #[cfg_attr(test, ts(as = "super::view::Watermark"))]
    pub watermark: EventTime,
    pub idle: bool,
    /// This input holds the operator's watermark.
    pub is_min: bool,
}

/// The job's shape: what the graph draws.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct JobShape {
    /// Topic names, by input.
    pub topics: Vec<String>,
    /// How a second input meets the first (null with one input).
    pub two_input_mode: Option<super::job::TwoInputMode>,
    /// `window` or `interval_join`.
    pub keyed_operator: &'static str,
    /// An interval join's inclusive bounds (null for windows).
    pub join_bounds: Option<(i64, i64)>,
    /// Records per second one keyed subtask processes (null: unbounded, no back-pressure).
    pub keyed_capacity_per_s: Option<u64>,
    /// The graph draws back-pressure and busy time: a simulated job with a capacity limit
    /// (nothing else can be back-pressured), or a real job whose metrics report them.
    pub flow_marks: bool,
    /// Credits of one channel, in records.
    pub channel_buffer_records: u64,
    /// One simulated record (and key) stands for this many real ones; every count the views
    /// show is multiplied by it already.
    pub record_scale: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ChannelView {
    /// The operator's logical input (1 only for the second input of a two-input operator).
    pub input: usize,
    pub channel: usize,
    pub source_subtask: u32,
    #[serde(serialize_with = "as_watermark")]
    #[cfg_attr(test, ts(as = "super::view::Watermark"))]
    pub watermark: EventTime,
    pub status: WatermarkStatus,
    pub aligned: bool,
    /// This channel holds the operator's minimum.
    pub is_min: bool,
    /// Records waiting in the channel (with a capacity limit or latency).
    pub buffered_records: u64,
}

/// A window waiting for the watermark: its key, bounds and the records it holds.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct OpenWindow {
    pub key: String,
    pub start: EventTime,
    pub end: EventTime,
    pub count: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct OperatorView {
    pub subtask: u32,
    #[serde(serialize_with = "as_watermark")]
    #[cfg_attr(test, ts(as = "super::view::Watermark"))]
    pub input_watermark: EventTime,
    #[serde(serialize_with = "as_watermark")]
    #[cfg_attr(test, ts(as = "super::view::Watermark"))]
    pub output_watermark: EventTime,
    pub idle: bool,
    pub channels: Vec<ChannelView>,
    /// A two-input operator's inputs (empty for one logical input).
    pub inputs: Vec<LogicalInputView>,
    /// An interval join's buffered elements (left, right); null for windows.
    pub join_buffered: Option<(u64, u64)>,
    pub window_state_size: usize,
    /// The earliest windows waiting for the watermark (at most `snapshot({ openWindows })`).
    pub open_windows: Vec<OpenWindow>,
    pub open_window_count: usize,
    /// Keyed state entries: (key, window) states, or a join's buffered elements (0 while the
    /// job is down).
    pub state_entries: u64,
    /// Their estimated heap bytes: entries × `flow.state_bytes_per_entry` × `flow.record_scale`.
    pub state_bytes: u64,
    /// The TaskManager it runs on (`flow.task_managers`).
    pub task_manager: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Snapshot {
    /// Processing time (ms since the epoch).
    pub now: ProcTime,
    /// Processing time since the start (−1 before the first instant).
    pub elapsed_ms: i64,
    pub start_time: ProcTime,
    /// Whether the first instant has run.
    pub started: bool,
    /// Whether `runToEnd()` applied the end of input (no more commands or time then).
    pub finished: bool,
    pub job: JobShape,
    pub splits: Vec<SplitView>,
    pub sources: Vec<SourceView>,
    pub operators: Vec<OperatorView>,
    pub windows_fired: usize,
    /// Pairs an interval join emitted.
    pub joins_emitted: u64,
    pub late_records: u64,
    pub trace_cursor: u64,
    pub trace_hash: String,
    /// `append` (every firing a new row: late re-firings are duplicates) or `upsert`.
    pub sink_mode: super::operator::sink::SinkMode,
    /// Per-subtask metrics (the playground's per-frame picture leaves them out, the JS API's
    /// `snapshot()` always has them).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(as = "Metrics"))]
    pub metrics: Option<Metrics>,
    /// The job's run: status, attempts, checkpoints, failures, TaskManagers' memory.
    pub run: JobRunView,
}

impl Snapshot {
    /// Source subtask `s` as every view names it (`view::names`): `3` with one source,
    /// `rates·0` with several.
    pub fn source_subtask_name(&self, s: u32) -> String {
        match self.sources.get(s as usize) {
            Some(v) => {
                let topic = self.job.topics.get(v.input as usize).map_or("", String::as_str);
                super::view::names::source_subtask_name(self.job.topics.len(), topic, v.subtask_in_source, s)
            }
            None => s.to_string(),
        }
    }

    /// Partition `p` as sentences name it (`view::names`): `11` with one topic, `rates-0` with
    /// several.
    pub fn partition_name(&self, p: u32) -> String {
        match self.splits.get(p as usize) {
            Some(s) => {
                let topic = self.job.topics.get(s.input as usize).map_or("", String::as_str);
                super::view::names::partition_name(self.job.topics.len(), topic, s.partition_in_topic, p)
            }
            None => p.to_string(),
        }
    }
}

/// What a snapshot computes beyond the cheap per-frame picture.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SnapshotOptions {
    /// Open windows listed per operator, earliest first (0: none, and the window state is not
    /// walked).
    pub open_windows: usize,
    /// Include the metrics.
    pub metrics: bool,
    /// Whether the session applied the end of input (`runToEnd()`); the session knows it, the
    /// simulation does not.
    pub finished: bool,
}

impl Simulation {
    /// The per-frame picture: no open-window lists, no metrics.
    pub fn snapshot(&self) -> Snapshot {
        self.snapshot_with(SnapshotOptions::default())
    }

    /// Counts are real ones: simulated records, results and state entries × `flow.record_scale`.
    pub fn snapshot_with(&self, opts: SnapshotOptions) -> Snapshot {
        let x = |n: u64| self.cfg.cluster.scaled(n);
        let interval = self.cfg.auto_watermark_interval_ms;
        let splits = (0..self.partitions.len() as u32)
            .map(|p| {
                let part = &self.partitions[p as usize];
                let silent = self.producers.iter().filter(|x| x.partition == p).all(|x| x.silenced);
                let base = SplitView {
                    partition: p,
                    input: part.input,
                    partition_in_topic: part.index_in_topic,
                    subtask: None,
                    produced: x(part.produced),
                    read: 0,
                    unread: x(part.unread() as u64) as usize,
                    max_timestamp: None,
                    watermark: None,
                    idle: false,
                    idle_deadline: None,
                    last_record_at: None,
                    released: self.is_released(p),
                    silent,
                    paused: false,
                    at_its_end: false,
                };
                let Some((s, i)) = self.split_of(p) else { return base };
                let src = &self.sources[s as usize];
                let sp = &src.splits[i];
                SplitView {
                    subtask: Some(s),
                    read: x(sp.records_read),
                    max_timestamp: sp.max_ts,
                    watermark: src.split_watermark(i),
                    idle: src.split_idle(i),
                    idle_deadline: if src.split_idle(i) { None } else { sp.idle_deadline(interval, self.now) },
                    last_record_at: sp.last_record_at,
                    paused: src.split_paused(i),
                    at_its_end: src.split_at_its_end(i),
                    ..base
                }
            })
            .collect();
        let sources = self
            .sources
            .iter()
            .map(|s| SourceView {
                subtask: s.index,
                input: s.input,
                subtask_in_source: s.index_in_source,
                midstream: self.down.chained.get(s.index as usize).and_then(Option::as_ref).map(|m| MidstreamView {
                    operator: m.spec.label().into(),
                    output_watermark: m.output_watermark,
                    idle: m.is_idle(),
                }),
                partitions: s.splits.iter().filter(|sp| !sp.released).map(|sp| sp.partition).collect(),
                combined_watermark: s.combined_watermark(),
                output_watermark: s.output.current_watermark(),
                idle: s.output.is_idle(),
                main_output_idle: s.main_output_idle(),
                task_manager: self.cfg.cluster.task_manager_of(s.index),
                back_pressured: s.pressure.is_back_pressured,
                back_pressure_level: s.pressure.level(),
                alignment: s.alignment.as_ref().map(|a| AlignmentView {
                    group: a.params.group.clone(),
                    max_drift_ms: a.params.max_drift_ms,
                    max_allowed: a.max_desired,
                    waiting: a.waiting,
                    drift_ms: a.drift_ms(),
                }),
            })
            .collect();
        let operators = self
            .down
            .windows
            .iter()
            .map(|w| {
                // The explanation's holder: none when the minimum is tied everywhere.
                let (min, tied) = self.holder(w);
                OperatorView {
                    subtask: w.index,
                    input_watermark: w.current_input_watermark(),
                    output_watermark: w.current_output_watermark,
                    idle: w.input.is_idle(),
                    channels: w
                        .input
                        .channels()
                        .map(|(ch, c)| ChannelView {
                            input: ch.input,
                            channel: ch.channel,
                            source_subtask: ch.source,
                            watermark: c.watermark,
                            status: c.status,
                            aligned: c.aligned,
                            is_min: min == Some(ch),
                            buffered_records: self.down.channel_records(ch.source, w.index),
                        })
                        .collect(),
                    inputs: self.logical_inputs(w, tied.is_some()),
                    join_buffered: w.join.as_ref().map(|j| (j.buffered(Side::Left), j.buffered(Side::Right))),
                    window_state_size: x(w.op.state_size() as u64) as usize,
                    open_windows: if opts.open_windows == 0 {
                        Vec::new()
                    } else {
                        w.op.pending_windows()
                            .take(opts.open_windows)
                            .map(|(k, start, end, count)| OpenWindow { key: self.keys.name(k).to_string(), start, end, count })
                            .collect()
                    },
                    open_window_count: w.op.pending_count(),
                    state_entries: x(self.state_entries(w.index as usize)),
                    state_bytes: self.cfg.cluster.bytes(self.state_entries(w.index as usize)),
                    task_manager: self.cfg.cluster.task_manager_of(w.index),
                }
            })
            .collect();
        let late = self.down.late_total();
        Snapshot {
            now: self.now.max(self.cfg.start_time),
            elapsed_ms: self.now - self.cfg.start_time,
            start_time: self.cfg.start_time,
            started: self.now >= self.cfg.start_time,
            finished: opts.finished,
            job: self.job_shape(),
            splits,
            sources,
            operators,
            windows_fired: x(self.down.sink.total() as u64) as usize,
            joins_emitted: x(self.down.joins.total()),
            late_records: x(late),
            trace_cursor: self.trace.cursor(),
            trace_hash: self.trace.hash_hex(),
            sink_mode: self.down.sink.mode,
            metrics: opts.metrics.then(|| self.metrics()),
            run: self.job_run(),
        }
    }

    pub fn job_shape(&self) -> JobShape {
        JobShape {
            topics: self.cfg.inputs.iter().map(|i| i.topic.clone()).collect(),
            two_input_mode: (self.cfg.inputs.len() > 1).then_some(self.cfg.two_input_mode),
            keyed_operator: if self.cfg.interval_join.is_some() { "interval_join" } else { "window" },
            join_bounds: self.cfg.interval_join.map(|b| b.normalized()),
            keyed_capacity_per_s: self.cfg.flow.keyed_capacity_per_s,
            flow_marks: self.cfg.flow.keyed_capacity_per_s.is_some(),
            channel_buffer_records: self.cfg.flow.channel_buffer_records,
            record_scale: self.cfg.cluster.record_scale,
        }
    }

    /// Each assigned, unreleased split's watermark and idle flag, by engine partition number:
    /// the snapshot's values without the snapshot, cheap enough to read after every instant
    /// (the UI's timeline draws each change when it happened, not when a frame looked).
    pub fn split_watermarks(&self) -> impl Iterator<Item = (u32, EventTime, bool)> + '_ {
        (0..self.partitions.len() as u32).filter(|&p| !self.is_released(p)).filter_map(move |p| {
            let (s, i) = self.split_of(p)?;
            let src = &self.sources[s as usize];
            Some((p, src.split_watermark(i).unwrap_or(super::time::NO_WATERMARK), src.split_idle(i)))
        })
    }

    /// Whether `partition` is gone from the job: removed from its topic, or its split released
    /// by its reader (the snapshot's `released`, and no line on the timeline).
    fn is_released(&self, partition: u32) -> bool {
        self.partitions[partition as usize].removed
            || self.split_of(partition).is_some_and(|(s, i)| self.sources[s as usize].splits[i].released)
    }

    /// Each keyed subtask's input watermark and idle flag, and for a two-input operator each
    /// input's (as [`Simulation::split_watermarks`], for the timeline).
    pub fn keyed_watermarks(&self) -> impl Iterator<Item = (EventTime, bool, impl Iterator<Item = (EventTime, bool)> + '_)> + '_ {
        self.down.windows.iter().map(|w| {
            let per_input =
                w.input.combination().map(|c| (0..w.input.inputs()).map(move |i| (w.input.input_watermark(i), c.input_idle(i))));
            (w.current_input_watermark(), w.input.is_idle(), per_input.into_iter().flatten())
        })
    }

    fn logical_inputs(&self, w: &super::window_subtask::WindowSubtask, tied: bool) -> Vec<LogicalInputView> {
        let Some(c) = w.input.combination() else { return Vec::new() };
        // As its channels: no input is marked while the minimum is tied everywhere.
        let min = w.input.min_input().filter(|_| !tied);
        (0..w.input.inputs())
            .map(|i| LogicalInputView {
                input: i,
                topic: self.cfg.inputs.get(i).map_or(String::new(), |x| x.topic.clone()),
                watermark: w.input.input_watermark(i),
                idle: c.input_idle(i),
                is_min: min == Some(i),
            })
            .collect()
    }
}
