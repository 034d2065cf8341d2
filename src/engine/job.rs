//! The job's resolved configuration: what the scenario describes, validated and defaulted.
//!
//! A job has one or two inputs, each a Kafka source with its own topic, strategy and
//! parallelism and the exchange out of it (`InputConfig`); the keyed operator after them is a
//! window operator or an interval join. Two inputs meet either in a `union` (one logical input,
//! one valve over every channel) or through `connect` (a two-input operator: one valve per
//! input, combined by `IndexedCombinedWatermarkStatus`, reference §6.1, §6.4).

use super::alignment::{AlignmentParams, AlignmentSwitches};
use super::checkpoint::CheckpointConfig;
use super::flow::FlowConfig;
use super::operator::aggregate::AggregateKind;
use super::operator::assigner::WindowSpec;
use super::operator::interval_join::JoinBounds;
use super::operator::midstream::MidstreamSpec;
use super::operator::sink::SinkMode;
use super::operator::sql_window::WindowApi;
use super::operator::trigger::TriggerSpec;
use super::partitioner::Exchange;
use super::source::generator::EmitMode;
use super::source::start_offset::StartOffset;
use super::source::SourceSettings;
use super::task_manager::ClusterConfig;
use super::time::ProcTime;
use super::valve::ValveSwitches;
use serde::{Deserialize, Serialize};

/// One source and the edge out of it.
#[derive(Clone, Debug, PartialEq)]
pub struct InputConfig {
    pub topic: String,
    pub source_parallelism: u32,
    pub source: SourceSettings,
    /// Records per second each source subtask reads; `None` = as fast as they arrive.
    pub read_rate_per_s: Option<u64>,
    /// The readers emit records only when polled (`Simulation::poll`), as a test drives
    /// `SourceReader.pollNext` step by step (the oracle3 goldens' scripted reader); the records
    /// wait in their partitions until then.
    pub polled: bool,
    /// Where reading starts in each partition.
    pub start_offset: StartOffset,
    /// Records of one partition in one Kafka fetch (`source::fetcher`).
    pub fetch_records_per_partition: u64,
    /// `withWatermarkAlignment`, if set.
    pub alignment: Option<AlignmentParams>,
    /// Whether the reader can pause single splits (`pauseOrResumeSplits`; Kafka's can).
    pub reader_pauses_splits: bool,
    pub exchange: Exchange,
    /// A watermark operator chained after the source, replacing the source's watermarks.
    pub midstream: Option<MidstreamSpec>,
}

impl InputConfig {
    /// The idle timeout that decides this input's idleness: SQL's watermark operator's when one
    /// follows the source (`table.exec.source.idle-timeout`; the source has none of its own),
    /// else the source's (`withIdleness`).
    pub fn idle_timeout_ms(&self) -> Option<i64> {
        match self.midstream {
            Some(m) if m.is_sql() => m.idle_timeout_ms(),
            _ => self.source.idle_timeout_ms,
        }
    }

    /// The idle timeout whose status reaches the windows: a watermark operator's after the
    /// source (a DataStream one swallows the source's statuses, FLINK-26708; SQL's decides
    /// alone), else the source's. `set_param` sets the source's and a DataStream operator's
    /// alike, so the advice reads this one: the source's 5 s read as "keep" beside an operator
    /// with none.
    pub fn reaching_idle_timeout_ms(&self) -> Option<i64> {
        self.midstream.map_or(self.source.idle_timeout_ms, |m| m.idle_timeout_ms())
    }

    /// Whether SQL's watermark operator follows the source.
    pub fn sql_operator_after(&self) -> bool {
        self.midstream.is_some_and(|m| m.is_sql())
    }

    /// How what makes this input's watermark emits, and its idle timeout, when the periodic
    /// emission (`pipeline.auto-watermark-interval`) drives it: the source's strategy, or a
    /// DataStream watermark operator's after it. `None` for SQL's watermark operator, which
    /// runs on a timer of its own, also with the interval at 0 (reference §10.1).
    pub fn periodic_strategy(&self) -> Option<(EmitMode, Option<i64>)> {
        match self.midstream {
            None => Some((self.source.emit, self.source.idle_timeout_ms)),
            Some(MidstreamSpec::TimestampsAndWatermarks { emit, idle_timeout_ms, .. }) => Some((emit, idle_timeout_ms)),
            Some(MidstreamSpec::SqlWatermarkAssigner { .. }) => None,
        }
    }
}

