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
    /// Dropped results per window `(end, start)`, sorted, for the windows that end no earlier
    /// than the oldest kept result: the ones a burst's cut may have split (part kept, part
    /// dropped). A few at a time, so a sorted `Vec` (a `BTreeMap` of its own cost 3 KB of wasm).
    dropped: Vec<((EventTime, EventTime), usize)>,
    /// The latest end among the windows no longer in `dropped` (older than everything kept).
    forgotten_until: Option<EventTime>,
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
            self.evict();
        }
    }

    fn evict(&mut self) {
        let Some(old) = self.results.pop_front() else { return };
        self.evicted += 1;
        // A window already forgotten stays unknown: a count started now would read as exact.
        if self.forgotten_until.is_none_or(|f| old.end > f) {
            let window = (old.end, old.start);
            match self.dropped.binary_search_by_key(&window, |e| e.0) {
                Ok(i) => self.dropped[i].1 += 1,
                Err(i) => self.dropped.insert(i, (window, 1)),
            }
        }
        let front = self.results.front().map_or(EventTime(i64::MAX), |r| r.end);
        let older = self.dropped.partition_point(|e| e.0 .0 < front);
        if older > 0 {
            self.forgotten_until = self.forgotten_until.max(Some(self.dropped[older - 1].0 .0));
            self.dropped.drain(..older);
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

    /// How many results of window `[start, end)` are no longer retained: exact for a window
    /// that ends no earlier than the oldest kept result (a burst may have split it), `None` for
    /// an older one, whose results, if it fired, may all be gone (windows fire roughly in the
    /// order they end, so only a few windows are counted at a time).
    pub fn dropped_of(&self, start: EventTime, end: EventTime) -> Option<usize> {
        match self.dropped.binary_search_by_key(&(end, start), |e| e.0) {
            Ok(i) => Some(self.dropped[i].1),
            Err(_) if self.forgotten_until.is_some_and(|f| end <= f) => None,
            Err(_) => Some(0),
        }
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
        // Windows older than the oldest kept one's are not known; later ones are, and any
        // window while nothing was dropped.
        let dropped = |s: &Sink| (0..6).map(|i| s.dropped_of(EventTime(i), EventTime(i + 1))).collect::<Vec<_>>();
        assert_eq!(dropped(&s), [None, None, None, Some(0), Some(0), Some(0)]);
        assert_eq!(dropped(&all), [Some(0); 6]);
    }

    /// A burst fires a window's keys in turn: the cut may fall inside a window, whose dropped
    /// results are counted exactly while any of its results is kept.
    #[test]
    fn a_window_split_by_the_cut_counts_its_dropped_results() {
        let mut s = Sink::new(SinkMode::Append, Some(3));
        for (window, keys) in [(0, 2), (1, 3), (2, 2)] {
            for k in 0..keys {
                s.write(WindowResult { key: k, ..result(window, 0) });
            }
        }
        // Kept: one result of window 1, both of window 2; dropped: window 0's two, window 1's two.
        assert_eq!(s.results().map(|r| r.start.ms()).collect::<Vec<_>>(), [1, 2, 2]);
        assert_eq!(s.dropped_of(EventTime(1), EventTime(2)), Some(2));
        assert_eq!(s.dropped_of(EventTime(2), EventTime(3)), Some(0));
        assert_eq!(s.dropped_of(EventTime(0), EventTime(1)), None, "older than every kept result");
        // A late re-firing of window 1 kept at the end does not bring window 0 back.
        s.write(WindowResult { key: 9, firing: 1, ..result(1, 0) });
        assert_eq!(s.dropped_of(EventTime(1), EventTime(2)), None, "once older than the oldest kept result, a window's count is forgotten");
        assert_eq!(s.dropped_of(EventTime(2), EventTime(3)), Some(0));
        // A lagging subtask fires window 0 long after (its results dropped in turn): it stays
        // unknown, not a new count of one.
        (0..2).for_each(|k| s.write(WindowResult { subtask: 1, key: k, ..result(0, 0) }));
        (0..2).for_each(|k| s.write(WindowResult { key: k, ..result(3, 0) }));
        assert_eq!(s.results().filter(|r| r.start.ms() == 0).count(), 1, "one of its results is kept");
        assert_eq!(s.dropped_of(EventTime(0), EventTime(1)), None);
    }
}
