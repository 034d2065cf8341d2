//! The JS API's objects are the engine's views serialized; these tests pin the shapes the API
//! documents (docs/API.md, wmp.d.ts), natively, where the browser tests cannot run.

use super::results::{LateRecordView, WindowEmission};
use crate::engine::scenario::{build, catalog};
use crate::engine::sim::Simulation;
use crate::engine::snapshot::SnapshotOptions;
use serde::Serialize;
use serde_json::{json, Value};

fn late_data() -> Simulation {
    build::parse(include_str!("../../../tests/scenarios/late_data_allowed_lateness.json")).unwrap().run().unwrap()
}

fn keys(v: &Value) -> Vec<&str> {
    let mut k: Vec<&str> = v.as_object().expect("an object").keys().map(String::as_str).collect();
    k.sort_unstable();
    k
}

fn sorted<'a>(k: &[&'a str]) -> Vec<&'a str> {
    let mut k = k.to_vec();
    k.sort_unstable();
    k
}

fn json<T: Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap()
}

#[test]
fn the_snapshot_is_the_api_snapshot() {
    let sim = late_data();
    let s = json(&sim.snapshot_with(SnapshotOptions { open_windows: 3, metrics: true, finished: true }));
    let top = [
        "now",
        "elapsedMs",
        "startTime",
        "started",
        "finished",
        "splits",
        "sources",
        "operators",
        "job",
        "windowsFired",
        "joinsEmitted",
        "lateRecords",
        "traceCursor",
        "traceHash",
        "sinkMode",
        "metrics",
        "run",
    ];
    assert_eq!(keys(&s), sorted(&top));
    assert_eq!(s["finished"], json!(true));
    let split = [
        "partition",
        "input",
        "partitionInTopic",
        "subtask",
        "produced",
        "read",
        "unread",
        "maxTimestamp",
        "watermark",
        "idle",
        "idleDeadline",
        "lastRecordAt",
        "released",
        "silent",
        "paused",
        "atItsEnd",
    ];
    assert_eq!(keys(&s["splits"][0]), sorted(&split));
    assert_eq!(keys(&s["splits"][0]["watermark"]), ["ms", "raw"]);
    assert_eq!(
        keys(&s["sources"][0]),
        sorted(&[
            "subtask",
            "input",
            "subtaskInSource",
            "midstream",
            "partitions",
            "combinedWatermark",
            "outputWatermark",
            "idle",
            "mainOutputIdle",
            "backPressured",
            "backPressureLevel",
            "alignment",
            "taskManager"
        ])
    );
    let op = [
        "subtask",
        "inputWatermark",
        "outputWatermark",
        "idle",
        "channels",
        "inputs",
        "joinBuffered",
        "windowStateSize",
        "openWindows",
        "openWindowCount",
        "stateEntries",
        "stateBytes",
        "taskManager",
    ];
    assert_eq!(keys(&s["operators"][0]), sorted(&op));
    // End of input: Long.MAX_VALUE has no number, only its exact text.
    assert_eq!(s["operators"][0]["inputWatermark"], json!({"ms": null, "raw": i64::MAX.to_string()}));
    assert_eq!(
        keys(&s["operators"][0]["channels"][0]),
        sorted(&["input", "channel", "sourceSubtask", "watermark", "status", "aligned", "isMin", "bufferedRecords"])
    );
    assert_eq!(s["operators"][0]["channels"][0]["status"], json!("ACTIVE"));
    assert_eq!(keys(&s["metrics"]), ["job", "now", "source", "window"]);
    assert_eq!(keys(&s["metrics"]["job"]), sorted(&["numRestarts", "numberOfCompletedCheckpoints", "lastCheckpointRestoreTimestamp"]));
    let run = [
        "status",
        "attempt",
        "restarts",
        "checkpointIntervalMs",
        "checkpointsCompleted",
        "lastCheckpoint",
        "failedAt",
        "failure",
        "restartingUntil",
        "restoredAt",
        "restoredFrom",
        "recordsReplayed",
        "resultsDuplicated",
        "taskManagers",
    ];
    assert_eq!(keys(&s["run"]), sorted(&run));
    assert_eq!(s["run"]["status"], json!("RUNNING"));
    assert_eq!(keys(&s["run"]["taskManagers"][0]), sorted(&["index", "usedBytes", "limitBytes", "keyedSubtasks"]));
    let h = json(&sim.state_size_history());
    assert_eq!(keys(&h), sorted(&["intervalMs", "bytesPerEntry", "limitBytes", "taskManagerOf", "samples"]));
    assert_eq!(keys(&h["samples"][0]), ["entries", "time"]);
    assert!(s["metrics"]["window"][0]["currentInputWatermark"]["raw"].is_string());
    assert!(s["metrics"]["source"][0]["currentOutputWatermark"]["raw"].is_string());
    assert!(s["metrics"]["window"][0]["numLateRecordsSideOutput"].as_u64().unwrap() > 0);

    let cheap = json(&sim.snapshot());
    assert!(cheap.get("metrics").is_none(), "the per-frame snapshot computes no metrics");
    assert_eq!(cheap["operators"][0]["openWindows"], json!([]));
}

