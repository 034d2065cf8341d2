//! The job's run on the timeline: the periods it was down (`RESTARTING`, or `FAILED`) shaded
//! across the plot, a tick on the time axis at each completed checkpoint, and a ✕ at each
//! failure and a ↻ at each restart with what happened in the tooltip ("restored checkpoint
//! 11"). Added to the timeline's display list (`timeline_plot`); the canvas paints the shading
//! and the ticks, `timeline_marks` puts the ✕ and ↻ on the page as elements with a title.
//! Pure (no DOM), tested natively.

use super::format::elapsed;
use super::job_marks::{JobEvent, JobMarks};
use super::timeline_plot::{Item, Plot, View, LEFT, RIGHT};

/// Glyphs of one kind closer than this (px) fold into one.
const FOLD_PX: f64 = 12.0;

fn x_of(v: View, width: f64, t: i64) -> f64 {
    LEFT + (t - v.x0) as f64 / (v.x1 - v.x0).max(1) as f64 * (width - LEFT - RIGHT)
}

/// Adds the job's marks within the view to `items`: `now` closes a period that is still down,
/// `start` is the job's start (the tooltips' times are relative to it).
pub fn job_items(items: &mut Vec<Item>, marks: &JobMarks, v: View, width: f64, now: i64, start: i64) {
    for (a, b) in marks.down_spans(now) {
        if b < v.x0 || a > v.x1 {
            continue;
        }
        let (xa, xb) = (x_of(v, width, a.max(v.x0)), x_of(v, width, b.min(v.x1)));
        items.push(Item::JobDown { x: xa, w: (xb - xa).max(1.5) });
    }
    let lo = marks.checkpoints.partition_point(|c| c.0 < v.x0);
    let mut last = f64::NEG_INFINITY;
    for &(t, _) in marks.checkpoints[lo..].iter().take_while(|c| c.0 <= v.x1) {
        let x = x_of(v, width, t);
        if x - last >= 2.0 {
            items.push(Item::Checkpoint { x });
            last = x;
        }
    }
    // The newest glyph of each kind, still open for folding.
    let mut open: [Option<usize>; 2] = [None, None];
    for e in marks.events.iter().filter(|e| (v.x0..=v.x1).contains(&e.at())) {
        let restart = matches!(e, JobEvent::Restarted { .. });
        let x = x_of(v, width, e.at());
        let label = format!("{} at {}", e.describe(), elapsed(e.at(), start));
        match open[usize::from(restart)].and_then(|i| match &mut items[i] {
            Item::JobEvent { x: gx, n, .. } if x - *gx < FOLD_PX => Some(n),
            _ => None,
        }) {
            Some(n) => *n += 1,
            None => {
                open[usize::from(restart)] = Some(items.len());
                items.push(Item::JobEvent { x, restart, label, n: 1 });
            }
        }
    }
}

/// A folded glyph's tooltip: its first event, and how many more it stands for.
pub fn glyph_title(label: &str, n: usize) -> String {
    if n > 1 {
        format!("{label} (+{} more within a few pixels: zoom in to see them apart)", n - 1)
    } else {
        label.to_string()
    }
}

/// How many of each job mark the plot has, as `name=count` pairs (the canvas's `data-job`).
pub fn job_census(p: &Plot) -> String {
    let (mut down, mut ckpt, mut fails, mut restarts) = (0, 0, 0, 0);
    for it in &p.items {
        match it {
            Item::JobDown { .. } => down += 1,
            Item::Checkpoint { .. } => ckpt += 1,
            Item::JobEvent { restart: false, n, .. } => fails += n,
            Item::JobEvent { restart: true, n, .. } => restarts += n,
            _ => {}
        }
    }
    format!("checkpoints={ckpt} failures={fails} restarts={restarts} down={down}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marks() -> JobMarks {
        let mut m = JobMarks::default();
        m.checkpoints = (1..=12).map(|k| (k * 10_000, k as u64)).collect();
        m.events = vec![
            JobEvent::Failed { at: 120_000, reason: "TaskManager 0 lost".into(), terminal: false },
            JobEvent::Restarted { at: 125_000, attempt: 2, checkpoint: Some(11) },
            JobEvent::Failed { at: 150_000, reason: "TaskManager 1 killed".into(), terminal: false },
        ];
        m
    }

    fn plot_of(m: &JobMarks, v: View) -> Plot {
        let mut items = Vec::new();
        job_items(&mut items, m, v, 900.0, 160_000, 0);
        Plot { items, width: 900.0, height: 300.0, plot_h: 260.0, view: v }
    }

    #[test]
    fn down_periods_checkpoints_failures_and_restarts() {
        let p = plot_of(&marks(), View { x0: 0, x1: 160_000, y0: 0, y1: 1 });
        assert_eq!(job_census(&p), "checkpoints=12 failures=2 restarts=1 down=2");
        let labels: Vec<&str> =
            p.items.iter().filter_map(|i| if let Item::JobEvent { label, .. } = i { Some(label.as_str()) } else { None }).collect();
        assert_eq!(labels[0], "✕ failure (the job restarts): TaskManager 0 lost at 00:02:00.000");
        assert_eq!(labels[1], "↻ restarted (attempt 2): restored checkpoint 11 at 00:02:05.000");
        // The second failure is still down at `now`: shaded up to it.
        let Some(Item::JobDown { x, w }) = p.items.get(1) else { panic!("{:?}", p.items) };
        assert!((x + w - (900.0 - RIGHT)).abs() < 0.01);
    }

    #[test]
    fn marks_outside_the_view_are_left_out_and_close_ones_fold() {
        let p = plot_of(&marks(), View { x0: 95_000, x1: 105_000, y0: 0, y1: 1 });
        assert_eq!(job_census(&p), "checkpoints=1 failures=0 restarts=0 down=0");
        let mut m = JobMarks::default();
        m.events = (0..4).map(|i| JobEvent::Failed { at: 1_000 + i * 10, reason: "x".into(), terminal: false }).collect();
        let p = plot_of(&m, View { x0: 0, x1: 1_000_000, y0: 0, y1: 1 });
        let glyphs: Vec<usize> = p.items.iter().filter_map(|i| if let Item::JobEvent { n, .. } = i { Some(*n) } else { None }).collect();
        assert_eq!(glyphs, [4]);
        assert!(glyph_title("✕ x", 4).contains("+3 more"));
    }
}
