//! The diagnosis on the JS class: `diagnose`, `applyFix`, `setLagAlert` (with `on("lag")`,
//! fed by the listeners' `LagWatch`) and `lagHistory`, thin over the engine's
//! `Simulation::diagnose`, `Session::apply_action_with` and `lag_history`.

use super::convert::{self, non_negative, to_json};
use super::error::{ApiError, ApiResult, IntoJs};
use super::playground::WatermarkPlayground;
use super::queries;
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
        let alert = self.inner.try_borrow().map_err(|_| Self::busy(m))?.collector.lag_watch.as_ref().map(LagWatch::threshold_ms);
        self.read(m, |s| queries::diagnose(s, &options, DiagnosisOptions { lag_alert_ms: alert, ..Default::default() }))
    }

    /// Applies a fix the diagnosis offered (`finding.fixes[i]`, or its `action`): a live change
    /// at the next instant, or — for `restarts: true` — the scenario with the change and the
    /// commands issued so far, restarted from time zero.
    #[wasm_bindgen(js_name = applyFix)]
    pub fn apply_fix(&self, fix: JsValue) -> Result<(), JsValue> {
        let m = "applyFix";
        let Fix { action, path } = fix_arg(&fix).map_err(|e| e.into_js(m))?;
        self.change(m, !action.restarts(), |s, w| s.apply_action_with(action, w).map_err(|e| fix_error(e, path)))?;
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
}

/// `applyFix`'s argument: the action, and the path its fields have in the argument.
pub(super) struct Fix {
    pub action: Action,
    pub path: &'static str,
}

/// A fix as `diagnose()` gives it (`{ label, action, restarts }`) or just its action.
pub(super) fn fix_arg(v: &JsValue) -> ApiResult<Fix> {
    let json = to_json(v, "fix")?.ok_or_else(|| ApiError::type_("fix", "is required: a fix from diagnose() or its action"))?;
    let path = if json.get("action").is_some() { "fix.action" } else { "fix" };
    let action = json.get("action").cloned().unwrap_or(json);
    let has_value = action.get("value").is_some();
    let action: Action = convert::from_json(action, path)?;
    // serde reads a left-out optional value as null, which turns a timeout or a capacity off:
    // it must be given, as `setParam`'s must (a required one is refused by serde already).
    if !has_value && matches!(action, Action::IdleTimeout(None) | Action::KeyedCapacity(None)) {
        return Err(ApiError::type_(format!("{path}.value"), "is required (null turns it off)"));
    }
    Ok(Fix { action, path })
}

/// An error on the command a fix issues, named by the fix's own field: its `value` is the
/// command's `param.value`.
pub(super) fn fix_error(mut e: ApiError, path: &str) -> ApiError {
    if let Some(field) = e.path.strip_prefix("param.") {
        e.path = format!("{path}.{field}");
    }
    e
}
