//! Property tests of the engine's core rules, on random inputs (deterministic: fixed proptest
//! seed, no failure persistence; a failure prints the minimal shrunk input, which belongs in a
//! plain regression test next to the vectors).
//!
//! a. `StatusWatermarkValve` (reference §6.2) against an executable transcription of §6.2 and
//!    the invariants it implies: strictly increasing output, each emitted watermark is the min
//!    over active aligned channels (or, when the last channel goes idle, the max over all),
//!    aligned channels never sit below the output, and the output status is IDLE iff every
//!    channel is.
//! b. `WindowOperator` (§8.5, §8.7, §8.8) with tumbling, sliding and session windows against a
//!    model: timer firings exactly when the watermark first reaches `end - 1`, `Late` iff every
//!    window is late and `ts + L <= W`, `NoWindow` only without windows, firing counts = accepted
//!    elements so far, state and cleanup accounting.
//! c. Conservation over whole random simulations: every produced record is in exactly one place
//!    (window state, fired-and-cleaned, late side output, late dropped, no window, filtered,
//!    unread, in flight), checked at several points of processing time and after end of input.
//! d. Determinism: building and running a scenario twice, in one go or in chunks, or from a
//!    clone taken midway, gives the same trace hash and the same report JSON.

use proptest::prelude::*;
use proptest::test_runner::{Config as ProptestConfig, RngSeed};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use wmp::engine::command::Command;
use wmp::engine::operator::assigner::WindowSpec;
use wmp::engine::operator::window_operator::{ElementOutcome, WindowFiring, WindowOperator};
use wmp::engine::report::report;
use wmp::engine::scenario::build::parse;
use wmp::engine::sim::Simulation;
use wmp::engine::status::{Signal, WatermarkStatus};
use wmp::engine::time::{EventTime, ProcTime, NO_WATERMARK};
use wmp::engine::valve::{InputChannelStatus, StatusWatermarkValve, ValveSwitches};

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(0x5EED_0FF1_CE00),
        max_shrink_iters: 2048,
        ..ProptestConfig::default()
    }
}

// ---------------------------------------------------------------------------------------------
// a. StatusWatermarkValve
// ---------------------------------------------------------------------------------------------

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
fn check_valve_step(v: &StatusWatermarkValve, sw: ValveSwitches, emitted: &[Signal], last_wm: &mut EventTime, last_status: &mut WatermarkStatus) -> Result<(), TestCaseError> {
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

// ---------------------------------------------------------------------------------------------
// b. WindowOperator (tumbling and sliding)
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug)]
enum WinOp {
    /// An element `dt` ms from the current watermark (from 0 before the first one).
    Element { key: u32, dt: i64 },
    /// The watermark rises by `step` (the first one is placed at `step - 2000`).
    Watermark { step: i64 },
}

fn tumbling() -> impl Strategy<Value = WindowSpec> {
    (1i64..3000).prop_flat_map(|size| (Just(size), -(size - 1)..size)).prop_map(|(size_ms, offset_ms)| WindowSpec::Tumbling { size_ms, offset_ms })
}

/// Sliding windows with at most ~20 windows per element (and gaps when slide > size).
fn sliding() -> impl Strategy<Value = WindowSpec> {
    (1i64..3000)
        .prop_flat_map(|size| (Just(size), (size / 20).max(1)..3000))
        .prop_flat_map(|(size, slide)| (Just(size), Just(slide), -(slide - 1)..slide))
        .prop_map(|(size_ms, slide_ms, offset_ms)| WindowSpec::Sliding { size_ms, slide_ms, offset_ms })
}

fn session() -> impl Strategy<Value = WindowSpec> {
    (1i64..3000).prop_map(|gap_ms| WindowSpec::Session { gap_ms })
}

fn window_case() -> impl Strategy<Value = (WindowSpec, i64, Vec<WinOp>)> {
    let op = prop_oneof![
        4 => (0u32..3, -4000i64..4000).prop_map(|(key, dt)| WinOp::Element { key, dt }),
        1 => (1i64..2500).prop_map(|step| WinOp::Watermark { step }),
    ];
    (prop_oneof![tumbling(), sliding(), session()], 0i64..3000, prop::collection::vec(op, 0..150))
}

