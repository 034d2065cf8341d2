//! `mount(element, options)`: places the playground — the full UI or the embed layout — into an
//! element of the host page (docs/API.md, `mount`). Options are checked completely before anything is
//! mounted; a bad one is a JS error naming it (`mount: options.speed: …`).
//!
//! The host page links the playground's stylesheet (`style.css` next to `wmp.js`); the
//! mounted UI runs its own frame loop until `unmount()`.

use super::convert::{self, describe};
use super::error::{ApiError, ApiResult, IntoJs};
use super::playground::{load_text, text_of_string};
use crate::engine::scenario::schema::Scenario;
use crate::engine::scenario::{build, catalog};
use crate::web::playback::MAX_SPEED;
use crate::web::{Embed, Pg, Playground};
use leptos::prelude::*;
use serde::Deserialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct MountOptions {
    layout: Option<String>,
    preset: Option<String>,
    /// A scenario object, scenario JSON text, a share string or a preset id.
    scenario: Option<serde_json::Value>,
    speed: Option<f64>,
    autoplay: Option<bool>,
    full_url: Option<String>,
}

/// What `mount` will start, all checked.
struct Plan {
    embed: bool,
    scenario: Option<(Scenario, Option<&'static str>)>,
    speed: Option<f64>,
    autoplay: bool,
    full_url: Option<String>,
}

fn plan(options: &JsValue) -> ApiResult<Plan> {
    let o: MountOptions =
        if options.is_undefined() || options.is_null() { MountOptions::default() } else { convert::from_js(options, "options")? };
    let embed = match o.layout.as_deref() {
        None | Some("full") => false,
        Some("embed") => true,
        Some(other) => return Err(ApiError::new("options.layout", format!("{other:?} is not a layout (\"full\" or \"embed\")"))),
    };
    let scenario = match (o.preset, o.scenario) {
        (Some(_), Some(_)) => return Err(ApiError::invalid("options.scenario", "give either preset or scenario, not both")),
        (Some(id), None) => {
            let p = catalog::preset(&id).ok_or_else(|| {
                let ids: Vec<&str> = catalog::presets().iter().map(|p| p.id).collect();
                ApiError::new("options.preset", format!("no preset {id:?} (one of {})", ids.join(", ")))
            })?;
            Some((build::parse(p.json)?, Some(p.id)))
        }
        (None, Some(v)) => {
            let text = match v {
                serde_json::Value::String(s) => text_of_string(&s, "options.scenario")?,
                serde_json::Value::Object(_) => v.to_string(),
                other => {
                    return Err(ApiError::type_(
                        "options.scenario",
                        format!("expected a scenario object or string, got {}", json_kind(&other)),
                    ))
                }
            };
            // The API's own checks (bounds, scripted commands), so the page cannot fail later.
            let sc = load_text(&text, "options.scenario")?.scenario().clone();
            let preset = catalog::preset_matching(&sc).map(|p| p.id);
            Some((sc, preset))
        }
        (None, None) => None,
    };
    if let Some(s) = o.speed {
        if !(s.is_finite() && s > 0.0 && s <= MAX_SPEED) {
            return Err(ApiError::new(
                "options.speed",
                format!("{s} is not a speed (processing time per wall-clock time, > 0 and ≤ 100000)"),
            ));
        }
    }
    Ok(Plan { embed, scenario, speed: o.speed, autoplay: o.autoplay.unwrap_or(false), full_url: o.full_url })
}

fn json_kind(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

/// A playground mounted into a page; `unmount()` removes it and stops its frame loop.
#[wasm_bindgen]
pub struct MountedPlayground {
    handle: Option<Box<dyn std::any::Any>>,
}

#[wasm_bindgen]
impl MountedPlayground {
    /// Removes the playground from the page and stops it. Calling it again does nothing.
    pub fn unmount(&mut self) {
        self.handle.take();
    }

    /// Whether it is still mounted.
    #[wasm_bindgen(getter)]
    pub fn mounted(&self) -> bool {
        self.handle.is_some()
    }
}

/// Places the playground into `element`: `options.layout` `"full"` (default) or `"embed"`
/// (~720×420: play, speed, title, "open full ↗", compact graph, timeline, one-line WHY);
/// `preset` or `scenario` (object, JSON text, share string or preset id; default: the first
/// preset); `speed`; `autoplay`; `fullUrl` (the full playground's address for the embed's
/// "open full" link; default: this page's).
#[wasm_bindgen]
pub fn mount(element: JsValue, options: JsValue) -> Result<MountedPlayground, JsValue> {
    let m = "mount";
    let Some(el) = element.dyn_ref::<web_sys::HtmlElement>().cloned() else {
        return Err(ApiError::type_("element", format!("expected an HTML element, got {}", describe(&element))).into_js(m));
    };
    let plan = plan(&options).map_err(|e| e.into_js(m))?;
    crate::web::error_banner::install_panic_hook();
    let handle = leptos::mount::mount_to(el, move || {
        let pg = Pg::new();
        if let Some((sc, preset)) = plan.scenario {
            // Checked above; a failure here would be a bug, shown as a notice.
            if let Err(e) = pg.load(sc, preset) {
                pg.error(format!("{e}"));
            }
            if let Some(p) = preset.and_then(catalog::preset) {
                pg.speed.set(p.speed);
            }
        }
        if let Some(s) = plan.speed {
            pg.speed.set(s);
        }
        pg.playing.set(plan.autoplay);
        if plan.embed {
            view! { <Embed pg=pg full_url=plan.full_url /> }.into_any()
        } else {
            view! { <Playground pg=pg /> }.into_any()
        }
    });
    Ok(MountedPlayground { handle: Some(Box::new(handle)) })
}
