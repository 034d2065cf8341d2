//! `mount(element, options)`: places the playground — the full UI or the embed layout — into an
//! element of the host page (docs/API.md, `mount`). Options are checked completely before anything
//! is mounted, by the one parser the `<watermark-playground>` element and the iframe parameters
//! use (`crate::web::embed_options`); a bad one is a JS error naming it (`mount: options.speed: …`).
//!
//! The host page links the playground's stylesheet (`style.css` next to `wmp.js`), or uses the
//! element, whose shadow root does; the mounted UI runs its own frame loop until `unmount()`.
//! With `options.eventTarget`, the simulation's events are dispatched there as DOM
//! `CustomEvent`s (`dom_events`). The returned object's methods are in `mounted`.

use super::convert::{describe, to_json_text};
use super::error::{ApiError, ApiResult, IntoJs};
use crate::web::embed_options::{EmbedOptions, Layout};
use crate::web::host::{Hosted, Look};
use crate::web::{LoadFailure, Pg};
use leptos::prelude::*;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Options as the parser takes them, and the event target beside them.
pub(crate) struct Parsed {
    pub opts: EmbedOptions,
    pub event_target: Option<web_sys::EventTarget>,
    /// The options the object names (normalized keys), also those it clears with `null` (not
    /// `undefined`, which is absent): what an update changes (`EmbedOptions::merged`).
    pub given: Vec<String>,
    /// What error paths start with (`options.` for `mount()`, nothing for attributes).
    pub prefix: String,
}

/// Reads a JS options object: every entry becomes a string key/value for [`EmbedOptions::parse`]
/// (numbers and booleans as written, a scenario object as JSON), except `eventTarget`. Errors
/// name `prefix` + the key.
pub(crate) fn parse_options(options: &JsValue, prefix: &str) -> ApiResult<Parsed> {
    if options.is_undefined() || options.is_null() {
        return Ok(Parsed { opts: EmbedOptions::default(), event_target: None, given: Vec::new(), prefix: prefix.to_string() });
    }
    if !options.is_object() || js_sys::Array::is_array(options) || options.is_function() {
        return Err(ApiError::type_(prefix.trim_end_matches('.'), format!("expected an options object, got {}", describe(options))));
    }
    let mut pairs: Vec<(String, String)> = Vec::new();
    let mut event_target = None;
    let mut given = Vec::new();
    for entry in js_sys::Object::entries(options.unchecked_ref()).iter() {
        let entry: js_sys::Array = entry.unchecked_into();
        let key = entry.get(0).as_string().unwrap_or_default();
        let v = entry.get(1);
        let path = format!("{prefix}{key}");
        // `undefined` is absent, as a JS reader takes it (`{ ...opts, scenario: undefined }` must
        // not clear the scenario); `null` clears.
        if v.is_undefined() {
            continue;
        }
        if key != "eventTarget" {
            given.push(crate::web::embed_options::normalize(&key));
        }
        if v.is_null() {
            continue;
        }
        if key == "eventTarget" {
            let t = v
                .dyn_into::<web_sys::EventTarget>()
                .map_err(|v| ApiError::type_(&path, format!("expected an EventTarget, got {}", describe(&v))))?;
            event_target = Some(t);
            continue;
        }
        let text = if let Some(s) = v.as_string() {
            s
        } else if let Some(n) = v.as_f64() {
            format!("{n}")
        } else if let Some(b) = v.as_bool() {
            b.to_string()
        } else if key == "scenario" && v.is_object() && !js_sys::Array::is_array(&v) {
            to_json_text(&v, &path)?
        } else {
            return Err(ApiError::type_(&path, format!("expected a string, number or boolean, got {}", describe(&v))));
        };
        pairs.push((key, text));
    }
    let pairs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let opts = EmbedOptions::parse(&pairs).map_err(|e| ApiError::new(format!("{prefix}{}", e.field), e.message))?;
    Ok(Parsed { opts, event_target, given, prefix: prefix.to_string() })
}

/// The speed without a `speed` option: the running preset's own, or the first preset's (a new
/// playground's) for a scenario of the reader's.
pub(crate) fn default_speed(pg: Pg) -> f64 {
    use crate::engine::scenario::catalog;
    let preset = pg.preset.get_untracked().and_then(catalog::preset);
    preset.unwrap_or(&catalog::presets()[0]).speed
}

