//! The JSON report of a run (`wmp run`): window results in emission order, late records,
//! counters, the watermark sequence per operator subtask, metrics and the trace hash.

use super::sim::Simulation;
use super::trace::{TraceEvent, TraceKind};
use serde_json::{json, Value};

/// Builds the report; `with_trace` adds every retained trace event.
pub fn report(name: &str, sim: &Simulation, with_trace: bool) -> Value {
    let keys = sim.keys();
    let agg = sim.config().aggregate;
    let d = sim.downstream();
    let windows: Vec<Value> = d
        .sink
        .results()
        .map(|r| {
            json!({
                "subtask": r.subtask, "key": keys.name(r.key), "window_start": r.start, "window_end": r.end,
                "value": r.agg.value(agg), "count": r.agg.count, "sum": r.agg.sum, "min": r.agg.min, "max": r.agg.max,
                "watermark": r.watermark, "firing": r.firing, "time": r.time,
            })
        })
        .collect();
    let late: Vec<Value> = d
        .late
        .iter()
        .map(|l| {
            json!({
                "subtask": l.subtask, "partition": l.partition, "offset": l.offset, "ts": l.ts, "key": keys.name(l.key),
                "value": l.value, "watermark": l.watermark, "side_output": l.side_output, "time": l.time,
            })
        })
        .collect();
    let watermarks: Vec<Value> = d
        .watermark_history
        .iter()
        .enumerate()
        .map(|(i, h)| json!({"subtask": i, "watermarks": h.iter().map(|&(t, w)| json!([t, w])).collect::<Vec<_>>()}))
        .collect();
    let m = sim.metrics();
    let dropped: u64 = m.window.iter().map(|w| w.num_late_records_dropped).sum();
    let side: u64 = m.window.iter().map(|w| w.num_late_records_side_output).sum();
    let mut out = json!({
        "scenario": name,
        "end_time": sim.now(),
        "windows": windows,
        "late": late,
        "numLateRecordsDropped": dropped,
        "lateRecordsSideOutput": side,
        "watermarks": watermarks,
        "metrics": raw_watermarks(serde_json::to_value(&m).unwrap_or(Value::Null)),
        "trace_hash": sim.trace().hash_hex(),
    });
    if d.sink.evicted() > 0 {
        // `trace.window_results_retained` bounded the list: say how many came before it.
        out["windows_not_retained"] = json!(d.sink.evicted());
    }
    if with_trace {
        out["trace"] = trace(sim);
    }
    out
}

/// The report predates the JS API's `{ ms, raw }` watermarks and keeps printing each one as its
/// bare 64-bit number, so reports and golden files stay comparable across versions.
fn raw_watermarks(v: Value) -> Value {
    match v {
        Value::Object(o) if o.len() == 2 && o.contains_key("ms") => {
            match o.get("raw").and_then(Value::as_str).and_then(|r| r.parse::<i64>().ok()) {
                Some(raw) => json!(raw),
                None => Value::Object(o),
            }
        }
        Value::Object(o) => Value::Object(o.into_iter().map(|(k, v)| (k, raw_watermarks(v))).collect()),
        Value::Array(a) => Value::Array(a.into_iter().map(raw_watermarks).collect()),
        other => other,
    }
}

/// Every retained trace event, as `--trace` prints it (both formats of `wmp run`).
pub fn trace(sim: &Simulation) -> Value {
    Value::Array(sim.trace().retained().map(legacy_trace_event).collect())
}

/// A trace event as the report has always printed it: key ids, bare watermarks, the command's
/// text and snake_case fields (the event itself serializes to the JS API's shape).
fn legacy_trace_event(e: &TraceEvent) -> Value {
    let mut v = raw_watermarks(serde_json::to_value(e).unwrap_or(Value::Null));
    if let Value::Object(o) = &mut v {
        if let TraceKind::Command { text } = &e.kind {
            o.remove("command");
            o.insert("text".into(), json!(text));
        }
        if let Some(side) = o.remove("sideOutput") {
            o.insert("side_output".into(), side);
        }
    }
    v
}
