//! The JS API (wasm32 only): a thin, typed, pull-based wrapper over the engine.
