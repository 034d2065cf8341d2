//! Share and export: the scenario as JSON (download, copy, import by paste or file), a link
//! that reopens the same run, and the current settings as Java / Flink SQL. The exported
//! scenario carries the user's actions as timed commands, so importing it replays the session.

use super::playback::MAX_SPEED;
use super::snippets;
use super::state::Pg;
use crate::engine::scenario::{build, catalog};
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Copies text to the clipboard and confirms (the text is also on screen to copy by hand).
pub fn copy_text(pg: &Pg, text: String, what: &str) {
    if let Some(w) = web_sys::window() {
        let _ = w.navigator().clipboard().write_text(&text);
    }
    pg.info(format!("Copied {what} to the clipboard"));
}

/// The exported scenario as pretty JSON.
pub fn export_json(pg: &Pg) -> String {
    serde_json::to_string_pretty(&pg.export_scenario()).unwrap_or_default()
}

/// Parses and loads scenario JSON; the error names the field.
pub fn import_json(pg: &Pg, text: &str) -> Result<(), String> {
    let sc = build::parse(text).map_err(|e| format!("{e}"))?;
    let preset = catalog::preset_matching(&sc).map(|p| p.id);
    pg.load(sc, preset).map_err(|e| format!("{e}"))
}

/// This page's address without query and fragment.
pub fn page_base() -> String {
    let loc = web_sys::window().map(|w| w.location());
    loc.as_ref().map(|l| format!("{}{}", l.origin().unwrap_or_default(), l.pathname().unwrap_or_default())).unwrap_or_default()
}

/// A link that reopens this scenario (a preset by name when nothing was changed).
pub fn share_link(pg: &Pg) -> String {
    link_to(pg, &page_base())
}

/// A link to the playground at `base` that opens this scenario (with the user's actions) at
/// the same speed.
pub fn link_to(pg: &Pg, base: &str) -> String {
    let untouched = pg.untouched();
    let speed = pg.speed.get_untracked();
    match pg.preset.get_untracked() {
        Some(id) if untouched && pg.base.with_value(|b| build::parse(catalog::preset(id).map_or("", |p| p.json)).ok().as_ref() == Some(b)) => {
            format!("{base}#preset={id}&speed={speed}")
        }
        _ => {
            let json = serde_json::to_string(&pg.export_scenario()).unwrap_or_default();
            format!("{base}#scenario={}&speed={speed}", String::from(js_sys::encode_uri_component(&json)))
        }
    }
}

/// Reads `#preset=ID`, `#scenario=JSON` or `#share=wmp1.…`, plus `&speed=X&play=1`, from the
/// address.
pub fn load_from_location(pg: &Pg) {
    let Some(hash) = web_sys::window().and_then(|w| w.location().hash().ok()) else { return };
    apply_params(pg, hash.trim_start_matches('#'));
}

/// Reads the same parameters from the query (`?embed=1&preset=ID&speed=10&autoplay=1`);
/// returns whether the embed layout is asked for (`embed=1`).
pub fn load_from_query(pg: &Pg) -> bool {
    let Some(search) = web_sys::window().and_then(|w| w.location().search().ok()) else { return false };
    apply_params(pg, search.trim_start_matches('?'))
}

/// Applies `k=v&…` parameters: `preset`, `scenario` (JSON), `share` (a `wmp1.` share string),
/// `speed`, `play`/`autoplay`. Errors are shown as notices. Returns whether `embed=1` was given.
fn apply_params(pg: &Pg, params: &str) -> bool {
    if params.is_empty() {
        return false;
    }
    let mut play = false;
    let mut embed = false;
    let mut speed = None;
    for part in params.split('&') {
        let (k, v) = part.split_once('=').unwrap_or((part, ""));
        let v: String = js_sys::decode_uri_component(v).map(String::from).unwrap_or_else(|_| v.to_string());
        match k {
            "preset" => {
                if let Err(e) = pg.load_preset(&v) {
                    pg.error(format!("link: {e}"));
                }
            }
            "scenario" => {
                if let Err(e) = import_json(pg, &v) {
                    pg.error(format!("link: the scenario in the address is not valid: {e}"));
                }
            }
            "share" => match crate::engine::session::share::decode(&v, "share") {
                Ok(json) => {
                    if let Err(e) = import_json(pg, &json) {
                        pg.error(format!("link: the shared scenario is not valid: {e}"));
                    }
                }
                Err(e) => pg.error(format!("link: {e}")),
            },
            "speed" => speed = v.parse::<f64>().ok().filter(|s| *s > 0.0 && *s <= MAX_SPEED),
            "play" | "autoplay" => play = v == "1" || v == "true",
            "embed" => embed = v == "1" || v == "true" || v.is_empty(),
            _ => {}
        }
    }
    if let Some(s) = speed {
        pg.speed.set(s);
    }
    if play {
        pg.playing.set(true);
    }
    embed
}

fn download(filename: &str, text: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    let Ok(a) = doc.create_element("a") else { return };
    let href = format!("data:application/json;charset=utf-8,{}", String::from(js_sys::encode_uri_component(text)));
    let _ = a.set_attribute("href", &href);
    let _ = a.set_attribute("download", filename);
    if let Some(body) = doc.body() {
        let _ = body.append_child(&a);
        if let Some(el) = a.dyn_ref::<web_sys::HtmlElement>() {
            el.click();
        }
        let _ = body.remove_child(&a);
    }
}

