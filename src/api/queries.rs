//! The reads both JS objects answer, written once over a [`Session`]: `WatermarkPlayground`
//! (its own session) and a mounted playground (`mount()`'s result and `el.playground`, over the
//! UI's session). Each parses its arguments (errors name them) and returns the engine's view as
//! a plain object.

use super::convert::{from_js, index_arg, non_negative, string_arg, to_js};
use super::error::{ApiError, ApiResult};
use crate::engine::diagnosis::DiagnosisOptions;
use crate::engine::session::Session;
use crate::engine::snapshot::SnapshotOptions as ViewOptions;
use crate::engine::view::results::{JoinEmission, LateRecordView, WindowEmission};
use serde::Deserialize;
use wasm_bindgen::JsValue;

/// Open windows listed per operator by `snapshot()` unless asked otherwise.
pub const DEFAULT_OPEN_WINDOWS: usize = 10;

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct SnapshotOptions {
    open_windows: Option<u32>,
}

/// An optional argument: absent (`undefined` or `null`) gives `None`.
fn given(v: &JsValue) -> Option<&JsValue> {
    (!v.is_undefined() && !v.is_null()).then_some(v)
}

/// The job now; `options.openWindows` caps the open windows listed per operator.
pub fn snapshot(s: &Session, options: &JsValue) -> ApiResult<JsValue> {
    let opts: SnapshotOptions = given(options).map_or(Ok(SnapshotOptions::default()), |o| from_js(o, "options"))?;
    let open = opts.open_windows.map_or(DEFAULT_OPEN_WINDOWS, |n| n as usize);
    to_js(&s.sim().snapshot_with(ViewOptions { open_windows: open, metrics: true, finished: s.finished() }))
}

/// Trace events with `seq >= cursor` still in the bounded trace.
pub fn events_since(s: &Session, cursor: &JsValue) -> ApiResult<JsValue> {
    let c = given(cursor).map_or(Ok(0), |c| non_negative(c, "cursor"))?;
    to_js(&s.sim().event_batch(c as u64))
}

/// Window results in emission order, from index `from` (default 0).
pub fn windows(s: &Session, from: &JsValue) -> ApiResult<JsValue> {
    let from = given(from).map_or(Ok(0), |f| non_negative(f, "from"))? as usize;
    let (agg, keys) = (s.sim().config().aggregate, s.sim().keys());
    let list: Vec<_> = s.sim().downstream().sink.since(from).map(|(i, r)| WindowEmission::new(i, r, keys, agg)).collect();
    to_js(&list)
}

/// An interval join's pairs in emission order, from index `from` (default 0).
pub fn joins(s: &Session, from: &JsValue) -> ApiResult<JsValue> {
    let from = given(from).map_or(Ok(0), |f| non_negative(f, "from"))?;
    let keys = s.sim().keys();
    let list: Vec<_> = s.sim().downstream().joins.since(from as u64).map(|(i, r)| JoinEmission::new(i, r, keys)).collect();
    to_js(&list)
}

/// The late records kept.
pub fn late_records(s: &Session) -> ApiResult<JsValue> {
    let keys = s.sim().keys();
    let list: Vec<_> = s.sim().downstream().late.iter().map(|l| LateRecordView::new(l, keys)).collect();
    to_js(&list)
}

/// Per-subtask metrics under Flink's names.
pub fn metrics(s: &Session) -> ApiResult<JsValue> {
    to_js(&s.sim().metrics())
}

/// A vertex (`"source"` or `"window"`) as the REST API names it.
fn vertex_arg(v: &JsValue) -> ApiResult<String> {
    string_arg(v, "vertex")
}

fn no_vertex(v: &str) -> ApiError {
    ApiError::new("vertex", format!("no vertex {v:?} (\"source\" or \"window\")"))
}

/// Flink's REST `…/vertices/:vertexid/watermarks` answer.
pub fn rest_watermarks(s: &Session, vertex: &JsValue) -> ApiResult<JsValue> {
    let v = vertex_arg(vertex)?;
    to_js(&s.sim().rest_watermarks(&v).ok_or_else(|| no_vertex(&v))?)
}

/// Flink's REST `…/vertices/:vertexid/backpressure` answer.
pub fn rest_back_pressure(s: &Session, vertex: &JsValue) -> ApiResult<JsValue> {
    let v = vertex_arg(vertex)?;
    to_js(&s.sim().rest_back_pressure(&v).ok_or_else(|| no_vertex(&v))?)
}

/// Window state per keyed subtask over time.
pub fn state_size_history(s: &Session) -> ApiResult<JsValue> {
    to_js(&s.sim().state_size_history())
}

fn no_subtask(s: &Session, i: u32) -> ApiError {
    let n = s.sim().downstream().windows.len();
    ApiError::new("subtask", format!("no window subtask {i} (the window operator has parallelism {n})"))
}

/// Why a window subtask's watermark is where it is.
pub fn explain(s: &Session, subtask: &JsValue) -> ApiResult<JsValue> {
    let i = index_arg(subtask, "subtask")?;
    to_js(&s.sim().explain(i).ok_or_else(|| no_subtask(s, i))?)
}

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct LagPoint {
    time: i64,
    lag_ms: Option<i64>,
}

