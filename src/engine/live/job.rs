//! The [`LiveJob`] model: a real job's vertices and, per subtask, what its metrics said at the
//! last poll, read from a [`Bundle`]. Every metric is an `Option`: a missing one is unknown, not
//! zero (a JobManager reports only what its tasks registered and its fetcher has cached).

use super::bundle::{job_path, overview_path, vertex_path, Bundle};
use super::error::LiveError;
use super::metric_id::{self, Scope};
use serde::Serialize;
use serde_json::Value;

/// One row of `/jobs/overview`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct JobSummary {
    pub id: String,
    pub name: String,
    pub state: String,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct LiveSplit {
    pub id: String,
    /// `split.<id>.watermark.currentWatermark`.
    pub watermark: Option<i64>,
    /// `split.<id>.watermark.idleTimeMsPerSecond`: > 0 while Flink has marked the split idle.
    pub idle_ms_per_s: Option<f64>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct LiveSubtask {
    pub index: u32,
    pub input_watermark: Option<i64>,
    /// The head operator's `currentOutputWatermark` (a source's: what it sends downstream).
    pub output_watermark: Option<i64>,
    /// Task `idleTimeMsPerSecond`: time waiting for input (or, for a source, for data).
    pub idle_ms_per_s: Option<f64>,
    pub busy_ms_per_s: Option<f64>,
    pub back_pressured_ms_per_s: Option<f64>,
    pub records_in: Option<i64>,
    pub records_out: Option<i64>,
    /// A source's `sourceIdleTime`: ms since it last emitted a record.
    pub source_idle_time_ms: Option<i64>,
    pub watermark_lag_ms: Option<i64>,
    /// A window operator's `numLateRecordsDropped`: records behind its watermark, dropped.
    pub late_records_dropped: Option<i64>,
    pub splits: Vec<LiveSplit>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LiveVertex {
    pub id: String,
    pub name: String,
    pub parallelism: u32,
    pub status: String,
    /// The vertices feeding this one (from the job's `plan`); empty for a source.
    pub inputs: Vec<String>,
    /// The plan's `ship_strategy` of its inputs (`HASH`, `REBALANCE`, `FORWARD`, …), when given.
    pub ship_strategy: Option<String>,
    /// `backpressure-level` of the vertex, when the back-pressure endpoint was read.
    pub back_pressure_level: Option<String>,
    pub subtasks: Vec<LiveSubtask>,
}

impl LiveVertex {
    pub fn is_source(&self) -> bool {
        self.inputs.is_empty()
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LiveJob {
    pub id: String,
    pub name: String,
    pub state: String,
    /// The JobManager's clock at the answer (`now`), ms since the epoch.
    pub now_ms: Option<i64>,
    pub vertices: Vec<LiveVertex>,
}

/// States after which a job has nothing left to poll.
const ENDED: [&str; 6] = ["FAILING", "FAILED", "CANCELLING", "CANCELED", "FINISHED", "SUSPENDED"];

fn field<'a>(v: &'a Value, path: &str, name: &str) -> Result<&'a Value, LiveError> {
    v.get(name).ok_or_else(|| LiveError::shape(format!("{path}.{name}"), "missing"))
}
fn str_field(v: &Value, path: &str, name: &str) -> Result<String, LiveError> {
    field(v, path, name)?.as_str().map(String::from).ok_or_else(|| LiveError::shape(format!("{path}.{name}"), "expected a string"))
}
fn array<'a>(v: &'a Value, path: &str) -> Result<&'a Vec<Value>, LiveError> {
    v.as_array().ok_or_else(|| LiveError::shape(path, "expected an array"))
}

/// `/jobs/overview` → its jobs.
pub fn parse_overview(v: &Value) -> Result<Vec<JobSummary>, LiveError> {
    let path = overview_path();
    let jobs = array(field(v, &path, "jobs")?, &format!("{path}.jobs"))?;
    jobs.iter()
        .enumerate()
        .map(|(i, j)| {
            let p = format!("{path}.jobs[{i}]");
            Ok(JobSummary { id: str_field(j, &p, "jid")?, name: str_field(j, &p, "name")?, state: str_field(j, &p, "state")? })
        })
        .collect()
}

