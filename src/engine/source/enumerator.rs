//! Split assignment as Flink's `KafkaSourceEnumerator` does it: partition `p` of topic `t` goes to
//! reader `(startIndex + p) % parallelism` with `startIndex = ((t.hashCode() * 31) & 0x7FFFFFFF)
//! % parallelism`. With more readers than partitions some readers own no split.

use crate::engine::keys::java_string_hash;

/// The reader (source subtask) that owns a partition.
pub fn split_owner(topic: &str, partition: u32, parallelism: u32) -> u32 {
    let start = (java_string_hash(topic).wrapping_mul(31) & 0x7FFF_FFFF).cast_unsigned() % parallelism;
    ((start as u64 + partition as u64) % parallelism as u64) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn consecutive_partitions_go_round_robin() {
        let p = 8;
        let owners: Vec<u32> = (0..16).map(|i| split_owner("clickstream", i, p)).collect();
        for i in 0..16 {
            assert_eq!(owners[i], (owners[0] + i as u32) % p);
        }
        let mut counts = [0; 8];
        owners.iter().for_each(|&o| counts[o as usize] += 1);
        assert!(counts.iter().all(|&c| c == 2));
    }

    #[test]
    fn more_readers_than_partitions_leaves_readers_empty() {
        let owners: Vec<u32> = (0..2).map(|i| split_owner("t", i, 4)).collect();
        assert_eq!(owners.len(), 2);
        assert_ne!(owners[0], owners[1]);
    }
}
