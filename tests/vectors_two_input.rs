//! Conformance vectors for two-input operators, ported from
//! `../shared/reference/flink-test-vectors.md`: the operator-level combination of two inputs
//! (V-2IN-*, `IndexedCombinedWatermarkStatus`) and the interval join (V-IJ-*, Flink's
//! `IntervalJoinOperatorTest`), the latter driven through the combination exactly as Flink's
//! `processWatermark1/2` drive the operator.

mod common;

use common::run::sim;
use serde_json::json;
use wmp::engine::combined_watermark::IndexedCombinedWatermarkStatus;
use wmp::engine::keys::KeyId;
use wmp::engine::operator::interval_join::{IntervalJoinOperator, JoinBounds, JoinOutcome, JoinedPair, Side};
use wmp::engine::status::{Signal, WatermarkStatus};
use wmp::engine::time::{EventTime, NO_WATERMARK};
use wmp::engine::valve::{StatusWatermarkValve, ValveSwitches};

fn render(out: &[Signal]) -> String {
    let parts: Vec<String> = out
        .iter()
        .map(|s| match s {
            Signal::Watermark(w) => format!("WM({w})"),
            Signal::Status(WatermarkStatus::Idle) => "IDLE".into(),
            Signal::Status(WatermarkStatus::Active) => "ACTIVE".into(),
        })
        .collect();
    parts.join(" ")
}

/// `in1 WM 25`, `in0 IDLE`, `in1 ACTIVE` → (input, watermark or status).
fn parse_step(step: &str) -> (usize, Result<EventTime, WatermarkStatus>) {
    let parts: Vec<&str> = step.split_whitespace().collect();
    let input = parts[0].trim_start_matches("in").parse().unwrap();
    let event = match parts[1] {
        "WM" => Ok(EventTime(parts[2].parse().unwrap())),
        "IDLE" => Err(WatermarkStatus::Idle),
        "ACTIVE" => Err(WatermarkStatus::Active),
        other => panic!("bad step {other}"),
    };
    (input, event)
}

/// One step of a V-2IN table: input, expected output, overall idle flag, input holding the min.
type Row = (&'static str, &'static str, bool, Option<usize>);

fn combined(all_idle_flush: bool, rows: &[Row]) {
    let mut c = IndexedCombinedWatermarkStatus::new(2, all_idle_flush);
    for (i, &(step, want, idle, held)) in rows.iter().enumerate() {
        let mut out = Vec::new();
        match parse_step(step) {
            (input, Ok(w)) => c.input_watermark(input, w, &mut out),
            (input, Err(s)) => c.input_status(input, s, &mut out),
        }
        let at = format!("step {i} ({step}), flush {all_idle_flush}");
        assert_eq!(render(&out), want, "{at}");
        assert_eq!(c.is_idle(), idle, "{at}");
        assert_eq!(c.min_input(), held, "{at}");
    }
}

/// V-2IN-1: a returning input stalls the combined watermark (no "unaligned" state); the last
/// two steps differ between ≤ 2.1 and ≥ 2.2 (FLINK-38454).
#[test]
fn v_2in_1_returning_input_stalls() {
    let prefix: [Row; 8] = [
        ("in0 WM 10", "", false, Some(1)),
        ("in1 WM 5", "WM(5)", false, Some(1)),
        ("in1 IDLE", "WM(10)", false, Some(0)),
        ("in0 WM 20", "WM(20)", false, Some(0)),
        ("in1 ACTIVE", "", false, Some(1)),
        ("in0 WM 30", "", false, Some(1)),
        ("in1 WM 25", "WM(25)", false, Some(1)),
        ("in0 IDLE", "", false, Some(1)),
    ];
    let mut released = prefix.to_vec();
    released.extend([("in1 IDLE", "IDLE", true, None), ("in1 WM 26", "WM(26)", false, Some(1))]);
    combined(false, &released);
    let mut flushing = prefix.to_vec();
    flushing.extend([("in1 IDLE", "WM(30) IDLE", true, None), ("in1 WM 26", "", false, Some(1))]);
    combined(true, &flushing);
}

