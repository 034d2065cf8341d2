//! Flink's `IntervalJoinOperator` (`KeyedStream.intervalJoin(other).between(lb, ub)`): per key,
//! both sides buffered by timestamp and joined on `l.ts + lb ≤ r.ts ≤ l.ts + ub`, with
//! per-element cleanup timers on event time (reference §9, vectors V-IJ-*).
//!
//! The operator is pure: it sees one watermark, the combination of its two inputs, which the
//! caller derives with [`IndexedCombinedWatermarkStatus`](crate::engine::combined_watermark) and
//! passes to [`IntervalJoinOperator::advance_watermark`] when it rises.
//!
//! Rules, with `W` the current watermark (as Flink 2.3.0's `IntervalJoinOperator`):
//! * bounds: `lb ≤ ub` is checked on the raw values, *before* exclusive bounds are normalised
//!   (`lb + 1`, `ub − 1`); `(0, 1)` exclusive on both ends is accepted and joins nothing;
//! * an element with timestamp `Long.MIN_VALUE` fails the job (`FlinkException`);
//! * an element is late iff `ts < W` (strict): it is neither buffered nor joined, and goes to the
//!   side's late output tag if one is set (FLINK-24907, 1.15), otherwise it is silently dropped.
//!   Flink 2.3.0 has **no `numLateRecordsDropped` counter** on this operator (unlike
//!   `WindowOperator`); [`IntervalJoinOperator::late`] is the simulator's own count;
//! * otherwise the element is buffered under its timestamp, then every element of the other
//!   side's buffer of the same key in range is joined; a pair's timestamp is `max(l.ts, r.ts)`;
//! * cleanup timer: left `ts + ub` if `ub > 0`, else `ts`; right `ts − lb` if `lb < 0`, else
//!   `ts`. A timer at `t` removes the element's whole timestamp bucket once `W ≥ t`; one
//!   registered at or below `W` fires on the next watermark.
//!
//! Order: Flink iterates the other side's `MapState`, whose order depends on the state backend;
//! here buckets are visited in ascending timestamp order and a bucket's elements in arrival order.
//!
//! Overflow: Flink adds and negates bounds with Java's wrapping `long` arithmetic. Near the ends
//! of the range that silently breaks it: `ts + ub` past `Long.MAX_VALUE` wraps to a negative
//! cleanup time (the element is dropped from state at the next watermark), the match range wraps
//! (pairs are missed), `lb = Long.MIN_VALUE` negates to itself (right elements are cleaned up at
//! their own timestamp), and an exclusive bound of `Long.MAX_VALUE`/`MIN_VALUE` wraps to the other
//! end. Here the arithmetic is exact and clamped to the `long` range: normalisation saturates,
//! match ranges are the true ones, a cleanup time past the end is `Long.MAX_VALUE` (kept until
//! the end-of-input watermark), and each timer remembers its bucket instead of recomputing it.

use crate::engine::keys::KeyId;
use crate::engine::time::{EventTime, NO_WATERMARK};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// `between(lower, upper)` plus `lowerBoundExclusive()` / `upperBoundExclusive()`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub struct JoinBounds {
    pub lower_ms: i64,
    pub upper_ms: i64,
    #[serde(default)]
    pub lower_exclusive: bool,
    #[serde(default)]
    pub upper_exclusive: bool,
}

impl JoinBounds {
    /// Flink's only check (the operator's constructor), on the bounds as given.
    pub fn validate(&self) -> Result<(), (&'static str, String)> {
        if self.lower_ms > self.upper_ms {
            return Err(("lower_ms", "lowerBound <= upperBound must be fulfilled".into()));
        }
        Ok(())
    }

    /// The inclusive bounds the operator works with; saturating where Flink's `± 1` wraps.
    pub fn normalized(&self) -> (i64, i64) {
        let lower = if self.lower_exclusive { self.lower_ms.saturating_add(1) } else { self.lower_ms };
        let upper = if self.upper_exclusive { self.upper_ms.saturating_sub(1) } else { self.upper_ms };
        (lower, upper)
    }

    /// Valid bounds can still join nothing once normalised (`(0, 1)` exclusive on both ends).
    pub fn joins_nothing(&self) -> bool {
        let (lower, upper) = self.normalized();
        lower > upper
    }
}

/// Which input an element arrived on: `processElement1` (left) or `processElement2` (right).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Left,
    Right,
}

