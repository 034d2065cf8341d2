//! The diagnosis on the JS class: `diagnose`, `applyFix`, `setLagAlert` (with `on("lag")`,
//! fed by the listeners' `LagWatch`) and `lagHistory`, thin over the engine's
//! `Simulation::diagnose`, `Session::apply_action_with` and `lag_history`.

use super::convert::{self, from_js, index_arg, non_negative, to_js, to_json};
use super::error::{ApiError, ApiResult, IntoJs};
use super::playground::WatermarkPlayground;
use crate::engine::diagnosis::lag::LagWatch;
use crate::engine::diagnosis::DiagnosisOptions;
use crate::engine::session::action::Action;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
impl WatermarkPlayground {
    /// The job-level diagnosis now: the slowest window subtask and what holds it, the cause,
    /// every finding with its evidence, the Flink metric to check and its fixes, each
    /// partition's class, the advisor for the bound, idle timeout and allowed lateness, and
    /// event-time lag. `options`: `{ toleratedDelayMs, lagAlertMs }` (the lag alert defaults
    /// to `setLagAlert`'s).
    pub fn diagnose(&self, options: JsValue) -> Result<JsValue, JsValue> {
        let m = "diagnose";
        let mut opts: DiagnosisOptions = if options.is_undefined() || options.is_null() {
            DiagnosisOptions::default()
        } else {
            from_js(&options, "options").map_err(|e| e.into_js(m))?
        };
        let alert = self.inner.try_borrow().map_err(|_| Self::busy(m))?.collector.lag_watch.as_ref().map(LagWatch::threshold_ms);
        opts.lag_alert_ms = opts.lag_alert_ms.or(alert);
        self.read(m, |s| to_js(&s.sim().diagnose(&opts)))
    }

    /// Applies a fix the diagnosis offered (`finding.fixes[i]`, or its `action`): a live change
    /// at the next instant, or — for `restarts: true` — the scenario with the change and the
    /// commands issued so far, restarted from time zero.
    #[wasm_bindgen(js_name = applyFix)]
    pub fn apply_fix(&self, fix: JsValue) -> Result<(), JsValue> {
        let m = "applyFix";
        let action = fix_arg(&fix).map_err(|e| e.into_js(m))?;
        self.change(m, !action.restarts(), |s, w| s.apply_action_with(action, w))?;
        if action.restarts() {
            self.rebuilt();
        }
        Ok(())
    }

    /// Alerts when a window subtask's event-time lag (processing time − watermark) exceeds
    /// `ms`: `on("lag", cb)` gets each crossing, up and down, at its exact time; `null` turns
    /// the alert off.
    #[wasm_bindgen(js_name = setLagAlert)]
    pub fn set_lag_alert(&self, ms: JsValue) -> Result<(), JsValue> {
        let m = "setLagAlert";
        let t = if ms.is_null() || ms.is_undefined() { None } else { Some(non_negative(&ms, "ms").map_err(|e| e.into_js(m))?) };
        let mut inner = self.inner.try_borrow_mut().map_err(|_| Self::busy(m))?;
        inner.collector.lag_watch = t.map(LagWatch::new);
        Ok(())
    }

    /// Event-time lag of window subtask `subtask` over time: `[{ time, lagMs }]` at each change
    /// of its watermark (just before and after) and now; `lagMs` is null without a watermark.
    #[wasm_bindgen(js_name = lagHistory)]
    pub fn lag_history(&self, subtask: JsValue) -> Result<JsValue, JsValue> {
        let m = "lagHistory";
        let i = index_arg(&subtask, "subtask").map_err(|e| e.into_js(m))?;
        self.read(m, |s| {
            let n = s.sim().downstream().windows.len();
            let h = s
                .sim()
                .lag_history(i)
                .ok_or_else(|| ApiError::new("subtask", format!("no window subtask {i} (the window operator has parallelism {n})")))?;
            let points: Vec<LagPoint> = h.into_iter().map(|(time, lag_ms)| LagPoint { time: time.ms(), lag_ms }).collect();
            to_js(&points)
        })
    }
}

/// A fix as `diagnose()` gives it (`{ label, action, restarts }`) or just its action.
fn fix_arg(v: &JsValue) -> ApiResult<Action> {
    let json = to_json(v, "fix")?.ok_or_else(|| ApiError::type_("fix", "is required: a fix from diagnose() or its action"))?;
    match json.get("action") {
        Some(a) => convert::from_json(a.clone(), "fix.action"),
        None => convert::from_json(json, "fix"),
    }
}

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct LagPoint {
    time: i64,
    lag_ms: Option<i64>,
}
