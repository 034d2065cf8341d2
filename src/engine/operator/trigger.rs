//! Window triggers: which of Flink's event-time triggers the window operator runs, what a
//! firing was (on time, early, late), and the timer arithmetic of `ContinuousEventTimeTrigger`
//! (reference §8.7; Flink 2.x `ContinuousEventTimeTrigger`, `PurgingTrigger`).
//!
//! The operator keeps the trigger's state itself (its timers and the continuous trigger's
//! `fire-time` value) next to the window's contents; this file holds the rules that do not
//! need that state, so the operator reads as Flink's `WindowOperator` does.
//!
//! * `EventTimeTrigger` (the default): FIRE at `maxTimestamp`, or at once for an element that
//!   arrives after the watermark passed it; accumulating.
//! * `PurgingTrigger.of(t)`: every FIRE of `t` becomes FIRE_AND_PURGE (the contents are
//!   emitted, then cleared; the trigger's own state and timers stay).
//! * `ContinuousEventTimeTrigger.of(interval)`: as `EventTimeTrigger`, plus early firings. The
//!   first non-late element of a window registers a timer at
//!   `min(ts - ts % interval + interval, maxTimestamp)` (Java's truncating `%`), remembered as
//!   the window's `fire-time`; when that timer fires the window FIREs and the next one is
//!   registered at `min(time + interval, maxTimestamp)`. On a merge the merged `fire-time` is
//!   the smallest one and its timer is registered, even at or below the watermark.

use crate::engine::input_twin::input_twin;
use crate::engine::limits::MAX_EARLY_FIRINGS_PER_WINDOW;
use crate::engine::time::{thousands, EventTime};
use serde::Serialize;

input_twin! {
    /// The trigger of the window operator (`window.trigger`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
    #[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
    pub enum TriggerSpec reads trigger_spec_in #[serde(rename = "$tag:type", rename_all = "snake_case", deny_unknown_fields)] {
        /// `EventTimeTrigger.create()`: the default of every event-time window assigner.
        EventTime,
        /// `PurgingTrigger.of(EventTimeTrigger.create())`.
        Purging,
        /// `ContinuousEventTimeTrigger.of(Duration.ofMillis(interval_ms))`, wrapped in
        /// `PurgingTrigger.of(...)` when `purging`.
        Continuous {
            interval_ms: i64,
            #[serde(default)]
            purging: bool,
        },
    }
}

// Not `#[default]`: `input_twin!` copies variant attributes onto the twin, which has no `Default`.
#[allow(clippy::derivable_impls)]
impl Default for TriggerSpec {
    fn default() -> Self {
        TriggerSpec::EventTime
    }
}

impl TriggerSpec {
    /// FIRE means FIRE_AND_PURGE.
    pub fn purges(&self) -> bool {
        matches!(self, TriggerSpec::Purging | TriggerSpec::Continuous { purging: true, .. })
    }

    /// The early-firing interval of a continuous trigger.
    pub fn interval_ms(&self) -> Option<i64> {
        match *self {
            TriggerSpec::Continuous { interval_ms, .. } => Some(interval_ms),
            _ => None,
        }
    }

    /// Flink's check (`Duration` > 0 is not checked by Flink itself: a zero interval divides by
    /// zero on the first element) and the engine's bound on early firings: a window spanning
    /// `span_ms` fires early at most `span_ms / interval_ms` times, all of them possibly within
    /// one watermark.
    pub fn validate(&self, span_ms: i64) -> Result<(), (&'static str, String)> {
        let Some(interval) = self.interval_ms() else { return Ok(()) };
        if interval <= 0 {
            return Err(("interval_ms", "must be > 0".into()));
        }
        if span_ms / interval > MAX_EARLY_FIRINGS_PER_WINDOW {
            let most = thousands(MAX_EARLY_FIRINGS_PER_WINDOW as u64);
            return Err(("interval_ms", format!("the window's size (or session gap) / interval must be at most {most}")));
        }
        Ok(())
    }
}

/// What fired a window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum FiringKind {
    /// The timer at the window's max timestamp: the watermark reached its end.
    #[default]
    OnTime,
    /// A continuous trigger's interval timer, before (or on the way to) the window's end.
    Early,
    /// An element that arrived after the watermark had passed the window's end (within the
    /// allowed lateness).
    Late,
}

/// `ContinuousEventTimeTrigger.onElement`'s first fire time for an element at `ts`:
/// `min(ts - ts % interval + interval, maxTimestamp)`. For a negative `ts` Java's `%` rounds
/// towards zero, so the first timer lies one interval further than the floor would put it.
pub fn first_fire_time(ts: EventTime, interval_ms: i64, max_ts: EventTime) -> EventTime {
    next_fire_time(EventTime(ts.ms() - ts.ms() % interval_ms), interval_ms, max_ts)
}

/// `registerNextFireTimestamp(time)`: `min(time + interval, maxTimestamp)`. Flink adds with
/// Java's wrapping `long`: within one interval of `Long.MAX_VALUE` the sum wraps to a far
/// negative timer that fires at once and re-registers every interval across the whole range
/// (the job never gets past it). The engine saturates instead, so the next firing is the
/// window's end (README: where the model simplifies Flink).
pub fn next_fire_time(time: EventTime, interval_ms: i64, max_ts: EventTime) -> EventTime {
    time.saturating_add(interval_ms).min(max_ts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fire_times_follow_java_arithmetic() {
        let max = EventTime(9_999);
        assert_eq!(first_fire_time(EventTime(0), 1000, max), EventTime(1000));
        assert_eq!(first_fire_time(EventTime(999), 1000, max), EventTime(1000));
        assert_eq!(first_fire_time(EventTime(1000), 1000, max), EventTime(2000));
        // Truncation towards zero: -1 % 1000 = -1, start 0, first timer at 1000 (not 0).
        assert_eq!(first_fire_time(EventTime(-1), 1000, EventTime(5000)), EventTime(1000));
        assert_eq!(first_fire_time(EventTime(-1500), 1000, EventTime(5000)), EventTime(0));
        assert_eq!(first_fire_time(EventTime(9_500), 1000, max), max, "clamped to the window's max timestamp");
        assert_eq!(next_fire_time(EventTime(9_000), 1000, max), max);
        assert_eq!(next_fire_time(EventTime(i64::MAX - 10), 100, EventTime::MAX - 1), EventTime::MAX - 1, "saturates");
        assert_eq!(first_fire_time(EventTime::MIN, 7, EventTime(0)), EventTime(i64::MIN - i64::MIN % 7 + 7));
    }

    #[test]
    fn validation_names_the_field() {
        assert_eq!(TriggerSpec::Continuous { interval_ms: 0, purging: false }.validate(1000).unwrap_err().0, "interval_ms");
        assert!(TriggerSpec::Continuous { interval_ms: 1, purging: true }.validate(MAX_EARLY_FIRINGS_PER_WINDOW).is_ok());
        assert!(TriggerSpec::Continuous { interval_ms: 1, purging: true }.validate(MAX_EARLY_FIRINGS_PER_WINDOW + 1).is_err());
        assert!(TriggerSpec::Purging.validate(i64::MAX).is_ok());
        assert!(TriggerSpec::Purging.purges() && !TriggerSpec::EventTime.purges());
        assert!(TriggerSpec::Continuous { interval_ms: 5, purging: true }.purges());
    }
}
