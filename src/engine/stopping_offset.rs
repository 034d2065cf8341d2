//! Stopping offsets: where a split's reading ended — its source subtask's end of input, or the
//! split's release (it finished) — so that a restore from a checkpoint taken before that end
//! reads the split again up to there and ends there again. Flink's bounded Kafka split stops at
//! its `stoppingOffset` (`KafkaPartitionSplitReader`) and a restored bounded source finishes again
//! once its splits are done; a split restored already at its end ends again at once, as a task
//! finished before the checkpoint is finished on restore.
//!
//! While a restored reader reads an ended split again, the partition stops at the end
//! (`Partition::stop_at`): what was appended after it stays in the log, as it did before the
//! failure. A subtask whose input had ended holds every split of its own at its end (at its
//! restored offset if it has none) and ends its input again once all of them are there; a split
//! waiting there is finished, as Flink's bounded split is at its stopping offset, so that its
//! watermark no longer holds back its siblings' (nor pauses them by split alignment).

use super::sim::Simulation;
use super::time::ProcTime;

/// How a split's reading ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SplitEnd {
    /// Its subtask's input ends once all of its splits are here.
    InputEnded,
    Released,
}

/// A split's end the restored attempt has still to reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PendingEnd {
    partition: usize,
    offset: u64,
    how: SplitEnd,
}

#[derive(Clone, Debug, Default)]
pub struct StoppingOffsets {
    /// Per partition: its read offset when its subtask's input ended.
    input_ended: Vec<Option<u64>>,
    /// Per partition: its read offset when its split was released.
    released: Vec<Option<u64>>,
    /// Per source subtask: whether its input ended, and whether by `Simulation::end_input_of`
    /// (the reader finished: it reads nothing after).
    ended: Vec<Option<bool>>,
    pending: Vec<PendingEnd>,
    /// Source subtasks that end their input again once their splits are at their ends.
    ending: Vec<usize>,
}

fn note(v: &mut Vec<Option<u64>>, p: usize, offset: u64, keep_first: bool) {
    if v.len() <= p {
        v.resize(p + 1, None);
    }
    if !keep_first || v[p].is_none() {
        v[p] = Some(offset);
    }
}

fn get(v: &[Option<u64>], p: usize) -> Option<u64> {
    v.get(p).copied().flatten()
}

impl StoppingOffsets {
    /// Whether a restored split of partition `p` at `offset` was released only after it: it
    /// is live again until it reaches the release.
    pub(crate) fn released_beyond(&self, p: usize, offset: u64) -> bool {
        get(&self.released, p).is_some_and(|r| r > offset)
    }

    /// Whether subtask `s` ends its input again only once its splits are read again.
    pub(crate) fn ends_later(&self, s: usize) -> bool {
        self.ending.contains(&s)
    }

    /// Whether subtask `s`'s input had ended and it ends it again as its tasks open.
    pub(crate) fn ends_at_once(&self, s: usize) -> bool {
        self.ended.get(s).copied().flatten().is_some() && !self.ends_later(s)
    }

    /// Whether subtask `s`'s reader finished (`end_input_of`): it reads nothing after its end.
    pub(crate) fn finishes(&self, s: usize) -> bool {
        self.ended.get(s).copied().flatten() == Some(true)
    }

    /// Whether partition `p`'s split is read again only up to its release: commands cannot
    /// count on it staying live.
    pub fn releases_again(&self, p: usize) -> bool {
        self.pending.iter().any(|e| e.partition == p && e.how == SplitEnd::Released)
    }

    fn stop_of(&self, p: usize) -> Option<u64> {
        self.pending.iter().filter(|e| e.partition == p).map(|e| e.offset).min()
    }
}

impl Simulation {
    /// The end of input of subtask `s` (every subtask: `None`), by finishing its reader or not:
    /// where each of its live splits is. A re-read in progress ends here instead.
    pub(crate) fn note_input_ended(&mut self, s: Option<usize>, finish: bool) {
        let chosen = |x: usize| s.is_none_or(|s| s == x);
        for p in 0..self.partitions.len() {
            if self.live_split_of(p).is_some_and(|(owner, _)| chosen(owner)) {
                let at = self.partitions[p].read_offset();
                note(&mut self.stopping.input_ended, p, at, true);
            }
        }
        let st = &mut self.stopping;
        st.ended.resize(self.sources.len(), None);
        for (x, e) in st.ended.iter_mut().enumerate() {
            if chosen(x) {
                *e = Some(finish || *e == Some(true));
            }
        }
        st.ending.retain(|&x| !chosen(x));
        self.forget_pending(|e, owner| chosen(owner) && e.how == SplitEnd::InputEnded);
    }

    /// Partition `p`'s split was released now (removed: it has no end to read to again).
    pub(crate) fn note_released(&mut self, p: usize, t: ProcTime) {
        if self.partitions[p].removed {
            if let Some(r) = self.stopping.released.get_mut(p) {
                *r = None;
            }
        } else {
            let at = self.partitions[p].read_offset();
            note(&mut self.stopping.released, p, at, false);
        }
        self.forget_pending(|e, _| e.partition == p);
        self.reach_stopping_offsets(t);
    }

