//! `GET /jobs` (`JobIdsWithStatusOverview`), `/jobs/overview`, `GET /jobs/:jobid`
//! (`JobDetailsInfo`) and `GET /jobs/:jobid/vertices/:vertexid` (`JobVertexDetailsInfo`) for
//! the simulated job, with Flink's field names.
//!
//! Times (`start-time`, `now`, `duration`, the `timestamps`) are the simulation's processing
//! time, its wall clock: ms since the epoch from the scenario's `start_time_ms`, advancing with
//! `wmp serve`'s pacing, not the machine's clock. A job that is restarting shows its vertices
//! `CANCELED` (Flink cancels the tasks, waits the restart delay, then deploys them again);
//! bytes are not modelled (`read-bytes`/`write-bytes` are 0).

use super::graph::{JobGraph, Vertex, VertexKind};
use super::store::Subtask;
use crate::engine::failover::JobStatus;
use crate::engine::partitioner::default_max_parallelism;
use crate::engine::sim::Simulation;
use serde_json::{json, Map, Value};

/// Flink's `JobStatus` names, in its declaration order.
const JOB_STATES: [&str; 11] = [
    "INITIALIZING",
    "CREATED",
    "RUNNING",
    "FAILING",
    "FAILED",
    "CANCELLING",
    "CANCELED",
    "FINISHED",
    "RESTARTING",
    "SUSPENDED",
    "RECONCILING",
];
/// Flink's `ExecutionState` names, in its declaration order.
const TASK_STATES: [&str; 10] =
    ["CREATED", "SCHEDULED", "DEPLOYING", "RUNNING", "FINISHED", "CANCELING", "CANCELED", "FAILED", "RECONCILING", "INITIALIZING"];

/// The job's `JobStatus` name.
pub fn job_state(sim: &Simulation) -> &'static str {
    match sim.job_status() {
        JobStatus::Running => "RUNNING",
        JobStatus::Restarting => "RESTARTING",
        JobStatus::Failed => "FAILED",
    }
}

/// When the job reached a terminal state: the instant it FAILED for good, else -1 (Flink's
/// `end-time` of a job or task that still runs).
fn end_time(sim: &Simulation) -> i64 {
    match (sim.job_status(), sim.failover().failed_at) {
        (JobStatus::Failed, Some(at)) => at.ms(),
        _ => -1,
    }
}

/// `end-time` and `duration` (to the end, or to now while it runs).
fn ended(sim: &Simulation, start: i64, now: i64) -> (i64, i64) {
    let end = end_time(sim);
    (end, if end >= 0 { end - start } else { now - start })
}

/// The `ExecutionState` of every task of the job.
fn task_state(sim: &Simulation) -> &'static str {
    match sim.job_status() {
        JobStatus::Running => "RUNNING",
        JobStatus::Restarting => "CANCELED",
        JobStatus::Failed => "FAILED",
    }
}

/// `GET /jobs`: `{"jobs":[{"id":…,"status":…}]}`.
pub fn jobs(graph: &JobGraph, sim: &Simulation) -> Value {
    json!({ "jobs": [{ "id": graph.job_id, "status": job_state(sim) }] })
}

fn counts(names: &[&str], set: &str, n: u32) -> Map<String, Value> {
    names.iter().map(|s| (s.to_string(), json!(if *s == set { n } else { 0 }))).collect()
}

/// A subtask's records in and out: its task's `numRecordsIn` and `numRecordsOut` (0 if absent).
fn io_records(s: &Subtask) -> (i64, i64) {
    let get = |name| s.samples.iter().find(|x| x.operator.is_none() && x.name == name).map_or(0, |x| x.value.number() as i64);
    (get("numRecordsIn"), get("numRecordsOut"))
}

/// `IOMetricsInfo`: records counted, bytes not modelled (0, complete).
fn io_metrics(read: i64, written: i64) -> Value {
    json!({
        "read-bytes": 0, "read-bytes-complete": true, "write-bytes": 0, "write-bytes-complete": true,
        "read-records": read, "read-records-complete": true, "write-records": written, "write-records-complete": true,
        "accumulated-backpressured-time": 0, "accumulated-idle-time": 0, "accumulated-busy-time": 0.0
    })
}

fn vertex_json(v: &Vertex, sim: &Simulation, subtasks: &[Subtask], start: i64, now: i64) -> Value {
    let (read, written) = subtasks.iter().map(io_records).fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    let (end, duration) = ended(sim, start, now);
    json!({
        "id": v.id,
        "slotSharingGroupId": super::ids::hex_id(&[b"slot-sharing-group", b"default"]),
        "name": v.name,
        "maxParallelism": default_max_parallelism(v.parallelism),
        "parallelism": v.parallelism,
        "status": task_state(sim),
        "start-time": start,
        "end-time": end,
        "duration": duration,
        "tasks": counts(&TASK_STATES, task_state(sim), v.parallelism),
        "metrics": io_metrics(read, written),
    })
}

