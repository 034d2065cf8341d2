//! `WindowOperator` (§8.5, §8.7, §8.8) with tumbling, sliding and session windows on random
//! inputs, against a model: timer firings exactly when the watermark first reaches `end - 1`,
//! `Late` iff every window is late and `ts + L <= W`, `NoWindow` only without windows, firing
//! counts = accepted elements so far, state and cleanup accounting. A second operator fed
//! through the hot-window slots must agree with the first exactly. The same model holds for a
//! SQL window aggregation (§10.2: `L = 0`, HOP with `size % slide == 0`, CUMULATE), whose slice
//! rule must drop exactly what the per-window rule drops.
//!
//! The triggers' promises, for every assigner: a purging trigger emits every accepted record
//! exactly once over all its firings (never twice); an accumulating one never emits fewer
//! records for a window than it did before; on-time and early firings come from watermarks, late
//! ones from records.

mod common;

use common::config;
use proptest::prelude::*;
use std::collections::BTreeMap;
use wmp::engine::operator::assigner::WindowSpec;
use wmp::engine::operator::sql_window::{self, WindowApi};
use wmp::engine::operator::trigger::{FiringKind, TriggerSpec};
use wmp::engine::operator::window_operator::{ElementOutcome, WindowFiring, WindowOperator};
use wmp::engine::time::{EventTime, NO_WATERMARK};

#[derive(Clone, Copy, Debug)]
enum WinOp {
    /// An element `dt` ms from the current watermark (from 0 before the first one).
    Element { key: u32, dt: i64 },
    /// The watermark rises by `step` (the first one is placed at `step - 2000`).
    Watermark { step: i64 },
}

