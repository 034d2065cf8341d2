//! How records travel from source subtasks to window-operator subtasks: forward, rebalance
//! or hash (`keyBy`), the last with Flink's exact key-group routing
//! (`KeyGroupRangeAssignment`: murmur hash of `key.hashCode()` modulo max parallelism, then
//! `keyGroup * parallelism / maxParallelism`).

use super::keys::java_string_hash;
use serde::{Deserialize, Serialize};

/// The exchange between the source and the window operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Exchange {
    /// Subtask i to subtask i (needs equal parallelism): one input channel per window subtask.
    Forward,
    /// Round robin over all downstream subtasks, starting at a seeded random channel.
    Rebalance,
    /// `keyBy`: Flink's key-group routing.
    Hash,
}

/// Flink's default max parallelism for a given operator parallelism
/// (`KeyGroupRangeAssignment.computeDefaultMaxParallelism`).
pub fn default_max_parallelism(parallelism: u32) -> u32 {
    let p = parallelism as u64;
    let wanted = (p + p / 2).next_power_of_two();
    wanted.clamp(128, 32_768) as u32
}

/// Flink's `MathUtils.murmurHash(int)`: Java `int` arithmetic, so bits are reinterpreted
/// between `i32` and `u32` (`cast_signed`/`cast_unsigned`), never converted.
pub fn murmur_hash(code: i32) -> i32 {
    let mut c = code.wrapping_mul(0xcc9e_2d51u32.cast_signed());
    c = c.rotate_left(15);
    c = c.wrapping_mul(0x1b87_3593);
    c = c.rotate_left(13);
    c = c.wrapping_mul(5).wrapping_add(0xe654_6b64u32.cast_signed());
    c ^= 4;
    c = bit_mix(c);
    if c >= 0 {
        c
    } else if c != i32::MIN {
        -c
    } else {
        0
    }
}

fn bit_mix(mut x: i32) -> i32 {
    x ^= (x.cast_unsigned() >> 16).cast_signed();
    x = x.wrapping_mul(0x85eb_ca6bu32.cast_signed());
    x ^= (x.cast_unsigned() >> 13).cast_signed();
    x = x.wrapping_mul(0xc2b2_ae35u32.cast_signed());
    x ^= (x.cast_unsigned() >> 16).cast_signed();
    x
}

/// The window-operator subtask that owns a string key under `keyBy`.
pub fn key_to_subtask(key: &str, parallelism: u32, max_parallelism: u32) -> u32 {
    let key_group = murmur_hash(java_string_hash(key)).cast_unsigned() % max_parallelism;
    (key_group as u64 * parallelism as u64 / max_parallelism as u64) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_parallelism_defaults() {
        assert_eq!(default_max_parallelism(1), 128);
        assert_eq!(default_max_parallelism(8), 128);
        assert_eq!(default_max_parallelism(100), 256);
    }

    #[test]
    fn routing_is_in_range_and_spreads() {
        let mut seen = [0u32; 8];
        for i in 0..1000 {
            let s = key_to_subtask(&format!("user-{i}"), 8, 128);
            seen[s as usize] += 1;
        }
        assert!(seen.iter().all(|&n| n > 60), "{seen:?}");
    }
}
