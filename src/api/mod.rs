//! The JS API (wasm32 only): a thin, typed, pull-based wrapper over the engine.
//!
//! One class, [`WatermarkPlayground`], drives one engine [`Session`](crate::engine::session::Session)
//! — the same session `wmp run` and the UI drive, with the same command checks and run loops.
//! Reads are pull-based (`snapshot()`, `eventsSince(cursor)`, …); `on(event, cb)` callbacks are
//! fed from the same deltas and run at the end of the call that produced them, after the engine
//! has returned. Every bad argument is a JS `Error`/`RangeError`/`TypeError` naming the argument
//! or field path; input is validated completely before the engine sees it, so no call can trap
//! the instance. The declarations are written by hand in `wmp.d.ts` next to this file; the
//! reference is `docs/API.md`.
//!
//! Files, one concept each:
//! - `error`: the engine's input error (kind + path + message) as a JS error;
//! - `convert`: JS values in (numbers, BigInt, plain objects → serde), JSON out;
//! - `types`: the plain objects the API returns (camelCase, watermarks as `{ms, raw}`);
//! - `events`: listeners, fed from the engine's delta cursor by a run-loop observer;
//! - `mount`: `mount(element, options)`, which places the UI (`src/web/`) into a page;
//! - `playground`: the exported class, thin methods over the above.

pub mod convert;
pub mod error;
pub mod mount;
pub mod events;
pub mod playground;
pub mod types;

pub use events::Subscription;
pub use playground::WatermarkPlayground;
