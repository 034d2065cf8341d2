//! The REST answers a live link reads, keyed by endpoint path (query string dropped): what the
//! UI collects while polling and what the offline paste takes (docs/LIVE.md, "Offline bundle").
//! Also the paths themselves and the rule for which metrics are fetched, so the UI, the curl
//! script in the docs and the recorder (tools/oracle/FlinkLiveRecorder.java) ask for the same.

use super::error::LiveError;
use serde_json::{Map, Value};

/// The metric names the live link reads, matched as the last segment of a metric id. The
/// recorder and docs/LIVE.md's curl script carry the same list.
pub const WANTED_METRICS: [&str; 15] = [
    "currentInputWatermark",
    "currentInput1Watermark",
    "currentInput2Watermark",
    "currentOutputWatermark",
    "currentWatermark",
    "watermarkLag",
    "idleTimeMsPerSecond",
    "busyTimeMsPerSecond",
    "backPressuredTimeMsPerSecond",
    "numRecordsIn",
    "numRecordsOut",
    "sourceIdleTime",
    "pendingRecords",
    "watermarkAlignmentDrift",
    "numLateRecordsDropped",
];

/// Names per `?get=` request: Flink's REST endpoint refuses request lines over 4 KiB.
pub const NAMES_PER_REQUEST: usize = 20;

pub fn overview_path() -> String {
    "/jobs/overview".into()
}
pub fn job_path(job_id: &str) -> String {
    format!("/jobs/{job_id}")
}
pub fn vertex_path(job_id: &str, vertex_id: &str, tail: &str) -> String {
    format!("/jobs/{job_id}/vertices/{vertex_id}/{tail}")
}

/// Whether metric id `id` (`0.Source__events.watermarkLag`) is one the live link reads.
pub fn wanted_metric(id: &str) -> bool {
    let last = id.rsplit('.').next().unwrap_or(id);
    WANTED_METRICS.contains(&last)
}

/// The wanted metrics named in `list`, the answer of `GET …/vertices/:vid/metrics`
/// (`[{"id":"0.numRecordsIn"}, …]`), in groups of [`NAMES_PER_REQUEST`]: one `?get=a,b,…`
/// request each (the caller URL-encodes the names).
pub fn metric_chunks(list: &Value) -> Vec<Vec<String>> {
    let mut names: Vec<&str> =
        list.as_array().into_iter().flatten().filter_map(|m| m.get("id")?.as_str()).filter(|id| wanted_metric(id)).collect();
    names.sort_unstable();
    names.chunks(NAMES_PER_REQUEST).map(|c| c.iter().map(|n| n.to_string()).collect()).collect()
}

/// One endpoint's answer, parsed: garbage is [`LiveError::Garbage`], Flink's `{"errors":[…]}`
/// body [`LiveError::Flink`].
pub fn parse_answer(path: &str, text: &str) -> Result<Value, LiveError> {
    let v: Value = serde_json::from_str(text)
        .map_err(|e| LiveError::Garbage { path: path.into(), message: crate::engine::error::one_line(&e.to_string()) })?;
    flink_error(path, &v).map_or(Ok(v), Err)
}

fn flink_error(path: &str, v: &Value) -> Option<LiveError> {
    let first = v.as_object()?.get("errors")?.as_array()?.first()?.as_str()?;
    // Flink appends the Java stack trace to the message: its first line says what happened.
    let line = first.lines().next().unwrap_or(first);
    let message = line.rsplit_once("Exception: ").map_or(line, |(_, m)| m);
    Some(LiveError::Flink { path: path.into(), message: message.into() })
}

/// The answers of one poll (or one offline paste), keyed by path without the query.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Bundle {
    answers: Map<String, Value>,
}

fn key(path: &str) -> String {
    path.split('?').next().unwrap_or(path).trim_end_matches('/').to_string()
}

impl Bundle {
    /// An offline paste: one JSON object keyed by endpoint path.
    pub fn parse(text: &str) -> Result<Bundle, LiveError> {
        let v = parse_answer("bundle", text)?;
        let Value::Object(map) = v else {
            return Err(LiveError::shape("bundle", "expected an object keyed by endpoint path, e.g. {\"/jobs/overview\": …}"));
        };
        let mut b = Bundle::default();
        for (path, answer) in map {
            if !path.starts_with("/jobs") {
                return Err(LiveError::shape(format!("bundle[{path:?}]"), "keys are endpoint paths starting with /jobs"));
            }
            b.merge(&path, answer);
        }
        Ok(b)
    }

    /// Adds an answer; metric answers fetched in several `?get=` chunks are concatenated.
    pub fn merge(&mut self, path: &str, answer: Value) {
        let k = key(path);
        match (self.answers.get_mut(&k), answer) {
            (Some(Value::Array(have)), Value::Array(more)) if k.ends_with("/metrics") => have.extend(more),
            (_, answer) => {
                self.answers.insert(k, answer);
            }
        }
    }

    /// The answer of `path`; a Flink error body stored in the bundle is returned as the error.
    pub fn get(&self, path: &str) -> Result<&Value, LiveError> {
        let v = self.answers.get(&key(path)).ok_or_else(|| LiveError::Missing { path: key(path) })?;
        flink_error(path, v).map_or(Ok(v), Err)
    }

    /// Like [`Bundle::get`], but `None` when the endpoint is absent (optional answers).
    pub fn optional(&self, path: &str) -> Result<Option<&Value>, LiveError> {
        match self.get(path) {
            Err(LiveError::Missing { .. }) => Ok(None),
            other => other.map(Some),
        }
    }

    /// The bundle as the offline format (pretty JSON).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(&self.answers).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn wanted_metrics_match_the_last_segment_only() {
        assert!(wanted_metric("1.Source__events.split.split-1.watermark.currentWatermark"));
        assert!(wanted_metric("0.backPressuredTimeMsPerSecond"));
        assert!(!wanted_metric("0.softBackPressuredTimeMsPerSecond"));
        assert!(!wanted_metric("0.numRecordsInPerSecond"));
        let list = json!([{ "id": "0.numRecordsIn" }, { "id": "0.mailboxQueueSize" }, { "id": "1.numRecordsIn" }]);
        assert_eq!(metric_chunks(&list), [["0.numRecordsIn", "1.numRecordsIn"]]);
    }

    #[test]
    fn errors_garbage_and_chunks() {
        assert!(matches!(parse_answer("/jobs", "<html>"), Err(LiveError::Garbage { .. })));
        let e = parse_answer("/jobs/x", r#"{"errors":["org.apache.flink.runtime.rest.NotFoundException: Job x not found\n\tat …"]}"#);
        assert_eq!(e, Err(LiveError::Flink { path: "/jobs/x".into(), message: "Job x not found".into() }));
        let mut b = Bundle::default();
        b.merge("/jobs/j/vertices/v/metrics?get=a", json!([{ "id": "a", "value": "1" }]));
        b.merge("/jobs/j/vertices/v/metrics?get=b", json!([{ "id": "b", "value": "2" }]));
        assert_eq!(b.get("/jobs/j/vertices/v/metrics").unwrap().as_array().unwrap().len(), 2);
        assert!(matches!(b.get("/jobs/j"), Err(LiveError::Missing { .. })));
        assert!(matches!(Bundle::parse("[1]"), Err(LiveError::Shape { .. })));
        assert!(matches!(Bundle::parse(r#"{"/x": 1}"#), Err(LiveError::Shape { .. })));
    }
}
