//! Flink SQL's `WatermarkAssignerOperator` (`StreamExecWatermarkAssigner`): the operator a
//! `WATERMARK FOR ts AS expr` becomes when the watermark is not pushed into the source
//! (reference §10.1 item 2, vector V-SQL-2). Its rules differ from the DataStream operator's
//! ([`super::timestamps_and_watermarks`]), which is why it has its own file:
//! * the current and the last emitted watermark both start at **0**, so watermarks `≤ 0` are
//!   never emitted; the watermark is the max of the expression's values (no `− 1`);
//! * a row that finds the operator IDLE (with idleness enabled) emits ACTIVE first: rows
//!   reactivate here. After the row, the watermark is emitted at once if it is more than the
//!   auto-watermark interval ahead of the last one (event-time ms against a processing-time
//!   interval), so with an interval of 0 every increase is emitted immediately;
//! * one processing-time timer every [`timer_interval`] ms drives both the periodic emission
//!   (`lastEmit + interval ≤ now`) and the idleness check (`lastActive + timeout ≤ now`,
//!   non-strict, where `lastActive` is the first timer that saw no new rows);
//! * upstream watermarks are swallowed except `Long.MAX_VALUE`; upstream statuses are
//!   **forwarded** (the DataStream operator swallows them) and become the operator's status;
//!   `finish()` emits `Long.MAX_VALUE`.
//!
//! Verified against Flink's source (2.x, the `WatermarkEvent` API), one quirk included: an
//! upstream `Long.MAX_VALUE` sets the current watermark but not the last emitted one, so the next
//! row or periodic emission sends `Long.MAX_VALUE` a second time.
//!
//! The caller evaluates the expression per row (`None`: it returned null; a null rowtime field
//! is a separate error that fails the job) and forwards the row before the signals
//! [`WatermarkAssignerOperator::process_element`] appends. Flink emits watermarks and statuses
//! without deduplication; the caller's output drops watermarks while it has announced IDLE and
//! repeated statuses (reference §3).
//!
//! Overflow: Java adds the processing-time deadlines and the next timer with wrapping `long`
//! arithmetic (a huge interval wraps into the past and the timer fires at once); here they
//! saturate. `5 × min(interval, timeout)` in the timer-interval rule wraps as in Java.

use crate::engine::status::{Signal, WatermarkStatus};
use crate::engine::time::{EventTime, ProcTime, END_OF_TIME};

/// `calculateProcessingTimeTimerInterval`: `None` when neither periodic emission nor idleness
/// is on (no timer is registered).
pub fn timer_interval(auto_watermark_interval_ms: i64, idle_timeout_ms: i64) -> Option<i64> {
    if auto_watermark_interval_ms <= 0 && idle_timeout_ms <= 0 {
        return None;
    }
    if auto_watermark_interval_ms <= 0 {
        return Some(idle_timeout_ms);
    }
    if idle_timeout_ms <= 0 {
        return Some(auto_watermark_interval_ms);
    }
    let smaller = auto_watermark_interval_ms.min(idle_timeout_ms);
    let larger = auto_watermark_interval_ms.max(idle_timeout_ms);
    // One timer serves both: the smaller interval when it is 5× smaller, else a fifth of it.
    let interval = if smaller.wrapping_mul(5) < larger { smaller } else { smaller / 5 };
    Some(interval.max(1))
}

#[derive(Clone, Debug)]
pub struct WatermarkAssignerOperator {
    watermark_interval_ms: i64,
    idle_timeout_ms: i64,
    timer_interval_ms: Option<i64>,
    current_watermark: EventTime,
    last_watermark: EventTime,
    last_watermark_periodic_emit_time: ProcTime,
    time_since_last_idle_check: ProcTime,
    current_status: WatermarkStatus,
    processed_elements: u64,
    /// Flink's `-1`: no timer has looked yet.
    last_idle_check_processed_elements: Option<u64>,
    next_timer: Option<ProcTime>,
}

impl WatermarkAssignerOperator {
    /// `idle_timeout_ms`: `table.exec.source.idle-timeout`, 0 (the default) or less = disabled.
    /// The operator is inert until [`open`](Self::open).
    pub fn new(auto_watermark_interval_ms: i64, idle_timeout_ms: i64) -> Self {
        WatermarkAssignerOperator {
            watermark_interval_ms: auto_watermark_interval_ms,
            idle_timeout_ms,
            timer_interval_ms: timer_interval(auto_watermark_interval_ms, idle_timeout_ms),
            current_watermark: EventTime(0),
            last_watermark: EventTime(0),
            last_watermark_periodic_emit_time: ProcTime(0),
            time_since_last_idle_check: ProcTime(0),
            current_status: WatermarkStatus::Active,
            processed_elements: 0,
            last_idle_check_processed_elements: None,
            next_timer: None,
        }
    }

