//! The JS API (wasm32 only): a thin, typed, pull-based wrapper over the engine.
//!
//! One class, [`WatermarkPlayground`], drives one engine [`Session`](crate::engine::session::Session)
//! — the same session `wmp run` and the UI drive, with the same command checks and run loops.
//! Reads are pull-based (`snapshot()`, `eventsSince(cursor)`, …); `on(event, cb)` callbacks are
//! fed from the same deltas and run at the end of the call that produced them, after the engine
//! has returned. Every bad argument is a JS `Error`/`RangeError`/`TypeError` naming the argument
//! or field path; input is validated completely before the engine sees it, so no call can trap
//! the instance. The objects the reads return are the engine's own view structs, which
//! serialize to the JS shapes (`crate::engine::view`); their TypeScript declarations are
//! generated into `types.gen.d.ts` next to this file, and the hand-written `wmp.d.ts` declares
//! the rest (the class, the scenario input types, the map of `on()` events) and re-exports
//! them. Reference: `docs/API.md`.
//!
//! Files, one concept each:
//! - `error`: the engine's input error (kind + path + message) as a JS error;
//! - `convert`: JS values in (numbers, BigInt, plain objects → serde), JSON out;
//! - `events`: listeners, fed from the engine's delta cursor by a run-loop observer;
//! - `mount`: `mount(element, options)`, which places the UI (`src/web/`) into a page; `mounted`
//!   the object it returns (the player, `queries` and the commands over the mounted simulation); `dom_events` its events as
//!   DOM `CustomEvent`s; `element` the `<watermark-playground>` custom element (+ `element.js`).
//!   `bridge` the iframe's postMessage bridge over the same handle, `frame_height` the framed
//!   embed's content height it posts. These six exist only with the `ui` feature: the engine-only module `wmp-engine.js` is built
//!   without it;
//! - `playground`: the exported class, thin methods over the above; `queries` the reads it
//!   shares with a mounted playground, `command_args` the commands' arguments; `constructors` how one
//!   comes to be (a scenario, a preset, a share string) and the catalog's statics;
//! - `diagnosis`: the class's diagnosis methods (`diagnose`, `applyFix`, the lag alert);
//! - `sql`: `sqlScenario`, a Flink SQL script read onto a base scenario;
//! - `export`: `exportJob`, the scenario as a runnable Flink 2.3 job.
//!   These two exist only with the `tools` feature (which `ui` implies): the engine-only module
//!   leaves them out for its size.

#[cfg(feature = "ui")]
pub mod bridge;
pub mod command_args;
pub mod constructors;
pub mod convert;
pub mod diagnosis;
pub mod error;
pub mod events;
#[cfg(feature = "tools")]
pub mod export;
// The UI's mount point, its handle, its DOM events and the custom element: only in the full
// module (`ui` feature); the engine-only module has no Leptos.
#[cfg(feature = "ui")]
pub mod dom_events;
#[cfg(feature = "ui")]
pub mod element;
#[cfg(feature = "ui")]
pub mod frame_height;
#[cfg(feature = "ui")]
pub mod mount;
#[cfg(feature = "ui")]
pub mod mounted;
pub mod playground;
pub mod queries;
#[cfg(feature = "tools")]
pub mod sql;

pub use events::Subscription;
pub use playground::WatermarkPlayground;