/// How a second input meets the first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum TwoInputMode {
    /// `first.union(second)`: one logical input whose valve covers both sources' channels.
    #[default]
    Union,
    /// `first.connect(second)`: a two-input operator, one valve per input.
    Connect,
}

#[derive(Clone, Debug, PartialEq)]
pub struct JobConfig {
    pub seed: u64,
    /// Processing time at job start (ms since the epoch).
    pub start_time: ProcTime,
    /// The first input, then the second if the job has one.
    pub inputs: Vec<InputConfig>,
    pub two_input_mode: TwoInputMode,
    /// `pipeline.auto-watermark-interval`; 0 disables periodic emission (and idleness).
    pub auto_watermark_interval_ms: i64,
    pub channel_latency_ms: i64,
    pub window_parallelism: u32,
    pub window: WindowSpec,
    pub trigger: TriggerSpec,
    pub window_api: WindowApi,
    /// The keyed operator is an interval join of the two inputs (`window` is then unused).
    pub interval_join: Option<JoinBounds>,
    pub allowed_lateness_ms: i64,
    pub late_side_output: bool,
    pub aggregate: AggregateKind,
    pub sink: SinkMode,
    pub valve: ValveSwitches,
    /// Flink ≥ 2.2 (FLINK-38454) for two-input operators: all inputs idle flushes their max.
    pub combined_all_idle_flush: bool,
    /// Flink ≤ 1.14: a mid-stream `assignTimestampsAndWatermarks` forwarded upstream statuses.
    pub midstream_forwards_status: bool,
    /// Capacities: keyed subtasks' processing rate, channels' credits.
    pub flow: FlowConfig,
    pub alignment: AlignmentSwitches,
    pub trace_capacity: usize,
    pub trace_records: bool,
    /// How many late records are kept for display (counters are always exact).
    pub late_records_retained: usize,
    /// Window results the sink keeps (`None`: all).
    pub window_results_retained: Option<usize>,
    /// TaskManagers, their memory and the state-size estimate (`flow`).
    pub cluster: ClusterConfig,
    /// The checkpoint interval and the restart strategy (`checkpointing`).
    pub checkpointing: CheckpointConfig,
}

impl JobConfig {
    /// The first (or only) input.
    pub fn first(&self) -> &InputConfig {
        &self.inputs[0]
    }

    pub fn first_mut(&mut self) -> &mut InputConfig {
        &mut self.inputs[0]
    }

    /// Whether the keyed operator has two logical inputs (`connect`), each with its own valve.
    pub fn two_logical_inputs(&self) -> bool {
        self.inputs.len() == 2 && self.two_input_mode == TwoInputMode::Connect
    }

    /// What a keyed subtask is called in texts: `join` or `window`.
    pub fn keyed_noun(&self) -> &'static str {
        if self.interval_join.is_some() {
            "join"
        } else {
            "window"
        }
    }

    /// Whether a watermark operator runs after every source: it, not the sources' strategies,
    /// then decides the job's watermark.
    pub fn operator_after_every_source(&self) -> bool {
        self.inputs.iter().all(|i| i.midstream.is_some())
    }

    /// Whether any input is aligned.
    pub fn aligned(&self) -> bool {
        self.inputs.iter().any(|i| i.alignment.is_some())
    }

    /// Whether records wait in logs and channels for room (back-pressure) or alignment.
    pub fn flow_controlled(&self) -> bool {
        self.flow.keyed_capacity_per_s.is_some() || self.aligned()
    }

    /// Source subtasks over all inputs (global source subtask indices follow input order).
    pub fn total_source_parallelism(&self) -> u32 {
        self.inputs.iter().map(|i| i.source_parallelism).sum()
    }
}