    /// `open()`: both clocks start now, and the first timer is due one timer interval later.
    pub fn open(&mut self, now: ProcTime) {
        self.last_watermark_periodic_emit_time = now;
        self.time_since_last_idle_check = now;
        self.next_timer = self.timer_interval_ms.map(|i| now.saturating_add(i));
    }

    /// A changed `table.exec.source.idle-timeout` (the playground changes it on a running job;
    /// Flink needs a restart): the timer interval follows, from `now`.
    pub fn set_idle_timeout_ms(&mut self, idle_timeout_ms: i64, now: ProcTime) {
        self.idle_timeout_ms = idle_timeout_ms;
        self.timer_interval_ms = timer_interval(self.watermark_interval_ms, idle_timeout_ms);
        if self.next_timer.is_some() || self.timer_interval_ms.is_some() {
            self.next_timer = self.timer_interval_ms.map(|i| now.saturating_add(i));
        }
    }

    pub fn timer_interval_ms(&self) -> Option<i64> {
        self.timer_interval_ms
    }

    /// When [`on_timer`](Self::on_timer) is due; `None` before `open` or without a timer.
    pub fn next_timer_at(&self) -> Option<ProcTime> {
        self.next_timer
    }

    /// The max of the expression so far (0 initially; `Long.MAX_VALUE` after end of input).
    pub fn current_watermark(&self) -> EventTime {
        self.current_watermark
    }

    /// The last watermark emitted by the operator itself (0 initially).
    pub fn last_watermark(&self) -> EventTime {
        self.last_watermark
    }

    pub fn status(&self) -> WatermarkStatus {
        self.current_status
    }

    pub fn is_idle(&self) -> bool {
        self.current_status.is_idle()
    }

    fn idleness_enabled(&self) -> bool {
        self.idle_timeout_ms > 0
    }

    /// `processElement` with the expression's value for the row (`None` = null).
    pub fn process_element(&mut self, expr: Option<i64>, out: &mut Vec<Signal>) {
        self.processed_elements += 1;
        if self.idleness_enabled() && self.current_status.is_idle() {
            self.emit_status(WatermarkStatus::Active, out);
        }
        if let Some(w) = expr {
            self.current_watermark = self.current_watermark.max(EventTime(w));
        }
        // Both are ≥ 0 here, so the difference cannot overflow.
        if self.current_watermark - self.last_watermark > self.watermark_interval_ms {
            self.advance_watermark(out);
        }
    }

    /// `onProcessingTime`: periodic emission, the idleness check (on `activity`, the
    /// input-activity clock, FLIP-471), the next timer.
    pub fn on_timer(&mut self, now: ProcTime, activity: ProcTime, out: &mut Vec<Signal>) {
        let interval = self.watermark_interval_ms;
        if interval > 0 && self.last_watermark_periodic_emit_time.saturating_add(interval) <= now {
            self.last_watermark_periodic_emit_time = now;
            self.advance_watermark(out);
        }
        if self.last_idle_check_processed_elements != Some(self.processed_elements) {
            self.time_since_last_idle_check = activity;
            self.last_idle_check_processed_elements = Some(self.processed_elements);
        }
        let timed_out = self.time_since_last_idle_check.saturating_add(self.idle_timeout_ms) <= activity;
        if self.idleness_enabled() && !self.current_status.is_idle() && timed_out {
            self.emit_status(WatermarkStatus::Idle, out);
        }
        self.next_timer = self.timer_interval_ms.map(|i| now.saturating_add(i));
    }

    /// An upstream watermark: only `Long.MAX_VALUE` goes on, and only the first time.
    pub fn process_watermark(&mut self, w: EventTime, out: &mut Vec<Signal>) {
        if w != END_OF_TIME || self.current_watermark == END_OF_TIME {
            return;
        }
        if self.idleness_enabled() && self.current_status.is_idle() {
            self.emit_status(WatermarkStatus::Active, out);
        }
        self.current_watermark = END_OF_TIME;
        out.push(Signal::Watermark(END_OF_TIME));
    }

    /// An upstream status: forwarded, and it becomes the operator's status.
    pub fn process_status(&mut self, s: WatermarkStatus, out: &mut Vec<Signal>) {
        self.emit_status(s, out);
    }

    /// `finish()`: all rows processed, `Long.MAX_VALUE` (as if it came from upstream).
    pub fn finish(&mut self, out: &mut Vec<Signal>) {
        self.process_watermark(END_OF_TIME, out);
    }

    fn advance_watermark(&mut self, out: &mut Vec<Signal>) {
        if self.current_watermark > self.last_watermark {
            self.last_watermark = self.current_watermark;
            out.push(Signal::Watermark(self.current_watermark));
        }
    }

