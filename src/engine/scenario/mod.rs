//! Scenario files: the engine's own JSON format (`schema`), its validation and construction
//! (`build`), and the Flink oracle's format (`oracle`) for differential tests.

pub mod build;
pub mod catalog;
pub mod oracle;
pub mod schema;
