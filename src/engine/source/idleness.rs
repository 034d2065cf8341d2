//! `WatermarksWithIdleness` and its `IdlenessTimer`, exactly as Flink 1.16+ (reference §1.6).
//!
//! The countdown starts at the first *quiet probe* (a periodic emit that saw no event since the
//! previous one), not at the last event, and idle is declared when strictly more than the
//! timeout has passed since then. `markIdle` is latched: it is reported once per idle period.
//! Idleness is only ever evaluated inside periodic emission, so an interval of 0 disables it.

use crate::engine::time::ProcTime;

/// Flink's `IdlenessTimer`. `Option` replaces Flink's `0 = not started` sentinel, so a
/// simulated clock that reads 0 does not restart the countdown (reference §1.6 pitfall).
#[derive(Clone, Debug)]
pub struct IdlenessTimer {
    counter: u64,
    last_counter: u64,
    start_of_inactivity: Option<ProcTime>,
    timeout_ms: i64,
}

impl IdlenessTimer {
    pub fn new(timeout_ms: i64) -> Self {
        IdlenessTimer { counter: 0, last_counter: 0, start_of_inactivity: None, timeout_ms }
    }

    pub fn timeout_ms(&self) -> i64 {
        self.timeout_ms
    }

    #[inline]
    pub fn activity(&mut self) {
        self.counter += 1;
    }

    /// `checkIfIdle`, called from periodic emission only.
    pub fn check_if_idle(&mut self, now: ProcTime) -> bool {
        if self.counter != self.last_counter {
            self.last_counter = self.counter;
            self.start_of_inactivity = None;
            false
        } else if let Some(start) = self.start_of_inactivity {
            now - start > self.timeout_ms
        } else {
            self.start_of_inactivity = Some(now);
            false
        }
    }

    /// When the countdown started (for "idle in X ms" displays), if it is running.
    pub fn countdown_started_at(&self) -> Option<ProcTime> {
        self.start_of_inactivity
    }
}

/// What `WatermarksWithIdleness.onPeriodicEmit` decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdleCheck {
    /// Not idle: run the wrapped generator's periodic emit.
    Emit,
    /// Just became idle: call `markIdle()` once.
    MarkIdle,
    /// Still idle (latched): emit nothing.
    StayIdle,
}

/// The idleness wrapper's state around one generator.
#[derive(Clone, Debug, Default)]
pub struct IdlenessWrapper {
    timer: Option<IdlenessTimer>,
    is_idle_now: bool,
}

impl IdlenessWrapper {
    pub fn new(timeout_ms: Option<i64>) -> Self {
        IdlenessWrapper { timer: timeout_ms.map(IdlenessTimer::new), is_idle_now: false }
    }

    /// Turning idleness on or off at runtime starts a fresh timer, as a restarted job would.
    pub fn set_timeout(&mut self, timeout_ms: Option<i64>) {
        if self.timer.as_ref().map(|t| t.timeout_ms()) != timeout_ms {
            *self = IdlenessWrapper::new(timeout_ms);
        }
    }

    pub fn timer(&self) -> Option<&IdlenessTimer> {
        self.timer.as_ref()
    }

    pub fn is_idle_now(&self) -> bool {
        self.is_idle_now
    }

    #[inline]
    pub fn on_event(&mut self) {
        if let Some(t) = &mut self.timer {
            t.activity();
        }
        self.is_idle_now = false;
    }

    pub fn on_periodic_emit(&mut self, now: ProcTime) -> IdleCheck {
        let Some(timer) = &mut self.timer else { return IdleCheck::Emit };
        if timer.check_if_idle(now) {
            if self.is_idle_now {
                IdleCheck::StayIdle
            } else {
                self.is_idle_now = true;
                IdleCheck::MarkIdle
            }
        } else {
            IdleCheck::Emit
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn v_idl_2_4_strict_comparison() {
        let mut t = IdlenessTimer::new(10);
        assert!(!t.check_if_idle(ProcTime(1_000)));
        assert!(!t.check_if_idle(ProcTime(1_010)));
        assert!(t.check_if_idle(ProcTime(1_011)));
    }

    #[test]
    fn v_idl_5_7_repeated_and_idle_active_idle() {
        let mut t = IdlenessTimer::new(122);
        t.check_if_idle(ProcTime(1000));
        assert!(t.check_if_idle(ProcTime(1123)));
        assert!(t.check_if_idle(ProcTime(1123)));
        assert!(t.check_if_idle(ProcTime(1223)));
        t.activity();
        assert!(!t.check_if_idle(ProcTime(1223)));
        assert!(!t.check_if_idle(ProcTime(1223)));
        assert!(t.check_if_idle(ProcTime(1346)));
    }

    /// `withIdleness(T1).withIdleness(T2)` nests two wrappers, and the outer one asks the inner
    /// one whenever it is not idle itself: the shorter timeout marks the output idle, on either
    /// layer (seed 002 §2 says the outer one's decides). Flink 2.3.0's own classes, run by
    /// `tools/oracle/DoubleIdleness.java` (probes every 100 ms, events at 50 and 1550): IDLE at
    /// 600 and 2100 both ways, as one wrapper with the shorter timeout.
    #[test]
    fn with_idleness_twice_is_the_shorter_timeout() {
        let idle_at = |check: &mut dyn FnMut(i64) -> bool| -> Vec<i64> {
            let mut marks = Vec::new();
            for t in (100..=3_000).step_by(100) {
                if check(t) {
                    marks.push(t);
                }
            }
            marks
        };
        let origin = 10_000;
        let nested = |inner_ms, outer_ms| {
            let (mut inner, mut outer) = (IdlenessWrapper::new(Some(inner_ms)), IdlenessWrapper::new(Some(outer_ms)));
            let mut downstream_idle = false;
            idle_at(&mut |t| {
                if t == 100 || t == 1_600 {
                    // The events at 50 and 1550 (onEvent reaches both layers).
                    inner.on_event();
                    outer.on_event();
                    downstream_idle = false;
                }
                let outer_check = outer.on_periodic_emit(ProcTime(origin + t));
                let marked = match outer_check {
                    IdleCheck::Emit => inner.on_periodic_emit(ProcTime(origin + t)) == IdleCheck::MarkIdle,
                    check => check == IdleCheck::MarkIdle,
                };
                // The data output forwards an IDLE status once (`WatermarkToDataOutput::markIdle`).
                let first = marked && !downstream_idle;
                downstream_idle |= marked;
                first
            })
        };
        let mut single = IdlenessWrapper::new(Some(300));
        let single_marks = idle_at(&mut |t| {
            if t == 100 || t == 1_600 {
                single.on_event();
            }
            single.on_periodic_emit(ProcTime(origin + t)) == IdleCheck::MarkIdle
        });
        assert_eq!(single_marks, [600, 2_100], "Flink 2.3.0's downstream: STATUS IDLE at 600 and 2100");
        assert_eq!(nested(300, 700), single_marks, "inner shorter");
        assert_eq!(nested(700, 300), single_marks, "outer shorter");
    }

    #[test]
    fn zero_clock_does_not_restart_countdown() {
        let mut t = IdlenessTimer::new(10);
        assert!(!t.check_if_idle(ProcTime(0)));
        assert!(t.check_if_idle(ProcTime(11)));
    }
}
