//! Event-time lag per window subtask: processing time minus its watermark, the number seed
//! 000 §1 and §7 say to alert on ("consumer lag can be zero while the watermark is stuck").

use crate::engine::time::{EventTime, ProcTime, END_OF_TIME, NO_WATERMARK};
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct SubtaskLag {
    pub window_subtask: u32,
    /// Processing time minus `currentInputWatermark`; null before the first watermark and at
    /// the end of input.
    pub lag_ms: Option<i64>,
    /// Whether it is over the alert threshold.
    pub over_threshold: bool,
}

/// The lag of a subtask whose watermark is `wm` at `now`.
pub fn lag_ms(now: ProcTime, wm: EventTime) -> Option<i64> {
    (wm != NO_WATERMARK && wm != END_OF_TIME).then(|| now.ms().saturating_sub(wm.ms()))
}

/// Whether window subtask watermark `wm` lags more than `threshold_ms` at `now`: the one rule
/// of the diagnosis' `overThreshold` and the alert's crossings. No watermark yet counts from
/// the start; the end of input never lags.
pub fn over_threshold(now: ProcTime, start: ProcTime, wm: EventTime, threshold_ms: i64) -> bool {
    wm != END_OF_TIME && lag_ms(now, wm).map_or(now.ms().saturating_sub(start.ms()) > threshold_ms, |l| l > threshold_ms)
}

/// A crossing of the lag alert threshold by one window subtask.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct LagCrossing {
    pub window_subtask: u32,
    /// True when the lag went over the threshold, false when it came back under it.
    pub over: bool,
    /// The processing time of the crossing (exact: between two instants the watermark stands
    /// still, so the lag grows one ms per ms).
    pub time: ProcTime,
    pub lag_ms: Option<i64>,
    pub threshold_ms: i64,
}

/// Watches the lag of every window subtask against a threshold, one instant at a time.
#[derive(Clone, Debug)]
pub struct LagWatch {
    threshold_ms: i64,
    /// Per window subtask: over the threshold, and the watermark seen at the last look.
    seen: Vec<(bool, EventTime)>,
    last: Option<ProcTime>,
}

impl LagWatch {
    pub fn new(threshold_ms: i64) -> Self {
        LagWatch { threshold_ms, seen: Vec::new(), last: None }
    }

    pub fn threshold_ms(&self) -> i64 {
        self.threshold_ms
    }

    /// Looks at the job after an instant; returns the crossings since the last look, in time
    /// order. At the first look, a subtask already over the threshold crosses "now".
    pub fn look(&mut self, sim: &crate::engine::sim::Simulation) -> Vec<LagCrossing> {
        let (now, start, t) = (sim.now(), sim.config().start_time, self.threshold_ms);
        let mut out = Vec::new();
        for w in &sim.downstream().windows {
            let i = w.index as usize;
            if self.seen.len() <= i {
                self.seen.resize(i + 1, (false, NO_WATERMARK));
            }
            let (was_over, prev_wm) = self.seen[i];
            let wm = w.current_input_watermark();
            let over = over_threshold(now, start, wm, t);
            if over != was_over {
                // Going over: the first ms the lag exceeded the threshold with the watermark
                // that stood since the last look (at the latest now, if this instant moved it).
                let time = match (over, self.last) {
                    (true, Some(last)) => crossing(prev_wm, t, start).max(last + 1).min(now),
                    _ => now,
                };
                let lag = lag_ms(time, if over && self.last.is_some() { prev_wm } else { wm });
                out.push(LagCrossing { window_subtask: w.index, over, time, lag_ms: lag, threshold_ms: t });
            }
            self.seen[i] = (over, wm);
        }
        self.last = Some(now);
        out.sort_by_key(|c| (c.time, c.window_subtask));
        out
    }
}

/// When a watermark standing at `wm` first lags more than `threshold_ms`.
fn crossing(wm: EventTime, threshold_ms: i64, start: ProcTime) -> ProcTime {
    if wm == NO_WATERMARK {
        return ProcTime(start.ms().saturating_add(threshold_ms).saturating_add(1));
    }
    ProcTime(wm.ms().saturating_add(threshold_ms).saturating_add(1))
}

impl crate::engine::sim::Simulation {
    /// Event-time lag of window subtask `subtask` over time: at each change of its watermark,
    /// the lag just before and just after (a sawtooth), and now. `None` for no such subtask.
    pub fn lag_history(&self, subtask: u32) -> Option<Vec<(ProcTime, Option<i64>)>> {
        let h = self.down.watermark_history.get(subtask as usize)?;
        let mut out = Vec::with_capacity(2 * h.len() + 1);
        let mut prev = NO_WATERMARK;
        for &(t, wm) in h {
            if let Some(l) = lag_ms(t, prev) {
                out.push((t, Some(l)));
            }
            out.push((t, lag_ms(t, wm)));
            prev = wm;
        }
        let now = self.now.max(self.cfg.start_time);
        out.push((now, lag_ms(now, prev)));
        Some(out)
    }
}
