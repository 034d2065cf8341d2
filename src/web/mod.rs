//! Browser front end: the playground UI in Leptos 0.8 (CSR) over the engine alone: it drives
//! the engine's `Session` (the same checks, log and run loops as the JS API and `wmp run`) and
//! never names the JS API module (`tests/purity.rs` checks that; the API may mount this UI).
//!
//! One concept per file: `state` (the session and the signals views read), `playback`
//! (frame loop, step, speed), `app` (layout), `header`, `presets`, `graph` (+ `graph_layout`, `graph_operator`, `graph_chained`, `graph_flow` and
//! `graph_flow_marks` for back-pressure, buffers and alignment), `explain`,
//! `tables`, `emissions` (+ `joins_log` for an interval join), `timeline` (+ `timeline_data`, `timeline_plot`,
//! `timeline_canvas`), `controls/`, `metrics` (+ `metrics_flow`), `share` (export/import/link), `snippets`
//! (Java / SQL), `keyboard`, `theme`, `error_banner`, `actions` (running the engine's one-click
//! actions), `reading` (the diagnosis of one instant, beside its snapshot), `findings` and
//! `advisor` and `lag_chart` (+ `lag_plot`) (the diagnosis' views), `format`, `measure`, `rows` (per-row memos
//! over the engine's snapshot rows), `embed` (the compact layout), `icons`.
//!
//! `format`, `graph_flow`, `graph_layout`, `lag_plot`, `snippets`, `timeline_data` and `timeline_plot` touch no DOM: they compile natively too, so
//! their unit tests run with the engine's.
//!
//! The job's run (checkpoints, failures, restore, memory): `job_marks` (what happened, recorded
//! after every instant), `job_status` (the status strip and the kill buttons), `state_chart`
//! (+ `state_plot`), and on the timeline `timeline_job` (its display-list items) and
//! `timeline_marks` (the ✕ / ↻ glyphs). `job_marks`, `state_plot` and `timeline_job` touch no
//! DOM either.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen::prelude::wasm_bindgen;

/// Declares the modules that need the DOM: compiled for wasm32 only.
macro_rules! dom_modules {
    ($($m:ident),* $(,)?) => { $( #[cfg(target_arch = "wasm32")] pub mod $m; )* };
}

pub mod format;
pub mod graph_flow;
pub mod graph_layout;
pub mod job_marks;
pub mod lag_plot;
pub mod snippets;
pub mod state_plot;
pub mod timeline_data;
pub mod timeline_job;
pub mod timeline_plot;
dom_modules!(
    actions,
    advisor,
    app,
    controls,
    embed,
    emissions,
    error_banner,
    explain,
    findings,
    graph,
    graph_chained,
    graph_flow_marks,
    graph_operator,
    header,
    joins_log,
    icons,
    job_status,
    keyboard,
    lag_chart,
    measure,
    metrics,
    metrics_flow,
    playback,
    presets,
    reading,
    rows,
    share,
    state,
    state_chart,
    tables,
    theme,
    timeline,
    timeline_canvas,
    timeline_marks
);

#[cfg(target_arch = "wasm32")]
pub use app::{App, Embed, Playground};
#[cfg(target_arch = "wasm32")]
pub use state::Pg;

/// Mounts the playground into the page body. Called by `index.html` after `init()`; nothing
/// runs on instantiation, so the same module loads in Node.js for the JS API.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen(js_name = mountPlayground)]
pub fn mount_playground() {
    error_banner::install_panic_hook();
    leptos::mount::mount_to_body(App);
}
