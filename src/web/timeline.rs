//! The timeline (SVG): watermarks over processing time — one thin line per split, one bold line
//! per window subtask — against the processing-time diagonal, with window bands, firings (▮ on
//! time, ◇ late re-firing), late records (✕ dropped, ○ side output), idle lanes (hatched) and
//! off-scale values pinned to the edges. Zoom with the buttons or the mouse wheel (centred on the pointer), drag
//! to pan, click a window band to explain that window. A table gives the
//! same picture to screen readers.

use super::format::{elapsed, wm_human, wm_raw, MAX_WM, MIN_WM};
use super::measure::use_width;
use super::state::{Pg, Selection};
use super::timeline_data::{Series, TimelineData};
use crate::engine::operator::assigner::WindowSpec;
use crate::engine::source::generator::GeneratorKind;
use crate::engine::time::NO_WATERMARK;
use leptos::html::Div;
use leptos::prelude::*;
use std::fmt::Write;

/// Plot height of the full layout; the embed layout's is smaller.
const PLOT_H: f64 = 260.0;
const PLOT_H_COMPACT: f64 = 180.0;
const LEFT: f64 = 92.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 10.0;
const AXIS_H: f64 = 22.0;
const LANE_H: f64 = 9.0;
const MAX_LANES: usize = 10;

/// The visible window of processing time.
#[derive(Clone, Copy, Debug, PartialEq)]
struct View {
    x0: i64,
    x1: i64,
    y0: i64,
    y1: i64,
}

fn nice_step(span: i64) -> i64 {
    const STEPS: &[i64] = &[100, 200, 500, 1_000, 2_000, 5_000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000, 7_200_000, 10_800_000, 21_600_000, 43_200_000, 86_400_000];
    STEPS.iter().copied().find(|&s| s * 7 >= span).unwrap_or(86_400_000 * ((span / 86_400_000 / 7).max(1)))
}

struct Scale {
    v: View,
    w: f64,
    /// Plot height.
    h: f64,
}

impl Scale {
    fn x(&self, t: i64) -> f64 {
        LEFT + (t - self.v.x0) as f64 / (self.v.x1 - self.v.x0).max(1) as f64 * (self.w - LEFT - RIGHT)
    }
    /// (y pixel, clamped?) — off-scale values (including No Watermark) are pinned to an edge.
    fn y(&self, e: i64) -> (f64, bool) {
        let top = TOP;
        let bottom = TOP + self.h;
        if e == NO_WATERMARK.ms() || e < self.v.y0 {
            return (bottom, true);
        }
        if e > self.v.y1 {
            return (top, true);
        }
        let f = (e - self.v.y0) as f64 / (self.v.y1 - self.v.y0).max(1) as f64;
        (bottom - f * self.h, false)
    }
}

/// The step path of a series within the view, with at most one vertex per pixel column (the
/// last value in each column), so that long, busy series stay cheap to draw.
fn series_path(s: &Series, sc: &Scale, now: i64) -> (String, bool) {
    let mut d = String::new();
    let start = s.points.partition_point(|&(t, _)| t < sc.v.x0).saturating_sub(1);
    let mut any_clamped = false;
    let mut col = i64::MIN;
    let mut pending: Option<(f64, f64)> = None;
    let mut last_y: Option<f64> = None;
    let emit = |d: &mut String, x: f64, y: f64, last_y: &mut Option<f64>| {
        match *last_y {
            None => {
                let _ = write!(d, "M{x:.0},{y:.1}");
            }
            Some(py) if (py - y).abs() < 0.5 => return,
            Some(_) => {
                let _ = write!(d, "H{x:.0}V{y:.1}");
            }
        }
        *last_y = Some(y);
    };
    for &(t, w) in &s.points[start..] {
        if t > sc.v.x1 {
            break;
        }
        let x = sc.x(t.max(sc.v.x0));
        let (y, clamped) = sc.y(w);
        any_clamped |= clamped;
        let c = x.floor() as i64;
        if c != col {
            if let Some((px, py)) = pending.take() {
                emit(&mut d, px, py, &mut last_y);
            }
            col = c;
        }
        pending = Some((x, y));
    }
    if let Some((px, py)) = pending {
        emit(&mut d, px, py, &mut last_y);
    }
    if last_y.is_some() {
        let _ = write!(d, "H{:.0}", sc.x(now.min(sc.v.x1)));
    }
    (d, any_clamped)
}

