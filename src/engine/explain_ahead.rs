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
//! A channel of the held input that came back below the watermark (unaligned) keeps the valve
//! from flushing (reference §6.2; oracle3 goldens 19 and 20 on Flink 2.3.0): while it stays active the
//! valve is not all idle and leaves it out of its minimum, and when it goes idle last Flink
//! ≤ 2.3.0 flushes nothing (`HeldValve`). Then only the held input counts: a channel of it that
//! is active and aligned once the holder is idle (it stays active, or its source subtask ticks
//! after the holder's), and the holder's own splits. A returning partition that stopped again
//! goes idle with the holder; which of them goes idle last decides the flush (`NoFlush`).
//!
//! Not foreseen: a partition that resumes within the timeout; two inputs tied at the watermark
//! (only the one `min_input` names is asked about an unaligned channel); and the order of two
//! inputs going idle in the same instant, which is the engine's (input 0 first) where Flink's two source
//! tasks race. A fix applied live keeps each split's watermark, where Flink's restart for a new
//! `withIdleness` starts every split at No Watermark again.

use super::diagnosis::classify::{quiet_after_ms, PartitionClass, PartitionFacts};
use super::operator_input::ChannelRef;
use super::sim::Simulation;
use super::time::{EventTime, END_OF_TIME, NO_WATERMARK};
use super::valve::InputChannelStatus;
use super::window_subtask::WindowSubtask;

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
    /// Nothing above a real watermark.
    Nothing,
    /// Only inputs that are idle, or go idle with the holder, are above it, and without the
    /// all-idle flush (Flink ≤ 2.1) they are not released to.
    OnlyIdle,
    /// What is above it waits behind a channel of the held input that came back below the
    /// watermark (unaligned): the valve leaves that channel out of its minimum and flushes
    /// nothing while it is active (or, on Flink ≤ 2.3.0, when it goes idle last), so nothing is
    /// released until it catches up.
    BehindUnaligned,
}

impl Ahead {
    /// Whether an idle timeout releases nothing now, so that nothing should offer one.
    pub fn releases_nothing(self) -> bool {
        matches!(self, Ahead::Nothing | Ahead::OnlyIdle | Ahead::BehindUnaligned)
    }
}

/// Whether partition `p` has stopped, as the diagnosis classes it (not merely between two
/// records): it goes idle in the same check as the holder once a timeout is set. A returning
/// partition keeps its class once it stops again (its records were late all the same), so its
/// silence is measured as the classing measures it (`quiet_after_ms`).
pub(super) fn stopped(facts: &[PartitionFacts], p: u32, interval_ms: i64) -> bool {
    facts.get(p as usize).is_some_and(|f| match f.class {
        PartitionClass::Idle | PartitionClass::Empty => true,
        PartitionClass::Returning => f.silent_ms.is_some_and(|s| s > quiet_after_ms(f, interval_ms)),
        _ => false,
    })
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
        let held = HeldValve::of(self, w, facts);
        // How every split and channel that feeds it above `wm` would be released (asked only of
        // those above it).
        let is_above = |m: Option<EventTime>| m.is_some_and(|m| m > wm);
        let splits = self.sources.iter().enumerate().filter(|&(s, _)| feeds(s)).flat_map(|(s, src)| {
            (0..src.splits.len()).filter(|&i| src.split_counts(i) && is_above(src.split_watermark(i))).map(move |i| {
                let goes_idle = src.split_idle(i) || stopped(facts, src.splits[i].partition, self.cfg.auto_watermark_interval_ms);
                held.split_release(self, w, s as u32, goes_idle)
            })
        });
        let channels =
            w.input.channels().filter(|&(_, c)| is_above(Some(c.watermark))).map(|(r, c)| held.channel_release(self, w, r, c, facts));
        let above: Vec<Release> = splits.chain(channels).collect();
        if above.contains(&Release::Live) {
            Ahead::Something
        } else if above.contains(&Release::IfAllIdle) {
            if self.cfg.combined_all_idle_flush {
                Ahead::Something
            } else {
                Ahead::OnlyIdle
            }
        } else if !above.is_empty() {
            Ahead::BehindUnaligned
        } else if wm == NO_WATERMARK {
            // Nothing above No Watermark is the start (or a restore): not judged, as before
            // anything is read. Only idle inputs above it is judged: on Flink ≤ 2.1 an empty
            // split beside a stopped one stays at No Watermark with the fix.
            Ahead::NotJudged
        } else {
            Ahead::Nothing
        }
    }

    /// Whether channel `r` leaves the operator's combination before the held input goes idle,
    /// so that only an all-idle flush reaches its watermark. The held input's channels never
    /// do: its valve flushes its max when the holding channel goes idle last, in every version,
    /// and the flushed watermark reaches the operator before the input's idleness. Another
    /// input's channel does when it is idle, or when its source subtask goes idle with the
    /// holder (every split idle or stopped) and ticks first: sources tick in index order, so
    /// input 0 goes idle before input 1 in the same instant.
    fn channel_goes_idle_first(&self, w: &WindowSubtask, r: ChannelRef, c: InputChannelStatus, facts: &[PartitionFacts]) -> bool {
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
                    .filter(|&i| src.split_counts(i))
                    .all(|i| src.split_idle(i) || stopped(facts, src.splits[i].partition, self.cfg.auto_watermark_interval_ms))
            }
        })
    }
}