#[component]
pub fn SharePanel() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let tab = RwSignal::new("export");
    let exported = RwSignal::new(String::new());
    let import_text = RwSignal::new(String::new());
    let import_err = RwSignal::new(None::<String>);
    let link = RwSignal::new(String::new());
    let java = move || pg.cfg.with(snippets::java);
    let sql = move || pg.cfg.with(snippets::sql);
    let do_export = move || {
        let j = export_json(&pg);
        exported.set(j.clone());
        j
    };
    let do_import = move |text: String| match import_json(&pg, &text) {
        Ok(()) => {
            import_err.set(None);
            pg.info("Scenario imported");
        }
        Err(e) => import_err.set(Some(e)),
    };
    let on_file = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
        let Ok(reader) = web_sys::FileReader::new() else { return };
        let r2 = reader.clone();
        let onload = Closure::once_into_js(move |_: web_sys::Event| {
            if let Some(text) = r2.result().ok().and_then(|v| v.as_string()) {
                import_text.set(text.clone());
                do_import(text);
            }
        });
        reader.set_onload(Some(onload.unchecked_ref()));
        let _ = reader.read_as_text(&file);
    };
    // The export text is taken when the tab opens (and on every export), not every frame.
    Effect::new(move |_| {
        // Re-taken when the scenario or a setting changes, and when the tab opens.
        pg.preset.track();
        pg.cfg.track();
        // And whenever the state the hash line shows changes while paused (after a step, an
        // action, a pause), so that the JSON on screen is the one whose run gives that hash.
        pg.hash.track();
        if tab.get() == "export" && !pg.playing.get() {
            do_export();
        }
    });
    let tab_btn = move |id: &'static str, label: &'static str| {
        view! {
            <button role="tab" class="tab" id=format!("tab-{id}") aria-selected=move || (tab.get() == id).to_string()
                on:click=move |_| { tab.set(id); if id == "export" { do_export(); } else if id == "link" { link.set(share_link(&pg)); } }>{label}</button>
        }
    };
    view! {
        <section class="card share-card" id="share" aria-labelledby="share-h">
            <header class="card-head">
                <h2 id="share-h">"SHARE · EXPORT · CODE"</h2>
                <div role="tablist" class="tabs">
                    {tab_btn("export", "Export")}
                    {tab_btn("import", "Import")}
                    {tab_btn("link", "Link")}
                    {tab_btn("java", "Java")}
                    {tab_btn("sql", "SQL")}
                </div>
            </header>
            <div class="tab-body" class:hidden=move || tab.get() != "export">
                <div class="btn-row">
                    <button class="btn small" id="btn-export" on:click=move |_| { let j = do_export(); download("watermark-scenario.json", &j); }>"Download JSON"</button>
                    <button class="btn small ghost" id="btn-copy-export" on:click=move |_| { let j = do_export(); copy_text(&pg, j, "the scenario JSON"); }>"Copy"</button>
                    <span class="muted small">"Includes your actions as timed commands: importing it replays this run."</span>
                </div>
                <p class="small muted hash-line">"Trace hash "
                    <code id="trace-hash" data-at-ms=move || pg.hash.with(|h| (h.1 - pg.cfg.with(|c| c.start_time.ms())).to_string())>{move || pg.hash.with(|h| h.0.clone())}</code>
                    {move || format!(" at {} — ", super::format::elapsed(pg.hash.with(|h| h.1), pg.cfg.with(|c| c.start_time.ms())))}
                    <code>"wmp run"</code>" on the export prints the same."</p>
                <textarea id="export-json" class="code" readonly=true rows="10" prop:value=move || exported.get()></textarea>
            </div>
            <div class="tab-body" class:hidden=move || tab.get() != "import">
                <div class="btn-row">
                    <label class="btn small ghost file-btn">"Choose file…"<input type="file" accept=".json,application/json" on:change=on_file /></label>
                    <button class="btn small" id="btn-import" on:click=move |_| do_import(import_text.get_untracked())>"Import pasted JSON"</button>
                </div>
                <textarea id="import-json" class="code" rows="10" placeholder="Paste a scenario JSON here (see docs/SCENARIO.md)"
                    prop:value=move || import_text.get() on:input=move |ev| import_text.set(event_target_value(&ev))></textarea>
                <small class="field-msg error" role="alert" id="import-error">{move || import_err.get().unwrap_or_default()}</small>
            </div>
            <div class="tab-body" class:hidden=move || tab.get() != "link">
                <div class="btn-row">
                    <button class="btn small" id="btn-copy-link" on:click=move |_| { let l = share_link(&pg); link.set(l.clone()); copy_text(&pg, l, "the link"); }>"Copy link"</button>
                    <span class="muted small">"Opens this scenario (with your actions) at the same speed."</span>
                </div>
                <input type="text" class="code" readonly=true prop:value=move || link.get() aria-label="Share link" />
            </div>
            <div class="tab-body" class:hidden=move || tab.get() != "java">
                <div class="btn-row"><button class="btn small" id="btn-copy-java" on:click=move |_| copy_text(&pg, java(), "the Java WatermarkStrategy")>"Copy Java"</button>
                    <span class="muted small">"WatermarkStrategy and window for the current settings"</span></div>
                <pre class="code" id="java-code">{java}</pre>
            </div>
            <div class="tab-body" class:hidden=move || tab.get() != "sql">
                <div class="btn-row"><button class="btn small" id="btn-copy-sql" on:click=move |_| copy_text(&pg, sql(), "the Flink SQL")>"Copy SQL"</button>
                    <span class="muted small">"WATERMARK clause, idle-timeout option and window TVF"</span></div>
                <pre class="code" id="sql-code">{sql}</pre>
            </div>
        </section>
    }
}
