//! The event-time lag chart as SVG markup: per window subtask, processing time minus its
//! watermark over the run (the engine's `lag_history` sawtooth), the alert threshold as a
//! dashed line, and a mark where a subtask first went over it. Pure (no DOM), so it compiles
//! and is tested natively; `lag_chart` puts it on the page.
//!
//! Why the sawtooth is folded into one vertical stroke per pixel column: a long run has
//! thousands of watermark changes per subtask, far more than the chart has pixels.

use super::format::{dur, elapsed};
use std::fmt::Write;

/// One subtask's lag: (processing time, lag ms) in time order. Before its first watermark
/// the lag is counted from the start of the job, as the alert counts it.
#[derive(Clone, Debug, PartialEq)]
pub struct LagSeries {
    pub subtask: u32,
    pub points: Vec<(i64, i64)>,
}

impl LagSeries {
    /// From the engine's history: `None` (no watermark yet) counts as the time since `start`.
    pub fn new(subtask: u32, history: &[(i64, Option<i64>)], start: i64) -> Self {
        LagSeries { subtask, points: history.iter().map(|&(t, l)| (t, l.unwrap_or(t - start))).collect() }
    }

    pub fn max(&self) -> i64 {
        self.points.iter().map(|p| p.1).max().unwrap_or(0)
    }
}

/// When the lag first goes over `threshold` after being at or under it (or from the start).
/// Between two points with different times the lag grows one ms per ms, so a crossing inside
/// such a stretch is placed exactly.
pub fn crossings(points: &[(i64, i64)], threshold: i64) -> Vec<i64> {
    let mut out = Vec::new();
    let mut prev: Option<(i64, i64)> = None;
    for &(t, l) in points {
        let was_over = prev.is_some_and(|(_, pl)| pl > threshold);
        if l > threshold && !was_over {
            out.push(match prev {
                Some((pt, pl)) if t > pt => (pt + threshold - pl + 1).clamp(pt, t),
                _ => t,
            });
        }
        prev = Some((t, l));
    }
    out
}

/// The points folded into `cols` columns over `t0..=t1`: (column, min lag, max lag).
pub fn columns(points: &[(i64, i64)], t0: i64, t1: i64, cols: usize) -> Vec<(usize, i64, i64)> {
    let span = (t1 - t0).max(1);
    let mut out: Vec<(usize, i64, i64)> = Vec::new();
    for &(t, l) in points {
        let c = usize::try_from((t - t0).clamp(0, span) * (cols.max(1) as i64 - 1) / span).unwrap_or(0);
        match out.last_mut() {
            Some(last) if last.0 == c => {
                last.1 = last.1.min(l);
                last.2 = last.2.max(l);
            }
            _ => out.push((c, l, l)),
        }
    }
    out
}

/// Chart geometry in CSS pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    pub width: f64,
    pub height: f64,
    /// Processing time across: the job's start and now.
    pub t0: i64,
    pub t1: i64,
}

const LEFT: f64 = 54.0;
const RIGHT: f64 = 8.0;
const TOP: f64 = 8.0;
const BOTTOM: f64 = 18.0;

impl Frame {
    fn plot_w(&self) -> f64 {
        (self.width - LEFT - RIGHT).max(10.0)
    }

    fn x_of_col(&self, c: usize) -> f64 {
        LEFT + c as f64
    }

    fn x_of(&self, t: i64) -> f64 {
        LEFT + (t - self.t0) as f64 / (self.t1 - self.t0).max(1) as f64 * self.plot_w()
    }
}

