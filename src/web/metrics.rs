//! Flink-named metrics per subtask (back-pressure, busy time, buffer usage, pending records and
//! alignment drift among them) and the REST answers of a vertex — `/watermarks` and
//! `/backpressure` side by side — copyable.
//! Computed only while the panel is open.

use super::format::{dur, thousands, wm_human, wm_raw};
use super::glyphs::spoken;
use super::metrics_flow::FlowMetrics;
use super::share::copy_text;
use super::state::Pg;
use leptos::prelude::*;

#[component]
pub fn MetricsPanel() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let node = NodeRef::<leptos::html::Div>::new();
    super::measure::mark_more_beyond(node);
    view! {
        <section class="card metrics-card" aria-labelledby="metrics-h">
            <details on:toggle=move |ev| {
                let open = event_target::<web_sys::HtmlDetailsElement>(&ev).open();
                pg.metrics_open.set(open);
                if open { pg.refresh(); }
            }>
                <summary><h2 id="metrics-h">"Metrics & REST"</h2><span class="muted small">" Flink's metric names, per subtask"</span></summary>
                // The tables in one block: the box's shades span its first child (style.css).
                <div class="scroll" node_ref=node><div>
                    // A job that can be back-pressured or is aligned shows those metrics first.
                    {move || {
                        if pg.cfg.with(|c| c.flow_controlled()) {
                            view! { <FlowMetrics /><WindowMetrics /><SourceMetrics /> }.into_any()
                        } else {
                            view! { <WindowMetrics /><SourceMetrics /><FlowMetrics /> }.into_any()
                        }
                    }}
                </div></div>
                <div class="rest-pair"><RestAnswers /></div>
            </details>
        </section>
    }
}

/// A watermark lag, or a dash when there is no watermark to lag.
fn lag(l: Option<i64>) -> String {
    l.map_or("–".to_string(), dur)
}

/// One row per window operator subtask.
#[component]
fn WindowMetrics() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let now = move || pg.snap_slow.with(|s| s.now.ms());
    view! {
        <table class="data" id="metrics-window">
            <caption>"Window operator subtasks"</caption>
            <thead><tr>
                <th scope="col">"subtask"</th><th scope="col">"currentInputWatermark"</th><th scope="col">"currentOutputWatermark"</th>
                <th scope="col" class="num" title="Processing time minus currentInputWatermark. Not a Flink metric of this operator: Flink's watermarkLag is the sources' (the reader's); compute this one from currentInputWatermark.">"event-time lag"</th><th scope="col" class="num">"numRecordsIn"</th><th scope="col" class="num">"numRecordsOut"</th>
                <th scope="col" class="num">"numLateRecordsDropped"</th><th scope="col" class="num">"late side output"</th>
                <th scope="col" class="num">"idle time"</th><th scope="col" class="num">"window state"</th>
            </tr></thead>
            <tbody>
                {move || pg.metrics.with(|m| m.as_ref().map(|m| m.window.iter().map(|w| view! {
                    <tr>
                        <th scope="row">{w.subtask}</th>
                        <td class="mono" title=wm_raw(w.current_input_watermark.ms())>{wm_human(w.current_input_watermark.ms(), now())}</td>
                        <td class="mono" title=wm_raw(w.current_output_watermark.ms())>{wm_human(w.current_output_watermark.ms(), now())}</td>
                        <td class="num">{lag(w.watermark_lag)}</td>
                        <td class="num">{thousands(w.num_records_in)}</td>
                        <td class="num">{thousands(w.num_records_out)}</td>
                        <td class="num">{thousands(w.num_late_records_dropped)}</td>
                        <td class="num">{thousands(w.num_late_records_side_output)}</td>
                        <td class="num">{dur(w.idle_time_ms)}</td>
                        <td class="num">{thousands(w.window_state_size as u64)}</td>
                    </tr>
                }).collect_view()))}
            </tbody>
        </table>
    }
}