    fn emit_status(&mut self, s: WatermarkStatus, out: &mut Vec<Signal>) {
        self.current_status = s;
        out.push(Signal::Status(s));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Signal::*;
    use WatermarkStatus::*;

    const T0: ProcTime = ProcTime(1_767_225_600_000);

    fn opened(interval_ms: i64, idle_timeout_ms: i64) -> WatermarkAssignerOperator {
        let mut op = WatermarkAssignerOperator::new(interval_ms, idle_timeout_ms);
        op.open(T0);
        op
    }

    fn rows(op: &mut WatermarkAssignerOperator, exprs: &[Option<i64>]) -> Vec<Signal> {
        let mut out = Vec::new();
        for &e in exprs {
            op.process_element(e, &mut out);
        }
        out
    }

    /// Fires the timer the way Flink's harness does when time is set to `t`: every due timer
    /// with the clock already at `t`.
    fn set_time(op: &mut WatermarkAssignerOperator, t: i64) -> Vec<Signal> {
        let mut out = Vec::new();
        while op.next_timer_at().is_some_and(|due| due <= T0 + t) {
            op.on_timer(T0 + t, T0 + t, &mut out);
        }
        out
    }

    fn wm(w: i64) -> Signal {
        Watermark(EventTime(w))
    }

    /// V-SQL-2, WatermarkAssignerOperatorTest#testCustomizedWatermarkGenerator (interval 5).
    #[test]
    fn v_sql_2_eager_emission_when_the_watermark_jumps() {
        let mut op = opened(5, -1);
        assert_eq!(op.timer_interval_ms(), Some(5));
        assert_eq!(rows(&mut op, &[Some(0), Some(1)]), vec![]);
        let mut out = Vec::new();
        op.process_watermark(EventTime(2), &mut out);
        assert_eq!(out, vec![], "ignored");
        assert_eq!(rows(&mut op, &[Some(1)]), vec![]);
        assert_eq!(set_time(&mut op, 5), vec![wm(1)]);
        assert_eq!(rows(&mut op, &[Some(2), Some(1), Some(0), None]), vec![]);
        assert_eq!(set_time(&mut op, 10), vec![wm(2)]);
        assert_eq!(rows(&mut op, &[Some(8)]), vec![wm(8)], "8 − 2 > 5: at once");
        assert_eq!(rows(&mut op, &[Some(7), None, Some(10)]), vec![], "10 − 8 = 2");
        assert_eq!(set_time(&mut op, 15), vec![wm(10)]);
        let mut out = Vec::new();
        op.finish(&mut out);
        assert_eq!(out, vec![Watermark(END_OF_TIME)]);
    }

    /// The initial-zero quirk: `rowtime − 1` with rows at 0 and 1 never emits anything.
    #[test]
    fn watermarks_up_to_zero_are_never_emitted() {
        let mut op = opened(200, 0);
        assert_eq!(rows(&mut op, &[Some(-1), Some(0)]), vec![]);
        assert_eq!(set_time(&mut op, 1000), vec![]);
        assert_eq!((op.current_watermark(), op.last_watermark()), (EventTime(0), EventTime(0)));
        assert_eq!(rows(&mut op, &[Some(i64::MIN)]), vec![]);
        assert_eq!(rows(&mut op, &[Some(1)]), vec![]);
        assert_eq!(set_time(&mut op, 1200), vec![wm(1)]);
    }

    /// #testWatermarkAssignerWithIdleSource (interval 50, timeout 1000; rows give `ts − 1`). The
    /// indexed copies of that test predate FLINK-34252 (activity stamped when a row reactivated,
    /// else at open) and expect IDLE at 1001. Since FLINK-34252 the rows are stamped by the first
    /// timer that sees them, at 51, so IDLE comes at the first timer at or after 51 + 1000.
    #[test]
    fn idleness_and_reactivation_on_the_first_row() {
        let mut op = opened(50, 1000);
        assert_eq!(op.timer_interval_ms(), Some(50));
        assert_eq!(rows(&mut op, &[Some(0), Some(1)]), vec![]);
        let mut out = Vec::new();
        op.process_watermark(EventTime(2), &mut out);
        assert!(out.is_empty());
        assert_eq!(rows(&mut op, &[Some(2), Some(3)]), vec![]);
        assert_eq!(set_time(&mut op, 51), vec![wm(3)]);
        assert_eq!(set_time(&mut op, 1001), vec![], "51 + 1000 > 1001");
        assert_eq!(op.next_timer_at(), Some(T0 + 1051));
        assert_eq!(set_time(&mut op, 1051), vec![Status(Idle)], "51 + 1000 ≤ 1051");
        assert!(op.is_idle());
        assert_eq!(rows(&mut op, &[Some(3)]), vec![Status(Active)], "the first row reactivates");
        assert_eq!(rows(&mut op, &[Some(4), Some(5), Some(6), Some(7)]), vec![]);
        assert_eq!(set_time(&mut op, 1110), vec![wm(7)]);

        let mut op = opened(50, 100);
        assert_eq!(op.timer_interval_ms(), Some(10), "50 × 5 ≥ 100: a fifth of 50");
        rows(&mut op, &[Some(5)]);
        assert_eq!(set_time(&mut op, 10), vec![], "the first timer takes the activity");
        assert_eq!(set_time(&mut op, 100), vec![wm(5)]);
        assert_eq!(set_time(&mut op, 109), vec![], "10 + 100 > 109");
        assert_eq!(set_time(&mut op, 110), vec![Status(Idle)]);
        assert_eq!(set_time(&mut op, 500), vec![], "IDLE once");
    }

    #[test]
    fn statuses_are_forwarded_and_become_the_operators() {
        let mut op = opened(200, 0);
        let mut out = Vec::new();
        op.process_status(Idle, &mut out);
        op.process_status(Idle, &mut out);
        assert_eq!(out, vec![Status(Idle), Status(Idle)], "no dedup here: the output does it");
        assert!(op.is_idle());
        assert_eq!(rows(&mut op, &[Some(500)]), vec![wm(500)], "no ACTIVE without idleness enabled");
        let mut op = opened(200, 1000);
        let mut out = Vec::new();
        op.process_status(Idle, &mut out);
        op.process_watermark(END_OF_TIME, &mut out);
        assert_eq!(out, vec![Status(Idle), Status(Active), Watermark(END_OF_TIME)]);
    }

    #[test]
    fn upstream_max_is_forwarded_once_then_re_emitted_by_the_periodic_path() {
        let mut op = opened(200, 0);
        rows(&mut op, &[Some(10)]);
        assert_eq!(set_time(&mut op, 200), vec![wm(10)]);
        let mut out = Vec::new();
        op.process_watermark(END_OF_TIME, &mut out);
        op.process_watermark(END_OF_TIME, &mut out);
        op.finish(&mut out);
        assert_eq!(out, vec![Watermark(END_OF_TIME)]);
        assert_eq!(set_time(&mut op, 400), vec![Watermark(END_OF_TIME)], "lastWatermark was still 10");
        assert_eq!(set_time(&mut op, 600), vec![]);
    }

    #[test]
    fn the_timer_interval_rule() {
        assert_eq!(timer_interval(0, 0), None);
        assert_eq!(timer_interval(-1, -1), None);
        assert_eq!(timer_interval(200, 0), Some(200));
        assert_eq!(timer_interval(0, 1000), Some(1000));
        assert_eq!(timer_interval(2000, 11_000), Some(2000), "2000 × 5 < 11000");
        assert_eq!(timer_interval(2000, 10_000), Some(400), "not strictly smaller: a fifth");
        assert_eq!(timer_interval(200, 300), Some(40));
        assert_eq!(timer_interval(3, 4), Some(1), "at least 1");
        assert_eq!(timer_interval(1 << 62, i64::MAX), Some(1 << 62), "5 × 2^62 wraps to 2^62, as in Java");
        let op = WatermarkAssignerOperator::new(0, 0);
        assert_eq!(op.next_timer_at(), None);
        let mut op = WatermarkAssignerOperator::new(200, 0);
        assert_eq!(op.next_timer_at(), None, "not opened");
        op.open(T0);
        assert_eq!(op.next_timer_at(), Some(T0 + 200));
    }

    #[test]
    fn interval_zero_emits_every_increase_at_once() {
        let mut op = opened(0, 0);
        assert_eq!(op.next_timer_at(), None);
        assert_eq!(rows(&mut op, &[Some(1), Some(1), Some(3), Some(2), None, Some(4)]), vec![wm(1), wm(3), wm(4)]);
    }

    #[test]
    fn extreme_values_do_not_overflow() {
        let mut op = opened(i64::MAX, i64::MAX);
        assert_eq!(op.next_timer_at(), Some(ProcTime::MAX));
        assert_eq!(rows(&mut op, &[Some(i64::MAX)]), vec![], "MAX − 0 is not > MAX");
        op.on_timer(ProcTime::MAX, ProcTime::MAX, &mut Vec::new());
        let mut op = opened(1, 1);
        assert_eq!(rows(&mut op, &[Some(i64::MIN), Some(i64::MAX)]), vec![Watermark(END_OF_TIME)]);
        let mut out = Vec::new();
        op.finish(&mut out);
        assert!(out.is_empty(), "current is already MAX");
    }
}
