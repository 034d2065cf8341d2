//! The state-size chart as SVG markup: the keyed state's estimated bytes per TaskManager (or
//! per keyed subtask) over processing time, from the engine's `state_size_history()`, with the
//! TaskManager memory as a labelled line, the periods the job was down shaded, a ✕ at each
//! failure and a ↻ at each restart (their reasons in the tooltips), and the checkpoints as
//! ticks on the time axis. Pure (no DOM), so it compiles and is tested natively; `state_chart`
//! puts it on the page.

use super::axis_ticks::{nice_step, proc_ticks};
use super::format::elapsed;
use super::job_marks::{JobEvent, JobMarks};
use crate::engine::job_run::StateSizeHistoryView;
use std::fmt::Write;

const KIB: u64 = 1024;

/// Bytes in binary units (the engine's one format, re-exported for the chart's callers).
pub use crate::engine::task_manager::format_bytes as bytes;

/// A tick step in bytes for an axis up to `top`: 1, 2 or 5 × a power of ten × the largest
/// binary unit (B, KiB, MiB, GiB …) not above `top`, giving at most 6 ticks.
pub fn byte_step(top: u64) -> u64 {
    let mut unit = 1u64;
    while unit < KIB.pow(5) && top / unit >= KIB {
        unit *= KIB;
    }
    [1u64, 2, 5, 10, 20, 50, 100, 200, 500].iter().map(|&m| unit * m).find(|&s| top / s <= 6).unwrap_or(unit * 1000)
}

/// What the chart shows per line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum By {
    TaskManager,
    KeyedSubtask,
}

/// One line: its name and (processing time, bytes) in time order.
#[derive(Clone, Debug, PartialEq)]
pub struct StateSeries {
    pub name: String,
    pub points: Vec<(i64, u64)>,
}

impl StateSeries {
    pub fn peak(&self) -> u64 {
        self.points.iter().map(|p| p.1).max().unwrap_or(0)
    }
}

/// The lines of the history: per TaskManager (the sum of its keyed subtasks, as the memory
/// check sees it) or per keyed subtask.
pub fn series(h: &StateSizeHistoryView, by: By, keyed_noun: &str) -> Vec<StateSeries> {
    let bpe = h.bytes_per_entry;
    match by {
        By::KeyedSubtask => (0..h.task_manager_of.len())
            .map(|i| StateSeries {
                name: format!("{keyed_noun} subtask {i}"),
                points: h.samples.iter().map(|s| (s.time.ms(), s.entries.get(i).copied().unwrap_or(0).saturating_mul(bpe))).collect(),
            })
            .collect(),
        By::TaskManager => {
            let tms = h.task_manager_of.iter().max().map_or(0, |&m| m + 1);
            (0..tms)
                .map(|tm| {
                    let mine: Vec<usize> = (0..h.task_manager_of.len()).filter(|&i| h.task_manager_of[i] == tm).collect();
                    let points = h
                        .samples
                        .iter()
                        .map(|s| {
                            (s.time.ms(), mine.iter().map(|&i| s.entries.get(i).copied().unwrap_or(0)).sum::<u64>().saturating_mul(bpe))
                        })
                        .collect();
                    StateSeries { name: format!("TaskManager {tm}"), points }
                })
                .collect()
        }
    }
}

/// Chart geometry in CSS pixels and the processing time across (the job's start and now).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    pub width: f64,
    pub height: f64,
    pub t0: i64,
    pub t1: i64,
}

pub const LEFT: f64 = 64.0;
const RIGHT: f64 = 12.0;
/// Room above the plot for the ✕ and ↻ rows.
pub const TOP: f64 = 30.0;
const BOTTOM: f64 = 20.0;

impl Frame {
    fn plot_w(&self) -> f64 {
        (self.width - LEFT - RIGHT).max(10.0)
    }

    fn x_of(&self, t: i64) -> f64 {
        LEFT + (t - self.t0).clamp(0, (self.t1 - self.t0).max(1)) as f64 / (self.t1 - self.t0).max(1) as f64 * self.plot_w()
    }
}

