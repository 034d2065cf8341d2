//! `IndexedCombinedWatermarkStatus`: how a two-input (or N-input) operator combines the
//! watermarks and statuses its inputs' valves hand it (reference §6.4, vectors V-2IN-*).
//!
//! Flink's `AbstractStreamOperator.processWatermark1/2` and `processWatermarkStatus1/2` (and
//! `AbstractStreamOperatorV2` for N inputs) keep one `CombinedWatermarkStatus` with a partial per
//! input, each starting at `{MIN, active}`. It lives apart from the valve because the rules differ:
//! * there is no "unaligned" state: an input that comes back from IDLE below the combined value
//!   is part of the min at once, so the combined watermark *stalls* until it catches up (the
//!   valve skips such a channel and lets the others advance);
//! * setting an input's watermark clears its idle flag (and may flip the overall flag) but never
//!   forwards a status; only `processWatermarkStatus1/2` forward the status they were given, and
//!   only when the overall idle flag flipped;
//! * when every input is idle, Flink ≥ 2.2 (FLINK-38454) flushes the max of all inputs; ≤ 2.1
//!   keeps the combined value. Both then report idle.
//!
//! Emission order matches Flink: a risen watermark (which fires timers, then is forwarded) before
//! the status. Gating a watermark on an output announced IDLE (reference §3) is the caller's job.

use super::source::multiplexer::PartialWatermark;
use super::status::{Signal, WatermarkStatus};
use super::time::{EventTime, NO_WATERMARK};

#[derive(Clone, Debug)]
pub struct IndexedCombinedWatermarkStatus {
    partials: Vec<PartialWatermark>,
    combined: EventTime,
    idle: bool,
    all_idle_flush: bool,
}

impl IndexedCombinedWatermarkStatus {
    /// `forInputsCount(inputs)`; `all_idle_flush` is Flink ≥ 2.2 (FLINK-38454).
    pub fn new(inputs: usize, all_idle_flush: bool) -> Self {
        let p = PartialWatermark { watermark: NO_WATERMARK, idle: false };
        IndexedCombinedWatermarkStatus { partials: vec![p; inputs], combined: NO_WATERMARK, idle: false, all_idle_flush }
    }

    pub fn inputs(&self) -> usize {
        self.partials.len()
    }

    /// The watermark the operator has processed (`processWatermark(combined)`); MIN until then.
    pub fn combined_watermark(&self) -> EventTime {
        self.combined
    }

    pub fn is_idle(&self) -> bool {
        self.idle
    }

    /// `currentInput{i+1}Watermark`: the highest watermark input `i` delivered, idle or not.
    pub fn input_watermark_of(&self, input: usize) -> EventTime {
        self.partials[input].watermark
    }

    pub fn input_idle(&self, input: usize) -> bool {
        self.partials[input].idle
    }

    /// The non-idle input holding the combined minimum (ties: lowest index); `None` when all
    /// are idle. It may sit below the combined value: a returning input stalls, it does not lower.
    pub fn min_input(&self) -> Option<usize> {
        let mut best: Option<usize> = None;
        for (i, p) in self.partials.iter().enumerate() {
            if !p.idle && best.is_none_or(|b| p.watermark < self.partials[b].watermark) {
                best = Some(i);
            }
        }
        best
    }

    /// `processWatermark{input+1}`: `updateWatermark(index, w)`.
    pub fn input_watermark(&mut self, input: usize, w: EventTime, out: &mut Vec<Signal>) {
        let p = &mut self.partials[input];
        p.idle = false;
        p.watermark = p.watermark.max(w);
        self.recombine(out);
    }

    /// `processWatermarkStatus{input+1}`: `updateStatus(index, idle)`, then the status itself
    /// goes downstream only if the overall idle flag flipped.
    pub fn input_status(&mut self, input: usize, s: WatermarkStatus, out: &mut Vec<Signal>) {
        let was_idle = self.idle;
        self.partials[input].idle = s.is_idle();
        self.recombine(out);
        if was_idle != self.idle {
            out.push(Signal::Status(s));
        }
    }

    /// `updateCombinedWatermark`, pushing the watermark when it rose.
    fn recombine(&mut self, out: &mut Vec<Signal>) {
        if let Some(c) = self.candidate() {
            if c > self.combined {
                self.combined = c;
                out.push(Signal::Watermark(c));
            }
        }
    }

    /// Sets the idle flag; the min over non-idle inputs, or (all idle, ≥ 2.2) the max over all.
    fn candidate(&mut self) -> Option<EventTime> {
        if self.partials.is_empty() {
            return None;
        }
        let mut max_all = NO_WATERMARK;
        let mut min_active: Option<EventTime> = None;
        for p in &self.partials {
            max_all = max_all.max(p.watermark);
            if !p.idle {
                min_active = Some(min_active.map_or(p.watermark, |m| m.min(p.watermark)));
            }
        }
        self.idle = min_active.is_none();
        min_active.or(if self.all_idle_flush { Some(max_all) } else { None })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Signal::*;
    use WatermarkStatus::*;

    #[test]
    fn watermark_on_an_idle_input_reactivates_it_without_a_status() {
        let mut c = IndexedCombinedWatermarkStatus::new(2, true);
        let mut out = Vec::new();
        c.input_status(0, Idle, &mut out);
        c.input_status(1, Idle, &mut out);
        assert_eq!(out, vec![Status(Idle)]);
        assert!(c.is_idle());
        out.clear();
        c.input_watermark(1, EventTime(4), &mut out);
        assert_eq!(out, vec![Watermark(EventTime(4))], "the flag flips back, no ACTIVE is forwarded");
        assert!(!c.is_idle() && c.input_idle(0) && !c.input_idle(1));
        assert_eq!(c.min_input(), Some(1));
        out.clear();
        c.input_status(0, Active, &mut out);
        assert!(out.is_empty(), "input 0 is back at MIN: it stalls the combination, nothing flips");
        assert_eq!(c.min_input(), Some(0));
        assert_eq!(c.combined_watermark(), EventTime(4));
    }

    #[test]
    fn same_status_twice_and_zero_inputs_are_no_ops() {
        let mut c = IndexedCombinedWatermarkStatus::new(1, true);
        let mut out = Vec::new();
        c.input_status(0, Active, &mut out);
        assert!(out.is_empty());
        c.input_status(0, Idle, &mut out);
        c.input_status(0, Idle, &mut out);
        assert_eq!(out, vec![Status(Idle)]);
        let mut none = IndexedCombinedWatermarkStatus::new(0, true);
        assert_eq!(none.candidate(), None);
        assert!(!none.is_idle());
        assert_eq!(none.min_input(), None);
    }
}
