//! Event-time window assigners: tumbling (with offset), sliding and session (reference §8.2–8.5),
//! and Flink SQL's `CUMULATE` (§10.2), whose windows the engine keeps one by one.
//!
//! `CUMULATE(step, max_size, offset)` windows start at `getWindowStartWithOffset(ts, offset,
//! max_size)` and end every `step` up to `start + max_size`; a row belongs to every one that ends
//! after it. Flink's slicing runtime stores one shared accumulator per max-size window plus a
//! slice per step and merges them as each window fires; keeping each window's aggregate apart
//! emits the same rows (the slice rules are in `sql_window.rs`).

use crate::engine::input_twin::input_twin;
use crate::engine::time::EventTime;
use serde::Serialize;

input_twin! {
    /// The window definition.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
    #[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
    pub enum WindowSpec reads window_spec_in #[serde(rename = "$tag:type", rename_all = "snake_case", deny_unknown_fields)] {
        Tumbling {
            size_ms: i64,
            #[serde(default)]
            offset_ms: i64,
        },
        Sliding {
            size_ms: i64,
            slide_ms: i64,
            #[serde(default)]
            offset_ms: i64,
        },
        Session {
            gap_ms: i64,
        },
        /// `CUMULATE(TABLE t, DESCRIPTOR(ts), step, max_size [, offset])`; only with `"api": "sql"`.
        Cumulate {
            step_ms: i64,
            max_size_ms: i64,
            #[serde(default)]
            offset_ms: i64,
        },
    }
}

impl WindowSpec {
    /// Flink's constructor checks; the error names the offending field.
    pub fn validate(&self) -> Result<(), (&'static str, String)> {
        match *self {
            WindowSpec::Tumbling { size_ms, offset_ms } => {
                if size_ms <= 0 {
                    return Err(("size_ms", "must be > 0".into()));
                }
                if offset_ms.unsigned_abs() >= size_ms.unsigned_abs() {
                    return Err(("offset_ms", "abs(offset) < size is required".into()));
                }
            }
            WindowSpec::Sliding { size_ms, slide_ms, offset_ms } => {
                if size_ms <= 0 {
                    return Err(("size_ms", "must be > 0".into()));
                }
                if slide_ms <= 0 {
                    return Err(("slide_ms", "must be > 0".into()));
                }
                if offset_ms.unsigned_abs() >= slide_ms.unsigned_abs() {
                    return Err(("offset_ms", "abs(offset) < slide is required".into()));
                }
                if size_ms / slide_ms > crate::engine::limits::MAX_WINDOWS_PER_RECORD {
                    return Err((
                        "slide_ms",
                        format!(
                            "size / slide must be at most {}",
                            crate::engine::time::thousands(crate::engine::limits::MAX_WINDOWS_PER_RECORD as u64)
                        ),
                    ));
                }
            }
            WindowSpec::Session { gap_ms } => {
                if gap_ms <= 0 {
                    return Err(("gap_ms", "must be > 0".into()));
                }
            }
            WindowSpec::Cumulate { step_ms, max_size_ms, .. } => return validate_cumulate(step_ms, max_size_ms),
        }
        Ok(())
    }

    /// How far one window (or, for sessions, one element's gap) reaches: what bounds a continuous
    /// trigger's early firings per window.
    pub fn span_ms(&self) -> i64 {
        match *self {
            WindowSpec::Tumbling { size_ms, .. } | WindowSpec::Sliding { size_ms, .. } => size_ms,
            WindowSpec::Session { gap_ms } => gap_ms,
            WindowSpec::Cumulate { max_size_ms, .. } => max_size_ms,
        }
    }

    pub fn is_merging(&self) -> bool {
        matches!(self, WindowSpec::Session { .. })
    }

    /// Windows `[start, end)` for a timestamp, in Flink's order (sliding: latest start first).
    #[inline]
    pub fn assign(&self, ts: EventTime, out: &mut Vec<(EventTime, EventTime)>) {
        out.clear();
        match *self {
            WindowSpec::Tumbling { size_ms, offset_ms } => {
                let start = window_start_with_offset(ts, offset_ms % size_ms, size_ms);
                out.push((start, start.saturating_add(size_ms)));
            }
            WindowSpec::Sliding { size_ms, slide_ms, offset_ms } => {
                let mut start = window_start_with_offset(ts, offset_ms, slide_ms);
                // At most size / slide windows, as Flink's loop gives: near Long.MIN_VALUE a
                // start that wrapped must not make it count down through the whole i64 range.
                for _ in 0..(size_ms - 1) / slide_ms + 1 {
                    if start <= ts.saturating_sub(size_ms) {
                        break;
                    }
                    out.push((start, start.saturating_add(size_ms)));
                    start = match start.checked_sub(slide_ms) {
                        Some(s) => s,
                        None => break,
                    };
                }
            }
            WindowSpec::Session { gap_ms } => out.push((ts, ts.saturating_add(gap_ms))),
            WindowSpec::Cumulate { step_ms, max_size_ms, offset_ms } => {
                let start = window_start_with_offset(ts, offset_ms, max_size_ms);
                let last = start.saturating_add(max_size_ms);
                let mut end = window_start_with_offset(ts, offset_ms, step_ms).saturating_add(step_ms);
                while end <= last {
                    out.push((start, end));
                    match end.checked_add(step_ms) {
                        Some(e) if end < last => end = e,
                        _ => break,
                    }
                }
            }
        }
    }
}

