//! Browser front end (wasm32 only). For now a placeholder page that says what the project is;
//! the interactive playground UI will replace `App`.
use leptos::prelude::*;
use wasm_bindgen::prelude::wasm_bindgen;

/// The root component: the project's landing page.
#[component]
pub fn App() -> impl IntoView {
    view! {
        <main class="page">
            <header>
                <p class="eyebrow">"Apache Flink event time, simulated"</p>
                <h1>"Watermark Playground"</h1>
            </header>
            <p class="lead">
                "A faithful simulator of Apache Flink's event-time machinery: per-split \
                 watermarks, idleness, the StatusWatermarkValve, windows and lateness. The \
                 interactive playground is under construction; the engine and its \
                 command-line runner "
                <code>"wmp"</code>
                " are available now."
            </p>
        </main>
    }
}

/// Mounts the playground into the page body. Called by `index.html` after `init()`; nothing
/// runs on instantiation, so the same module loads in Node.js for the JS API.
#[wasm_bindgen(js_name = mountPlayground)]
pub fn mount_playground() {
    console_error_panic_hook::set_once();
    mount_to_body(App);
}
