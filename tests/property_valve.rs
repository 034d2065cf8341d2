//! `StatusWatermarkValve` (reference §6.2) on random inputs, against an executable
//! transcription of §6.2 and the invariants it implies: strictly increasing output, each
//! emitted watermark is the min over active aligned channels (or, when the last channel goes
//! idle, the max over all), aligned channels never sit below the output, and the output status
//! is IDLE iff every channel is.

mod common;

use common::config;
use proptest::prelude::*;
use wmp::engine::status::{Signal, WatermarkStatus};
use wmp::engine::time::{EventTime, NO_WATERMARK};
use wmp::engine::valve::{InputChannelStatus, StatusWatermarkValve, ValveSwitches};

#[derive(Clone, Copy, Debug)]
enum ValveOp {
    Watermark(usize, EventTime),
    Idle(usize),
    Active(usize),
}

/// A generated step: watermarks are relative to the channel's current one (so that channels
/// keep advancing past each other), or one of the extremes.
#[derive(Clone, Copy, Debug)]
enum GenOp {
    Delta(usize, i64),
    Absolute(usize, EventTime),
    Idle(usize),
    Active(usize),
}

impl GenOp {
    fn resolve(self, channels: &[InputChannelStatus]) -> ValveOp {
        match self {
            GenOp::Delta(c, d) => {
                let w = channels[c].watermark;
                ValveOp::Watermark(c, if w == NO_WATERMARK { EventTime(d) } else { w.saturating_add(d) })
            }
            GenOp::Absolute(c, w) => ValveOp::Watermark(c, w),
            GenOp::Idle(c) => ValveOp::Idle(c),
            GenOp::Active(c) => ValveOp::Active(c),
        }
    }
}

fn valve_case() -> impl Strategy<Value = (usize, ValveSwitches, Vec<GenOp>)> {
    // Few channels are common, so that "all idle" (flushes, reactivation) is reached often.
    let channels = prop_oneof![1usize..=2, 1usize..=5];
    (channels, any::<bool>(), any::<bool>()).prop_flat_map(|(n, unconditional_flush, rederive_on_reactivate)| {
        let extreme = prop_oneof![Just(NO_WATERMARK), Just(EventTime::MAX), (-20i64..100).prop_map(EventTime)];
        let op = prop_oneof![
            6 => (0..n, -5i64..40).prop_map(|(c, d)| GenOp::Delta(c, d)),
            1 => (0..n, extreme).prop_map(|(c, w)| GenOp::Absolute(c, w)),
            4 => (0..n).prop_map(GenOp::Idle),
            3 => (0..n).prop_map(GenOp::Active),
        ];
        (Just(n), Just(ValveSwitches { unconditional_flush, rederive_on_reactivate }), prop::collection::vec(op, 0..100))
    })
}

/// §6.2 as written: per channel (watermark, status, aligned), the output and its status. The
/// min is recomputed by scanning (Flink keeps a heap) so that it does not share code with the valve.
struct ValveModel {
    ch: Vec<InputChannelStatus>,
    out: EventTime,
    idle: bool,
    sw: ValveSwitches,
}

impl ValveModel {
    fn new(n: usize, sw: ValveSwitches) -> Self {
        let c = InputChannelStatus { watermark: NO_WATERMARK, status: WatermarkStatus::Active, aligned: true };
        ValveModel { ch: vec![c; n], out: NO_WATERMARK, idle: false, sw }
    }

    fn min_aligned(&self) -> Option<EventTime> {
        self.ch.iter().filter(|c| c.aligned).map(|c| c.watermark).min()
    }

    fn emit_min(&mut self, out: &mut Vec<Signal>) {
        if let Some(m) = self.min_aligned() {
            if m > self.out {
                self.out = m;
                out.push(Signal::Watermark(m));
            }
        }
    }

