//! Which channel holds a window subtask's watermark, or none: when every active channel and
//! every active partition behind them is at the minimum alike (`noWatermarks()`, an interval
//! of 0, before the first watermark), naming the valve's first channel pinned a job-wide cause
//! on one arbitrary partition. One rule for the explanation, the diagnosis and the snapshot.

use super::operator_input::ChannelRef;
use super::sim::Simulation;
use super::time::NO_WATERMARK;
use super::window_subtask::WindowSubtask;
use serde::Serialize;

/// A minimum that nothing sets apart: how many input channels are at it, and how many active
/// partitions behind them (a source subtask with a watermark operator after it, or without a
/// split, counts as its channel only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Tie {
    pub channels: usize,
    pub partitions: usize,
}

impl Simulation {
    /// The channel that holds window subtask `w`'s watermark, as every view names it (the
    /// explanation, the diagnosis' culprit, the snapshot's `is_min` the graph marks): the valve's
    /// lowest aligned channel, unless nothing sets it apart from the others ([`Self::tie`]);
    /// and the tie, if there is one. One pass for both: the snapshot asks every frame.
    pub(crate) fn holder(&self, w: &WindowSubtask) -> (Option<ChannelRef>, Option<Tie>) {
        let tied = self.tie(w);
        (w.input.min_channel().filter(|_| tied.is_none()), tied)
    }

    /// Whether window subtask `w`'s minimum is tied everywhere: every active input channel at
    /// it, and behind each every active partition (split watermark) at it too, with at least
    /// two of them. The valve then names the first channel and the source subtask its first
    /// partition, but all are where that one is: with `noWatermarks()` or an interval of 0 the
    /// cause is the job's, not "partition 1". A tie among some channels only is broken as the
    /// valve does (lowest index): a partition below the rest still holds its channel there.
    fn tie(&self, w: &WindowSubtask) -> Option<Tie> {
        let min = w.input.min_channel()?;
        let wm = w.input.channels().find(|(r, _)| *r == min)?.1.watermark;
        let input_idle = |i: usize| w.input.combination().is_some_and(|c| c.input_idle(i));
        let (mut channels, mut partitions, mut units) = (0, 0, 0);
        for (r, c) in w.input.channels() {
            if input_idle(r.input) || c.status.is_idle() || !c.aligned {
                continue;
            }
            if c.watermark != wm {
                return None;
            }
            channels += 1;
            let src = self.sources.get(r.source as usize)?;
            let live: Vec<usize> = (0..src.splits.len()).filter(|&i| src.split_counts(i) && !src.split_idle(i)).collect();
            // A watermark operator after the source makes the channel's watermark from all its
            // splits' records: the channel is the one unit there, as for a subtask without one.
            let chained = self.down.chained.get(r.source as usize).is_some_and(Option::is_some);
            if chained || live.is_empty() {
                units += 1;
                continue;
            }
            for i in live {
                if src.split_watermark(i).unwrap_or(NO_WATERMARK) != wm {
                    return None;
                }
                partitions += 1;
                units += 1;
            }
        }
        (units >= 2).then_some(Tie { channels, partitions })
    }
}

/// A tied minimum in words, after "… watermark is No Watermark".
pub(crate) fn tie_words(t: Tie) -> String {
    let (channels, them) = match t.channels {
        1 => ("its input channel".to_string(), "it"),
        n => (format!("all {n} of its input channels"), "them"),
    };
    let (verb, partitions) = match (t.channels, t.partitions) {
        (1, 0) => ("is", String::new()),
        (_, 0) => ("are", String::new()),
        (_, n) => ("are", format!(" and all {n} partitions behind {them}")),
    };
    format!(", as {verb} {channels}{partitions}, so no one of them holds it (the cause is job-wide)")
}
