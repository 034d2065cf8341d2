//! The timeline: watermarks over processing time — one thin line per split, one bold line per
//! window subtask — against the processing-time diagonal, with window bands, firings (▮ on
//! time, ◇ late re-firing), late records (✕ dropped, ○ side output), idle lanes (hatched) and
//! off-scale values pinned to the edges. `timeline_plot` decides what is drawn and
//! `timeline_canvas` paints it; this file holds the view state and the interactions: zoom with
//! the buttons or the mouse wheel (centred on the pointer), drag to pan, click a window band to
//! explain that window, hover a line to name it. A table gives the same picture to screen
//! readers (`timeline_now` the present, and the canvas's accessible name).

use super::format::{elapsed, wm_human, wm_raw};
use super::measure::use_width;
use super::state::{Pg, Selection};
use super::theme::{use_system_dark, ThemeState};
use super::timeline_canvas::paint;
use super::timeline_data::{Series, TimelineData};
use super::timeline_plot::{event_shift, highest_watermark, plot, point_at, watermark_spread, window_at, Frame, Plot, View, LEFT, PLOT_H, PLOT_H_COMPACT, RIGHT};
use leptos::html::{Canvas, Div};
use leptos::prelude::*;

const MAX_LANES: usize = 10;
/// The canvas's tooltip away from the lines.
const HINT: &str = "Drag to pan, wheel to zoom, click a window band (or focus and press ← / →) to explain that window";

/// A view span zoomed by factor `f`, between 200 ms and 30 days.
fn zoomed(span_ms: i64, f: f64) -> i64 {
    ((span_ms as f64 * f) as i64).clamp(200, 30 * 86_400_000)
}

/// What part of time the plot shows: `span` and `end` of processing time, None = everything
/// since the start / follow the present.
#[derive(Clone, Copy)]
struct Viewport {
    span: RwSignal<Option<i64>>,
    end: RwSignal<Option<i64>>,
    /// How far event time is moved down from where processing time puts it: 0, or what "fit"
    /// or a keyboard pick chose to show watermarks far from processing time (a replay).
    lift: RwSignal<i64>,
    /// How much event time "fit" shows, when the watermarks span more than the processing time
    /// shown (a backfill reads hours of history in minutes): from that far below the highest
    /// watermark up to it. `None`: event time spans what processing time does.
    event_span: RwSignal<Option<i64>>,
}

/// The plot as drawn and the canvas it is drawn on. Interactions work on the view as drawn
/// (the plot keeps it).
#[derive(Clone, Copy)]
struct Drawn {
    content: Memo<Plot>,
    canvas: NodeRef<Canvas>,
}

impl Viewport {
    /// The view of `data`: the chosen span (or everything) ending at the chosen end (or now);
    /// event time from a quarter span (at least 1.3 × the out-of-orderness bound) below.
    fn view_of(self, pg: Pg, data: &TimelineData) -> View {
        let now = data.last;
        let x1 = self.end.get().unwrap_or(now);
        let sp = self.span.get().unwrap_or((now - data.start).max(10_000));
        let x0 = x1 - sp;
        let bound = pg.cfg.with_untracked(|c| c.first().source.generator.given_bound_ms().unwrap_or(0));
        let lo = ((sp as f64 * 0.25) as i64).max((bound as f64 * 1.3) as i64).min(sp * 3);
        let lift = self.lift.get();
        if let Some(es) = self.event_span.get() {
            if let Some(top) = highest_watermark(data, x1) {
                let (y0, y1) = (top.saturating_sub(es + es / 20), top.saturating_add(es / 10));
                return View { x0, x1, y0: y0.saturating_sub(lift), y1: y1.saturating_sub(lift) };
            }
        }
        View { x0, x1, y0: (x0 - lo).saturating_sub(lift), y1: (x1 + sp / 20).saturating_sub(lift) }
    }

