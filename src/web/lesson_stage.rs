//! A lesson step's stage: event time left to right, one row per partition with its records as
//! dots and its watermark as a mark, a row per window subtask with the minimum it holds, the
//! windows on top. Here the user grabs things and moves them (pointer drag, or a focused
//! handle and the arrow keys): a record's timestamp, the bound (the gap max − bound − 1 ms
//! between the largest timestamp and the watermark), the idle timeout (a bar from the silent
//! partition's last record to last + timeout, in processing time) and the allowed lateness (a
//! bar after the window's end). Every change rebuilds the step's job and replays it to the same
//! instant ([`LessonRun::change`]); the value shows beside the handle while it moves.
//!
//! The SVG is drawn in CSS pixels (no viewBox scaling), and says where event time 0 is and how
//! many pixels a second takes (`data-origin`, `data-px-per-s`), so tests can drag to a time.

use super::label_place::{clear_of, Span};
use super::lesson::LessonRun;
use super::lesson_setup::{Outcome, Setup, WINDOW_MS};
use super::lesson_steps::Grab;
use super::measure::use_width;
use leptos::html::Div;
use leptos::prelude::*;

const PAD_L: f64 = 16.0;
const PAD_R: f64 = 22.0;
const WINDOWS_H: f64 = 54.0;
const ROW_H: f64 = 68.0;
const OP_H: f64 = 40.0;
const AXIS_H: f64 = 30.0;
/// A handle's hit area, a square (CSS px).
const HIT: f64 = 26.0;
/// "now" sits this far left of its line (`.lw-now-label` ends there).
const NOW_LABEL_GAP: f64 = 4.0;
/// "now" at `.lw-now-label`'s 10.5 px, with room to spare.
const NOW_LABEL_W: f64 = 22.0;
/// One character of a handle's value (`.lw-value`, 11 px monospace: ~0.6 em), with room to spare.
const VALUE_CHAR_W: f64 = 6.9;
/// Event time at the left edge: a second before the start, so a record at 0 s is not cut.
const X0_MS: i64 = -1_000;

/// Event time ↔ pixels across the stage.
#[derive(Clone, Copy, PartialEq)]
struct Scale {
    width: f64,
    span_ms: i64,
}

impl Scale {
    fn plot_w(self) -> f64 {
        (self.width - PAD_L - PAD_R).max(50.0)
    }
    fn x(self, ms: i64) -> f64 {
        PAD_L + (ms - X0_MS) as f64 / (self.span_ms - X0_MS) as f64 * self.plot_w()
    }
    /// The time under pixel `px` (from the stage's left edge), to 100 ms.
    fn ms(self, px: f64) -> i64 {
        let t = X0_MS as f64 + (px - PAD_L) / self.plot_w() * (self.span_ms - X0_MS) as f64;
        ((t / 100.0).round() * 100.0) as i64
    }
}

/// Seconds for the labels: "9.999 s", "12 s".
fn secs(ms: i64) -> String {
    if ms % 1000 == 0 {
        format!("{} s", ms / 1000)
    } else {
        format!("{} s", (ms as f64 / 1000.0 * 1000.0).round() / 1000.0)
    }
}

/// What a handle moves.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Target {
    Event(usize),
    Bound,
    Idle,
    Lateness,
}

impl Target {
    /// The setting's range in ms (what Flink accepts, within the stage).
    fn range(self) -> (i64, i64) {
        match self {
            Target::Event(_) => (X0_MS, 120_000),
            Target::Bound | Target::Lateness => (0, 60_000),
            Target::Idle => (500, 120_000),
        }
    }

    /// The setting's value with the handle at event time `at` (clamped to its range).
    fn set(self, s: &mut Setup, o: &Outcome, at: i64) {
        let (lo, hi) = self.range();
        match self {
            Target::Event(i) => s.events[i].ts_ms = at.clamp(lo, hi),
            // `at` is on a 100 ms grid; the bound is too (the handle sits 1 ms left of it).
            Target::Bound => s.bound_ms = (max_ts(s, 0) - at).clamp(lo, hi),
            Target::Idle => s.idle_timeout_ms = Some((at - silent_since(o)).clamp(lo, hi)),
            Target::Lateness => s.allowed_lateness_ms = (at - WINDOW_MS).clamp(lo, hi),
        }
    }