/// `CumulativeSliceAssigner`'s constructor checks, plus the engine's bound on windows per row.
fn validate_cumulate(step_ms: i64, max_size_ms: i64) -> Result<(), (&'static str, String)> {
    if step_ms <= 0 {
        return Err(("step_ms", "must be > 0".into()));
    }
    if max_size_ms <= 0 {
        return Err(("max_size_ms", "must be > 0".into()));
    }
    if max_size_ms % step_ms != 0 {
        return Err((
            "max_size_ms",
            format!("must be an integral multiple of step_ms (max_size % step == 0), got {max_size_ms} and {step_ms}"),
        ));
    }
    if max_size_ms / step_ms > crate::engine::limits::MAX_WINDOWS_PER_RECORD {
        let most = crate::engine::time::thousands(crate::engine::limits::MAX_WINDOWS_PER_RECORD as u64);
        return Err(("step_ms", format!("max_size / step must be at most {most}")));
    }
    Ok(())
}

/// `TimeWindow.getWindowStartWithOffset`, the fixed formula (FLINK-26334): the floor.
#[inline]
/// Java's `long` arithmetic: within a window of `Long.MIN_VALUE` the start wraps, as in Flink.
pub fn window_start_with_offset(ts: EventTime, offset: i64, size: i64) -> EventTime {
    let r = ts.wrapping_sub(offset).ms() % size;
    if r < 0 {
        ts.wrapping_sub(r + size)
    } else {
        ts.wrapping_sub(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn windows(spec: WindowSpec, ts: i64) -> Vec<(i64, i64)> {
        let mut v = Vec::new();
        spec.assign(EventTime(ts), &mut v);
        v.into_iter().map(|(s, e)| (s.ms(), e.ms())).collect()
    }

    #[test]
    fn tumbling_v_asg_1_2_8() {
        let t = WindowSpec::Tumbling { size_ms: 5000, offset_ms: 0 };
        assert_eq!(windows(t, 0), vec![(0, 5000)]);
        assert_eq!(windows(t, 4999), vec![(0, 5000)]);
        assert_eq!(windows(t, 5000), vec![(5000, 10000)]);
        assert_eq!(windows(t, -1), vec![(-5000, 0)]);
        assert_eq!(windows(t, -5000), vec![(-5000, 0)]);
        assert_eq!(windows(t, -5001), vec![(-10000, -5000)]);
        let o = WindowSpec::Tumbling { size_ms: 5000, offset_ms: 100 };
        assert_eq!(windows(o, 100), vec![(100, 5100)]);
        assert_eq!(windows(o, 5099), vec![(100, 5100)]);
        assert_eq!(windows(o, 5100), vec![(5100, 10100)]);
        assert_eq!(windows(o, 99), vec![(-4900, 100)]);
        assert_eq!(windows(o, -4901), vec![(-9900, -4900)]);
        let n = WindowSpec::Tumbling { size_ms: 5000, offset_ms: -100 };
        assert_eq!(windows(n, 0), vec![(-100, 4900)]);
        assert_eq!(windows(n, 4899), vec![(-100, 4900)]);
        assert_eq!(windows(n, 4900), vec![(4900, 9900)]);
        assert_eq!(windows(n, -101), vec![(-5100, -100)]);
        let s = WindowSpec::Tumbling { size_ms: 5000, offset_ms: 1000 };
        assert_eq!(windows(s, 1000), vec![(1000, 6000)]);
        assert_eq!(windows(s, 5999), vec![(1000, 6000)]);
        assert_eq!(windows(s, 6000), vec![(6000, 11000)]);
    }

    #[test]
    fn sliding_v_asg_5_6() {
        let s = WindowSpec::Sliding { size_ms: 5000, slide_ms: 1000, offset_ms: 0 };
        assert_eq!(windows(s, 0), vec![(0, 5000), (-1000, 4000), (-2000, 3000), (-3000, 2000), (-4000, 1000)]);
        assert_eq!(windows(s, 4999).last(), Some(&(0, 5000)));
        assert_eq!(windows(s, 4999)[0], (4000, 9000));
        assert_eq!(windows(s, 5000).last(), Some(&(1000, 6000)));
        assert_eq!(windows(s, -1)[0], (-1000, 4000));
        assert_eq!(windows(s, -1).last(), Some(&(-5000, 0)));
        let o = WindowSpec::Sliding { size_ms: 5000, slide_ms: 1000, offset_ms: 100 };
        assert_eq!(windows(o, 100).last(), Some(&(-3900, 1100)));
        assert_eq!(windows(o, 100)[0], (100, 5100));
        let n = WindowSpec::Sliding { size_ms: 5000, slide_ms: 1000, offset_ms: -100 };
        assert_eq!(windows(n, 0).last(), Some(&(-4100, 900)));
        assert_eq!(windows(n, 4900)[0], (4900, 9900));
        let h = WindowSpec::Sliding { size_ms: 5000, slide_ms: 1000, offset_ms: 500 };
        assert_eq!(windows(h, 100).last(), Some(&(-4500, 500)));
        assert_eq!(windows(h, 5499).last(), Some(&(500, 5500)));
        let irr = WindowSpec::Sliding { size_ms: 3000, slide_ms: 2000, offset_ms: 0 };
        assert_eq!(windows(irr, 0), vec![(0, 3000), (-2000, 1000)]);
        assert_eq!(windows(irr, 999), vec![(0, 3000), (-2000, 1000)]);
        assert_eq!(windows(irr, 1000), vec![(0, 3000)]);
        assert_eq!(windows(irr, 2000), vec![(2000, 5000), (0, 3000)]);
        let gaps = WindowSpec::Sliding { size_ms: 1000, slide_ms: 3000, offset_ms: 0 };
        assert_eq!(windows(gaps, 999), vec![(0, 1000)]);
        assert!(windows(gaps, 1000).is_empty());
        assert!(windows(gaps, 2999).is_empty());
        assert_eq!(windows(gaps, 3000), vec![(3000, 4000)]);
    }

    #[test]
    fn invalid_parameters() {
        for spec in [
            WindowSpec::Sliding { size_ms: -2000, slide_ms: 1000, offset_ms: 0 },
            WindowSpec::Sliding { size_ms: 2000, slide_ms: -1000, offset_ms: 0 },
            WindowSpec::Sliding { size_ms: 20000, slide_ms: 10000, offset_ms: 11000 },
            WindowSpec::Sliding { size_ms: 20000, slide_ms: 10000, offset_ms: -11000 },
            WindowSpec::Tumbling { size_ms: 1000, offset_ms: 1000 },
            WindowSpec::Session { gap_ms: 0 },
        ] {
            assert!(spec.validate().is_err(), "{spec:?}");
        }
    }

    #[test]
    fn a_timestamp_near_long_min_value_gets_at_most_size_over_slide_windows() {
        let s = WindowSpec::Sliding { size_ms: 2000, slide_ms: 1000, offset_ms: 0 };
        for ts in [i64::MIN, i64::MIN + 5, i64::MIN + 999, i64::MIN + 1000, i64::MIN + 2500] {
            assert!(windows(s, ts).len() <= 2, "{ts}");
        }
        let t = WindowSpec::Tumbling { size_ms: 5000, offset_ms: 0 };
        assert_eq!(windows(t, i64::MIN + 3).len(), 1);
    }

    #[test]
    fn cumulate_windows_end_every_step_up_to_max_size() {
        let c = WindowSpec::Cumulate { step_ms: 1000, max_size_ms: 3000, offset_ms: 0 };
        assert_eq!(windows(c, 0), vec![(0, 1000), (0, 2000), (0, 3000)]);
        assert_eq!(windows(c, 999), vec![(0, 1000), (0, 2000), (0, 3000)]);
        assert_eq!(windows(c, 1000), vec![(0, 2000), (0, 3000)]);
        assert_eq!(windows(c, 2999), vec![(0, 3000)]);
        assert_eq!(windows(c, 3000), vec![(3000, 4000), (3000, 5000), (3000, 6000)]);
        assert_eq!(windows(c, -1), vec![(-3000, 0)]);
        assert_eq!(windows(c, -2500), vec![(-3000, -2000), (-3000, -1000), (-3000, 0)]);
        let o = WindowSpec::Cumulate { step_ms: 1000, max_size_ms: 3000, offset_ms: 500 };
        assert_eq!(windows(o, 500), vec![(500, 1500), (500, 2500), (500, 3500)]);
        assert_eq!(windows(o, 499), vec![(-2500, 500)]);
        let near_max = WindowSpec::Cumulate { step_ms: 1000, max_size_ms: 2000, offset_ms: 0 };
        assert!(windows(near_max, i64::MAX).len() <= 2);
        assert!(windows(near_max, i64::MIN).len() <= 2);
        for (step_ms, max_size_ms, field) in
            [(0, 1000, "step_ms"), (1000, 0, "max_size_ms"), (1000, 2500, "max_size_ms"), (1, 1_000_000, "step_ms")]
        {
            assert_eq!(WindowSpec::Cumulate { step_ms, max_size_ms, offset_ms: 0 }.validate().unwrap_err().0, field);
        }
    }

    #[test]
    fn old_formula_would_be_wrong() {
        assert_eq!(window_start_with_offset(EventTime(-5001), 0, 5000), EventTime(-10000));
        assert_eq!(window_start_with_offset(EventTime(-1), 0, 5000), EventTime(-5000));
    }
}