/// One row per source subtask.
#[component]
fn SourceMetrics() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let now = move || pg.snap_slow.with(|s| s.now.ms());
    view! {
        <table class="data" id="metrics-source">
            <caption>"Source subtasks"</caption>
            <thead><tr>
                <th scope="col">"subtask"</th><th scope="col">"currentOutputWatermark"</th><th scope="col" class="num">"watermarkLag"</th>
                <th scope="col" class="num">"numRecordsOut"</th><th scope="col" class="num">"filtered"</th><th scope="col">"idle"</th>
                <th scope="col" class="num">"idle time"</th><th scope="col" class="num">"splits"</th>
            </tr></thead>
            <tbody>
                {move || pg.metrics.with(|m| m.as_ref().map(|m| m.source.iter().map(|s| view! {
                    <tr>
                        <th scope="row">{pg.snap_slow.with_untracked(|sn| sn.source_subtask_name(s.subtask))}</th>
                        <td class="mono" title=wm_raw(s.current_output_watermark.ms())>{wm_human(s.current_output_watermark.ms(), now())}</td>
                        <td class="num">{spoken({ let l = s.watermark_lag; move || lag(l) })}</td>
                        <td class="num">{thousands(s.num_records_out)}</td>
                        <td class="num">{thousands(s.num_records_filtered)}</td>
                        <td>{spoken({ let idle = s.idle; move || if idle { "◌ idle" } else { "● active" }.to_string() })}</td>
                        <td class="num">{dur(s.idle_time_ms)}</td>
                        <td class="num">{s.splits}</td>
                    </tr>
                }).collect_view()))}
            </tbody>
        </table>
    }
}

/// The REST endpoints of a vertex, each with its vertex picker and a copy button: the
/// watermarks (`/watermarks`) and the back-pressure answer (`/backpressure`).
#[component]
fn RestAnswers() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let watermarks = |pg: Pg, v: &str| pg.with_sim(|s| s.rest_watermarks(v)).map(|r| serde_json::to_string_pretty(&r).unwrap_or_default());
    let back_pressure = |pg: Pg, v: &str| pg.with_sim(|s| s.rest_back_pressure(v)).map(|r| serde_json::to_string_pretty(&r).unwrap_or_default());
    view! {
        <RestAnswer endpoint="watermarks" vertex="window" id="rest-json" copy_id="btn-copy-rest" what="REST watermarks JSON" answer=Callback::new(move |v: String| watermarks(pg, &v).unwrap_or_default()) />
        <RestAnswer endpoint="backpressure" vertex="source" id="rest-bp-json" copy_id="btn-copy-rest-bp" what="REST back-pressure JSON" answer=Callback::new(move |v: String| back_pressure(pg, &v).unwrap_or_default()) />
    }
}

/// One REST answer for the chosen vertex, with a copy button (follows the slow snapshot).
#[component]
fn RestAnswer(endpoint: &'static str, vertex: &'static str, id: &'static str, copy_id: &'static str, what: &'static str, answer: Callback<String, String>) -> impl IntoView {
    let pg = expect_context::<Pg>();
    let vertex = RwSignal::new(vertex.to_string());
    let rest = move || {
        pg.snap_slow.track();
        answer.run(vertex.get())
    };
    view! {
        <div class="rest">
            <div class="rest-head">
                <code>"GET /jobs/:jobid/vertices/"</code>
                <select aria-label=format!("Vertex for /{endpoint}") prop:value=move || vertex.get() on:change=move |ev| vertex.set(event_target_value(&ev))>
                    <option value="window">"window"</option>
                    <option value="source">"source"</option>
                </select>
                <code>{format!("/{endpoint}")}</code>
                <button class="btn tiny" id=copy_id on:click=move |_| copy_text(&pg, rest(), what)>"Copy"</button>
            </div>
            <pre class="code" id=id>{rest}</pre>
        </div>
    }
}