    /// The setting's value in ms (the slider's `aria-valuenow`).
    fn value(self, s: &Setup) -> i64 {
        match self {
            Target::Event(i) => s.events[i].ts_ms,
            Target::Bound => s.bound_ms,
            Target::Idle => s.idle_timeout_ms.unwrap_or(0),
            Target::Lateness => s.allowed_lateness_ms,
        }
    }

    /// How the handle moves as the value grows: the bound's sits at `max_ts - bound`, so a
    /// larger bound is further left; the keys change the value (↑ raises it), as a slider's do.
    fn direction(self) -> i64 {
        if matches!(self, Target::Bound) {
            -1
        } else {
            1
        }
    }

    /// Where the handle sits (event time).
    fn at(self, s: &Setup, o: &Outcome) -> i64 {
        match self {
            Target::Event(i) => s.events[i].ts_ms,
            Target::Bound => max_ts(s, 0) - s.bound_ms,
            Target::Idle => silent_since(o) + s.idle_timeout_ms.unwrap_or(0),
            Target::Lateness => WINDOW_MS + s.allowed_lateness_ms,
        }
    }

    /// What the handle's value reads.
    fn label(self, s: &Setup) -> String {
        match self {
            Target::Event(i) => format!("ts {}", secs(s.events[i].ts_ms)),
            Target::Bound => format!("bound {}", secs(s.bound_ms)),
            Target::Idle => format!("withIdleness {}", secs(s.idle_timeout_ms.unwrap_or(0))),
            Target::Lateness => format!("allowedLateness {}", secs(s.allowed_lateness_ms)),
        }
    }

    /// Its accessible name: an event by when it arrives, as the lessons' steps name it ("the
    /// event that arrives last"); five handles all called "event timestamp" told none apart.
    fn name(self, s: &Setup) -> String {
        match self {
            Target::Event(i) => format!("event timestamp, arrives at {}", secs(s.events[i].at_ms)),
            Target::Bound => "forBoundedOutOfOrderness bound".into(),
            Target::Idle => "withIdleness timeout".into(),
            Target::Lateness => "allowedLateness".into(),
        }
    }

    fn testid(self) -> String {
        match self {
            Target::Event(i) => format!("event-{i}"),
            Target::Bound => "bound".into(),
            Target::Idle => "idle".into(),
            Target::Lateness => "lateness".into(),
        }
    }
}

/// The largest timestamp on a partition.
fn max_ts(s: &Setup, partition: u32) -> i64 {
    s.events.iter().filter(|e| e.partition == partition).map(|e| e.ts_ms).max().unwrap_or(0)
}

/// The partition that went silent first, and when its last record arrived.
fn silent(o: &Outcome) -> Option<(usize, i64)> {
    o.splits.iter().enumerate().filter_map(|(i, s)| s.last_arrival.map(|t| (i, t))).min_by_key(|&(_, t)| t)
}

fn silent_since(o: &Outcome) -> i64 {
    silent(o).map_or(0, |(_, t)| t)
}