/// A window subtask's event-time lag over time.
pub fn lag_history(s: &Session, subtask: &JsValue) -> ApiResult<JsValue> {
    let i = index_arg(subtask, "subtask")?;
    let h = s.sim().lag_history(i).ok_or_else(|| no_subtask(s, i))?;
    let points: Vec<LagPoint> = h.into_iter().map(|(time, lag_ms)| LagPoint { time: time.ms(), lag_ms }).collect();
    to_js(&points)
}

/// The job-level diagnosis: what `options` names, else what `defaults` says (the API's lag
/// alert, the page's tolerated delay and alert).
pub fn diagnose(s: &Session, options: &JsValue, defaults: DiagnosisOptions) -> ApiResult<JsValue> {
    let given: DiagnosisOptions = given(options).map_or(Ok(DiagnosisOptions::default()), |o| from_js(o, "options"))?;
    given.check().map_err(|e| e.within("options"))?;
    let opts = DiagnosisOptions {
        tolerated_delay_ms: given.tolerated_delay_ms.or(defaults.tolerated_delay_ms),
        lag_alert_ms: given.lag_alert_ms.or(defaults.lag_alert_ms),
        // The API's texts keep full UTC dates, whoever's defaults these are.
        time_style: None,
    };
    to_js(&s.sim().diagnose(&opts))
}

/// The read methods, once for both classes: each has `read(method, f)`, which runs `f` on its
/// session and makes its error a JS error naming the method.
macro_rules! session_reads {
    ($class:ty) => {
        #[wasm_bindgen::prelude::wasm_bindgen]
        impl $class {
            /// The job now: splits, source subtasks, operators with their channels and open
            /// windows, metrics. `options.openWindows` caps the open windows listed per
            /// operator (default 10).
            pub fn snapshot(&self, options: JsValue) -> Result<JsValue, JsValue> {
                self.read("snapshot", |s| $crate::api::queries::snapshot(s, &options))
            }

            /// Window results in emission order, from index `from` (default 0); the newest
            /// `trace.window_results_retained` are kept (in the page, at most 24,000).
            pub fn windows(&self, from: JsValue) -> Result<JsValue, JsValue> {
                self.read("windows", |s| $crate::api::queries::windows(s, &from))
            }

            /// Pairs an interval join emitted, in emission order, from index `from` (default
            /// 0); the newest `trace.window_results_retained` are kept, as for windows.
            pub fn joins(&self, from: JsValue) -> Result<JsValue, JsValue> {
                self.read("joins", |s| $crate::api::queries::joins(s, &from))
            }

            /// The late records kept (the most recent `trace.late_records_retained`); the
            /// counters in `metrics()` are exact.
            #[wasm_bindgen(js_name = lateRecords)]
            pub fn late_records(&self) -> Result<JsValue, JsValue> {
                self.read("lateRecords", $crate::api::queries::late_records)
            }

            /// Per-subtask metrics under Flink's names.
            pub fn metrics(&self) -> Result<JsValue, JsValue> {
                self.read("metrics", $crate::api::queries::metrics)
            }

            /// The answer of Flink's REST `GET /jobs/:jobid/vertices/:vertexid/watermarks` for
            /// `"source"` or `"window"`.
            #[wasm_bindgen(js_name = restWatermarks)]
            pub fn rest_watermarks(&self, vertex: JsValue) -> Result<JsValue, JsValue> {
                self.read("restWatermarks", |s| $crate::api::queries::rest_watermarks(s, &vertex))
            }

            /// The answer of Flink's REST `GET /jobs/:jobid/vertices/:vertexid/backpressure`
            /// for `"source"` or `"window"`.
            #[wasm_bindgen(js_name = restBackPressure)]
            pub fn rest_back_pressure(&self, vertex: JsValue) -> Result<JsValue, JsValue> {
                self.read("restBackPressure", |s| $crate::api::queries::rest_back_pressure(s, &vertex))
            }

            /// Window state per keyed subtask over time (entries, sampled every second and
            /// thinned as the run grows), with the bytes per entry and the TaskManagers' memory
            /// limit.
            #[wasm_bindgen(js_name = stateSizeHistory)]
            pub fn state_size_history(&self) -> Result<JsValue, JsValue> {
                self.read("stateSizeHistory", $crate::api::queries::state_size_history)
            }

            /// Why window subtask `subtask`'s watermark is where it is: who holds it, the
            /// reasons, the windows that wait.
            pub fn explain(&self, subtask: JsValue) -> Result<JsValue, JsValue> {
                self.read("explain", |s| $crate::api::queries::explain(s, &subtask))
            }

            /// Event-time lag of window subtask `subtask` over time: `[{ time, lagMs }]` at each
            /// change of its watermark (just before and after) and now; `lagMs` is null without
            /// a watermark.
            #[wasm_bindgen(js_name = lagHistory)]
            pub fn lag_history(&self, subtask: JsValue) -> Result<JsValue, JsValue> {
                self.read("lagHistory", |s| $crate::api::queries::lag_history(s, &subtask))
            }
        }
    };
}
pub(crate) use session_reads;