/// The windows of `ts`, computed independently of the engine (floor division).
fn model_windows(spec: WindowSpec, ts: i64) -> Vec<(i64, i64)> {
    match spec {
        WindowSpec::Tumbling { size_ms, offset_ms } => {
            let off = offset_ms % size_ms;
            let start = off + (ts - off).div_euclid(size_ms) * size_ms;
            vec![(start, start + size_ms)]
        }
        WindowSpec::Sliding { size_ms, slide_ms, offset_ms } => {
            let mut start = offset_ms + (ts - offset_ms).div_euclid(slide_ms) * slide_ms;
            let mut v = Vec::new();
            while start > ts - size_ms {
                v.push((start, start + size_ms));
                start -= slide_ms;
            }
            v
        }
        WindowSpec::Session { gap_ms } => vec![(ts, ts + gap_ms)],
    }
}

#[derive(Clone, Copy, Debug, Default)]
struct ModelWindow {
    count: u64,
    firings: u32,
}

/// Live (key, start, end) windows with their accepted-element counts, and what was purged.
struct WindowModel {
    lateness: i64,
    w: i64,
    live: BTreeMap<(u32, i64, i64), ModelWindow>,
    purged: u64,
}

type Fired = (u32, i64, i64, u64, i64, u32);

fn fired_tuple(f: &WindowFiring) -> Fired {
    (f.key, f.start.ms(), f.end.ms(), f.agg.count, f.watermark.ms(), f.firing)
}

impl WindowModel {
    fn is_window_late(&self, end: i64) -> bool {
        end - 1 + self.lateness <= self.w
    }

    /// `MergingWindowSet.addWindow` for a session window: merges the key's live sessions that
    /// intersect (or touch, §8.1) `new` into their cover, which keeps their summed count; a
    /// window that merges with nothing, or only grows nothing, keeps its identity and firings.
    fn merge_session(&mut self, key: u32, new: (i64, i64)) -> (i64, i64) {
        let touching: Vec<(u32, i64, i64)> = self.live.range((key, i64::MIN, i64::MIN)..=(key, i64::MAX, i64::MAX)).map(|(k, _)| *k).filter(|&(_, s, e)| s <= new.1 && e >= new.0).collect();
        let cover = touching.iter().fold(new, |c, &(_, s, e)| (c.0.min(s), c.1.max(e)));
        if touching.len() == 1 && (touching[0].1, touching[0].2) == cover {
            return cover;
        }
        let mut merged = ModelWindow::default();
        for k in &touching {
            merged.count += self.live.remove(k).unwrap().count;
        }
        if !touching.is_empty() {
            self.live.insert((key, cover.0, cover.1), merged);
        }
        cover
    }

    /// Expected outcome and immediate (late) firings, in assigner order.
    fn element(&mut self, spec: WindowSpec, key: u32, ts: i64) -> (ElementOutcome, Vec<Fired>) {
        let mut windows = model_windows(spec, ts);
        if spec.is_merging() {
            windows = vec![self.merge_session(key, windows[0])];
        }
        let live: Vec<(i64, i64)> = windows.iter().copied().filter(|&(_, e)| !self.is_window_late(e)).collect();
        if live.is_empty() {
            let late = ts.wrapping_add(self.lateness) <= self.w;
            assert!(late || windows.is_empty(), "a late window implies a late element");
            return (if late { ElementOutcome::Late } else { ElementOutcome::NoWindow }, Vec::new());
        }
        let mut fired = Vec::new();
        for (s, e) in live {
            let st = self.live.entry((key, s, e)).or_default();
            st.count += 1;
            if e - 1 <= self.w {
                fired.push((key, s, e, st.count, self.w, st.firings));
                st.firings += 1;
            }
        }
        (ElementOutcome::Accepted, fired)
    }

