//! The job-level diagnosis: what the simulation observed per partition (`observed`,
//! `histogram`), each partition's class as Flink users need it (`classify`), the findings —
//! symptom, evidence in numbers, the Flink metric that confirms it, a fix the engine can apply
//! (`finding`, `diagnose`) — the advisor for the bound, the idle timeout and allowed lateness
//! (`advisor`), and event-time lag per subtask (`lag`).
//!
//! One diagnosis of one instant answers every view: the WHY panel, the preset card, the graph
//! highlight, the embed line, the JS API and the CLI report.

pub mod advisor;
mod advisor_lateness;
mod advisor_silence;
pub mod classify;
pub mod diagnose;
pub mod finding;
mod flow_findings;
pub mod histogram;
mod job_findings;
pub mod lag;
pub mod observed;
mod partition_findings;
mod partitions;
mod topology_findings;

pub use diagnose::{Diagnosis, DiagnosisOptions};
pub mod text;
