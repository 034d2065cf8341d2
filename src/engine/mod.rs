//! The watermark engine: a deterministic, sans-IO model of Flink's event-time machinery.
//!
//! Nothing here reads a clock, the environment or OS randomness, and no hash map is iterated:
//! the same scenario gives the same trace, byte for byte, natively and in wasm.
//! Dependency direction: `time`/`keys`/`rng` ← `source`, `valve`, `operator` ← `sim` ←
//! `scenario`, `snapshot`, `explain`, `metrics`, `deltas` ← `session`, the one way the CLI, the
//! JS API (`src/api/`) and the UI (`src/web/`) drive a simulation. The engine names neither edge.
//! The views serialize straight to the JS API's shapes; `view` owns what those shapes share.

// No silent sign changes between signed and unsigned counts and times: a conversion is either
// checked (`try_from`, `unsigned_abs`) or an explicit reinterpretation of bits (`cast_signed`,
// `cast_unsigned`, for hashes and Java's `int` arithmetic). `cargo clippy` enforces it.
#![deny(clippy::cast_sign_loss, clippy::cast_possible_wrap)]

pub mod alignment;
pub mod channel;
pub mod checkpoint;
pub mod combined_watermark;
pub mod command;
pub mod deltas;
pub mod diagnosis;
pub mod downstream;
pub mod element;
pub mod error;
pub mod explain;
mod explain_ahead;
pub mod explain_text;
#[cfg(feature = "tools")]
pub mod export;
pub mod failover;
pub mod fingerprint;
pub mod flow;
pub mod holding;
pub mod input_twin;
pub mod job;
pub mod job_run;
pub mod json_document;
pub mod keys;
pub mod late_records;
pub mod limits;
pub mod live;
pub mod metrics;
pub mod observer;
pub mod operator;
pub mod operator_input;
pub mod param_in_effect;
pub mod partition;
pub mod partitioner;
pub mod poll;
pub mod producer;
pub mod read;
pub mod report;
pub mod rest;
pub mod restart_strategy;
pub mod rng;
pub mod scenario;
pub mod session;
pub mod sim;
pub mod snapshot;
pub mod source;
#[cfg(feature = "tools")]
pub mod sql;
pub mod state_size;
pub mod status;
pub mod stopping_offset;
pub mod task_manager;
pub mod time;
pub mod topics;
pub mod trace;
pub mod value_path;
pub mod valve;
pub mod view;
pub mod window_subtask;
