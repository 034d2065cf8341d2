//! What an idle timeout could release a held watermark to: the rule behind "nothing is ahead"
//! that the explanation, the findings and the advisor read (`Explanation::nothing_ahead`), so
//! that no fix is offered that moves nothing.
//!
//! A timeout applied to the running job starts every split's timer afresh: the inputs holding
//! the watermark and every other silent one go idle in the same check. What then moves the
//! watermark depends on the Flink version (the all-idle flush came in 2.2, FLINK-38454) and on
//! which operator sees the inputs meet (a valve flushes in every version). The cases in
//! `tests/explain.rs` apply the fix and watch the watermark.
//!
//! A channel of the held input that came back below the watermark and keeps reading blocks
//! the release: the valve leaves an unaligned channel out of its minimum and, not all idle,
//! flushes nothing (reference §6.2; oracle3 golden 19 on Flink 2.3.0). Not foreseen: which of the held input's channels goes idle
//! last when that one goes idle with the holder (Flink ≤ 2.3.0 flushes only if it is one at the
//! watermark); a partition that resumes within the timeout; and the order
//! of two inputs going idle in the same instant, which is the engine's (input 0 first) where
//! Flink's two source tasks race. A fix applied live keeps each split's watermark, where
//! Flink's restart for a new `withIdleness` starts every split at No Watermark again.

use super::diagnosis::classify::{PartitionClass, PartitionFacts};
use super::sim::Simulation;
use super::time::{EventTime, END_OF_TIME, NO_WATERMARK};

/// What an idle timeout could release a watermark to, if the inputs holding it went idle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Ahead {
    /// At the end of input, or at No Watermark with nothing above it: the rule does not judge
    /// (nothing is withheld for it).
    #[default]
    NotJudged,
    /// An input above the watermark that stays active once the holder is idle, or (with the
    /// all-idle flush) one that is idle or goes idle with it.
    Something,
    /// Nothing above a real watermark, or nothing the held input's valve can release while an
    /// unaligned channel in it stays active (it moves once that channel catches up).
    Nothing,
    /// Only inputs that are idle, or go idle with the holder, are above it, and without the
    /// all-idle flush (Flink ≤ 2.1) they are not released to.
    OnlyIdle,
}

impl Ahead {
    /// Whether an idle timeout releases nothing now, so that nothing should offer one.
    pub fn releases_nothing(self) -> bool {
        matches!(self, Ahead::Nothing | Ahead::OnlyIdle)
    }
}

/// Whether partition `p` has stopped, as the diagnosis classes it (not merely between two
/// records): it goes idle in the same check as the holder once a timeout is set.
pub(super) fn stopped(facts: &[PartitionFacts], p: u32) -> bool {
    facts.get(p as usize).is_some_and(|f| matches!(f.class, PartitionClass::Idle | PartitionClass::Empty))
}