impl Side {
    fn index(self) -> usize {
        match self {
            Side::Left => 0,
            Side::Right => 1,
        }
    }
}

/// One joined pair, as the `ProcessJoinFunction` sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JoinedPair {
    pub key: KeyId,
    pub left_ts: EventTime,
    pub left_value: i64,
    pub right_ts: EventTime,
    pub right_value: i64,
    /// The output record's timestamp: `max(left_ts, right_ts)`.
    pub ts: EventTime,
}

/// What happened to an element.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JoinOutcome {
    /// Buffered (and joined with whatever matched).
    Accepted,
    /// `ts < W`: the side's late output tag, or silently dropped.
    Late,
    /// `Long.MIN_VALUE`: Flink throws `FlinkException` and the job fails.
    NoTimestamp,
}

/// One side's buffer: Flink's `MapState<Long, List<…>>` per key.
#[derive(Clone, Debug, Default)]
struct SideBuffer {
    buckets: BTreeMap<(KeyId, EventTime), Vec<i64>>,
    /// Buckets per key, so that the number of keys holding state is known without a scan.
    keys: BTreeMap<KeyId, u32>,
    records: u64,
    late: u64,
}

impl SideBuffer {
    fn add(&mut self, key: KeyId, ts: EventTime, value: i64) {
        let bucket = self.buckets.entry((key, ts)).or_default();
        if bucket.is_empty() {
            *self.keys.entry(key).or_default() += 1;
        }
        bucket.push(value);
        self.records += 1;
    }

    fn remove(&mut self, key: KeyId, ts: EventTime) {
        let Some(bucket) = self.buckets.remove(&(key, ts)) else { return };
        self.records -= bucket.len() as u64;
        if let Some(n) = self.keys.get_mut(&key) {
            *n -= 1;
            if *n == 0 {
                self.keys.remove(&key);
            }
        }
    }
}

/// A cleanup timer: (time, key, side, bucket). Registration is idempotent, as Flink's per
/// (key, namespace, timestamp); the bucket is stored rather than derived back from the time.
type CleanupTimer = (EventTime, KeyId, Side, EventTime);

#[derive(Clone, Debug)]
pub struct IntervalJoinOperator {
    lower_ms: i64,
    upper_ms: i64,
    watermark: EventTime,
    buffers: [SideBuffer; 2],
    timers: BTreeSet<CleanupTimer>,
}

impl IntervalJoinOperator {
    /// The caller validates `bounds` first ([`JoinBounds::validate`]).
    pub fn new(bounds: JoinBounds) -> Self {
        let (lower_ms, upper_ms) = bounds.normalized();
        IntervalJoinOperator { lower_ms, upper_ms, watermark: NO_WATERMARK, buffers: Default::default(), timers: BTreeSet::new() }
    }

    /// The operator as a restore from a checkpoint of it builds it: buffers and cleanup timers
    /// come back, the watermark starts at `Long.MIN_VALUE` again (reference §12).
    pub fn restored(&self) -> Self {
        IntervalJoinOperator { watermark: NO_WATERMARK, ..self.clone() }
    }

    /// The normalised, inclusive `(lower, upper)` bounds.
    pub fn bounds(&self) -> (i64, i64) {
        (self.lower_ms, self.upper_ms)
    }

    pub fn current_watermark(&self) -> EventTime {
        self.watermark
    }

    /// Records held in `side`'s buffer.
    pub fn buffered(&self, side: Side) -> u64 {
        self.buffers[side.index()].records
    }

    /// Keys with at least one record in `side`'s buffer.
    pub fn buffered_keys(&self, side: Side) -> usize {
        self.buffers[side.index()].keys.len()
    }