    /// Expected timer firings (sorted) for a watermark rise, then cleanup.
    fn watermark(&mut self, new_w: i64) -> Vec<Fired> {
        let old = self.w;
        self.w = new_w;
        let mut fired = Vec::new();
        for (&(k, s, e), st) in self.live.iter_mut() {
            if old < e - 1 && e - 1 <= new_w {
                fired.push((k, s, e, st.count, new_w, st.firings));
                st.firings += 1;
            }
        }
        let lateness = self.lateness;
        let mut purged = 0;
        self.live.retain(|&(_, _, e), st| {
            let keep = e - 1 + lateness > new_w;
            if !keep {
                purged += st.count;
            }
            keep
        });
        self.purged += purged;
        fired.sort();
        fired
    }
}

fn check_operator_state(op: &WindowOperator, m: &WindowModel) -> Result<(), TestCaseError> {
    prop_assert_eq!(op.current_watermark().ms(), m.w);
    prop_assert_eq!(op.state_size(), m.live.len(), "window state size");
    prop_assert_eq!(op.records_in_state(), m.live.values().map(|s| s.count).sum::<u64>(), "records in state");
    prop_assert_eq!(op.purged_records, m.purged, "purged records");
    let waiting = m.live.keys().filter(|&&(_, _, e)| e - 1 > m.w).count();
    prop_assert_eq!(op.pending_windows().count(), waiting, "windows waiting for their timer");
    Ok(())
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn window_operator_follows_section_8_8((spec, lateness, ops) in window_case()) {
        let mut op = WindowOperator::new(spec, lateness);
        // The same operator fed through the hot-window slots (key = slot) must agree exactly.
        let mut hot = WindowOperator::new(spec, lateness);
        let mut hot_fired = Vec::new();
        let mut m = WindowModel { lateness, w: NO_WATERMARK.ms(), live: BTreeMap::new(), purged: 0 };
        let mut fired = Vec::new();
        for (i, &o) in ops.iter().enumerate() {
            fired.clear();
            hot_fired.clear();
            match o {
                WinOp::Element { key, dt } => {
                    let ts = if m.w == NO_WATERMARK.ms() { dt } else { m.w + dt };
                    let got = op.process_element(key, EventTime(ts), 1, &mut fired);
                    prop_assert_eq!(hot.process_element_in(key, key, EventTime(ts), 1, &mut hot_fired), got, "step {}: hot slots", i);
                    let (want, want_fired) = m.element(spec, key, ts);
                    prop_assert_eq!(got, want, "step {}: element ts {} key {} at W {}", i, ts, key, m.w);
                    let got_fired: Vec<Fired> = fired.iter().map(fired_tuple).collect();
                    prop_assert_eq!(got_fired, want_fired, "step {}: late firings for ts {}", i, ts);
                }
                WinOp::Watermark { step } => {
                    let w = if m.w == NO_WATERMARK.ms() { step - 2000 } else { m.w + step };
                    op.advance_watermark(EventTime(w), &mut fired);
                    hot.advance_watermark(EventTime(w), &mut hot_fired);
                    let ends: Vec<i64> = fired.iter().map(|f| (f.end - 1).ms()).collect();
                    prop_assert!(ends.windows(2).all(|p| p[0] <= p[1]), "step {}: timers fire in timestamp order: {:?}", i, ends);
                    let mut got_fired: Vec<Fired> = fired.iter().map(fired_tuple).collect();
                    got_fired.sort();
                    prop_assert_eq!(got_fired, m.watermark(w), "step {}: firings at watermark {}", i, w);
                }
            }
            check_operator_state(&op, &m)?;
            prop_assert_eq!(&hot_fired, &fired, "step {}: hot slots fire the same", i);
            prop_assert_eq!(hot.pending_windows().collect::<Vec<_>>(), op.pending_windows().collect::<Vec<_>>(), "step {}: hot slots hold the same", i);
            prop_assert_eq!(hot.records_in_state(), op.records_in_state());
        }
    }
}

// ---------------------------------------------------------------------------------------------
// c + d. Whole simulations
// ---------------------------------------------------------------------------------------------

