//! `WatermarkOutputMultiplexer` + `CombinedWatermarkStatus`: how one source subtask combines the
//! watermarks of its splits (reference §4.3).
//!
//! Each split has an *immediate* output (used from `onEvent`) and a *deferred* one (used from
//! `onPeriodicEmit`, combined once at the end of the periodic tick). The combination is the min
//! over non-idle splits; when every split is idle, Flink 2.2+ flushes the max of all splits and
//! goes idle (FLINK-38454), older versions only go idle. The multiplexer never calls
//! `markActive()`; only a rising combined watermark reactivates the subtask downstream.

use crate::engine::time::{EventTime, NO_WATERMARK};

/// A call the multiplexer makes on the underlying ("splits") output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MuxCall {
    Watermark(EventTime),
    MarkIdle,
}

/// `PartialWatermark`: one split's contribution.
#[derive(Clone, Copy, Debug)]
pub struct PartialWatermark {
    pub watermark: EventTime,
    pub idle: bool,
}

/// Per-subtask combination of split watermarks.
#[derive(Clone, Debug)]
pub struct WatermarkOutputMultiplexer {
    partials: Vec<Option<PartialWatermark>>,
    /// Per slot: finished at its end ([`Self::finish`]).
    finished: Vec<bool>,
    combined: EventTime,
    idle: bool,
    all_idle_flush: bool,
}

impl WatermarkOutputMultiplexer {
    /// `all_idle_flush`: Flink ≥ 2.2 behaviour (the default) when every split is idle.
    pub fn new(all_idle_flush: bool) -> Self {
        WatermarkOutputMultiplexer { partials: Vec::new(), finished: Vec::new(), combined: NO_WATERMARK, idle: false, all_idle_flush }
    }

    /// Registers a split output; returns its slot. Slots of released splits are not reused.
    pub fn register(&mut self) -> usize {
        self.partials.push(Some(PartialWatermark { watermark: NO_WATERMARK, idle: false }));
        self.finished.push(false);
        self.partials.len() - 1
    }

    /// A split read again up to where its subtask's input had ended
    /// (`SourceSubtask::finish_split`) leaves the combination as `unregisterOutput` takes a
    /// finished split out, without recombining, but its partial is kept and follows its
    /// generator and idleness: once the input has ended the model reads on past the end and
    /// the split counts again as it is then ([`Self::unfinish`]).
    pub fn finish(&mut self, slot: usize) {
        self.finished[slot] = true;
    }

    pub fn unfinish(&mut self, slot: usize) {
        self.finished[slot] = false;
    }

    pub fn is_finished(&self, slot: usize) -> bool {
        self.finished[slot]
    }

    /// `unregisterOutput`: removes the partial without recombining (V-MUX-18, V-MUX-20).
    pub fn unregister(&mut self, slot: usize) -> bool {
        self.partials[slot].take().is_some()
    }

    pub fn partial(&self, slot: usize) -> Option<PartialWatermark> {
        self.partials.get(slot).copied().flatten()
    }

    pub fn combined(&self) -> EventTime {
        self.combined
    }

    pub fn is_idle(&self) -> bool {
        self.idle
    }

    pub fn registered(&self) -> usize {
        self.partials.iter().filter(|p| p.is_some()).count()
    }

    /// Immediate `emitWatermark`: combine only if this split rose above the combined value.
    pub fn immediate_watermark(&mut self, slot: usize, w: EventTime, out: &mut Vec<MuxCall>) {
        if self.set_watermark(slot, w) && w > self.combined {
            self.combine(out);
        }
    }

    pub fn immediate_idle(&mut self, slot: usize, idle: bool, out: &mut Vec<MuxCall>) {
        if let Some(p) = &mut self.partials[slot] {
            p.idle = idle;
        }
        self.combine(out);
    }

    /// Deferred `emitWatermark`: only updates the partial (clearing its idle flag).
    pub fn deferred_watermark(&mut self, slot: usize, w: EventTime) {
        self.set_watermark(slot, w);
    }