fn tumbling() -> impl Strategy<Value = WindowSpec> {
    (1i64..3000)
        .prop_flat_map(|size| (Just(size), -(size - 1)..size))
        .prop_map(|(size_ms, offset_ms)| WindowSpec::Tumbling { size_ms, offset_ms })
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

/// HOP as Flink SQL's slicing runtime takes it: `size % slide == 0`.
fn hop() -> impl Strategy<Value = WindowSpec> {
    (1i64..600, 1i64..6)
        .prop_flat_map(|(slide, n)| (Just(slide), Just(slide * n), -(slide - 1)..slide))
        .prop_map(|(slide_ms, size_ms, offset_ms)| WindowSpec::Sliding { size_ms, slide_ms, offset_ms })
}

fn cumulate() -> impl Strategy<Value = WindowSpec> {
    (1i64..600, 1i64..6, -5000i64..5000).prop_map(|(step_ms, n, offset_ms)| WindowSpec::Cumulate {
        step_ms,
        max_size_ms: step_ms * n,
        offset_ms,
    })
}

fn ops() -> impl Strategy<Value = Vec<WinOp>> {
    let op = prop_oneof![
        4 => (0u32..3, -4000i64..4000).prop_map(|(key, dt)| WinOp::Element { key, dt }),
        1 => (1i64..2500).prop_map(|step| WinOp::Watermark { step }),
    ];
    prop::collection::vec(op, 0..150)
}

fn window_case() -> impl Strategy<Value = (WindowSpec, i64, Vec<WinOp>)> {
    (prop_oneof![tumbling(), sliding(), session()], 0i64..3000, ops())
}

fn sql_case() -> impl Strategy<Value = (WindowSpec, Vec<WinOp>)> {
    (prop_oneof![tumbling(), hop(), session(), cumulate()], ops())
}

fn trigger() -> impl Strategy<Value = TriggerSpec> {
    prop_oneof![
        Just(TriggerSpec::EventTime),
        Just(TriggerSpec::Purging),
        (1i64..1500, any::<bool>()).prop_map(|(interval_ms, purging)| TriggerSpec::Continuous { interval_ms, purging }),
    ]
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
        WindowSpec::Cumulate { step_ms, max_size_ms, offset_ms } => {
            let start = offset_ms + (ts - offset_ms).div_euclid(max_size_ms) * max_size_ms;
            let first_end = offset_ms + (ts - offset_ms).div_euclid(step_ms) * step_ms + step_ms;
            (first_end..=start + max_size_ms).step_by(step_ms as usize).map(|e| (start, e)).collect()
        }
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
        let touching: Vec<(u32, i64, i64)> = self
            .live
            .range((key, i64::MIN, i64::MIN)..=(key, i64::MAX, i64::MAX))
            .map(|(k, _)| *k)
            .filter(|&(_, s, e)| s <= new.1 && e >= new.0)
            .collect();
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

/// Runs `ops` through an operator (and a twin fed through the hot-window slots) against the
/// section-8.8 model.
fn follows_the_model(spec: WindowSpec, lateness: i64, api: WindowApi, ops: &[WinOp]) -> Result<(), TestCaseError> {
    let mut op = WindowOperator::new(spec, lateness).with_api(api);
    // The same operator fed through the hot-window slots (key = slot) must agree exactly.
    let mut hot = WindowOperator::new(spec, lateness).with_api(api);
    let mut hot_fired = Vec::new();
    let mut m = WindowModel { lateness, w: NO_WATERMARK.ms(), live: BTreeMap::new(), purged: 0 };
    let mut fired = Vec::new();
    for (i, &o) in ops.iter().enumerate() {
        fired.clear();
        hot_fired.clear();
        match o {
            WinOp::Element { key, dt } => {
                let ts = if m.w == NO_WATERMARK.ms() { dt } else { m.w + dt };
                if api == WindowApi::Sql && !spec.is_merging() {
                    let dropped = sql_window::is_dropped(spec, EventTime(ts), EventTime(m.w));
                    let all_late = model_windows(spec, ts).iter().all(|&(_, e)| m.is_window_late(e));
                    prop_assert_eq!(dropped, all_late, "step {}: the slice rule and the per-window rule disagree on ts {}", i, ts);
                }
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
        prop_assert_eq!(
            hot.pending_windows().collect::<Vec<_>>(),
            op.pending_windows().collect::<Vec<_>>(),
            "step {}: hot slots hold the same",
            i
        );
        prop_assert_eq!(hot.records_in_state(), op.records_in_state());
    }
    Ok(())
}

/// What a trigger emitted so far, against what the operator accepted.
#[derive(Default)]
struct TriggerLedger {
    /// (element, window) pairs the operator accepted.
    accepted: u64,
    /// Records emitted over all firings.
    emitted: u64,
    /// Each window's last emitted count and firing number.
    last: BTreeMap<(u32, i64, i64), (u64, u32)>,
}

impl TriggerLedger {
    fn firings(&mut self, trigger: TriggerSpec, fired: &[WindowFiring], from_watermark: bool) -> Result<(), TestCaseError> {
        for f in fired {
            prop_assert!(f.agg.count > 0, "a firing emits contents: {:?}", f);
            prop_assert_eq!(f.kind != FiringKind::Late, from_watermark, "on time and early from watermarks, late from records: {:?}", f);
            prop_assert!(f.kind != FiringKind::Early || trigger.interval_ms().is_some(), "only a continuous trigger fires early");
            prop_assert!(f.watermark >= f.end - 1 || f.kind == FiringKind::Early, "only early firings come before the end: {:?}", f);
            self.emitted += f.agg.count;
            let id = (f.key, f.start.ms(), f.end.ms());
            if let Some(&(count, firing)) = self.last.get(&id) {
                if !trigger.purges() {
                    prop_assert!(f.agg.count >= count, "accumulating: {:?} after {}", f, count);
                }
                prop_assert!(f.firing > firing, "firings count up: {:?}", f);
            }
            self.last.insert(id, (f.agg.count, f.firing));
        }
        Ok(())
    }
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn window_operator_follows_section_8_8((spec, lateness, ops) in window_case()) {
        follows_the_model(spec, lateness, WindowApi::Datastream, &ops)?;
    }

    #[test]
    fn sql_window_aggregation_follows_the_slice_rules((spec, ops) in sql_case()) {
        follows_the_model(spec, 0, WindowApi::Sql, &ops)?;
    }

    #[test]
    fn triggers_emit_each_record_as_promised((spec, lateness, ops) in window_case(), trigger in trigger()) {
        let mut op = WindowOperator::new(spec, lateness).with_trigger(trigger);
        let mut ledger = TriggerLedger::default();
        let mut fired = Vec::new();
        let mut w = NO_WATERMARK.ms();
        for &o in &ops {
            fired.clear();
            match o {
                WinOp::Element { key, dt } => {
                    let ts = if w == NO_WATERMARK.ms() { dt } else { w + dt };
                    let live = model_windows(spec, ts).iter().filter(|&&(_, e)| e - 1 + lateness > w).count() as u64;
                    let got = op.process_element(key, EventTime(ts), 1, &mut fired);
                    if got == ElementOutcome::Accepted {
                        ledger.accepted += if spec.is_merging() { 1 } else { live };
                    }
                    ledger.firings(trigger, &fired, false)?;
                }
                WinOp::Watermark { step } => {
                    w = if w == NO_WATERMARK.ms() { step - 2000 } else { w + step };
                    op.advance_watermark(EventTime(w), &mut fired);
                    ledger.firings(trigger, &fired, true)?;
                }
            }
            prop_assert_eq!(op.records_in_state() + op.purged_records, ledger.accepted, "records held or gone");
            if trigger.purges() {
                prop_assert!(ledger.emitted <= ledger.accepted, "a purging trigger emitted a record twice: {} > {}", ledger.emitted, ledger.accepted);
            }
        }
        // Past every window's end and cleanup: everything fired.
        fired.clear();
        op.advance_watermark(EventTime(w.max(0) + 1_000_000), &mut fired);
        ledger.firings(trigger, &fired, true)?;
        prop_assert_eq!(op.records_in_state(), 0);
        if trigger.purges() {
            prop_assert_eq!(ledger.emitted, ledger.accepted, "every accepted record is emitted exactly once");
        }
    }
}
