//! Browser front end: the playground UI in Leptos 0.8 (CSR) over the engine alone: it drives
//! the engine's `Session` (the same checks, log and run loops as the JS API and `wmp run`) and
//! never names the JS API module (`tests/purity.rs` checks that; the API may mount this UI).
//!
//! One concept per file: `state` (the session and the signals views read), `playback`
//! (frame loop, step, speed), `app` (layout), `header`, `presets`, `graph` (+ `graph_layout`, `graph_operator`, `graph_chained`, `graph_flow` and
//! `graph_flow_marks` for back-pressure, buffers and alignment), `explain`,
//! `tables`, `emissions` (+ `joins_log` for an interval join), `timeline` (+ `timeline_data`, `timeline_plot`,
//! `timeline_canvas`, `timeline_now` for screen readers, `timeline_keys` for the keyboard; `axis_ticks` for every chart's ticks), `controls/`, `metrics` (+ `metrics_flow`),
//! `share` (export/import/link; `scenario_text` reads pasted or linked text and says what is wrong in words, `link_problem` shows it; `url_state` keeps the page's state in its address), `snippets`
//! (Java / SQL; `sql_panel` edits the SQL and applies it, over `sql_apply`; `text_select` selects what an error names in a text box, `text_columns` says where it is on screen; `job_download` downloads the runnable job, `save_file` saves bytes as a download), `keyboard` (+ `modal`, the help dialog's focus handling; `tab_list`, a tab list as one Tab stop), `theme`, `error_banner`, `actions` (running the engine's one-click
//! actions), `reading` (the diagnosis of one instant, beside its snapshot), `findings` and
//! `advisor` and `lag_chart` (+ `lag_plot`) (the diagnosis' views), `format`, `measure` (+ `hold`: observers and listeners released with their view), `after_first_paint` (cards below the fold wait for the first paint), `rows` (per-row memos
//! over the engine's snapshot rows), `embed` (the compact layout), `icons`, `glyphs` (text marks heard as words; `spoken_text` says which part of a cell is heard).
//!
//! The live link to a real job (`live`: the card, polling; `live_fetch`: the HTTP; `live_graph`:
//! the job drawn with the simulated job's graph and tables; `live_table`: its explanation and
//! metrics per subtask) over the engine's `engine::live`.
//!
//! Lesson mode (`?lesson=ID`): `lesson` (the step card, the panels a step shows) and `lesson_stage`
//! (the draggable event-time stage) over `lesson_setup` and `lesson_steps` (no DOM: the small jobs,
//! the steps and their checks, tested natively).
//!
//! `announce_settle` (when the WHY panel's announcer speaks a change), `format`, `graph_flow`, `graph_layout`, `json_span` (where a field's value sits in pasted JSON), `query` (the address's query string, read one way), `lag_plot`, `select_keys` (which keys browse a `browse_select` and which open its list), `snippets`, `style_sheet` (the values Rust shares with style.css), `timeline_data`, `timeline_plot` and `view_pacing` (which views a
//! frame refreshes while playing) touch no DOM: they compile natively too, so
//! their unit tests run with the engine's.
//!
//! The job's run (checkpoints, failures, restore, memory): `job_marks` (what happened, recorded
//! after every instant), `job_status` (the status strip and the kill buttons), `state_chart`
//! (+ `state_plot`), and on the timeline `timeline_job` (its display-list items) and
//! `timeline_marks` (the ✕ / ↻ glyphs). `job_marks`, `state_plot` and `timeline_job` touch no
//! DOM either.

/// Declares the modules that need the DOM: compiled for wasm32 only, and only with the `ui`
/// feature (the engine-only module, `--no-default-features`, leaves Leptos out).
macro_rules! dom_modules {
    ($($m:ident),* $(,)?) => { $( #[cfg(all(target_arch = "wasm32", feature = "ui"))] pub mod $m; )* };
}

pub mod announce_settle;
pub mod axis_ticks;
pub mod embed_options;
pub mod format;
pub mod graph_flow;
pub mod graph_keys;
pub mod graph_layout;
pub mod job_marks;
pub mod json_span;
pub mod label_place;
pub mod lag_plot;
pub mod lesson_setup;
pub mod lesson_steps;
pub mod query;
pub mod scenario_text;
pub mod select_keys;
// The Java / SQL snippets and the SQL panel's reader sit on the `tools` feature's export and SQL
// reader (`ui` implies it; natively it is on by default).
#[cfg(feature = "tools")]
pub mod snippets;
pub mod spoken_text;
#[cfg(feature = "tools")]
pub mod sql_apply;
pub mod state_plot;
pub mod style_sheet;
pub mod text_columns;
pub mod timeline_data;
pub mod timeline_job;
pub mod timeline_plot;
pub mod view_pacing;
dom_modules!(
    actions,
    after_first_paint,
    advisor,
    app,
    browse_select,
    controls,
    embed,
    emissions,
    error_banner,
    explain,
    findings,
    graph,
    graph_chained,
    graph_flow_marks,
    glyphs,
    graph_operator,
    graph_partition,
    header,
    hold,
    host,
    joins_log,
    tab_list,
    text_select,
    icons,
    job_download,
    job_status,
    keyboard,
    link_problem,
    live,
    live_fetch,
    live_graph,
    live_table,
    modal,
    lag_chart,
    lesson,
    lesson_stage,
    measure,
    metrics,
    metrics_flow,
    playback,
    presets,
    reading,
    rows,
    save_file,
    share,
    sql_panel,
    state,
    state_chart,
    tables,
    theme,
    timeline,
    timeline_canvas,
    timeline_keys,
    timeline_marks,
    timeline_now,
    url_state
);

#[cfg(all(target_arch = "wasm32", feature = "ui"))]
pub use app::{App, Embed, Playground};
#[cfg(all(target_arch = "wasm32", feature = "ui"))]
pub use state::{LoadFailure, Pg};

/// Mounts the playground into the page body, for `mountPlayground` (`src/api/mount.rs`), which
/// `index.html` calls after `init()`: nothing runs on instantiation, so the same module loads
/// in Node.js for the JS API.
#[cfg(all(target_arch = "wasm32", feature = "ui"))]
pub fn mount_page() -> Option<app::PageStart> {
    use leptos::prelude::*;
    error_banner::install_panic_hook();
    let slot = app::PageSlot::default();
    let started = slot.clone();
    leptos::mount::mount_to_body(move || view! { <App started=started /> });
    slot.take()
}
