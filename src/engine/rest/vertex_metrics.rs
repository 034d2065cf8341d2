//! The metric endpoints of a job vertex and of the job, as Flink's handlers answer them:
//!
//! - `GET /jobs/:jobid/vertices/:vertexid/metrics[?get=a,b]` (`JobVertexMetricsHandler`, the
//!   task's metric store: keys `<subtask>.<metric>` and `<subtask>.<operator>.<metric>`);
//! - `GET /jobs/:jobid/vertices/:vertexid/subtasks/metrics[?get=a,b&agg=min,max&subtasks=0,2-3]`
//!   (`AggregatingSubtasksMetricsHandler`: one value per subtask, aggregated);
//! - `GET /jobs/:jobid/metrics[?get=…]` (`JobMetricsHandler`).
//!
//! Without `get` each answers the list of available names, `[{"id":…}]` (sorted here; Flink's
//! order is a hash set's); with `get`, `[{"id":…,"value":"…"}]` for the names that exist (values
//! are strings), or for the aggregated one `[{"id":…,"min":…,"max":…,"avg":…,"sum":…,"skew":…}]`
//! (numbers; only the `agg` modes asked for, all five by default). Flink's quirks are kept: a
//! non-numeric metric (a boolean) is left out of the aggregation, and if one requested metric
//! has no value at all the whole answer is `[]`.

use super::graph::Vertex;
use super::store::{Sample, Subtask};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// Flink's `MetricsAggregationParameter.AggregationMode`, lower-cased as in the query.
pub const AGGREGATIONS: [&str; 5] = ["min", "max", "sum", "avg", "skew"];

/// `[{"id":k}]` for every key, or `[{"id":k,"value":v}]` for the requested keys that exist.
pub fn metric_list(store: &BTreeMap<String, String>, get: &[String]) -> Value {
    if get.is_empty() {
        return Value::Array(store.keys().map(|k| json!({ "id": k })).collect());
    }
    Value::Array(get.iter().filter_map(|k| store.get(k).map(|v| json!({ "id": k, "value": v }))).collect())
}

/// The task metric store of a vertex: `<subtask>.<key>` → value.
pub fn task_store(vertex: &Vertex, subtasks: &[Subtask]) -> BTreeMap<String, String> {
    subtasks.iter().flat_map(|s| s.samples.iter().map(move |x| (format!("{}.{}", s.index, x.key(vertex)), x.value.rest()))).collect()
}

/// The job's metric store.
pub fn job_store(samples: &[Sample]) -> BTreeMap<String, String> {
    samples.iter().map(|s| (s.name.to_string(), s.value.rest())).collect()
}

/// `DoubleDataSkew`: mean absolute deviation over the mean, in percent, at most 100.
pub fn skew(values: &[f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let avg = values.iter().sum::<f64>() / values.len() as f64;
    if avg == 0.0 {
        return 0.0;
    }
    let avg_dev = values.iter().map(|v| (avg - v).abs()).sum::<f64>() / values.len() as f64;
    (avg_dev / avg * 100.0).min(100.0)
}

fn aggregate(id: &str, values: &[f64], modes: &[&str]) -> Value {
    let mut out = Map::new();
    out.insert("id".into(), json!(id));
    for mode in AGGREGATIONS.iter().filter(|m| modes.contains(m)) {
        let v = match *mode {
            "min" => values.iter().copied().fold(f64::INFINITY, f64::min),
            "max" => values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            "sum" => values.iter().sum(),
            "avg" => values.iter().sum::<f64>() / values.len() as f64,
            _ => skew(values),
        };
        out.insert(mode.to_string(), json!(v));
    }
    Value::Object(out)
}

/// `subtasks/metrics`: the names over the chosen subtasks, or the requested ones aggregated
/// with `modes` (empty: all).
pub fn aggregated(vertex: &Vertex, subtasks: &[&Subtask], get: &[String], modes: &[&str]) -> Value {
    let keyed: Vec<BTreeMap<String, f64>> = subtasks
        .iter()
        .map(|s| {
            s.samples
                .iter()
                .filter(|x| !matches!(x.value, super::store::Value::Bool(_)))
                .map(|x| (x.key(vertex), x.value.number()))
                .collect()
        })
        .collect();
    if get.is_empty() {
        let mut names: Vec<String> = subtasks.iter().flat_map(|s| s.samples.iter().map(|x| x.key(vertex))).collect();
        names.sort();
        names.dedup();
        return Value::Array(names.into_iter().map(|k| json!({ "id": k })).collect());
    }
    let modes: Vec<&str> = if modes.is_empty() { AGGREGATIONS.to_vec() } else { modes.to_vec() };
    let mut out = Vec::new();
    for id in get {
        let values: Vec<f64> = keyed.iter().filter_map(|m| m.get(id).copied()).collect();
        if values.is_empty() {
            return json!([]);
        }
        out.push(aggregate(id, &values, &modes));
    }
    Value::Array(out)
}

/// Flink's `subtasks` filter: comma-separated indexes and ranges (`0,2-4`); `None` if malformed.
pub fn parse_subtasks(text: &str) -> Option<Vec<u32>> {
    let mut out = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b): (u32, u32) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
                out.extend(a..=b.min(a.saturating_add(100_000)));
            }
            None => out.push(part.parse().ok()?),
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skew_is_flinks_mean_absolute_deviation_ratio() {
        assert_eq!(skew(&[5.0, 5.0, 5.0]), 0.0);
        assert_eq!(skew(&[0.0, 0.0]), 0.0);
        // avg 2, deviations 1+1 → 1 → 50 %.
        assert_eq!(skew(&[1.0, 3.0]), 50.0);
        assert_eq!(skew(&[0.0, 0.0, 0.0, 100.0]), 100.0f64.min(150.0));
    }

    #[test]
    fn subtask_filter_takes_indexes_and_ranges() {
        assert_eq!(parse_subtasks("0,2-4"), Some(vec![0, 2, 3, 4]));
        assert_eq!(parse_subtasks("x"), None);
        assert_eq!(parse_subtasks(""), Some(vec![]));
    }

    #[test]
    fn list_without_get_names_every_key_and_get_keeps_only_existing() {
        let store: BTreeMap<String, String> = [("0.a".to_string(), "1".to_string()), ("1.a".into(), "2".into())].into();
        assert_eq!(metric_list(&store, &[]), json!([{ "id": "0.a" }, { "id": "1.a" }]));
        assert_eq!(metric_list(&store, &["1.a".into(), "nope".into()]), json!([{ "id": "1.a", "value": "2" }]));
    }
}
