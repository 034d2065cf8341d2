//! Scenarios built and run for a test: parsed, built into a simulation and run to a time
//! relative to the start, each step expected to succeed.

use wmp::engine::scenario::build::parse;
use wmp::engine::sim::Simulation;

/// The scenario `json`, run to `run_ms` after its start.
pub fn sim(json: &str, run_ms: i64) -> Simulation {
    let mut s = parse(json).expect("valid scenario").build().expect("builds");
    s.run_until(s.config().start_time + run_ms).expect("runs");
    s
}
