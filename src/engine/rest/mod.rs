//! Flink's own faces for a simulated job: the REST endpoints a monitoring script reads and the
//! Prometheus exposition of its metrics, answered from one [`Simulation`] state. Pure: a request
//! (method, path, decoded query) in, a [`Reply`] out; `wmp serve` (the CLI) adds the HTTP and
//! the clock. docs/SERVE.md lists the endpoints and what is simplified.
//!
//! Files: `ids` (hashed 32-hex ids), `graph` (the job's vertices and operators, Flink's names),
//! `store` (each subtask's metrics under Flink's names and scopes), `jobs` (`/jobs`,
//! `/jobs/:jobid`), `vertex_metrics` (the metric and aggregated-metric endpoints),
//! `prometheus` (`/metrics`).

pub mod graph;
pub mod ids;
pub mod jobs;
pub mod prometheus;
pub mod store;
pub mod vertex_metrics;

use crate::engine::sim::Simulation;
use graph::{JobGraph, Vertex, VertexKind};
use serde_json::{json, Value};
use store::Subtask;

/// An HTTP answer: status, content type (none for a preflight's 204, which has no body), body,
/// and the CORS headers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    pub status: u16,
    pub content_type: Option<&'static str>,
    pub body: String,
    /// [`CORS`] on every answer, [`PREFLIGHT`] on a preflight's.
    pub cors: &'static [(&'static str, &'static str)],
}

impl Reply {
    fn new(status: u16, content_type: &'static str, body: String) -> Self {
        Reply { status, content_type: Some(content_type), body, cors: CORS }
    }

    /// Every header the answer carries: its content type, then its CORS headers.
    pub fn headers(&self) -> impl Iterator<Item = (&'static str, &'static str)> + '_ {
        self.content_type.map(|t| ("Content-Type", t)).into_iter().chain(self.cors.iter().copied())
    }
}

pub const JSON: &str = "application/json; charset=UTF-8";
/// The Prometheus text format, version 0.0.4.
pub const PROMETHEUS: &str = "text/plain; version=0.0.4; charset=utf-8";

/// The methods answered: `GET`, `HEAD` (a `GET` without its body, which the HTTP side leaves
/// out) and `OPTIONS` (a browser's CORS preflight).
const METHODS: &str = "GET, HEAD, OPTIONS";
/// Flink's `web.access-control-allow-origin` default: any page may read the REST API.
const ALLOW_ORIGIN: (&str, &str) = ("Access-Control-Allow-Origin", "*");
/// The CORS header of every answer.
pub const CORS: &[(&str, &str)] = &[ALLOW_ORIGIN];
/// A preflight's answer: what a page on another origin may send. Any request header: with the
/// origin `*` no credentials are sent, so the wildcard holds (a dashboard's own headers pass).
pub const PREFLIGHT: &[(&str, &str)] = &[ALLOW_ORIGIN, ("Access-Control-Allow-Methods", METHODS), ("Access-Control-Allow-Headers", "*")];

fn json_reply(status: u16, v: &Value) -> Reply {
    Reply::new(status, JSON, v.to_string())
}

/// A browser's CORS preflight (`OPTIONS`, on any path): 204, no body, the [`PREFLIGHT`] headers.
fn preflight() -> Reply {
    Reply { status: 204, content_type: None, body: String::new(), cors: PREFLIGHT }
}

/// Flink's error body, `{"errors":["…"]}`.
pub fn error(status: u16, message: &str) -> Reply {
    json_reply(status, &json!({ "errors": [message] }))
}

/// The values of a repeatable, comma-separated query parameter (`get=a,b&get=c`).
fn param<'a>(query: &'a [(String, String)], name: &str) -> Vec<&'a str> {
    query.iter().filter(|(k, _)| k == name).flat_map(|(_, v)| v.split(',')).map(str::trim).filter(|v| !v.is_empty()).collect()
}

fn is_flink_id(s: &str) -> bool {
    s.len() == 32 && s.chars().all(|c| c.is_ascii_hexdigit())
}

/// The subtasks of every vertex of `g`, in vertex order.
pub fn all_subtasks(g: &JobGraph, sim: &Simulation) -> Vec<Vec<Subtask>> {
    let m = sim.metrics();
    g.vertices.iter().map(|v| store::subtasks(v, &m, |s| sim.config().cluster.task_manager_of(s))).collect()
}

