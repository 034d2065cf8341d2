//! The lag tab of the WHY panel: event-time lag (processing time − watermark) of every window
//! subtask over the run, the explained one bold, with the alert threshold the user sets (it
//! goes to the diagnosis, whose `event_time_lag` finding then appears in the findings list) as
//! a dashed line and each crossing marked; below, the same numbers as a table.

use super::advisor::OptionField;
use super::format::{dur, opt_dur_input};
use super::lag_plot::{chart_svg, Frame, LagSeries};
use super::measure::use_width;
use super::state::Pg;
use leptos::html::Div;
use leptos::prelude::*;

const CHART_H: f64 = 150.0;

/// `shown`: whether the tab is open (the chart is drawn only then).
#[component]
pub fn LagPanel(#[prop(into)] shown: Signal<bool>) -> impl IntoView {
    let pg = expect_context::<Pg>();
    let node = NodeRef::<Div>::new();
    // A hidden tab is 0 wide; `use_width` measures it again when it is shown (its box grows).
    let width = use_width(node, 320.0);
    // Drawn from the engine with every reading of the WHY panel (the same instant: the frame
    // loop cannot run the engine between a refresh and the effects it wakes).
    let markup = Memo::new(move |_| {
        let focus = pg.reading_slow.with(|r| r.explanation.as_ref().map(|e| e.subtask));
        if !shown.get() {
            return String::new();
        }
        let thr = pg.diag_opts.with(|o| o.lag_alert_ms);
        let w = width.get().max(200.0);
        pg.with_sim(|s| {
            let start = s.config().start_time.ms();
            let series: Vec<LagSeries> = (0..s.downstream().windows.len() as u32)
                .filter_map(|o| s.lag_history(o).map(|h| (o, h)))
                .map(|(o, h)| LagSeries::new(o, &h.iter().map(|&(t, l)| (t.ms(), l)).collect::<Vec<_>>(), start))
                .collect();
            let now = s.now().max(s.config().start_time).ms();
            chart_svg(&Frame { width: w, height: CHART_H, t0: start, t1: now.max(start + 1) }, &series, focus, thr)
        })
    });
    let crossings = move || markup.with(|m| m.matches("lag-cross").count());
    view! {
        <div class="lag-panel" id="lag-panel">
            <p class="small muted">"Event-time lag: processing time minus each window subtask's watermark (currentInputWatermark; Flink's watermarkLag is only the sources'). Bold: the subtask explained."</p>
            <div class="lag-chart-wrap" node_ref=node>
                <svg class="lag-chart" role="img" aria-label="Event-time lag of each window subtask over processing time, with the alert threshold"
                    width=move || width.get().max(200.0) height=CHART_H data-crossings=crossings inner_html=move || markup.get()></svg>
            </div>
            <OptionField label="alert when lag exceeds" id="f-lag-alert" hint="off, or e.g. 30 s"
                value=Signal::derive(move || opt_dur_input(pg.diag_opts.with(|o| o.lag_alert_ms)))
                set=|o, v| o.lag_alert_ms = v />
            <LagTable />
        </div>
    }
}

/// The chart's table equivalent: each window subtask's lag now, and whether it is over.
#[component]
fn LagTable() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let rows = move || {
        pg.reading_slow.with(|r| {
            r.diag
                .lag
                .iter()
                .map(|l| {
                    let lag = l.lag_ms.map_or_else(|| "no watermark".to_string(), dur);
                    view! {
                        <tr class:over=l.over_threshold data-subtask=l.window_subtask>
                            <th scope="row">{format!("win {}", l.window_subtask)}</th>
                            <td class="num mono">{lag}</td>
                            <td>{if l.over_threshold { "⚠ over the alert" } else { "" }}</td>
                        </tr>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <table class="mini lag-table" aria-label="Event-time lag per window subtask now">
            <thead><tr><th scope="col">"subtask"</th><th scope="col" class="num">"lag now"</th><th scope="col">"alert"</th></tr></thead>
            <tbody>{rows}</tbody>
        </table>
    }
}
