//! The Kafka fetcher's order (`docs/FLOW.md`): one fetch asks every assigned,
//! unpaused partition for up to `max.partition.fetch.bytes`, and the reader emits the returned
//! batches partition after partition. A reader that cannot keep up therefore moves through its
//! partitions in rounds of one batch each, not one partition to the end before the next.

use std::collections::VecDeque;

/// `max.partition.fetch.bytes` (1 MiB) over records of about 100 bytes.
pub const DEFAULT_FETCH_RECORDS_PER_PARTITION: u64 = 10_485;

#[derive(Clone, Debug, Default)]
pub struct Fetcher {
    /// The current fetch: (split index, records left of its batch), in emission order.
    batches: VecDeque<(usize, u64)>,
}

impl Fetcher {
    /// The batch to read next as (split index, records left), fetching a new round when the last
    /// one is used up. `backlog(i)` is split i's readable backlog (0: released, paused or empty).
    pub fn next(&mut self, splits: usize, per_partition: u64, backlog: impl Fn(usize) -> u64) -> Option<(usize, u64)> {
        while let Some(&(i, left)) = self.batches.front() {
            if left > 0 && backlog(i) > 0 {
                return Some((i, left));
            }
            // A paused or released partition's buffered batch is dropped and fetched again later.
            self.batches.pop_front();
        }
        self.batches = (0..splits).filter_map(|i| Some((i, backlog(i).min(per_partition))).filter(|b| b.1 > 0)).collect();
        self.batches.front().copied()
    }

    /// `n` records of the front batch were emitted.
    pub fn consumed(&mut self, n: u64) {
        if let Some(front) = self.batches.front_mut() {
            front.1 -= n.min(front.1);
        }
    }

    /// Forgets the current fetch (a restart, a reassignment).
    pub fn clear(&mut self) {
        self.batches.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_of_one_batch_per_partition() {
        let backlog = [25u64, 5, 0];
        let mut f = Fetcher::default();
        let mut order = Vec::new();
        let mut left = backlog;
        while let Some((i, n)) = f.next(3, 10, |i| left[i]) {
            left[i] -= n.min(left[i]);
            f.consumed(n);
            order.push((i, n));
        }
        assert_eq!(order, vec![(0, 10), (1, 5), (0, 10), (0, 5)]);
    }
}
