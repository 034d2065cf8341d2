//! Scenario files: the engine's own JSON format (`schema`, its producers in `producer_spec`), its validation and construction
//! (`build`) with its `flow` and `checkpointing` blocks, the settings it starts with (`start_settings`), and the Flink oracles' formats for differential tests: the shared one-input oracle
//! (`oracle`) and the project's two-input oracle (`oracle2`, `tools/oracle/`), which share the
//! schedule rules (`oracle_schedule`), and its alignment and checkpoint/restore oracle (`oracle3`,
//! driven by `oracle3_driver`, with its result shape in `oracle3_report`).

pub mod build;
pub mod catalog;
pub mod checkpointing;
pub mod flink_version;
pub mod flow;
pub mod oracle;
pub mod oracle2;
pub mod oracle3;
pub mod oracle3_driver;
pub mod oracle3_report;
pub mod oracle_schedule;
pub mod producer_spec;
pub mod schema;
pub mod start_settings;