#[test]
fn results_late_records_and_trace_events_name_their_keys() {
    let sim = late_data();
    let d = sim.downstream();
    let (i, r) = d.sink.since(0).next().unwrap();
    let w = json(&WindowEmission::new(i, r, sim.keys(), sim.config().aggregate));
    assert_eq!(
        keys(&w),
        sorted(&[
            "index",
            "subtask",
            "key",
            "start",
            "end",
            "value",
            "count",
            "sum",
            "min",
            "max",
            "watermark",
            "firing",
            "firingKind",
            "time"
        ])
    );
    assert!(w["key"].is_string() && w["watermark"]["ms"].is_number());
    let l = json(&LateRecordView::new(d.late.iter().next().unwrap(), sim.keys()));
    assert_eq!(keys(&l), sorted(&["subtask", "partition", "offset", "ts", "key", "value", "watermark", "sideOutput", "time"]));

    let batch = json(&sim.event_batch(0));
    assert_eq!(keys(&batch), ["cursor", "events", "lost"]);
    let events = batch["events"].as_array().unwrap();
    let late = events.iter().find(|e| e["kind"] == "late_record").unwrap();
    assert_eq!(keys(late), sorted(&["seq", "time", "kind", "subtask", "partition", "offset", "ts", "key", "watermark", "sideOutput"]));
    assert!(late["key"].is_string());
    let cmd = events.iter().find(|e| e["kind"] == "command").unwrap();
    assert_eq!(cmd["command"], json!({"command": "end_of_input"}), "a command is its JSON object");
}

#[test]
fn explanations_metrics_and_presets_are_camel_case() {
    // Past the first second, when a split that never received a record is judged empty.
    let mut sim = build::parse(catalog::preset("empty-partition").unwrap().json).unwrap().build().unwrap();
    sim.run_until(sim.cfg.start_time + 1_001).unwrap();
    let e = json(&sim.explain(0).unwrap());
    assert_eq!(keys(&e), sorted(&["subtask", "watermark", "heldBy", "reasons", "waitingWindows", "waitingTotal", "text"]));
    assert_eq!(e["watermark"], json!({"ms": null, "raw": i64::MIN.to_string()}));
    assert_eq!(keys(&e["heldBy"]), sorted(&["input", "channel", "sourceSubtask", "partition"]));
    assert_eq!(e["reasons"][0], json!({"kind": "split_never_received", "partition": 3, "idleTimeoutMs": null}));
    assert_eq!(keys(&json(&sim.metrics().window[0])).len(), 17);
    let p = json(&catalog::presets()[0]);
    assert_eq!(keys(&p), sorted(&["id", "title", "summary", "lookAt", "tryThis", "source"]), "without its scenario");
}

#[test]
fn listener_payloads_name_their_level() {
    use super::notify::{Level, StatusEvent, StepEvent, WatermarkEvent};
    use crate::engine::time::{EventTime, ProcTime};
    let w =
        json(&WatermarkEvent { seq: 1, time: ProcTime(5), level: Level::Split, subtask: 0, partition: Some(3), watermark: EventTime(7) });
    assert_eq!(w, json!({"seq": 1, "time": 5, "level": "split", "subtask": 0, "partition": 3, "watermark": {"ms": 7, "raw": "7"}}));
    let s = json(&StatusEvent { seq: 2, time: ProcTime(5), level: Level::Operator, subtask: 1, partition: None });
    assert_eq!(s, json!({"seq": 2, "time": 5, "level": "operator", "subtask": 1, "partition": null}));
    assert_eq!(json(&StepEvent { now: ProcTime(9), elapsed_ms: -1 }), json!({"now": 9, "elapsedMs": -1}));
}