    /// Everything since the start, with event time moved to where the window subtasks'
    /// watermarks are if none is in view ("fit" fits both axes).
    fn fit(self, pg: Pg) {
        self.span.set(None);
        self.end.set(None);
        self.lift.set(0);
        self.event_span.set(None);
        let (shift, spread) = pg.timeline.with_value(|d| {
            let v = self.view_of(pg, d);
            (event_shift(d, v), watermark_spread(d).filter(|&s| s > v.y1 - v.y0))
        });
        // A fitted span starts at the highest watermark: no lift.
        self.lift.set(if spread.is_some() { 0 } else { shift });
        self.event_span.set(spread);
    }

    /// Zooms by factor `f` around the end (a followed present stays followed).
    fn zoom(self, drawn: Drawn, f: f64) {
        self.event_span.set(None);
        let (sp, e) = drawn.current();
        self.span.set(Some(zoomed(sp, f)));
        if self.end.get_untracked().is_some() {
            self.end.set(Some(e));
        }
    }

    /// Zooms by factor `f` centred on processing time `t`: it stays at the same fraction of the
    /// span.
    fn zoom_at(self, drawn: Drawn, t: i64, f: f64) {
        self.event_span.set(None);
        let (sp, e) = drawn.current();
        let new_sp = zoomed(sp, f);
        let frac = (e - t) as f64 / sp.max(1) as f64;
        self.span.set(Some(new_sp));
        self.end.set(Some(t + (frac * new_sp as f64) as i64));
    }

    /// Moves event time so that `[start, end)` sits in the middle of the view, unless it is in
    /// it already: a window picked by keyboard (the one a stuck watermark waits for) is often
    /// below it. Processing time stays: panning it found the band where no line was drawn.
    fn reveal(self, drawn: Drawn, (start, end): (i64, i64)) {
        let v = drawn.content.with_untracked(|p| p.view);
        if start >= v.y0 && end <= v.y1 {
            return;
        }
        let off = (v.y0 / 2 + v.y1 / 2).saturating_sub(start / 2 + end / 2);
        self.lift.update(|l| *l = l.saturating_add(off));
    }

    /// Pans so that the view ends at `end`, fixing the span as drawn.
    fn pan_to(self, drawn: Drawn, end: i64) {
        let (sp, _) = drawn.current();
        if self.span.get_untracked().is_none() {
            self.span.set(Some(sp));
        }
        self.end.set(Some(end));
    }
}

impl Drawn {
    fn ms_per_px(self) -> f64 {
        self.content.with_untracked(|p| (p.view.x1 - p.view.x0) as f64 / (p.width - LEFT - RIGHT).max(1.0))
    }

    /// The drawn span and end of processing time.
    fn current(self) -> (i64, i64) {
        self.content.with_untracked(|p| (p.view.x1 - p.view.x0, p.view.x1))
    }

    /// The pointer in canvas pixels.
    fn canvas_xy(self, client_x: f64, client_y: f64) -> Option<(f64, f64)> {
        let r = self.canvas.get_untracked()?.get_bounding_client_rect();
        Some((client_x - r.left(), client_y - r.top()))
    }

    /// The pointer's place in the plot: processing and event time (None outside the plot).
    fn at_pointer(self, client_x: f64, client_y: f64) -> Option<(i64, i64)> {
        let (x, y) = self.canvas_xy(client_x, client_y)?;
        self.content.with_untracked(|p| point_at(p.view, p.width, p.plot_h, x, y))
    }
}

/// A revision of the timeline data that changes at most ~15 times per second while playing
/// (every change while paused).
fn use_draw_tick(pg: Pg) -> RwSignal<u64> {
    let draw = RwSignal::new(0u64);
    let last_draw = StoredValue::new(0.0f64);
    Effect::new(move |_| {
        let rev = pg.timeline_rev.get();
        let t = web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now());
        if !pg.playing.get_untracked() || t - last_draw.get_value() > 66.0 {
            last_draw.set_value(t);
            draw.set(rev);
        }
    });
    draw
}

