//! Throughput benchmark: the seed-001 topology at full rate — 45,000 records/s over 15 busy
//! partitions plus the heartbeat partition, parallelism 8, 1-minute windows, 1,000 keys — for
//! 3 simulated hours (486 M records). Prints records/s and peak resident memory.
//!
//! `cargo bench --bench seed_001 [-- MINUTES]` (default 180). Not a test: no assertion on time.

use std::time::Instant;
use wmp::engine::scenario::build::parse;

fn peak_rss_kib() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn main() {
    let minutes: i64 = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(180);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/scenarios/seed_001_heartbeat.json");
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    v["duration_ms"] = (minutes * 60_000).into();
    v["producers"][0]["rate_per_s"] = 3000.into();
    v["producers"][0]["keys"]["count"] = 1000.into();
    if std::env::args().any(|a| a == "--idle") {
        v["source"]["watermark"]["idle_timeout_ms"] = 60_000.into();
    }
    v["trace"] = serde_json::json!({"capacity": 10000, "records": false, "late_records_retained": 1000, "window_results_retained": 10000});
    let sc = parse(&v.to_string()).expect("valid scenario");
    let rss_before = peak_rss_kib();
    let t0 = Instant::now();
    let sim = sc.run().expect("runs");
    let secs = t0.elapsed().as_secs_f64();
    let records: u64 = sim.partitions().iter().map(|p| p.produced).sum();
    let m = sim.metrics();
    let state: usize = m.window.iter().map(|w| w.window_state_size).sum();
    println!("seed_001 full rate: {minutes} simulated min, {records} records in {secs:.2} s");
    println!("throughput: {:.2} M records/s (one core)", records as f64 / secs / 1e6);
    println!("windows fired: {}, window state now: {state} (keys x open windows)", sim.downstream().sink.total());
    if let (Some(a), Some(b)) = (rss_before, peak_rss_kib()) {
        println!("peak RSS: {:.1} MiB (before run {:.1} MiB)", b as f64 / 1024.0, a as f64 / 1024.0);
    }
    println!("trace hash: {}", sim.trace().hash_hex());
}