    /// The timestamps of `key`'s buckets in `side`'s buffer, ascending.
    pub fn bucket_timestamps(&self, side: Side, key: KeyId) -> impl Iterator<Item = EventTime> + '_ {
        self.buffers[side.index()].buckets.range((key, EventTime::MIN)..=(key, EventTime::MAX)).map(|(&(_, ts), _)| ts)
    }

    /// Cleanup timers registered and not yet fired.
    pub fn pending_timers(&self) -> usize {
        self.timers.len()
    }

    /// Late elements seen on `side` (the simulator's count: Flink 2.3.0 keeps none).
    pub fn late(&self, side: Side) -> u64 {
        self.buffers[side.index()].late
    }

    /// `processElement1` (left) / `processElement2` (right). Joined pairs are appended to `out`.
    pub fn process_element(&mut self, side: Side, key: KeyId, ts: EventTime, value: i64, out: &mut Vec<JoinedPair>) -> JoinOutcome {
        if ts == NO_WATERMARK {
            return JoinOutcome::NoTimestamp;
        }
        if ts < self.watermark {
            self.buffers[side.index()].late += 1;
            return JoinOutcome::Late;
        }
        self.buffers[side.index()].add(key, ts, value);
        let (rel_lower, rel_upper) = self.relative_bounds(side);
        self.join(side, key, ts, value, (rel_lower, rel_upper), out);
        let cleanup = if rel_upper > 0 { clamp(i128::from(ts.ms()) + rel_upper) } else { ts };
        self.timers.insert((cleanup, key, side, ts));
        JoinOutcome::Accepted
    }

    /// The timer service's `advanceWatermark`: `W` is set first, then every cleanup timer
    /// `≤ W` fires in time order and removes its bucket.
    pub fn advance_watermark(&mut self, w: EventTime) {
        self.watermark = w;
        while let Some(&(time, key, side, bucket)) = self.timers.first() {
            if time > w {
                break;
            }
            self.timers.pop_first();
            self.buffers[side.index()].remove(key, bucket);
        }
    }

    /// The other side's range relative to an element of `side`: left `[lb, ub]`, right
    /// `[−ub, −lb]`, exact (Java negates with wrap-around).
    fn relative_bounds(&self, side: Side) -> (i128, i128) {
        let (lower, upper) = (i128::from(self.lower_ms), i128::from(self.upper_ms));
        match side {
            Side::Left => (lower, upper),
            Side::Right => (-upper, -lower),
        }
    }

    fn join(&self, side: Side, key: KeyId, ts: EventTime, value: i64, rel: (i128, i128), out: &mut Vec<JoinedPair>) {
        let (lo, hi) = (i128::from(ts.ms()) + rel.0, i128::from(ts.ms()) + rel.1);
        if lo > hi || hi < i128::from(i64::MIN) || lo > i128::from(i64::MAX) {
            return;
        }
        let other = match side {
            Side::Left => &self.buffers[1],
            Side::Right => &self.buffers[0],
        };
        for (&(_, other_ts), values) in other.buckets.range((key, clamp(lo))..=(key, clamp(hi))) {
            for &other_value in values {
                let ((left_ts, left_value), (right_ts, right_value)) = match side {
                    Side::Left => ((ts, value), (other_ts, other_value)),
                    Side::Right => ((other_ts, other_value), (ts, value)),
                };
                out.push(JoinedPair { key, left_ts, left_value, right_ts, right_value, ts: left_ts.max(right_ts) });
            }
        }
    }
}