/// What the timeline draws: the plot of the data in the viewport, with the explained window
/// subtask and the split holding it in focus and the picked window range marked.
fn use_plot(pg: Pg, vp: Viewport, width: RwSignal<f64>, compact: bool) -> Memo<Plot> {
    let ph = if compact { PLOT_H_COMPACT } else { PLOT_H };
    let max_lanes = if compact { 3 } else { MAX_LANES };
    let draw = use_draw_tick(pg);
    let holding = Memo::new(move |_| {
        pg.reading_slow.with(|r| r.explanation.as_ref().map(|e| (e.subtask, r.held_by().and_then(|(_, h)| h.partition))))
    });
    Memo::new(move |_| {
        draw.track();
        let (focus_op, culprit) = holding.get().unwrap_or((0, None));
        let picked = pg.selection.with(Selection::window_bounds);
        let window = pg.cfg.with_untracked(|c| c.window);
        let width = width.get();
        pg.timeline.with_value(|data| {
            let frame = Frame { view: vp.view_of(pg, data), width, plot_h: ph, max_lanes, window, focus_op, culprit, picked };
            plot(data, &frame)
        })
    })
}

/// Paints the plot whenever it changes, and when the theme's colours do (the canvas paints
/// them itself).
fn use_paint(drawn: Drawn) {
    let theme = use_context::<ThemeState>();
    let system_dark = use_system_dark();
    Effect::new(move |_| {
        if let Some(t) = theme {
            t.0.track();
        }
        system_dark.track();
        let Some(el) = drawn.canvas.get() else { return };
        drawn.content.with(|p| paint(&el, p));
    });
}

/// Wheel zoom over `node`, centred on the pointer: the processing time under it stays under it.
fn use_wheel_zoom(node: NodeRef<Div>, vp: Viewport, drawn: Drawn) {
    Effect::new(move |_| {
        use wasm_bindgen::JsCast;
        let Some(el) = node.get() else { return };
        let cb = wasm_bindgen::closure::Closure::<dyn FnMut(web_sys::WheelEvent)>::new(move |ev: web_sys::WheelEvent| {
            let Some((t, _)) = drawn.at_pointer(ev.client_x() as f64, ev.client_y() as f64) else { return };
            ev.prevent_default();
            let f = if ev.delta_y() > 0.0 { 1.25 } else if ev.delta_y() < 0.0 { 0.8 } else { return };
            vp.zoom_at(drawn, t, f);
        });
        // Not passive: the wheel zooms the timeline instead of scrolling the page.
        let opts = web_sys::AddEventListenerOptions::new();
        opts.set_passive(false);
        let _ = el.add_event_listener_with_callback_and_add_event_listener_options("wheel", cb.as_ref().unchecked_ref(), &opts);
        super::hold::hold_until_cleanup((el, cb), |(el, cb)| {
            let _ = el.remove_event_listener_with_callback("wheel", cb.as_ref().unchecked_ref());
        });
    });
}

/// `compact`: the embed layout's version (a lower plot, fewer idle lanes, no table, a short
/// legend).
#[component]
pub fn Timeline(#[prop(optional)] compact: bool) -> impl IntoView {
    let pg = expect_context::<Pg>();
    let node = NodeRef::<Div>::new();
    let width = use_width(node, 900.0);
    let zoom = super::url_state::TimelineZoom::of_page();
    let vp = Viewport { span: zoom.span, end: zoom.end, lift: RwSignal::new(0), event_span: RwSignal::new(None) };
    let drawn = Drawn { content: use_plot(pg, vp, width, compact), canvas: NodeRef::new() };
    use_paint(drawn);
    use_wheel_zoom(node, vp, drawn);
    view! {
        <section class="card timeline-card" part="timeline" class:compact=compact aria-labelledby="timeline-h">
            <header class="card-head">
                <h2 id="timeline-h">"Timeline"</h2>
                <TimelineLegend compact=compact />
                <ZoomButtons vp=vp drawn=drawn />
            </header>
            <TimelinePlot node=node vp=vp drawn=drawn />
            <p class="sr-only" role="status" aria-live="polite">{move || super::timeline_keys::announcement(pg)}</p>
            <TimelineTableDetails compact=compact />
        </section>
    }
}

