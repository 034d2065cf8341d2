//! Stopping offsets: where a split's reading ended — its source subtask's end of input, or the
//! split's release (it finished) — so that a restore from a checkpoint taken before that end
//! reads the split again up to there and ends there again. Flink's bounded Kafka split stops at
//! its `stoppingOffset` (`KafkaPartitionSplitReader`) and a restored bounded source finishes again
//! once its splits are done; a split restored already at its end ends again at once, as a task
//! finished before the checkpoint is finished on restore.
//!
//! While a restored reader reads an ended split again, the partition stops at the end
//! (`Partition::stop_at`): what was appended after it stays in the log, as it did before the
//! failure. A subtask whose input had ended ends it again once every such split of its own has
//! reached its end.

use super::sim::Simulation;
use super::time::ProcTime;

/// How a split's reading ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SplitEnd {
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
    pending: Vec<PendingEnd>,
    /// Source subtasks whose input ends again once their splits are read again, and whether
    /// it ended by `Simulation::end_input_of` (the reader finished: it reads nothing after).
    ending: Vec<(usize, bool)>,
}

fn note(v: &mut Vec<Option<u64>>, p: usize, offset: u64) {
    if v.len() <= p {
        v.resize(p + 1, None);
    }
    v[p].get_or_insert(offset);
}

fn beyond(v: &[Option<u64>], p: usize, offset: u64) -> Option<u64> {
    v.get(p).copied().flatten().filter(|&e| e > offset)
}

impl StoppingOffsets {
    /// Whether a restored split of partition `p` at `offset` was released only after it: it
    /// is live again until it reaches the release.
    pub(crate) fn released_beyond(&self, p: usize, offset: u64) -> bool {
        beyond(&self.released, p, offset).is_some()
    }

    /// Whether subtask `s` ends its input only once its splits are read again.
    pub(crate) fn ends_later(&self, s: usize) -> bool {
        self.ending.iter().any(|&(e, _)| e == s)
    }

    fn stop_of(&self, p: usize) -> Option<u64> {
        self.pending.iter().filter(|e| e.partition == p).map(|e| e.offset).min()
    }
}

impl Simulation {
    /// The end of input of subtask `s` (every subtask: `None`): where each of its live splits is.
    pub(crate) fn note_input_ended(&mut self, s: Option<usize>) {
        for p in 0..self.partitions.len() {
            if self.live_split_of(p).is_some_and(|(owner, _)| s.is_none_or(|s| s == owner)) {
                let at = self.partitions[p].read_offset();
                note(&mut self.stopping.input_ended, p, at);
            }
        }
        self.forget_pending(|e, owner| s.is_none_or(|s| s == owner) && e.how == SplitEnd::InputEnded);
        self.stopping.ending.retain(|&(e, _)| s.is_some_and(|s| s != e));
    }

    /// Partition `p`'s split was released now (removed: it has no end to read to again).
    pub(crate) fn note_released(&mut self, p: usize, t: ProcTime) {
        if !self.partitions[p].removed {
            let at = self.partitions[p].read_offset();
            self.stopping.released.resize(self.stopping.released.len().max(p + 1), None);
            self.stopping.released[p] = Some(at);
        }
        self.forget_pending(|e, _| e.partition == p);
        self.reach_stopping_offsets(t);
    }

    /// At a restart, after the rewind and before the sources are rebuilt: every split that
    /// ended after the restored offset reads again up to its end. `finished` says per subtask
    /// whether its input had ended (and how).
    pub(crate) fn plan_rereads(&mut self, ended: &[Option<bool>]) {
        let st = &mut self.stopping;
        st.pending.clear();
        st.ending.clear();
        for (p, part) in self.partitions.iter_mut().enumerate() {
            part.stop_at(None);
            let Some((owner, _)) = self.split_of[p] else { continue };
            if part.removed {
                continue;
            }
            let at = part.read_offset();
            if let Some(offset) = beyond(&st.input_ended, p, at).filter(|_| ended[owner as usize].is_some()) {
                st.pending.push(PendingEnd { partition: p, offset, how: SplitEnd::InputEnded });
            }
            if let Some(offset) = beyond(&st.released, p, at) {
                st.pending.push(PendingEnd { partition: p, offset, how: SplitEnd::Released });
            }
            part.stop_at(st.stop_of(p));
        }
        for (s, e) in ended.iter().enumerate() {
            let waits =
                st.pending.iter().any(|e| e.how == SplitEnd::InputEnded && self.split_of[e.partition].is_some_and(|o| o.0 as usize == s));
            if let (Some(finish), true) = (e, waits) {
                st.ending.push((s, *finish));
            }
        }
    }

    /// After a read: the subtasks whose splits all reached their end of input end it again,
    /// then the splits that reached their release are released again.
    pub(crate) fn reach_stopping_offsets(&mut self, t: ProcTime) {
        if self.stopping.pending.is_empty() && self.stopping.ending.is_empty() {
            return;
        }
        let mut k = 0;
        while k < self.stopping.ending.len() {
            let (s, finish) = self.stopping.ending[k];
            if self.input_end_reached(s) {
                self.stopping.ending.remove(k);
                self.forget_pending(|e, owner| owner == s && e.how == SplitEnd::InputEnded);
                self.end_again(s, finish, t);
            } else {
                k += 1;
            }
        }
        let reached: Vec<usize> = (self.stopping.pending.iter())
            .filter(|e| e.how == SplitEnd::Released && self.partitions[e.partition].read_offset() >= e.offset)
            .map(|e| e.partition)
            .collect();
        for p in reached {
            self.forget_pending(|e, _| e.partition == p && e.how == SplitEnd::Released);
            if let Some((s, i)) = self.live_split_of(p) {
                self.sources[s].release_split(i, t, &mut self.trace);
            }
        }
    }

    fn input_end_reached(&self, s: usize) -> bool {
        (self.stopping.pending.iter())
            .filter(|e| e.how == SplitEnd::InputEnded && self.split_of[e.partition].is_some_and(|o| o.0 as usize == s))
            .all(|e| self.partitions[e.partition].read_offset() >= e.offset)
    }

    fn end_again(&mut self, s: usize, finish: bool, t: ProcTime) {
        self.signals.clear();
        if finish {
            self.sources[s].finish(t, &mut self.trace, &mut self.signals);
        } else {
            self.sources[s].end_of_input(t, &mut self.trace, &mut self.signals);
        }
        self.broadcast(s, t);
    }

    /// Drops the pending ends `drop(end, owner)` names; each partition stops at what is left.
    fn forget_pending(&mut self, drop: impl Fn(&PendingEnd, usize) -> bool) {
        let owner = |p: usize| self.split_of[p].map_or(usize::MAX, |o| o.0 as usize);
        let (gone, kept): (Vec<PendingEnd>, Vec<PendingEnd>) =
            std::mem::take(&mut self.stopping.pending).into_iter().partition(|e| drop(e, owner(e.partition)));
        self.stopping.pending = kept;
        for e in gone {
            let stop = self.stopping.stop_of(e.partition);
            self.partitions[e.partition].stop_at(stop);
            // What waited beyond the end may be read now.
            self.pending_reads |= stop.is_none();
        }
    }
}
