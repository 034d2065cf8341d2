//! `SourceCoordinator.WatermarkAggregator`: the minimum over the latest value per key (a
//! subtask index, or a source's name in the group store); `Long.MIN_VALUE` while empty.

use crate::engine::time::EventTime;
use std::collections::BTreeMap;

#[derive(Clone, Debug, Default)]
pub struct WatermarkAggregator<K: Ord> {
    latest: BTreeMap<K, EventTime>,
}

impl<K: Ord> WatermarkAggregator<K> {
    /// Records `key`'s value; returns the new aggregate.
    pub fn aggregate(&mut self, key: K, w: EventTime) -> EventTime {
        self.latest.insert(key, w);
        self.current()
    }

    pub fn current(&self) -> EventTime {
        self.latest.values().copied().min().unwrap_or(EventTime::MIN)
    }

    pub fn contains(&self, key: &K) -> bool {
        self.latest.contains_key(key)
    }

    pub fn keys(&self) -> impl Iterator<Item = &K> {
        self.latest.keys()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// V-AL-4 (`SourceCoordinatorAlignmentTest#testWatermarkAggregator`).
    #[test]
    fn v_al_4_min_over_latest_per_key() {
        let mut a = WatermarkAggregator::default();
        let steps = [(0, 10, 10), (1, 12, 10), (2, 13, 10), (1, 9, 9), (1, i64::MAX, 10), (1, 8, 8), (1, 20, 10), (0, 23, 13), (2, 22, 20)];
        for (k, w, want) in steps {
            assert_eq!(a.aggregate(k, EventTime(w)), EventTime(want), "after ({k}, {w})");
        }
    }
}
