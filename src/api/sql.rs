//! `WatermarkPlayground.sqlScenario(sql, base?)`: a Flink SQL script read onto a base scenario
//! (`engine::sql`, `docs/SQL.md`), thin like the rest of the class. A bad script is a JS `Error`
//! whose `path` is `sql:LINE:COLUMN`.

use super::convert::{self, string_arg, to_js};
use super::error::{ApiError, ApiResult, IntoJs};
use super::playground::{text_of_string, WatermarkPlayground};
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
    let text = if base.is_undefined() || base.is_null() {
        catalog::presets()[0].json.to_string()
    } else if let Some(s) = base.as_string() {
        text_of_string(&s, "base")?
    } else if base.is_object() && !js_sys::Array::is_array(base) && !base.is_function() {
        convert::to_json_text(base, "base")?
    } else {
        return Err(ApiError::type_(
            "base",
            format!("expected a scenario object, a preset id or a share string, got {}", convert::describe(base)),
        ));
    };
    build::parse(&text).map_err(|e| e.within("base"))
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