/// How an input above the watermark would be released once the holder goes idle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Release {
    /// It stays active (or is flushed by the held input's valve): released in every version.
    Live,
    /// Only through an all-idle moment (Flink ≥ 2.2).
    IfAllIdle,
    /// Not while the held input's valve flushes nothing ([`NoFlush`]).
    Never,
}

/// Why the held input's valve flushes nothing when the holder goes idle (reference §6.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NoFlush {
    /// A channel that came back below the watermark (unaligned) stays active: the valve is not
    /// all idle, and leaves that channel out of its minimum until it catches up.
    StaysActive,
    /// That channel goes idle too, and last (its source ticks after the others): Flink ≤ 2.3.0
    /// flushes only when the last channel to go idle is at the valve's watermark.
    IdleUnflushed,
}

/// The held input's valve as the holder going idle would leave it: whether it flushes, and the
/// highest source subtask among the channels holding it (one with a higher index goes idle
/// after it in the same check, so it is in the valve's minimum once the holder is idle; none
/// once the holder is idle already).
#[derive(Clone, Copy, Debug)]
struct HeldValve {
    input: Option<usize>,
    holder: Option<u32>,
    no_flush: Option<NoFlush>,
}

impl HeldValve {
    fn of(sim: &Simulation, w: &WindowSubtask, facts: &[PartitionFacts]) -> HeldValve {
        let input = w.input.min_input();
        let active = || w.input.channels().filter(move |(r, c)| Some(r.input) == input && !c.status.is_idle());
        let out = input.map(|i| w.input.input_watermark(i));
        let holder = active().filter(|(_, c)| c.aligned && Some(c.watermark) == out).map(|(r, _)| r.source).max();
        let last_to_idle = active().filter(|(r, _)| sim.source_goes_idle(r.source, facts)).max_by_key(|(r, _)| r.source);
        let no_flush = if active().any(|(r, c)| !c.aligned && !sim.source_goes_idle(r.source, facts)) {
            Some(NoFlush::StaysActive)
        } else if !sim.cfg.valve.unconditional_flush && last_to_idle.is_some_and(|(_, c)| !c.aligned) {
            Some(NoFlush::IdleUnflushed)
        } else {
            None
        };
        HeldValve { input, holder, no_flush }
    }

    /// Whether source subtask `source`, of the held input, goes idle after the holder in the
    /// check (or not at all): it is then in the valve's minimum once the holder is idle.
    fn after_holder(&self, sim: &Simulation, source: u32, facts: &[PartitionFacts]) -> bool {
        !sim.source_goes_idle(source, facts) || self.holder.is_none_or(|h| source > h)
    }

    /// A split of source subtask `source`. Without the flush, one of the held input counts
    /// through its subtask's channel, active and aligned: a split that stays active raises it,
    /// and from Flink 2.2 one that goes idle is flushed into it before its idleness (the
    /// multiplexer's all-idle flush), which the valve takes only if that subtask goes idle last
    /// of the channels holding it. Another input's count only if the held input goes idle.
    fn split_release(&self, sim: &Simulation, w: &WindowSubtask, source: u32, goes_idle: bool) -> Release {
        let channel = w.input.channels().find(|(r, _)| r.source == source);
        let own = channel.is_some_and(|(r, _)| Some(r.input) == self.input);
        let raises = || channel.is_some_and(|(_, c)| !c.status.is_idle() && c.aligned);
        let flushed_last = || sim.cfg.combined_all_idle_flush && self.holder.is_none_or(|h| source >= h);
        match self.no_flush {
            Some(_) if own && raises() && (!goes_idle || flushed_last()) => Release::Live,
            Some(_) if own => Release::Never,
            Some(NoFlush::StaysActive) => Release::Never,
            _ if goes_idle => Release::IfAllIdle,
            _ => Release::Live,
        }
    }

    /// A channel. Without the flush, one of the held input counts only while it is active and
    /// aligned once the holder is idle; another input's only if the held input goes idle.
    fn channel_release(
        &self,
        sim: &Simulation,
        w: &WindowSubtask,
        r: ChannelRef,
        c: InputChannelStatus,
        facts: &[PartitionFacts],
    ) -> Release {
        match self.no_flush {
            Some(_) if Some(r.input) == self.input => {
                if !c.status.is_idle() && c.aligned && self.after_holder(sim, r.source, facts) {
                    Release::Live
                } else {
                    Release::Never
                }
            }
            Some(NoFlush::StaysActive) => Release::Never,
            _ if sim.channel_goes_idle_first(w, r, c, facts) => Release::IfAllIdle,
            _ => Release::Live,
        }
    }
}
