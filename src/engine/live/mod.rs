//! The live link's engine side: reading a real Flink JobManager's REST answers (the reverse of
//! [`super::rest`], which writes them for a simulated job) into a [`LiveJob`], explaining which
//! subtask holds the watermark, and seeding a scenario from the job's shape. Pure: JSON
//! text in, values out; the UI fetches and polls, the engine never does I/O or reads a clock.
//! docs/LIVE.md describes what is read and what the explanation can and cannot know.
//!
//! Files: `bundle` (the answers keyed by endpoint path, the paths themselves and which metrics
//! are read), `error` ([`LiveError`]), `job` (the [`LiveJob`] model and its parsing),
//! `metric_id` (Flink's `<subtask>.<operator>.<name>` metric ids), `explain` (who holds the
//! minimum and why), `node_notes` (what each node's metrics say, for the live graph's WHY
//! panel), `to_scenario` (a scenario with the job's shape), `to_snapshot` (the job as the
//! simulated job's snapshot, so the UI draws it with the same graph and tables).

pub mod bundle;
pub mod error;
pub mod explain;
pub mod job;
pub mod metric_id;
pub mod node_notes;
pub mod to_scenario;
pub mod to_snapshot;

pub use bundle::Bundle;
pub use error::LiveError;
pub use job::{JobSummary, LiveJob, LiveSubtask, LiveVertex};
