//! Share and export: the scenario as JSON (download, copy, import by paste or file), a link
//! that reopens the same run, and the current settings as Java / Flink SQL. The exported
//! scenario carries the user's actions as timed commands, so importing it replays the session.

use super::playback::MAX_SPEED;
use super::scenario_text;
use super::snippets;
use super::state::{LoadFailure, Pg};
use crate::engine::error::InputError;
use super::embed_options::EmbedOptions;
use super::url_state::{self, TimelineZoom};
use crate::engine::session::link_state::MAX_ENCODED;
use crate::engine::scenario::schema::Scenario;
use crate::engine::scenario::catalog;
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

/// Parses and loads scenario JSON or a share string; the error says in words what is wrong
/// and names the field.
pub fn import_json(pg: &Pg, text: &str) -> Result<(), String> {
    load_scenario(pg, scenario_text::read_scenario(text)?)
}

fn load_scenario(pg: &Pg, sc: Scenario) -> Result<(), String> {
    let preset = catalog::preset_matching(&sc).map(|p| p.id);
    pg.load(sc, preset).map_err(|e| format!("This scenario cannot run: {e}."))
}

/// This page's address without query and fragment.
pub fn page_base() -> String {
    let loc = web_sys::window().map(|w| w.location());
    loc.as_ref().map(|l| format!("{}{}", l.origin().unwrap_or_default(), l.pathname().unwrap_or_default())).unwrap_or_default()
}

/// A link that reopens this playground as it is: the scenario, the actions, the position,
/// speed, selection and zoom (`#s=2.…`, see `url_state`), at the host's `link_base` (a
/// playground inside a docs page links to the full playground, not to the docs page) or else
/// at this page.
pub fn share_link(pg: &Pg, zoom: TimelineZoom) -> String {
    let base = pg.host.try_with_value(|h| h.link_base.clone()).flatten().unwrap_or_else(page_base);
    format!("{base}#s={}", url_state::current(pg, zoom).encode())
}

/// Reads `#s=2.…` (the page's state, `url_state`), or the older `#preset=ID`, `#scenario=JSON`
/// or `#share=wmp1.…` plus `&speed=X&play=1`, from the address; what could not be opened goes to `problems`, in words.
pub fn load_from_location(pg: &Pg, problems: &mut Vec<String>) {
    let Some(hash) = web_sys::window().and_then(|w| w.location().hash().ok()) else { return };
    load_from_fragment(pg, &hash, problems);
}

/// The same for a fragment given (`#…` or without `#`). A fragment without `=` is an anchor in
/// the page (`#share`, a link from a docs page), not state: it is left alone.
pub fn load_from_fragment(pg: &Pg, fragment: &str, problems: &mut Vec<String>) {
    let params = fragment.trim_start_matches('#');
    if params.contains('=') {
        apply_params(pg, params, problems, false);
    }
}

/// What `?embed=1&…` asks of the page: the layout's presentation options, and the origins
/// whose `postMessage` commands the embed answers (its own origin unless `origins=` names
/// others; see `src/api/bridge.rs`).
pub struct EmbedQuery {
    pub options: EmbedOptions,
    pub origins: Vec<String>,
}

/// Reads the same parameters from the query (`?embed=1&preset=ID&speed=10&autoplay=1`);
/// with `embed=1`, the embed's options.
pub fn load_from_query(pg: &Pg, problems: &mut Vec<String>) -> Option<EmbedQuery> {
    let search = super::query::current();
    let params = search.trim_start_matches('?');
    if !apply_params(pg, params, problems, true) {
        return None;
    }
    // The origins first: their problem, like any, keeps the frame from playing.
    let origins = embed_origins(params, problems);
    let options = apply_embed_options(pg, params, problems);
    Some(EmbedQuery { options, origins })
}

