//! The JSON scenario format. Every field has a default except `topic.partitions` and `window`;
//! unknown fields are rejected, and errors name the field path (see `docs/SCENARIO.md`).

use super::checkpointing::CheckpointingSpec;
use super::flow::FlowSpec;
use crate::engine::alignment::AlignmentParams;
use crate::engine::command::Command;
use crate::engine::error::InputError;
use crate::engine::flow::IdlenessClock;
use crate::engine::job::TwoInputMode;
use crate::engine::operator::aggregate::AggregateKind;
use crate::engine::operator::assigner::WindowSpec;
use crate::engine::operator::interval_join::JoinBounds;
use crate::engine::operator::midstream::MidstreamSpec;
use crate::engine::operator::sink::SinkMode;
use crate::engine::operator::sql_window::WindowApi;
use crate::engine::operator::trigger::TriggerSpec;
use crate::engine::partitioner::Exchange;
use crate::engine::source::generator::{EmitMode, GeneratorKind};
use crate::engine::source::timestamp::{SourceTransform, TimestampAssigner};
use serde::{Deserialize, Serialize};

pub use super::producer_spec::{AllPartitions, KeysSpec, PartitionSelector, ProducerSpec};

/// 2026-01-01T00:00:00Z: the default processing-time origin.
pub const DEFAULT_START_MS: i64 = 1_767_225_600_000;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// Processing time at job start, ms since the epoch.
    #[serde(default = "default_start")]
    pub start_time_ms: i64,
    /// How long `wmp run` simulates, in processing-time ms.
    #[serde(default = "default_duration")]
    pub duration_ms: i64,
    /// Emit the final `Long.MAX_VALUE` watermark at the end (a bounded input or `--drain`).
    #[serde(default)]
    pub end_of_input: bool,
    pub topic: TopicSpec,
    #[serde(default)]
    pub source: SourceSpec,
    #[serde(default)]
    pub exchange: ExchangeSpec,
    /// A second source (its own topic, strategy and parallelism), unioned with or connected to
    /// the first before the keyed operator.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub second_input: Option<SecondInputSpec>,
    /// The keyed window operator; a job has it or an `interval_join`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window: Option<WindowOperatorSpec>,
    /// `first.keyBy(..).intervalJoin(second.keyBy(..)).between(lower, upper)` instead of windows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interval_join: Option<IntervalJoinSpec>,
    #[serde(default)]
    pub sink: SinkSpec,
    #[serde(default)]
    pub producers: Vec<ProducerSpec>,
    #[serde(default)]
    pub commands: Vec<TimedCommand>,
    #[serde(default)]
    pub flink: FlinkSwitches,
    #[serde(default)]
    pub trace: TraceSpec,
    /// Capacities (back-pressure), TaskManagers, memory and the state-size estimate
    /// (`docs/FLOW.md`).
    #[serde(default, skip_serializing_if = "is_default")]
    pub flow: FlowSpec,
    /// Checkpoints and the restart strategy (`docs/FLOW.md`).
    #[serde(default, skip_serializing_if = "is_default")]
    pub checkpointing: CheckpointingSpec,
}

fn default_seed() -> u64 {
    42
}
fn default_start() -> i64 {
    DEFAULT_START_MS
}
fn default_duration() -> i64 {
    60_000
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TopicSpec {
    #[serde(default = "default_topic")]
    pub name: String,
    pub partitions: u32,
}

fn default_topic() -> String {
    "events".into()
}

/// The second input of a two-input job.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SecondInputSpec {
    pub topic: TopicSpec,
    #[serde(default)]
    pub source: SourceSpec,
    /// The exchange out of this source (the latency is the job's `exchange.latency_ms`).
    #[serde(default = "hash")]
    pub exchange: Exchange,
    /// `union` (one logical input) or `connect` (a two-input operator).
    #[serde(default)]
    pub mode: TwoInputMode,
}

