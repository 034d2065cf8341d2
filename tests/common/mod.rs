//! Shared proptest settings for the property tests (`tests/property_*.rs`): deterministic
//! (fixed seed, no failure persistence), so a failure reproduces and prints the minimal
//! shrunk input, which then belongs in a plain regression test next to the vectors.

use proptest::test_runner::{Config as ProptestConfig, RngSeed};

pub fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(0x5EED_0FF1_CE00),
        max_shrink_iters: 2048,
        ..ProptestConfig::default()
    }
}