/// Answers one request against the simulation's current state.
pub fn route(g: &JobGraph, sim: &Simulation, method: &str, path: &str, query: &[(String, String)]) -> Reply {
    match method {
        "GET" => {}
        "OPTIONS" => return preflight(),
        _ => return error(405, &format!("Request method {method} is not supported for {path}; this job answers {METHODS}")),
    }
    let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
    match parts.as_slice() {
        ["metrics"] => {
            let m = sim.metrics();
            let text = prometheus::exposition(g, &all_subtasks(g, sim), &store::job_samples(&m.job), m.job.num_restarts, m.now.ms());
            Reply::new(200, PROMETHEUS, text)
        }
        ["jobs"] => json_reply(200, &jobs::jobs(g, sim)),
        ["jobs", "overview"] => json_reply(200, &jobs::overview(g, sim)),
        ["jobs", job, rest @ ..] => {
            if !is_flink_id(job) {
                return error(
                    400,
                    &format!("Bad request, could not parse parameters: Cannot resolve path parameter (jobid) from value \"{job}\"."),
                );
            }
            if *job != g.job_id {
                return error(404, &format!("Job {job} not found"));
            }
            job_route(g, sim, rest, query)
        }
        _ => error(404, &format!("Not found: {path}")),
    }
}

fn job_route(g: &JobGraph, sim: &Simulation, rest: &[&str], query: &[(String, String)]) -> Reply {
    match rest {
        [] => json_reply(200, &jobs::job_details(g, sim)),
        ["metrics"] => {
            let get: Vec<String> = param(query, "get").into_iter().map(String::from).collect();
            json_reply(200, &vertex_metrics::metric_list(&vertex_metrics::job_store(&store::job_samples(&sim.metrics().job)), &get))
        }
        ["vertices", vid, tail @ ..] => {
            if !is_flink_id(vid) {
                return error(
                    400,
                    &format!("Bad request, could not parse parameters: Cannot resolve path parameter (vertexid) from value \"{vid}\"."),
                );
            }
            match g.vertex(vid) {
                Some(v) => vertex_route(g, v, sim, tail, query),
                None => error(404, &format!("No vertex with ID '{vid}' exists.")),
            }
        }
        _ => error(404, &format!("Not found: /jobs/{}/{}", g.job_id, rest.join("/"))),
    }
}

fn vertex_route(g: &JobGraph, v: &Vertex, sim: &Simulation, tail: &[&str], query: &[(String, String)]) -> Reply {
    let get: Vec<String> = param(query, "get").into_iter().map(String::from).collect();
    let subtasks = || store::subtasks(v, &sim.metrics(), |s| sim.config().cluster.task_manager_of(s));
    match tail {
        [] => json_reply(200, &jobs::vertex_details(v, sim, &subtasks())),
        ["watermarks"] => json_reply(200, &json!(watermarks(v, sim))),
        ["backpressure"] => json_reply(200, &json!(back_pressure(v, sim))),
        ["metrics"] => json_reply(200, &vertex_metrics::metric_list(&vertex_metrics::task_store(v, &subtasks()), &get)),
        ["subtasks", "metrics"] => {
            let modes = param(query, "agg");
            if let Some(bad) = modes.iter().find(|m| !vertex_metrics::AGGREGATIONS.contains(&m.to_ascii_lowercase().as_str())) {
                return error(400, &format!("Bad request, could not parse parameters: Not a valid aggregation: {bad}"));
            }
            let modes: Vec<String> = modes.iter().map(|m| m.to_ascii_lowercase()).collect();
            let modes: Vec<&str> = modes.iter().map(String::as_str).collect();
            let all = subtasks();
            let chosen: Vec<&Subtask> = match query.iter().find(|(k, _)| k == "subtasks") {
                None => all.iter().collect(),
                Some((_, text)) => match vertex_metrics::parse_subtasks(text) {
                    Some(ix) => all.iter().filter(|s| ix.contains(&s.index)).collect(),
                    None => return error(400, &format!("Bad request, could not parse parameters: subtasks \"{text}\"")),
                },
            };
            json_reply(200, &vertex_metrics::aggregated(v, &chosen, &get, &modes))
        }
        _ => error(404, &format!("Not found: /jobs/{}/vertices/{}/{}", g.job_id, v.id, tail.join("/"))),
    }
}

/// The engine's REST watermarks for the keyed vertex; a source vertex has none (`[]`).
fn watermarks(v: &Vertex, sim: &Simulation) -> Vec<crate::engine::metrics::RestWatermark> {
    match v.kind {
        VertexKind::Source { .. } => Vec::new(),
        VertexKind::Keyed { .. } => sim.rest_watermarks("window").unwrap_or_default(),
    }
}

