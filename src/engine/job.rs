//! The job's resolved configuration: what the scenario describes, validated and defaulted.

use super::operator::aggregate::AggregateKind;
use super::operator::assigner::WindowSpec;
use super::operator::sink::SinkMode;
use super::partitioner::Exchange;
use super::source::SourceSettings;
use super::time::ProcTime;
use super::valve::ValveSwitches;

#[derive(Clone, Debug, PartialEq)]
pub struct JobConfig {
    pub seed: u64,
    /// Processing time at job start (ms since the epoch).
    pub start_time: ProcTime,
    pub topic: String,
    pub source_parallelism: u32,
    pub source: SourceSettings,
    /// `pipeline.auto-watermark-interval`; 0 disables periodic emission (and idleness).
    pub auto_watermark_interval_ms: i64,
    /// Records per second each source subtask reads; `None` = as fast as they arrive.
    pub read_rate_per_s: Option<u64>,
    /// Start reading from the earliest offset (true) or skip what is in the log at start.
    pub start_from_earliest: bool,
    pub exchange: Exchange,
    pub channel_latency_ms: i64,
    pub window_parallelism: u32,
    pub window: WindowSpec,
    pub allowed_lateness_ms: i64,
    pub late_side_output: bool,
    pub aggregate: AggregateKind,
    pub sink: SinkMode,
    pub valve: ValveSwitches,
    pub trace_capacity: usize,
    pub trace_records: bool,
    /// How many late records are kept for display (counters are always exact).
    pub late_records_retained: usize,
    /// Window results the sink keeps (`None`: all).
    pub window_results_retained: Option<usize>,
}
