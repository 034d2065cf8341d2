//! The JS shapes of the engine's views, owned once here.
//!
//! The views themselves live beside what they show (`snapshot`, `metrics`, `explain`,
//! `trace`, `scenario::catalog`) and serialize straight to the objects the JS API returns:
//! camelCase fields, every watermark as a [`Watermark`] `{ ms, raw }`. This module holds what
//! they share and the views that exist only to resolve key ids to names or to number results:
//!
//! - `watermark`: the `{ ms, raw }` object and the `serialize_with` helpers that write an
//!   `EventTime` field as one, so the Rust field stays an `EventTime` for the UI;
//! - `results`: window emissions and late records with key names (`windows()`, `lateRecords()`,
//!   the `window` and `late` events);
//! - `events`: the trace delta `eventsSince(cursor)` returns;
//! - `notify`: what `on(event, cb)` hands to its callbacks;
//! - `names`: how every view names a source subtask (`3` with one source, `rates·0` with two);
//! - `shapes` (tests only): pins the field names the API documents, natively;
//! - `typescript` (tests only): renders every view's TypeScript declaration into
//!   `src/api/types.gen.d.ts` and fails when the committed file differs.
//!
//! The TypeScript derives are `#[cfg_attr(test, derive(ts_rs::TS))]`: ts-rs is a dev-dependency,
//! so neither the native nor the wasm build of the crate links it.

pub mod events;
pub mod names;
pub mod notify;
pub mod results;
pub mod watermark;

#[cfg(test)]
mod shapes;
#[cfg(test)]
mod typescript;

pub use watermark::Watermark;
