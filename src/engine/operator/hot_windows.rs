//! A write-back cache of each key's newest tumbling window, so that the common record — one
//! that falls into its key's open window, ahead of the watermark — updates a small dense
//! array instead of probing the (large, cold) window-state map.
//!
//! Slots are dense per window subtask (the hash exchange numbers the keys it routes to each
//! subtask). A slot remembers one `(key, window start)` whose state exists and whose trigger
//! timer is registered, and accumulates a *delta* aggregate for it. Count, sum, min and max
//! merge exactly, so the delta is folded into the state map before anything reads it: before a
//! watermark that makes a timer due (only a firing or a cleanup reads or purges a window's
//! state, and a cached window's trigger timer is registered at its end), and when the slot
//! moves on to a newer window. Readers that cannot flush (`pending_windows`) add the pending
//! deltas themselves.
//!
//! The cache never changes what the operator computes, only where the running sum lives for
//! a while; the unit tests and the seed-001 trace hashes check that.

use super::aggregate::Agg;
use crate::engine::keys::KeyId;
use crate::engine::time::EventTime;

/// "This record has no slot": forward and rebalance exchanges do not number keys.
pub const NO_SLOT: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct HotWindow {
    key: KeyId,
    start: EventTime,
    delta: Agg,
    dirty: bool,
}

const EMPTY: HotWindow = HotWindow { key: KeyId::MAX, start: EventTime::MIN, delta: Agg::ZERO, dirty: false };

#[derive(Clone, Debug, Default)]
pub struct HotWindows {
    slots: Vec<HotWindow>,
    /// Slots with a pending delta, in the order they became dirty.
    dirty: Vec<u32>,
}

impl HotWindows {
    /// Adds `value` to the slot's window if it is `key`'s window at `start`.
    #[inline(always)]
    pub fn try_add(&mut self, slot: u32, key: KeyId, start: EventTime, value: i64) -> bool {
        let Some(h) = self.slots.get_mut(slot as usize) else { return false };
        if h.key != key || h.start != start {
            return false;
        }
        if !h.dirty {
            h.dirty = true;
            self.dirty.push(slot);
        }
        h.delta.add(value);
        true
    }

    /// The window `slot` caches, if any, with its pending delta (taken: the caller folds it in).
    pub fn take(&mut self, slot: u32) -> Option<(KeyId, EventTime, Agg)> {
        let h = self.slots.get_mut(slot as usize)?;
        if !h.dirty {
            return None;
        }
        h.dirty = false;
        Some((h.key, h.start, std::mem::replace(&mut h.delta, Agg::ZERO)))
    }

    /// The window start `slot` caches (`None`: nothing yet).
    pub fn cached_start(&self, slot: u32) -> Option<EventTime> {
        self.slots.get(slot as usize).filter(|h| h.key != KeyId::MAX).map(|h| h.start)
    }

    /// Points `slot` at `key`'s window `start`; the slot must have no pending delta.
    pub fn remember(&mut self, slot: u32, key: KeyId, start: EventTime) {
        if slot == NO_SLOT {
            return;
        }
        if self.slots.len() <= slot as usize {
            self.slots.resize(slot as usize + 1, EMPTY);
        }
        let h = &mut self.slots[slot as usize];
        debug_assert!(!h.dirty, "a slot moves on only after its delta was folded in");
        *h = HotWindow { key, start, delta: Agg::ZERO, dirty: false };
    }

    /// Takes every pending delta, in the order the slots became dirty.
    pub fn drain(&mut self, mut fold: impl FnMut(KeyId, EventTime, &Agg)) {
        for slot in self.dirty.drain(..) {
            let h = &mut self.slots[slot as usize];
            if h.dirty {
                h.dirty = false;
                fold(h.key, h.start, &h.delta);
                h.delta = Agg::ZERO;
            }
        }
    }

    /// The pending deltas, for readers that cannot flush.
    pub fn pending(&self) -> impl Iterator<Item = (KeyId, EventTime, &Agg)> + '_ {
        self.dirty.iter().map(|&s| &self.slots[s as usize]).filter(|h| h.dirty).map(|h| (h.key, h.start, &h.delta))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absorbs_only_the_remembered_window_and_drains_once() {
        let mut h = HotWindows::default();
        assert!(!h.try_add(0, 7, EventTime(1000), 1), "nothing remembered yet");
        h.remember(0, 7, EventTime(1000));
        assert!(!h.try_add(0, 7, EventTime(2000), 1), "another window of the key");
        assert!(!h.try_add(0, 8, EventTime(1000), 1), "another key");
        assert!(h.try_add(0, 7, EventTime(1000), 5) && h.try_add(0, 7, EventTime(1000), 2));
        assert_eq!(h.pending().map(|(k, s, a)| (k, s, a.count, a.sum)).collect::<Vec<_>>(), vec![(7, EventTime(1000), 2, 7)]);
        let mut seen = Vec::new();
        h.drain(|k, s, a| seen.push((k, s, a.count, a.min, a.max)));
        assert_eq!(seen, vec![(7, EventTime(1000), 2, 2, 5)]);
        h.drain(|_, _, _| panic!("drained twice"));
        assert_eq!(h.take(0), None);
        assert!(h.try_add(0, 7, EventTime(1000), 1));
        assert_eq!(h.take(0).map(|(k, s, a)| (k, s, a.count)), Some((7, EventTime(1000), 1)));
        h.remember(NO_SLOT, 1, EventTime(1));
        assert!(!h.try_add(NO_SLOT, 1, EventTime(1), 1));
    }
}
