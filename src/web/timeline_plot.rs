//! What the timeline shows, as a display list in CSS pixels: window bands, grid and ticks, the
//! processing-time diagonal, one step line per split and per window subtask, firing and
//! late-record marks, off-scale notes and idle lanes. Pure (no DOM), so the same list is painted
//! on the canvas (`timeline_canvas`), hit-tested for hover labels and counted for tests.
//!
//! Why a display list and a canvas rather than SVG: rebuilding a few thousand SVG nodes 4 times
//! a second cost a busy page (64 partitions, parallelism 16, 100×) a third of its frame rate.

use super::axis_ticks::{event_ticks, first_tick_date, nice_step, proc_ticks, EVENT_AXIS_TITLE, PROC_AXIS_TITLE, PROC_AXIS_TITLE_NARROW};
use super::format::{wm_human, MAX_WM, MIN_WM};
use super::timeline_data::{Series, TimelineData};
use crate::engine::operator::assigner::{window_start_with_offset, WindowSpec};
use crate::engine::time::{EventTime, NO_WATERMARK};

/// Plot height of the full layout; the embed layout's is smaller.
pub const PLOT_H: f64 = 260.0;
pub const PLOT_H_COMPACT: f64 = 180.0;
pub const LEFT: f64 = 100.0;
pub const RIGHT: f64 = 16.0;
pub const TOP: f64 = 10.0;
/// Tick labels and the axis title under the plot.
const AXIS_H: f64 = 34.0;
pub const LANE_H: f64 = 9.0;
/// Split lines drawn: all of them up to 16 splits; beyond that the culprit and the 15 lowest
/// (the table below the chart lists every split).
const MAX_SPLIT_LINES: usize = 16;

/// The visible window: processing time `x0..x1` across, event time `y0..y1` up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct View {
    pub x0: i64,
    pub x1: i64,
    pub y0: i64,
    pub y1: i64,
}

/// How a watermark line is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineKind {
    Split,
    /// The split that holds the focused window subtask's minimum.
    Culprit,
    Operator,
    /// The window subtask the WHY panel talks about.
    OperatorFocus,
    /// One input of the focused two-input operator (its per-input watermark; 0 or 1).
    Input(u8),
}

/// One thing to paint, in CSS pixels from the plot's top left.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// A window's event-time band across the plot (every other window, and the picked one).
    Band {
        y: f64,
        h: f64,
        picked: bool,
    },
    /// A vertical grid line with its processing-time tick label under the plot.
    GridX {
        x: f64,
        label: String,
    },
    /// A horizontal grid line with its event-time label left of the plot.
    GridY {
        y: f64,
        label: String,
    },
    /// The date over the lowest event-time tick's label (`y` is the tick's).
    TickDate {
        y: f64,
        date: String,
    },
    /// An axis title: under the tick labels, or turned along the left edge (`vertical`).
    AxisTitle {
        x: f64,
        y: f64,
        text: &'static str,
        vertical: bool,
    },
    /// Processing time as event time: a healthy watermark runs parallel to it.
    Diagonal {
        from: (f64, f64),
        to: (f64, f64),
    },
    /// A step line through `points` (consecutive points joined straight).
    Line {
        kind: LineKind,
        label: String,
        points: Vec<(f64, f64)>,
    },
    Fired {
        x: f64,
        y: f64,
    },
    LateRefire {
        x: f64,
        y: f64,
    },
    Dropped {
        x: f64,
        y: f64,
    },
    SideOutput {
        x: f64,
        y: f64,
    },
    /// The focused window subtask's watermark is outside the view.
    OffScale {
        y: f64,
        text: String,
    },
    /// An idle lane's background and label.
    Lane {
        y: f64,
        label: String,
    },
    IdleSpan {
        x: f64,
        y: f64,
        w: f64,
    },
    /// The job was down (RESTARTING, or FAILED) from `x` for `w` px (`timeline_job`).
    JobDown {
        x: f64,
        w: f64,
    },
    /// A completed checkpoint: a tick on the time axis.
    Checkpoint {
        x: f64,
    },
    /// A failure (✕) or a restart (↻), with its tooltip; `n` events folded into one glyph.
    JobEvent {
        x: f64,
        restart: bool,
        label: String,
        n: usize,
    },
}