    pub fn deferred_idle(&mut self, slot: usize) {
        if let Some(p) = &mut self.partials[slot] {
            p.idle = true;
        }
    }

    /// `onPeriodicEmit`: the end-of-tick combination.
    pub fn on_periodic_emit(&mut self, out: &mut Vec<MuxCall>) {
        self.combine(out);
    }

    /// `setWatermark`: clears idle and raises; returns whether the value rose.
    fn set_watermark(&mut self, slot: usize, w: EventTime) -> bool {
        let Some(p) = &mut self.partials[slot] else { return false };
        p.idle = false;
        if w > p.watermark {
            p.watermark = w;
            true
        } else {
            false
        }
    }

    /// `updateCombinedWatermark`.
    fn combine(&mut self, out: &mut Vec<MuxCall>) {
        let mut any = false;
        let mut min_active: Option<EventTime> = None;
        let mut max_all = NO_WATERMARK;
        let counted = self.partials.iter().zip(&self.finished).filter(|(_, f)| !**f);
        for p in counted.filter_map(|(p, _)| p.as_ref()) {
            any = true;
            max_all = max_all.max(p.watermark);
            if !p.idle {
                min_active = Some(min_active.map_or(p.watermark, |m| m.min(p.watermark)));
            }
        }
        if !any {
            return;
        }
        self.idle = min_active.is_none();
        let candidate = match min_active {
            Some(m) => Some(m),
            None if self.all_idle_flush => Some(max_all),
            None => None,
        };
        let mut emitted = false;
        if let Some(c) = candidate {
            if c > self.combined {
                self.combined = c;
                out.push(MuxCall::Watermark(c));
                emitted = true;
            }
        }
        // ≤ 2.1 marks idle only when nothing was emitted (an else-if); ≥ 2.2 always, after the flush.
        if self.idle && (self.all_idle_flush || !emitted) {
            out.push(MuxCall::MarkIdle);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use MuxCall::*;

    fn run(flush: bool, f: impl FnOnce(&mut WatermarkOutputMultiplexer, &mut Vec<MuxCall>)) -> Vec<MuxCall> {
        let mut m = WatermarkOutputMultiplexer::new(flush);
        let mut out = Vec::new();
        f(&mut m, &mut out);
        out
    }

    #[test]
    fn v_mux_2_3_single_immediate_idleness() {
        let out = run(true, |m, o| {
            let a = m.register();
            m.immediate_idle(a, true, o);
            assert_eq!(o, &vec![MarkIdle]);
            o.clear();
            m.immediate_watermark(a, EventTime(0), o);
        });
        assert_eq!(out, vec![Watermark(EventTime(0))]);
    }

    #[test]
    fn v_mux_5_and_9() {
        let mut m = WatermarkOutputMultiplexer::new(true);
        let (a, b) = (m.register(), m.register());
        let mut o = Vec::new();
        m.immediate_watermark(a, EventTime(2), &mut o);
        assert!(o.is_empty());
        m.immediate_watermark(b, EventTime(5), &mut o);
        assert_eq!(o, vec![Watermark(EventTime(2))]);
        o.clear();
        m.immediate_idle(a, true, &mut o);
        assert_eq!(o, vec![Watermark(EventTime(5))]);
        o.clear();
        m.immediate_watermark(a, EventTime(3), &mut o);
        assert!(o.is_empty());
    }

    #[test]
    fn v_mux_6_version_split() {
        for (flush, expected) in [(true, vec![Watermark(EventTime(5)), MarkIdle]), (false, vec![MarkIdle])] {
            let mut m = WatermarkOutputMultiplexer::new(flush);
            let (a, b) = (m.register(), m.register());
            let mut o = Vec::new();
            m.immediate_watermark(a, EventTime(5), &mut o);
            m.immediate_watermark(b, EventTime(2), &mut o);
            assert_eq!(o, vec![Watermark(EventTime(2))]);
            o.clear();
            m.immediate_idle(a, true, &mut o);
            assert!(o.is_empty());
            m.immediate_idle(b, true, &mut o);
            assert_eq!(o, expected);
        }
    }

    #[test]
    fn v_mux_8_and_23_deferred() {
        for flush in [true, false] {
            let mut m = WatermarkOutputMultiplexer::new(flush);
            let (a, b) = (m.register(), m.register());
            let mut o = Vec::new();
            m.deferred_watermark(a, EventTime(5));
            m.deferred_idle(a);
            m.deferred_watermark(b, EventTime(2));
            m.deferred_idle(b);
            m.on_periodic_emit(&mut o);
            assert_eq!(o, if flush { vec![Watermark(EventTime(5)), MarkIdle] } else { vec![MarkIdle] });
            o.clear();
            m.deferred_watermark(a, EventTime(3));
            m.on_periodic_emit(&mut o);
            assert_eq!(o, if flush { vec![] } else { vec![Watermark(EventTime(5))] });
        }
    }

    #[test]
    fn v_mux_11_14_15_17() {
        let out = run(true, |m, o| {
            let (a, b) = (m.register(), m.register());
            m.deferred_watermark(a, EventTime(0));
            m.deferred_watermark(b, EventTime(1));
            assert!(o.is_empty());
            m.on_periodic_emit(o);
        });
        assert_eq!(out, vec![Watermark(EventTime(0))]);
        let out = run(true, |m, o| {
            let (a, b, c) = (m.register(), m.register(), m.register());
            m.deferred_watermark(a, EventTime(2));
            m.deferred_watermark(b, EventTime(5));
            m.deferred_idle(c);
            m.on_periodic_emit(o);
        });
        assert_eq!(out, vec![Watermark(EventTime(2))]);
        let out = run(true, |m, o| {
            let (i, d) = (m.register(), m.register());
            m.deferred_watermark(d, EventTime(5));
            m.immediate_watermark(i, EventTime(2), o);
        });
        assert_eq!(out, vec![Watermark(EventTime(2))]);
        let out = run(true, |m, o| {
            let x = m.register();
            m.deferred_watermark(x, EventTime(5));
            m.immediate_watermark(x, EventTime(2), o);
        });
        assert!(out.is_empty());
    }

    #[test]
    fn v_mux_18_20_21_unregister() {
        let mut m = WatermarkOutputMultiplexer::new(true);
        let (lower, higher) = (m.register(), m.register());
        let mut o = Vec::new();
        m.immediate_watermark(lower, EventTime(156765), &mut o);
        assert!(o.is_empty());
        assert!(m.unregister(lower));
        assert!(o.is_empty());
        m.immediate_watermark(higher, EventTime(156775), &mut o);
        assert_eq!(o, vec![Watermark(EventTime(156775))]);

        let mut m = WatermarkOutputMultiplexer::new(true);
        let h = m.register();
        let mut o = Vec::new();
        m.immediate_watermark(h, EventTime(2), &mut o);
        assert_eq!(o, vec![Watermark(EventTime(2))]);
        m.unregister(h);
        let l = m.register();
        o.clear();
        m.immediate_watermark(l, EventTime(1), &mut o);
        assert!(o.is_empty());
        m.on_periodic_emit(&mut o);
        assert!(o.is_empty(), "V-MUX-21: stays active after all splits removed: {o:?}");
    }

    #[test]
    fn a_finished_split_leaves_the_combination_as_unregistered_and_comes_back_as_it_is() {
        let mut m = WatermarkOutputMultiplexer::new(true);
        let (lower, higher) = (m.register(), m.register());
        let mut o = Vec::new();
        m.immediate_watermark(lower, EventTime(5), &mut o);
        m.finish(lower);
        assert!(o.is_empty(), "no recombination at the finish");
        m.immediate_watermark(higher, EventTime(9), &mut o);
        assert_eq!(o, vec![Watermark(EventTime(9))]);
        m.deferred_idle(lower);
        m.unfinish(lower);
        let p = m.partial(lower).expect("kept");
        assert_eq!((p.watermark, p.idle), (EventTime(5), true), "as its generator and idleness left it");
    }
}
