//! How a playground comes to be: the constructors (`new`, `fromScenario`, `fromPreset`,
//! `fromShareString`) and the class's static reads of the catalog (`presets`, `presetScenario`,
//! `describeWatermark`). Each says which call to use when it is handed another's input.

use super::convert::{self, int_arg, string_arg, to_js};
use super::error::{ApiError, ApiResult, IntoJs};
use super::playground::WatermarkPlayground;
use crate::engine::scenario::{build, catalog};
use crate::engine::session::{share, Session};
use crate::engine::time::describe_watermark;
use wasm_bindgen::prelude::*;

/// The scenario JSON text a string stands for: a preset id, a share string or JSON text.
pub(crate) fn text_of_string(s: &str, arg: &str) -> ApiResult<String> {
    if let Some(p) = catalog::preset(s.trim()) {
        return Ok(p.json.to_string());
    }
    if share::is_share_string(s) {
        return share::decode(s, arg);
    }
    // A byte-order mark in front of the JSON gets the parser's hint rather than "not a preset".
    if s.trim_start_matches('\u{feff}').trim_start().starts_with('{') {
        return Ok(s.to_string());
    }
    let ids: Vec<&str> = catalog::presets().iter().map(|p| p.id).collect();
    Err(ApiError::new(
        arg,
        format!("{s:?} is not a preset id (one of {}), a share string ({}…) or scenario JSON", ids.join(", "), share::PREFIX),
    ))
}

pub(crate) fn load_text(text: &str, arg: &str) -> ApiResult<Session> {
    Session::from_json(text).map_err(|e| e.within(arg))
}

fn load(input: &JsValue, arg: &str) -> ApiResult<Session> {
    if let Some(s) = input.as_string() {
        return load_text(&text_of_string(&s, arg)?, arg);
    }
    if input.is_object() && !js_sys::Array::is_array(input) && !input.is_function() {
        return load_text(&convert::to_json_text(input, arg)?, arg);
    }
    Err(ApiError::type_(arg, format!("expected a scenario object, a preset id or a share string, got {}", convert::describe(input))))
}

#[wasm_bindgen]
impl WatermarkPlayground {
    /// From a scenario object (the engine's JSON format), a preset id, a share string or
    /// scenario JSON text.
    #[wasm_bindgen(constructor)]
    pub fn new(source: JsValue) -> Result<WatermarkPlayground, JsValue> {
        load(&source, "scenario").map(Self::wrap).map_err(|e| e.into_js("new WatermarkPlayground"))
    }

    /// From a scenario object or scenario JSON text.
    #[wasm_bindgen(js_name = fromScenario)]
    pub fn from_scenario(scenario: JsValue) -> Result<WatermarkPlayground, JsValue> {
        let m = "WatermarkPlayground.fromScenario";
        let session = if let Some(s) = scenario.as_string() {
            // A preset's id is no JSON: say which call takes it (it read "expected value at line 1").
            load_text(&s, "scenario").map_err(|mut e| {
                if let Some(p) = catalog::preset(s.trim()) {
                    e.message = format!("{} (\"{}\" is a preset id: WatermarkPlayground.fromPreset takes it)", e.message, p.id);
                }
                e
            })
        } else if scenario.is_object() && !js_sys::Array::is_array(&scenario) {
            load(&scenario, "scenario")
        } else {
            Err(ApiError::type_("scenario", format!("expected a scenario object or JSON text, got {}", convert::describe(&scenario))))
        };
        session.map(Self::wrap).map_err(|e| e.into_js(m))
    }

    /// From a preset of the catalog (`WatermarkPlayground.presets()`).
    #[wasm_bindgen(js_name = fromPreset)]
    pub fn from_preset(id: JsValue) -> Result<WatermarkPlayground, JsValue> {
        let m = "WatermarkPlayground.fromPreset";
        let id = string_arg(&id, "id").map_err(|e| e.into_js(m))?;
        let p = catalog::preset(&id).ok_or_else(|| {
            let ids: Vec<&str> = catalog::presets().iter().map(|p| p.id).collect();
            ApiError::new("id", format!("no preset {id:?} (one of {})", ids.join(", "))).into_js(m)
        })?;
        load_text(p.json, "preset").map(Self::wrap).map_err(|e| e.into_js(m))
    }

    /// From a share string (`toShareString()`).
    #[wasm_bindgen(js_name = fromShareString)]
    pub fn from_share_string(share: JsValue) -> Result<WatermarkPlayground, JsValue> {
        let m = "WatermarkPlayground.fromShareString";
        let s = string_arg(&share, "share").map_err(|e| e.into_js(m))?;
        share::decode(&s, "share").and_then(|t| load_text(&t, "share")).map(Self::wrap).map_err(|e| e.into_js(m))
    }

    /// The preset catalog: id, title, summary, what to look at, what to try, source.
    pub fn presets() -> Result<JsValue, JsValue> {
        to_js(catalog::presets()).map_err(|e| e.into_js("WatermarkPlayground.presets"))
    }

    /// A preset's scenario object, to change before loading it.
    #[wasm_bindgen(js_name = presetScenario)]
    pub fn preset_scenario(id: JsValue) -> Result<JsValue, JsValue> {
        let m = "WatermarkPlayground.presetScenario";
        let id = string_arg(&id, "id").map_err(|e| e.into_js(m))?;
        let p = catalog::preset(&id).ok_or_else(|| ApiError::new("id", format!("no preset {id:?}")).into_js(m))?;
        let sc = build::parse(p.json).map_err(|e| e.into_js(m))?;
        to_js(&sc).map_err(|e| e.into_js(m))
    }

    /// A watermark in words, as Flink's web UI shows it ("No Watermark", a UTC time, …).
    /// Takes a `Watermark` object, its `raw` string, a number or a BigInt.
    #[wasm_bindgen(js_name = describeWatermark)]
    pub fn describe_watermark(watermark: JsValue) -> Result<String, JsValue> {
        let m = "WatermarkPlayground.describeWatermark";
        let raw = if watermark.is_object() && !watermark.is_bigint() {
            js_sys::Reflect::get(&watermark, &JsValue::from_str("raw")).unwrap_or(JsValue::UNDEFINED)
        } else {
            watermark.clone()
        };
        let w: i64 = if let Some(s) = raw.as_string() {
            s.trim().parse().map_err(|_| ApiError::new("watermark", format!("{s:?} is not a 64-bit integer")).into_js(m))?
        } else if raw.is_bigint() {
            i64::try_from(raw).map_err(|_| ApiError::new("watermark", "the BigInt does not fit in 64 bits").into_js(m))?
        } else {
            int_arg(&raw, "watermark").map_err(|e| e.into_js(m))?
        };
        Ok(describe_watermark(crate::engine::time::EventTime(w)))
    }
}