/// The stage of the current step.
#[component]
pub fn LessonStage(run: LessonRun) -> impl IntoView {
    let node = NodeRef::<Div>::new();
    let width = use_width(node, 900.0);
    let scale = Memo::new(move |_| Scale { width: width.get(), span_ms: run.span_ms.get() });
    let dragging = RwSignal::new(None::<Target>);
    let grabs = move || run.lesson.steps[run.step.get()].grab;
    // Drags change the setup all the time: the rows and handles are made once per shape, so
    // that a dragged or focused handle stays the same element.
    let shape = Memo::new(move |_| run.setup.with(|s| (s.partitions, s.window_parallelism)));
    let height = move || {
        let (p, q) = shape.get();
        WINDOWS_H + ROW_H * p as f64 + OP_H * q as f64 + AXIS_H
    };
    view! {
        <div class="lesson-stage" node_ref=node>
            <svg class="lesson-svg" data-testid="lesson-stage" width=move || scale.get().width height=height
                data-origin=move || format!("{:.2}", scale.get().x(0))
                data-px-per-s=move || format!("{:.4}", scale.get().x(1000) - scale.get().x(0))
                role="group" aria-label="Event time, left to right: the records of each partition, the watermarks, the windows">
                <Windows run=run scale=scale dragging=dragging />
                // Under the rows: the "now" line ran through a handle's value ("withIdleness 20 s"),
                // whose halo now hides it.
                <Axis run=run scale=scale />
                {move || (0..shape.get().0).map(|p| view! { <PartitionRow run=run scale=scale p=p dragging=dragging /> }).collect_view()}
                {move || (0..shape.get().1).map(|q| view! { <OperatorRow run=run scale=scale q=q /> }).collect_view()}
            </svg>
            <p class="lesson-hint small muted">
                {move || hint(grabs())}
            </p>
        </div>
    }
}

fn hint(grabs: &[Grab]) -> String {
    let mut what: Vec<&str> = Vec::new();
    for g in grabs {
        what.push(match g {
            Grab::Events => "a record (●) left or right",
            Grab::Bound => "the bound handle (◆ at the watermark)",
            Grab::IdleTimeout => "the idle-timeout handle (◆ at the end of the dashed bar)",
            Grab::AllowedLateness => "the allowedLateness handle (◆ right of the window)",
        });
    }
    if what.is_empty() {
        return String::new();
    }
    format!("Drag {}; or focus it (Tab) and use ← →. The dashed line is now (processing time).", what.join(", or "))
}

/// The windows along the top: each `[start, end)` band, fired (✓ and its count) or open, and
/// the allowed-lateness bar when the step grabs it.
#[component]
fn Windows(run: LessonRun, scale: Memo<Scale>, dragging: RwSignal<Option<Target>>) -> impl IntoView {
    let bands = move || {
        let sc = scale.get();
        let o = run.outcome.get();
        (0..(run.span_ms.get() + WINDOW_MS - 1) / WINDOW_MS)
            .map(|k| {
                let start = k * WINDOW_MS;
                let (x0, x1) = (sc.x(start), sc.x((start + WINDOW_MS).min(run.span_ms.get())));
                let fired = o.window_fired(start);
                let refired = o.fired.iter().any(|f| f.start_ms == start && f.late_firing);
                let narrow = sc.plot_w() < 560.0;
                let bounds = format!("[{}, {})", start / 1000, (start + WINDOW_MS) / 1000);
                let label = match (fired, refired, narrow) {
                    (false, _, _) => format!("{bounds} open"),
                    (true, _, true) => format!("{bounds} ✓"),
                    (true, false, false) => format!("{bounds} ✓ fired, {} records", o.window_count(start)),
                    (true, true, false) => format!("{bounds} ✓ fired, re-fired: {} records", o.window_count(start)),
                };
                view! {
                    <g class="lw-window" class:fired=fired data-window-start=start.to_string() data-fired=fired.to_string()>
                        <rect x=x0 + 1.0 y=4 width=(x1 - x0 - 2.0).max(0.0) height=22 rx=4 />
                        <text x=x0 + 6.0 y=19>{label}</text>
                    </g>
                }
            })
            .collect_view()
    };
    let lateness = move || {
        run.lesson.steps[run.step.get()].grab.contains(&Grab::AllowedLateness).then(|| {
            let al = move || run.setup.with(|s| s.allowed_lateness_ms);
            view! {
                <line class="lw-lateness" x1=move || scale.get().x(WINDOW_MS) x2=move || scale.get().x(WINDOW_MS + al()) y1=34 y2=34 />
                <Handle run=run scale=scale target=Target::Lateness y=34.0 dragging=dragging />
            }
        })
    };
    view! { <g class="lw-windows">{bands}{lateness}</g> }
}

