//! Flink's `TimestampsAndWatermarksOperator`: `assignTimestampsAndWatermarks(strategy)` in the
//! middle of a pipeline (reference §2.2, §7, vectors V-TAW-*).
//!
//! It runs one [`WatermarkGenerator`] (wrapped in `WatermarksWithIdleness` when `withIdleness` is
//! set) for the whole subtask, and replaces the watermarks from upstream with its own:
//! * upstream watermarks are swallowed, except `Long.MAX_VALUE` (end of input), which goes out
//!   through the operator's own emitter; upstream statuses are swallowed too (FLINK-26708, 1.15);
//! * its emitter (`WatermarkEmitter`) drops a watermark `≤` the last one, emits IDLE once on
//!   `markIdle`, and emits ACTIVE right before the first higher watermark after that. Records do
//!   not reactivate it (a late-running idle stream stays IDLE until its watermark rises).
//!
//! The caller owns the record path and the clock: it forwards each record (with its assigned
//! timestamp) *before* the signals [`process_element`](TimestampsAndWatermarksOperator::process_element)
//! appends, and calls [`on_periodic_emit`](TimestampsAndWatermarksOperator::on_periodic_emit) on
//! Flink's schedule: a one-shot processing-time timer at `open + interval`, re-registered at
//! `now + interval` after each firing, none at all when `pipeline.auto-watermark-interval` is 0
//! (then periodic generators never emit and idleness is never detected).
//!
//! Idleness reads the operator's input-activity clock (FLIP-471, FLINK-35886), which the caller
//! pauses while the task is back-pressured (V-TAW-7). Batch execution (`emitProgressiveWatermarks =
//! false`: a `NoWatermarksGenerator` and no timer) is the `NoWatermarks` generator without ticks.

use crate::engine::source::generator::{EmitMode, GeneratorKind, WatermarkGenerator};
use crate::engine::source::idleness::{IdleCheck, IdlenessWrapper};
use crate::engine::status::{Signal, WatermarkStatus};
use crate::engine::time::{EventTime, ProcTime, END_OF_TIME, NO_WATERMARK};

/// `TimestampsAndWatermarksOperator.WatermarkEmitter`.
#[derive(Clone, Copy, Debug)]
struct WatermarkEmitter {
    current: EventTime,
    idle: bool,
}

impl WatermarkEmitter {
    fn emit_watermark(&mut self, w: EventTime, out: &mut Vec<Signal>) {
        if w <= self.current {
            return;
        }
        self.current = w;
        self.mark_active(out);
        out.push(Signal::Watermark(w));
    }

    fn mark_idle(&mut self, out: &mut Vec<Signal>) {
        if !self.idle {
            self.idle = true;
            out.push(Signal::Status(WatermarkStatus::Idle));
        }
    }

    fn mark_active(&mut self, out: &mut Vec<Signal>) {
        if self.idle {
            self.idle = false;
            out.push(Signal::Status(WatermarkStatus::Active));
        }
    }
}

#[derive(Clone, Debug)]
pub struct TimestampsAndWatermarksOperator {
    generator: WatermarkGenerator,
    idleness: IdlenessWrapper,
    emitter: WatermarkEmitter,
}

impl TimestampsAndWatermarksOperator {
    /// `idle_timeout_ms`: `withIdleness(...)`, which Flink requires to be > 0 (the caller checks).
    pub fn new(kind: GeneratorKind, emit: EmitMode, idle_timeout_ms: Option<i64>) -> Self {
        TimestampsAndWatermarksOperator {
            generator: WatermarkGenerator::new(kind, emit),
            idleness: IdlenessWrapper::new(idle_timeout_ms),
            emitter: WatermarkEmitter { current: NO_WATERMARK, idle: false },
        }
    }

    pub fn generator(&self) -> &WatermarkGenerator {
        &self.generator
    }

    pub fn idleness(&self) -> &IdlenessWrapper {
        &self.idleness
    }