/// The pairs of `params` whose normalized key is one of `keys`, values decoded.
fn pairs_named(params: &str, keys: &[&str]) -> Vec<(String, String)> {
    super::query::pairs(params)
        .filter_map(|(k, v)| {
            let norm = super::embed_options::normalize(k);
            keys.contains(&norm.as_str()).then(|| (k.to_string(), js_sys::decode_uri_component(v).map(String::from).unwrap_or_default()))
        })
        .collect()
}

/// The element's attributes as iframe parameters, read by the one options parser: `layout`,
/// `theme`, `controls`, `view`, `start-at`, `readonly`, `full-url`, `loading` (checked, but a
/// frame starts as the iframe's own `loading` says), and `speed` and `autoplay` (`play` is its
/// older name), which `apply_params` reads for the other links (here a bad speed is a problem
/// in words, and a bare `&autoplay` plays, as the element's attribute does).
const EMBED_ONLY: &[&str] = &["layout", "theme", "controls", "view", "startat", "readonly", "loading", "fullurl", "speed", "autoplay", "play"];

/// Reads the iframe's other parameters with the one options parser (`embed_options`, shared
/// with the element and `mount()`), each alone: a bad value is a link problem naming the
/// parameter, and the others still apply. `start-at` runs here, within the links' work budget.
fn apply_embed_options(pg: &Pg, params: &str, problems: &mut Vec<String>) -> EmbedOptions {
    let mut options = EmbedOptions::default();
    // As the link spells it (`startAt`, `start_at`), for a problem to name.
    let mut start_key = String::new();
    for (key, value) in pairs_named(params, EMBED_ONLY) {
        let norm = match super::embed_options::normalize(&key) {
            play if play == "play" => "autoplay".to_string(),
            norm => norm,
        };
        match EmbedOptions::parse(&[(norm.as_str(), value.as_str())]) {
            Ok(one) => {
                // The spelling of the value that is kept (a later wrong one is refused above).
                if norm == "startat" {
                    start_key.clone_from(&key);
                }
                options = options.merged(one, &[norm]);
            }
            Err(e) => problems.push(format!("The parameter “{key}” is wrong: {}.", e.message)),
        }
    }
    if let Some(ms) = options.start_at {
        if !start_at_or_problem(pg, &start_key, ms, problems) {
            // Not kept: a later update through the bridge would run to it again and fail.
            options.start_at = None;
        }
    }
    if let Some(s) = options.speed {
        pg.speed.set(s);
    }
    // A link with a problem does not play (a state `s=` may have started it), and is stored
    // so: a later `update({ autoplay: true })` through the bridge plays.
    options.autoplay &= problems.is_empty();
    if !problems.is_empty() {
        pg.playing.set(false);
    } else if options.autoplay {
        pg.playing.set(true);
    }
    options
}

/// Loads what the link state in `text` runs (`embed_options::link_source`): its scenario, its
/// commands, its position.
fn open_link_source(pg: &Pg, text: &str) -> Result<(), String> {
    let s = super::embed_options::decode_link(text).and_then(|st| super::embed_options::link_source(&st))?;
    pg.load_source(s, None).map_err(|e| match e {
        LoadFailure::Scenario(e) => format!("This scenario cannot run: {e}."),
        LoadFailure::Replay(e) => format!("This link's actions or position cannot be replayed: {e}."),
    })
}

/// Runs what the link opened, with its actions, to `ms` instead, beside it (`Pg::load_source`): if
/// that fails, the link's own position is kept, not a run halted half-way. The selection of a
/// state link is kept too.
fn start_at(pg: &Pg, ms: i64) -> Result<(), InputError> {
    let source = super::embed_options::Source { commands: pg.issued_commands(), ..pg.running_source() };
    let selection = pg.selection.get_untracked();
    pg.load_source(source, Some(ms)).map_err(|e| match e {
        LoadFailure::Scenario(e) | LoadFailure::Replay(e) => e,
    })?;
    pg.selection.set(selection);
    Ok(())
}

