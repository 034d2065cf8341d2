//! Seeded event generators that append records to partitions at processing times: a steady
//! rate with out-of-order jitter, bursts, a heartbeat cadence (one record every N ms stamped
//! with the current processing time), a single far-future outlier, and a backlog for replays.
//!
//! Each (producer, partition) pair has its own RNG stream derived from the scenario seed, so
//! adding a producer never changes what another one produces.

use super::element::Record;
use super::keys::KeyId;
use super::rng::Rng;
use super::time::{EventTime, ProcTime};
use crate::engine::input_twin::input_twin;
use serde::Serialize;

input_twin! {
    /// What a producer emits. Times are relative to the moment the producer starts.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
    #[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
    pub enum ProducerKind reads producer_kind_in #[serde(rename = "$tag:kind", rename_all = "snake_case", deny_unknown_fields)] {
        /// `rate_per_s` records per second per partition, evenly spaced.
        Steady { rate_per_s: u64 },
        /// `count` records at once every `every_ms`.
        Burst { every_ms: i64, count: u64 },
        /// One heartbeat record every `every_ms`, the first at the start.
        Heartbeat { every_ms: i64 },
        /// One record at the start whose timestamp is `future_ms` ahead of processing time.
        Outlier { future_ms: i64 },
        /// `count` records appended at the start, timestamps spread evenly over the `span_ms`
        /// before it: history for a replay from an old offset.
        Backlog { count: u64, span_ms: i64 },
    }
}

/// Shared shape of the records a producer writes.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordShape {
    /// Key ids to draw from uniformly.
    pub keys: Vec<KeyId>,
    /// Event time lags processing time by this much.
    pub event_delay_ms: i64,
    /// Extra random lag in `0..=jitter_ms` (out-of-orderness).
    pub jitter_ms: i64,
    pub value: i64,
}

/// One producer writing to one partition.
#[derive(Clone, Debug)]
pub struct ProducerState {
    pub kind: ProducerKind,
    pub partition: u32,
    pub start: ProcTime,
    pub stop: Option<ProcTime>,
    pub silenced: bool,
    shape: RecordShape,
    emitted: u64,
    /// When the next record is due (`i64::MAX`: never), cached so that asking is cheap.
    next_due: ProcTime,
    rng: Rng,
}

impl ProducerState {
    pub fn new(kind: ProducerKind, partition: u32, start: ProcTime, stop: Option<ProcTime>, shape: RecordShape, rng: Rng) -> Self {
        let mut p = ProducerState { kind, partition, start, stop, silenced: false, shape, emitted: 0, next_due: ProcTime::MAX, rng };
        p.refresh();
        p
    }

    // Plain arithmetic is enough here: the session's checks bound every period to ten years and
    // the work budget bounds the records, so `start + n × every` stays far inside i64 (the
    // overflow-checked property and fuzz suites would catch a wrap).
    fn refresh(&mut self) {
        let n = self.emitted;
        self.next_due = match self.kind {
            ProducerKind::Steady { rate_per_s } if rate_per_s > 0 => self.start + ((n + 1) * 1000).div_ceil(rate_per_s).cast_signed(),
            ProducerKind::Steady { .. } => ProcTime::MAX,
            ProducerKind::Burst { every_ms, count } => self.start + (n / count.max(1)).cast_signed() * every_ms,
            ProducerKind::Heartbeat { every_ms } => self.start + n.cast_signed() * every_ms,
            ProducerKind::Outlier { .. } | ProducerKind::Backlog { .. } => {
                if n >= self.due_by(ProcTime::MAX) {
                    ProcTime::MAX
                } else {
                    self.start
                }
            }
        };
    }

    /// How many records are due by `t` since the start, in total.
    fn due_by(&self, t: ProcTime) -> u64 {
        if t < self.start {
            return 0;
        }
        let dt = (t - self.start).unsigned_abs();
        match self.kind {
            ProducerKind::Steady { rate_per_s } => match dt.checked_mul(rate_per_s) {
                Some(x) => x / 1000,
                None => (dt as u128 * rate_per_s as u128 / 1000) as u64,
            },
            ProducerKind::Burst { every_ms, count } => (dt / every_ms.unsigned_abs() + 1) * count,
            ProducerKind::Heartbeat { every_ms } => dt / every_ms.unsigned_abs() + 1,
            ProducerKind::Outlier { .. } => 1,
            ProducerKind::Backlog { count, .. } => count,
        }
    }

    fn active_at(&self, t: ProcTime) -> bool {
        t >= self.start && self.stop.is_none_or(|s| t < s)
    }

    /// The next processing time (≥ `now`) at which this producer appends something.
    pub fn next_time(&self, now: ProcTime) -> Option<ProcTime> {
        if self.silenced || self.next_due == ProcTime::MAX {
            return None;
        }
        let t = self.next_due.max(now);
        self.stop.is_none_or(|s| t < s).then_some(t)
    }

    /// Appends every record due at `now` through `sink`.
    pub fn produce(&mut self, now: ProcTime, mut sink: impl FnMut(Record)) {
        if now < self.next_due || self.silenced || !self.active_at(now) {
            return;
        }
        let due = self.due_by(now);
        if matches!(self.kind, ProducerKind::Steady { .. }) {
            self.produce_steady(now, due, &mut sink);
        } else {
            while self.emitted < due {
                let r = self.make(now, self.emitted);
                self.emitted += 1;
                sink(r);
            }
        }
        self.refresh();
    }

