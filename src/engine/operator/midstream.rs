//! A watermark operator chained after each subtask of a source: DataStream's mid-stream
//! `assignTimestampsAndWatermarks(...)` (`TimestampsAndWatermarksOperator`) or the operator a
//! Flink SQL `WATERMARK FOR ts AS ts - INTERVAL ...` becomes when it is not pushed into the
//! source (`WatermarkAssignerOperator`, reference §7, §10.1).
//!
//! Both replace what the source says: upstream watermarks are swallowed (only the end of input
//! passes), so per-partition watermarks and the source's idleness are lost. That is why the
//! reference advises generating watermarks in the source. The DataStream operator also
//! swallows upstream statuses; the SQL one forwards them, and a row re-activates it.
//!
//! Their output is a `RecordWriterOutput` (reference §3): a status goes out only when it
//! changes, and a watermark is dropped while the output has announced IDLE.

use super::timestamps_and_watermarks::TimestampsAndWatermarksOperator;
use super::watermark_assigner::WatermarkAssignerOperator;
use crate::engine::flow::pausable_clock::PausableClock;
use crate::engine::input_twin::input_twin;
use crate::engine::source::generator::{EmitMode, GeneratorKind};
use crate::engine::status::Signal;
use crate::engine::time::{EventTime, ProcTime, NO_WATERMARK};
use serde::Serialize;

input_twin! {
    /// The scenario's description of the operator after the source.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
    #[serde(tag = "operator", rename_all = "snake_case", deny_unknown_fields)]
    pub enum MidstreamSpec reads midstream_spec_in #[serde(rename = "$tag:operator", rename_all = "snake_case", deny_unknown_fields)] {
        /// `stream.assignTimestampsAndWatermarks(strategy)` after the source.
        TimestampsAndWatermarks {
            generator: GeneratorKind,
            #[serde(default = "periodic")]
            emit: EmitMode,
            /// `withIdleness(...)`; `null`: never idle.
            #[serde(default)]
            idle_timeout_ms: Option<i64>,
        },
        /// SQL's `WATERMARK FOR ts AS ts - INTERVAL 'delay'` when not pushed into the source.
        SqlWatermarkAssigner {
            delay_ms: i64,
            /// `table.exec.source.idle-timeout`; 0 (Flink's default) disables it.
            #[serde(default)]
            idle_timeout_ms: i64,
        },
    }
}

impl MidstreamSpec {
    /// Whether it is SQL's `WatermarkAssignerOperator` (its own idleness timer, §10.1).
    pub fn is_sql(&self) -> bool {
        matches!(self, MidstreamSpec::SqlWatermarkAssigner { .. })
    }

    /// Its idle timeout, if it has one.
    pub fn idle_timeout_ms(&self) -> Option<i64> {
        match *self {
            MidstreamSpec::TimestampsAndWatermarks { idle_timeout_ms, .. } => idle_timeout_ms,
            MidstreamSpec::SqlWatermarkAssigner { idle_timeout_ms, .. } => Some(idle_timeout_ms).filter(|&t| t > 0),
        }
    }

    /// The strategy the source would use instead (`WATERMARK FOR ts AS ts - INTERVAL 'd'` is
    /// `forBoundedOutOfOrderness(d - 1 ms)`: Flink's bounded generator subtracts 1 more).
    pub fn as_source_strategy(&self) -> (GeneratorKind, EmitMode, Option<i64>) {
        match *self {
            MidstreamSpec::TimestampsAndWatermarks { generator, emit, idle_timeout_ms } => (generator, emit, idle_timeout_ms),
            MidstreamSpec::SqlWatermarkAssigner { delay_ms, idle_timeout_ms } => (
                GeneratorKind::BoundedOutOfOrderness { bound_ms: (delay_ms - 1).max(0) },
                EmitMode::Periodic,
                Some(idle_timeout_ms).filter(|&t| t > 0),
            ),
        }
    }

    /// How people write it.
    pub fn label(&self) -> &'static str {
        match self {
            MidstreamSpec::TimestampsAndWatermarks { .. } => "assignTimestampsAndWatermarks",
            MidstreamSpec::SqlWatermarkAssigner { .. } => "SQL watermark operator",
        }
    }
}

fn periodic() -> EmitMode {
    EmitMode::Periodic
}

#[derive(Clone, Debug)]
enum Op {
    TimestampsAndWatermarks(TimestampsAndWatermarksOperator),
    Sql { op: WatermarkAssignerOperator, delay_ms: i64 },
}

/// One subtask of the chained operator, with its gated output.
#[derive(Clone, Debug)]
pub struct Midstream {
    pub spec: MidstreamSpec,
    op: Op,
    /// Flink ≤ 1.14: the DataStream operator forwarded upstream statuses.
    forwards_status: bool,
    /// When the last record passed (for the explanation).
    pub last_record_at: Option<ProcTime>,
    announced_idle: bool,
    /// The last watermark that went out (`currentOutputWatermark`).
    pub output_watermark: EventTime,
    scratch: Vec<Signal>,
    /// The operator's input-activity clock: its idleness reads it (FLIP-471).
    pub clock: PausableClock,
}