    fn apply(&mut self, op: ValveOp, out: &mut Vec<Signal>) {
        match op {
            ValveOp::Watermark(c, w) => {
                if self.idle || self.ch[c].status.is_idle() || w <= self.ch[c].watermark {
                    return;
                }
                self.ch[c].watermark = w;
                if !self.ch[c].aligned && w >= self.out {
                    self.ch[c].aligned = true;
                }
                self.emit_min(out);
            }
            ValveOp::Idle(c) => {
                if self.ch[c].status.is_idle() {
                    return;
                }
                self.ch[c].status = WatermarkStatus::Idle;
                self.ch[c].aligned = false;
                let held = self.ch[c].watermark == self.out;
                if self.ch.iter().all(|c| c.status.is_idle()) {
                    if held || self.sw.unconditional_flush {
                        let max = self.ch.iter().map(|c| c.watermark).max().unwrap();
                        if max > self.out {
                            self.out = max;
                            out.push(Signal::Watermark(max));
                        }
                    }
                    self.idle = true;
                    out.push(Signal::Status(WatermarkStatus::Idle));
                } else if held {
                    self.emit_min(out);
                }
            }
            ValveOp::Active(c) => {
                if !self.ch[c].status.is_idle() {
                    return;
                }
                self.ch[c].status = WatermarkStatus::Active;
                if self.ch[c].watermark >= self.out {
                    self.ch[c].aligned = true;
                }
                if self.idle {
                    self.idle = false;
                    out.push(Signal::Status(WatermarkStatus::Active));
                }
                if self.sw.rederive_on_reactivate {
                    self.emit_min(out);
                }
            }
        }
    }
}

fn apply_to_valve(v: &mut StatusWatermarkValve, op: ValveOp, out: &mut Vec<Signal>) {
    match op {
        ValveOp::Watermark(c, w) => v.input_watermark(c, w, out),
        ValveOp::Idle(c) => v.input_status(c, WatermarkStatus::Idle, out),
        ValveOp::Active(c) => v.input_status(c, WatermarkStatus::Active, out),
    }
}

/// The invariants §6.2 implies, checked on the valve's own state after one step.
fn check_valve_step(
    v: &StatusWatermarkValve,
    sw: ValveSwitches,
    emitted: &[Signal],
    last_wm: &mut EventTime,
    last_status: &mut WatermarkStatus,
) -> Result<(), TestCaseError> {
    let ch = v.channels();
    let all_idle = ch.iter().all(|c| c.status.is_idle());
    let min_aligned = ch.iter().filter(|c| c.aligned).map(|c| c.watermark).min();
    let max_all = ch.iter().map(|c| c.watermark).max();
    let went_idle = emitted.contains(&Signal::Status(WatermarkStatus::Idle));
    for s in emitted {
        match *s {
            Signal::Watermark(w) => {
                prop_assert!(w > *last_wm, "output went from {} to {}", last_wm, w);
                *last_wm = w;
                if went_idle {
                    prop_assert_eq!(Some(w), max_all, "the all-idle flush emits the max over all channels");
                } else {
                    prop_assert_eq!(Some(w), min_aligned, "an emitted watermark is the min over active aligned channels");
                }
            }
            Signal::Status(st) => {
                prop_assert_ne!(st, *last_status, "status announcements alternate");
                *last_status = st;
            }
        }
    }
    prop_assert_eq!(v.output_watermark(), *last_wm);
    prop_assert_eq!(v.output_status(), *last_status);
    prop_assert_eq!(v.output_status().is_idle(), all_idle, "the valve is IDLE iff every channel is");
    for (i, c) in ch.iter().enumerate() {
        if c.aligned {
            prop_assert!(!c.status.is_idle(), "channel {} idle but aligned", i);
            prop_assert!(c.watermark >= v.output_watermark(), "aligned channel {} below the output", i);
        } else if !c.status.is_idle() {
            prop_assert!(c.watermark < v.output_watermark(), "active channel {} unaligned at or above the output", i);
        }
    }
    if sw.rederive_on_reactivate && !all_idle {
        if let Some(m) = min_aligned {
            prop_assert_eq!(v.output_watermark(), m, "with re-derivation the output is the min over aligned channels");
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(2048))]

    #[test]
    fn valve_follows_section_6_2((n, sw, ops) in valve_case()) {
        let mut valve = StatusWatermarkValve::new(n, sw);
        let mut model = ValveModel::new(n, sw);
        let (mut last_wm, mut last_status) = (NO_WATERMARK, WatermarkStatus::Active);
        for (i, &gen) in ops.iter().enumerate() {
            let op = gen.resolve(&model.ch);
            let (mut got, mut want) = (Vec::new(), Vec::new());
            apply_to_valve(&mut valve, op, &mut got);
            model.apply(op, &mut want);
            prop_assert_eq!(&got, &want, "step {} {:?}: output differs from §6.2", i, op);
            prop_assert_eq!(valve.channels(), &model.ch[..], "step {} {:?}: channel state differs", i, op);
            check_valve_step(&valve, sw, &got, &mut last_wm, &mut last_status)?;
        }
    }
}