/// The y scale: 0 at the bottom, `top` bytes at the plot's top.
struct Y {
    top: u64,
    plot_h: f64,
}

impl Y {
    fn of(&self, b: u64) -> f64 {
        TOP + self.plot_h * (1.0 - b.min(self.top) as f64 / self.top.max(1) as f64)
    }
}

/// The whole chart (the `<svg>`'s content).
pub fn chart_svg(f: &Frame, lines: &[StateSeries], limit: Option<u64>, marks: &JobMarks) -> String {
    let peak = lines.iter().map(StateSeries::peak).max().unwrap_or(0);
    let top = peak.max(limit.unwrap_or(0)).max(KIB);
    let y = Y { top: top + top / 8, plot_h: f.height - TOP - BOTTOM };
    let mut out = String::with_capacity(8192);
    down_spans(&mut out, f, marks);
    axes(&mut out, f, &y);
    for (k, s) in lines.iter().enumerate() {
        line(&mut out, f, &y, k, s);
    }
    if let Some(l) = limit {
        let yl = y.of(l);
        let _ = write!(out, r#"<path class="st-limit" d="M{LEFT:.1},{yl:.1}H{:.1}"/>"#, f.width - RIGHT);
        let _ =
            write!(out, r#"<text class="st-tick lim" x="{:.1}" y="{:.1}">TaskManager memory {}</text>"#, LEFT + 6.0, yl - 4.0, bytes(l));
    }
    checkpoint_ticks(&mut out, f, &y, marks);
    event_marks(&mut out, f, &y, marks);
    out
}

fn axes(out: &mut String, f: &Frame, y: &Y) {
    let (x0, x1) = (LEFT, f.width - RIGHT);
    let yb = y.of(0);
    let step = byte_step(y.top);
    let mut b = step;
    let mut grid = String::new();
    let _ = write!(out, r#"<text class="st-tick" x="{:.1}" y="{:.1}" text-anchor="end">0 B</text>"#, x0 - 5.0, yb + 3.5);
    while b < y.top {
        let yy = y.of(b);
        let _ = write!(grid, "M{x0:.1},{yy:.1}H{x1:.1}");
        let _ = write!(out, r#"<text class="st-tick" x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#, x0 - 5.0, yy + 3.5, bytes(b));
        b = b.saturating_add(step);
    }
    let _ = write!(out, r#"<path class="st-grid" d="{grid}"/>"#);
    let _ = write!(out, r#"<path class="st-axis" d="M{x0:.1},{TOP:.1}V{yb:.1}H{x1:.1}"/>"#);
    let span = f.t1 - f.t0;
    let tstep = nice_step(span * if f.width < 560.0 { 2 } else { 1 });
    let ty = f.height - 5.0;
    for (t, label) in proc_ticks(f.t0, f.t1, tstep, f.t0) {
        let x = f.x_of(t);
        let _ = write!(out, r#"<text class="st-tick" x="{x:.1}" y="{ty:.1}" text-anchor="middle">{label}</text>"#);
    }
}

/// One series as a path folded to at most four vertices per pixel column (first, min, max,
/// last), so a long history stays small and a failure's drop to zero stays vertical.
fn line(out: &mut String, f: &Frame, y: &Y, k: usize, s: &StateSeries) {
    let mut d = String::new();
    let mut col: Option<(i64, u64, u64, u64, u64)> = None; // (column, first, min, max, last)
                                                           // A step line: the state holds its sampled value until the next sample (a restore jumps).
    let flush = |d: &mut String, c: (i64, u64, u64, u64, u64)| {
        let x = LEFT + c.0 as f64;
        if d.is_empty() {
            let _ = write!(d, "M{x:.1},{:.1}", y.of(c.1));
        } else {
            let _ = write!(d, "H{x:.1}V{:.1}", y.of(c.1));
        }
        if c.2 != c.3 {
            let _ = write!(d, "V{:.1}V{:.1}", y.of(c.2), y.of(c.3));
        }
        let _ = write!(d, "V{:.1}", y.of(c.4));
    };
    for &(t, b) in &s.points {
        let c = (f.x_of(t) - LEFT).round() as i64;
        col = match col {
            Some(cur) if cur.0 == c => Some((c, cur.1, cur.2.min(b), cur.3.max(b), b)),
            Some(cur) => {
                flush(&mut d, cur);
                Some((c, b, b, b, b))
            }
            None => Some((c, b, b, b, b)),
        };
    }
    if let Some(cur) = col {
        flush(&mut d, cur);
        let _ = write!(d, "H{:.1}", f.x_of(f.t1));
    }
    let _ = write!(out, r#"<path class="st-line s{}" d="{d}"><title>{}</title></path>"#, k % 8, s.name);
}

/// The periods the job was down, shaded across the plot.
fn down_spans(out: &mut String, f: &Frame, marks: &JobMarks) {
    let h = f.height - TOP - BOTTOM;
    for (a, b) in marks.down_spans(f.t1) {
        if b < f.t0 || a > f.t1 {
            continue;
        }
        let (xa, xb) = (f.x_of(a), f.x_of(b));
        let _ = write!(out, r#"<rect class="st-down" x="{xa:.1}" y="{TOP:.1}" width="{:.1}" height="{h:.1}"/>"#, (xb - xa).max(1.0));
    }
}

/// The completed checkpoints as ticks under the time axis (one per pixel column).
fn checkpoint_ticks(out: &mut String, f: &Frame, y: &Y, marks: &JobMarks) {
    let yb = y.of(0);
    let mut d = String::new();
    let mut last = f64::NEG_INFINITY;
    for &(t, _) in &marks.checkpoints {
        let x = f.x_of(t);
        if t >= f.t0 && t <= f.t1 && x - last >= 1.0 {
            let _ = write!(d, "M{x:.1},{:.1}v5", yb + 1.0);
            last = x;
        }
    }
    if !d.is_empty() {
        let n = marks.checkpoints.len();
        let _ = write!(out, r#"<path class="st-ckpt" d="{d}"><title>{n} checkpoints completed</title></path>"#);
    }
}

/// A dashed line and a ✕ (top row) at each failure, a ↻ (second row) at each restart; glyphs
/// closer than 10 px to the last one drawn of their kind are folded into it ("+N more").
fn event_marks(out: &mut String, f: &Frame, y: &Y, marks: &JobMarks) {
    let yb = y.of(0);
    let mut lines = String::new();
    // Per kind: (x, title, folded count) of the glyph being built.
    let mut pending: [Option<(f64, String, usize)>; 2] = [None, None];
    let mut glyphs: Vec<(usize, f64, String, usize)> = Vec::new();
    for e in marks.events.iter().filter(|e| e.at() >= f.t0 && e.at() <= f.t1) {
        let x = f.x_of(e.at());
        let kind = usize::from(matches!(e, JobEvent::Restarted { .. }));
        if kind == 0 {
            let _ = write!(lines, "M{x:.1},{TOP:.1}V{yb:.1}");
        }
        let text = format!("{} at {}", e.describe(), elapsed(e.at(), f.t0));
        match &mut pending[kind] {
            Some(p) if x - p.0 < 10.0 => p.2 += 1,
            slot => {
                if let Some((px, pt, n)) = slot.take() {
                    glyphs.push((kind, px, pt, n));
                }
                *slot = Some((x, text, 0));
            }
        }
    }
    for (kind, p) in pending.into_iter().enumerate() {
        if let Some((x, t, n)) = p {
            glyphs.push((kind, x, t, n));
        }
    }
    if !lines.is_empty() {
        let _ = write!(out, r#"<path class="st-fail-line" d="{lines}"/>"#);
    }
    for (kind, x, title, more) in glyphs {
        let (class, glyph, gy) = if kind == 0 { ("st-fail", "✕", 12.0) } else { ("st-restart", "↻", 25.0) };
        let more = if more > 0 { format!(" (+{more} more within a few pixels)") } else { String::new() };
        let _ = write!(
            out,
            r#"<text class="{class}" x="{x:.1}" y="{gy:.1}" text-anchor="middle">{glyph}<title>{}{more}</title></text>"#,
            escape(&title)
        );
    }
}

/// Text for SVG markup.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::state_size::StateSample;
    use crate::engine::time::ProcTime;

    fn history() -> StateSizeHistoryView {
        let s = |t: i64, e: [u64; 3]| StateSample { time: ProcTime(t), entries: e.to_vec() };
        StateSizeHistoryView {
            interval_ms: 1000,
            bytes_per_entry: 200,
            limit_bytes: Some(4 << 30),
            task_manager_of: vec![0, 1, 0],
            samples: vec![s(0, [0, 0, 0]), s(1_000, [10, 20, 30]), s(2_000, [10_000_000, 1, 11_500_000]), s(2_000, [0, 0, 0])],
        }
    }

    #[test]
    fn byte_steps_are_round_and_few() {
        assert_eq!(byte_step(4 << 30), 1 << 30);
        assert_eq!(byte_step((45 << 30) / 10), 1 << 30);
        assert_eq!(byte_step(10 << 20), 2 << 20);
        for top in [1u64, 900, 5_000, 70 << 20, 9 << 30, 1 << 45] {
            let n = top / byte_step(top);
            assert!(n <= 6, "{top}: {n} ticks");
        }
    }

    #[test]
    fn a_task_manager_sums_its_keyed_subtasks() {
        let tm = series(&history(), By::TaskManager, "window");
        assert_eq!(tm.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["TaskManager 0", "TaskManager 1"]);
        assert_eq!(tm[0].points[1], (1_000, 40 * 200));
        assert_eq!(tm[0].peak(), 21_500_000 * 200);
        assert_eq!(tm[0].points.last(), Some(&(2_000, 0)), "the failure's drop to zero");
        let sub = series(&history(), By::KeyedSubtask, "window");
        assert_eq!(sub.len(), 3);
        assert_eq!(sub[1].points[1], (1_000, 4_000));
    }

    #[test]
    fn the_chart_has_the_memory_line_the_marks_and_the_drop() {
        let h = history();
        let mut marks = JobMarks::default();
        marks.checkpoints = vec![(1_000, 1)];
        marks.events = vec![
            JobEvent::Failed { at: 2_000, reason: "TaskManager 0 lost: <over>".into(), terminal: false },
            JobEvent::Restarted { at: 2_500, attempt: 2, checkpoint: Some(1) },
        ];
        let f = Frame { width: 600.0, height: 180.0, t0: 0, t1: 3_000 };
        let svg = chart_svg(&f, &series(&h, By::TaskManager, "window"), h.limit_bytes, &marks);
        assert!(svg.contains("TaskManager memory 4 GiB"), "{svg}");
        assert_eq!(svg.matches("class=\"st-line").count(), 2);
        assert_eq!(svg.matches("class=\"st-fail\"").count(), 1);
        assert!(svg.contains("restored checkpoint 1"));
        assert!(svg.contains("&lt;over&gt;"), "reasons are escaped");
        assert_eq!(svg.matches("class=\"st-down\"").count(), 1);
        assert!(svg.contains("class=\"st-ckpt\""));
        // The peak (4.0 GiB of TaskManager 0) is over the 4 GiB line: above it on the chart.
        let y = Y {
            top: {
                let t = 21_500_000u64 * 200;
                t + t / 8
            },
            plot_h: 130.0,
        };
        assert!(y.of(21_500_000 * 200) < y.of(4 << 30));
    }

    #[test]
    fn close_failures_fold_into_one_glyph() {
        let mut marks = JobMarks::default();
        marks.events = (0..5).map(|i| JobEvent::Failed { at: 1_000 + i, reason: "x".into(), terminal: false }).collect();
        let f = Frame { width: 600.0, height: 180.0, t0: 0, t1: 100_000 };
        let svg = chart_svg(&f, &[], None, &marks);
        assert_eq!(svg.matches("class=\"st-fail\"").count(), 1);
        assert!(svg.contains("+4 more"));
    }
}