    /// A changed `withIdleness` (the playground changes it on a running job).
    pub fn set_idle_timeout(&mut self, idle_timeout_ms: Option<i64>) {
        self.idleness.set_timeout(idle_timeout_ms);
    }

    /// The last watermark this operator emitted (MIN until then).
    pub fn current_watermark(&self) -> EventTime {
        self.emitter.current
    }

    /// Whether the operator's output last announced IDLE.
    pub fn is_idle(&self) -> bool {
        self.emitter.idle
    }

    /// `processElement`, after the caller has forwarded the record: the generator's `onEvent`
    /// (a per-event generator may emit here), then the idleness timer sees activity.
    pub fn process_element(&mut self, ts: EventTime, now: ProcTime, out: &mut Vec<Signal>) {
        if let Some(w) = self.generator.on_event(ts, now) {
            self.emitter.emit_watermark(w, out);
        }
        self.idleness.on_event();
    }

    /// `onProcessingTime`: the (idleness-wrapped) generator's `onPeriodicEmit`; the idleness
    /// timer reads `activity`, the input-activity clock.
    pub fn on_periodic_emit(&mut self, now: ProcTime, activity: ProcTime, out: &mut Vec<Signal>) {
        match self.idleness.on_periodic_emit(activity) {
            IdleCheck::Emit => {
                if let Some(w) = self.generator.on_periodic_emit(now) {
                    self.emitter.emit_watermark(w, out);
                }
            }
            IdleCheck::MarkIdle => self.emitter.mark_idle(out),
            IdleCheck::StayIdle => {}
        }
    }

    /// An upstream watermark: swallowed unless it is the end of input.
    pub fn process_watermark(&mut self, w: EventTime, out: &mut Vec<Signal>) {
        if w == END_OF_TIME {
            self.emitter.emit_watermark(END_OF_TIME, out);
        }
    }

    /// An upstream status: swallowed (Flink ≥ 1.15).
    pub fn process_status(&mut self, _s: WatermarkStatus, _out: &mut Vec<Signal>) {}

