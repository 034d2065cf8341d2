//! Per-key index of session windows for the merging assigner (`MergingWindowSet`).
//! A key's windows never touch each other: touching windows (`start <= o.end && end >= o.start`,
//! reference §8.1) are merged as soon as they appear.

use crate::engine::fingerprint::LookupMap;
use crate::engine::keys::KeyId;
use crate::engine::time::EventTime;

pub type Window = (EventTime, EventTime);

#[derive(Clone, Debug, Default)]
pub struct SessionIndex {
    by_key: LookupMap<KeyId, Vec<Window>>,
}

impl SessionIndex {
    /// Existing windows of `key` that intersect (or touch) `w`, sorted by start.
    pub fn overlapping(&self, key: KeyId, w: Window) -> Vec<Window> {
        self.by_key.get(&key).map(|v| v.iter().copied().filter(|o| o.0 <= w.1 && o.1 >= w.0).collect()).unwrap_or_default()
    }

    /// Replaces `old` windows of `key` by `new`, keeping the list sorted.
    pub fn replace(&mut self, key: KeyId, old: &[Window], new: Window) {
        let v = self.by_key.entry(key).or_default();
        v.retain(|w| !old.contains(w));
        let at = v.partition_point(|w| w.0 < new.0);
        v.insert(at, new);
    }

    pub fn remove(&mut self, key: KeyId, w: Window) {
        if let Some(v) = self.by_key.get_mut(&key) {
            v.retain(|o| *o != w);
            if v.is_empty() {
                self.by_key.remove(&key);
            }
        }
    }
}
