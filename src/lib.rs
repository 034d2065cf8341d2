//! Watermark Playground: a deterministic, Flink-faithful simulator of event time.
//!
//! `engine` is pure Rust (no clocks, no OS randomness, no web crates); the web front end
//! lives under `web`; its DOM parts are compiled only for `wasm32`.
pub mod engine;

#[cfg(target_arch = "wasm32")]
pub mod api;
pub mod web;