/// Loads the source, runs it to `start_at` and sets the speed: at a mount before the first
/// render, in a live `update` in place of what ran. The new job is built and run beside the
/// old one, so a refused source or `start_at` (over the links' work budget, or an engine error
/// on the way) changes nothing. The run to `start_at` is not reported to the host's listeners,
/// in an update as at a mount (whose listeners come after it).
pub(crate) fn prepare(pg: Pg, opts: &EmbedOptions, prefix: &str) -> ApiResult<()> {
    if opts.source.is_some() || opts.start_at.is_some() {
        let source = opts.source.clone().unwrap_or_else(|| pg.running_source());
        // A link state's own commands and position are the scenario's to answer for.
        let position = if opts.start_at.is_some() { "start-at" } else { "scenario" };
        pg.load_source(source, opts.start_at).map_err(|e| match e {
            LoadFailure::Scenario(e) => e.within(&format!("{prefix}scenario")),
            LoadFailure::Replay(e) => ApiError::new(format!("{prefix}{position}"), e.message),
        })?;
    }
    pg.speed.set(opts.speed.unwrap_or_else(|| default_speed(pg)));
    Ok(())
}

/// What the mount closure hands back: the state, its look, and whether it is ready.
type Started = (Pg, Look, ApiResult<()>);

/// Mounts the UI per `opts` into `el`; `default_layout` when `opts` names none.
pub(crate) fn mount_parsed(
    el: web_sys::HtmlElement,
    parsed: Parsed,
    default_layout: Layout,
) -> ApiResult<super::mounted::MountedPlayground> {
    crate::web::error_banner::install_panic_hook();
    let Parsed { opts, event_target, prefix, .. } = parsed;
    let layout = opts.layout.unwrap_or(default_layout);
    let out: Rc<RefCell<Option<Started>>> = Rc::new(RefCell::new(None));
    let slot = out.clone();
    let given = opts.clone();
    let handle = leptos::mount::mount_to(el, move || {
        let pg = Pg::new();
        let look = Look::new(opts.theme, opts.controls, opts.view, opts.readonly);
        let ready = prepare(pg, &opts, &prefix);
        if let (Ok(()), Some(target)) = (&ready, event_target) {
            super::dom_events::install(pg, target);
        }
        pg.playing.set(opts.autoplay && ready.is_ok());
        *slot.borrow_mut() = Some((pg, look, ready));
        view! { <Hosted pg=pg layout=layout full_url=opts.full_url look=look /> }
    });
    let Some((pg, look, ready)) = out.borrow_mut().take() else {
        return Err(ApiError::invalid("", "the playground did not start"));
    };
    if let Err(e) = ready {
        drop(handle);
        return Err(e);
    }
    Ok(super::mounted::MountedPlayground::new(Box::new(handle), pg, look, given, default_layout))
}

/// Places the playground into `element`: `options.layout` `"full"` (default) or `"embed"`
/// (~720×420: play, speed, title, "open full ↗", compact graph, timeline, one-line WHY);
/// `preset` or `scenario` (object, JSON text, share string or preset id; default: the first
/// preset); `speed`; `autoplay`; `theme`; `controls`; `view`; `startAt`; `readonly`; `fullUrl`
/// (the full playground's address for the embed's "open full" link and the Share link; default: this page's);
/// `eventTarget` (where the simulation's events are dispatched as DOM `CustomEvent`s).
#[wasm_bindgen]
pub fn mount(element: JsValue, options: JsValue) -> Result<super::mounted::MountedPlayground, JsValue> {
    let m = "mount";
    let Some(el) = element.dyn_ref::<web_sys::HtmlElement>().cloned() else {
        return Err(ApiError::type_("element", format!("expected an HTML element, got {}", describe(&element))).into_js(m));
    };
    // A second playground in the same box would stack below the first, both running.
    if el.query_selector(":scope > .wmp-root").ok().flatten().is_some() {
        return Err(ApiError::invalid("element", "it already holds a playground: unmount() that one first").into_js(m));
    }
    let parsed = parse_options(&options, "options.").map_err(|e| e.into_js(m))?;
    mount_parsed(el, parsed, Layout::Full).map_err(|e| e.into_js(m))
}

/// Mounts the playground as the page: `index.html` calls it after `init()` (nothing runs on
/// instantiation, so the same module loads in Node.js). A framed `?embed=1` page also answers
/// its parent through the postMessage bridge (`bridge`).
#[wasm_bindgen(js_name = mountPlayground)]
pub fn mount_playground() {
    if let Some(crate::web::app::PageStart { pg, embed: Some(page) }) = crate::web::mount_page() {
        super::bridge::install(pg, page);
    }
}