/// A whole picture: what to paint, the canvas height, and the view it was drawn for.
#[derive(Clone, Debug, PartialEq)]
pub struct Plot {
    pub items: Vec<Item>,
    pub width: f64,
    pub height: f64,
    pub plot_h: f64,
    pub view: View,
}

/// What the plot is drawn for, besides the data.
#[derive(Clone, Copy, Debug)]
pub struct Frame {
    pub view: View,
    pub width: f64,
    pub plot_h: f64,
    pub max_lanes: usize,
    pub window: WindowSpec,
    /// The window subtask the explanation is about, and the partition that holds it.
    pub focus_op: u32,
    pub culprit: Option<u32>,
    /// The window band picked by a click.
    pub picked: Option<(i64, i64)>,
}

/// Maps times to pixels for one frame.
struct Scale {
    v: View,
    w: f64,
    h: f64,
}

impl Scale {
    fn x(&self, t: i64) -> f64 {
        LEFT + (t - self.v.x0) as f64 / (self.v.x1 - self.v.x0).max(1) as f64 * (self.w - LEFT - RIGHT)
    }
    /// (y pixel, clamped?) — off-scale values (including No Watermark) are pinned to an edge.
    fn y(&self, e: i64) -> (f64, bool) {
        let bottom = TOP + self.h;
        if e == NO_WATERMARK.ms() || e < self.v.y0 {
            return (bottom, true);
        }
        if e > self.v.y1 {
            return (TOP, true);
        }
        let f = (e - self.v.y0) as f64 / (self.v.y1 - self.v.y0).max(1) as f64;
        (bottom - f * self.h, false)
    }
}

/// The step line of a series within the view, with at most one vertex per pixel column (the
/// last value in each column), so that long, busy series stay cheap to draw. Empty if the
/// series has no point up to the view's end.
fn series_points(s: &Series, sc: &Scale, now: i64) -> Vec<(f64, f64)> {
    let start = s.points.partition_point(|&(t, _)| t < sc.v.x0).saturating_sub(1);
    let mut out: Vec<(f64, f64)> = Vec::new();
    let mut col = i64::MIN;
    let mut pending: Option<(f64, f64)> = None;
    let emit = |out: &mut Vec<(f64, f64)>, (x, y): (f64, f64)| match out.last() {
        None => out.push((x, y)),
        Some(&(_, py)) if (py - y).abs() < 0.5 => {}
        Some(&(_, py)) => out.extend([(x, py), (x, y)]),
    };
    for &(t, w) in &s.points[start..] {
        if t > sc.v.x1 {
            break;
        }
        let x = sc.x(t.max(sc.v.x0));
        let c = x.floor() as i64;
        if c != col {
            if let Some(p) = pending.take() {
                emit(&mut out, p);
            }
            col = c;
        }
        pending = Some((x, sc.y(w).0));
    }
    if let Some(p) = pending {
        emit(&mut out, p);
    }
    if let Some(&(_, y)) = out.last() {
        out.push((sc.x(now.min(sc.v.x1)), y));
    }
    out
}

/// The band pitch of a window assigner (size and offset), or `None` for session windows.
fn band_of(w: &WindowSpec) -> Option<(i64, i64)> {
    match *w {
        WindowSpec::Tumbling { size_ms, offset_ms } => Some((size_ms, offset_ms)),
        WindowSpec::Sliding { size_ms, slide_ms, offset_ms } => Some((size_ms, offset_ms.rem_euclid(slide_ms))),
        WindowSpec::Cumulate { max_size_ms, offset_ms, .. } => Some((max_size_ms, offset_ms.rem_euclid(max_size_ms))),
        WindowSpec::Session { .. } => None,
    }
}

