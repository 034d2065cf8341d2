//! `WatermarkPlayground.sqlScenario(sql, base?)`: a Flink SQL script read onto a base scenario
//! (`engine::sql`, `docs/SQL.md`), thin like the rest of the class. A bad script is a JS `Error`
//! whose `path` is `sql:LINE:COLUMN`.

use super::constructors::text_of_string;
use super::convert::{self, string_arg, to_js};
use super::error::{ApiError, ApiResult, IntoJs};
use super::playground::WatermarkPlayground;
use crate::engine::scenario::schema::Scenario;
use crate::engine::scenario::{build, catalog};
use crate::engine::sql::{sql_to_scenario, Note};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// What `sqlScenario` returns.
#[derive(Serialize)]
struct SqlScenario {
    scenario: Scenario,
    notes: Vec<Note>,
}

/// The base: a scenario object, a preset id, a share string or JSON text; none: the first preset.
fn base_arg(base: &JsValue) -> ApiResult<Scenario> {
    if base.is_undefined() || base.is_null() {
        return build::parse(catalog::presets()[0].json).map_err(|e| e.within("base"));
    }
    scenario_arg(base, "base")
}

/// A scenario argument: a scenario object, a preset id, a share string or JSON text.
pub(super) fn scenario_arg(v: &JsValue, name: &str) -> ApiResult<Scenario> {
    let text = if let Some(s) = v.as_string() {
        text_of_string(&s, name)?
    } else if v.is_object() && !js_sys::Array::is_array(v) && !v.is_function() {
        convert::to_json_text(v, name)?
    } else {
        return Err(ApiError::type_(
            name,
            format!("expected a scenario object, a preset id or a share string, got {}", convert::describe(v)),
        ));
    };
    build::parse(&text).map_err(|e| e.within(name))
}

#[wasm_bindgen]
impl WatermarkPlayground {
    /// The scenario a Flink SQL script gives on `base` (default: the first preset), and notes on
    /// what it read but does not model: `{ scenario, notes: [{ line, column, message }] }`.
    #[wasm_bindgen(js_name = sqlScenario)]
    pub fn sql_scenario(sql: JsValue, base: JsValue) -> Result<JsValue, JsValue> {
        let m = "WatermarkPlayground.sqlScenario";
        let run = || {
            let sql = string_arg(&sql, "sql")?;
            let base = base_arg(&base)?;
            let (scenario, notes) = sql_to_scenario(&sql, &base).map_err(|e| e.into_input_error())?;
            to_js(&SqlScenario { scenario, notes })
        };
        run().map_err(|e| e.into_js(m))
    }
}
