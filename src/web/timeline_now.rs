//! The timeline for people who cannot see the canvas: a one-sentence summary of what it shows
//! now (the canvas's accessible name), and a table of the present per partition and per window
//! subtask (watermark, last event, state, windows fired and pending). The table beside it in
//! `timeline` gives the history; this one gives the moment the canvas ends at.

use super::format::{dur, thousands, wm_human, wm_raw, MIN_WM};
use super::state::Pg;
use crate::engine::snapshot::{SplitView, Snapshot};
use crate::engine::time::NO_WATERMARK;
use leptos::prelude::*;

/// The canvas's accessible name: what the picture says at this moment, in one sentence.
pub fn canvas_summary(s: &Snapshot, fired: usize, late: usize) -> String {
    let now = s.now.ms();
    let Some((slowest, w)) = s.operators.iter().map(|o| (o.subtask, o.output_watermark.ms())).min_by_key(|&(_, w)| w) else {
        return "Timeline of watermarks over processing time: no window subtask yet.".into();
    };
    let fastest = s.operators.iter().map(|o| o.output_watermark.ms()).max().unwrap_or(w);
    let idle = s.splits.iter().filter(|x| x.idle && !x.released).count();
    format!(
        "Timeline of watermarks over processing time, now {}: the window subtasks' watermarks range from {} (subtask {slowest}, the slowest) to {}; \
         {} partition lines, {idle} idle; {} window firings and {} late records drawn. \"Show the timeline as a table\" below lists the same.",
        wm_human(now, now),
        human_wm(w, now),
        human_wm(fastest, now),
        s.splits.len(),
        thousands(fired as u64),
        thousands(late as u64)
    )
}

fn human_wm(w: i64, now: i64) -> String {
    if w == MIN_WM {
        "no watermark".into()
    } else {
        wm_human(w, now)
    }
}

/// A split's state in words, as the graph's badges show it.
fn split_state(sp: &SplitView) -> &'static str {
    match (sp.released, sp.idle, sp.silent, sp.paused) {
        (true, ..) => "released",
        _ if sp.at_its_end => "at its end, not counted",
        (_, true, _, _) => "idle",
        (_, _, _, true) => "paused (alignment)",
        (_, _, true, _) => "active, producers silenced",
        _ => "active",
    }
}

/// One row per partition and one per window subtask, at the present.
#[component]
pub fn TimelineNowTable() -> impl IntoView {
    let pg = expect_context::<Pg>();
    move || {
        pg.timeline_rev.track();
        let fired: Vec<usize> = pg.timeline.with_value(|d| {
            let mut per = vec![0; d.operators.len()];
            for f in &d.firings {
                if let Some(n) = per.get_mut(f.2 as usize) {
                    *n += 1;
                }
            }
            per
        });
        pg.snap_slow.with(|s| {
            let now = s.now.ms();
            let splits = s.splits.iter().map(|sp| split_row(s, sp, now)).collect_view();
            let ops = s
                .operators
                .iter()
                .map(|o| {
                    let w = o.output_watermark.ms();
                    view! {
                        <tr data-now-operator=o.subtask>
                            <th scope="row">{format!("window subtask {}", o.subtask)}</th>
                            <td class="mono" title=wm_raw(w)>{human_wm(w, now)}</td>
                            <td>"—"</td>
                            <td>"—"</td>
                            <td>{if o.idle { "idle" } else { "active" }}</td>
                            <td class="num">{thousands(fired.get(o.subtask as usize).copied().unwrap_or(0) as u64)}</td>
                            <td class="num">{thousands(o.open_window_count as u64)}</td>
                        </tr>
                    }
                })
                .collect_view();
            view! {
                <table class="data" id="timeline-now">
                    <caption>{format!("Now ({}): each partition's split watermark, the largest timestamp it read and when its last record came; each window subtask's watermark and windows.", wm_human(now, now))}</caption>
                    <thead><tr>
                        <th scope="col">"series"</th><th scope="col">"watermark"</th><th scope="col">"max timestamp"</th><th scope="col">"last record"</th>
                        <th scope="col">"state"</th><th scope="col" class="num">"windows fired"</th><th scope="col" class="num">"windows pending"</th>
                    </tr></thead>
                    <tbody>{splits}{ops}</tbody>
                </table>
            }
        })
    }
}

fn split_row(s: &Snapshot, sp: &SplitView, now: i64) -> impl IntoView {
    let w = sp.watermark.unwrap_or(NO_WATERMARK).ms();
    let max_ts = sp.max_timestamp.map_or_else(|| "none yet".to_string(), |ts| wm_human(ts.ms(), now));
    let last = sp.last_record_at.map_or_else(|| "never".to_string(), |at| format!("{} ago", dur(now - at.ms())));
    view! {
        <tr data-now-partition=sp.partition>
            <th scope="row">{format!("partition {}", s.partition_name(sp.partition))}</th>
            <td class="mono" title=wm_raw(w)>{human_wm(w, now)}</td>
            <td class="mono">{max_ts}</td>
            <td>{last}</td>
            <td>{split_state(sp)}</td>
            <td class="num">"—"</td>
            <td class="num">"—"</td>
        </tr>
    }
}
