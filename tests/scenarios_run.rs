//! Every example scenario under `tests/scenarios/` parses, runs, and shows what its
//! description promises.

use serde_json::Value;
use wmp::engine::report::report;
use wmp::engine::scenario::build::parse;

fn run(name: &str) -> Value {
    let path = format!("{}/tests/scenarios/{name}", env!("CARGO_MANIFEST_DIR"));
    let sc = parse(&std::fs::read_to_string(&path).unwrap()).unwrap_or_else(|e| panic!("{name}: {e}"));
    report(&sc.name, &sc.run().unwrap_or_else(|e| panic!("{name}: {e}")), false)
}

fn fired(r: &Value) -> usize {
    r["windows"].as_array().unwrap().len()
}

#[test]
fn every_example_runs() {
    for e in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/scenarios")).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().to_string();
        if name.ends_with(".json") && !name.starts_with("seed_001") {
            run(&name);
        }
    }
}

#[test]
fn empty_partition_fires_only_after_idleness_is_enabled() {
    let r = run("empty_partition.json");
    let first = r["windows"][0]["time"].as_i64().expect("windows fire after the fix");
    assert!(first - wmp::engine::scenario::schema::DEFAULT_START_MS > 60_000);
}

#[test]
fn more_subtasks_than_partitions_never_fires() {
    assert_eq!(fired(&run("more_subtasks_than_partitions.json")), 0);
}

#[test]
fn clamped_outlier_makes_nothing_late() {
    let r = run("far_future_outlier_clamped.json");
    assert!(fired(&r) > 5);
    assert_eq!(r["late"].as_array().unwrap().len(), 0);
}

#[test]
fn lateness_refires_and_side_outputs() {
    let r = run("late_data_allowed_lateness.json");
    assert!(r["windows"].as_array().unwrap().iter().any(|w| w["firing"].as_u64() > Some(0)));
    assert!(r["lateRecordsSideOutput"].as_u64() > Some(0));
}

#[test]
fn seconds_as_millis_puts_windows_in_1970() {
    let r = run("seconds_read_as_millis.json");
    for w in r["windows"].as_array().unwrap() {
        assert!(w["window_end"].as_i64().unwrap() < 10_000_000_000);
    }
}

#[test]
fn heartbeat_holds_until_filtered() {
    let r = run("heartbeat_defeats_idle_timeout.json");
    let start = wmp::engine::scenario::schema::DEFAULT_START_MS;
    let delays: Vec<(i64, i64)> = r["windows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| (w["window_end"].as_i64().unwrap() - start, w["time"].as_i64().unwrap() - w["window_end"].as_i64().unwrap()))
        .collect();
    assert!(delays.iter().any(|&(e, d)| e < 290_000 && d > 15_000), "held back by the heartbeat");
    assert!(delays.iter().filter(|&&(e, _)| e > 400_000).all(|&(_, d)| d < 3_000), "prompt after the filter");
}

#[test]
fn interval_join_emits_pairs_but_the_quiet_side_holds_its_watermark() {
    let r = run("interval_join_quiet_side.json");
    assert!(r["joins_total"].as_u64().unwrap() > 100, "pairs are emitted as they match");
    let d = &r["diagnosis"];
    assert!(d["explanation"]["text"].as_str().unwrap().contains("second input (payments) holds it"), "{}", d["explanation"]["text"]);
    let wm = r["metrics"]["window"][0]["currentInputWatermark"].as_i64().unwrap();
    let start = 1_767_225_600_000i64;
    assert!(wm < start + 11_000, "held near where payments stopped: {wm}");
    assert!(r["metrics"]["window"][0]["currentInput1Watermark"].as_i64().unwrap() > start + 25_000, "orders are ahead");
}

/// The playground's check of the alignment marks: at 16 s split alignment pauses the live
/// partition 2 beside the history, and source subtask 0 (both splits live) waits for alignment.
#[test]
fn aligned_backfill_pauses_a_split_and_makes_a_subtask_wait() {
    let path = format!("{}/tests/scenarios/aligned_backfill.json", env!("CARGO_MANIFEST_DIR"));
    let mut sim = parse(&std::fs::read_to_string(path).unwrap()).unwrap().build().unwrap();
    sim.run_until(sim.config().start_time + 16_000).unwrap();
    let snap = sim.snapshot();
    assert!(snap.splits[2].paused && snap.splits[2].subtask == Some(1), "{:?}", snap.splits[2]);
    assert!(snap.sources[0].alignment.as_ref().is_some_and(|a| a.waiting), "{:?}", snap.sources[0].alignment);
}