/// What the lines and marks mean (hidden in the compact layout).
#[component]
fn TimelineLegend(compact: bool) -> impl IntoView {
    let pg = expect_context::<Pg>();
    let ahead = move || super::graph::pushed_ahead(&pg);
    view! {
        <span class="legend small" class:hidden=compact>
            <span class="lg-op"><span aria-hidden="true">"━ "</span>"window subtask"</span>
            <span class="lg-split"><span aria-hidden="true">"─ "</span>"split"</span>
            // The graph's words ("holds min" here said a second thing for the same line); the
            // far-future case keeps its short "pushed ahead".
            <span class="lg-min" title=move || format!("The split that {} of the explained window subtask, drawn on top of it", super::graph::chain_role(&pg))><span aria-hidden="true">"━ "</span>{move || if ahead() { "pushed ahead" } else { super::graph::chain_role(&pg) }}</span>
            <span class="lg-diag"><span aria-hidden="true">"┄ "</span>"processing time"</span>
            <span><span aria-hidden="true">"▮ "</span>"fired"</span><span><span aria-hidden="true">"◇ "</span>"late re-firing"</span><span><span aria-hidden="true">"✕ "</span>"dropped"</span><span><span aria-hidden="true">"○ "</span>"side output"</span>
            <span class="lg-idle">"idle"</span>
            <JobLegend />
        </span>
    }
}

/// The job-run marks of the legend: checkpoints for a job that takes them, the failure,
/// restart and down-time marks once it failed (a "RESTARTING" chip in a job that never
/// restarted read as a status).
#[component]
fn JobLegend() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let checkpoints = Memo::new(move |_| pg.snap_slow.with(|s| s.run.checkpoint_interval_ms.is_some()));
    let failed = Memo::new(move |_| pg.snap_slow.with(|s| s.run.attempt > 1 || s.run.failed_at.is_some()));
    // An operator's exception fails the job with no restart: no ↻ to explain.
    let restarts = Memo::new(move |_| pg.snap_slow.with(|s| s.run.attempt > 1 || s.run.restarting_until.is_some()));
    view! {
        <span class="lg-job" class:hidden=move || !checkpoints.get() && !failed.get()>
            <span class="lg-ckpt" class:hidden=move || !checkpoints.get()>"╷ checkpoint"</span>
            <span class="lg-fail" class:hidden=move || !failed.get()>"✕ failure"</span>
            <span class="lg-restart" class:hidden=move || !restarts.get()>"↻ restart"</span>
            <span class="lg-down" class:hidden=move || !failed.get()>"job down (restarting or failed)"</span>
        </span>
    }
}

/// Zoom in and out, fit everything, follow the present.
#[component]
fn ZoomButtons(vp: Viewport, drawn: Drawn) -> impl IntoView {
    let pg = expect_context::<Pg>();
    view! {
        <div class="zoom" role="group" aria-label="Zoom">
            <button class="icon-btn small" aria-label="Zoom in" title="Zoom in" on:click=move |_| vp.zoom(drawn, 0.5)>"+"</button>
            <button class="icon-btn small" aria-label="Zoom out" title="Zoom out" on:click=move |_| vp.zoom(drawn, 2.0)>"−"</button>
            <button class="btn tiny" title="Show everything since the start" on:click=move |_| vp.fit(pg)>"fit"</button>
            <button class="btn tiny" class:active=move || vp.end.get().is_none() title="Follow the present" on:click=move |_| vp.end.set(None)>"follow"</button>
        </div>
    }
}