    /// `make` for the bulk case, with the per-record decisions taken once: the same draws in
    /// the same order (key, then jitter).
    #[inline]
    fn produce_steady(&mut self, now: ProcTime, due: u64, sink: &mut impl FnMut(Record)) {
        let s = &self.shape;
        let n_keys = s.keys.len() as u64;
        let base = EventTime::from_proc(now) - s.event_delay_ms;
        while self.emitted < due {
            let key = if n_keys == 1 { s.keys[0] } else { s.keys[self.rng.below(n_keys) as usize] };
            let ts = if s.jitter_ms > 0 { base - self.rng.up_to(s.jitter_ms) } else { base };
            self.emitted += 1;
            sink(Record { event_ts: ts, append_time: now, key, value: s.value, partition: self.partition, offset: 0, heartbeat: false });
        }
    }

    /// Silencing drops what would have been produced meanwhile; resuming continues from now.
    pub fn set_silenced(&mut self, silenced: bool, now: ProcTime) {
        if self.silenced && !silenced {
            self.emitted = self.emitted.max(self.due_by(now - 1));
        }
        self.silenced = silenced;
        self.refresh();
    }

    fn make(&mut self, now: ProcTime, n: u64) -> Record {
        let s = &self.shape;
        let key = if s.keys.len() == 1 { s.keys[0] } else { s.keys[self.rng.below(s.keys.len() as u64) as usize] };
        let lag = s.event_delay_ms + if s.jitter_ms > 0 { self.rng.up_to(s.jitter_ms) } else { 0 };
        let now_et = EventTime::from_proc(now);
        let mut append_time = now;
        let (ts, heartbeat) = match self.kind {
            ProducerKind::Heartbeat { .. } => (now_et, true),
            ProducerKind::Outlier { future_ms } => (now_et.saturating_add(future_ms), false),
            ProducerKind::Backlog { count, span_ms } => {
                let step = span_ms as i128 * n as i128 / count.max(1) as i128;
                let ts = EventTime::from_proc(self.start) - span_ms + step as i64;
                // History was appended back then: its Kafka timestamp is its time, so that a
                // start position by timestamp finds it (`StartOffset::TimestampMs`).
                append_time = ProcTime(ts.ms());
                (ts, false)
            }
            _ => (now_et - lag, false),
        };
        Record { event_ts: ts, append_time, key, value: s.value, partition: self.partition, offset: 0, heartbeat }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape() -> RecordShape {
        RecordShape { keys: vec![0, 1, 2], event_delay_ms: 0, jitter_ms: 0, value: 1 }
    }

    fn collect(p: &mut ProducerState, until: ProcTime) -> Vec<Record> {
        let mut out = Vec::new();
        let mut t = ProcTime(0);
        while let Some(n) = p.next_time(t) {
            if n > until {
                break;
            }
            p.produce(n, |r| out.push(r));
            t = n + 1;
        }
        out
    }

    #[test]
    fn steady_rate_is_exact() {
        let mut p = ProducerState::new(ProducerKind::Steady { rate_per_s: 2500 }, 0, ProcTime(0), None, shape(), Rng::new(1));
        let out = collect(&mut p, ProcTime(999));
        assert_eq!(out.len(), 2497); // due_by(999) = 999 * 2.5 = 2497
        assert!(out.windows(2).all(|w| w[0].append_time <= w[1].append_time));
    }

    #[test]
    fn heartbeat_stamps_processing_time() {
        let mut p = ProducerState::new(ProducerKind::Heartbeat { every_ms: 1000 }, 3, ProcTime(500), None, shape(), Rng::new(1));
        let out = collect(&mut p, ProcTime(3000));
        let ts: Vec<_> = out.iter().map(|r| r.event_ts).collect();
        assert_eq!(ts, [500, 1500, 2500].map(EventTime));
        assert!(out.iter().all(|r| r.heartbeat && r.partition == 3));
    }

    #[test]
    fn silence_skips_and_resume_continues() {
        let mut p = ProducerState::new(ProducerKind::Steady { rate_per_s: 1000 }, 0, ProcTime(0), None, shape(), Rng::new(1));
        let mut n = 0;
        for t in 0..10 {
            p.produce(ProcTime(t), |_| n += 1);
        }
        p.set_silenced(true, ProcTime(10));
        assert_eq!(p.next_time(ProcTime(10)), None);
        p.set_silenced(false, ProcTime(100));
        for t in 100..110 {
            p.produce(ProcTime(t), |_| n += 1);
        }
        assert_eq!(n, 9 + 10);
    }

    #[test]
    fn backlog_and_outlier() {
        let mut p = ProducerState::new(ProducerKind::Backlog { count: 4, span_ms: 400 }, 0, ProcTime(1000), None, shape(), Rng::new(1));
        let ts: Vec<_> = collect(&mut p, ProcTime(5000)).iter().map(|r| r.event_ts).collect();
        assert_eq!(ts, [600, 700, 800, 900].map(EventTime));
        let mut p = ProducerState::new(ProducerKind::Outlier { future_ms: 86_400_000 }, 0, ProcTime(10), None, shape(), Rng::new(1));
        let out = collect(&mut p, ProcTime(5000));
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].event_ts, EventTime(10 + 86_400_000));
    }
}
