//! A live job as tables: the engine's explanation (who holds the watermark and what the
//! metrics say), then one table per vertex with a row per subtask; the holder's row carries the
//! same ◀ min mark as the simulated job's tables. A missing metric shows "?" (unknown).

use super::format::thousands;
use crate::engine::live::explain::{explain, Holder};
use crate::engine::live::{LiveJob, LiveSubtask, LiveVertex};
use crate::engine::time::{describe_watermark, format_duration, EventTime};
use super::glyphs::MinMark;
use leptos::prelude::*;

fn wm(w: Option<i64>) -> String {
    w.map_or_else(|| "?".into(), |w| describe_watermark(EventTime(w)))
}
fn count(n: Option<i64>) -> String {
    n.map_or_else(|| "?".into(), |n| thousands(n.max(0) as u64))
}
fn per_s(x: Option<f64>) -> String {
    x.map_or_else(|| "?".into(), |x| format!("{x:.0}"))
}

#[component]
pub fn LiveJobView(job: Signal<Option<LiveJob>>) -> impl IntoView {
    let explained = Memo::new(move |_| job.with(|j| j.as_ref().map(explain)));
    view! {
        <div class="live-job-view">
            <h3 class="small">{move || job.with(|j| j.as_ref().map(|j| format!("{} · {}", j.name, j.state)).unwrap_or_default())}</h3>
            <ul class="live-explain" id="live-explain" aria-label="Why the watermark is where it is">
                {move || explained.get().map(|e| e.lines.into_iter().map(|l| view! { <li>{l}</li> }).collect_view())}
            </ul>
            {move || {
                let holder = explained.get().and_then(|e| e.holder);
                job.get().map(|j| j.vertices.into_iter().map(|v| view! { <VertexTable v=v holder=holder.clone() /> }).collect_view())
            }}
        </div>
    }
}

#[component]
fn VertexTable(v: LiveVertex, holder: Option<Holder>) -> impl IntoView {
    let source = v.is_source();
    let held = holder.filter(|h| h.vertex_id == v.id).map(|h| h.subtask);
    let caption = format!(
        "{} · parallelism {} · {}{}",
        v.name,
        v.parallelism,
        v.status,
        v.back_pressure_level.as_ref().map(|l| format!(" · back-pressure {l}")).unwrap_or_default()
    );
    view! {
        <h4 class="small live-vertex-h">{caption.clone()}</h4>
        <div class="table-scroll">
            <table class="data live-vertex" data-vertex=v.id.clone() aria-label=caption>
                <thead><tr>
                    <th scope="col">"Subtask"</th>
                    {(!source).then(|| view! { <th scope="col">"Input WM"</th> })}
                    <th scope="col">"Output WM"</th>
                    <th scope="col">"Records in"</th>
                    <th scope="col">"Records out"</th>
                    <th scope="col" title="idleTimeMsPerSecond">"Idle ms/s"</th>
                    <th scope="col" title="backPressuredTimeMsPerSecond">"Back-pressured ms/s"</th>
                    {(!source).then(|| view! { <th scope="col" title="numLateRecordsDropped (a window operator's)">"Late dropped"</th> })}
                    {source.then(|| view! { <th scope="col" title="sourceIdleTime">"Last record"</th><th scope="col">"Splits"</th> })}
                </tr></thead>
                <tbody>
                    {v.subtasks.into_iter().map(|s| { let holds = held == Some(s.index); view! { <SubtaskRow s=s source=source holds=holds /> } }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}

#[component]
fn SubtaskRow(s: LiveSubtask, source: bool, holds: bool) -> impl IntoView {
    let splits = s
        .splits
        .iter()
        .map(|p| format!("{}: {}{}", p.id, wm(p.watermark), if p.idle_ms_per_s.unwrap_or(0.0) > 0.0 { " (idle)" } else { "" }))
        .collect::<Vec<_>>()
        .join("; ");
    view! {
        <tr class:holding=holds data-subtask=s.index>
            <th scope="row">{s.index}<MinMark on=holds /></th>
            {(!source).then(|| view! { <td class="mono">{wm(s.input_watermark)}</td> })}
            <td class="mono">{wm(s.output_watermark)}</td>
            <td class="num">{count(s.records_in)}</td>
            <td class="num">{count(s.records_out)}</td>
            <td class="num">{per_s(s.idle_ms_per_s)}</td>
            <td class="num">{per_s(s.back_pressured_ms_per_s)}</td>
            {(!source).then(|| view! { <td class="num">{count(s.late_records_dropped)}</td> })}
            {source.then(|| view! {
                <td>{s.source_idle_time_ms.map_or_else(|| "?".into(), |ms| format!("{} ago", format_duration(ms)))}</td>
                <td class="small">{if splits.is_empty() { "not reported".to_string() } else { splits }}</td>
            })}
        </tr>
    }
}