/// The canvas and its pointer: dragging pans, a click on a window band (anywhere in the plot)
/// explains that window, otherwise the pointer names the line under it.
#[component]
fn TimelinePlot(node: NodeRef<Div>, vp: Viewport, drawn: Drawn) -> impl IntoView {
    let pg = expect_context::<Pg>();
    // Where a drag started: client x, the view's end and ms per pixel then.
    let drag = StoredValue::new(None::<(f64, i64, f64)>);
    // Whether the pointer moved since it went down (then the click is a pan, not a pick).
    let moved = StoredValue::new(false);
    let hover = RwSignal::new(None::<String>);
    let summary = Memo::new(move |_| {
        // Follows the slow snapshot (a few times a second), not every painted frame.
        pg.snap_slow.with(|s| {
            let (fired, late) = pg.timeline.with_value(|d| (d.firings.len(), d.late.len()));
            super::timeline_now::canvas_summary(s, fired, late)
        })
    });
    let on_down = move |ev: leptos::ev::PointerEvent| {
        let (_, e) = drawn.current();
        drag.set_value(Some((ev.client_x() as f64, e, drawn.ms_per_px())));
        moved.set_value(false);
    };
    let on_move = move |ev: leptos::ev::PointerEvent| match drag.get_value() {
        Some((x, e, mpp)) if ev.buttons() & 1 == 1 => {
            let dx = ev.client_x() as f64 - x;
            if dx.abs() > 2.0 {
                moved.set_value(true);
                vp.pan_to(drawn, e - (dx * mpp) as i64);
            }
        }
        Some(_) => drag.set_value(None),
        None => {
            let Some((x, y)) = drawn.canvas_xy(ev.client_x() as f64, ev.client_y() as f64) else { return };
            let near = drawn.content.with_untracked(|p| p.line_near(x, y).map(str::to_string));
            if near != hover.get_untracked() {
                hover.set(near);
            }
        }
    };
    let on_click = move |ev: leptos::ev::MouseEvent| {
        if !moved.get_value() {
            pick_window_at(pg, drawn, ev.client_x() as f64, ev.client_y() as f64);
        }
    };
    view! {
        <div class="timeline-wrap" node_ref=node tabindex="0" role="group" aria-label=move || super::timeline_keys::label(pg)
            on:keydown=move |ev| {
                if let Some(w) = super::timeline_keys::on_window_keys(pg, drawn.content.with_untracked(|p| p.view), ev) {
                    vp.reveal(drawn, w);
                }
            }
            on:pointerdown=on_down
            on:pointermove=on_move
            on:pointerup=move |_| drag.set_value(None)
            on:pointerleave=move |_| drag.set_value(None)
            on:click=on_click>
            <canvas class="timeline" node_ref=drawn.canvas role="img" aria-label=move || summary.get()
                    title=move || hover.get().unwrap_or_else(|| HINT.to_string())
                data-view=move || drawn.content.with(|p| format!("{} {} {} {}", p.view.x0, p.view.x1, p.view.y0, p.view.y1))
                data-marks=move || drawn.content.with(|p| p.census())
                data-job=move || drawn.content.with(super::timeline_job::job_census)>
            </canvas>
            <super::timeline_marks::TimelineJobMarks plot=drawn.content />
        </div>
    }
}

/// Selects the window under the pointer for the WHY panel (or clears it if already selected).
fn pick_window_at(pg: Pg, drawn: Drawn, client_x: f64, client_y: f64) {
    let Some((_, e)) = drawn.at_pointer(client_x, client_y) else { return };
    let Some((start, end)) = pg.cfg.with_untracked(|c| window_at(&c.window, e)) else { return };
    let pick = Selection::WindowRange { start, end };
    if pg.selection.get_untracked() == pick {
        pg.selection.set(Selection::None);
    } else {
        pg.selection.set(pick);
        show_why(pg);
    }
}

/// In one column (a phone, a tablet) the WHY panel that explains a tapped window is far above
/// the timeline: it comes into view (a tap's answer appeared where it could not be seen). Not on
/// a keyboard pick, which keeps the focus and the view where they are. Its top: on a phone the
/// panel is taller than the screen, and "nearest" showed its bottom when it was above.
fn show_why(pg: Pg) {
    let one_column = window().match_media("(max-width: 1000px)").ok().flatten().is_some_and(|m| m.matches());
    if let (true, Some(why)) = (one_column, pg.query(".main .card.why")) {
        super::measure::scroll_top_into_view_smoothly(&why);
    }
}

