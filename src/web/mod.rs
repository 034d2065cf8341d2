//! Browser front end (wasm32 only): the playground UI in Leptos 0.8 (CSR) over the engine.
//!
//! One concept per file: `state` (the simulation and the signals views read), `playback`
//! (frame loop, step, speed), `app` (layout), `header`, `presets`, `graph`, `explain`,
//! `tables`, `emissions`, `timeline` (+ `timeline_data`), `controls/`, `metrics`, `share`
//! (export/import/link), `snippets` (Java / SQL), `keyboard`, `theme`, `error_banner`,
//! `actions` (one-click fixes), `format`, `measure`.
use wasm_bindgen::prelude::wasm_bindgen;

pub mod actions;
pub mod app;
pub mod controls;
pub mod embed;
pub mod emissions;
pub mod error_banner;
pub mod explain;
pub mod format;
pub mod graph;
pub mod header;
pub mod icons;
pub mod keyboard;
pub mod measure;
pub mod metrics;
pub mod playback;
pub mod presets;
pub mod rows;
pub mod share;
pub mod snippets;
pub mod state;
pub mod tables;
pub mod theme;
pub mod timeline;
pub mod timeline_data;

pub use app::{App, Embed, Playground};
pub use state::Pg;

/// Mounts the playground into the page body. Called by `index.html` after `init()`; nothing
/// runs on instantiation, so the same module loads in Node.js for the JS API.
#[wasm_bindgen(js_name = mountPlayground)]
pub fn mount_playground() {
    error_banner::install_panic_hook();
    leptos::mount::mount_to_body(App);
}