/// The window whose band holds event time `e`: `[start, end)` as Flink's
/// `TimeWindow.getWindowStartWithOffset` puts it (for sliding windows, the latest window
/// that contains `e`).
pub fn window_at(w: &WindowSpec, e: i64) -> Option<(i64, i64)> {
    // The engine's assigner's formula, so that a band is the window the engine fills.
    let start_of = |offset, size| window_start_with_offset(EventTime(e), offset, size).ms();
    match *w {
        WindowSpec::Tumbling { size_ms, offset_ms } => {
            let start = start_of(offset_ms, size_ms);
            Some((start, start + size_ms))
        }
        WindowSpec::Sliding { size_ms, slide_ms, offset_ms } => {
            let start = start_of(offset_ms, slide_ms);
            Some((start, start + size_ms))
        }
        // The first cumulative window that holds `e`: from the max-size window's start to the
        // end of `e`'s step.
        WindowSpec::Cumulate { step_ms, max_size_ms, offset_ms } => {
            Some((start_of(offset_ms, max_size_ms), start_of(offset_ms, step_ms) + step_ms))
        }
        WindowSpec::Session { .. } => None,
    }
}

/// How far to move view `v`'s event-time range (subtracted from both ends) so that the window
/// subtasks' latest watermark (at `v.x1`) sits three quarters up; 0 when it is in view already,
/// or there is none. The view follows processing time, so a replay's day-old watermarks (or a
/// unit mistake's decades) were all below it, even after "fit". The latest one, because a
/// replay's watermarks cross more event time than the view is high: their middle showed
/// neither where they started nor where they are.
pub fn event_shift(data: &TimelineData, v: View) -> i64 {
    let Some(latest) = data.operators.iter().map(|s| s.at(v.x1)).filter(|&w| real(w)).max() else { return 0 };
    if latest >= v.y0 && latest <= v.y1 {
        return 0;
    }
    let target = v.y0 + (v.y1 - v.y0) / 4 * 3;
    target.saturating_sub(latest)
}

/// A watermark worth plotting (not No Watermark, not the end of input).
fn real(w: i64) -> bool {
    w != NO_WATERMARK.ms() && w != i64::MAX
}

/// The highest watermark of the splits and window subtasks at processing time `t`.
pub fn highest_watermark(data: &TimelineData, t: i64) -> Option<i64> {
    data.operators.iter().chain(&data.splits).map(|s| s.at(t)).filter(|&w| real(w)).max()
}

/// How much event time the watermarks have covered since the start: from the lowest a split
/// or window subtask had to the highest. A backfill covers hours while minutes pass, so
/// "fit" shows that much event time rather than the processing time's span.
pub fn watermark_spread(data: &TimelineData) -> Option<i64> {
    let all = || data.operators.iter().chain(&data.splits).flat_map(|s| s.points.iter().map(|p| p.1)).filter(|&w| real(w));
    Some(all().max()?.saturating_sub(all().min()?)).filter(|&s| s > 0)
}

/// The window before (`dir` < 0) or after `w0` (a window [`window_at`] gives): one size on for
/// tumbling windows, one slide for sliding ones, one step for cumulating ones. The timeline's
/// ← / → walk the bands with it; `None` for sessions (no fixed bounds) or past `i64`'s range.
pub fn window_beside(w: &WindowSpec, (start, end): (i64, i64), dir: i64) -> Option<(i64, i64)> {
    let (anchor, stride) = match *w {
        WindowSpec::Tumbling { size_ms, .. } => (start, size_ms),
        WindowSpec::Sliding { slide_ms, .. } => (start, slide_ms),
        WindowSpec::Cumulate { step_ms, .. } => (end - 1, step_ms),
        WindowSpec::Session { .. } => return None,
    };
    let e = anchor.checked_add(stride.checked_mul(dir.signum())?)?;
    within_range(w, e)
}

/// [`window_at`] where its window's end fits in `i64` (a far-future timestamp's does not).
fn within_range(w: &WindowSpec, e: i64) -> Option<(i64, i64)> {
    let longest = match *w {
        WindowSpec::Tumbling { size_ms, .. } | WindowSpec::Sliding { size_ms, .. } => size_ms,
        WindowSpec::Cumulate { max_size_ms, .. } => max_size_ms,
        WindowSpec::Session { .. } => return None,
    };
    e.checked_add(longest)?;
    window_at(w, e)
}