/// The band pitch of a window assigner (size and offset), or `None` for session windows.
fn band_of(w: &WindowSpec) -> Option<(i64, i64)> {
    match *w {
        WindowSpec::Tumbling { size_ms, offset_ms } => Some((size_ms, offset_ms)),
        WindowSpec::Sliding { size_ms, slide_ms, offset_ms } => Some((size_ms, offset_ms.rem_euclid(slide_ms))),
        WindowSpec::Session { .. } => None,
    }
}

/// The window whose band holds event time `e`: `[start, end)` as Flink's
/// `TimeWindow.getWindowStartWithOffset` puts it (for sliding windows, the latest window
/// that contains `e`).
pub fn window_at(w: &WindowSpec, e: i64) -> Option<(i64, i64)> {
    match *w {
        WindowSpec::Tumbling { size_ms, offset_ms } => {
            let start = e - (e - offset_ms).rem_euclid(size_ms);
            Some((start, start + size_ms))
        }
        WindowSpec::Sliding { size_ms, slide_ms, offset_ms } => {
            let start = e - (e - offset_ms).rem_euclid(slide_ms);
            Some((start, start + size_ms))
        }
        WindowSpec::Session { .. } => None,
    }
}

/// Where a pointer at `(x, y)` (pixels from the SVG's top left) is in the view: processing
/// time and event time, or `None` outside the plot area.
fn point_at(v: View, w: f64, h: f64, x: f64, y: f64) -> Option<(i64, i64)> {
    if x < LEFT || x > w - RIGHT || y < TOP || y > TOP + h {
        return None;
    }
    let t = v.x0 + ((x - LEFT) / (w - LEFT - RIGHT).max(1.0) * (v.x1 - v.x0) as f64) as i64;
    let e = v.y0 + ((TOP + h - y) / h * (v.y1 - v.y0) as f64) as i64;
    Some((t, e))
}