/// V-2IN-2: one input idle from the start does not hold the other back.
#[test]
fn v_2in_2_one_input_idle_from_the_start() {
    for flush in [false, true] {
        combined(flush, &[("in0 IDLE", "", false, Some(1)), ("in1 WM 7", "WM(7)", false, Some(1))]);
    }
}

#[test]
fn per_input_watermarks_are_the_metrics() {
    let mut c = IndexedCombinedWatermarkStatus::new(2, true);
    let mut out = Vec::new();
    assert_eq!((c.input_watermark_of(0), c.input_watermark_of(1), c.combined_watermark()), (NO_WATERMARK, NO_WATERMARK, NO_WATERMARK));
    c.input_watermark(0, EventTime(10), &mut out);
    c.input_status(0, WatermarkStatus::Idle, &mut out);
    c.input_watermark(1, EventTime(4), &mut out);
    c.input_watermark(1, EventTime(3), &mut out);
    assert_eq!(render(&out), "WM(4)");
    assert_eq!((c.input_watermark_of(0), c.input_watermark_of(1), c.combined_watermark()), (EventTime(10), EventTime(4), EventTime(4)));
    assert!(c.input_idle(0) && !c.input_idle(1));
}

/// Flink's `currentInputWatermark` of a two-input task is its `MinWatermarkGauge` (reference
/// §6.4): the lower of both inputs' last watermarks, idle or not. quiet-side-join with the idle
/// timeout its finding offers: the rates input, idle, never sent a watermark, so the metric and
/// the REST answer stay at No Watermark while the operator, which leaves the idle input out,
/// fires its windows (the metric read the operator's watermark before).
#[test]
fn a_two_input_tasks_input_watermark_metric_counts_an_idle_input() {
    let mut v: serde_json::Value = serde_json::from_str(include_str!("../presets/quiet_side_join.json")).unwrap();
    v["second_input"]["source"]["watermark"]["idle_timeout_ms"] = json!(5_000);
    v["source"]["watermark"]["idle_timeout_ms"] = json!(5_000);
    let s = sim(&v.to_string(), 60_000);
    let window = &s.downstream().windows[0];
    assert!(window.current_input_watermark() > NO_WATERMARK && s.downstream().sink.total() > 0, "the operator fires");
    assert_eq!(window.input.input_watermark(1), NO_WATERMARK, "rates never sent one");
    assert_eq!(s.metrics().window[0].current_input_watermark, NO_WATERMARK);
    assert_eq!(s.metrics().window[0].watermark_lag, None);
    assert_eq!(s.rest_watermarks("window").unwrap()[0].value, i64::MIN.to_string());
}

/// The same steps through a two-channel valve: the returning channel stays unaligned, so the
/// other one keeps advancing (V-VAL-12) where the two-input combination stalls.
#[test]
fn contrast_with_the_valve() {
    let steps = ["in0 WM 10", "in1 WM 5", "in1 IDLE", "in0 WM 20", "in1 ACTIVE", "in0 WM 30", "in1 WM 25", "in1 WM 31"];
    let valve_want = ["", "WM(5)", "WM(10)", "WM(20)", "", "WM(30)", "", ""];
    let combined_want = ["", "WM(5)", "WM(10)", "WM(20)", "", "", "WM(25)", "WM(30)"];
    let released = ValveSwitches { unconditional_flush: false, rederive_on_reactivate: false };
    let mut v = StatusWatermarkValve::new(2, released);
    let mut c = IndexedCombinedWatermarkStatus::new(2, true);
    for (i, step) in steps.iter().enumerate() {
        let (mut vo, mut co) = (Vec::new(), Vec::new());
        match parse_step(step) {
            (input, Ok(w)) => {
                v.input_watermark(input, w, &mut vo);
                c.input_watermark(input, w, &mut co);
            }
            (input, Err(s)) => {
                v.input_status(input, s, &mut vo);
                c.input_status(input, s, &mut co);
            }
        }
        assert_eq!(render(&vo), valve_want[i], "valve, step {i} ({step})");
        assert_eq!(render(&co), combined_want[i], "combined, step {i} ({step})");
    }
    // The valve emitted 30 as soon as it came (31 ≥ 30 then realigns the channel without a
    // rise); the combination stalled at 20 until input 1 passed 25.
    assert_eq!((v.output_watermark(), c.combined_watermark()), (EventTime(30), EventTime(30)));
}