/// The first window the watermark `wm` has not fired: the one with the earliest end past `wm`
/// (Flink fires `[start, end)` once the watermark reaches `end - 1`). For sliding windows that
/// is the earliest of those holding `wm + 1`, not the latest [`window_at`] gives.
pub fn window_waited_for(w: &WindowSpec, wm: i64) -> Option<(i64, i64)> {
    let e = wm.checked_add(1)?;
    let latest = within_range(w, e)?;
    match *w {
        WindowSpec::Sliding { size_ms, slide_ms, offset_ms } => {
            let low = e.checked_sub(size_ms - 1)?;
            // The first slide start at or after `low`.
            let start = window_start_with_offset(EventTime(low.checked_add(slide_ms - 1)?), offset_ms, slide_ms).ms();
            Some((start, start + size_ms))
        }
        _ => Some(latest),
    }
}

/// Where a pointer at `(x, y)` (pixels from the plot's top left) is in the view: processing
/// time and event time, or `None` outside the plot area.
pub fn point_at(v: View, w: f64, h: f64, x: f64, y: f64) -> Option<(i64, i64)> {
    if x < LEFT || x > w - RIGHT || y < TOP || y > TOP + h {
        return None;
    }
    let t = v.x0 + ((x - LEFT) / (w - LEFT - RIGHT).max(1.0) * (v.x1 - v.x0) as f64) as i64;
    let e = v.y0 + ((TOP + h - y) / h * (v.y1 - v.y0) as f64) as i64;
    Some((t, e))
}

/// The whole picture for one frame.
pub fn plot(data: &TimelineData, f: &Frame) -> Plot {
    let sc = Scale { v: f.view, w: f.width, h: f.plot_h };
    let mut items = Vec::with_capacity(256);
    bands(&mut items, &sc, f);
    super::timeline_job::job_items(&mut items, &data.job, f.view, f.width, data.last, data.start);
    grid(&mut items, &sc, data);
    let (ya, _) = sc.y(f.view.x0);
    let (yb, _) = sc.y(f.view.x1);
    items.push(Item::Diagonal { from: (LEFT, ya), to: (sc.x(f.view.x1), yb) });
    lines(&mut items, &sc, data, f);
    off_scale(&mut items, &sc, data, f);
    firings(&mut items, &sc, data);
    late_records(&mut items, &sc, data);
    let lanes = idle_lanes(&mut items, &sc, data, f.max_lanes);
    let height = TOP + f.plot_h + AXIS_H + lanes as f64 * LANE_H + 4.0;
    Plot { items, width: f.width, height, plot_h: f.plot_h, view: f.view }
}

/// Every other window's band (and the picked one), when windows are at least 5 px tall.
fn bands(items: &mut Vec<Item>, sc: &Scale, f: &Frame) {
    let Some((size, offset)) = band_of(&f.window) else { return };
    let v = sc.v;
    if (size as f64 / (v.y1 - v.y0).max(1) as f64 * sc.h) < 5.0 {
        return;
    }
    let mut k = (v.y0 - offset).div_euclid(size);
    while k * size + offset < v.y1 {
        let a = k * size + offset;
        let picked = f.picked == Some((a, a + size));
        if k % 2 == 0 || picked {
            let (ya, _) = sc.y(a.max(v.y0));
            let (yb, _) = sc.y((a + size).min(v.y1));
            items.push(Item::Band { y: yb, h: (ya - yb).max(0.0), picked });
        }
        k += 1;
    }
}

fn grid(items: &mut Vec<Item>, sc: &Scale, data: &TimelineData) {
    let v = sc.v;
    // Fewer time ticks on a narrow plot (a label is ~60 px wide).
    let step = nice_step((v.x1 - v.x0) * if sc.w < 560.0 { 2 } else { 1 });
    for (t, label) in proc_ticks(v.x0, v.x1, step, data.start) {
        items.push(Item::GridX { x: sc.x(t), label });
    }
    let ticks = event_ticks(v.y0, v.y1, nice_step(v.y1 - v.y0), data.last);
    if let Some((e, date)) = first_tick_date(&ticks) {
        items.push(Item::TickDate { y: sc.y(e).0, date });
    }
    for (e, label) in ticks {
        items.push(Item::GridY { y: sc.y(e).0, label });
    }
    let bottom = TOP + sc.h;
    // Centred under the plot; on a phone under the whole canvas, which its width needs.
    let (x, title) = if sc.w < 560.0 { (sc.w / 2.0, PROC_AXIS_TITLE_NARROW) } else { ((LEFT + sc.w - RIGHT) / 2.0, PROC_AXIS_TITLE) };
    items.push(Item::AxisTitle { x, y: bottom + AXIS_H - 4.0, text: title, vertical: false });
    items.push(Item::AxisTitle { x: 9.0, y: TOP + sc.h / 2.0, text: EVENT_AXIS_TITLE, vertical: true });
}