/// One partition: its records, its watermark, and the bound or idle-timeout handle.
#[component]
fn PartitionRow(run: LessonRun, scale: Memo<Scale>, p: u32, dragging: RwSignal<Option<Target>>) -> impl IntoView {
    let top = WINDOWS_H + ROW_H * p as f64;
    let y = top + 30.0;
    let split = move || run.outcome.with(|o| o.splits.get(p as usize).copied());
    let label = move || {
        let Some(s) = split() else { return format!("partition {p}") };
        let wm = s.watermark.map_or("No Watermark".to_string(), secs);
        let narrow = scale.get().plot_w() < 560.0;
        let sub = s.subtask.filter(|_| !narrow).map_or(String::new(), |t| format!(" → source subtask {t}"));
        format!("partition {p}{sub} · wm {wm}{}", if s.idle { " · IDLE" } else { "" })
    };
    let grabs = move || run.lesson.steps[run.step.get()].grab;
    let mine = Memo::new(move |_| run.setup.with(|s| s.events.iter().enumerate().filter(|(_, e)| e.partition == p).map(|(i, _)| i).collect::<Vec<_>>()));
    let events = move || {
        let movable = grabs().contains(&Grab::Events);
        mine.get()
            .into_iter()
            .map(|i| {
                let class = Signal::derive(move || {
                    let ts = run.setup.with(|s| s.events[i].ts_ms);
                    run.outcome.with(|o| match o.late.iter().find(|l| l.partition == p && l.ts_ms == ts) {
                        Some(l) if l.side_output => "lw-event side",
                        Some(_) => "lw-event dropped",
                        None => "lw-event",
                    })
                });
                if movable {
                    view! { <Handle run=run scale=scale target=Target::Event(i) y=y dragging=dragging class=class /> }.into_any()
                } else {
                    view! { <circle class=class cx=move || scale.get().x(run.setup.with(|s| s.events[i].ts_ms)) cy=y r=6 /> }.into_any()
                }
            })
            .collect_view()
    };
    let watermark = move || {
        let w = split()?.watermark?;
        let x = scale.get().x(w.max(X0_MS));
        Some(view! { <line class="lw-wm" x1=x x2=x y1=y - 14.0 y2=y + 14.0 /> })
    };
    let bound = move || {
        (p == 0 && grabs().contains(&Grab::Bound)).then(|| {
            let (max, bound) = (move || run.setup.with(|s| max_ts(s, 0)), move || run.setup.with(|s| s.bound_ms));
            view! {
                <line class="lw-gap" x1=move || scale.get().x(max() - 1 - bound()) x2=move || scale.get().x(max()) y1=y + 18.0 y2=y + 18.0 />
                <Handle run=run scale=scale target=Target::Bound y=y + 18.0 dragging=dragging />
            }
        })
    };
    let silent_one = Memo::new(move |_| run.outcome.with(silent).map(|(sp, _)| sp));
    let idle = move || {
        (silent_one.get() == Some(p as usize) && grabs().contains(&Grab::IdleTimeout)).then(|| {
            let since = move || run.outcome.with(silent_since);
            let t = move || run.setup.with(|s| s.idle_timeout_ms.unwrap_or(0));
            view! {
                <line class="lw-idle-bar" x1=move || scale.get().x(since()) x2=move || scale.get().x(since() + t()) y1=y + 18.0 y2=y + 18.0 />
                <Handle run=run scale=scale target=Target::Idle y=y + 18.0 dragging=dragging />
            }
        })
    };
    view! {
        <g class="lw-row" class:idle=move || split().is_some_and(|s| s.idle) data-partition=p.to_string()>
            <text class="lw-label" x=PAD_L y=top + 12.0>{label}</text>
            <line class="lw-track" x1=PAD_L x2=move || scale.get().width - PAD_R y1=y y2=y />
            {watermark}{bound}{idle}{events}
        </g>
    }
}

