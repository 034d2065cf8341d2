//! One memo per split, source subtask, window subtask or channel, over the engine's own row
//! of the snapshot. Views subscribe to their row's memo rather than to the whole snapshot, so a
//! frame touches a few hundred small nodes instead of making thousands of closures re-subscribe
//! to one signal (whose subscriber list is linear). A row carries the snapshot's `now` because
//! the views show times relative to it.

use crate::engine::snapshot::{ChannelView, OperatorView, Snapshot, SourceView, SplitView};
use crate::engine::time::ProcTime;
use leptos::prelude::*;
use std::ops::Deref;

/// A snapshot row and the instant it was taken.
#[derive(Clone, Debug, PartialEq)]
pub struct Row<T> {
    pub now: ProcTime,
    pub row: T,
}

/// The row's fields read as if they were the memo's own (`s.idle`, `s.watermark`), beside `now`.
impl<T> Deref for Row<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.row
    }
}

fn row<T: Clone>(s: &Snapshot, pick: impl FnOnce(&Snapshot) -> Option<&T>) -> Option<Row<T>> {
    pick(s).map(|r| Row { now: s.now, row: r.clone() })
}

pub fn split_memo(snap: RwSignal<Snapshot>, p: u32) -> Memo<Option<Row<SplitView>>> {
    Memo::new(move |_| snap.with(|s| row(s, |s| s.splits.get(p as usize))))
}

pub fn source_memo(snap: RwSignal<Snapshot>, i: u32) -> Memo<Option<Row<SourceView>>> {
    Memo::new(move |_| snap.with(|s| row(s, |s| s.sources.get(i as usize))))
}

/// Source subtask `i`'s name (`Snapshot::source_subtask_name`: `3`, or `rates·0` with two
/// sources) and whether the job has several sources.
pub fn source_name_memo(snap: RwSignal<Snapshot>, i: u32) -> Memo<(String, bool)> {
    Memo::new(move |_| snap.with(|s| (s.source_subtask_name(i), s.job.topics.len() > 1)))
}

pub fn op_memo(snap: RwSignal<Snapshot>, o: u32) -> Memo<Option<Row<OperatorView>>> {
    Memo::new(move |_| snap.with(|s| row(s, |s| s.operators.get(o as usize))))
}

pub fn channel_memo(snap: RwSignal<Snapshot>, op: Memo<u32>, c: usize) -> Memo<Option<Row<ChannelView>>> {
    Memo::new(move |_| {
        let o = op.get();
        snap.with(|s| row(s, |s| s.operators.get(o as usize).and_then(|v| v.channels.get(c))))
    })
}