impl Midstream {
    pub fn new(spec: MidstreamSpec, auto_watermark_interval_ms: i64, forwards_status: bool) -> Self {
        let op = match spec {
            MidstreamSpec::TimestampsAndWatermarks { generator, emit, idle_timeout_ms } => {
                Op::TimestampsAndWatermarks(TimestampsAndWatermarksOperator::new(generator, emit, idle_timeout_ms))
            }
            MidstreamSpec::SqlWatermarkAssigner { delay_ms, idle_timeout_ms } => {
                Op::Sql { op: WatermarkAssignerOperator::new(auto_watermark_interval_ms, idle_timeout_ms), delay_ms }
            }
        };
        Midstream {
            spec,
            op,
            forwards_status,
            last_record_at: None,
            announced_idle: false,
            output_watermark: NO_WATERMARK,
            scratch: Vec::new(),
            clock: PausableClock::default(),
        }
    }

    /// At job start (the SQL operator's processing-time timer starts here).
    pub fn open(&mut self, now: ProcTime) {
        if let Op::Sql { op, .. } = &mut self.op {
            op.open(now);
        }
    }

    /// Whether the output last announced IDLE.
    pub fn is_idle(&self) -> bool {
        self.announced_idle
    }

    /// A changed idle timeout: `withIdleness` of the DataStream strategy, or
    /// `table.exec.source.idle-timeout` (`None` = 0, disabled) for SQL.
    pub fn set_idle_timeout(&mut self, timeout_ms: Option<i64>, now: ProcTime) {
        match (&mut self.op, &mut self.spec) {
            (Op::TimestampsAndWatermarks(op), MidstreamSpec::TimestampsAndWatermarks { idle_timeout_ms, .. }) => {
                op.set_idle_timeout(timeout_ms);
                *idle_timeout_ms = timeout_ms;
            }
            (Op::Sql { op, .. }, MidstreamSpec::SqlWatermarkAssigner { idle_timeout_ms, .. }) => {
                op.set_idle_timeout_ms(timeout_ms.unwrap_or(0), now);
                *idle_timeout_ms = timeout_ms.unwrap_or(0);
            }
            _ => unreachable!("a chained operator's spec names its operator"),
        }
    }

    /// A record after it went on downstream.
    pub fn process_element(&mut self, ts: EventTime, now: ProcTime, out: &mut Vec<Signal>) {
        self.last_record_at = Some(now);
        self.scratch.clear();
        match &mut self.op {
            Op::TimestampsAndWatermarks(op) => op.process_element(ts, now, &mut self.scratch),
            Op::Sql { op, delay_ms } => op.process_element(Some(ts.ms().saturating_sub(*delay_ms)), &mut self.scratch),
        }
        self.gate(out);
    }

    /// A watermark or status from the source subtask.
    pub fn process_signal(&mut self, sig: Signal, out: &mut Vec<Signal>) {
        self.scratch.clear();
        match (&mut self.op, sig) {
            (Op::TimestampsAndWatermarks(op), Signal::Watermark(w)) => op.process_watermark(w, &mut self.scratch),
            (Op::TimestampsAndWatermarks(_), Signal::Status(s)) if self.forwards_status => self.scratch.push(Signal::Status(s)),
            (Op::TimestampsAndWatermarks(op), Signal::Status(s)) => op.process_status(s, &mut self.scratch),
            (Op::Sql { op, .. }, Signal::Watermark(w)) => op.process_watermark(w, &mut self.scratch),
            (Op::Sql { op, .. }, Signal::Status(s)) => op.process_status(s, &mut self.scratch),
        }
        self.gate(out);
    }

    /// The pipeline's periodic tick (the DataStream operator's timer).
    pub fn on_periodic_emit(&mut self, now: ProcTime, out: &mut Vec<Signal>) {
        if let Op::TimestampsAndWatermarks(op) = &mut self.op {
            self.scratch.clear();
            op.on_periodic_emit(now, self.clock.relative(now), &mut self.scratch);
            self.gate(out);
        }
    }

    /// The SQL operator's own processing-time timer, if it has one.
    pub fn next_timer_at(&self) -> Option<ProcTime> {
        match &self.op {
            Op::Sql { op, .. } => op.next_timer_at(),
            Op::TimestampsAndWatermarks(_) => None,
        }
    }

    pub fn on_timer(&mut self, now: ProcTime, out: &mut Vec<Signal>) {
        if let Op::Sql { op, .. } = &mut self.op {
            self.scratch.clear();
            op.on_timer(now, self.clock.relative(now), &mut self.scratch);
            self.gate(out);
        }
    }

    /// `RecordWriterOutput`: statuses only when they change, no watermark while IDLE.
    fn gate(&mut self, out: &mut Vec<Signal>) {
        for &s in &self.scratch {
            match s {
                Signal::Status(st) => {
                    if st.is_idle() != self.announced_idle {
                        self.announced_idle = st.is_idle();
                        out.push(s);
                    }
                }
                Signal::Watermark(w) => {
                    if !self.announced_idle {
                        self.output_watermark = w;
                        out.push(s);
                    }
                }
            }
        }
    }
}