/// One window subtask: the minimum over its channels, the watermark windows fire on.
#[component]
fn OperatorRow(run: LessonRun, scale: Memo<Scale>, q: u32) -> impl IntoView {
    let top = move || WINDOWS_H + ROW_H * run.setup.with(|s| s.partitions) as f64 + OP_H * q as f64;
    let wm = move || run.outcome.with(|o| o.operators.get(q as usize).copied().flatten());
    view! {
        <g class="lw-op" data-subtask=q.to_string() data-watermark=move || wm().map_or("none".into(), |w| w.to_string())>
            <text class="lw-label" x=PAD_L y=move || top() + 12.0>
                {move || format!("window subtask {q} · wm (the minimum) {}", wm().map_or("No Watermark".into(), secs))}
            </text>
            <line class="lw-track" x1=PAD_L x2=move || scale.get().width - PAD_R y1=move || top() + 26.0 y2=move || top() + 26.0 />
            {move || wm().map(|w| {
                let x = scale.get().x(w.max(X0_MS));
                view! { <line class="lw-wm op" x1=x x2=x y1=top() + 16.0 y2=top() + 36.0 /> }
            })}
        </g>
    }
}

/// The event-time axis, and "now" (processing time) as a dashed line over the rows.
#[component]
fn Axis(run: LessonRun, scale: Memo<Scale>) -> impl IntoView {
    let bottom = move || {
        let (p, q) = run.setup.with(|s| (s.partitions, s.window_parallelism));
        WINDOWS_H + ROW_H * p as f64 + OP_H * q as f64
    };
    let ticks = move || {
        let sc = scale.get();
        let step = if sc.plot_w() / (run.span_ms.get() as f64 / 1000.0) < 22.0 { 5_000 } else { 2_000 };
        (0..=run.span_ms.get() / step)
            .map(|k| {
                let x = sc.x(k * step);
                view! { <text class="lw-tick" x=x y=bottom() + 16.0>{format!("{}", k * step / 1000)}</text> }
            })
            .collect_view()
    };
    let now = move || {
        let x = scale.get().x(run.outcome.with(|o| o.elapsed_ms));
        view! {
            <line class="lw-now" x1=x x2=x y1=WINDOWS_H - 6.0 y2=bottom() />
            <text class="lw-now-label" x=x - NOW_LABEL_GAP y=WINDOWS_H - 8.0>"now"</text>
        }
    };
    view! {
        <g class="lw-axis">
            {ticks}
            <text class="lw-tick lw-axis-title" x=move || scale.get().width - PAD_R y=move || bottom() + 28.0>"event time (s)"</text>
            {now}
        </g>
    }
}

