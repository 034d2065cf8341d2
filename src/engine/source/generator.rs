//! Watermark generators (`WatermarkStrategy.forBoundedOutOfOrderness`, `forMonotonousTimestamps`,
//! `noWatermarks`), Flink SQL's pushed-down `WATERMARK FOR ts AS ts - INTERVAL ...`, a
//! deliberately wrong teaching generator, and their emission mode.
//!
//! Reference §1.2–1.5: the bounded generator emits `max_ts - bound - 1` on every periodic
//! emit, even when unchanged; deduplication happens downstream in the outputs. §10.1: the SQL
//! generator (`GeneratedWatermarkGeneratorSupplier.DefaultWatermarkGenerator`) keeps the largest
//! `ts - delay` it has seen, starting from `Long.MIN_VALUE` — no `- 1`.

use crate::engine::input_twin::input_twin;
use crate::engine::time::{EventTime, ProcTime, END_OF_TIME, NO_WATERMARK};
use serde::{Deserialize, Serialize};

input_twin! {
    /// Which generator the strategy builds (one instance per split, plus one for the main output).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
    #[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
    pub enum GeneratorKind reads generator_kind_in #[serde(rename = "$tag:kind", rename_all = "snake_case", deny_unknown_fields)] {
        /// `forBoundedOutOfOrderness(bound)`: watermark = max_ts - bound - 1.
        BoundedOutOfOrderness { bound_ms: i64 },
        /// `forMonotonousTimestamps()`: exactly bounded(0), watermark = max_ts - 1.
        Monotonous,
        /// `noWatermarks()`: never emits (only the end-of-input MAX reaches downstream).
        NoWatermarks,
        /// Flink SQL's `WATERMARK FOR ts AS ts - INTERVAL 'delay' ...` pushed into the source
        /// (`SupportsWatermarkPushDown`): watermark = max_ts - delay, without the `- 1`.
        SqlBounded { delay_ms: i64 },
        /// A custom generator some teams write: bounded, but emits `Long.MAX_VALUE` once a split has
        /// been silent for `silence_ms`. It closes every window and makes all later data late.
        MaxOnSilence { bound_ms: i64, silence_ms: i64 },
    }
}

impl GeneratorKind {
    /// The bound the strategy was given (SQL's `INTERVAL` delay), which `Param::BoundMs` sets:
    /// none for `forMonotonousTimestamps()` (bounded(0) with nothing to set) and
    /// `noWatermarks()`.
    ///
    /// ```
    /// use wmp::engine::source::generator::GeneratorKind;
    /// assert_eq!(GeneratorKind::SqlBounded { delay_ms: 3_000 }.given_bound_ms(), Some(3_000));
    /// assert_eq!(GeneratorKind::MaxOnSilence { bound_ms: 5_000, silence_ms: 60_000 }.given_bound_ms(), Some(5_000));
    /// assert_eq!(GeneratorKind::Monotonous.given_bound_ms(), None);
    /// ```
    pub fn given_bound_ms(self) -> Option<i64> {
        match self {
            GeneratorKind::BoundedOutOfOrderness { bound_ms } | GeneratorKind::MaxOnSilence { bound_ms, .. } => Some(bound_ms),
            GeneratorKind::SqlBounded { delay_ms } => Some(delay_ms),
            GeneratorKind::Monotonous | GeneratorKind::NoWatermarks => None,
        }
    }
}

/// When the generator's watermark is emitted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EmitMode {
    /// `onPeriodicEmit` every `auto_watermark_interval_ms` (Flink's stock generators).
    Periodic,
    /// Punctuated: the watermark is emitted from `onEvent`, right after each record (the
    /// oracle's deterministic mode: the limit of an interval elapsing between every two records).
    PerEvent,
}

/// One generator instance.
#[derive(Clone, Debug)]
pub struct WatermarkGenerator {
    kind: GeneratorKind,
    mode: EmitMode,
    /// Highest timestamp seen; `None` stands for Flink's initial `MIN + bound + 1`.
    max_ts: Option<EventTime>,
    last_event_at: Option<ProcTime>,
}

impl WatermarkGenerator {
    pub fn new(kind: GeneratorKind, mode: EmitMode) -> Self {
        WatermarkGenerator { kind, mode, max_ts: None, last_event_at: None }
    }

    pub fn kind(&self) -> GeneratorKind {
        self.kind
    }

    /// Changing the strategy keeps what was seen (the output never regresses anyway).
    pub fn reconfigure(&mut self, kind: GeneratorKind, mode: EmitMode) {
        self.kind = kind;
        self.mode = mode;
    }

    pub fn max_timestamp(&self) -> Option<EventTime> {
        self.max_ts
    }

    /// `onEvent`: returns the watermark emitted on the immediate output, if any.
    #[inline]
    pub fn on_event(&mut self, ts: EventTime, now: ProcTime) -> Option<EventTime> {
        if self.max_ts.is_none_or(|m| ts > m) {
            self.max_ts = Some(ts);
        }
        self.last_event_at = Some(now);
        match self.mode {
            EmitMode::PerEvent => self.current(now),
            EmitMode::Periodic => None,
        }
    }

