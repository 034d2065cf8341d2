//! `GET /metrics`: the simulated job's metrics in the Prometheus text exposition format, named
//! and labelled as Flink's `PrometheusReporter` does (`AbstractPrometheusReporter`).
//!
//! A metric is `flink_` + its logical scope + `_` + its name, every character outside
//! `[a-zA-Z0-9:_]` replaced by `_`: `flink_taskmanager_job_task_operator_currentInputWatermark`,
//! `flink_taskmanager_job_task_buffers_inPoolUsage`, `flink_jobmanager_job_numRestarts`. The
//! labels are the scope's variables without their angle brackets (`job_id`, `job_name`,
//! `task_id`, `task_name`, `subtask_index`, `operator_id`, `operator_name`, `tm_id`, `host`, …),
//! values filtered the same way (the reporter's default `filterLabelValueCharacters`). Every
//! metric is a `gauge` (the reporter exports counters as gauges too); booleans are 1 or 0;
//! `Long.MIN_VALUE` ("no watermark") is exported as the huge negative number it is.
//!
//! One series is not Flink's: `wmp_processing_time_seconds`, the simulation's clock (seconds since
//! the epoch, as Prometheus's `time()`). A real job's event-time lag alert reads the real clock,
//! `time() * 1000 - flink_…_currentInputWatermark`; a simulation paced at `--speed N` runs ahead
//! of the machine's clock, so its rule reads `scalar(max(wmp_processing_time_seconds)) * 1000 - …`.

use super::graph::{JobGraph, Vertex};
use super::ids::hex_id;
use super::store::{Sample, Subtask};
use std::collections::BTreeMap;
use std::fmt::Write;

/// The host label of every series.
pub const HOST: &str = "localhost";

/// `AbstractPrometheusReporter.replaceInvalidChars`.
pub fn filter(s: &str) -> String {
    s.chars().map(|c| if c.is_ascii_alphanumeric() || c == ':' || c == '_' { c } else { '_' }).collect()
}

/// A float as Prometheus reads it (Go's `ParseFloat`: `+Inf`, `-Inf`, `NaN`).
fn number(v: f64) -> String {
    match v {
        v if v.is_nan() => "NaN".into(),
        v if v == f64::INFINITY => "+Inf".into(),
        v if v == f64::NEG_INFINITY => "-Inf".into(),
        v => format!("{v}"),
    }
}

/// Series grouped by metric name: (help text, [(labels, value)]).
type Families = BTreeMap<String, (String, Vec<(Vec<(&'static str, String)>, f64)>)>;

fn add(f: &mut Families, scope: &'static str, name: &str, labels: Vec<(&'static str, String)>, value: f64) {
    let full = filter(&format!("flink_{scope}_{name}"));
    f.entry(full).or_insert_with(|| (format!("{name} (scope: {scope})"), Vec::new())).1.push((labels, value));
}

fn task_labels(g: &JobGraph, v: &Vertex, s: &Subtask, attempt: u32) -> Vec<(&'static str, String)> {
    let index = s.index.to_string();
    vec![
        ("host", HOST.into()),
        ("tm_id", format!("taskmanager_{}", s.task_manager)),
        ("job_id", g.job_id.clone()),
        ("job_name", g.job_name.clone()),
        ("task_id", v.id.clone()),
        ("task_attempt_id", hex_id(&[v.id.as_bytes(), index.as_bytes(), &attempt.to_le_bytes()])),
        ("task_name", v.name.clone()),
        ("subtask_index", index),
        ("task_attempt_num", attempt.to_string()),
    ]
}

fn add_subtask(f: &mut Families, g: &JobGraph, v: &Vertex, s: &Subtask, attempt: u32) {
    let labels = task_labels(g, v, s, attempt);
    for Sample { operator, name, value } in &s.samples {
        match operator {
            None => add(f, "taskmanager_job_task", name, labels.clone(), value.number()),
            Some(i) => {
                let mut l = labels.clone();
                l.push(("operator_id", v.operators[*i].id.clone()));
                l.push(("operator_name", v.operators[*i].name.clone()));
                add(f, "taskmanager_job_task_operator", name, l, value.number());
            }
        }
    }
}

fn render(f: &Families, out: &mut String) {
    for (name, (help, series)) in f {
        let _ = writeln!(out, "# HELP {name} {help}");
        let _ = writeln!(out, "# TYPE {name} gauge");
        for (labels, value) in series {
            let l: Vec<String> = labels.iter().map(|(k, v)| format!("{k}=\"{}\"", filter(v))).collect();
            let _ = writeln!(out, "{name}{{{}}} {}", l.join(","), number(*value));
        }
    }
}

/// The exposition text: every vertex's subtasks (`vertices[i]` with `subtasks[i]`), the job
/// scope and the simulation's clock `now_ms`.
pub fn exposition(g: &JobGraph, subtasks: &[Vec<Subtask>], job: &[Sample], restarts: u32, now_ms: i64) -> String {
    let mut f = Families::new();
    for (v, subs) in g.vertices.iter().zip(subtasks) {
        for s in subs {
            add_subtask(&mut f, g, v, s, restarts);
        }
    }
    let job_labels = vec![("host", HOST.to_string()), ("job_id", g.job_id.clone()), ("job_name", g.job_name.clone())];
    for s in job {
        add(&mut f, "jobmanager_job", s.name, job_labels.clone(), s.value.number());
    }
    let mut out = String::new();
    render(&f, &mut out);
    let l: Vec<String> = job_labels.iter().map(|(k, v)| format!("{k}=\"{}\"", filter(v))).collect();
    let _ = writeln!(out, "# HELP wmp_processing_time_seconds The simulation's processing time (its wall clock), seconds since the epoch");
    let _ = writeln!(out, "# TYPE wmp_processing_time_seconds gauge");
    let _ = writeln!(out, "wmp_processing_time_seconds{{{}}} {}", l.join(","), number(now_ms as f64 / 1000.0));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_label_values_keep_only_prometheus_characters() {
        assert_eq!(filter("Source: clickstream"), "Source:_clickstream");
        assert_eq!(filter("taskmanager_job_task_buffers.inPoolUsage"), "taskmanager_job_task_buffers_inPoolUsage");
        // Long.MIN_VALUE as the double the reporter exports; it reads back to the same value.
        assert_eq!(number(i64::MIN as f64).parse::<f64>(), Ok(i64::MIN as f64));
        assert_eq!(number(f64::INFINITY), "+Inf");
    }
}