    /// At a restart, after the rewind and before the sources are rebuilt: every split that
    /// ended after its restored offset reads again up to its end, and every split of a subtask
    /// whose input had ended waits at its end (its restored offset if it has none) until all
    /// of that subtask's splits are there.
    pub(crate) fn plan_rereads(&mut self) {
        self.stopping.pending.clear();
        self.stopping.ending.clear();
        for p in 0..self.partitions.len() {
            let Some((owner, _)) = self.split_of[p] else { continue };
            let at = self.partitions[p].read_offset();
            let st = &self.stopping;
            if self.partitions[p].removed || (self.live_split_of(p).is_none() && !st.released_beyond(p, at)) {
                continue;
            }
            let mut ends = Vec::new();
            if let Some(offset) = get(&st.released, p).filter(|&r| r > at) {
                ends.push(PendingEnd { partition: p, offset, how: SplitEnd::Released });
            }
            if st.ended.get(owner as usize).copied().flatten().is_some() {
                let end = match (get(&st.input_ended, p), get(&st.released, p)) {
                    (Some(x), Some(r)) => Some(x.min(r)),
                    (x, r) => x.or(r),
                };
                let offset = end.unwrap_or(at).max(at);
                ends.push(PendingEnd { partition: p, offset, how: SplitEnd::InputEnded });
            }
            self.stopping.pending.extend(ends);
        }
        for s in 0..self.sources.len() {
            let mine = |e: &PendingEnd| e.how == SplitEnd::InputEnded && self.owner(e.partition) == s;
            if self.stopping.pending.iter().any(|e| mine(e) && e.offset > self.partitions[e.partition].read_offset()) {
                self.stopping.ending.push(s);
            } else {
                self.forget_pending(|e, owner| e.how == SplitEnd::InputEnded && owner == s);
            }
        }
        (0..self.partitions.len()).for_each(|p| self.restop(p));
    }

    /// After a read: the splits that reached their release are released again, then the
    /// subtasks whose splits all reached their end of input end it again; in the others, a
    /// split at its end is finished (it no longer holds their watermark or alignment back).
    pub(crate) fn reach_stopping_offsets(&mut self, t: ProcTime) {
        if (self.stopping.pending.is_empty() && self.stopping.ending.is_empty()) || !self.failover.is_running() {
            return;
        }
        for p in self.reached(SplitEnd::Released) {
            // Its subtask no longer waits for it either.
            self.forget_pending(|e, _| e.partition == p);
            if let Some((s, i)) = self.live_split_of(p) {
                self.sources[s].release_split(i, t, &mut self.trace);
            }
        }
        let mut k = 0;
        while k < self.stopping.ending.len() {
            let s = self.stopping.ending[k];
            if self.input_end_reached(s) {
                self.stopping.ending.remove(k);
                self.forget_pending(|e, owner| owner == s && e.how == SplitEnd::InputEnded);
                self.end_subtask_input(s, t);
            } else {
                k += 1;
            }
        }
        self.finish_splits_at_their_ends();
    }

    /// The partitions whose reader has reached a pending end of kind `how`.
    fn reached(&self, how: SplitEnd) -> Vec<usize> {
        self.stopping.pending.iter().filter(|e| e.how == how && self.at(e)).map(|e| e.partition).collect()
    }

    fn at(&self, e: &PendingEnd) -> bool {
        self.partitions[e.partition].read_offset() >= e.offset
    }

    fn finish_splits_at_their_ends(&mut self) {
        for p in self.reached(SplitEnd::InputEnded) {
            if let Some((s, i)) = self.live_split_of(p) {
                self.sources[s].finish_split(i);
            }
        }
    }

    /// A split added to a subtask that waits to end its input again waits at its start too:
    /// before the failure it came after the end.
    pub(crate) fn hold_if_ending(&mut self, p: usize) {
        if self.stopping.ends_later(self.owner(p)) {
            let offset = self.partitions[p].read_offset();
            self.stopping.pending.push(PendingEnd { partition: p, offset, how: SplitEnd::InputEnded });
            self.restop(p);
        }
    }

    fn owner(&self, p: usize) -> usize {
        self.split_of[p].map_or(usize::MAX, |o| o.0 as usize)
    }

    fn input_end_reached(&self, s: usize) -> bool {
        (self.stopping.pending.iter()).filter(|e| e.how == SplitEnd::InputEnded && self.owner(e.partition) == s).all(|e| self.at(e))
    }

    /// Drops the pending ends `drop(end, owner)` names; each partition stops at what is left,
    /// and what waited beyond a dropped end may be read at the next instant.
    fn forget_pending(&mut self, drop: impl Fn(&PendingEnd, usize) -> bool) {
        let owners: Vec<usize> = self.stopping.pending.iter().map(|e| self.owner(e.partition)).collect();
        let mut gone = Vec::new();
        let mut i = 0;
        self.stopping.pending.retain(|e| {
            let d = drop(e, owners[i]);
            i += 1;
            if d {
                gone.push(e.partition);
            }
            !d
        });
        for p in gone {
            self.restop(p);
            self.pending_reads = true;
        }
    }

    /// Partition `p` stops at its nearest pending end: `Partition::stop_at` caches it for the
    /// read paths, and only this sets it from the pending ends.
    fn restop(&mut self, p: usize) {
        let stop = self.stopping.stop_of(p);
        self.partitions[p].stop_at(stop);
    }
}