    /// `onPeriodicEmit`: returns the watermark emitted on the deferred output, if any.
    pub fn on_periodic_emit(&mut self, now: ProcTime) -> Option<EventTime> {
        match self.mode {
            EmitMode::Periodic => self.current(now),
            EmitMode::PerEvent => None,
        }
    }

    fn current(&self, now: ProcTime) -> Option<EventTime> {
        let bounded = |bound: i64| match self.max_ts {
            None => NO_WATERMARK,
            Some(m) => m.saturating_sub(bound).saturating_sub(1),
        };
        match self.kind {
            GeneratorKind::BoundedOutOfOrderness { bound_ms } => Some(bounded(bound_ms)),
            GeneratorKind::Monotonous => Some(bounded(0)),
            GeneratorKind::NoWatermarks => None,
            GeneratorKind::SqlBounded { delay_ms } => Some(self.max_ts.map_or(NO_WATERMARK, |m| m.saturating_sub(delay_ms))),
            GeneratorKind::MaxOnSilence { bound_ms, silence_ms } => {
                let silent = self.last_event_at.is_some_and(|t| now - t >= silence_ms);
                Some(if silent { END_OF_TIME } else { bounded(bound_ms) })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bounded(b: i64) -> WatermarkGenerator {
        WatermarkGenerator::new(GeneratorKind::BoundedOutOfOrderness { bound_ms: b }, EmitMode::Periodic)
    }

    #[test]
    fn v_gen_1_2_4() {
        let mut g = bounded(10);
        assert_eq!(g.on_periodic_emit(ProcTime(0)), Some(NO_WATERMARK));
        g.on_event(EventTime(1337), ProcTime(0));
        assert_eq!(g.on_periodic_emit(ProcTime(0)), Some(EventTime(1326)));
        let mut g = bounded(10);
        g.on_event(EventTime(723456), ProcTime(0));
        assert_eq!(g.on_periodic_emit(ProcTime(0)), Some(EventTime(723445)));
        assert_eq!(g.on_periodic_emit(ProcTime(0)), Some(EventTime(723445)));
    }

    #[test]
    fn out_of_order_keeps_max_and_negative_ts() {
        let mut g = bounded(10);
        for ts in [12345, 12300, 12340, 12280] {
            g.on_event(EventTime(ts), ProcTime(0));
        }
        assert_eq!(g.on_periodic_emit(ProcTime(0)), Some(EventTime(12334)));
        let mut g = bounded(5000);
        g.on_event(EventTime(-100), ProcTime(0));
        assert_eq!(g.on_periodic_emit(ProcTime(0)), Some(EventTime(-5101)));
        let mut g = bounded(5);
        g.on_event(NO_WATERMARK, ProcTime(0));
        assert_eq!(g.on_periodic_emit(ProcTime(0)), Some(NO_WATERMARK));
    }

    #[test]
    fn v_gen_5_monotonous() {
        let mut g = WatermarkGenerator::new(GeneratorKind::Monotonous, EmitMode::Periodic);
        assert_eq!(g.on_periodic_emit(ProcTime(0)), Some(NO_WATERMARK));
        g.on_event(EventTime(1337), ProcTime(0));
        assert_eq!(g.on_periodic_emit(ProcTime(0)), Some(EventTime(1336)));
        g.on_event(EventTime(1000), ProcTime(0));
        assert_eq!(g.on_periodic_emit(ProcTime(0)), Some(EventTime(1336)));
    }

    #[test]
    fn sql_bounded_has_no_minus_one_and_starts_at_min() {
        let mut g = WatermarkGenerator::new(GeneratorKind::SqlBounded { delay_ms: 5000 }, EmitMode::Periodic);
        assert_eq!(g.on_periodic_emit(ProcTime(0)), Some(NO_WATERMARK), "Long.MIN_VALUE: the outputs drop it");
        g.on_event(EventTime(9_999), ProcTime(0));
        assert_eq!(g.on_periodic_emit(ProcTime(0)), Some(EventTime(4_999)));
        g.on_event(EventTime(14_999), ProcTime(0));
        g.on_event(EventTime(3_000), ProcTime(0));
        assert_eq!(g.on_periodic_emit(ProcTime(0)), Some(EventTime(9_999)), "V-SQL-3: fires TUMBLE [0, 10000)");
        let mut g = WatermarkGenerator::new(GeneratorKind::SqlBounded { delay_ms: 0 }, EmitMode::PerEvent);
        assert_eq!(g.on_event(EventTime(7), ProcTime(0)), Some(EventTime(7)), "strictly ascending: WATERMARK FOR ts AS ts");
    }

    #[test]
    fn no_watermarks_and_max_on_silence() {
        let mut g = WatermarkGenerator::new(GeneratorKind::NoWatermarks, EmitMode::Periodic);
        g.on_event(EventTime(5), ProcTime(0));
        assert_eq!(g.on_periodic_emit(ProcTime(0)), None);
        let mut g = WatermarkGenerator::new(GeneratorKind::MaxOnSilence { bound_ms: 0, silence_ms: 100 }, EmitMode::Periodic);
        g.on_event(EventTime(50), ProcTime(0));
        assert_eq!(g.on_periodic_emit(ProcTime(99)), Some(EventTime(49)));
        assert_eq!(g.on_periodic_emit(ProcTime(100)), Some(END_OF_TIME));
    }
}