// ---------------------------------------------------------------------------------------------
// Interval join

const KEY: KeyId = 0;

/// Flink's `KeyedTwoInputStreamOperatorTestHarness` around the operator: elements go straight to
/// it, watermarks through the two-input combination, whose rises advance the operator.
struct JoinHarness {
    combined: IndexedCombinedWatermarkStatus,
    join: IntervalJoinOperator,
    pairs: Vec<JoinedPair>,
}

impl JoinHarness {
    fn new(lower_ms: i64, lower_inclusive: bool, upper_ms: i64, upper_inclusive: bool) -> Self {
        let bounds = JoinBounds { lower_ms, upper_ms, lower_exclusive: !lower_inclusive, upper_exclusive: !upper_inclusive };
        bounds.validate().expect("valid bounds");
        JoinHarness { combined: IndexedCombinedWatermarkStatus::new(2, true), join: IntervalJoinOperator::new(bounds), pairs: Vec::new() }
    }

    fn element(&mut self, side: Side, ts: i64) -> JoinOutcome {
        // The value tells the sides apart in the pairs: 1 for left, 2 for right.
        let value = if side == Side::Left { 1 } else { 2 };
        self.join.process_element(side, KEY, EventTime(ts), value, &mut self.pairs)
    }

    fn watermark(&mut self, side: Side, w: i64) {
        let mut out = Vec::new();
        self.combined.input_watermark(if side == Side::Left { 0 } else { 1 }, EventTime(w), &mut out);
        for s in out {
            if let Signal::Watermark(w) = s {
                self.join.advance_watermark(w);
            }
        }
    }

    /// `processElementsAndWatermarks(from, to)`: one side's elements and watermarks, then the other's.
    fn elements_and_watermarks(&mut self, from: i64, to: i64, lhs_first: bool) {
        let order = if lhs_first { [Side::Left, Side::Right] } else { [Side::Right, Side::Left] };
        for side in order {
            for i in from..=to {
                assert_eq!(self.element(side, i), JoinOutcome::Accepted, "{side:?} {i}");
                self.watermark(side, i);
            }
        }
    }

    /// The pairs as `(left ts, right ts)`, checking each carries `max` as its timestamp.
    fn pairs(&self) -> Vec<(i64, i64)> {
        self.pairs
            .iter()
            .map(|p| {
                assert_eq!(p.ts, p.left_ts.max(p.right_ts), "{p:?}");
                assert_eq!((p.key, p.left_value, p.right_value), (KEY, 1, 2), "{p:?}");
                (p.left_ts.ms(), p.right_ts.ms())
            })
            .collect()
    }

    fn sorted_pairs(&self) -> Vec<(i64, i64)> {
        let mut p = self.pairs();
        p.sort_unstable();
        p
    }

    fn buffer(&self, side: Side) -> Vec<i64> {
        self.join.bucket_timestamps(side, KEY).map(EventTime::ms).collect()
    }
}

