//! Scenario files: the engine's own JSON format (`schema`), its validation and construction
//! (`build`), and the Flink oracles' formats for differential tests: the shared one-input oracle
//! (`oracle`) and the project's two-input oracle (`oracle2`, `tools/oracle/`), which share the
//! schedule rules (`oracle_schedule`).

pub mod build;
pub mod catalog;
pub mod flow_spec;
pub mod oracle;
pub mod oracle2;
pub mod oracle_schedule;
pub mod schema;
