//! The job's late records: the newest ones kept for the views, a count per partition, and how
//! late they were for the diagnosis. Their *disorder* (lateness plus the bound then in force,
//! + 1) needs the bound's history, so the strategy commands tell this module every new bound.

use super::diagnosis::histogram::Histogram;
use super::keys::KeyId;
use super::time::{EventTime, ProcTime};
use serde::Serialize;
use std::collections::VecDeque;

/// A record that arrived after the watermark had passed all its windows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LateRecord {
    pub subtask: u32,
    pub partition: u32,
    pub offset: u64,
    pub ts: EventTime,
    pub key: KeyId,
    pub value: i64,
    /// The window operator's watermark that made it late.
    pub watermark: EventTime,
    pub side_output: bool,
    pub time: ProcTime,
}

#[derive(Clone, Debug)]
pub struct LateRecords {
    /// The newest `retained` late records.
    records: VecDeque<LateRecord>,
    retained: usize,
    /// Late records go to the side output (else they are dropped).
    pub side_output: bool,
    /// Per partition: the count and the last one's processing time.
    pub by_partition: Vec<(u64, ProcTime)>,
    /// By how much each was late: the operator's watermark minus its timestamp.
    pub lateness: Histogram,
    /// Each one's lateness plus the job's bound then in force, + 1: how far it was behind the
    /// newest timestamps the watermark came from, the bound that would have kept it on time.
    /// Unlike lateness it does not change with the bound, so the advisor can say what a new
    /// bound leaves late.
    pub disorder: Histogram,
    /// The job's bound (`job_bound_ms`), kept current by the strategy commands.
    bound_ms: i64,
    /// After a raised bound: the bound before it and the highest watermark then. The watermark
    /// never goes back, so until it passes that value it is the old bound's, and a record late
    /// behind it is measured with the old one.
    raised_from: Option<(i64, EventTime)>,
}

impl LateRecords {
    pub fn new(retained: usize, side_output: bool, bound_ms: i64) -> Self {
        LateRecords {
            records: VecDeque::new(),
            retained,
            side_output,
            by_partition: Vec::new(),
            lateness: Histogram::default(),
            disorder: Histogram::default(),
            bound_ms,
            raised_from: None,
        }
    }

    /// The same after a restart: the watermarks start again from `Long.MIN_VALUE` under the
    /// bound in force, so no earlier bound holds any more. (A SQL window aggregation restores
    /// its checkpointed watermark, §10.2, which may be an old bound's: records late behind it
    /// are measured with the new one, a little more out of order than they were.)
    pub fn restarted(self) -> Self {
        LateRecords { raised_from: None, ..self }
    }

    pub fn iter(&self) -> std::collections::vec_deque::Iter<'_, LateRecord> {
        self.records.iter()
    }

    pub fn len(&self) -> usize {
        self.records.len()
    }

    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    pub fn bound_ms(&self) -> i64 {
        self.bound_ms
    }

    /// A new job bound (a strategy command). `lowest` and `held` are the lowest and highest
    /// watermark the windows will have seen under the old bound (`held` counts the ones already
    /// sent and still in channels). A raise keeps the old bound until every window passes
    /// `held`; a raise within an earlier raise's freeze keeps that one's bound and watermark;
    /// a bound back at or below it ends it.
    pub fn set_bound(&mut self, bound_ms: i64, lowest: EventTime, held: EventTime) {
        let frozen = self.raised_from.filter(|&(_, h)| lowest <= h);
        self.raised_from = match frozen {
            Some((old, h)) if bound_ms > old => Some((old, h.max(held))),
            Some(_) => None,
            None => (bound_ms > self.bound_ms).then_some((self.bound_ms, held)),
        };
        self.bound_ms = bound_ms;
    }

    /// Counts one late record and keeps it if the buffer allows.
    pub fn add(&mut self, late: LateRecord) {
        // Late behind Long.MAX_VALUE says nothing about how late data comes.
        if late.watermark != EventTime::MAX {
            let lateness = late.watermark.ms().saturating_sub(late.ts.ms());
            self.lateness.add(lateness);
            let bound = match self.raised_from {
                Some((old, held)) if late.watermark <= held => old,
                _ => self.bound_ms,
            };
            self.disorder.add(lateness.saturating_add(bound).saturating_add(1));
        }
        let p = late.partition as usize;
        if self.by_partition.len() <= p {
            self.by_partition.resize(p + 1, (0, late.time));
        }
        self.by_partition[p] = (self.by_partition[p].0 + 1, late.time);
        if self.retained > 0 {
            if self.records.len() == self.retained {
                self.records.pop_front();
            }
            self.records.push_back(late);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn late(ts_ms: i64, watermark_ms: i64) -> LateRecord {
        let (ts, watermark) = (EventTime(ts_ms), EventTime(watermark_ms));
        LateRecord { subtask: 0, partition: 1, offset: 0, ts, key: 0, value: 0, watermark, side_output: false, time: ProcTime(0) }
    }

    /// The disorder of the last record added (each test record is more out of order than the
    /// one before, so it is the histogram's maximum).
    fn add(l: &mut LateRecords, ts_ms: i64, watermark_ms: i64) -> i64 {
        l.add(late(ts_ms, watermark_ms));
        l.disorder.max()
    }

    #[test]
    fn a_raised_bound_counts_only_once_the_watermark_passes_what_the_old_one_held() {
        let mut l = LateRecords::new(10, false, 2_000);
        l.set_bound(5_000, EventTime(9_000), EventTime(10_000));
        assert_eq!(add(&mut l, 9_000, 10_000), 1_000 + 2_000 + 1, "at the held watermark: the old bound");
        assert_eq!(add(&mut l, 8_000, 12_000), 4_000 + 5_000 + 1, "past it: the new one");
    }

    #[test]
    fn a_raise_within_a_raise_keeps_the_first_bound_and_a_lower_one_ends_it() {
        let mut l = LateRecords::new(10, false, 2_000);
        l.set_bound(5_000, EventTime(9_000), EventTime(10_000));
        l.set_bound(8_000, EventTime(9_500), EventTime(12_000));
        assert_eq!(add(&mut l, 10_000, 12_000), 2_000 + 2_000 + 1, "still the first raise's bound, up to the later watermark");
        l.set_bound(1_000, EventTime(9_500), EventTime(12_000));
        assert_eq!(add(&mut l, 9_000, 12_000), 3_000 + 1_000 + 1, "back below the old bound: the freeze ends");
    }

    #[test]
    fn a_restart_forgets_the_old_bound() {
        let mut l = LateRecords::new(10, false, 2_000);
        l.set_bound(5_000, EventTime(9_000), EventTime(10_000));
        let mut l = l.restarted();
        assert_eq!(add(&mut l, 9_000, 10_000), 1_000 + 5_000 + 1);
    }

    #[test]
    fn behind_long_max_value_is_counted_but_not_measured() {
        let mut l = LateRecords::new(1, true, 0);
        l.add(late(5, i64::MAX));
        l.add(late(6, 7));
        assert_eq!((l.lateness.total(), l.by_partition[1].0, l.len()), (1, 2, 1));
        assert_eq!(l.iter().next().map(|r| r.ts.ms()), Some(6), "the buffer keeps the newest");
    }
}