/// A grabbable thing: drawn at its setting, dragged with the pointer; focused, a slider of its
/// value (← ↓ less, → ↑ more, Shift finer, Page keys by 5 s, Home and End its range). Shows its
/// value beside it.
#[component]
fn Handle(run: LessonRun, scale: Memo<Scale>, target: Target, y: f64, dragging: RwSignal<Option<Target>>, #[prop(optional, into)] class: Option<Signal<&'static str>>) -> impl IntoView {
    let at = move || run.outcome.with(|o| run.setup.with(|s| target.at(s, o)));
    let x = move || scale.get().x(at());
    // Kept on the stage: a key (End) or a drag past its edge put the handle out of sight.
    let on_stage = move |t: i64| t.clamp(X0_MS, run.span_ms.get_untracked());
    let set = move |t: i64| {
        let o = run.outcome.get_untracked();
        run.change(|s| target.set(s, &o, on_stage(t)));
    };
    // The values the stage can show, for the slider's min and max.
    let value_range = move || {
        let o = run.outcome.get();
        let value_at = |t: i64| {
            let mut s = run.setup.get();
            target.set(&mut s, &o, t);
            target.value(&s)
        };
        let (a, b) = (value_at(X0_MS), value_at(run.span_ms.get()));
        (a.min(b), a.max(b))
    };
    let on_down = move |ev: web_sys::PointerEvent| {
        ev.prevent_default();
        if let Some(el) = grab_of(&ev) {
            let _ = el.set_pointer_capture(ev.pointer_id());
        }
        dragging.set(Some(target));
    };
    let on_move = move |ev: web_sys::PointerEvent| {
        if dragging.get_untracked() == Some(target) && ev.buttons() & 1 == 1 {
            if let Some(px) = stage_x(&ev) {
                set(scale.get_untracked().ms(px));
            }
        }
    };
    let on_up = move |_| dragging.set(None);
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let d = if ev.shift_key() { 100 } else { 500 };
        let (lo, hi) = target.range();
        let now = run.setup.with_untracked(|s| target.value(s));
        let delta = match ev.key().as_str() {
            "ArrowLeft" | "ArrowDown" => -d,
            "ArrowRight" | "ArrowUp" => d,
            "PageDown" => -5_000,
            "PageUp" => 5_000,
            "Home" => lo - now,
            "End" => hi - now,
            _ => return,
        };
        // The page's own shortcuts (→ steps the job) must not see it.
        ev.prevent_default();
        ev.stop_propagation();
        set(at() + delta * target.direction());
    };
    let value = move || run.setup.with(|s| target.label(s));
    // allowedLateness' value is under the windows, where "now" is: on a phone, at the lesson's
    // 3.5 s, the two were drawn on each other. The others are in the rows.
    let value_at = move || {
        if !matches!(target, Target::Lateness) {
            return (x(), "middle");
        }
        let now = scale.get().x(run.outcome.with(|o| o.elapsed_ms)) - NOW_LABEL_GAP;
        let w = value().chars().count() as f64 * VALUE_CHAR_W;
        clear_of(x(), w, Span { left: now - NOW_LABEL_W, right: now }, scale.get().width)
    };
    let shape = if matches!(target, Target::Event(_)) { "dot" } else { "diamond" };
    let classes = move || {
        let base = class.map_or("lw-handle", |c| c.get());
        format!("lw-grab {base} {shape}{}", if dragging.get() == Some(target) { " dragging" } else { "" })
    };
    view! {
        <g class=classes
            tabindex="0" role="slider" aria-label=move || run.setup.with(|s| target.name(s)) aria-valuetext=value
            aria-valuenow=move || run.setup.with(|s| target.value(s)).to_string() aria-valuemin=move || value_range().0 aria-valuemax=move || value_range().1
            data-testid=format!("grab-{}", target.testid()) data-at=move || at().to_string()
            on:pointerdown=on_down on:pointermove=on_move on:pointerup=on_up on:pointercancel=on_up on:keydown=on_key>
            // What a finger hits: a square that holds WCAG 2.2's 24×24 CSS px target (the halo
            // below, shown on hover and focus, holds an 18 px one); the stage is drawn 1:1.
            <rect class="lw-target" x=move || x() - HIT / 2.0 y=y - HIT / 2.0 width=HIT height=HIT />
            <circle class="lw-hit" cx=x cy=y r=13 />
            {if shape == "dot" {
                view! { <circle class="lw-mark" cx=x cy=y r=6.5 /> }.into_any()
            } else {
                view! { <rect class="lw-mark" x=move || x() - 6.0 y=y - 6.0 width=12 height=12 transform=move || format!("rotate(45 {} {y})", x()) /> }.into_any()
            }}
            <text class="lw-value" class:shown=move || dragging.get() == Some(target) || !matches!(target, Target::Event(_))
                x=move || value_at().0 y=if matches!(target, Target::Lateness | Target::Bound) { y + 19.0 } else { y - 11.0 }
                text-anchor=move || value_at().1>{value}</text>
        </g>
    }
}

/// The grab under the pointer (the page delegates events: the current target is not it).
fn grab_of(ev: &web_sys::PointerEvent) -> Option<web_sys::Element> {
    use wasm_bindgen::JsCast;
    ev.target()?.dyn_into::<web_sys::Element>().ok()?.closest(".lw-grab").ok().flatten()
}

/// The pointer's x from the stage's left edge.
fn stage_x(ev: &web_sys::PointerEvent) -> Option<f64> {
    let svg = grab_of(ev)?.closest("svg").ok().flatten()?;
    Some(ev.client_x() as f64 - svg.get_bounding_client_rect().left())
}
