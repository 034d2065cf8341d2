//! The JSON report of a run (`wmp run`): window results (or an interval join's pairs) in
//! emission order, late records,
//! counters, the job's run (attempts, failures, restarts, checkpoints), the watermark sequence per operator subtask, metrics, the sink's mode, the
//! diagnosis of the end state and the trace hash.

use super::sim::Simulation;
use super::trace::{TraceEvent, TraceKind};
use serde_json::{json, Value};
use std::io::{self, Write};

/// The report as a JSON value (tests and tools); `with_trace` adds every retained trace event.
pub fn report(name: &str, sim: &Simulation, with_trace: bool) -> Value {
    let mut out = Vec::new();
    write_report(&mut out, name, sim, with_trace).expect("writing to memory cannot fail");
    serde_json::from_slice(&out).expect("the report is JSON")
}

/// Writes the report, one piece at a time, so that a long run's report never exists twice in
/// memory (as values and as text): `wmp run` streams it to stdout. Compact JSON, members in
/// the sorted order serde_json gives an object, so the bytes equal `report(..).to_string()`.
pub fn write_report(w: &mut impl Write, name: &str, sim: &Simulation, with_trace: bool) -> io::Result<()> {
    let keys = sim.keys();
    let agg = sim.config().aggregate;
    let d = sim.downstream();
    let m = sim.metrics();
    let (dropped, side) = d.late_counts();
    let member = |w: &mut dyn Write, first: bool, key: &str, v: &Value| -> io::Result<()> {
        write!(w, "{}{}:{}", if first { "{" } else { "," }, json!(key), v)
    };
    // The job-level diagnosis of the end state (the JS API's `diagnose()` shape, watermarks bare).
    let diagnosis = raw_watermarks(serde_json::to_value(sim.diagnose(&Default::default())).unwrap_or(Value::Null));
    member(w, true, "diagnosis", &diagnosis)?;
    member(w, false, "end_time", &json!(sim.now()))?;
    // The job's run: status (RUNNING, RESTARTING or FAILED), attempts, checkpoints, failures,
    // what restores replayed and duplicated, the TaskManagers' memory.
    member(w, false, "job", &serde_json::to_value(sim.job_run()).unwrap_or(Value::Null))?;
    if d.joins.total() > 0 || sim.config().interval_join.is_some() {
        write!(w, ",\"joins\":")?;
        array(
            w,
            d.joins.kept().map(|(_, j)| {
                json!({
                    "subtask": j.subtask, "key": keys.name(j.key), "left_ts": j.left_ts, "left_value": j.left_value,
                    "right_ts": j.right_ts, "right_value": j.right_value, "ts": j.ts, "time": j.time,
                })
            }),
        )?;
        member(w, false, "joins_total", &json!(d.joins.total()))?;
    }
    write!(w, ",\"late\":")?;
    array(
        w,
        d.late.iter().map(|l| {
            json!({
                "subtask": l.subtask, "partition": l.partition, "offset": l.offset, "ts": l.ts, "key": keys.name(l.key),
                "value": l.value, "watermark": l.watermark, "side_output": l.side_output, "time": l.time,
            })
        }),
    )?;
    member(w, false, "lateRecordsSideOutput", &json!(side))?;
    member(w, false, "metrics", &raw_watermarks(serde_json::to_value(&m).unwrap_or(Value::Null)))?;
    member(w, false, "numLateRecordsDropped", &json!(dropped))?;
    member(w, false, "scenario", &json!(name))?;
    member(w, false, "sink_mode", &json!(d.sink.mode))?;
    if with_trace {
        write!(w, ",\"trace\":")?;
        array(w, sim.trace().retained().map(legacy_trace_event))?;
    }
    member(w, false, "trace_hash", &json!(sim.trace().hash_hex()))?;
    write!(w, ",\"watermarks\":")?;
    array(
        w,
        d.watermark_history
            .iter()
            .enumerate()
            .map(|(i, h)| json!({"subtask": i, "watermarks": h.iter().map(|&(t, wm)| json!([t, wm])).collect::<Vec<_>>()})),
    )?;
    write!(w, ",\"windows\":")?;
    array(
        w,
        d.sink.results().map(|r| {
            json!({
                "subtask": r.subtask, "key": keys.name(r.key), "window_start": r.start, "window_end": r.end,
                "value": r.agg.value(agg), "count": r.agg.count, "sum": r.agg.sum, "min": r.agg.min, "max": r.agg.max,
                "watermark": r.watermark, "firing": r.firing, "firing_kind": r.kind, "time": r.time,
            })
        }),
    )?;
    if d.sink.evicted() > 0 {
        // `trace.window_results_retained` bounded the list: say how many came before it.
        member(w, false, "windows_not_retained", &json!(d.sink.evicted()))?;
    }
    write!(w, "}}")
}

/// A JSON array written element by element.
fn array(w: &mut impl Write, items: impl Iterator<Item = Value>) -> io::Result<()> {
    write!(w, "[")?;
    for (i, v) in items.enumerate() {
        if i > 0 {
            write!(w, ",")?;
        }
        serde_json::to_writer(&mut *w, &v)?;
    }
    write!(w, "]")
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
        if let Some(kind) = o.remove("firingKind") {
            o.insert("firing_kind".into(), kind);
        }
    }
    v
}
