//! The metrics of one job vertex's subtasks under Flink's names and scopes, from the engine's
//! [`Metrics`] — what Flink's `MetricStore` holds for a task and what its reporters see.
//!
//! Each [`Sample`] is task-scoped (`currentInputWatermark`, `numRecordsIn`, `buffers.inPoolUsage`)
//! or scoped to one of the vertex's operators (`currentOutputWatermark`, `watermarkLag`,
//! `numLateRecordsDropped`). Flink's `MetricStore` keys a subtask's operator metric as
//! `<operator name>.<metric>` and the task's store prefixes every key with `<subtask>.`
//! ([`Sample::key`]). Sources register no `currentInputWatermark` (reference §11), so their
//! REST watermarks are `[]`. Only the metrics the simulation models are present: no byte
//! counts, no JVM or network internals.

use super::graph::{Vertex, VertexKind};
use crate::engine::metrics::{JobMetrics, Metrics, SourceMetrics, WindowMetrics};

/// A metric value as Flink's gauges and counters hold it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    Long(i64),
    Double(f64),
    Bool(bool),
}

impl Value {
    /// As Flink's REST API writes it (`String.valueOf` of the gauge's value).
    pub fn rest(self) -> String {
        match self {
            Value::Long(v) => v.to_string(),
            Value::Double(v) => format!("{v:?}"),
            Value::Bool(b) => b.to_string(),
        }
    }

    /// As a number: the REST aggregation and the Prometheus reporter (booleans are 1 or 0).
    pub fn number(self) -> f64 {
        match self {
            Value::Long(v) => v as f64,
            Value::Double(v) => v,
            Value::Bool(b) => f64::from(u8::from(b)),
        }
    }
}

/// A counter as Flink's `long` (saturating: no simulation counts past `Long.MAX_VALUE`).
fn count(n: u64) -> Value {
    Value::Long(i64::try_from(n).unwrap_or(i64::MAX))
}

#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// `None`: the task's scope; `Some(i)`: the vertex's operator `i`.
    pub operator: Option<usize>,
    pub name: &'static str,
    pub value: Value,
}

impl Sample {
    fn task(name: &'static str, value: Value) -> Self {
        Sample { operator: None, name, value }
    }

    fn op(name: &'static str, value: Value) -> Self {
        Sample { operator: Some(0), name, value }
    }

    /// The key in a subtask's metric store: `name` or `<operator name>.name`.
    pub fn key(&self, vertex: &Vertex) -> String {
        match self.operator {
            None => self.name.to_string(),
            Some(i) => format!("{}.{}", vertex.operators[i].name, self.name),
        }
    }
}

/// One subtask's samples: its index within the vertex and its TaskManager.
#[derive(Clone, Debug, PartialEq)]
pub struct Subtask {
    pub index: u32,
    pub task_manager: u32,
    pub samples: Vec<Sample>,
}

fn source_samples(s: &SourceMetrics) -> Vec<Sample> {
    let mut v = vec![
        Sample::task("numRecordsOut", count(s.num_records_out)),
        Sample::task("isBackPressured", Value::Bool(s.is_back_pressured)),
        Sample::task("backPressuredTimeMsPerSecond", Value::Long(s.back_pressured_time_ms_per_second)),
        Sample::task("buffers.outPoolUsage", Value::Double(s.out_pool_usage)),
        Sample::op("currentOutputWatermark", Value::Long(s.current_output_watermark.ms())),
        Sample::op("numRecordsOut", count(s.num_records_out)),
        Sample::op("pendingRecords", count(s.pending_records)),
    ];
    // Registered only after the first watermark / the first alignment announcement, as in Flink.
    v.extend(s.watermark_lag.map(|l| Sample::op("watermarkLag", Value::Long(l))));
    v.extend(s.watermark_alignment_drift.map(|d| Sample::op("watermarkAlignmentDrift", Value::Long(d))));
    v
}

/// A keyed subtask's samples; an interval join (`join`) drops late elements without a metric
/// (reference §9), so it has no `numLateRecordsDropped`.
fn keyed_samples(w: &WindowMetrics, join: bool) -> Vec<Sample> {
    // Flink 2.3 registers no per-input watermark for a two-input task (none in the recorded
    // `connect.json`): only the minimum, as `currentInputWatermark`.
    let input_watermark = Value::Long(w.current_input_watermark.ms());
    let mut v = vec![
        Sample::task("currentInputWatermark", input_watermark),
        Sample::task("numRecordsIn", count(w.num_records_in)),
        Sample::task("numRecordsOut", count(w.num_records_out)),
        Sample::task("busyTimeMsPerSecond", Value::Long(w.busy_time_ms_per_second)),
        Sample::task("buffers.inPoolUsage", Value::Double(w.in_pool_usage)),
        Sample::op("currentInputWatermark", input_watermark),
        Sample::op("currentOutputWatermark", Value::Long(w.current_output_watermark.ms())),
        Sample::op("numRecordsIn", count(w.num_records_in)),
        Sample::op("numRecordsOut", count(w.num_records_out)),
    ];
    if !join {
        v.push(Sample::op("numLateRecordsDropped", count(w.num_late_records_dropped)));
    }
    v
}

/// The subtasks of `vertex` with their samples, in subtask order.
pub fn subtasks(vertex: &Vertex, m: &Metrics, task_manager_of: impl Fn(u32) -> u32) -> Vec<Subtask> {
    match vertex.kind {
        VertexKind::Source { first, .. } => m
            .source
            .iter()
            .filter(|s| (first..first + vertex.parallelism).contains(&s.subtask))
            .map(|s| Subtask { index: s.subtask - first, task_manager: task_manager_of(s.subtask), samples: source_samples(s) })
            .collect(),
        VertexKind::Keyed { join } => {
            m.window.iter().map(|w| Subtask { index: w.subtask, task_manager: w.task_manager, samples: keyed_samples(w, join) }).collect()
        }
    }
}

/// The job scope's metrics (`numRestarts`, …), Flink's `-1` for "never restored".
pub fn job_samples(j: &JobMetrics) -> Vec<Sample> {
    vec![
        Sample::task("numRestarts", Value::Long(j.num_restarts.into())),
        Sample::task("numberOfCompletedCheckpoints", count(j.number_of_completed_checkpoints)),
        Sample::task("lastCheckpointRestoreTimestamp", Value::Long(j.last_checkpoint_restore_timestamp.map_or(-1, |t| t.ms()))),
    ]
}
