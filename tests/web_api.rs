//! The JS API (`src/api/`) in headless Chromium, through the exported Rust methods:
//!   cargo test --target wasm32-unknown-unknown --test web_api --test web_api_events
//! Here: loading, every command and read, their error paths (JS error class and the argument
//! or field path in the message), and that the instance keeps working after each error.
//! `web_api_events.rs` has listeners, replay and `free`; tests/node/ covers the same API
//! through the generated JS glue in Node.js.
#![cfg(target_arch = "wasm32")]

mod api_common;

use api_common::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;
use wmp::api::WatermarkPlayground as Playground;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn loads_from_object_preset_share_string_and_json_text() {
    let p = Playground::new(js(LATE)).unwrap();
    assert_eq!(p.name().unwrap(), "Late data: allowed lateness re-fires, an append sink sees duplicates");
    assert_eq!(p.elapsed_ms().unwrap(), -1.0);
    assert!(!p.started().unwrap());
    assert!(!p.finished().unwrap());
    assert_eq!(p.now().unwrap(), p.start_time().unwrap());

    let presets = Playground::presets().unwrap();
    assert!(len(&presets) >= 1);
    assert_eq!(get(&presets, "0.id").as_string().unwrap(), "seed-001-heartbeat");
    assert!(get(&presets, "0.tryThis").as_string().unwrap().contains("idle"));
    let by_id = Playground::new(JsValue::from_str("seed-001-heartbeat")).unwrap();
    let by_factory = Playground::from_preset(JsValue::from_str("seed-001-heartbeat")).unwrap();
    assert_eq!(by_id.trace_hash().unwrap(), by_factory.trace_hash().unwrap());
    let sc = Playground::preset_scenario(JsValue::from_str("seed-001-heartbeat")).unwrap();
    assert_eq!(num(&sc, "topic.partitions"), 16.0);
    assert_eq!(num(&sc, "source.parallelism"), 8.0);

    let share = p.to_share_string().unwrap();
    assert!(share.starts_with("wmp1."));
    assert!(share.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.'));
    let q = Playground::new(JsValue::from_str(&share)).unwrap();
    let r = Playground::from_share_string(JsValue::from_str(&share)).unwrap();
    let t = Playground::from_scenario(JsValue::from_str(LATE)).unwrap();
    let u = Playground::from_scenario(js(LATE)).unwrap();
    for x in [&q, &r, &t, &u] {
        x.run_to_end().unwrap();
    }
    p.run_to_end().unwrap();
    let h = p.trace_hash().unwrap();
    assert_eq!(h, engine_hash(LATE), "the API runs a scenario exactly as the engine does");
    for x in [&q, &r, &t, &u] {
        assert_eq!(x.trace_hash().unwrap(), h);
    }
}

#[wasm_bindgen_test]
fn bad_scenarios_throw_with_field_paths() {
    expect_err(
        Playground::new(js(r#"{"topic": {"partitions": 1}, "window": {"assigner": {"type": "tumbling", "size_ms": -5}}}"#)),
        "RangeError",
        &["new WatermarkPlayground", "scenario.window.assigner.size_ms", "must be > 0"],
    );
    expect_err(
        Playground::new(js(r#"{"topic": {"partitions": "two"}, "window": {"assigner": {"type": "tumbling", "size_ms": 5}}}"#)),
        "TypeError",
        &["scenario.topic.partitions"],
    );
    expect_err(Playground::new(js(r#"{"topic": {"partitions": 1}, "windw": {}}"#)), "Error", &["windw"]);
    expect_err(Playground::new(JsValue::from_str("no-such-preset")), "RangeError", &["scenario", "seed-001-heartbeat"]);
    expect_err(Playground::new(JsValue::from_f64(3.0)), "TypeError", &["scenario", "the number 3"]);
    expect_err(Playground::new(JsValue::from_str("{not json")), "Error", &["scenario"]);
    expect_err(Playground::from_preset(JsValue::from_str("nope")), "RangeError", &["fromPreset", "id", "nope"]);
    expect_err(Playground::from_preset(JsValue::from_f64(1.0)), "TypeError", &["id"]);
    expect_err(Playground::from_share_string(JsValue::from_str("wmp1.!!!")), "RangeError", &["share", "invalid character"]);
    expect_err(Playground::from_share_string(JsValue::from_str("nope")), "RangeError", &["share", "wmp1."]);
    expect_err(Playground::from_scenario(JsValue::from_f64(1.0)), "TypeError", &["scenario"]);
    expect_err(Playground::preset_scenario(JsValue::from_str("x")), "RangeError", &["id"]);
    // A NaN inside a scenario object names its field (JSON would silently turn it into null).
    let sc = js(SMALL);
    js_sys::Reflect::set(&get(&sc, "source.watermark"), &"idle_timeout_ms".into(), &JsValue::from_f64(f64::NAN)).unwrap();
    expect_err(Playground::new(sc), "RangeError", &["scenario.source.watermark.idle_timeout_ms", "NaN"]);
    // A scripted command that could never run is rejected up front, with its index.
    let bad_cmd = r#"{"topic": {"partitions": 2}, "window": {"assigner": {"type": "tumbling", "size_ms": 1000}},
        "commands": [{"at_ms": 10, "command": "add_partition"}, {"at_ms": 20, "command": "silence", "partition": 3}]}"#;
    expect_err(Playground::new(js(bad_cmd)), "RangeError", &["scenario.commands[1].partition", "no partition 3"]);
    // 64-bit times (BigInts) that would overflow the engine's clock arithmetic are refused.
    let far = js(r#"{"topic": {"partitions": 1}, "window": {"assigner": {"type": "tumbling", "size_ms": 1000}},
        "commands": [{"at_ms": 0, "command": "end_of_input"}]}"#);
    js_sys::Reflect::set(&get(&far, "commands.0"), &"at_ms".into(), &JsValue::from(js_sys::BigInt::from(i64::MAX))).unwrap();
    expect_err(Playground::new(far), "RangeError", &["scenario.commands[0].at_ms", "2^53"]);
    let late_start = js(r#"{"topic": {"partitions": 1}, "window": {"assigner": {"type": "tumbling", "size_ms": 1000}},
        "producers": [{"partitions": 0, "kind": "steady", "rate_per_s": 1}]}"#);
    js_sys::Reflect::set(&get(&late_start, "producers.0"), &"start_ms".into(), &JsValue::from(js_sys::BigInt::from(1i64 << 62))).unwrap();
    expect_err(Playground::new(late_start), "RangeError", &["scenario.producers[0].start_ms"]);
}

#[wasm_bindgen_test]
fn describe_watermark_names_the_sentinels() {
    let d = |v: JsValue| Playground::describe_watermark(v).unwrap();
    assert_eq!(d(JsValue::from_str("-9223372036854775808")), "No Watermark");
    assert!(d(JsValue::from_str("9223372036854775807")).contains("end of input"));
    assert_eq!(d(JsValue::from_f64(0.0)), "1970-01-01 00:00:00.000");
    assert_eq!(d(js(r#"{"ms": 1767225600000, "raw": "1767225600000"}"#)), "2026-01-01 00:00:00.000");
    assert_eq!(d(JsValue::from(i64::MIN)), "No Watermark");
    expect_err(Playground::describe_watermark(JsValue::from_str("x")), "RangeError", &["watermark"]);
}

#[wasm_bindgen_test]
fn time_methods_move_the_clock() {
    let p = small();
    assert_eq!(p.step().unwrap().as_f64(), Some(0.0));
    assert!(p.started().unwrap());
    p.run_until(JsValue::from(5000)).unwrap();
    assert_eq!(p.elapsed_ms().unwrap(), 5000.0);
    p.run_for(JsValue::from(5000)).unwrap();
    assert_eq!(p.elapsed_ms().unwrap(), 10000.0);
    p.run_until(JsValue::from(js_sys::BigInt::from(12000))).unwrap();
    assert_eq!(p.elapsed_ms().unwrap(), 12000.0);
    assert_eq!(p.now().unwrap(), p.start_time().unwrap() + 12000.0);
    assert!(p.step_to_next_interesting(JsValue::UNDEFINED).unwrap());
    let t = p.elapsed_ms().unwrap();
    assert!(t > 12000.0 && t < 13000.0, "{t}");
    assert!(p.step_to_next_interesting(JsValue::from(60_000)).unwrap());
    // Errors: each names the argument; the clock is unchanged.
    let now = p.elapsed_ms().unwrap();
    expect_err(p.run_until(JsValue::from(10)), "RangeError", &["runUntil", "atMs", "in the past"]);
    expect_err(p.run_until(JsValue::from_f64(f64::NAN)), "RangeError", &["atMs", "NaN"]);
    expect_err(p.run_until(JsValue::from_f64(1.5)), "RangeError", &["atMs", "not an integer"]);
    expect_err(p.run_until(JsValue::from_f64(2f64.powi(60))), "RangeError", &["atMs", "2^53"]);
    expect_err(p.run_for(JsValue::from(-1)), "RangeError", &["runFor", "ms", ">= 0"]);
    expect_err(p.run_for(JsValue::from_str("10")), "TypeError", &["ms", "string"]);
    expect_err(p.run_for(JsValue::UNDEFINED), "TypeError", &["ms", "undefined"]);
    expect_err(p.step_to_next_interesting(JsValue::from(0)), "RangeError", &["limitMs"]);
    expect_err(p.step_to_next_interesting(JsValue::from(js_sys::BigInt::from(i64::MAX))), "RangeError", &["limitMs", "BigInt"]);
    assert_eq!(p.elapsed_ms().unwrap(), now);
    still_works(&p);
    // runToEnd = `wmp run`; afterwards (end_of_input) the job is finished.
    let q = Playground::new(js(LATE)).unwrap();
    q.run_to_end().unwrap();
    assert!(q.finished().unwrap());
    assert_eq!(q.trace_hash().unwrap(), engine_hash(LATE));
    expect_err(q.run_for(JsValue::from(1)), "Error", &["finished"]);
    expect_err(q.silence(JsValue::from(0)), "Error", &["finished"]);
    assert!(q.snapshot(JsValue::UNDEFINED).is_ok(), "reads still work");
    // A job that never ends: step() gives null once nothing can happen.
    let empty = Playground::new(js(r#"{"topic": {"partitions": 1}, "window": {"assigner": {"type": "tumbling", "size_ms": 1000}}, "source": {"watermark": {"auto_watermark_interval_ms": 0}}}"#)).unwrap();
    assert_eq!(empty.step().unwrap().as_f64(), Some(0.0));
    assert!(empty.step().unwrap().is_null());
    assert!(!empty.step_to_next_interesting(JsValue::from(1000)).unwrap());
}

#[wasm_bindgen_test]
fn partition_commands_and_their_errors() {
    let p = small();
    p.run_until(JsValue::from(1000)).unwrap();
    assert_eq!(p.add_partition().unwrap(), 2);
    assert_eq!(p.elapsed_ms().unwrap(), 1001.0, "a command runs the next millisecond");
    let s = p.snapshot(JsValue::UNDEFINED).unwrap();
    assert_eq!(len(&get(&s, "splits")), 3);
    p.silence(JsValue::from(0)).unwrap();
    assert!(get(&p.snapshot(JsValue::UNDEFINED).unwrap(), "splits.0.silent").as_bool().unwrap());
    p.resume(JsValue::from(0)).unwrap();
    assert!(!get(&p.snapshot(JsValue::UNDEFINED).unwrap(), "splits.0.silent").as_bool().unwrap());
    p.mark_idle(JsValue::from(1)).unwrap();
    assert!(get(&p.snapshot(JsValue::UNDEFINED).unwrap(), "splits.1.idle").as_bool().unwrap());
    p.mark_active(JsValue::from(1)).unwrap();
    assert!(!get(&p.snapshot(JsValue::UNDEFINED).unwrap(), "splits.1.idle").as_bool().unwrap());
    p.detach(JsValue::from(1)).unwrap();
    p.release_split(JsValue::from(2)).unwrap();
    assert!(get(&p.snapshot(JsValue::UNDEFINED).unwrap(), "splits.2.released").as_bool().unwrap());
    p.remove_partition(JsValue::from(1)).unwrap();
    assert!(get(&p.snapshot(JsValue::UNDEFINED).unwrap(), "splits.1.released").as_bool().unwrap());

    expect_err(p.remove_partition(JsValue::from(99)), "RangeError", &["removePartition", "partition", "no partition 99 (the topic has 3)"]);
    expect_err(p.silence(JsValue::from(-1)), "RangeError", &["silence", "partition"]);
    expect_err(p.resume(JsValue::from_str("0")), "TypeError", &["resume", "partition", "index"]);
    expect_err(p.detach(JsValue::from_f64(0.5)), "RangeError", &["detach", "partition", "integer"]);
    expect_err(p.mark_idle(JsValue::from(2)), "RangeError", &["markIdle", "partition", "already released"]);
    expect_err(p.mark_active(JsValue::from(7)), "RangeError", &["markActive", "no partition 7"]);
    expect_err(p.release_split(JsValue::from(2)), "RangeError", &["releaseSplit", "already released"]);
    expect_err(p.produce(JsValue::from(2), js(r#"{"key": "k"}"#)), "RangeError", &["produce", "partition", "released"]);
    // A removed partition's producers write nothing: commands for them are refused, not recorded.
    expect_err(p.remove_partition(JsValue::from(1)), "RangeError", &["removePartition", "partition", "partition 1 was removed"]);
    expect_err(p.silence(JsValue::from(1)), "RangeError", &["silence", "partition 1 was removed"]);
    expect_err(
        p.attach(js(r#"{"partitions": [0, 1], "kind": "steady", "rate_per_s": 5}"#)),
        "RangeError",
        &["attach", "producer.partitions", "partition 1 was removed"],
    );
    // A fraction is out of a whole number's range, in a record as in an argument.
    expect_err(p.produce(JsValue::from(0), js(r#"{"ts": 1.5}"#)), "RangeError", &["produce", "records.ts", "1.5"]);
    expect_err(p.set_param(JsValue::from_str("bound_ms"), JsValue::from_f64(0.5)), "RangeError", &["setParam", "value"]);
    still_works(&p);
    p.end_of_input().unwrap();
    let s = p.snapshot(JsValue::UNDEFINED).unwrap();
    let max = i64::MAX.to_string();
    assert!((0..2).any(|i| get(&s, &format!("sources.{i}.outputWatermark.raw")).as_string().unwrap() == max));
}

#[wasm_bindgen_test]
fn produce_single_and_bulk_records() {
    let p = small();
    p.run_until(JsValue::from(100)).unwrap();
    let start = p.start_time().unwrap();
    assert_eq!(p.produce(JsValue::from(0), js(&format!(r#"{{"ts": {}, "key": "solo", "value": 5}}"#, start - 30_000.0))).unwrap(), 1);
    let many = js_sys::Array::new();
    for i in 0..100 {
        let r = js(&format!(r#"{{"ts_offset_ms": {}, "key": "bulk"}}"#, -i));
        many.push(&r);
    }
    // A BigInt timestamp is accepted too.
    let big = js_sys::Object::new();
    js_sys::Reflect::set(&big, &"ts".into(), &JsValue::from(js_sys::BigInt::from(start as i64))).unwrap();
    many.push(&big);
    assert_eq!(p.produce(JsValue::from(1), many.into()).unwrap(), 101);
    let s = p.snapshot(JsValue::UNDEFINED).unwrap();
    assert!(num(&s, "splits.1.read") >= 101.0);
    // The solo record is 30 s behind: once the watermark passes its window it is late.
    p.run_until(JsValue::from(60_000)).unwrap();

    expect_err(p.produce(JsValue::from(0), js(r#"{"ts": 1, "ts_offset_ms": 1}"#)), "RangeError", &["produce", "records.ts", "not both"]);
    expect_err(p.produce(JsValue::from(0), js(r#"[{"key": "a"}, {"key": 3}]"#)), "TypeError", &["records[1].key", "invalid type"]);
    expect_err(p.produce(JsValue::from(0), js(r#"[{"key": "a"}, {"kee": "b"}]"#)), "Error", &["records[1]", "kee"]);
    let nan = js_sys::Object::new();
    js_sys::Reflect::set(&nan, &"ts".into(), &JsValue::from_f64(f64::NAN)).unwrap();
    expect_err(p.produce(JsValue::from(0), nan.into()), "RangeError", &["records.ts", "NaN"]);
    let huge = js_sys::Object::new();
    js_sys::Reflect::set(&huge, &"ts".into(), &JsValue::from(js_sys::BigInt::from(i64::MIN))).unwrap();
    expect_err(p.produce(JsValue::from(0), huge.into()), "RangeError", &["records.ts", "2^53"]);
    expect_err(p.produce(JsValue::from(5), js(r#"{"key": "a"}"#)), "RangeError", &["partition", "no partition 5"]);
    expect_err(p.produce(JsValue::from(0), JsValue::UNDEFINED), "TypeError", &["records", "required"]);
    let f = js_sys::Function::new_no_args("return 1");
    expect_err(p.produce(JsValue::from(0), f.into()), "TypeError", &["records", "function"]);
    still_works(&p);
}

#[wasm_bindgen_test]
fn attach_and_detach_generators() {
    let p = small();
    let parts = p.attach(js(r#"{"partitions": "all", "kind": "burst", "every_ms": 1000, "count": 5, "keys": ["burst"]}"#)).unwrap();
    assert_eq!(len(&parts), 2);
    p.attach(js(r#"{"partitions": [1], "kind": "heartbeat", "every_ms": 500, "keys": ["hb"]}"#)).unwrap();
    p.attach(js(r#"{"partitions": 0, "kind": "outlier", "future_ms": 86400000}"#)).unwrap();
    p.attach(js(r#"{"partitions": {"all_except": [0]}, "kind": "steady", "rate_per_s": 100, "jitter_ms": 3000}"#)).unwrap();
    p.run_for(JsValue::from(3000)).unwrap();
    let produced = num(&p.snapshot(JsValue::UNDEFINED).unwrap(), "splits.1.produced");
    assert!(produced > 300.0, "{produced}");
    p.detach(JsValue::from(1)).unwrap();
    p.run_for(JsValue::from(1000)).unwrap();
    assert_eq!(num(&p.snapshot(JsValue::UNDEFINED).unwrap(), "splits.1.produced"), produced);

    expect_err(
        p.attach(js(r#"{"partitions": 9, "kind": "steady", "rate_per_s": 1}"#)),
        "RangeError",
        &["attach", "producer.partitions", "no partition 9"],
    );
    expect_err(
        p.attach(js(r#"{"partitions": 0, "kind": "burst", "every_ms": 0, "count": 1}"#)),
        "RangeError",
        &["producer.every_ms", "> 0"],
    );
    expect_err(
        p.attach(js(r#"{"partitions": 0, "kind": "steady", "rate_per_s": 1, "jitter_ms": -1}"#)),
        "RangeError",
        &["producer.jitter_ms"],
    );
    expect_err(p.attach(js(r#"{"partitions": 0, "kind": "sometimes"}"#)), "Error", &["producer", "sometimes"]);
    expect_err(
        p.attach(js(r#"{"partitions": 0, "kind": "burst", "every_ms": 1, "count": 1000000000000}"#)),
        "RangeError",
        &["producer.count"],
    );
    expect_err(p.attach(JsValue::from_str("steady")), "TypeError", &["producer"]);
    still_works(&p);
}

#[wasm_bindgen_test]
fn set_param_covers_every_parameter() {
    let p = small();
    // Structural parameters: only before the start; the job is rebuilt.
    p.set_param("source_parallelism".into(), JsValue::from(1)).unwrap();
    p.set_param("window_parallelism".into(), JsValue::from(3)).unwrap();
    p.set_param("window".into(), js(r#"{"type": "sliding", "size_ms": 20000, "slide_ms": 10000}"#)).unwrap();
    p.set_param("aggregate".into(), JsValue::from_str("sum")).unwrap();
    let s = p.snapshot(JsValue::UNDEFINED).unwrap();
    assert_eq!(len(&get(&s, "sources")), 1);
    assert_eq!(len(&get(&s, "operators")), 3);
    expect_err(p.set_param("window_parallelism".into(), JsValue::from(0)), "RangeError", &["setParam", "window.parallelism"]);
    expect_err(p.set_param("window".into(), js(r#"{"type": "tumbling", "size_ms": 0}"#)), "RangeError", &["size_ms"]);
    let runtime: [(&str, &str); 11] = [
        ("bound_ms", "2000"),
        ("generator", r#"{"kind": "max_on_silence", "bound_ms": 0, "silence_ms": 60000}"#),
        ("idle_timeout_ms", "30000"),
        ("auto_watermark_interval_ms", "100"),
        ("allowed_lateness_ms", "5000"),
        ("late_side_output", "true"),
        ("sink_mode", r#""upsert""#),
        ("channel_latency_ms", "50"),
        ("read_rate_per_s", "1000"),
        ("max_future_skew_ms", "60000"),
        ("drop_heartbeats", "true"),
    ];
    for (name, value) in runtime {
        p.set_param(name.into(), js(value)).unwrap_or_else(|e| panic!("{name}: {e:?}"));
    }
    p.set_param("idle_timeout_ms".into(), JsValue::NULL).unwrap();
    p.set_param("read_rate_per_s".into(), JsValue::NULL).unwrap();
    assert_eq!(p.elapsed_ms().unwrap(), 12.0, "13 runtime changes, one millisecond each");
    expect_err(
        p.set_param("window".into(), js(r#"{"type": "session", "gap_ms": 1000}"#)),
        "Error",
        &["setParam", "name", "before the job starts"],
    );
    expect_err(p.set_param("bound_ms".into(), JsValue::from(-1)), "RangeError", &["setParam", "value", ">= 0"]);
    expect_err(p.set_param("idle_timeout_ms".into(), JsValue::from(0)), "RangeError", &["value", "idle timeout"]);
    expect_err(p.set_param("auto_watermark_interval_ms".into(), JsValue::from(-5)), "RangeError", &["value", "interval"]);
    expect_err(p.set_param("channel_latency_ms".into(), JsValue::from(-5)), "RangeError", &["value"]);
    expect_err(p.set_param("allowed_lateness_ms".into(), JsValue::from(-5)), "RangeError", &["value"]);
    expect_err(p.set_param("read_rate_per_s".into(), JsValue::from(0)), "RangeError", &["value", "read rate"]);
    expect_err(
        p.set_param("generator".into(), js(r#"{"kind": "max_on_silence", "bound_ms": 0, "silence_ms": 0}"#)),
        "RangeError",
        &["value.silence_ms"],
    );
    expect_err(p.set_param("late_side_output".into(), JsValue::from(1)), "TypeError", &["value", "invalid type"]);
    expect_err(p.set_param("sink_mode".into(), JsValue::from_str("sideways")), "Error", &["value", "sideways"]);
    expect_err(p.set_param("bound".into(), JsValue::from(1)), "RangeError", &["name", "unknown parameter", "bound_ms"]);
    expect_err(p.set_param(JsValue::from(1), JsValue::from(1)), "TypeError", &["name"]);
    expect_err(p.set_param("bound_ms".into(), JsValue::UNDEFINED), "TypeError", &["value", "required"]);
    expect_err(p.set_param("bound_ms".into(), JsValue::from_f64(f64::INFINITY)), "RangeError", &["value", "Infinity"]);
    still_works(&p);
}

#[wasm_bindgen_test]
fn apply_and_schedule_engine_commands() {
    let p = small();
    p.apply(js(r#"[{"command": "add_partition"}, {"command": "silence", "partition": 2}]"#)).unwrap();
    assert_eq!(p.elapsed_ms().unwrap(), 0.0, "a batch runs in one millisecond");
    p.apply(js(r#"{"command": "produce", "partition": 2, "records": [{"key": "x"}]}"#)).unwrap();
    // Not on a 200 ms periodic-emission instant: the emission would mark the split active again.
    p.schedule(JsValue::from(5001), js(r#"{"command": "mark_split_idle", "partition": 2}"#)).unwrap();
    p.run_until(JsValue::from(5001)).unwrap();
    assert!(get(&p.snapshot(JsValue::UNDEFINED).unwrap(), "splits.2.idle").as_bool().unwrap());

    expect_err(
        p.apply(js(r#"[{"command": "add_partition"}, {"command": "silence", "partition": 9}]"#)),
        "RangeError",
        &["apply", "commands[1].partition", "no partition 9"],
    );
    expect_err(p.apply(js(r#"{"command": "explode"}"#)), "Error", &["apply", "commands", "explode"]);
    expect_err(
        p.apply(js(r#"{"command": "set_param", "param": {"name": "bound_ms", "value": -3}}"#)),
        "RangeError",
        &["commands.param.value"],
    );
    expect_err(
        p.schedule(JsValue::from(10), js(r#"{"command": "end_of_input"}"#)),
        "RangeError",
        &["schedule", "atMs", "not in the future"],
    );
    // A command that would break an already scheduled one is refused.
    p.schedule(JsValue::from(9000), js(r#"{"command": "mark_split_active", "partition": 2}"#)).unwrap();
    expect_err(p.release_split(JsValue::from(2)), "Error", &["releaseSplit", "scheduled", "(at 9000 ms)"]);
    assert!(p.snapshot(JsValue::UNDEFINED).unwrap().is_object());
    p.run_until(JsValue::from(9000)).unwrap();
    assert!(!get(&p.snapshot(JsValue::UNDEFINED).unwrap(), "splits.2.idle").as_bool().unwrap());
    still_works(&p);
}

#[wasm_bindgen_test]
fn reads_have_the_documented_shapes() {
    let p = Playground::new(js(LATE)).unwrap();
    p.run_until(JsValue::from(40_000)).unwrap();
    let s = p.snapshot(js(r#"{"openWindows": 2}"#)).unwrap();
    assert_eq!(num(&s, "elapsedMs"), 40_000.0);
    assert_eq!(get(&s, "traceHash").as_string().unwrap(), p.trace_hash().unwrap());
    assert!(get(&s, "operators.0.channels.0.status").as_string().unwrap() == "ACTIVE");
    assert!(get(&s, "operators.0.channels.0.aligned").as_bool().is_some());
    assert!(len(&get(&s, "operators.0.openWindows")) <= 2);
    assert!(num(&s, "operators.0.openWindowCount") >= 1.0);
    let wm = get(&s, "operators.0.inputWatermark");
    assert_eq!(num(&wm, "ms").to_string(), get(&wm, "raw").as_string().unwrap());
    assert!(get(&s, "metrics.window.0.numLateRecordsDropped").as_f64().is_some());
    expect_err(p.snapshot(js(r#"{"open": 1}"#)), "Error", &["snapshot", "options", "open"]);

    let w = p.windows(JsValue::UNDEFINED).unwrap();
    let n = len(&w);
    assert!(n > 0);
    assert_eq!(num(&w, "0.index"), 0.0);
    assert!(get(&w, "0.key").as_string().is_some());
    assert_eq!(len(&p.windows(JsValue::from(n - 1)).unwrap()), 1);
    assert_eq!(len(&p.windows(JsValue::from(n + 10)).unwrap()), 0);
    expect_err(p.windows(JsValue::from(-1)), "RangeError", &["windows", "from"]);

    let late = p.late_records().unwrap();
    assert!(len(&late) > 0, "the scenario has late records");
    assert!(get(&late, "0.sideOutput").as_bool().unwrap());

    let m = p.metrics().unwrap();
    assert_eq!(len(&get(&m, "source")), 1);
    assert!(get(&m, "window.0.currentInputWatermark.raw").as_string().is_some());
    assert!(num(&m, "source.0.numRecordsOut") > 0.0);

    let rest = p.rest_watermarks("window".into()).unwrap();
    assert_eq!(get(&rest, "0.id").as_string().unwrap(), "0.currentInputWatermark");
    assert_eq!(get(&rest, "0.value").as_string().unwrap(), get(&s, "operators.0.inputWatermark.raw").as_string().unwrap());
    assert_eq!(len(&p.rest_watermarks("source".into()).unwrap()), 0);
    expect_err(p.rest_watermarks("sink".into()), "RangeError", &["restWatermarks", "vertex", "sink"]);
    expect_err(p.rest_watermarks(JsValue::NULL), "TypeError", &["vertex"]);
    let bp = p.rest_back_pressure("source".into()).unwrap();
    assert_eq!(get(&bp, "backpressure-level").as_string().unwrap(), "ok", "no capacity limit: no back-pressure");
    expect_err(p.rest_back_pressure("sink".into()), "RangeError", &["restBackPressure", "vertex", "sink"]);

    // A job whose window operator cannot keep up (issue 13): HIGH, and the views say so.
    let bp = Playground::from_preset(JsValue::from_str("backpressure-never-idle")).unwrap();
    bp.run_until(JsValue::from(60_000)).unwrap();
    let answer = bp.rest_back_pressure("source".into()).unwrap();
    assert_eq!(get(&answer, "backpressure-level").as_string().unwrap(), "high");
    let snap = bp.snapshot(JsValue::UNDEFINED).unwrap();
    assert_eq!(get(&snap, "sources.0.backPressureLevel").as_string().unwrap(), "HIGH");
    assert!(get(&bp.metrics().unwrap(), "source.0.isBackPressured").as_bool().unwrap());

    // A replay that loses its TaskManager: the state history reaches the memory limit.
    let job = Playground::from_preset(JsValue::from_str("backfill-taskmanager-lost")).unwrap();
    job.run_until(JsValue::from(120_000)).unwrap();
    let h = job.state_size_history().unwrap();
    assert_eq!(num(&h, "limitBytes"), 4_294_967_296.0);
    assert!(len(&get(&h, "samples")) > 100);
    assert_eq!(get(&job.snapshot(JsValue::UNDEFINED).unwrap(), "run.status").as_string().unwrap(), "RESTARTING");

    let ex = p.explain(JsValue::from(0)).unwrap();
    assert!(get(&ex, "text").as_string().unwrap().starts_with("Window subtask 0"));
    assert!(js_sys::Array::is_array(&get(&ex, "reasons")));
    expect_err(p.explain(JsValue::from(1)), "RangeError", &["explain", "subtask", "no window subtask 1"]);

    let batch = p.events_since(JsValue::from(0)).unwrap();
    let events = get(&batch, "events");
    assert!(len(&events) > 0);
    assert_eq!(num(&batch, "cursor"), p.cursor().unwrap());
    assert_eq!(num(&events, "0.seq"), 0.0);
    assert_eq!(get(&events, "0.kind").as_string().unwrap(), "split_added");
    let tail = p.events_since(JsValue::from(p.cursor().unwrap())).unwrap();
    assert_eq!(len(&get(&tail, "events")), 0);
    expect_err(p.events_since(JsValue::from(-3)), "RangeError", &["eventsSince", "cursor"]);
    still_works(&p);
}

#[wasm_bindgen_test]
fn explain_names_the_heartbeat_partition() {
    let p = Playground::new(js(HEARTBEAT)).unwrap();
    p.run_until(JsValue::from(120_000)).unwrap();
    let ex = p.explain(JsValue::from(0)).unwrap();
    let text = get(&ex, "text").as_string().unwrap();
    assert!(text.contains("partition"), "{text}");
}

#[wasm_bindgen_test]
fn sql_scenario_reads_a_script_onto_a_base() {
    let sql = JsValue::from_str("SET 'table.exec.source.idle-timeout' = '60 s';\nSET 'table.local-time-zone' = 'UTC';");
    let r = Playground::sql_scenario(sql.clone(), JsValue::from_str("seed-001-heartbeat")).unwrap();
    assert_eq!(num(&r, "scenario.source.watermark.idle_timeout_ms"), 60_000.0);
    assert_eq!(num(&r, "scenario.topic.partitions"), 16.0, "the base's");
    assert_eq!(len(&get(&r, "notes")), 1);
    assert_eq!((num(&r, "notes.0.line"), num(&r, "notes.0.column")), (2.0, 5.0));
    assert!(get(&r, "notes.0.message").as_string().unwrap().contains("'table.local-time-zone'"));
    // The default base is the first preset; an object base works too; the scenario loads.
    let d = Playground::sql_scenario(sql.clone(), JsValue::UNDEFINED).unwrap();
    let o = Playground::sql_scenario(sql, Playground::preset_scenario(JsValue::from_str("seed-001-heartbeat")).unwrap()).unwrap();
    let fixed = Playground::new(get(&d, "scenario")).unwrap();
    let same = Playground::new(get(&o, "scenario")).unwrap();
    fixed.run_until(JsValue::from(120_000)).unwrap();
    same.run_until(JsValue::from(120_000)).unwrap();
    assert_eq!(fixed.trace_hash().unwrap(), same.trace_hash().unwrap());
}

#[wasm_bindgen_test]
fn bad_sql_throws_with_its_line_and_column_as_the_path() {
    let r = Playground::sql_scenario(
        JsValue::from_str("SET 'a' = 'b';\n  CREATE TABLE t (ts TIMESTAMP(3)) WITH ('connector' = 'files');"),
        JsValue::UNDEFINED,
    );
    let e = r.unwrap_err();
    let path = js_sys::Reflect::get(&e, &JsValue::from_str("path")).unwrap().as_string().unwrap();
    assert_eq!(path, "sql:2:56");
    expect_err(Err::<(), _>(e), "Error", &["WatermarkPlayground.sqlScenario: sql:2:56: 'connector' = 'files'"]);
    expect_err(Playground::sql_scenario(JsValue::from(5), JsValue::UNDEFINED), "TypeError", &["sql"]);
    expect_err(Playground::sql_scenario(JsValue::from_str(""), JsValue::from_str("nope")), "RangeError", &["base", "not a preset id"]);
}

#[wasm_bindgen_test]
fn export_job_returns_the_project_or_names_what_it_cannot_run() {
    let job = Playground::export_job(JsValue::from_str("late-data")).unwrap();
    let files = js_sys::Reflect::get(&job, &JsValue::from_str("files")).unwrap();
    let paths: Vec<String> = js_sys::Array::from(&files)
        .iter()
        .map(|f| js_sys::Reflect::get(&f, &JsValue::from_str("path")).unwrap().as_string().unwrap())
        .collect();
    assert!(
        paths.contains(&"pom.xml".to_string()) && paths.contains(&"src/main/java/playground/PlaygroundJob.java".to_string()),
        "{paths:?}"
    );
    let notes = js_sys::Reflect::get(&job, &JsValue::from_str("notes")).unwrap();
    assert!(js_sys::Array::from(&notes).length() >= 3);
    // SQL's watermark operator after a source with its own idleness: refused, naming that field.
    let mut sql: serde_json::Value = serde_json::from_str(include_str!("../presets/sql_idle_reactivates.json")).unwrap();
    sql["source"]["watermark"]["idle_timeout_ms"] = 5000.into();
    expect_err(
        Playground::export_job(js_sys::JSON::parse(&sql.to_string()).unwrap()),
        "RangeError",
        &["exportJob", "source.watermark.idle_timeout_ms", "cannot be exported"],
    );
    expect_err(Playground::export_job(JsValue::from(5)), "TypeError", &["scenario"]);
}