/// [`start_at`], with a failure as the link problem every link words the same way, naming the
/// parameter as the link spells it (`key`: `start-at`, `startAt`, `start_at` …). Returns
/// whether it ran.
fn start_at_or_problem(pg: &Pg, key: &str, ms: i64, problems: &mut Vec<String>) -> bool {
    let ran = start_at(pg, ms);
    if let Err(e) = &ran {
        problems.push(format!("The parameter “{key}” cannot be reached: {}.", e.message));
    }
    ran.is_ok()
}

/// A link's `start-at` value (`key` as the link spells it) read as a time.
fn parse_start_at(key: &str, value: &str) -> Result<i64, String> {
    super::embed_options::start_at(value).map_err(|e| format!("The parameter “{key}” is wrong: {e}."))
}

/// The `origins` parameter, or this page's own origin; a bad one is a link problem and leaves
/// only the own origin.
fn embed_origins(params: &str, problems: &mut Vec<String>) -> Vec<String> {
    let own = || web_sys::window().and_then(|w| w.location().origin().ok()).into_iter().collect::<Vec<_>>();
    let Some((key, value)) = pairs_named(params, &["origins"]).pop() else { return own() };
    super::embed_options::parse_origins(&value).unwrap_or_else(|e| {
        problems.push(format!("The parameter “{key}” is wrong: {e}."));
        own()
    })
}

/// The parameters [`apply_params`] reads to open a run; the address the page writes drops them.
pub const SOURCE_PARAMS: &[&str] = &["s", "preset", "scenario", "share", "speed", "play", "autoplay"];

/// Whether a query key is `start-at` in any of its spellings (`startAt`, `Start-At`): the
/// address the page writes drops it with the [`SOURCE_PARAMS`].
pub fn is_start_at(key: &str) -> bool {
    super::embed_options::normalize(key) == "startat"
}

/// The full page's `?start-at=…` (an embed reads its own with its options): it runs what the
/// query and the fragment opened to that time, once both are loaded (`?start-at=90s#s=…` runs
/// the state to 90 s, as an embed's start-at replaces a state's position).
pub fn start_from_query(pg: &Pg, problems: &mut Vec<String>) {
    let search = super::query::current();
    if super::query::flag(&search, "embed") {
        return;
    }
    let Some((key, raw)) = super::query::pairs(&search).find(|(k, _)| is_start_at(k)) else { return };
    let value: String = js_sys::decode_uri_component(raw).map(String::from).unwrap_or_else(|_| raw.to_string());
    match parse_start_at(key, &value) {
        Err(e) => problems.push(e),
        Ok(ms) if problems.is_empty() => {
            start_at_or_problem(pg, key, ms, problems);
        }
        Ok(_) => {}
    }
}

