//! Operators downstream of the source: the keyed event-time window operator and its pieces
//! (assigners, triggers, Flink SQL's window rules), and the sink.

pub mod aggregate;
pub mod assigner;
pub mod hot_windows;
pub mod interval_join;
pub mod join_results;
pub mod midstream;
pub mod session;
pub mod sink;
pub mod sql_window;
pub mod timestamps_and_watermarks;
pub mod trigger;
pub mod watermark_assigner;
pub mod window_operator;
