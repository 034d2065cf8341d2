//! The seed-001 case (`../shared/seeds/001_*.txt`): 16 partitions, parallelism 8, partition 11
//! receives one heartbeat every 90 minutes stamped with the current time, 1-minute tumbling
//! windows, bound 5 s. Without an idle timeout windows stall and fire in bursts every 90 min;
//! with a 60 s idle timeout they fire every minute; with the heartbeat retired and idleness
//! off, no window ever fires.

use serde_json::Value;
use wmp::engine::report::report;
use wmp::engine::scenario::build::parse;

const START: i64 = wmp::engine::scenario::schema::DEFAULT_START_MS;
const MIN: i64 = 60_000;

fn run(edit: impl FnOnce(&mut Value)) -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/scenarios/seed_001_heartbeat.json");
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    edit(&mut v);
    let sc = parse(&v.to_string()).expect("valid");
    let sim = sc.run().expect("runs");
    report(&sc.name, &sim, false)
}

/// Distinct processing times (seconds since start) at which windows fired.
fn firing_seconds(r: &Value) -> Vec<i64> {
    let mut t: Vec<i64> = r["windows"].as_array().unwrap().iter().map(|w| (w["time"].as_i64().unwrap() - START) / 1000).collect();
    t.dedup();
    t
}

#[test]
fn without_idleness_windows_fire_in_bursts_every_90_minutes() {
    let r = run(|_| {});
    assert_eq!(firing_seconds(&r), vec![90 * 60, 180 * 60]);
    let first_burst: std::collections::BTreeSet<i64> = r["windows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["time"].as_i64().unwrap() - START == 90 * MIN)
        .map(|w| w["window_start"].as_i64().unwrap())
        .collect();
    assert!(first_burst.len() >= 85, "one burst releases ~89 minutes of windows, got {}", first_burst.len());
}

#[test]
fn with_60s_idle_timeout_windows_fire_every_minute() {
    let r = run(|v| v["source"]["watermark"]["idle_timeout_ms"] = 60_000.into());
    let windows = r["windows"].as_array().unwrap();
    let (mut normal, mut after_heartbeat) = (Vec::new(), Vec::new());
    for w in windows {
        let end = w["window_end"].as_i64().unwrap() - START;
        let delay = w["time"].as_i64().unwrap() - START - end;
        if end > 3 * MIN {
            // The heartbeat at 90 min re-activates partition 11 for one more idle timeout,
            // holding the watermark at the heartbeat's time for that minute.
            if (90 * MIN..=92 * MIN).contains(&end) {
                after_heartbeat.push(delay)
            } else {
                normal.push(delay)
            }
        }
    }
    // Fired within bound (5 s) + jitter (2 s) + one interval of the window end, never an hour.
    assert!(normal.iter().all(|&d| (5_000..=7_500).contains(&d)), "{:?}", normal.iter().max());
    assert!(after_heartbeat.iter().any(|&d| d > 55_000), "the heartbeat costs one idle timeout");
    assert!(after_heartbeat.iter().all(|&d| d <= 61_000 + 5_000 + 2_000));
    let minutes: std::collections::BTreeSet<i64> = windows.iter().map(|w| w["window_start"].as_i64().unwrap()).collect();
    assert!(minutes.len() >= 175, "about one window per minute for 3 h, got {}", minutes.len());
}

#[test]
fn retiring_the_heartbeat_without_idleness_freezes_event_time() {
    let r = run(|v| {
        v["producers"].as_array_mut().unwrap().pop();
    });
    assert_eq!(r["windows"].as_array().unwrap().len(), 0);
    for m in r["metrics"]["window"].as_array().unwrap() {
        assert_eq!(m["currentInputWatermark"].as_i64(), Some(i64::MIN), "No Watermark everywhere");
    }
}