/// The whole chart: axes, one line per subtask (`focus` bold), the threshold and crossings.
pub fn chart_svg(f: &Frame, series: &[LagSeries], focus: Option<u32>, threshold: Option<i64>) -> String {
    let top = series.iter().map(LagSeries::max).chain(threshold).max().unwrap_or(0).max(1_000);
    let y_max = top + top / 10;
    let plot_h = f.height - TOP - BOTTOM;
    let y_of = |l: i64| TOP + plot_h * (1.0 - l as f64 / y_max as f64);
    let mut out = String::with_capacity(4096);
    axes(&mut out, f, y_max, &y_of);
    let cols = f.plot_w().max(1.0) as usize;
    // The focused subtask last, on top.
    let mut order: Vec<&LagSeries> = series.iter().collect();
    order.sort_by_key(|s| Some(s.subtask) == focus);
    for s in order {
        let class = if Some(s.subtask) == focus { "lag-line focus" } else { "lag-line" };
        let mut d = String::new();
        for (i, (c, lo, hi)) in columns(&s.points, f.t0, f.t1, cols).into_iter().enumerate() {
            let x = f.x_of_col(c);
            let _ = write!(d, "{}{x:.1},{:.1}V{:.1}", if i == 0 { "M" } else { "L" }, y_of(lo), y_of(hi));
        }
        let _ =
            write!(out, r#"<path class="{class}" data-subtask="{}" d="{d}"><title>window subtask {}</title></path>"#, s.subtask, s.subtask);
    }
    if let Some(thr) = threshold {
        threshold_marks(&mut out, f, series, thr, &y_of);
    }
    out
}

fn axes(out: &mut String, f: &Frame, y_max: i64, y_of: &dyn Fn(i64) -> f64) {
    let (x0, x1) = (LEFT, f.width - RIGHT);
    let yb = y_of(0);
    let _ = write!(out, r#"<path class="lag-axis" d="M{x0:.1},{TOP:.1}V{yb:.1}H{x1:.1}"/>"#);
    let _ = write!(out, r#"<text class="lag-tick" x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#, x0 - 4.0, TOP + 9.0, dur(y_max));
    let _ = write!(out, r#"<text class="lag-tick" x="{:.1}" y="{yb:.1}" text-anchor="end">0</text>"#, x0 - 4.0);
    let ty = f.height - 4.0;
    let _ = write!(out, r#"<text class="lag-tick" x="{x0:.1}" y="{ty:.1}">{}</text>"#, elapsed(f.t0, f.t0));
    let _ = write!(out, r#"<text class="lag-tick" x="{x1:.1}" y="{ty:.1}" text-anchor="end">{}</text>"#, elapsed(f.t1, f.t0));
}

/// The threshold as a dashed line and a mark where each subtask crossed it.
fn threshold_marks(out: &mut String, f: &Frame, series: &[LagSeries], thr: i64, y_of: &dyn Fn(i64) -> f64) {
    let y = y_of(thr);
    let _ = write!(out, r#"<path class="lag-threshold" d="M{LEFT:.1},{y:.1}H{:.1}"/>"#, f.width - RIGHT);
    let _ = write!(
        out,
        r#"<text class="lag-tick thr" x="{:.1}" y="{:.1}" text-anchor="end">alert {}</text>"#,
        f.width - RIGHT,
        y - 3.0,
        dur(thr)
    );
    for s in series {
        for t in crossings(&s.points, thr) {
            let x = f.x_of(t);
            let _ = write!(
                out,
                r#"<path class="lag-cross" data-subtask="{}" d="M{x:.1},{:.1}l-4,-7h8z"><title>window subtask {} over {} at {}</title></path>"#,
                s.subtask,
                y,
                s.subtask,
                dur(thr),
                elapsed(t, f.t0)
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crossing_inside_a_stretch_is_exact() {
        // Watermark moves at 10 s (lag 4 s → 1 s), then stands still until 20 s (lag 11 s).
        let pts = [(0, 0), (10_000, 4_000), (10_000, 1_000), (20_000, 11_000)];
        assert_eq!(crossings(&pts, 5_000), vec![14_001]);
        assert_eq!(crossings(&pts, 20_000), Vec::<i64>::new());
    }

    #[test]
    fn a_jump_over_the_threshold_is_marked_once_until_it_comes_back() {
        let pts = [(0, 6_000), (1_000, 7_000), (1_000, 100), (10_000, 9_100)];
        assert_eq!(crossings(&pts, 5_000), vec![0, 5_901]);
    }

    #[test]
    fn columns_keep_the_extremes() {
        let pts = [(0, 5), (1, 1), (2, 9), (100, 3)];
        assert_eq!(columns(&pts, 0, 100, 11), vec![(0, 1, 9), (10, 3, 3)]);
    }

    #[test]
    fn no_watermark_counts_from_the_start() {
        let s = LagSeries::new(0, &[(1_000, None), (2_000, Some(500))], 0);
        assert_eq!(s.points, vec![(1_000, 1_000), (2_000, 500)]);
        assert!(chart_svg(&Frame { width: 300.0, height: 120.0, t0: 0, t1: 2_000 }, &[s], Some(0), Some(800)).contains("lag-cross"));
    }
}
