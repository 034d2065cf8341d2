//! `WatermarkPlayground.exportJob(scenario)`: the scenario as a runnable Flink 2.3 job
//! (`engine::export`, docs/EXPORT.md), thin like the rest of the class: `{ files: [{ path,
//! text }], sql?, notes }`. A scenario the export cannot run throws a `RangeError` whose `path`
//! names the field.

use super::convert::to_js;
use super::error::IntoJs;
use super::playground::WatermarkPlayground;
use super::sql::scenario_arg;
use crate::engine::export::export_job;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
impl WatermarkPlayground {
    /// The exported project's files, its Flink SQL script if the scenario has one, and what the
    /// exported job does differently from the playground.
    #[wasm_bindgen(js_name = exportJob)]
    pub fn export_job(scenario: JsValue) -> Result<JsValue, JsValue> {
        let run = || {
            let scenario = scenario_arg(&scenario, "scenario")?;
            to_js(&export_job(&scenario)?)
        };
        run().map_err(|e| e.into_js("WatermarkPlayground.exportJob"))
    }
}
