//! Session windows' merging (`MergingWindowSet` and `Trigger.onMerge`, reference §7): a new
//! element's window absorbs the sessions it overlaps, with their contents, timers and the
//! continuous trigger's `fire-time`. Apart from the operator's element path because only
//! merging assigners take it.

use super::{state_key, WinState, WindowOperator};
use crate::engine::keys::KeyId;
use crate::engine::operator::aggregate::Agg;
use crate::engine::operator::session::Window;
use crate::engine::time::EventTime;

impl WindowOperator {
    /// `MergingWindowSet.addWindow` with the operator's merge function. Returns the window the
    /// element belongs to.
    pub(super) fn merge_into_sessions(&mut self, key: KeyId, new: Window) -> Option<Window> {
        let overlapping = self.sessions.overlapping(key, new);
        if overlapping.is_empty() {
            self.sessions.replace(key, &[], new);
            return Some(new);
        }
        let cover = (new.0.min(overlapping[0].0), new.1.max(overlapping[overlapping.len() - 1].1));
        if overlapping.len() == 1 && overlapping[0] == cover {
            return Some(cover);
        }
        let merged = self.take_merged(key, &overlapping);
        self.sessions.replace(key, &overlapping, cover);
        if let Some((agg, fire_at)) = merged {
            self.merged_state(key, cover, agg, fire_at);
        }
        Some(cover)
    }

    /// Removes the merged windows' state and timers: their contents summed, and the smallest
    /// `fire-time` (the continuous trigger's `Min` reducing state), if any had state.
    fn take_merged(&mut self, key: KeyId, windows: &[Window]) -> Option<(Agg, Option<EventTime>)> {
        let mut merged: Option<(Agg, Option<EventTime>)> = None;
        for &m in windows {
            if let Some(st) = self.state.remove(&state_key(key, m.0)) {
                let (agg, fire_at) = merged.get_or_insert((Agg::default(), None));
                agg.merge(&st.agg);
                if let Some(t) = self.take_fire_time(key, m) {
                    *fire_at = Some(fire_at.map_or(t, |f| f.min(t)));
                }
            }
            self.timers.remove(&(m.1 - 1, key, m.0, m.1));
            self.cleanups.remove(&(self.cleanup_time(m.1 - 1), key, m.0, m.1));
        }
        merged
    }

    /// The merged window's state and `Trigger.onMerge`: `EventTimeTrigger` registers the timer
    /// at the new end if it is still ahead; `ContinuousEventTimeTrigger` registers the merged
    /// `fire-time` whatever the watermark (the element's `onElement` sets the end's timer next).
    fn merged_state(&mut self, key: KeyId, cover: Window, agg: Agg, fire_at: Option<EventTime>) {
        let continuous = self.trigger.interval_ms().is_some();
        let timer = !continuous && cover.1 - 1 > self.watermark;
        if timer {
            self.timers.insert((cover.1 - 1, key, cover.0, cover.1));
        }
        self.state.insert(state_key(key, cover.0), WinState { end: cover.1, agg, firings: 0, timer });
        if let Some(t) = fire_at {
            self.register_fire_time(key, cover, t);
        }
        self.register_cleanup(key, cover);
    }
}