/// An exact timestamp clamped to the `long` range.
fn clamp(t: i128) -> EventTime {
    EventTime(i64::try_from(t).unwrap_or(if t < 0 { i64::MIN } else { i64::MAX }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(lower_ms: i64, upper_ms: i64) -> IntervalJoinOperator {
        IntervalJoinOperator::new(JoinBounds { lower_ms, upper_ms, lower_exclusive: false, upper_exclusive: false })
    }

    #[test]
    fn validation_is_on_raw_bounds() {
        let b = |lower_ms, upper_ms, lower_exclusive, upper_exclusive| JoinBounds { lower_ms, upper_ms, lower_exclusive, upper_exclusive };
        assert_eq!(b(1, 0, false, false).validate().unwrap_err().0, "lower_ms");
        assert!(b(0, 1, true, true).validate().is_ok(), "Flink checks before normalising");
        assert!(b(0, 1, true, true).joins_nothing());
        assert!(!b(0, 2, true, true).joins_nothing());
        assert_eq!(b(i64::MAX, i64::MAX, true, false).normalized(), (i64::MAX, i64::MAX), "saturates where Java wraps to MIN");
        assert_eq!(b(i64::MIN, i64::MIN, false, true).normalized(), (i64::MIN, i64::MIN));
        let json: JoinBounds = serde_json::from_str(r#"{"lower_ms": -5, "upper_ms": 5, "upper_exclusive": true}"#).unwrap();
        assert_eq!(json, b(-5, 5, false, true));
        assert!(serde_json::from_str::<JoinBounds>(r#"{"lower_ms": 0, "upper_ms": 0, "lowerExclusive": true}"#).is_err());
    }

    #[test]
    fn late_is_strict_and_min_timestamp_fails() {
        let mut j = op(0, 0);
        let mut out = Vec::new();
        j.advance_watermark(EventTime(10));
        assert_eq!(j.process_element(Side::Left, 0, EventTime(9), 1, &mut out), JoinOutcome::Late);
        assert_eq!(j.process_element(Side::Left, 0, EventTime(10), 1, &mut out), JoinOutcome::Accepted);
        assert_eq!(j.process_element(Side::Right, 0, NO_WATERMARK, 1, &mut out), JoinOutcome::NoTimestamp);
        assert_eq!((j.late(Side::Left), j.late(Side::Right), j.buffered(Side::Left), j.buffered(Side::Right)), (1, 0, 1, 0));
        assert_eq!(j.process_element(Side::Right, 0, EventTime(10), 2, &mut out), JoinOutcome::Accepted);
        let pair = JoinedPair { key: 0, left_ts: EventTime(10), left_value: 1, right_ts: EventTime(10), right_value: 2, ts: EventTime(10) };
        assert_eq!(out, vec![pair]);
    }

    #[test]
    fn timer_at_the_watermark_fires_on_the_next_one() {
        let mut j = op(0, 0);
        j.advance_watermark(EventTime(10));
        j.process_element(Side::Left, 3, EventTime(10), 1, &mut Vec::new());
        assert_eq!(j.pending_timers(), 1);
        assert_eq!(j.buffered_keys(Side::Left), 1);
        j.advance_watermark(EventTime(10));
        assert_eq!((j.pending_timers(), j.buffered(Side::Left), j.buffered_keys(Side::Left)), (0, 0, 0));
    }

    #[test]
    fn keys_do_not_join_and_buckets_hold_several_records() {
        let mut j = op(-1, 1);
        let mut out = Vec::new();
        j.process_element(Side::Left, 1, EventTime(5), 10, &mut out);
        j.process_element(Side::Left, 1, EventTime(5), 11, &mut out);
        j.process_element(Side::Left, 2, EventTime(5), 12, &mut out);
        assert_eq!((j.buffered(Side::Left), j.buffered_keys(Side::Left), j.pending_timers()), (3, 2, 2));
        j.process_element(Side::Right, 1, EventTime(6), 20, &mut out);
        let values: Vec<(i64, i64, i64)> = out.iter().map(|p| (p.left_value, p.right_value, p.ts.ms())).collect();
        assert_eq!(values, vec![(10, 20, 6), (11, 20, 6)]);
        j.advance_watermark(EventTime(6));
        assert_eq!((j.buffered(Side::Left), j.buffered(Side::Right), j.pending_timers()), (0, 1, 1));
        assert_eq!(j.bucket_timestamps(Side::Right, 1).collect::<Vec<_>>(), vec![EventTime(6)]);
    }

    #[test]
    fn extreme_timestamps_and_bounds_do_not_overflow() {
        let mut j = op(i64::MIN, i64::MAX);
        let mut out = Vec::new();
        for (side, ts) in [(Side::Left, i64::MAX), (Side::Right, i64::MIN + 1), (Side::Left, i64::MIN + 1), (Side::Right, i64::MAX)] {
            assert_eq!(j.process_element(side, 0, EventTime(ts), 0, &mut out), JoinOutcome::Accepted);
        }
        // Left MIN+1 matches right MIN+1 (Java's range wraps to [1, 0] and misses it), left MAX right MAX.
        let got: Vec<(i64, i64)> = out.iter().map(|p| (p.left_ts.ms(), p.right_ts.ms())).collect();
        assert_eq!(got, vec![(i64::MIN + 1, i64::MIN + 1), (i64::MAX, i64::MAX)]);
        // Cleanup times: left MAX+MAX → MAX, right MIN+1−MIN = 1, left MIN+1+MAX = 0, right MAX → MAX.
        j.advance_watermark(EventTime(i64::MAX - 1));
        assert_eq!((j.buffered(Side::Left), j.buffered(Side::Right), j.pending_timers()), (1, 1, 2), "saturated at MAX");
        j.advance_watermark(EventTime::MAX);
        assert_eq!((j.buffered(Side::Left), j.buffered(Side::Right), j.pending_timers()), (0, 0, 0));
    }
}