/// Applies `k=v&…` parameters: `s` (the page's state), `preset`, `scenario` (JSON), `share` (a
/// `wmp1.` share string), `speed`, `play`/`autoplay`, `start-at` (the full page's; an iframe's
/// options read their own). Returns whether `embed=1` was given.
/// With `embed=1` in the query (`from_query`), speed and play are left to the embed's options.
fn apply_params(pg: &Pg, params: &str, problems: &mut Vec<String>, from_query: bool) -> bool {
    if params.is_empty() {
        return false;
    }
    if params.len() > MAX_ENCODED {
        problems.push(format!("This link is too long to be opened ({} characters; at most {MAX_ENCODED} are read).", params.len()));
        return false;
    }
    let mut play = false;
    let mut embed = false;
    let mut speed = None;
    let mut start = None;
    let framed = super::query::flag(&super::query::current(), "embed");
    for (k, v) in super::query::pairs(params) {
        let v: String = js_sys::decode_uri_component(v).map(String::from).unwrap_or_else(|_| v.to_string());
        let loaded = match k {
            "s" => url_state::open(pg, &v),
            // The picker's value for a lesson, copied into a link: the full page opens it.
            "preset" if !framed && scenario_text::lesson_in_preset(&v).is_some() => {
                super::lesson::open_lesson(scenario_text::lesson_in_preset(&v).unwrap_or_default());
                Ok(())
            }
            "preset" if catalog::preset(&v).is_none() => Err(scenario_text::no_preset(&v)),
            "preset" => pg.load_preset(&v).map_err(|e| format!("This preset cannot run: {e}.")),
            // A page's link state given as a scenario (an author's copied address): its run to
            // its position, as an element's attribute takes it (its view stays the page's).
            "scenario" => match super::embed_options::link_state_in(&v) {
                Some(state) => open_link_source(pg, state),
                None => import_json(pg, &v),
            },
            "share" => scenario_text::read_share_string(&v).and_then(|sc| load_scenario(pg, sc)),
            "speed" => {
                speed = v.parse::<f64>().ok().filter(|s| *s > 0.0 && *s <= MAX_SPEED);
                Ok(())
            }
            "play" | "autoplay" => {
                play = v == "1" || v == "true";
                Ok(())
            }
            "embed" => {
                embed = super::query::is_on(&v);
                Ok(())
            }
            // A fragment's (`#preset=…&start-at=…`); the query's runs after the fragment loaded
            // ([`start_from_query`]): run here, it ran the page's default job to it, and the
            // fragment's state then replaced that run.
            key if !from_query && is_start_at(key) => parse_start_at(key, &v).map(|ms| start = Some((key, ms))),
            _ => Ok(()),
        };
        if let Err(e) = loaded {
            problems.push(e);
        }
    }
    // An iframe's options parser reads both, each checked (`apply_embed_options`); a fragment's
    // `embed=1` asks nothing of the page.
    if !(embed && from_query) {
        if let Some((key, ms)) = start.filter(|_| problems.is_empty()) {
            start_at_or_problem(pg, key, ms, problems);
        }
        if let Some(s) = speed {
            pg.speed.set(s);
        }
        if play && problems.is_empty() {
            pg.playing.set(true);
        }
    }
    embed
}

fn download(filename: &str, text: &str) {
    super::save_file::save(filename, "application/json", text.as_bytes());
}

/// The open tab, the export text on screen and the link on screen.
#[derive(Clone, Copy)]
struct ShareTabs {
    tab: RwSignal<&'static str>,
    exported: RwSignal<String>,
    link: RwSignal<String>,
}

impl ShareTabs {
    /// Takes the export text now (it is shown and returned).
    fn export(self, pg: Pg) -> String {
        let j = export_json(&pg);
        self.exported.set(j.clone());
        j
    }

    /// Whether tab `id` is hidden.
    fn hidden(self, id: &'static str) -> impl Fn() -> bool + Copy {
        move || self.tab.get() != id
    }
}

#[component]
pub fn SharePanel() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let t = ShareTabs { tab: RwSignal::new("export"), exported: RwSignal::new(String::new()), link: RwSignal::new(String::new()) };
    let java = Signal::derive(move || pg.cfg.with(snippets::java));
    let sql = Signal::derive(move || pg.cfg.with(snippets::sql));
    view! {
        <section class="card share-card" id="share" tabindex="-1" aria-labelledby="share-h">
            <header class="card-head">
                <h2 id="share-h">"Share · export · code"</h2>
                <div role="tablist" class="tabs" aria-label="Share, export and code" on:keydown=super::tab_list::on_tab_keys>
                    <TabButton t=t id="export" label="Export" />
                    <TabButton t=t id="import" label="Import" />
                    <TabButton t=t id="link" label="Link" />
                    <TabButton t=t id="java" label="Java" />
                    <TabButton t=t id="sql" label="SQL" />
                </div>
            </header>
            <ExportTab t=t />
            <ImportTab t=t />
            <LinkTab t=t />
            <CodeTab t=t id="java" button="Copy Java" what="the Java WatermarkStrategy" note="WatermarkStrategy and window for the current settings" code=java />
            <CodeTab t=t id="sql" button="Copy SQL" what="the Flink SQL" note="WATERMARK clause, idle-timeout option and window TVF" code=sql />
        </section>
    }
}