    /// `finish()`: one last `onPeriodicEmit`, whatever the interval. Flink reads the clock here
    /// (the idleness check and the silence generator), hence `now`.
    pub fn finish(&mut self, now: ProcTime, out: &mut Vec<Signal>) {
        self.on_periodic_emit(now, now, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Signal::*;
    use WatermarkStatus::*;

    const T0: ProcTime = ProcTime(1_000_000);

    fn monotonous(emit: EmitMode, idle_timeout_ms: Option<i64>) -> TimestampsAndWatermarksOperator {
        TimestampsAndWatermarksOperator::new(GeneratorKind::Monotonous, emit, idle_timeout_ms)
    }

    fn element(op: &mut TimestampsAndWatermarksOperator, ts: i64, t: i64) -> Vec<Signal> {
        let mut out = Vec::new();
        op.process_element(EventTime(ts), T0 + t, &mut out);
        out
    }

    fn tick(op: &mut TimestampsAndWatermarksOperator, t: i64) -> Vec<Signal> {
        let mut out = Vec::new();
        op.on_periodic_emit(T0 + t, T0 + t, &mut out);
        out
    }

    /// V-TAW-7 watermarksWithIdlenessUnderBackpressure: punctuated generator, withIdleness(100),
    /// timer every 200 ms. While back-pressured (hard, then soft: the same pause here) ten
    /// advances of 100 ms emit nothing; after it, ten more emit exactly one IDLE.
    #[test]
    fn v_taw_7_idleness_under_back_pressure() {
        use crate::engine::flow::pausable_clock::PausableClock;
        let mut op = monotonous(EmitMode::PerEvent, Some(100));
        let mut clock = PausableClock::default();
        let mut out = Vec::new();
        let run = |op: &mut TimestampsAndWatermarksOperator, clock: &PausableClock, from: i64| {
            let mut out = Vec::new();
            for k in 1..=10 {
                let t = T0 + from + 100 * k;
                if (from + 100 * k) % 200 == 0 {
                    op.on_periodic_emit(t, clock.relative(t), &mut out);
                }
            }
            out
        };
        clock.set_paused(true, T0);
        out.extend(run(&mut op, &clock, 0));
        assert_eq!(out, vec![], "hard back-pressure");
        out.extend(run(&mut op, &clock, 1000));
        assert_eq!(out, vec![], "soft back-pressure");
        clock.set_paused(false, T0 + 2000);
        assert_eq!(run(&mut op, &clock, 2000), vec![Status(Idle)], "back-pressure off");
    }

    /// V-TAW-1 inputWatermarksAreNotForwarded; statuses are swallowed as well.
    #[test]
    fn v_taw_1_input_watermarks_and_statuses_are_not_forwarded() {
        let mut op = monotonous(EmitMode::Periodic, None);
        let mut out = Vec::new();
        op.process_watermark(EventTime(42), &mut out);
        op.process_status(Idle, &mut out);
        assert!(out.is_empty());
        assert_eq!(tick(&mut op, 50), vec![], "no record yet: the generator's MIN is dropped");
        assert_eq!(op.current_watermark(), NO_WATERMARK);
        assert!(!op.is_idle());
    }

    /// V-TAW-3 longMaxInputWatermarkIsForwarded, through the operator's own emitter (once).
    #[test]
    fn v_taw_3_long_max_input_watermark_is_forwarded() {
        let mut op = monotonous(EmitMode::Periodic, None);
        let mut out = Vec::new();
        op.process_watermark(END_OF_TIME, &mut out);
        assert_eq!(out, vec![Watermark(END_OF_TIME)]);
        out.clear();
        op.process_watermark(END_OF_TIME, &mut out);
        assert!(out.is_empty(), "≤ current is dropped");
    }

    /// V-TAW-4 periodicWatermarksEmitOnPeriodicEmitStreamMode: the test's generator emits the
    /// last timestamp − 1, which is `forMonotonousTimestamps` for increasing timestamps.
    #[test]
    fn v_taw_4_periodic_watermarks_emit_on_periodic_emit() {
        let mut op = monotonous(EmitMode::Periodic, None);
        assert_eq!(element(&mut op, 2, 0), vec![]);
        assert_eq!(tick(&mut op, 50), vec![Watermark(EventTime(1))]);
        assert_eq!(element(&mut op, 4, 60), vec![]);
        assert_eq!(tick(&mut op, 100), vec![Watermark(EventTime(3))]);
        // #periodicWatermarksOnlyEmitOnPeriodicEmitStreamMode: without a timer, only records.
        let mut op = monotonous(EmitMode::Periodic, None);
        assert_eq!(element(&mut op, 2, 0), vec![]);
        assert_eq!(op.current_watermark(), NO_WATERMARK);
    }

    /// V-TAW-6 punctuated. Flink's test generator emits the flagged event's own timestamp; no
    /// stock generator does (a negative out-of-orderness bound is rejected by Flink), so the
    /// per-event monotonous generator (`ts − 1`) is used with timestamps shifted by +1.
    #[test]
    fn v_taw_6_punctuated_emit_immediately_and_do_not_regress() {
        let mut op = monotonous(EmitMode::PerEvent, None);
        assert_eq!(element(&mut op, 3, 0), vec![Watermark(EventTime(2))]);
        assert_eq!(element(&mut op, 5, 1), vec![Watermark(EventTime(4))]);
        assert_eq!(tick(&mut op, 50), vec![], "a per-event generator does nothing periodically");
        let mut op = monotonous(EmitMode::PerEvent, None);
        assert_eq!(element(&mut op, 5, 0), vec![Watermark(EventTime(4))]);
        assert_eq!(element(&mut op, 3, 1), vec![]);
        // Batch mode (#periodic/#punctuatedWatermarksBatchMode): a NoWatermarksGenerator.
        let mut op = TimestampsAndWatermarksOperator::new(GeneratorKind::NoWatermarks, EmitMode::PerEvent, None);
        assert_eq!(element(&mut op, 3, 0), vec![]);
        assert_eq!(tick(&mut op, 50), vec![]);
    }

    /// #testNegativeTimestamps: any timestamp passes; the generator's arithmetic saturates.
    #[test]
    fn extreme_timestamps() {
        let mut op = monotonous(EmitMode::PerEvent, None);
        let got: Vec<Vec<Signal>> = [i64::MIN, -1, 0, 1, 2, 3, i64::MAX].iter().map(|&ts| element(&mut op, ts, 0)).collect();
        let wm = |w: i64| vec![Watermark(EventTime(w))];
        assert_eq!(got, vec![vec![], wm(-2), wm(-1), wm(0), wm(1), wm(2), wm(i64::MAX - 1)]);
        let mut out = Vec::new();
        op.process_watermark(END_OF_TIME, &mut out);
        assert_eq!(out, wm(i64::MAX));
    }

    /// withIdleness(100), ticks every 50 ms: IDLE once, records alone do not reactivate, ACTIVE
    /// comes right before the first higher watermark.
    #[test]
    fn idleness_on() {
        let mut op = monotonous(EmitMode::Periodic, Some(100));
        assert_eq!(element(&mut op, 10, 0), vec![]);
        assert_eq!(tick(&mut op, 50), vec![Watermark(EventTime(9))]);
        for t in [100, 150, 200] {
            assert_eq!(tick(&mut op, t), vec![], "t={t}: countdown from 100, strictly more than 100 ms");
        }
        assert_eq!(tick(&mut op, 250), vec![Status(Idle)]);
        assert_eq!(tick(&mut op, 300), vec![]);
        assert!(op.is_idle());
        assert_eq!(element(&mut op, 5, 310), vec![]);
        assert_eq!(tick(&mut op, 350), vec![], "max is still 10: nothing higher, still idle");
        assert!(op.is_idle());
        assert_eq!(element(&mut op, 20, 360), vec![]);
        assert_eq!(tick(&mut op, 400), vec![Status(Active), Watermark(EventTime(19))]);
        for t in [450, 500, 550] {
            assert_eq!(tick(&mut op, t), vec![]);
        }
        assert_eq!(tick(&mut op, 600), vec![Status(Idle)]);
        let mut out = Vec::new();
        op.process_watermark(END_OF_TIME, &mut out);
        assert_eq!(out, vec![Status(Active), Watermark(END_OF_TIME)]);
    }

    #[test]
    fn idleness_off_never_goes_idle() {
        let mut op = monotonous(EmitMode::Periodic, None);
        element(&mut op, 10, 0);
        assert_eq!(tick(&mut op, 50), vec![Watermark(EventTime(9))]);
        for t in (100..=2000).step_by(50) {
            assert_eq!(tick(&mut op, t), vec![], "t={t}");
        }
        assert!(!op.is_idle());
    }

    /// V-TAW-7 without its back-pressured phases: a punctuated generator with withIdleness(100)
    /// and the default 200 ms interval goes idle exactly once over 10 × 100 ms.
    #[test]
    fn v_taw_7_unpressured_phase() {
        let mut op = monotonous(EmitMode::PerEvent, Some(100));
        let got: Vec<Signal> = (1..=5).flat_map(|i| tick(&mut op, i * 200)).collect();
        assert_eq!(got, vec![Status(Idle)]);
    }

    #[test]
    fn finish_runs_one_last_periodic_emit() {
        let mut op = monotonous(EmitMode::Periodic, None);
        element(&mut op, 7, 0);
        let mut out = Vec::new();
        op.finish(T0 + 1, &mut out);
        assert_eq!(out, vec![Watermark(EventTime(6))]);
    }
}