/// The table under the timeline (closed by default, hidden in the compact layout), built only
/// while open.
#[component]
fn TimelineTableDetails(compact: bool) -> impl IntoView {
    let table_open = RwSignal::new(false);
    view! {
        <details class="tl-table" class:hidden=compact on:toggle=move |ev| table_open.set(event_target::<web_sys::HtmlDetailsElement>(&ev).open())>
            <summary>"Show the timeline as a table"</summary>
            // Wide tables scroll sideways on a narrow screen (the region takes focus for the arrows).
            <div class="tl-table-scroll" tabindex="0" role="region" aria-label="The timeline as tables">
                {move || table_open.get().then(|| view! { <super::timeline_now::TimelineNowTable /> <TimelineTable /> })}
            </div>
        </details>
    }
}

/// The timeline's data as a table: each series' watermark at six moments, and the marks.
#[component]
fn TimelineTable() -> impl IntoView {
    let pg = expect_context::<Pg>();
    move || {
        pg.timeline_rev.track();
        pg.timeline.with_value(|d| {
            let now = d.last;
            let span = (now - d.start).max(1);
            let times: Vec<i64> = (0..=5).map(|k| d.start + span * k / 5).collect();
            let head = times.iter().map(|&t| view! { <th scope="col">{elapsed(t, d.start)}</th> }).collect_view();
            let mut rows: Vec<(String, &Series)> = d.operators.iter().enumerate().map(|(i, s)| (format!("window subtask {i}"), s)).collect();
            for (o, per_input) in d.inputs.iter().enumerate() {
                for (k, s) in per_input.iter().enumerate() {
                    rows.push((format!("subtask {o} · input {} watermark ({})", k + 1, d.input_names.get(k).cloned().unwrap_or_default()), s));
                }
            }
            rows.extend(d.splits.iter().enumerate().map(|(i, s)| (d.split_name(i), s)));
            let body = rows
                .into_iter()
                .map(|(name, s)| {
                    let cells = times.iter().map(|&t| {
                        let w = s.at(t);
                        view! { <td class="mono" title=wm_raw(w)>{wm_human(w, now)}</td> }
                    }).collect_view();
                    let idle: i64 = s.idle.iter().map(|&(a, b)| b.unwrap_or(now) - a).sum();
                    view! { <tr><th scope="row">{name}</th>{cells}<td class="num">{super::format::dur(idle)}</td></tr> }
                })
                .collect_view();
            let fired = d.firings.len();
            let refired = d.firings.iter().filter(|f| f.3).count();
            let dropped = d.late.iter().filter(|l| !l.2).count();
            let side = d.late.len() - dropped;
            let job = &d.job;
            let fails = job.events.iter().filter(|e| matches!(e, super::job_marks::JobEvent::Failed { .. })).count();
            let job_note = (!job.checkpoints.is_empty() || fails > 0).then(|| {
                let last = job.events.last().map_or_else(String::new, |e| format!("; last: {} at {}", e.describe(), elapsed(e.at(), d.start)));
                let n = |k: usize, one, many| crate::engine::time::count(k as u64, one, many);
                format!(" Job: {}, {}, {}{last}.", n(job.checkpoints.len(), "checkpoint", "checkpoints"), n(fails, "failure", "failures"), n(job.events.len() - fails, "restart", "restarts"))
            });
            view! {
                <table class="data">
                    <caption>{format!("Watermark (event time) per series at processing times since the start. Marks recorded: {fired} firing groups ({refired} late re-firings), {dropped} dropped and {side} side-output late records.")}{job_note}</caption>
                    <thead><tr><th scope="col">"series"</th>{head}<th scope="col">"idle in total"</th></tr></thead>
                    <tbody>{body}</tbody>
                </table>
            }
        })
    }
}