/// A tab; opening Export takes the export text, opening Link makes the link.
#[component]
fn TabButton(t: ShareTabs, id: &'static str, label: &'static str) -> impl IntoView {
    let pg = expect_context::<Pg>();
    let zoom = TimelineZoom::of_page();
    view! {
        <button role="tab" class="tab" id=format!("tab-{id}") aria-controls=format!("pane-{id}") aria-selected=move || (t.tab.get() == id).to_string()
            tabindex=move || super::tab_list::tab_index(t.tab.get() == id)
            on:click=move |_| { t.tab.set(id); if id == "export" { t.export(pg); } else if id == "link" { t.link.set(share_link(&pg, zoom)); } }>{label}</button>
    }
}

/// Download or copy the scenario JSON, with the trace hash its run gives.
#[component]
fn ExportTab(t: ShareTabs) -> impl IntoView {
    let pg = expect_context::<Pg>();
    // The export text is taken when the tab opens (and on every export), not every frame.
    Effect::new(move |_| {
        // Re-taken when the scenario or a setting changes, and when the tab opens.
        pg.preset.track();
        pg.cfg.track();
        // And whenever the state the hash line shows changes while paused (after a step, an
        // action, a pause), so that the JSON on screen is the one whose run gives that hash.
        pg.hash.track();
        if t.tab.get() == "export" && !pg.playing.get() {
            t.export(pg);
        }
    });
    view! {
        <div class="tab-body" id="pane-export" role="tabpanel" aria-labelledby="tab-export" class:hidden=t.hidden("export")>
            <div class="btn-row">
                <button class="btn small" id="btn-export" on:click=move |_| { let j = t.export(pg); download("watermark-scenario.json", &j); }>"Download JSON"</button>
                <button class="btn small ghost" id="btn-copy-export" on:click=move |_| { let j = t.export(pg); copy_text(&pg, j, "the scenario JSON"); }>"Copy"</button>
                <span class="muted small">"Includes your actions as timed commands: importing it replays this run."</span>
            </div>
            <HashLine />
            <textarea id="export-json" class="code" readonly=true rows="10" aria-label="The scenario as JSON" prop:value=move || t.exported.get()></textarea>
        </div>
    }
}

/// The trace hash of the run so far, and when it was taken.
#[component]
fn HashLine() -> impl IntoView {
    let pg = expect_context::<Pg>();
    view! {
        <p class="small muted hash-line">"Trace hash "
            <code id="trace-hash" data-at-ms=move || pg.hash.with(|h| (h.1 - pg.cfg.with(|c| c.start_time.ms())).to_string())>{move || pg.hash.with(|h| h.0.clone())}</code>
            {move || format!(" at {} — ", super::format::elapsed(pg.hash.with(|h| h.1), pg.cfg.with(|c| c.start_time.ms())))}
            <code>"wmp run"</code>" on the export prints the same."</p>
    }
}