/// Split lines thin, window subtask lines bold, and the culprit split last: it runs along the
/// watermark it holds, and on top it shows as an orange core inside the blue line.
fn lines(items: &mut Vec<Item>, sc: &Scale, data: &TimelineData, f: &Frame) {
    let now = data.last;
    let mut drawn: Vec<usize> = (0..data.splits.len()).collect();
    if drawn.len() > MAX_SPLIT_LINES {
        drawn.sort_by_key(|&i| (f.culprit != Some(i as u32), data.splits[i].at(now)));
        drawn.truncate(MAX_SPLIT_LINES);
    }
    let mut line = |label: String, kind: LineKind, s: &Series| {
        let points = series_points(s, sc, now);
        if !points.is_empty() {
            items.push(Item::Line { kind, label, points });
        }
    };
    for &i in drawn.iter().filter(|&&i| f.culprit != Some(i as u32)) {
        line(data.split_name(i), LineKind::Split, &data.splits[i]);
    }
    // The focused two-input operator's inputs, under its own line: the lower one is what holds it.
    for (k, s) in data.inputs.get(f.focus_op as usize).into_iter().flatten().enumerate() {
        let topic = data.input_names.get(k).map_or(String::new(), |t| format!(" ({t})"));
        line(format!("input {} watermark{topic} of subtask {}", k + 1, f.focus_op), LineKind::Input(k as u8), s);
    }
    for (i, s) in data.operators.iter().enumerate() {
        let kind = if i as u32 == f.focus_op { LineKind::OperatorFocus } else { LineKind::Operator };
        line(format!("window subtask {i}"), kind, s);
    }
    if let Some(c) = f.culprit.filter(|&c| drawn.contains(&(c as usize))) {
        line(data.split_name(c as usize), LineKind::Culprit, &data.splits[c as usize]);
    }
}

/// A note at the right edge when the focused window subtask's watermark is off the scale.
fn off_scale(items: &mut Vec<Item>, sc: &Scale, data: &TimelineData, f: &Frame) {
    let Some(s) = data.operators.get(f.focus_op as usize) else { return };
    let now = data.last;
    let wv = s.at(now);
    let (y, clamped) = sc.y(wv);
    if !clamped {
        return;
    }
    let up = y <= TOP + 1.0;
    let arrow = match wv {
        MIN_WM => "▼",
        MAX_WM => "▲",
        _ if up => "▲",
        _ => "▼",
    };
    let label = format!("{arrow} {}", wm_human(wv, now));
    let y = if up { TOP + 12.0 } else { TOP + sc.h - 5.0 };
    items.push(Item::OffScale { y, text: format!("win {}: {label}", f.focus_op) });
}

/// Firings: on time or late re-firing, one mark per pixel cell.
fn firings(items: &mut Vec<Item>, sc: &Scale, data: &TimelineData) {
    let lo = data.firings.partition_point(|f| f.0 < sc.v.x0);
    let mut seen = std::collections::BTreeSet::new();
    for &(t, wend, _sub, late) in &data.firings[lo..] {
        if t > sc.v.x1 {
            break;
        }
        let (x, y) = (sc.x(t), sc.y(wend).0);
        if seen.insert((x as i64, y as i64 / 3, late)) {
            items.push(if late { Item::LateRefire { x, y } } else { Item::Fired { x, y } });
        }
    }
}