fn back_pressure(v: &Vertex, sim: &Simulation) -> Option<crate::engine::metrics::RestBackPressure> {
    match v.kind {
        VertexKind::Source { first, .. } => sim.rest_back_pressure_of_sources(first..first + v.parallelism),
        VertexKind::Keyed { .. } => sim.rest_back_pressure("window"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::session::Session;

    fn seed_001_at(ms: i64) -> Session {
        let mut s = Session::from_json(include_str!("../../../presets/seed_001_heartbeat.json")).unwrap();
        s.run_until(ms, &mut ()).unwrap();
        s
    }

    fn get(g: &JobGraph, sim: &Simulation, path: &str) -> (u16, Value) {
        let r = route(g, sim, "GET", path, &[]);
        (r.status, serde_json::from_str(&r.body).unwrap_or(Value::Null))
    }

    #[test]
    fn jobs_details_and_watermarks_use_the_graphs_ids() {
        let s = seed_001_at(120_000);
        let g = JobGraph::of(s.sim(), &s.scenario().name);
        assert_eq!(get(&g, s.sim(), "/jobs").1, json!({ "jobs": [{ "id": g.job_id, "status": "RUNNING" }] }));
        let (status, d) = get(&g, s.sim(), &format!("/jobs/{}", g.job_id));
        assert_eq!(status, 200);
        assert_eq!(d["duration"], 120_000);
        let ids: Vec<&str> = d["vertices"].as_array().unwrap().iter().map(|v| v["id"].as_str().unwrap()).collect();
        assert_eq!(ids, [g.vertices[0].id.as_str(), g.vertices[1].id.as_str()]);
        let (_, wm) = get(&g, s.sim(), &format!("/jobs/{}/vertices/{}/watermarks", g.job_id, ids[1]));
        assert_eq!(wm, serde_json::to_value(s.sim().rest_watermarks("window").unwrap()).unwrap());
        assert_eq!(get(&g, s.sim(), &format!("/jobs/{}/vertices/{}/watermarks", g.job_id, ids[0])).1, json!([]));
        // Records: the vertex total in the job details is the sum of its subtasks' in the vertex details.
        let (_, vd) = get(&g, s.sim(), &format!("/jobs/{}/vertices/{}", g.job_id, ids[1]));
        let subtasks = vd["subtasks"].as_array().unwrap();
        assert_eq!(subtasks.len(), 8);
        let read: i64 = subtasks.iter().map(|t| t["metrics"]["read-records"].as_i64().unwrap()).sum();
        assert!(read > 0);
        assert_eq!(d["vertices"][1]["metrics"]["read-records"], read);
    }

    /// A window vertex lists numLateRecordsDropped; an interval join's has none (Flink 2.3 drops
    /// its late elements without a metric, reference §9).
    #[test]
    fn only_a_window_vertex_has_a_late_drop_counter() {
        let names = |json: &str| {
            let mut s = Session::from_json(json).unwrap();
            s.run_until(5_000, &mut ()).unwrap();
            let g = JobGraph::of(s.sim(), &s.scenario().name);
            let keyed = &g.vertices.last().unwrap().id;
            let (_, list) = get(&g, s.sim(), &format!("/jobs/{}/vertices/{keyed}/metrics", g.job_id));
            list.to_string()
        };
        assert!(names(include_str!("../../../presets/seed_001_heartbeat.json")).contains("numLateRecordsDropped"));
        let join = names(include_str!("../../../tests/scenarios/interval_join_quiet_side.json"));
        assert!(join.contains("currentInputWatermark") && !join.contains("numLateRecordsDropped"), "{join}");
    }

    /// A job that FAILED for good has ended: `end-time` is the instant, `duration` stops there
    /// (it was -1 and still counting), and `timestamps.FAILED` says when.
    #[test]
    fn a_failed_job_has_an_end_time() {
        let mut sc: Value = serde_json::from_str(include_str!("../../../presets/late_data.json")).unwrap();
        sc["checkpointing"] = json!({"restart": {"type": "none"}});
        sc["commands"] = json!([{"at_ms": 1000, "command": "fail", "target": {"task_manager": 0}}]);
        let mut s = Session::from_json(&sc.to_string()).unwrap();
        let _ = s.run_until(5_000, &mut ());
        let start = s.sim().config().start_time.ms();
        let g = JobGraph::of(s.sim(), &s.scenario().name);
        let (_, d) = get(&g, s.sim(), &format!("/jobs/{}", g.job_id));
        assert_eq!(d["state"], "FAILED");
        assert_eq!((d["end-time"].as_i64(), d["duration"].as_i64()), (Some(start + 1_000), Some(1_000)));
        assert_eq!(d["timestamps"]["FAILED"], start + 1_000);
        assert_eq!(d["vertices"][0]["end-time"], start + 1_000);
        let (_, o) = get(&g, s.sim(), "/jobs/overview");
        assert_eq!(o["jobs"][0]["end-time"], start + 1_000);
    }

    #[test]
    fn unknown_paths_jobs_and_vertices_get_flinks_errors() {
        let s = seed_001_at(1_000);
        let g = JobGraph::of(s.sim(), "");
        assert_eq!(g.job_name, graph::DEFAULT_JOB_NAME);
        let other = "f".repeat(32);
        assert_eq!(get(&g, s.sim(), &format!("/jobs/{other}")), (404, json!({ "errors": [format!("Job {other} not found")] })));
        assert_eq!(get(&g, s.sim(), &format!("/jobs/{}/vertices/{other}/metrics", g.job_id)).0, 404);
        assert_eq!(get(&g, s.sim(), "/jobs/xyz").0, 400);
        assert_eq!(get(&g, s.sim(), "/nope").0, 404);
        assert_eq!(route(&g, s.sim(), "POST", "/jobs", &[]).status, 405);
        assert!(route(&g, s.sim(), "POST", "/jobs", &[]).headers().any(|h| h == ("Access-Control-Allow-Origin", "*")), "an error too");
        let bad_agg = [("get".to_string(), "numRecordsIn".to_string()), ("agg".into(), "median".into())];
        assert_eq!(
            route(&g, s.sim(), "GET", &format!("/jobs/{}/vertices/{}/subtasks/metrics", g.job_id, g.vertices[1].id), &bad_agg).status,
            400
        );
    }

    /// A browser page on another origin asks with `OPTIONS` before it reads (CORS preflight).
    #[test]
    fn a_preflight_gets_204_and_the_cors_headers_on_any_path() {
        let s = seed_001_at(1_000);
        let g = JobGraph::of(s.sim(), "");
        for path in ["/jobs/overview", "/metrics", "/nope"] {
            let r = route(&g, s.sim(), "OPTIONS", path, &[]);
            assert_eq!((r.status, r.body.as_str()), (204, ""), "{path}");
            let headers: Vec<_> = r.headers().collect();
            assert_eq!(
                headers,
                [
                    ("Access-Control-Allow-Origin", "*"),
                    ("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS"),
                    ("Access-Control-Allow-Headers", "*")
                ]
            );
        }
        let get: Vec<_> = route(&g, s.sim(), "GET", "/jobs", &[]).headers().collect();
        assert_eq!(get, [("Content-Type", JSON), ("Access-Control-Allow-Origin", "*")]);
    }

    #[test]
    fn aggregation_follows_flink_and_a_missing_metric_empties_the_answer() {
        let s = seed_001_at(120_000);
        let g = JobGraph::of(s.sim(), "j");
        let path = format!("/jobs/{}/vertices/{}/subtasks/metrics", g.job_id, g.vertices[1].id);
        let q = |get: &str, extra: &[(&str, &str)]| {
            let mut v = vec![("get".to_string(), get.to_string())];
            v.extend(extra.iter().map(|(k, x)| (k.to_string(), x.to_string())));
            serde_json::from_str::<Value>(&route(&g, s.sim(), "GET", &path, &v).body).unwrap()
        };
        let per_subtask: Vec<f64> = s.sim().metrics().window.iter().map(|w| w.num_records_in as f64).collect();
        let a = q("numRecordsIn", &[]);
        assert_eq!(a[0]["sum"], json!(per_subtask.iter().sum::<f64>()));
        assert_eq!(a[0]["min"], json!(per_subtask.iter().copied().fold(f64::INFINITY, f64::min)));
        assert_eq!(q("numRecordsIn", &[("subtasks", "2")])[0]["max"], json!(per_subtask[2]));
        assert_eq!(q("numRecordsIn,noSuchMetric", &[]), json!([]));
    }

    #[test]
    fn exposition_names_and_labels_are_the_prometheus_reporters() {
        let s = seed_001_at(120_000);
        let g = JobGraph::of(s.sim(), &s.scenario().name);
        let text = route(&g, s.sim(), "GET", "/metrics", &[]).body;
        let line = text.lines().find(|l| l.starts_with("flink_taskmanager_job_task_operator_currentInputWatermark{")).unwrap();
        for label in [
            "job_id=\"",
            "job_name=\"seed_001:_one_heartbeat",
            "task_name=\"Window_",
            "subtask_index=\"0\"",
            "operator_name=\"Window_",
            "tm_id=\"",
        ] {
            assert!(line.contains(label), "{label} in {line}");
        }
        assert!(text.contains("# TYPE flink_taskmanager_job_task_numRecordsIn gauge"));
        assert!(text.contains("flink_jobmanager_job_numRestarts{"));
        assert!(text.contains(&format!("wmp_processing_time_seconds{{host=\"localhost\",job_id=\"{}\"", g.job_id)));
        // Sources register no input watermark.
        assert!(!text.lines().any(|l| l.starts_with("flink_taskmanager_job_task_currentInputWatermark{") && l.contains("Source")));
    }
}