/// Split lines drawn: all of them up to 16 splits; beyond that the culprit and the 15 lowest
/// (the table below the chart lists every split).
const MAX_SPLIT_LINES: usize = 16;

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

    let svg_body = move || {
        draw.track();
        let w = width.get();
        let (focus_op, culprit) = holding.get().unwrap_or((0, None));
        let window = pg.cfg.with_untracked(|c| c.window);
        let selected = pg.selection.with(|s| match s {
            Selection::WindowRange { start, end } => Some((*start, *end)),
            _ => None,
        });
        pg.timeline.with_value(|data| {
            let v = view_of(data);
            let sc = Scale { v, w, h: ph };
            let now = data.last;
            let mut out = String::with_capacity(16_384);
            // Window bands (event time) and grid.
            if let Some((size, offset)) = band_of(&window) {
                let px = size as f64 / (v.y1 - v.y0).max(1) as f64 * ph;
                if px >= 5.0 {
                    let mut k = (v.y0 - offset).div_euclid(size);
                    while k * size + offset < v.y1 {
                        let a = k * size + offset;
                        let picked = selected == Some((a, a + size));
                        if k % 2 == 0 || picked {
                            let (ya, _) = sc.y(a.max(v.y0));
                            let (yb, _) = sc.y((a + size).min(v.y1));
                            let _ = write!(out, r#"<rect class="band{}" x="{LEFT}" y="{yb:.1}" width="{:.1}" height="{:.1}"/>"#, if picked { " picked" } else { "" }, w - LEFT - RIGHT, (ya - yb).max(0.0));
                        }
                        k += 1;
                    }
                }
            }
            // Fewer time ticks on a narrow plot (a label is ~60 px wide).
            let step = nice_step((v.x1 - v.x0) * if w < 560.0 { 2 } else { 1 });
            let mut t = v.x0.div_euclid(step) * step + step;
            while t < v.x1 {
                let x = sc.x(t);
                let _ = write!(out, r#"<line class="grid" x1="{x:.1}" y1="{TOP}" x2="{x:.1}" y2="{}"/><text class="tick" x="{x:.1}" y="{}" text-anchor="middle">{}</text>"#, TOP + ph, TOP + ph + 14.0, &elapsed(t, data.start)[..8]);
                t += step;
            }
            let ystep = nice_step(v.y1 - v.y0);
            let mut e = v.y0.div_euclid(ystep) * ystep + ystep;
            while e < v.y1 {
                let (y, _) = sc.y(e);
                let _ = write!(out, r#"<line class="grid" x1="{LEFT}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}"/><text class="tick" x="{}" y="{:.1}" text-anchor="end">{}</text>"#, w - RIGHT, LEFT - 6.0, y + 3.5, wm_human(e, now));
                e += ystep;
            }
            // Processing-time diagonal: a healthy watermark runs parallel to it.
            let (ya, _) = sc.y(v.x0);
            let (yb, _) = sc.y(v.x1);
            let _ = write!(out, r#"<line class="diag" x1="{LEFT}" y1="{ya:.1}" x2="{:.1}" y2="{yb:.1}"/>"#, sc.x(v.x1));
            // Series: splits thin, culprit split highlighted, operators bold.
            let mut drawn: Vec<usize> = (0..data.splits.len()).collect();
            if drawn.len() > MAX_SPLIT_LINES {
                drawn.sort_by_key(|&i| (culprit != Some(i as u32), data.splits[i].at(now)));
                drawn.truncate(MAX_SPLIT_LINES);
            }
            for i in drawn {
                let s = &data.splits[i];
                let (d, _) = series_path(s, &sc, now);
                if d.is_empty() {
                    continue;
                }
                let hot = culprit == Some(i as u32);
                let _ = write!(out, r#"<path class="ln split{}" d="{d}"><title>partition {i}</title></path>"#, if hot { " culprit" } else { "" });
            }
            for (i, s) in data.operators.iter().enumerate() {
                let (d, _) = series_path(s, &sc, now);
                if d.is_empty() {
                    continue;
                }
                let _ = write!(out, r#"<path class="ln op{}" d="{d}"><title>window subtask {i}</title></path>"#, if i as u32 == focus_op { " focus" } else { "" });
            }
            // Off-scale notes at the right edge for the focused operator.
            if let Some(s) = data.operators.get(focus_op as usize) {
                let wv = s.at(now);
                let (y, clamped) = sc.y(wv);
                if clamped {
                    let label = match wv {
                        MIN_WM => "▼ No Watermark".to_string(),
                        MAX_WM => "▲ end of input".to_string(),
                        _ if y <= TOP + 1.0 => format!("▲ {}", wm_human(wv, now)),
                        _ => format!("▼ {}", wm_human(wv, now)),
                    };
                    let yy = if y <= TOP + 1.0 { TOP + 12.0 } else { TOP + ph - 5.0 };
                    let _ = write!(out, r#"<text class="offscale" x="{:.1}" y="{yy:.1}" text-anchor="end">win {focus_op}: {label}</text>"#, w - RIGHT - 4.0);
                }
            }
            // Firings: ▮ on time, ◇ late re-firing (one mark per pixel).
            let lo = data.firings.partition_point(|f| f.0 < v.x0);
            let mut seen = std::collections::BTreeSet::new();
            for &(t, wend, _sub, late) in &data.firings[lo..] {
                if t > v.x1 {
                    break;
                }
                let x = sc.x(t);
                let (y, _) = sc.y(wend);
                if !seen.insert((x as i64, y as i64 / 3, late)) {
                    continue;
                }
                if late {
                    let _ = write!(out, r#"<path class="mk refire" d="M{x:.1},{:.1}l4,4l-4,4l-4,-4z"/>"#, y - 4.0);
                } else {
                    let _ = write!(out, r#"<rect class="mk fire" x="{:.1}" y="{:.1}" width="3" height="8"/>"#, x - 1.5, y - 4.0);
                }
            }
            // Late records: ✕ dropped, ○ side output.
            let lo = data.late.partition_point(|l| l.0 < v.x0);
            seen.clear();
            for &(t, ts, side) in &data.late[lo..] {
                if t > v.x1 {
                    break;
                }
                let x = sc.x(t);
                let (y, _) = sc.y(ts);
                if !seen.insert((x as i64 / 2, y as i64 / 3, side)) {
                    continue;
                }
                if side {
                    let _ = write!(out, r#"<circle class="mk side" cx="{x:.1}" cy="{y:.1}" r="3.5"/>"#);
                } else {
                    let _ = write!(out, r#"<path class="mk dropped" d="M{:.1},{:.1}l7,7m0,-7l-7,7"/>"#, x - 3.5, y - 3.5);
                }
            }
            // Idle lanes under the plot.
            let mut lanes: Vec<(String, &Series)> = data.operators.iter().enumerate().filter(|(_, s)| s.ever_idle()).map(|(i, s)| (format!("win {i}"), s)).collect();
            lanes.extend(data.splits.iter().enumerate().filter(|(_, s)| s.ever_idle()).map(|(i, s)| (format!("p{i}"), s)));
            lanes.truncate(max_lanes);
            let lane_top = TOP + ph + AXIS_H;
            for (k, (name, s)) in lanes.iter().enumerate() {
                let y = lane_top + k as f64 * LANE_H;
                let _ = write!(out, r#"<text class="lane-label" x="{}" y="{:.1}" text-anchor="end">{name} idle</text><rect class="lane" x="{LEFT}" y="{y:.1}" width="{:.1}" height="{}"/>"#, LEFT - 6.0, y + 7.0, w - LEFT - RIGHT, LANE_H - 2.0);
                for &(a, b) in &s.idle {
                    let b = b.unwrap_or(now);
                    if b < v.x0 || a > v.x1 {
                        continue;
                    }
                    let xa = sc.x(a.max(v.x0));
                    let xb = sc.x(b.min(v.x1));
                    let _ = write!(out, r#"<rect class="idle-span" x="{xa:.1}" y="{y:.1}" width="{:.1}" height="{}"/>"#, (xb - xa).max(1.5), LANE_H - 2.0);
                }
            }
            let height = lane_top + lanes.len() as f64 * LANE_H + 4.0;
            (out, height, format!("{} {} {} {}", v.x0, v.x1, v.y0, v.y1))
        })
    };
    let content = Memo::new(move |_| svg_body());
    let ms_per_px = move || {
        let w = width.get_untracked();
        pg.timeline.with_value(|d| {
            let v = view_of(d);
            (v.x1 - v.x0) as f64 / (w - LEFT - RIGHT).max(1.0)
        })
    };
    let current = move || pg.timeline.with_value(|d| {
        let v = view_of(d);
        (v.x1 - v.x0, v.x1)
    });
    let zoom = move |f: f64| {
        let (sp, e) = current();
        span.set(Some(((sp as f64 * f) as i64).clamp(200, 30 * 86_400_000)));
        if end.get_untracked().is_some() {
            end.set(Some(e));
        }
    };
    let drag = StoredValue::new(None::<(f64, i64, f64)>);
    // Whether the pointer moved since it went down (then the click is a pan, not a pick).
    let moved = StoredValue::new(false);
    // The pointer's place in the plot: processing and event time (None outside the plot).
    let at_pointer = move |client_x: f64, client_y: f64| -> Option<(i64, i64)> {
        let svg = node.get_untracked()?.query_selector("svg.timeline").ok()??;
        let r = svg.get_bounding_client_rect();
        let w = width.get_untracked();
        pg.timeline.with_value(|d| point_at(view_of(d), w, ph, client_x - r.left(), client_y - r.top()))
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
            let new_sp = ((sp as f64 * f) as i64).clamp(200, 30 * 86_400_000);
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
    view! {
        <section class="card timeline-card" class:compact=compact aria-labelledby="timeline-h">
            <header class="card-head">
                <h2 id="timeline-h">"TIMELINE"</h2>
                <span class="legend small" class:hidden=compact>
                    <span class="lg-op">"━ window subtask"</span>
                    <span class="lg-split">"─ split"</span>
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
            <div class="timeline-wrap" node_ref=node title="Drag to pan, wheel to zoom, click a window band to explain that window"
                on:pointerdown=move |ev: leptos::ev::PointerEvent| {
                    let (_, e) = current();
                    drag.set_value(Some((ev.client_x() as f64, e, ms_per_px())));
                    moved.set_value(false);
                }
                on:pointermove=move |ev: leptos::ev::PointerEvent| {
                    if let Some((x, e, mpp)) = drag.get_value() {
                        if ev.buttons() & 1 == 1 {
                            let dx = ev.client_x() as f64 - x;
                            if dx.abs() > 2.0 {
                                moved.set_value(true);
                                let (sp, _) = current();
                                if span.get_untracked().is_none() { span.set(Some(sp)); }
                                end.set(Some(e - (dx * mpp) as i64));
                            }
                        } else {
                            drag.set_value(None);
                        }
                    }
                }
                on:pointerup=move |_| drag.set_value(None)
                on:pointerleave=move |_| drag.set_value(None)
                on:click=on_click>
                <svg class="timeline" role="img" aria-label="Watermarks over processing time; the table below has the same data"
                    width=move || width.get() height=move || content.with(|c| c.1) data-view=move || content.with(|c| c.2.clone())
                    inner_html=move || content.with(|c| c.0.clone())>
                </svg>
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
