//! The flow-control metrics under Flink's names (issue 13): per source subtask
//! `isBackPressured`, `backPressuredTimeMsPerSecond`, `outPoolUsage`, the Kafka connector's
//! `pendingRecords` and `watermarkAlignmentDrift`; per window subtask `busyTimeMsPerSecond` and
//! `inPoolUsage`. Two narrow tables of their own, so that they need no horizontal scrolling
//! beside the watermark metrics (the metrics panel puts them first when the job has a capacity
//! limit or watermark alignment).

use super::format::{dur, thousands};
use super::glyphs::spoken;
use super::state::Pg;
use leptos::prelude::*;

/// A camelCase metric name with break opportunities before its words, so that a narrow column
/// wraps `backPressured · TimeMs · PerSecond` instead of cutting it.
fn wbr(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_uppercase() { format!("<wbr>{c}") } else { c.to_string() }).collect()
}

/// A buffer pool's usage as Flink reports it (a share, 0..1).
fn pool(u: f64) -> String {
    format!("{u:.2}")
}

#[component]
pub fn FlowMetrics() -> impl IntoView {
    let pg = expect_context::<Pg>();
    view! {
        <table class="data" id="metrics-source-flow">
            <caption>"Source subtasks · back-pressure, consumer lag and alignment"</caption>
            <thead><tr>
                <th scope="col">"subtask"</th><th scope="col" inner_html=wbr("isBackPressured")></th><th scope="col" class="num" inner_html=wbr("backPressuredTimeMsPerSecond")></th>
                <th scope="col" class="num" inner_html=wbr("outPoolUsage")></th><th scope="col" class="num" inner_html=wbr("pendingRecords")></th><th scope="col" class="num" inner_html=wbr("watermarkAlignmentDrift")></th>
            </tr></thead>
            <tbody>
                {move || pg.metrics.with(|m| m.as_ref().map(|m| m.source.iter().map(|s| view! {
                    <tr>
                        <th scope="row">{pg.snap_slow.with_untracked(|sn| sn.source_subtask_name(s.subtask))}</th>
                        <td>{s.is_back_pressured.to_string()}</td>
                        <td class="num">{s.back_pressured_time_ms_per_second}</td>
                        <td class="num">{pool(s.out_pool_usage)}</td>
                        <td class="num">{thousands(s.pending_records)}</td>
                        <td class="num">{spoken({ let drift = s.watermark_alignment_drift; move || drift.map_or("–".to_string(), dur) })}</td>
                    </tr>
                }).collect_view()))}
            </tbody>
        </table>
        <table class="data" id="metrics-window-flow">
            <caption>"Window operator subtasks · load"</caption>
            <thead><tr>
                <th scope="col">"subtask"</th><th scope="col" class="num" inner_html=wbr("busyTimeMsPerSecond")></th><th scope="col" class="num" inner_html=wbr("inPoolUsage")></th>
            </tr></thead>
            <tbody>
                {move || pg.metrics.with(|m| m.as_ref().map(|m| m.window.iter().map(|w| view! {
                    <tr>
                        <th scope="row">{w.subtask}</th>
                        <td class="num">{w.busy_time_ms_per_second}</td>
                        <td class="num">{pool(w.in_pool_usage)}</td>
                    </tr>
                }).collect_view()))}
            </tbody>
        </table>
    }
}