/// A metric value: Flink sends strings (`"1767225600999"`, `"22.0"`); numbers are accepted too.
fn number(v: &Value) -> Option<f64> {
    v.as_f64().or_else(|| v.as_str()?.trim().parse().ok())
}
fn integer(v: &Value) -> Option<i64> {
    v.as_i64().or_else(|| v.as_str()?.trim().parse().ok()).or_else(|| number(v).map(|f| f as i64))
}

impl LiveJob {
    /// Reads job `job_id` from `b`: its details (required), then per vertex the optional
    /// watermarks, metrics and back-pressure answers. An ended job is [`LiveError::NotRunning`].
    pub fn from_bundle(b: &Bundle, job_id: &str) -> Result<LiveJob, LiveError> {
        let path = job_path(job_id);
        let d = b.get(&path)?;
        let state = str_field(d, &path, "state")?;
        if ENDED.contains(&state.as_str()) {
            return Err(LiveError::NotRunning { job_id: job_id.into(), state });
        }
        let inputs = plan_inputs(d);
        let vertices = array(field(d, &path, "vertices")?, &format!("{path}.vertices"))?
            .iter()
            .enumerate()
            .map(|(i, v)| vertex(b, job_id, v, &format!("{path}.vertices[{i}]"), &inputs))
            .collect::<Result<_, _>>()?;
        Ok(LiveJob { id: job_id.into(), name: str_field(d, &path, "name")?, state, now_ms: d.get("now").and_then(integer), vertices })
    }

    /// The job of a bundle that holds one: the job its details are for, else the first RUNNING
    /// job of its overview.
    pub fn only_job_id(b: &Bundle) -> Result<String, LiveError> {
        let jobs = parse_overview(b.get(&overview_path())?)?;
        if jobs.is_empty() {
            return Err(LiveError::shape("/jobs/overview.jobs", "the overview lists no job (is one running on that JobManager?)"));
        }
        let mut ids = jobs.iter().filter(|j| b.optional(&job_path(&j.id)).ok().flatten().is_some()).map(|j| j.id.clone());
        let first = ids.next().or_else(|| jobs.iter().find(|j| j.state == "RUNNING").map(|j| j.id.clone()));
        first.ok_or_else(|| LiveError::shape("/jobs/overview.jobs", "no job in the overview has its details in the bundle"))
    }
}

/// One plan node: its id, the ids of its inputs and their first `ship_strategy`.
type PlanNode = (String, Vec<String>, Option<String>);

/// The plan's edges, from `plan.nodes[].inputs[]` (`id`, `ship_strategy`; absent: no edges known).
fn plan_inputs(d: &Value) -> Vec<PlanNode> {
    let nodes = d.pointer("/plan/nodes").and_then(Value::as_array).into_iter().flatten();
    nodes
        .filter_map(|n| {
            let ins: Vec<&Value> = n.get("inputs").and_then(Value::as_array).into_iter().flatten().collect();
            let ids = ins.iter().filter_map(|i| Some(i.get("id")?.as_str()?.to_string())).collect();
            let ship = ins.iter().find_map(|i| i.get("ship_strategy")?.as_str().map(String::from));
            Some((n.get("id")?.as_str()?.to_string(), ids, ship))
        })
        .collect()
}

