//! What an interval join emits: the joined pairs, in emission order, the newest kept (the
//! count stays exact) — the join's counterpart of the window sink.

use super::interval_join::JoinedPair;
use crate::engine::keys::KeyId;
use crate::engine::time::{EventTime, ProcTime};
use serde::Serialize;
use std::collections::VecDeque;

/// One joined pair, where and when it was emitted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct JoinResult {
    pub subtask: u32,
    pub key: KeyId,
    pub left_ts: EventTime,
    pub left_value: i64,
    pub right_ts: EventTime,
    pub right_value: i64,
    /// The output record's timestamp, `max(left_ts, right_ts)`.
    pub ts: EventTime,
    pub time: ProcTime,
}

#[derive(Clone, Debug, Default)]
pub struct JoinResults {
    kept: VecDeque<JoinResult>,
    retained: Option<usize>,
    total: u64,
}

impl JoinResults {
    pub fn new(retained: Option<usize>) -> Self {
        JoinResults { kept: VecDeque::new(), retained, total: 0 }
    }

    pub fn push(&mut self, subtask: u32, p: JoinedPair, time: ProcTime) {
        self.total += 1;
        if self.retained == Some(0) {
            return;
        }
        if self.retained.is_some_and(|n| self.kept.len() >= n) {
            self.kept.pop_front();
        }
        let JoinedPair { key, left_ts, left_value, right_ts, right_value, ts } = p;
        self.kept.push_back(JoinResult { subtask, key, left_ts, left_value, right_ts, right_value, ts, time });
    }

    /// Pairs emitted so far (exact).
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The kept pairs, oldest first, with their index in emission order.
    pub fn kept(&self) -> impl Iterator<Item = (u64, &JoinResult)> {
        self.since(0)
    }

    /// The kept pairs with index `from` or later (those no longer kept are skipped).
    pub fn since(&self, from: u64) -> impl Iterator<Item = (u64, &JoinResult)> {
        let first = self.total - self.kept.len() as u64;
        let skip = from.saturating_sub(first).min(self.kept.len() as u64) as usize;
        self.kept.iter().enumerate().skip(skip).map(move |(i, r)| (first + i as u64, r))
    }
}
