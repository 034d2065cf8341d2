//! Pinned trace hashes. `tests/web.rs` checks the same constants in wasm (headless Chromium),
//! so a scenario gives the same trace natively and in the browser. When an intended engine
//! change alters a trace, update both files together.

/// `tests/scenarios/late_data_allowed_lateness.json` (seeded jitter, lateness, side output).
pub const LATE_DATA_HASH: &str = "7a49dde43eac7d3d";
/// `tests/golden/oracle/scenarios/06_session_merge_lateness.json` through the oracle runner.
pub const ORACLE_06_HASH: &str = "a4cd1703637a93e0";

#[test]
fn native_trace_hashes_are_pinned() {
    let late = include_str!("scenarios/late_data_allowed_lateness.json");
    let sim = wmp::engine::scenario::build::parse(late).unwrap().run().unwrap();
    assert_eq!(sim.trace().hash_hex(), LATE_DATA_HASH);
    let o = wmp::engine::scenario::oracle::parse(include_str!("golden/oracle/scenarios/06_session_merge_lateness.json")).unwrap();
    assert_eq!(o.run().unwrap().trace().hash_hex(), ORACLE_06_HASH);
}
