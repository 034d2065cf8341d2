//! Pinned trace hashes, checked natively. The constants live in `tests/pinned/hashes.rs`, which
//! `tests/web.rs` includes too and checks in wasm (headless Chromium), so a scenario gives the
//! same trace natively and in the browser.

#[path = "pinned/hashes.rs"]
mod pinned;

use pinned::{LATE_DATA_HASH, ORACLE_06_HASH};

#[test]
fn native_trace_hashes_are_pinned() {
    let late = include_str!("scenarios/late_data_allowed_lateness.json");
    let sim = wmp::engine::scenario::build::parse(late).unwrap().run().unwrap();
    assert_eq!(sim.trace().hash_hex(), LATE_DATA_HASH);
    let o = wmp::engine::scenario::oracle::parse(include_str!("golden/oracle/scenarios/06_session_merge_lateness.json")).unwrap();
    assert_eq!(o.run().unwrap().trace().hash_hex(), ORACLE_06_HASH);
}