fn producer() -> impl Strategy<Value = Value> {
    let kind = prop_oneof![
        3 => (1u64..300).prop_map(|r| json!({"kind": "steady", "rate_per_s": r})),
        2 => (50i64..1500, 1u64..20).prop_map(|(e, c)| json!({"kind": "burst", "every_ms": e, "count": c})),
        1 => (50i64..1000).prop_map(|e| json!({"kind": "heartbeat", "every_ms": e})),
        1 => (1000i64..200_000).prop_map(|f| json!({"kind": "outlier", "future_ms": f})),
    ];
    (kind, prop::option::of(0u32..4), 1u32..5, 0i64..3000, 0i64..500, 0i64..1500, prop::option::of(500i64..5000)).prop_map(
        |(mut p, part, keys, jitter, delay, start, stop)| {
            p["partitions"] = part.map_or(json!("all"), |x| json!(x));
            p["keys"] = json!({"count": keys});
            p["jitter_ms"] = json!(jitter);
            p["event_delay_ms"] = json!(delay);
            p["start_ms"] = json!(start);
            if let Some(s) = stop {
                p["stop_ms"] = json!(start + s);
            }
            p
        },
    )
}

/// A scripted command; `partition` is reduced modulo the topic's partitions later.
fn command(duration: i64) -> impl Strategy<Value = Value> {
    let on_partition = prop_oneof![Just("silence"), Just("resume"), Just("mark_split_idle"), Just("mark_split_active"), Just("detach_producers")]
        .prop_map(|c| json!({"command": c}));
    let produce = prop::collection::vec((-5000i64..1000, 0u32..3), 1..5).prop_map(|recs| {
        let records: Vec<Value> = recs.into_iter().map(|(off, k)| json!({"ts_offset_ms": off, "key": format!("key-{k}")})).collect();
        json!({"command": "produce", "records": records})
    });
    let param = prop_oneof![
        (0i64..50).prop_map(|l| json!({"name": "channel_latency_ms", "value": l})),
        prop::option::of(20u64..2000).prop_map(|r| json!({"name": "read_rate_per_s", "value": r})),
        (0i64..2000).prop_map(|b| json!({"name": "bound_ms", "value": b})),
        prop::option::of(100i64..2000).prop_map(|t| json!({"name": "idle_timeout_ms", "value": t})),
    ]
    .prop_map(|p| json!({"command": "set_param", "param": p}));
    let cmd = prop_oneof![8 => on_partition, 2 => produce, 2 => param, 1 => Just(json!({"command": "add_partition"}))];
    (0..duration, cmd, 0u32..4).prop_map(|(at, mut c, p)| {
        c["at_ms"] = json!(at);
        if c["command"] != "add_partition" && c["command"] != "set_param" {
            c["partition"] = json!(p);
        }
        c
    })
}

