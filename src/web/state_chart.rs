//! The STATE SIZE card under the timeline: the keyed state's estimated bytes per TaskManager
//! (or per keyed subtask) over processing time, against the TaskManager memory, with the
//! job's failures, restarts and checkpoints (`state_plot` draws it). Open, and prominent, when
//! the job has a memory limit or checkpointing or has failed; otherwise a one-line card that
//! opens on demand. Below the fold it does not follow the run while playing (like the tables).

use super::measure::{use_visible, use_width};
use super::state::Pg;
use super::state_plot::{bytes, chart_svg, series, By, Frame};
use leptos::html::Div;
use leptos::prelude::*;

const CHART_H: f64 = 190.0;

/// What one drawing of the chart gives the page besides the markup.
#[derive(Clone, Debug, Default, PartialEq)]
struct Drawn {
    svg: String,
    names: Vec<String>,
    peak: u64,
    limit: Option<u64>,
    failures: usize,
}

/// Whether the job's memory or its run matter here: a memory limit, checkpointing, a failure.
fn relevant(pg: Pg) -> Memo<bool> {
    Memo::new(move |_| {
        pg.snap_slow.with(|s| {
            s.run.task_managers.iter().any(|t| t.limit_bytes.is_some()) || s.run.checkpoint_interval_ms.is_some() || s.run.attempt > 1 || s.run.failed_at.is_some()
        })
    })
}

#[component]
pub fn StateCard() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let relevant = relevant(pg);
    let open = RwSignal::new(relevant.get_untracked());
    // A scenario that needs it opens it (and one that does not closes it again).
    Effect::new(move |prev: Option<bool>| {
        let r = relevant.get();
        if prev != Some(r) {
            open.set(r);
        }
        r
    });
    let by = RwSignal::new(By::TaskManager);
    let noun = move || pg.cfg.with(|c| c.keyed_noun());
    let now_total = move || pg.snap_slow.with(|s| bytes(s.run.task_managers.iter().map(|t| t.used_bytes).sum()));
    view! {
        <section class="card state-card" class:quiet=move || !relevant.get() aria-labelledby="state-h">
            <header class="card-head">
                <h2 id="state-h">"State size"</h2>
                <span class="small muted">{move || format!("keyed state now: {}", now_total())}</span>
                <label class="inline small" class:hidden=move || !open.get()>
                    "lines "
                    <select aria-label="State size per" on:change=move |ev| by.set(if event_target_value(&ev) == "sub" { By::KeyedSubtask } else { By::TaskManager })>
                        <option value="tm">"per TaskManager"</option>
                        <option value="sub">{move || format!("per {} subtask", noun())}</option>
                    </select>
                </label>
                <button class="btn tiny" id="state-toggle" aria-expanded=move || open.get().to_string() aria-controls="state-body"
                    on:click=move |_| open.update(|o| *o = !*o)>{move || if open.get() { "hide" } else { "show chart" }}</button>
            </header>
            <div id="state-body" class:hidden=move || !open.get()>
                {move || open.get().then(|| view! { <StateChart by=by /> })}
            </div>
        </section>
    }
}

/// Redraws with the slow views (≈ 4 times a second) while visible or paused.
fn use_tick(pg: Pg, visible: RwSignal<bool>) -> RwSignal<u64> {
    let tick = RwSignal::new(0u64);
    Effect::new(move |_| {
        let show = visible.get() || !pg.playing.get();
        pg.snap_slow.track();
        if show {
            tick.update(|t| *t += 1);
        }
    });
    tick
}

#[component]
fn StateChart(by: RwSignal<By>) -> impl IntoView {
    let pg = expect_context::<Pg>();
    let node = NodeRef::<Div>::new();
    let width = use_width(node, 900.0);
    let tick = use_tick(pg, use_visible(node));
    let drawn = Memo::new(move |_| {
        tick.track();
        let (by, w) = (by.get(), width.get().max(240.0));
        pg.timeline.with_value(|d| {
            pg.with_sim(|s| {
                let h = s.state_size_history();
                let lines = series(&h, by, s.config().keyed_noun());
                let (t0, now) = (s.config().start_time.ms(), s.now().max(s.config().start_time).ms());
                let f = Frame { width: w, height: CHART_H, t0, t1: now.max(t0 + 1) };
                let failures = d.job.events.iter().filter(|e| matches!(e, super::job_marks::JobEvent::Failed { .. })).count();
                let peak = lines.iter().map(|l| l.peak()).max().unwrap_or(0);
                Drawn { svg: chart_svg(&f, &lines, h.limit_bytes, &d.job), names: lines.into_iter().map(|l| l.name).collect(), peak, limit: h.limit_bytes, failures }
            })
        })
    });
    let legend = move || drawn.with(|d| d.names.iter().enumerate().map(|(k, n)| view! { <span class=format!("st-key s{}", k % 8)><span aria-hidden="true">"━ "</span>{n.clone()}</span> }).collect_view());
    view! {
        <div class="state-chart-wrap" node_ref=node>
            <svg class="state-chart" role="img" width=move || width.get().max(240.0) height=CHART_H
                aria-label="Estimated keyed state over processing time, with the TaskManager memory, failures and restarts"
                data-peak=move || drawn.with(|d| d.peak) data-limit=move || drawn.with(|d| d.limit.map_or_else(String::new, |l| l.to_string()))
                data-failures=move || drawn.with(|d| d.failures)
                inner_html=move || drawn.with(|d| d.svg.clone())></svg>
        </div>
        <p class="small legend state-legend">
            {legend}
            {move || drawn.with(|d| match d.limit {
                Some(_) => view! { <span class="st-key lim"><span aria-hidden="true">"┄ "</span>"TaskManager memory"</span> }.into_any(),
                None => view! { <span class="muted">"no memory limit (flow.task_manager_memory_bytes)"</span> }.into_any(),
            })}
            <span class="lg-fail"><span aria-hidden="true">"✕ "</span>"failure"</span>
            <span class="lg-restart"><span aria-hidden="true">"↻ "</span>"restart"</span><span class="lg-ckpt"><span aria-hidden="true">"╷ "</span>"checkpoint"</span><span class="lg-down">"job down (restarting or failed)"</span>
        </p>
        <p class="small muted">{move || pg.cfg.with(|c| format!(
            "Keyed state (window contents, timers) estimated at {} per entry{}: a TaskManager whose state passes its memory is lost and the job restarts from its last checkpoint. Subtask i runs on TaskManager i mod {}.",
            bytes(c.cluster.state_bytes_per_entry),
            if c.cluster.record_scale > 1 { format!(", one simulated entry standing for {}", super::format::thousands(c.cluster.record_scale)) } else { String::new() },
            c.cluster.task_managers
        ))}</p>
    }
}