/// Import scenario JSON from a file or pasted text; the error names the field.
#[component]
fn ImportTab(t: ShareTabs) -> impl IntoView {
    let pg = expect_context::<Pg>();
    let import_text = RwSignal::new(String::new());
    let import_err = RwSignal::new(None::<String>);
    let area = NodeRef::<leptos::html::Textarea>::new();
    let do_import = move |text: String| match import_json(&pg, &text) {
        Ok(()) => {
            import_err.set(None);
            pg.info("Scenario imported");
        }
        Err(e) => {
            import_err.set(Some(e));
            // The value the message names, selected: two thousand characters to hunt through.
            if let (Some(place), Some(a)) = (scenario_text::problem_place(&text), area.get_untracked()) {
                // A file's text reaches the box after this (its value is set by an effect).
                if a.value() != text {
                    a.set_value(&text);
                }
                let u16 = |b| super::json_span::utf16_offset(&text, b);
                let line = text[..place.start].matches('\n').count() as u32;
                super::text_select::select_in(&a, u16(place.start), u16(place.end), line);
            }
        }
    };
    let on_file = move |ev: leptos::ev::Event| {
        read_file_then(ev, move |text| {
            // As the box holds it: a textarea turns CRLF into LF, and the place is counted in it.
            let text = text.replace("\r\n", "\n");
            import_text.set(text.clone());
            do_import(text);
        })
    };
    view! {
        <div class="tab-body import-body" id="pane-import" role="tabpanel" aria-labelledby="tab-import" class:hidden=t.hidden("import")>
            <div class="btn-row">
                <label class="btn small ghost file-btn">"Choose file…"<input type="file" accept=".json,application/json" on:change=on_file /></label>
                <button class="btn small" id="btn-import" on:click=move |_| do_import(import_text.get_untracked())>"Import pasted JSON"</button>
            </div>
            <textarea id="import-json" class="code" rows="10" node_ref=area aria-label="Scenario to import" aria-describedby="import-error"
                aria-invalid=move || import_err.with(Option::is_some).then_some("true") placeholder="Paste a scenario JSON or a share string (wmp1.…) here (see docs/SCENARIO.md)"
                prop:value=move || import_text.get() on:input=move |ev| import_text.set(event_target_value(&ev))></textarea>
            <small class="field-msg error" role="alert" id="import-error">{move || import_err.get().unwrap_or_default()}</small>
        </div>
    }
}

/// Reads the file chosen in the `<input type="file">` of `ev` as text and hands it to `then`.
fn read_file_then(ev: leptos::ev::Event, then: impl FnOnce(String) + 'static) {
    let input: web_sys::HtmlInputElement = event_target(&ev);
    let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
    let Ok(reader) = web_sys::FileReader::new() else { return };
    let r2 = reader.clone();
    let onload = Closure::once_into_js(move |_: web_sys::Event| {
        if let Some(text) = r2.result().ok().and_then(|v| v.as_string()) {
            then(text);
        }
    });
    reader.set_onload(Some(onload.unchecked_ref()));
    let _ = reader.read_as_text(&file);
}

/// The link that reopens this scenario (with the user's actions) at the same speed.
#[component]
fn LinkTab(t: ShareTabs) -> impl IntoView {
    let pg = expect_context::<Pg>();
    let zoom = TimelineZoom::of_page();
    view! {
        <div class="tab-body" id="pane-link" role="tabpanel" aria-labelledby="tab-link" class:hidden=t.hidden("link")>
            <div class="btn-row">
                <button class="btn small" id="btn-copy-link" on:click=move |_| { let l = share_link(&pg, zoom); t.link.set(l.clone()); copy_text(&pg, l, "the link"); }>"Copy link"</button>
                <span class="muted small">"Opens this scenario with your actions, at the same moment, speed, selection and zoom."</span>
            </div>
            <input type="text" class="code" readonly=true prop:value=move || t.link.get() aria-label="Share link" />
        </div>
    }
}

/// The current settings as code (`id`: java or sql), with a copy button.
#[component]
fn CodeTab(t: ShareTabs, id: &'static str, button: &'static str, what: &'static str, note: &'static str, code: Signal<String>) -> impl IntoView {
    let pg = expect_context::<Pg>();
    view! {
        <div class="tab-body" id=format!("pane-{id}") role="tabpanel" aria-labelledby=format!("tab-{id}") class:hidden=t.hidden(id)>
            <div class="btn-row"><button class="btn small" id=format!("btn-copy-{id}") on:click=move |_| copy_text(&pg, code.get_untracked(), what)>{button}</button>
                <span class="muted small">{note}</span></div>
            <div class="btn-row"><super::job_download::DownloadJob tab=id /></div>
            <pre class="code" id=format!("{id}-code")>{code}</pre>
        </div>
    }
}
