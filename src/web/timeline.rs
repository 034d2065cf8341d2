//! The timeline: watermarks over processing time — one thin line per split, one bold line per
//! window subtask — against the processing-time diagonal, with window bands, firings (▮ on
//! time, ◇ late re-firing), late records (✕ dropped, ○ side output), idle lanes (hatched) and
//! off-scale values pinned to the edges. `timeline_plot` decides what is drawn and
//! `timeline_canvas` paints it; this file holds the view state and the interactions: zoom with
//! the buttons or the mouse wheel (centred on the pointer), drag to pan, click a window band to
//! explain that window, hover a line to name it. A table gives the same picture to screen
//! readers.

use super::format::{elapsed, wm_human, wm_raw};
use super::measure::use_width;
use super::state::{Pg, Selection};
use super::theme::{use_system_dark, ThemeState};
use super::timeline_canvas::paint;
use super::timeline_data::{Series, TimelineData};
use super::timeline_plot::{plot, point_at, window_at, Frame, Plot, View, LEFT, PLOT_H, PLOT_H_COMPACT, RIGHT};
use crate::engine::source::generator::GeneratorKind;
use leptos::html::{Canvas, Div};
use leptos::prelude::*;

const MAX_LANES: usize = 10;
/// The canvas's tooltip away from the lines.
const HINT: &str = "Drag to pan, wheel to zoom, click a window band to explain that window";

/// A view span zoomed by factor `f`, between 200 ms and 30 days.
fn zoomed(span_ms: i64, f: f64) -> i64 {
    ((span_ms as f64 * f) as i64).clamp(200, 30 * 86_400_000)
}