/// A random small native scenario (always valid).
fn scenario() -> impl Strategy<Value = Value> {
    let shape = (1u32..=4, 1u32..=3, 1u32..=3, 1000i64..5000, any::<u64>());
    shape.prop_flat_map(|(partitions, sp, wp, duration, seed)| {
        let exchange = if sp == wp { prop_oneof![Just("hash"), Just("rebalance"), Just("forward")].boxed() } else { prop_oneof![Just("hash"), Just("rebalance")].boxed() };
        let window = prop_oneof![
            (100i64..3000).prop_map(|s| json!({"type": "tumbling", "size_ms": s})),
            (100i64..2000).prop_map(|g| json!({"type": "session", "gap_ms": g})),
        ];
        let source = (0i64..=2000, prop::option::of(100i64..=2000), any::<bool>(), prop_oneof![Just(200i64), 20i64..500], any::<bool>(), prop::option::of(20u64..2000));
        let window_op = (window, 0i64..=2000, any::<bool>(), prop_oneof![3 => Just(0i64), 1 => 1i64..50]);
        let cmds = prop::collection::vec(command(duration), 0..8);
        let prods = prop::collection::vec(producer(), 1..5);
        let trace = (prop_oneof![Just(0usize), Just(50), Just(2000)], any::<bool>());
        (Just((partitions, sp, wp, duration, seed)), exchange, source, window_op, prods, cmds, any::<bool>(), trace)
    })
    .prop_map(|((partitions, sp, wp, duration, seed), exchange, source, window_op, producers, commands, end, trace)| {
        let (bound, idle, per_event, interval, drop_hb, rate) = source;
        let (assigner, lateness, side, latency) = window_op;
        let producers: Vec<Value> = producers
            .into_iter()
            .map(|mut p| {
                if let Some(x) = p["partitions"].as_u64() {
                    p["partitions"] = json!(x % partitions as u64);
                }
                p
            })
            .collect();
        let commands: Vec<Value> = commands
            .into_iter()
            .map(|mut c| {
                if let Some(p) = c["partition"].as_u64() {
                    c["partition"] = json!(p % partitions as u64);
                }
                c
            })
            .collect();
        json!({
            "name": "prop",
            "seed": seed,
            "duration_ms": duration,
            "end_of_input": end,
            "topic": {"partitions": partitions},
            "source": {
                "parallelism": sp,
                "watermark": {
                    "generator": {"kind": "bounded_out_of_orderness", "bound_ms": bound},
                    "emit": if per_event { "per_event" } else { "periodic" },
                    "idle_timeout_ms": idle,
                    "auto_watermark_interval_ms": interval,
                },
                "transform": {"drop_heartbeats": drop_hb},
                "read_rate_per_s": rate,
            },
            "exchange": {"type": exchange, "latency_ms": latency},
            "window": {"assigner": assigner, "parallelism": wp, "allowed_lateness_ms": lateness, "late_side_output": side},
            "producers": producers,
            "commands": commands,
            "trace": {"capacity": trace.0, "records": trace.1},
        })
    })
}

/// Where every record is, summed over partitions and subtasks.
#[derive(Debug, Default, PartialEq, Eq)]
struct Ledger {
    produced: u64,
    unread: u64,
    filtered: u64,
    source_out: u64,
    in_flight: u64,
    window_in: u64,
    in_state: u64,
    purged: u64,
    late_side_output: u64,
    late_dropped: u64,
    no_window: u64,
}

fn ledger(sim: &Simulation) -> Ledger {
    let mut l = Ledger {
        produced: sim.partitions().iter().map(|p| p.produced).sum(),
        unread: sim.partitions().iter().map(|p| p.unread() as u64).sum(),
        filtered: sim.sources().iter().map(|s| s.num_records_filtered).sum(),
        source_out: sim.sources().iter().map(|s| s.num_records_out).sum(),
        in_flight: sim.downstream().in_flight_records(),
        ..Ledger::default()
    };
    for w in &sim.downstream().windows {
        l.window_in += w.num_records_in;
        l.in_state += w.op.records_in_state();
        l.purged += w.op.purged_records;
        l.late_side_output += w.num_late_records_side_output;
        l.late_dropped += w.num_late_records_dropped;
        l.no_window += w.num_records_no_window;
    }
    l
}

fn check_conservation(sim: &Simulation, side_output: bool, at: &str) -> Result<(), TestCaseError> {
    let l = ledger(sim);
    prop_assert_eq!(l.produced, l.unread + l.filtered + l.source_out, "{}: log = unread + filtered + sent {:?}", at, l);
    prop_assert_eq!(l.source_out, l.in_flight + l.window_in, "{}: sent = in flight + arrived {:?}", at, l);
    prop_assert_eq!(
        l.window_in,
        l.in_state + l.purged + l.late_side_output + l.late_dropped + l.no_window,
        "{}: arrived = state + fired-and-cleaned + late + no window {:?}",
        at,
        l
    );
    prop_assert_eq!(l.no_window, 0, "{}: tumbling and session windows always assign a window", at);
    prop_assert_eq!(if side_output { l.late_dropped } else { l.late_side_output }, 0, "{}: late records go one way only", at);
    let m = sim.metrics();
    prop_assert_eq!(m.window.iter().map(|w| w.records_in_window_state).sum::<u64>(), l.in_state);
    let late = l.late_side_output + l.late_dropped;
    if late <= sim.config().late_records_retained as u64 {
        prop_assert_eq!(sim.downstream().late.len() as u64, late, "{}: every late record is listed", at);
    }
    Ok(())
}