fn hash() -> Exchange {
    Exchange::Hash
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SourceSpec {
    pub parallelism: u32,
    pub watermark: WatermarkSpec,
    pub timestamp_assigner: TimestampAssigner,
    pub transform: SourceTransform,
    /// Records per second each source subtask reads; `null` = as fast as they arrive.
    pub read_rate_per_s: Option<u64>,
    pub start_offset: StartOffset,
    #[serde(skip_serializing_if = "is_default")]
    pub fetch: FetchSpec,
    /// Whether the reader supports `pauseOrResumeSplits` (split-level alignment); Kafka's does.
    #[serde(skip_serializing_if = "is_true")]
    pub reader_pauses_splits: bool,
    /// A watermark operator chained after the source (`assignTimestampsAndWatermarks` in the
    /// middle of the job, or SQL's watermark operator); `null`: watermarks from the source.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub midstream: Option<MidstreamSpec>,
}

impl Default for SourceSpec {
    fn default() -> Self {
        SourceSpec {
            parallelism: 1,
            watermark: WatermarkSpec::default(),
            timestamp_assigner: TimestampAssigner::EventField,
            transform: SourceTransform::default(),
            read_rate_per_s: None,
            start_offset: StartOffset::Earliest,
            fetch: FetchSpec::default(),
            reader_pauses_splits: true,
            midstream: None,
        }
    }
}

pub use crate::engine::source::start_offset::StartOffset;

pub use super::flow::FetchSpec;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct WatermarkSpec {
    pub generator: GeneratorKind,
    pub emit: EmitMode,
    /// `withIdleness(...)` in ms; `null` (the default, as in Flink) = never idle.
    pub idle_timeout_ms: Option<i64>,
    /// `pipeline.auto-watermark-interval` (Flink's default 200 ms; 0 disables periodic emission).
    pub auto_watermark_interval_ms: i64,
    /// `withWatermarkAlignment(group, maxDrift, updateInterval)`; `null`: not aligned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alignment: Option<AlignmentParams>,
}

impl Default for WatermarkSpec {
    fn default() -> Self {
        WatermarkSpec {
            generator: GeneratorKind::BoundedOutOfOrderness { bound_ms: 0 },
            emit: EmitMode::Periodic,
            idle_timeout_ms: None,
            auto_watermark_interval_ms: 200,
            alignment: None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ExchangeSpec {
    #[serde(rename = "type")]
    pub kind: Exchange,
    pub latency_ms: i64,
}

impl Default for ExchangeSpec {
    fn default() -> Self {
        ExchangeSpec { kind: Exchange::Hash, latency_ms: 0 }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WindowOperatorSpec {
    pub assigner: WindowSpec,
    #[serde(default = "one")]
    pub parallelism: u32,
    #[serde(default)]
    pub allowed_lateness_ms: i64,
    #[serde(default)]
    pub late_side_output: bool,
    #[serde(default)]
    pub aggregate: AggregateKind,
    /// `.trigger(...)`; the default is the assigner's own `EventTimeTrigger`.
    #[serde(default, skip_serializing_if = "is_default")]
    pub trigger: TriggerSpec,
    /// `datastream` (`WindowOperator`) or `sql` (a window TVF aggregation, reference §10.2).
    #[serde(default, skip_serializing_if = "is_default")]
    pub api: WindowApi,
}

fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

impl WindowOperatorSpec {
    /// Flink's constructor checks for the assigner and trigger, and what a SQL window
    /// aggregation cannot express; errors name the field under `window`.
    pub fn validate(&self) -> Result<(), InputError> {
        let at = |f: &str, m: String| InputError::new(format!("window.{f}"), m);
        self.assigner.validate().map_err(|(f, m)| at(&format!("assigner.{f}"), m))?;
        self.trigger.validate(self.assigner.span_ms()).map_err(|(f, m)| at(&format!("trigger.{f}"), m))?;
        match self.api {
            WindowApi::Datastream => {
                if matches!(self.assigner, WindowSpec::Cumulate { .. }) {
                    return Err(at("assigner.type", "cumulate is a Flink SQL window (CUMULATE): set \"api\": \"sql\"".into()));
                }
                Ok(())
            }
            WindowApi::Sql => self.validate_sql().map_err(|(f, m)| at(f, m.into())),
        }
    }

    fn validate_sql(&self) -> Result<(), (&'static str, &'static str)> {
        if self.allowed_lateness_ms != 0 {
            return Err(("allowed_lateness_ms", "a SQL window aggregation has no allowed lateness: must be 0"));
        }
        if self.late_side_output {
            return Err(("late_side_output", "a SQL window aggregation has no late side output: late rows are dropped"));
        }
        if self.trigger != TriggerSpec::EventTime {
            return Err(("trigger", "a SQL window aggregation fires at the window's end only: no custom trigger"));
        }
        if let WindowSpec::Sliding { size_ms, slide_ms, .. } = self.assigner {
            if size_ms % slide_ms != 0 {
                return Err(("assigner.size_ms", "HOP needs size % slide == 0 (Flink's slicing window aggregation)"));
            }
        }
        Ok(())
    }
}

fn one() -> u32 {
    1
}

/// An interval join between the two inputs (the first is the left side).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IntervalJoinSpec {
    pub lower_ms: i64,
    pub upper_ms: i64,
    #[serde(default)]
    pub lower_exclusive: bool,
    #[serde(default)]
    pub upper_exclusive: bool,
    #[serde(default = "one")]
    pub parallelism: u32,
    /// `sideOutputLeftLateData` / `sideOutputRightLateData`; otherwise late elements vanish.
    #[serde(default)]
    pub late_side_output: bool,
}

impl IntervalJoinSpec {
    pub fn bounds(&self) -> JoinBounds {
        JoinBounds {
            lower_ms: self.lower_ms,
            upper_ms: self.upper_ms,
            lower_exclusive: self.lower_exclusive,
            upper_exclusive: self.upper_exclusive,
        }
    }
}

impl Scenario {
    /// The indices of `commands` in time order (stable: commands of one instant keep theirs).
    pub fn command_order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.commands.len()).collect();
        order.sort_by_key(|&i| self.commands[i].at_ms);
        order
    }

    /// Sets the keyed operator's parallelism (window or join).
    pub fn set_keyed_parallelism(&mut self, p: u32) {
        match (&mut self.window, &mut self.interval_join) {
            (Some(w), _) => w.parallelism = p,
            (None, Some(j)) => j.parallelism = p,
            (None, None) => {}
        }
    }

    /// The keyed operator's parallelism (window or join).
    pub fn keyed_parallelism(&self) -> u32 {
        match (&self.window, &self.interval_join) {
            (Some(w), _) => w.parallelism,
            (None, Some(j)) => j.parallelism,
            (None, None) => 1,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SinkSpec {
    pub mode: SinkMode,
}

/// A record given literally (the `produce` command).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordSpec {
    /// Absolute event time (ms).
    #[serde(default)]
    pub ts: Option<i64>,
    /// Event time relative to the current processing time.
    #[serde(default)]
    pub ts_offset_ms: Option<i64>,
    #[serde(default)]
    pub key: Option<String>,
    #[serde(default)]
    pub value: Option<i64>,
    #[serde(default)]
    pub heartbeat: bool,
}

/// A command at a processing time relative to the job start.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "TimedCommandIn")]
pub struct TimedCommand {
    pub at_ms: i64,
    #[serde(flatten)]
    pub command: Command,
}

/// `TimedCommand` as read: its `command` reads the fields other than `at_ms` (as
/// `ProducerSpecIn`).
#[derive(Deserialize)]
#[serde(rename = "TimedCommand", expecting = "struct TimedCommand")]
struct TimedCommandIn {
    at_ms: i64,
    #[serde(rename = "$rest")]
    command: Command,
}

impl From<TimedCommandIn> for TimedCommand {
    fn from(t: TimedCommandIn) -> Self {
        let TimedCommandIn { at_ms, command } = t;
        TimedCommand { at_ms, command }
    }
}

/// Switches for behaviour that changed between Flink versions (reference §13, §14).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FlinkSwitches {
    /// ≥ 2.2 (FLINK-38454): when all splits are idle, flush their max watermark.
    pub combined_all_idle_flush: bool,
    /// Flink main (FLINK-40475): the valve flushes the max whichever channel went idle last.
    pub valve_unconditional_flush: bool,
    /// Flink main (FLINK-40475): the valve re-derives its min when a channel becomes active.
    pub valve_rederive_on_reactivate: bool,
    /// `flip27` (KafkaSource, default) or `legacy` (FlinkKafkaConsumer, ≤ 1.x): the legacy
    /// consumer marked subtasks without partitions idle at once.
    pub kafka_connector: KafkaConnector,
    /// ≤ 1.14 (before FLINK-26708): a mid-stream `assignTimestampsAndWatermarks` forwarded the
    /// upstream idle/active statuses instead of swallowing them.
    pub midstream_forwards_status: bool,
    /// ≥ 1.19.2 / 1.20.1 / 2.0 `input_activity` (idleness pauses while back-pressured or alignment-
    /// blocked) or `wall` (≤ 1.19.1 / 1.20.0).
    #[serde(skip_serializing_if = "is_default")]
    pub idleness_clock: IdlenessClock,
    /// `pipeline.watermark-alignment.buffer-size` (2.3: 3; 0 = before 2.3).
    #[serde(skip_serializing_if = "is_three")]
    pub alignment_buffer_size: usize,
    /// 2.1.3 / 2.3.0: the periodic split-alignment check skips idle splits.
    #[serde(skip_serializing_if = "is_true")]
    pub alignment_skip_idle_splits: bool,
    /// `pipeline.watermark-alignment.allow-unaligned-source-splits`.
    #[serde(skip_serializing_if = "is_default")]
    pub allow_unaligned_source_splits: bool,
}

fn is_three(n: &usize) -> bool {
    *n == 3
}

fn is_true(b: &bool) -> bool {
    *b
}

impl Default for FlinkSwitches {
    fn default() -> Self {
        FlinkSwitches {
            combined_all_idle_flush: true,
            valve_unconditional_flush: false,
            valve_rederive_on_reactivate: false,
            kafka_connector: KafkaConnector::Flip27,
            midstream_forwards_status: false,
            idleness_clock: IdlenessClock::InputActivity,
            alignment_buffer_size: 3,
            alignment_skip_idle_splits: true,
            allow_unaligned_source_splits: false,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KafkaConnector {
    Flip27,
    Legacy,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TraceSpec {
    /// Events kept in the ring (older ones are dropped; the hash covers all).
    pub capacity: usize,
    /// Keep record-level events (reads, filtered records).
    pub records: bool,
    /// Late records kept for display (counters stay exact).
    pub late_records_retained: usize,
    /// Window results kept (the newest; `null`: all). Bounds the memory of long runs; the
    /// report then lists only the retained ones and says how many came before.
    pub window_results_retained: Option<usize>,
}

/// The window results a playground in the page keeps at most ([`TraceSpec::in_page`]).
pub const PAGE_WINDOW_RESULTS: usize = 24_000;

impl TraceSpec {
    /// What the page runs a scenario with: it reads snapshots and counters, not record-level
    /// events, and its tables show the newest 60 window results (a finding reads the last
    /// 100), so it keeps no record events, at most 2,000 events, and at most
    /// [`PAGE_WINDOW_RESULTS`] results (the default 100,000 took 11.5 MB of every embed's
    /// memory). That is above the most any preset emits at one instant (seed 001's heartbeat,
    /// 18,001; `tests/burst.rs`) plus the results that may wait unread then (`MAX_BATCH`), so
    /// an element's `window` events lose none there.
    pub fn in_page(&self) -> TraceSpec {
        TraceSpec {
            records: false,
            capacity: self.capacity.min(2_000),
            window_results_retained: Some(self.window_results_retained.map_or(PAGE_WINDOW_RESULTS, |n| n.min(PAGE_WINDOW_RESULTS))),
            ..self.clone()
        }
    }
}

impl Default for TraceSpec {
    fn default() -> Self {
        TraceSpec { capacity: 100_000, records: true, late_records_retained: 10_000, window_results_retained: Some(100_000) }
    }
}

/// Flink's constructor checks on a generator.
pub fn validate_generator(g: &GeneratorKind) -> Result<(), InputError> {
    match *g {
        GeneratorKind::BoundedOutOfOrderness { bound_ms } if bound_ms < 0 => {
            Err(InputError::new("bound_ms", "must be >= 0 (forBoundedOutOfOrderness rejects negative bounds)"))
        }
        GeneratorKind::SqlBounded { delay_ms } if delay_ms < 0 => {
            Err(InputError::new("delay_ms", "must be >= 0 (a watermark ahead of the rows is not modelled)"))
        }
        GeneratorKind::MaxOnSilence { bound_ms, silence_ms } => {
            if bound_ms < 0 {
                Err(InputError::new("bound_ms", "must be >= 0"))
            } else if silence_ms <= 0 {
                Err(InputError::new("silence_ms", "must be > 0"))
            } else {
                Ok(())
            }
        }
        _ => Ok(()),
    }
}