/// V-IJ-2 (and #testImplementationMirrorsCorrectly): "process 1..4" in both orders; Flink's test
/// compares the outputs as a set.
#[test]
fn v_ij_2_bound_combinations() {
    type Case = ((i64, bool), (i64, bool), &'static [(i64, i64)]);
    let cases: [Case; 8] = [
        ((-2, true), (-1, true), &[(2, 1), (3, 1), (3, 2), (4, 2), (4, 3)]),
        ((-1, true), (1, true), &[(1, 1), (1, 2), (2, 1), (2, 2), (2, 3), (3, 2), (3, 3), (3, 4), (4, 3), (4, 4)]),
        ((1, true), (2, true), &[(1, 2), (1, 3), (2, 3), (2, 4), (3, 4)]),
        ((-3, false), (-1, false), &[(3, 1), (4, 2)]),
        ((-1, false), (1, false), &[(1, 1), (2, 2), (3, 3), (4, 4)]),
        ((1, false), (3, false), &[(1, 3), (2, 4)]),
        ((1, true), (3, false), &[(1, 2), (1, 3), (2, 3), (2, 4), (3, 4)]),
        ((-3, false), (-1, true), &[(2, 1), (3, 1), (3, 2), (4, 2), (4, 3)]),
    ];
    for ((lower, lower_incl), (upper, upper_incl), want) in cases {
        for lhs_first in [true, false] {
            let mut h = JoinHarness::new(lower, lower_incl, upper, upper_incl);
            h.elements_and_watermarks(1, 4, lhs_first);
            assert_eq!(h.sorted_pairs(), want, "bounds {lower}/{lower_incl} {upper}/{upper_incl}, lhs first {lhs_first}");
            assert_eq!((h.join.late(Side::Left), h.join.late(Side::Right)), (0, 0));
        }
    }
}

/// `[−1, 1]`, left first, step by step: the order in which the pairs come out.
#[test]
fn v_ij_2_emission_order() {
    let mut h = JoinHarness::new(-1, true, 1, true);
    for i in 1..=4 {
        h.element(Side::Left, i);
        h.watermark(Side::Left, i);
    }
    assert!(h.pairs().is_empty());
    assert_eq!(h.join.current_watermark(), NO_WATERMARK, "the right input is still at MIN");
    let mut steps = Vec::new();
    for i in 1..=4 {
        h.element(Side::Right, i);
        steps.push(h.pairs());
        h.pairs.clear();
        h.watermark(Side::Right, i);
        assert_eq!(h.join.current_watermark(), EventTime(i));
    }
    assert_eq!(steps, vec![vec![(1, 1), (2, 1)], vec![(1, 2), (2, 2), (3, 2)], vec![(2, 3), (3, 3), (4, 3)], vec![(3, 4), (4, 4)]]);
    // At W = i the buckets at i − 1 went (cleanup times ts + 1 on both sides).
    assert_eq!((h.buffer(Side::Left), h.buffer(Side::Right)), (vec![4], vec![4]));
}

fn fill_both_buffers_1_to_5(h: &mut JoinHarness) {
    for side in [Side::Left, Side::Right] {
        for i in 1..=5 {
            assert_eq!(h.element(side, i), JoinOutcome::Accepted);
        }
    }
}

/// V-IJ-3 testStateCleanupNegativeInclusiveNegativeInclusive `[−1, 0]` and
/// #testStateCleanupNegativePositiveNegativeExlusive `(−2, 1)` (the same normalised bounds).
#[test]
fn v_ij_3_state_cleanup_negative_bounds() {
    for (lower, lower_incl, upper, upper_incl) in [(-1, true, 0, true), (-2, false, 1, false)] {
        let mut h = JoinHarness::new(lower, lower_incl, upper, upper_incl);
        fill_both_buffers_1_to_5(&mut h);
        assert_eq!(h.join.pending_timers(), 10);
        let steps: [(i64, &[i64], &[i64]); 3] = [(1, &[2, 3, 4, 5], &[1, 2, 3, 4, 5]), (4, &[5], &[4, 5]), (6, &[], &[])];
        for (w, left, right) in steps {
            h.watermark(Side::Left, w);
            h.watermark(Side::Right, w);
            assert_eq!((h.buffer(Side::Left), h.buffer(Side::Right)), (left.to_vec(), right.to_vec()), "W = {w}");
            assert_eq!(h.join.buffered(Side::Left) + h.join.buffered(Side::Right), (left.len() + right.len()) as u64);
        }
        assert_eq!((h.join.pending_timers(), h.join.buffered_keys(Side::Left), h.join.buffered_keys(Side::Right)), (0, 0, 0));
    }
}

/// The mirror image: #testStateCleanupPositiveInclusivePositiveInclusive `[0, 1]` and
/// #testStateCleanupPositiveExlusivePositiveExclusive `(−1, 2)`.
#[test]
fn v_ij_3_state_cleanup_positive_bounds() {
    for (lower, lower_incl, upper, upper_incl) in [(0, true, 1, true), (-1, false, 2, false)] {
        let mut h = JoinHarness::new(lower, lower_incl, upper, upper_incl);
        fill_both_buffers_1_to_5(&mut h);
        let steps: [(i64, &[i64], &[i64]); 3] = [(1, &[1, 2, 3, 4, 5], &[2, 3, 4, 5]), (4, &[4, 5], &[5]), (6, &[], &[])];
        for (w, left, right) in steps {
            h.watermark(Side::Left, w);
            h.watermark(Side::Right, w);
            assert_eq!((h.buffer(Side::Left), h.buffer(Side::Right)), (left.to_vec(), right.to_vec()), "W = {w}");
        }
    }
}

/// V-IJ-5 testDiscardsLateData `[−1, 1]`.
#[test]
fn v_ij_5_discards_late_data() {
    let mut h = JoinHarness::new(-1, true, 1, true);
    for i in 1..=3 {
        assert_eq!(h.element(Side::Left, i), JoinOutcome::Accepted);
        assert_eq!(h.element(Side::Right, i), JoinOutcome::Accepted);
    }
    h.watermark(Side::Left, 3);
    h.watermark(Side::Right, 3);
    let before = h.pairs.len();
    assert_eq!(h.element(Side::Left, 1), JoinOutcome::Late, "1 < 3");
    assert_eq!(h.pairs.len(), before, "a late element is not joined");
    for i in 4..=5 {
        assert_eq!(h.element(Side::Left, i), JoinOutcome::Accepted);
        assert_eq!(h.element(Side::Right, i), JoinOutcome::Accepted);
    }
    let want = [(1, 1), (1, 2), (2, 1), (2, 2), (2, 3), (3, 2), (3, 3), (3, 4), (4, 3), (4, 4), (4, 5), (5, 4), (5, 5)];
    assert_eq!(h.sorted_pairs(), want);
    assert_eq!((h.join.late(Side::Left), h.join.late(Side::Right)), (1, 0));
}

/// V-IJ-6 testLateData `[−1, 1]`: the late elements are the caller's side outputs.
#[test]
fn v_ij_6_late_data() {
    let mut h = JoinHarness::new(-1, true, 1, true);
    h.element(Side::Left, 3);
    h.element(Side::Right, 3);
    h.watermark(Side::Left, 3);
    h.watermark(Side::Right, 3);
    let steps = [(Side::Left, 4), (Side::Right, 4), (Side::Left, 1), (Side::Right, 2), (Side::Left, 5), (Side::Right, 5)];
    let outcomes: Vec<JoinOutcome> = steps.iter().map(|&(side, ts)| h.element(side, ts)).collect();
    use JoinOutcome::{Accepted, Late};
    assert_eq!(outcomes, vec![Accepted, Accepted, Late, Late, Accepted, Accepted]);
    assert_eq!(h.sorted_pairs(), [(3, 3), (3, 4), (4, 3), (4, 4), (4, 5), (5, 4), (5, 5)]);
    assert_eq!((h.join.late(Side::Left), h.join.late(Side::Right)), (1, 1));
    assert_eq!(h.element(Side::Left, 3), Accepted, "ts == W is not late");
}

/// V-IJ-8 #testFailsWithNoTimestampsLeft/Right: `Long.MIN_VALUE` fails the job; nothing is kept.
#[test]
fn v_ij_8_missing_timestamps() {
    for side in [Side::Left, Side::Right] {
        let mut h = JoinHarness::new(0, true, 0, true);
        assert_eq!(h.join.process_element(side, KEY, NO_WATERMARK, 0, &mut h.pairs), JoinOutcome::NoTimestamp);
        assert_eq!((h.join.buffered(side), h.join.pending_timers(), h.join.late(side)), (0, 0, 0));
    }
}
