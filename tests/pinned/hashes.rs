//! The pinned trace hashes, in one place: `tests/trace_hash.rs` checks them natively and
//! `tests/web.rs` in wasm (headless Chromium), both through
//! `#[path = "pinned/hashes.rs"] mod pinned;`, so a scenario gives the same trace natively and in
//! the browser. When an intended engine change alters a trace, update the constant here.
//! (The Node and end-to-end tests pin no literal: they compare the JS API with `wmp run`.)
#![allow(dead_code)]

/// `tests/scenarios/late_data_allowed_lateness.json` (seeded jitter, lateness, side output).
pub const LATE_DATA_HASH: &str = "7a49dde43eac7d3d";
/// `tests/golden/oracle/scenarios/06_session_merge_lateness.json` through the oracle runner.
pub const ORACLE_06_HASH: &str = "a4cd1703637a93e0";