/// `compact`: the embed layout's version (a lower plot, fewer idle lanes, no table, a short
/// legend).
#[component]
pub fn Timeline(#[prop(optional)] compact: bool) -> impl IntoView {
    let pg = expect_context::<Pg>();
    let ph = if compact { PLOT_H_COMPACT } else { PLOT_H };
    let max_lanes = if compact { 3 } else { MAX_LANES };
    let node = NodeRef::<Div>::new();
    let width = use_width(node, 900.0);
    // None = everything since the start / follow the present.
    let span = RwSignal::new(None::<i64>);
    let end = RwSignal::new(None::<i64>);
    let table_open = RwSignal::new(false);
    // Redraw at most ~15 times per second while playing.
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
    let view_of = move |data: &TimelineData| -> View {
        let now = data.last;
        let x1 = end.get().unwrap_or(now);
        let sp = span.get().unwrap_or((now - data.start).max(10_000));
        let x0 = x1 - sp;
        let bound = pg.cfg.with_untracked(|c| match c.source.generator {
            GeneratorKind::BoundedOutOfOrderness { bound_ms } | GeneratorKind::MaxOnSilence { bound_ms, .. } => bound_ms,
            _ => 0,
        });
        let lo = ((sp as f64 * 0.25) as i64).max((bound as f64 * 1.3) as i64).min(sp * 3);
        View { x0, x1, y0: x0 - lo, y1: x1 + sp / 20 }
    };
    let holding = Memo::new(move |_| pg.explanation.with(|e| e.as_ref().map(|e| (e.subtask, e.held_by.as_ref().and_then(|h| h.partition)))));

    let picture = move || -> Plot {
        draw.track();
        let (focus_op, culprit) = holding.get().unwrap_or((0, None));
        let picked = pg.selection.with(|s| match s {
            Selection::WindowRange { start, end } => Some((*start, *end)),
            _ => None,
        });
        let window = pg.cfg.with_untracked(|c| c.window);
        let width = width.get();
        pg.timeline.with_value(|data| {
            let frame = Frame { view: view_of(data), width, plot_h: ph, max_lanes, window, focus_op, culprit, picked };
            plot(data, &frame)
        })
    };
    let content = Memo::new(move |_| picture());
    let canvas = NodeRef::<Canvas>::new();
    // The canvas paints the theme's colours itself: repaint when they change.
    let theme = use_context::<ThemeState>();
    let system_dark = use_system_dark();
    Effect::new(move |_| {
        if let Some(t) = theme {
            t.0.track();
        }
        system_dark.track();
        let Some(el) = canvas.get() else { return };
        content.with(|p| paint(&el, p));
    });
    // Interactions work on the view as drawn (the plot keeps it).
    let ms_per_px = move || content.with_untracked(|p| (p.view.x1 - p.view.x0) as f64 / (p.width - LEFT - RIGHT).max(1.0));
    let current = move || content.with_untracked(|p| (p.view.x1 - p.view.x0, p.view.x1));
    let zoom = move |f: f64| {
        let (sp, e) = current();
        span.set(Some(zoomed(sp, f)));
        if end.get_untracked().is_some() {
            end.set(Some(e));
        }
    };
    let drag = StoredValue::new(None::<(f64, i64, f64)>);
    // Whether the pointer moved since it went down (then the click is a pan, not a pick).
    let moved = StoredValue::new(false);
    // The pointer in canvas pixels, and its place in the plot: processing and event time
    // (None outside the plot).
    let canvas_xy = move |client_x: f64, client_y: f64| -> Option<(f64, f64)> {
        let r = canvas.get_untracked()?.get_bounding_client_rect();
        Some((client_x - r.left(), client_y - r.top()))
    };
    let at_pointer = move |client_x: f64, client_y: f64| -> Option<(i64, i64)> {
        let (x, y) = canvas_xy(client_x, client_y)?;
        content.with_untracked(|p| point_at(p.view, p.width, p.plot_h, x, y))
    };
    // Wheel zoom, centred on the pointer: the processing time under it stays under it.
    Effect::new(move |_| {
        use wasm_bindgen::JsCast;
        let Some(el) = node.get() else { return };
        let cb = wasm_bindgen::closure::Closure::<dyn FnMut(web_sys::WheelEvent)>::new(move |ev: web_sys::WheelEvent| {
            let Some((t, _)) = at_pointer(ev.client_x() as f64, ev.client_y() as f64) else { return };
            ev.prevent_default();
            let f = if ev.delta_y() > 0.0 { 1.25 } else if ev.delta_y() < 0.0 { 0.8 } else { return };
            let (sp, e) = current();
            let new_sp = zoomed(sp, f);
            // Keep t at the same fraction of the span.
            let frac = (e - t) as f64 / sp.max(1) as f64;
            span.set(Some(new_sp));
            end.set(Some(t + (frac * new_sp as f64) as i64));
        });
        let opts = web_sys::AddEventListenerOptions::new();
        opts.set_passive(false);
        let _ = el.add_event_listener_with_callback_and_add_event_listener_options("wheel", cb.as_ref().unchecked_ref(), &opts);
        cb.forget();
    });
    // A click on a window band (anywhere in the plot) explains that window.
    let on_click = move |ev: leptos::ev::MouseEvent| {
        if moved.get_value() {
            return;
        }
        let Some((_, e)) = at_pointer(ev.client_x() as f64, ev.client_y() as f64) else { return };
        let Some((start, end)) = pg.cfg.with_untracked(|c| window_at(&c.window, e)) else { return };
        let pick = Selection::WindowRange { start, end };
        if pg.selection.get_untracked() == pick {
            pg.selection.set(Selection::None);
        } else {
            pg.selection.set(pick);
        }
    };
    // Dragging pans; otherwise the pointer names the line under it.
    let hover = RwSignal::new(None::<String>);
    let on_move = move |ev: leptos::ev::PointerEvent| {
        match drag.get_value() {
            Some((x, e, mpp)) if ev.buttons() & 1 == 1 => {
                let dx = ev.client_x() as f64 - x;
                if dx.abs() > 2.0 {
                    moved.set_value(true);
                    let (sp, _) = current();
                    if span.get_untracked().is_none() {
                        span.set(Some(sp));
                    }
                    end.set(Some(e - (dx * mpp) as i64));
                }
            }
            Some(_) => drag.set_value(None),
            None => {
                let Some((x, y)) = canvas_xy(ev.client_x() as f64, ev.client_y() as f64) else { return };
                let near = content.with_untracked(|p| p.line_near(x, y).map(str::to_string));
                if near != hover.get_untracked() {
                    hover.set(near);
                }
            }
        }
    };
    view! {
        <section class="card timeline-card" class:compact=compact aria-labelledby="timeline-h">
            <header class="card-head">
                <h2 id="timeline-h">"TIMELINE"</h2>
                <span class="legend small" class:hidden=compact>
                    <span class="lg-op">"━ window subtask"</span>
                    <span class="lg-split">"─ split"</span>
                    <span class="lg-min" title="The split that holds the explained window subtask's watermark, drawn on top of it">"━ holds min"</span>
                    <span class="lg-diag">"┄ processing time"</span>
                    <span>"▮ fired"</span><span>"◇ late re-firing"</span><span>"✕ dropped"</span><span>"○ side output"</span>
                    <span class="lg-idle">"idle"</span>
                </span>
                <div class="zoom" role="group" aria-label="Zoom">
                    <button class="icon-btn small" aria-label="Zoom in" title="Zoom in" on:click=move |_| zoom(0.5)>"+"</button>
                    <button class="icon-btn small" aria-label="Zoom out" title="Zoom out" on:click=move |_| zoom(2.0)>"−"</button>
                    <button class="btn tiny" title="Show everything since the start" on:click=move |_| { span.set(None); end.set(None); }>"fit"</button>
                    <button class="btn tiny" class:active=move || end.get().is_none() title="Follow the present" on:click=move |_| end.set(None)>"follow"</button>
                </div>
            </header>
            <div class="timeline-wrap" node_ref=node
                on:pointerdown=move |ev: leptos::ev::PointerEvent| {
                    let (_, e) = current();
                    drag.set_value(Some((ev.client_x() as f64, e, ms_per_px())));
                    moved.set_value(false);
                }
                on:pointermove=on_move
                on:pointerup=move |_| drag.set_value(None)
                on:pointerleave=move |_| drag.set_value(None)
                on:click=on_click>
                <canvas class="timeline" node_ref=canvas role="img" aria-label="Watermarks over processing time; the table below has the same data"
                        title=move || hover.get().unwrap_or_else(|| HINT.to_string())
                    data-view=move || content.with(|p| format!("{} {} {} {}", p.view.x0, p.view.x1, p.view.y0, p.view.y1))
                    data-marks=move || content.with(|p| p.census())>
                </canvas>
            </div>
            <details class="tl-table" class:hidden=compact on:toggle=move |ev| table_open.set(event_target::<web_sys::HtmlDetailsElement>(&ev).open())>
                <summary>"Timeline as a table"</summary>
                {move || table_open.get().then(|| view! { <TimelineTable /> })}
            </details>
        </section>
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
            rows.extend(d.splits.iter().enumerate().map(|(i, s)| (format!("partition {i}"), s)));
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
            view! {
                <table class="data">
                    <caption>{format!("Watermark (event time) per series at processing times since the start. Marks recorded: {fired} firing groups ({refired} late re-firings), {dropped} dropped and {side} side-output late records.")}</caption>
                    <thead><tr><th scope="col">"series"</th>{head}<th scope="col">"idle in total"</th></tr></thead>
                    <tbody>{body}</tbody>
                </table>
            }
        })
    }
}