/// Late records: dropped or side output, one mark per pixel cell.
fn late_records(items: &mut Vec<Item>, sc: &Scale, data: &TimelineData) {
    let lo = data.late.partition_point(|l| l.0 < sc.v.x0);
    let mut seen = std::collections::BTreeSet::new();
    for &(t, ts, side) in &data.late[lo..] {
        if t > sc.v.x1 {
            break;
        }
        let (x, y) = (sc.x(t), sc.y(ts).0);
        if seen.insert((x as i64 / 2, y as i64 / 3, side)) {
            items.push(if side { Item::SideOutput { x, y } } else { Item::Dropped { x, y } });
        }
    }
}

/// Idle lanes under the plot, window subtasks first; returns how many.
fn idle_lanes(items: &mut Vec<Item>, sc: &Scale, data: &TimelineData, max_lanes: usize) -> usize {
    let mut lanes: Vec<(String, &Series)> =
        data.operators.iter().enumerate().filter(|(_, s)| s.ever_idle()).map(|(i, s)| (format!("win {i}"), s)).collect();
    lanes.extend(data.splits.iter().enumerate().filter(|(_, s)| s.ever_idle()).map(|(i, s)| {
        // `p11`, or the topic's own name (`rates-0`) in a job with two topics.
        let name = data.split_names.get(i).filter(|n| n.parse::<u32>().is_err()).cloned().unwrap_or_else(|| format!("p{i}"));
        (name, s)
    }));
    lanes.truncate(max_lanes);
    let lane_top = TOP + sc.h + AXIS_H;
    for (k, (name, s)) in lanes.iter().enumerate() {
        let y = lane_top + k as f64 * LANE_H;
        items.push(Item::Lane { y, label: format!("{name} idle") });
        for &(a, b) in &s.idle {
            let b = b.unwrap_or(data.last);
            if b < sc.v.x0 || a > sc.v.x1 {
                continue;
            }
            let xa = sc.x(a.max(sc.v.x0));
            let xb = sc.x(b.min(sc.v.x1));
            items.push(Item::IdleSpan { x: xa, y, w: (xb - xa).max(1.5) });
        }
    }
    lanes.len()
}

impl Plot {
    /// How many of each kind of item, as `name=count` pairs: the canvas carries this as
    /// `data-marks`, for tests and for anyone checking what is drawn.
    pub fn census(&self) -> String {
        let mut n = [0usize; 11];
        for it in &self.items {
            let k = match it {
                Item::Band { picked: false, .. } => 0,
                Item::Band { picked: true, .. } => 1,
                Item::Line { kind: LineKind::Split | LineKind::Culprit, .. } => 2,
                Item::Line { kind: LineKind::Input(_), .. } => 10,
                Item::Line { .. } => 3,
                Item::Fired { .. } => 4,
                Item::LateRefire { .. } => 5,
                Item::Dropped { .. } => 6,
                Item::SideOutput { .. } => 7,
                Item::Lane { .. } => 8,
                Item::IdleSpan { .. } => 9,
                _ => continue,
            };
            n[k] += 1;
        }
        let names = ["bands", "picked", "splits", "operators", "fired", "refired", "dropped", "side", "lanes", "idle", "inputs"];
        names.iter().zip(n).map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" ")
    }

    /// The line nearest to `(x, y)` within 4 px, for the hover label.
    pub fn line_near(&self, x: f64, y: f64) -> Option<&str> {
        let mut best: Option<(f64, &str)> = None;
        for it in &self.items {
            let Item::Line { label, points, .. } = it else { continue };
            let d = points.windows(2).map(|s| segment_distance((x, y), s[0], s[1])).fold(f64::INFINITY, f64::min);
            if d <= 4.0 && best.is_none_or(|(bd, _)| d <= bd) {
                best = Some((d, label));
            }
        }
        best.map(|(_, l)| l)
    }
}

/// Distance from `p` to the segment `a`–`b` (the lines are axis-parallel steps, so this is exact
/// and cheap).
fn segment_distance(p: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    let cx = p.0.clamp(a.0.min(b.0), a.0.max(b.0));
    let cy = p.1.clamp(a.1.min(b.1), a.1.max(b.1));
    ((p.0 - cx).powi(2) + (p.1 - cy).powi(2)).sqrt()
}

#[cfg(test)]
mod tests;