impl Simulation {
    /// What keyed subtask `subtask`'s holder going idle would release watermark `wm` to, in this
    /// job's Flink version, from one walk over the splits and channels that feed the subtask.
    /// An input above `wm` that stays active is released to in every version; one that is idle
    /// or goes idle with the holder only through an all-idle moment, which Flink ≤ 2.1 meets by
    /// keeping the watermark where it is.
    pub(super) fn ahead(&self, subtask: u32, wm: EventTime, facts: &[PartitionFacts]) -> Ahead {
        let Some(w) = self.down.windows.get(subtask as usize) else { return Ahead::NotJudged };
        if wm == END_OF_TIME {
            return Ahead::NotJudged;
        }
        let feeds = |s: usize| self.down.targets.get(s).is_some_and(|t| t.contains(&subtask));
        // (goes idle with the holder, watermark) of every split and channel that feeds it.
        let splits = self.sources.iter().enumerate().filter(|&(s, _)| feeds(s)).flat_map(|(_, src)| {
            (0..src.splits.len())
                .filter(|&i| !src.splits[i].released)
                .map(move |i| (src.split_idle(i) || stopped(facts, src.splits[i].partition), src.split_watermark(i)))
        });
        // The held input's valve stays active through an unaligned channel: its idle channels,
        // and those going idle with the holder, are neither flushed nor in its minimum.
        let blocked = self.unaligned_channel_stays_active(w, facts);
        let frozen = |r: super::operator_input::ChannelRef, c: super::valve::InputChannelStatus| {
            blocked && Some(r.input) == w.input.min_input() && (c.status.is_idle() || self.source_goes_idle(r.source, facts))
        };
        let channels = w
            .input
            .channels()
            .filter(|&(r, c)| !frozen(r, c))
            .map(|(r, c)| (self.channel_goes_idle_first(w, r, c, facts), Some(c.watermark)));
        let (mut live, mut idle) = (false, false);
        for (goes_idle, _) in splits.chain(channels).filter(|&(_, m)| m.is_some_and(|m| m > wm)) {
            if goes_idle {
                idle = true
            } else {
                live = true
            }
        }
        // No all-idle moment comes while that channel is active, so nothing idle is flushed.
        idle &= !blocked;
        match (live, idle) {
            (true, _) => Ahead::Something,
            (false, true) if self.cfg.combined_all_idle_flush => Ahead::Something,
            (false, true) => Ahead::OnlyIdle,
            // Nothing above No Watermark is the start (or a restore): not judged, as before
            // anything is read. Only idle inputs above it is judged: on Flink ≤ 2.1 an empty
            // split beside a stopped one stays at No Watermark with the fix.
            (false, false) if wm == NO_WATERMARK => Ahead::NotJudged,
            (false, false) => Ahead::Nothing,
        }
    }

    /// Whether channel `r` leaves the operator's combination before the held input goes idle,
    /// so that only an all-idle flush reaches its watermark. The held input's channels never
    /// do: its valve flushes its max when the holding channel goes idle last, in every version,
    /// and the flushed watermark reaches the operator before the input's idleness. Another
    /// input's channel does when it is idle, or when its source subtask goes idle with the
    /// holder (every split idle or stopped) and ticks first: sources tick in index order, so
    /// input 0 goes idle before input 1 in the same instant.
    fn channel_goes_idle_first(
        &self,
        w: &super::window_subtask::WindowSubtask,
        r: super::operator_input::ChannelRef,
        c: super::valve::InputChannelStatus,
        facts: &[PartitionFacts],
    ) -> bool {
        let Some(held) = w.input.min_input().filter(|&h| h != r.input) else { return false };
        c.status.is_idle() || (r.input < held && self.source_goes_idle(r.source, facts))
    }

    /// Whether source subtask `source` goes idle once a timeout is set: every live split idle
    /// or stopped. One without a split does too, unless its splits were released while it was
    /// active: then its channel stays active (reference §4.6, V-SRC-5).
    fn source_goes_idle(&self, source: u32, facts: &[PartitionFacts]) -> bool {
        self.sources.get(source as usize).is_some_and(|src| {
            if src.owns_no_split() {
                !src.stays_active_without_split()
            } else {
                (0..src.splits.len())
                    .filter(|&i| !src.splits[i].released)
                    .all(|i| src.split_idle(i) || stopped(facts, src.splits[i].partition))
            }
        })
    }

    /// Whether the held input's valve has a channel that came back active below the watermark
    /// (unaligned) and stays active when the holder goes idle: the valve then leaves it out of
    /// its minimum and, not being all idle, flushes nothing (reference §6.2), so what is idle
    /// above the watermark is released only once that channel catches up.
    fn unaligned_channel_stays_active(&self, w: &super::window_subtask::WindowSubtask, facts: &[PartitionFacts]) -> bool {
        let Some(held) = w.input.min_input() else { return false };
        w.input.channels().any(|(r, c)| r.input == held && !c.status.is_idle() && !c.aligned && !self.source_goes_idle(r.source, facts))
    }
}