fn vertex(b: &Bundle, job_id: &str, v: &Value, path: &str, plan: &[PlanNode]) -> Result<LiveVertex, LiveError> {
    let id = str_field(v, path, "id")?;
    let name = str_field(v, path, "name")?;
    let parallelism = field(v, path, "parallelism")?
        .as_u64()
        .filter(|p| (1..=32_768).contains(p))
        .ok_or_else(|| LiveError::shape(format!("{path}.parallelism"), "expected a parallelism from 1 to 32768"))?
        as u32;
    let node = plan.iter().find(|(n, _, _)| *n == id);
    let inputs = match node {
        Some((_, ins, _)) => ins.clone(),
        None if name.starts_with("Source:") => Vec::new(),
        None => vec![String::new()], // an input exists, which one is unknown
    };
    let ship_strategy = node.and_then(|(_, _, ship)| ship.clone());
    let mut subtasks: Vec<LiveSubtask> = (0..parallelism).map(|index| LiveSubtask { index, ..Default::default() }).collect();
    if let Some(w) = b.optional(&vertex_path(job_id, &id, "watermarks"))? {
        apply_metrics(&mut subtasks, w, &vertex_path(job_id, &id, "watermarks"), &name)?;
    }
    if let Some(m) = b.optional(&vertex_path(job_id, &id, "metrics"))? {
        apply_metrics(&mut subtasks, m, &vertex_path(job_id, &id, "metrics"), &name)?;
    }
    let bp_path = vertex_path(job_id, &id, "backpressure");
    let back_pressure_level = b
        .optional(&bp_path)?
        .and_then(|bp| bp.get("backpressure-level").or_else(|| bp.get("backpressureLevel")).and_then(Value::as_str).map(String::from));
    let status = v.get("status").and_then(Value::as_str).unwrap_or("UNKNOWN").to_string();
    Ok(LiveVertex { id, name, parallelism, status, inputs, ship_strategy, back_pressure_level, subtasks })
}

/// Applies `[{"id":"0.numRecordsIn","value":"3"}, …]` to the subtasks; ids of subtasks the
/// vertex does not have and names not read are skipped.
fn apply_metrics(subtasks: &mut [LiveSubtask], answer: &Value, path: &str, vertex_name: &str) -> Result<(), LiveError> {
    let chain = metric_id::chain_operators(vertex_name);
    // Operator-scope output watermarks, kept with their chain position: the head's wins.
    let mut out_rank = vec![usize::MAX; subtasks.len()];
    for (i, m) in array(answer, path)?.iter().enumerate() {
        let p = format!("{path}[{i}]");
        let id = str_field(m, &p, "id")?;
        let Some(value) = m.get("value") else { continue };
        let Some(mid) = metric_id::parse(&id) else { continue };
        let Some(st) = subtasks.get_mut(mid.subtask as usize) else { continue };
        match mid.scope {
            Scope::Task => apply_task(st, mid.name, value),
            Scope::Operator(op) => {
                let rank = chain.iter().position(|c| c == op).unwrap_or(usize::MAX - 1);
                apply_operator(st, mid.name, value, rank, &mut out_rank[mid.subtask as usize]);
            }
            Scope::Split { split, .. } => apply_split(st, split, mid.name, value),
        }
    }
    Ok(())
}

fn apply_task(st: &mut LiveSubtask, name: &str, v: &Value) {
    match name {
        "currentInputWatermark" => st.input_watermark = integer(v),
        "idleTimeMsPerSecond" => st.idle_ms_per_s = number(v),
        "busyTimeMsPerSecond" => st.busy_ms_per_s = number(v),
        "backPressuredTimeMsPerSecond" => st.back_pressured_ms_per_s = number(v),
        "numRecordsIn" => st.records_in = integer(v),
        "numRecordsOut" => st.records_out = integer(v),
        _ => {}
    }
}

fn apply_operator(st: &mut LiveSubtask, name: &str, v: &Value, rank: usize, best: &mut usize) {
    match name {
        "currentOutputWatermark" if rank < *best => {
            st.output_watermark = integer(v);
            *best = rank;
        }
        "currentInputWatermark" if st.input_watermark.is_none() => st.input_watermark = integer(v),
        "sourceIdleTime" => st.source_idle_time_ms = integer(v),
        "watermarkLag" => st.watermark_lag_ms = integer(v),
        // Summed: a chain may hold more than one window operator.
        "numLateRecordsDropped" => st.late_records_dropped = integer(v).map(|n| n + st.late_records_dropped.unwrap_or(0)),
        _ => {}
    }
}

fn apply_split(st: &mut LiveSubtask, split: &str, name: &str, v: &Value) {
    let i = match st.splits.iter().position(|s| s.id == split) {
        Some(i) => i,
        None => {
            st.splits.push(LiveSplit { id: split.into(), ..Default::default() });
            st.splits.len() - 1
        }
    };
    match name {
        "currentWatermark" => st.splits[i].watermark = integer(v),
        "idleTimeMsPerSecond" => st.splits[i].idle_ms_per_s = number(v),
        _ => {}
    }
}