/// Watermarks reaching each window operator strictly increase, and every window result was
/// fired at an operator watermark at or past the window's max timestamp (`end - 1`).
fn check_watermark_flow(sim: &Simulation, at: &str) -> Result<(), TestCaseError> {
    for (i, h) in sim.downstream().watermark_history.iter().enumerate() {
        prop_assert!(h.windows(2).all(|p| p[0].0 <= p[1].0 && p[0].1 < p[1].1), "{}: subtask {} watermarks not increasing: {:?}", at, i, h);
    }
    for r in sim.downstream().sink.results() {
        prop_assert!(r.watermark >= r.end - 1, "{}: window [{}, {}) fired at watermark {}", at, r.start, r.end, r.watermark);
        let op_w = sim.downstream().windows[r.subtask as usize].op.current_watermark();
        prop_assert!(r.watermark <= op_w, "{}: result watermark {} ahead of the operator's {}", at, r.watermark, op_w);
    }
    Ok(())
}

fn start_and_end(sc: &Value) -> (ProcTime, ProcTime) {
    let start = sc["start_time_ms"].as_i64().unwrap_or(wmp::engine::scenario::schema::DEFAULT_START_MS);
    (ProcTime(start), ProcTime(start) + sc["duration_ms"].as_i64().unwrap())
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn every_record_is_accounted_for(sc in scenario(), checkpoints in 1i64..8) {
        let parsed = parse(&sc.to_string()).map_err(|e| TestCaseError::fail(format!("invalid scenario: {e}")))?;
        let mut sim = parsed.build().map_err(|e| TestCaseError::fail(e.to_string()))?;
        let side = parsed.window.late_side_output;
        let (start, end) = start_and_end(&sc);
        for k in 1..=checkpoints {
            let t = start + (end - start) * k / checkpoints;
            sim.run_until(t).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let at = format!("t = start + {}", t - start);
            check_conservation(&sim, side, &at)?;
            check_watermark_flow(&sim, &at)?;
        }
        sim.apply(Command::EndOfInput).map_err(|e| TestCaseError::fail(e.to_string()))?;
        check_conservation(&sim, side, "after end of input")?;
        check_watermark_flow(&sim, "after end of input")?;
    }

    #[test]
    fn runs_are_deterministic(sc in scenario(), chunks in prop::collection::vec(1i64..1500, 1..6)) {
        let parsed = parse(&sc.to_string()).map_err(|e| TestCaseError::fail(format!("invalid scenario: {e}")))?;
        let a = parsed.run().map_err(|e| TestCaseError::fail(e.to_string()))?;
        let b = parse(&sc.to_string()).unwrap().run().unwrap();
        prop_assert_eq!(a.trace().hash_hex(), b.trace().hash_hex());
        prop_assert_eq!(report("p", &a, true), report("p", &b, true));

        // The same run driven in uneven chunks, and a clone taken midway, end up identical.
        let (start, end) = start_and_end(&sc);
        let mut c = parsed.build().unwrap();
        let mut t = start;
        for d in chunks {
            t = (t + d).min(end);
            c.run_until(t).unwrap();
        }
        let mut d = c.clone();
        c.run_until(end).unwrap();
        d.run_until(end).unwrap();
        if parsed.end_of_input {
            c.apply(Command::EndOfInput).unwrap();
            d.apply(Command::EndOfInput).unwrap();
        }
        prop_assert_eq!(c.trace().hash_hex(), a.trace().hash_hex(), "chunked run differs from a single run");
        prop_assert_eq!(d.trace().hash_hex(), a.trace().hash_hex(), "a clone continues identically");
        prop_assert_eq!(report("p", &c, true), report("p", &a, true));

        // Driven one instant at a time with `step`.
        let mut e = parsed.build().unwrap();
        while e.next_event_time().is_some_and(|t| t <= end) {
            e.step().unwrap();
        }
        e.run_until(end).unwrap();
        if parsed.end_of_input {
            e.apply(Command::EndOfInput).unwrap();
        }
        prop_assert_eq!(e.trace().hash_hex(), a.trace().hash_hex(), "a run driven by step() differs");
    }
}