/// `GET /jobs/:jobid/vertices/:vertexid` (`JobVertexDetailsInfo`): each subtask's current
/// attempt (its number is the restarts so far), TaskManager and records.
pub fn vertex_details(v: &Vertex, sim: &Simulation, subtasks: &[Subtask]) -> Value {
    let (start, now) = (sim.config().start_time.ms(), sim.metrics().now.ms());
    let attempt = sim.failover().restarts();
    let (end, duration) = ended(sim, start, now);
    let subs: Vec<Value> = subtasks
        .iter()
        .map(|s| {
            let (read, written) = io_records(s);
            json!({
                "subtask": s.index, "status": task_state(sim), "attempt": attempt,
                "endpoint": format!("{}:{}", super::prometheus::HOST, 6121 + s.task_manager),
                "start-time": start, "end-time": end, "duration": duration,
                "metrics": io_metrics(read, written), "taskmanager-id": format!("taskmanager_{}", s.task_manager)
            })
        })
        .collect();
    json!({
        "id": v.id, "name": v.name, "parallelism": v.parallelism,
        "maxParallelism": default_max_parallelism(v.parallelism), "now": now, "subtasks": subs
    })
}

/// The `plan`: one node per vertex, the keyed vertex's inputs hash-partitioned from the sources.
fn plan(graph: &JobGraph) -> Value {
    let nodes: Vec<Value> = graph
        .vertices
        .iter()
        .map(|v| {
            let inputs: Vec<Value> = match v.kind {
                VertexKind::Keyed { .. } => graph
                    .vertices
                    .iter()
                    .filter(|u| !matches!(u.kind, VertexKind::Keyed { .. }))
                    .enumerate()
                    .map(|(num, u)| json!({ "num": num, "id": u.id, "ship_strategy": "HASH", "exchange": "pipelined_bounded" }))
                    .collect(),
                VertexKind::Source { .. } => Vec::new(),
            };
            let mut node = json!({ "id": v.id, "parallelism": v.parallelism, "operator": "", "operator_strategy": "",
                                   "description": v.name, "optimizer_properties": {} });
            if !inputs.is_empty() {
                node["inputs"] = json!(inputs);
            }
            node
        })
        .collect();
    json!({ "jid": graph.job_id, "name": graph.job_name, "type": "STREAMING", "nodes": nodes })
}

/// `GET /jobs/:jobid` (`JobDetailsInfo`).
pub fn job_details(graph: &JobGraph, sim: &Simulation) -> Value {
    let m = sim.metrics();
    let start = sim.config().start_time.ms();
    let all = super::all_subtasks(graph, sim);
    let mut timestamps = counts(&JOB_STATES, "", 0);
    for s in ["INITIALIZING", "CREATED", "RUNNING"] {
        timestamps.insert(s.into(), json!(start));
    }
    let (end, duration) = ended(sim, start, m.now.ms());
    if end >= 0 {
        timestamps.insert("FAILED".into(), json!(end));
    }
    let vertices: Vec<Value> = graph.vertices.iter().zip(&all).map(|(v, subs)| vertex_json(v, sim, subs, start, m.now.ms())).collect();
    json!({
        "jid": graph.job_id,
        "name": graph.job_name,
        "isStoppable": false,
        "state": job_state(sim),
        "job-type": "STREAMING",
        "start-time": start,
        "end-time": end,
        "duration": duration,
        "maxParallelism": -1,
        "now": m.now.ms(),
        "timestamps": timestamps,
        "vertices": vertices,
        "status-counts": counts(&TASK_STATES, task_state(sim), graph.vertices.len() as u32),
        "plan": plan(graph),
    })
}

/// `GET /jobs/overview` (`MultipleJobsDetails`): the job with its task counts.
pub fn overview(graph: &JobGraph, sim: &Simulation) -> Value {
    let start = sim.config().start_time.ms();
    let now = sim.metrics().now.ms();
    let total: u32 = graph.vertices.iter().map(|v| v.parallelism).sum();
    let mut tasks: Map<String, Value> =
        counts(&TASK_STATES, task_state(sim), total).into_iter().map(|(k, v)| (k.to_ascii_lowercase(), v)).collect();
    tasks.insert("total".into(), json!(total));
    let (end, duration) = ended(sim, start, now);
    json!({ "jobs": [{
        "jid": graph.job_id, "name": graph.job_name, "start-time": start, "end-time": end, "duration": duration,
        "state": job_state(sim), "last-modification": start, "tasks": tasks, "pending-operators": 0
    }] })
}
