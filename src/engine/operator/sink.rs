//! The sink at the end of the job: an *append* sink sees every firing (early and late
//! re-firings show up as duplicates), an *upsert* sink keeps the latest result per (key, window)
//! — with a purging trigger that is the latest firing's contents only, as a real upsert sink
//! keyed by the window would hold.

use super::aggregate::Agg;
use super::trigger::FiringKind;
use crate::engine::keys::KeyId;
use crate::engine::time::{EventTime, ProcTime};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, VecDeque};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum SinkMode {
    #[default]
    Append,
    Upsert,
}

/// One window result as it reaches the sink.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WindowResult {
    pub subtask: u32,
    pub key: KeyId,
    pub start: EventTime,
    pub end: EventTime,
    pub agg: Agg,
    /// The window operator's watermark when it fired.
    pub watermark: EventTime,
    /// The window's firings before this one.
    pub firing: u32,
    pub kind: FiringKind,
    pub time: ProcTime,
}

#[derive(Clone, Debug, Default)]
pub struct Sink {
    pub mode: SinkMode,
    /// The most recent results in emission order (what an append sink writes); all of them
    /// unless `window_results_retained` bounds the memory of a long run.
    results: VecDeque<WindowResult>,
    /// Results dropped from the front: the emission index of `results[0]`.
    evicted: usize,
    retained: Option<usize>,
    duplicates: usize,
    duplicate_rows: usize,
    /// Latest result per (key, start, end) (what an upsert sink holds); kept in upsert mode.
    pub table: BTreeMap<(KeyId, EventTime, EventTime), WindowResult>,
}

impl Sink {
    pub fn new(mode: SinkMode, retained: Option<usize>) -> Self {
        Sink { mode, retained, ..Default::default() }
    }

    pub fn write(&mut self, r: WindowResult) {
        if self.mode == SinkMode::Upsert {
            self.table.insert((r.key, r.start, r.end), r);
        }
        if r.firing > 0 {
            self.duplicates += 1;
            if self.mode == SinkMode::Append {
                self.duplicate_rows += 1;
            }
        }
        self.results.push_back(r);
        if self.retained.is_some_and(|n| self.results.len() > n) {
            self.results.pop_front();
            self.evicted += 1;
        }
    }

    /// Results written so far, retained or not (`windows_fired`).
    pub fn total(&self) -> usize {
        self.evicted + self.results.len()
    }

    /// Results no longer retained (the oldest ones).
    pub fn evicted(&self) -> usize {
        self.evicted
    }

    /// The retained results, oldest first.
    pub fn results(&self) -> impl DoubleEndedIterator<Item = &WindowResult> + ExactSizeIterator + '_ {
        self.results.iter()
    }

    /// Whether results of a window ending at `end` may be among those no longer retained: some
    /// were dropped, and the oldest kept is of a window that ends no earlier (windows fire
    /// roughly in the order they end).
    pub fn may_have_dropped(&self, end: EventTime) -> bool {
        self.evicted > 0 && self.results.front().is_none_or(|r| r.end >= end)
    }

    /// The retained results of window `[start, end)`, over every key and subtask, in emission
    /// order (what the UI says about a window band picked on the timeline, or one key's window).
    pub fn results_of(&self, start: EventTime, end: EventTime) -> impl Iterator<Item = &WindowResult> + '_ {
        self.results.iter().filter(move |r| r.start == start && r.end == end)
    }

    /// Retained results with emission index `>= from`, with their index.
    pub fn since(&self, from: usize) -> impl Iterator<Item = (usize, &WindowResult)> + '_ {
        let skip = from.saturating_sub(self.evicted);
        self.results.iter().enumerate().skip(skip).map(move |(i, r)| (self.evicted + i, r))
    }

    pub fn last(&self) -> Option<&WindowResult> {
        self.results.back()
    }

    /// Rows an append sink wrote more than once for the same window (early or late
    /// re-firings), over the whole run.
    pub fn duplicates(&self) -> usize {
        self.duplicates
    }

    /// Re-firings written while the sink appended: rows that duplicate a window's earlier row.
    pub fn duplicate_rows(&self) -> usize {
        self.duplicate_rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(i: i64, firing: u32) -> WindowResult {
        WindowResult {
            subtask: 0,
            key: 0,
            start: EventTime(i),
            end: EventTime(i + 1),
            agg: Agg::ZERO,
            watermark: EventTime(i),
            firing,
            kind: FiringKind::OnTime,
            time: ProcTime(i),
        }
    }

    #[test]
    fn retention_keeps_the_newest_and_counts_everything() {
        let mut s = Sink::new(SinkMode::Append, Some(2));
        for i in 0..5 {
            s.write(result(i, (i % 2).unsigned_abs() as u32));
        }
        assert_eq!((s.total(), s.evicted(), s.duplicates()), (5, 3, 2));
        assert_eq!(s.results().map(|r| r.start.ms()).collect::<Vec<_>>(), vec![3, 4]);
        assert_eq!(s.since(0).map(|(i, _)| i).collect::<Vec<_>>(), vec![3, 4], "evicted ones are skipped");
        assert_eq!(s.since(4).map(|(i, r)| (i, r.start.ms())).collect::<Vec<_>>(), vec![(4, 4)]);
        assert_eq!(s.since(9).count(), 0);
        let mut all = Sink::new(SinkMode::Append, None);
        (0..5).for_each(|i| all.write(result(i, 0)));
        assert_eq!((all.total(), all.results().len()), (5, 5));
        // Windows ending by the oldest kept one's end may have had results dropped; later ones,
        // and any window while nothing was dropped, did not.
        assert_eq!((1..=6).map(|end| s.may_have_dropped(EventTime(end))).collect::<Vec<_>>(), [true, true, true, true, false, false]);
        assert!(!all.may_have_dropped(EventTime(1)));
    }
}
