//! The live link's HTTP: GETs against a JobManager's REST API with `fetch`, each answer parsed
//! by the engine ([`crate::engine::live::bundle::parse_answer`]), one poll collected into a
//! [`Bundle`]. The browser hides why a request failed (a `TypeError` for an unreachable host and
//! for a CORS refusal alike), so a failed request is retried once in `no-cors` mode: an opaque
//! answer means the host is up and refused this origin.

use crate::engine::live::bundle::{job_path, metric_chunks, overview_path, parse_answer, vertex_path, Bundle};
use crate::engine::live::{LiveError, LiveJob};
use serde_json::Value;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// A request gives up after this long (a firewall that drops packets never answers).
const TIMEOUT_MS: i32 = 10_000;

/// Why a request or a poll failed, as the user should read it.
#[derive(Clone, Debug, PartialEq)]
pub enum FetchError {
    Unreachable { url: String },
    Cors { url: String, origin: String },
    Status { url: String, status: u16, body: String },
    Live(LiveError),
}

impl FetchError {
    pub fn message(&self) -> String {
        match self {
            FetchError::Unreachable { url } => {
                format!("Cannot reach {url}: no answer. Check the JobManager URL (its REST port, 8081 by default) and that this browser can reach that host.")
            }
            FetchError::Cors { url, origin } => format!(
                "{url} answered, but the browser refused to let this page read it (CORS): the JobManager's web.access-control-allow-origin must allow this origin, {origin} (Flink's default is *). Or use the offline paste below."
            ),
            // The job list's address has no job to be gone.
            FetchError::Status { url, status: 404, body } if url.ends_with(&overview_path()) => {
                format!("404 Not Found at {url}{}: is this a Flink JobManager's REST address?", flink_says(body))
            }
            FetchError::Status { url, status: 404, body } => {
                format!("404 Not Found at {url}{}: is this a Flink JobManager URL, and is the job still there?", flink_says(body))
            }
            FetchError::Status { url, status, body } => format!("HTTP {status} at {url}{}.", flink_says(body)),
            FetchError::Live(LiveError::NotRunning { job_id, state }) => format!("Job {job_id} is {state}: polling stopped (only a running job has watermarks to read)."),
            FetchError::Live(LiveError::Garbage { path, message }) => {
                format!("The answer of {path} is not JSON ({message}): is this URL a Flink JobManager's REST endpoint?")
            }
            FetchError::Live(e) => e.to_string(),
        }
    }
}

/// A pasted bundle's error, in the words of a paste (there is no URL and nothing polls).
pub fn offline_message(e: &LiveError) -> String {
    match e {
        LiveError::Garbage { message, .. } => format!("The pasted text is not JSON ({message}): paste the whole bundle flink-bundle.sh printed."),
        LiveError::NotRunning { job_id, state } => format!("Job {job_id} is {state} in this bundle: only a running job has watermarks to read."),
        e => e.to_string(),
    }
}

fn flink_says(body: &str) -> String {
    match parse_answer("", body) {
        Err(LiveError::Flink { message, .. }) => format!(" (Flink says: {message})"),
        _ => String::new(),
    }
}

/// The base URL as typed, without a trailing slash; `localhost:8081` gets `http://`.
pub fn normalize_base(url: &str) -> String {
    let url = url.trim().trim_end_matches('/');
    if url.contains("://") {
        url.to_string()
    } else {
        format!("http://{url}")
    }
}

fn window() -> web_sys::Window {
    web_sys::window().expect("a window")
}

async fn raw_fetch(url: &str, mode: web_sys::RequestMode) -> Result<web_sys::Response, JsValue> {
    let abort = web_sys::AbortController::new()?;
    let init = web_sys::RequestInit::new();
    init.set_method("GET");
    init.set_mode(mode);
    init.set_signal(Some(&abort.signal()));
    let timer = {
        let abort = abort.clone();
        let cb = wasm_bindgen::closure::Closure::once_into_js(move || abort.abort());
        window().set_timeout_with_callback_and_timeout_and_arguments_0(cb.unchecked_ref(), TIMEOUT_MS)?
    };
    let answer = JsFuture::from(window().fetch_with_str_and_init(url, &init)).await;
    window().clear_timeout_with_handle(timer);
    answer?.dyn_into()
}

/// GET `base` + `path` (+ `?query`), parsed as JSON by the engine.
pub async fn get(base: &str, path: &str, query: Option<&str>) -> Result<Value, FetchError> {
    let url = match query {
        Some(q) => format!("{base}{path}?{q}"),
        None => format!("{base}{path}"),
    };
    let response = match raw_fetch(&url, web_sys::RequestMode::Cors).await {
        Ok(r) => r,
        Err(_) => {
            let origin = window().location().origin().unwrap_or_default();
            return Err(match raw_fetch(&url, web_sys::RequestMode::NoCors).await {
                Ok(_) => FetchError::Cors { url, origin },
                Err(_) => FetchError::Unreachable { url },
            });
        }
    };
    let text = match response.text() {
        Ok(p) => JsFuture::from(p).await.ok().and_then(|t| t.as_string()).unwrap_or_default(),
        Err(_) => String::new(),
    };
    if !response.ok() {
        return Err(FetchError::Status { url, status: response.status(), body: text });
    }
    parse_answer(path, &text).map_err(FetchError::Live)
}

/// `/jobs/overview`.
pub async fn overview(base: &str) -> Result<Value, FetchError> {
    get(base, &overview_path(), None).await
}

/// One poll of job `job_id`: its details, then per vertex its watermarks, the wanted metrics
/// (listed, then fetched a few names at a time) and back-pressure; read into a [`LiveJob`].
pub async fn poll(base: &str, job_id: &str) -> Result<(Bundle, LiveJob), FetchError> {
    let mut b = Bundle::default();
    let details = get(base, &job_path(job_id), None).await?;
    let vertex_ids: Vec<String> =
        details.get("vertices").and_then(Value::as_array).into_iter().flatten().filter_map(|v| Some(v.get("id")?.as_str()?.to_string())).collect();
    b.merge(&job_path(job_id), details);
    // An ended job needs no further requests.
    LiveJob::from_bundle(&b, job_id).map_err(FetchError::Live).err().filter(|e| matches!(e, FetchError::Live(LiveError::NotRunning { .. }))).map_or(Ok(()), Err)?;
    for vid in &vertex_ids {
        for tail in ["watermarks", "backpressure"] {
            let path = vertex_path(job_id, vid, tail);
            b.merge(&path, get(base, &path, None).await?);
        }
        let path = vertex_path(job_id, vid, "metrics");
        let list = get(base, &path, None).await?;
        for names in metric_chunks(&list) {
            let encoded: Vec<String> = names.iter().map(|n| String::from(js_sys::encode_uri_component(n))).collect();
            b.merge(&path, get(base, &path, Some(&format!("get={}", encoded.join(",")))).await?);
        }
    }
    let job = LiveJob::from_bundle(&b, job_id).map_err(FetchError::Live)?;
    Ok((b, job))
}

/// Resolves after `ms` (the poll interval), on the browser's timer.
pub async fn sleep(ms: i32) {
    let p = js_sys::Promise::new(&mut |resolve, _| {
        let _ = window().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
    });
    let _ = JsFuture::from(p).await;
}
