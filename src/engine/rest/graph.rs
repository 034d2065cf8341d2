//! The simulated job as Flink's REST API and metric reporters see it: a job (id, name) with its
//! job vertices — one per source (with the watermark operator chained after it, if any) and the
//! keyed operator chained with the sink — each with its operators, parallelism and hashed ids
//! ([`super::ids`]).
//!
//! Names follow what Flink prints for the equivalent DataStream job: `Source: <name>` (the
//! `fromSource` name; the playground's Java snippet uses the topic), `Timestamps/Watermarks`,
//! `Window(<assigner>)` / `IntervalJoin`, `Sink: Results`, chained operators joined with ` -> `
//! as in a task name. Flink's window operator name also lists the trigger and the functions
//! (`Window(TumblingEventTimeWindows(60000), EventTimeTrigger, CountAggregate, …)`); the
//! simulation shows the assigner only.

use super::ids;
use crate::engine::operator::assigner::WindowSpec;
use crate::engine::sim::Simulation;

/// Flink's default job name (`StreamExecutionEnvironment.execute()` without a name).
pub const DEFAULT_JOB_NAME: &str = "Flink Streaming Job";

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operator {
    pub id: String,
    pub name: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VertexKind {
    /// The source subtasks of job input `input`: global source indexes `first..first + parallelism`.
    Source { input: u8, first: u32 },
    /// The keyed operator (windows, or an interval join: `join`) chained with the sink.
    Keyed { join: bool },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vertex {
    pub id: String,
    /// The task name: the chained operators' names joined with ` -> `.
    pub name: String,
    /// The chain's operators; the first is the head (the one whose metrics Flink's task reports).
    pub operators: Vec<Operator>,
    pub parallelism: u32,
    pub kind: VertexKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobGraph {
    pub job_id: String,
    pub job_name: String,
    pub vertices: Vec<Vertex>,
}

fn assigner_name(w: &WindowSpec) -> String {
    match *w {
        WindowSpec::Tumbling { size_ms, .. } => format!("TumblingEventTimeWindows({size_ms})"),
        WindowSpec::Sliding { size_ms, slide_ms, .. } => format!("SlidingEventTimeWindows({size_ms}, {slide_ms})"),
        WindowSpec::Session { gap_ms } => format!("EventTimeSessionWindows({gap_ms})"),
        WindowSpec::Cumulate { step_ms, max_size_ms, .. } => format!("CUMULATE({step_ms}, {max_size_ms})"),
    }
}

fn vertex(job_name: &str, position: usize, operator_names: Vec<String>, parallelism: u32, kind: VertexKind) -> Vertex {
    let name = operator_names.join(" -> ");
    let id = ids::vertex_id(job_name, position, &name);
    let operators = operator_names.into_iter().map(|n| Operator { id: ids::operator_id(&id, &n), name: n }).collect();
    Vertex { id, name, operators, parallelism, kind }
}

impl JobGraph {
    /// The job graph of `sim`, named `name` (Flink's default job name when empty).
    pub fn of(sim: &Simulation, name: &str) -> Self {
        let job_name = if name.trim().is_empty() { DEFAULT_JOB_NAME.to_string() } else { name.to_string() };
        let cfg = sim.config();
        let mut vertices = Vec::new();
        let mut first = 0;
        for (i, input) in cfg.inputs.iter().enumerate() {
            let mut ops = vec![format!("Source: {}", input.topic)];
            if input.midstream.is_some() {
                ops.push("Timestamps/Watermarks".to_string());
            }
            vertices.push(vertex(&job_name, i, ops, input.source_parallelism, VertexKind::Source { input: i as u8, first }));
            first += input.source_parallelism;
        }
        let keyed = match cfg.interval_join {
            Some(_) => "IntervalJoin".to_string(),
            None => format!("Window({})", assigner_name(&cfg.window)),
        };
        let (n, kind) = (vertices.len(), VertexKind::Keyed { join: cfg.interval_join.is_some() });
        vertices.push(vertex(&job_name, n, vec![keyed, "Sink: Results".to_string()], cfg.window_parallelism, kind));
        JobGraph { job_id: ids::job_id(&job_name), job_name, vertices }
    }

    pub fn vertex(&self, id: &str) -> Option<&Vertex> {
        self.vertices.iter().find(|v| v.id == id)
    }
}
