//! Window vectors from `../shared/reference/flink-test-vectors.md` (sections H, I, L) with the
//! triggers they name, `ContinuousEventTimeTriggerTest` ported to the operator, the edges of
//! `TimeWindow.mergeWindows`, and Flink SQL's window rules (V-SQL-3, V-SQL-5) — each step's
//! output checked as the vector lists it (within one watermark, firings of different keys are in
//! timer-heap order in Flink, so those are compared sorted).

mod common;

use common::run::sim as run;
use wmp::engine::operator::assigner::WindowSpec;
use wmp::engine::operator::sql_window::WindowApi;
use wmp::engine::operator::trigger::{FiringKind, TriggerSpec};
use wmp::engine::operator::window_operator::{ElementOutcome, WindowFiring, WindowOperator};
use wmp::engine::scenario::build::parse;
use wmp::engine::time::EventTime;
use wmp::engine::trace::TraceKind;

const KEY1: u32 = 1;
const KEY2: u32 = 2;

/// One operator and what it emitted since the last look.
struct Harness {
    op: WindowOperator,
    out: Vec<WindowFiring>,
}

impl Harness {
    fn new(spec: WindowSpec, lateness_ms: i64, trigger: TriggerSpec) -> Self {
        Harness { op: WindowOperator::new(spec, lateness_ms).with_trigger(trigger), out: Vec::new() }
    }

    fn sql(spec: WindowSpec) -> Self {
        Harness { op: WindowOperator::new(spec, 0).with_api(WindowApi::Sql), out: Vec::new() }
    }

    fn el(&mut self, key: u32, ts: i64) -> ElementOutcome {
        self.el_value(key, ts, 1)
    }

    fn el_value(&mut self, key: u32, ts: i64, value: i64) -> ElementOutcome {
        self.op.process_element(key, EventTime(ts), value, &mut self.out)
    }

    fn wm(&mut self, w: i64) {
        self.op.advance_watermark(EventTime(w), &mut self.out);
    }

    /// `(keyK,sum)@maxTimestamp kind`, in emission order.
    fn take(&mut self) -> Vec<String> {
        self.out.drain(..).map(|f| format!("(key{},{})@{} {}", f.key, f.agg.sum, (f.end - 1).ms(), kind(f.kind))).collect()
    }

    /// Sessions as the vectors write them: `("keyK-sum",start,end) kind`.
    fn take_sessions(&mut self) -> Vec<String> {
        self.out.drain(..).map(|f| format!("(\"key{}-{}\",{},{}) {}", f.key, f.agg.sum, f.start.ms(), f.end.ms(), kind(f.kind))).collect()
    }

    /// SQL rows as V-SQL-5 writes them: `(keyK,sum,count,start,end)`, sorted.
    fn take_rows(&mut self) -> Vec<String> {
        let mut rows: Vec<String> =
            self.out.drain(..).map(|f| format!("(key{},{},{},{},{})", f.key, f.agg.sum, f.agg.count, f.start.ms(), f.end.ms())).collect();
        rows.sort();
        rows
    }
}

fn kind(k: FiringKind) -> &'static str {
    match k {
        FiringKind::OnTime => "on_time",
        FiringKind::Early => "early",
        FiringKind::Late => "late",
    }
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

const CONTINUOUS: fn(i64) -> TriggerSpec = |interval_ms| TriggerSpec::Continuous { interval_ms, purging: false };
const CONTINUOUS_PURGING: fn(i64) -> TriggerSpec = |interval_ms| TriggerSpec::Continuous { interval_ms, purging: true };

// ---------------------------------------------------------------------------------------------
// I. WindowOperator
// ---------------------------------------------------------------------------------------------

/// V-WIN-1 `testLateness`: tumbling 2 s, L = 500; purging, then the accumulating variant.
#[test]
fn v_win_1_lateness_purging_and_accumulating() {
    for (trigger, late_sum) in [(TriggerSpec::Purging, 1), (TriggerSpec::EventTime, 3)] {
        let mut h = Harness::new(WindowSpec::Tumbling { size_ms: 2000, offset_ms: 0 }, 500, trigger);
        assert_eq!(h.el(KEY2, 500), ElementOutcome::Accepted);
        h.wm(1500);
        assert_eq!(h.el(KEY2, 1300), ElementOutcome::Accepted);
        assert!(h.take().is_empty());
        h.wm(2300);
        assert_eq!(h.take(), strings(&["(key2,2)@1999 on_time"]));
        assert_eq!(h.el(KEY2, 1997), ElementOutcome::Accepted, "cleanup 2499 > 2300: not late");
        assert_eq!(h.take(), vec![format!("(key2,{late_sum})@1999 late")], "{trigger:?}");
        h.wm(6000);
        assert!(h.take().is_empty());
        assert_eq!(h.op.state_size(), 0, "cleaned up at 2499");
        assert_eq!(h.el(KEY2, 1998), ElementOutcome::Late, "dropped: numLateRecordsDropped");
        h.wm(7000);
        assert!(h.take().is_empty());
    }
}

/// V-WIN-3 `testDropDueToLatenessSliding`: size 3 s, slide 1 s, L = 0.
#[test]
fn v_win_3_drop_due_to_lateness_sliding() {
    let mut h = Harness::new(WindowSpec::Sliding { size_ms: 3000, slide_ms: 1000, offset_ms: 0 }, 0, TriggerSpec::EventTime);
    h.el(KEY2, 1000);
    h.wm(1999);
    assert_eq!(h.take(), strings(&["(key2,1)@1999 on_time"]));
    h.el(KEY2, 2000);
    h.wm(3000);
    assert_eq!(h.take(), strings(&["(key2,2)@2999 on_time"]));
    for (k, ts) in [(KEY1, 3001), (KEY2, 2400), (KEY2, 2400), (KEY1, 3001), (KEY2, 3900)] {
        assert_eq!(h.el(k, ts), ElementOutcome::Accepted, "each 2400 is late for [0,3000) only");
    }
    assert!(h.take().is_empty());
    h.wm(6000);
    let mut got = h.take();
    got.sort_by_key(|s| (s[s.find('@').unwrap()..].to_string(), s.clone()));
    assert_eq!(
        got,
        strings(&[
            "(key1,2)@3999 on_time",
            "(key2,5)@3999 on_time",
            "(key1,2)@4999 on_time",
            "(key2,4)@4999 on_time",
            "(key1,2)@5999 on_time",
            "(key2,1)@5999 on_time",
        ])
    );
    assert_eq!(h.el(KEY1, 3001), ElementOutcome::Late);
    h.wm(25000);
    assert!(h.take().is_empty());
}

/// The session prefix shared by V-WIN-4, -6 and -7 (gap 3 s), up to WM 14600.
fn session_prefix(h: &mut Harness, first_sum: i64) {
    h.el(KEY2, 1000);
    h.wm(1999);
    h.el(KEY2, 2000);
    h.wm(4998);
    h.el(KEY2, 4500);
    h.el(KEY2, 8500);
    h.wm(7400);
    h.el(KEY2, 7000);
    assert!(h.take_sessions().is_empty());
    h.wm(11501);
    assert_eq!(h.take_sessions(), vec![format!("(\"key2-{first_sum}\",1000,11500) on_time")]);
    h.el(KEY2, 11600);
    h.wm(14600);
    assert_eq!(h.take_sessions(), strings(&["(\"key2-1\",11600,14600) on_time"]));
}

const SESSION: WindowSpec = WindowSpec::Session { gap_ms: 3000 };

/// V-WIN-4 `testSideOutputDueToLatenessSessionZeroLateness[PurgingTrigger]`: identical outputs.
#[test]
fn v_win_4_session_zero_lateness_purging_and_accumulating() {
    for trigger in [TriggerSpec::Purging, TriggerSpec::EventTime] {
        let mut h = Harness::new(SESSION, 0, trigger);
        session_prefix(&mut h, 5);
        assert_eq!(h.el(KEY2, 10000), ElementOutcome::Late, "side output");
        assert_eq!(h.el(KEY2, 10100), ElementOutcome::Late, "not merged with 10000");
        assert_eq!(h.el(KEY2, 14500), ElementOutcome::Accepted);
        assert!(h.take_sessions().is_empty());
        h.wm(20000);
        assert_eq!(h.take_sessions(), strings(&["(\"key2-1\",14500,17500) on_time"]));
        h.wm(100000);
        assert!(h.take_sessions().is_empty());
    }
}

/// V-WIN-6 `testNotSideOutputDueToLatenessSessionWithLateness`: L = 10, accumulating.
#[test]
fn v_win_6_session_lateness_accumulating() {
    let mut h = Harness::new(SESSION, 10, TriggerSpec::EventTime);
    session_prefix(&mut h, 5);
    assert_eq!(h.el(KEY2, 10000), ElementOutcome::Accepted);
    assert_eq!(h.take_sessions(), strings(&["(\"key2-2\",10000,14600) late"]));
    assert_eq!(h.el(KEY2, 14500), ElementOutcome::Accepted);
    assert!(h.take_sessions().is_empty(), "maxTs 17499 > 14600");
    h.wm(20000);
    assert_eq!(h.take_sessions(), strings(&["(\"key2-3\",10000,17500) on_time"]));
}

/// V-WIN-7 `testNotSideOutputDueToLatenessSessionWithHugeLateness[PurgingTrigger]`: L = 10 s.
#[test]
fn v_win_7_session_huge_lateness_purging_and_accumulating() {
    for (trigger, merged, last) in [(TriggerSpec::Purging, 1, 1), (TriggerSpec::EventTime, 7, 8)] {
        let mut h = Harness::new(SESSION, 10000, trigger);
        session_prefix(&mut h, 5);
        assert_eq!(h.el(KEY2, 10000), ElementOutcome::Accepted, "merges with both sessions");
        assert_eq!(h.take_sessions(), vec![format!("(\"key2-{merged}\",1000,14600) late")], "{trigger:?}");
        h.el(KEY2, 14500);
        h.wm(20000);
        assert_eq!(h.take_sessions(), vec![format!("(\"key2-{last}\",1000,17500) on_time")], "{trigger:?}");
    }
}

/// V-WIN-9 `testCleanupTimeOverflow`, with every trigger: the window still fires once.
#[test]
fn v_win_9_cleanup_time_overflow() {
    for trigger in [TriggerSpec::EventTime, TriggerSpec::Purging, CONTINUOUS(10_000), CONTINUOUS_PURGING(10_000)] {
        let mut h = Harness::new(WindowSpec::Tumbling { size_ms: 1000, offset_ms: 0 }, 2000, trigger);
        h.el(KEY2, 9223372036854774057);
        h.wm(9223372036854774307);
        assert!(h.take().is_empty(), "{trigger:?}");
        assert_eq!(h.op.state_size(), 1);
        h.wm(9223372036854774999);
        assert_eq!(h.take(), strings(&["(key2,1)@9223372036854774999 on_time"]), "{trigger:?}");
        assert_eq!(h.op.state_size(), 1, "never cleaned: the cleanup time overflowed");
    }
}

/// V-WIN-10: an element in no window is discarded silently, unless it is late.
#[test]
fn v_win_10_element_with_no_window() {
    let mut h = Harness::new(WindowSpec::Sliding { size_ms: 1000, slide_ms: 3000, offset_ms: 0 }, 0, TriggerSpec::EventTime);
    assert_eq!(h.el(KEY1, 1500), ElementOutcome::NoWindow);
    h.wm(2000);
    assert_eq!(h.el(KEY1, 1500), ElementOutcome::Late);
}

// ---------------------------------------------------------------------------------------------
// ContinuousEventTimeTrigger (ContinuousEventTimeTriggerTest, on the operator)
// ---------------------------------------------------------------------------------------------

/// `testTriggerHandlesAllOnTimerCalls` and `testLateElementTriggersImmediately`: an element for a
/// window the watermark has passed fires at once and registers no timer; a later (cleanup)
/// timer for it does nothing.
#[test]
fn continuous_late_element_fires_at_once_without_timers() {
    let mut h = Harness::new(WindowSpec::Tumbling { size_ms: 2, offset_ms: 0 }, 100, CONTINUOUS(5));
    h.wm(10);
    assert_eq!(h.el(KEY1, 1), ElementOutcome::Accepted);
    assert_eq!(h.take(), strings(&["(key1,1)@1 late"]));
    assert_eq!(h.op.pending_count(), 0, "no timer for a late window");
    h.wm(200);
    assert!(h.take().is_empty(), "the cleanup timer fires nothing");
    assert_eq!(h.op.state_size(), 0);
}

/// `testWindowSeparationAndFiring`: windows [0,2) (three elements) and [2,4) (two) keep their
/// own state; with a one-hour interval the first fire time is clamped to each window's end.
#[test]
fn continuous_window_separation_and_firing() {
    let mut h = Harness::new(WindowSpec::Tumbling { size_ms: 2, offset_ms: 0 }, 0, CONTINUOUS(3_600_000));
    for ts in [0, 1, 1, 2, 3] {
        h.el(KEY1, ts);
    }
    assert_eq!(h.op.state_size(), 2);
    assert_eq!(h.op.pending_count(), 2, "one timer each: min(ts - ts % interval + interval, maxTimestamp) is the end");
    h.wm(2);
    assert_eq!(h.take(), strings(&["(key1,3)@1 on_time"]));
    assert_eq!(h.op.pending_count(), 1);
    h.wm(4);
    assert_eq!(h.take(), strings(&["(key1,2)@3 on_time"]));
    assert_eq!(h.op.pending_count(), 0);
}

/// `testClear`: cleaning one window up leaves the other's state and timers alone.
#[test]
fn continuous_clear_does_not_leak_across_windows() {
    let mut h = Harness::new(WindowSpec::Tumbling { size_ms: 10, offset_ms: 0 }, 0, CONTINUOUS(3));
    h.el(KEY1, 0); // [0,10): timers at 3 (early) and 9
    h.el(KEY1, 10); // [10,20): timers at 12 (10 - 10 % 3 + 3) and 19
    h.wm(9);
    assert_eq!(h.take(), strings(&["(key1,1)@9 early", "(key1,1)@9 early", "(key1,1)@9 on_time"]), "3 and 6, then the end");
    assert_eq!(h.op.state_size(), 1, "[0,10) is gone with its trigger state");
    h.wm(12);
    assert_eq!(h.take(), strings(&["(key1,1)@19 early"]), "[10,20) still fires at 12");
}

/// `testMergingWindows`: [0,2) and [2,4) merge into [0,4) (touching windows intersect); the
/// merged fire-time is the smaller one, and the merged window fires at it and at its end.
#[test]
fn continuous_merging_windows() {
    let mut h = Harness::new(WindowSpec::Session { gap_ms: 2 }, 0, CONTINUOUS(3_600_000));
    h.el(KEY1, 0);
    h.el(KEY1, 2);
    assert_eq!(h.op.state_size(), 1, "one merged window");
    h.wm(4);
    assert_eq!(h.take_sessions(), strings(&["(\"key1-2\",0,4) early", "(\"key1-2\",0,4) on_time"]), "fire-time 1 (from [0,2)), then 3");
}

/// Early firings every interval, accumulating (counts never go down) or purging (each record
/// once); a watermark that jumps fires every interval boundary it passes, in order.
#[test]
fn continuous_early_firings_accumulating_and_purging() {
    let tumbling = WindowSpec::Tumbling { size_ms: 10_000, offset_ms: 0 };
    let mut acc = Harness::new(tumbling, 0, CONTINUOUS(2000));
    let mut purge = Harness::new(tumbling, 0, CONTINUOUS_PURGING(2000));
    for h in [&mut acc, &mut purge] {
        h.el(KEY1, 500);
        h.el(KEY1, 2500);
        h.wm(1999);
        assert!(h.take().is_empty());
        h.wm(2000);
        assert_eq!(h.take(), strings(&["(key1,2)@9999 early"]));
        h.el(KEY1, 4100);
        h.wm(9000);
    }
    assert_eq!(acc.take(), strings(&["(key1,3)@9999 early", "(key1,3)@9999 early", "(key1,3)@9999 early"]), "4000, 6000, 8000");
    assert_eq!(purge.take(), strings(&["(key1,1)@9999 early"]), "6000 and 8000 find the window empty");
    acc.wm(9999);
    purge.wm(9999);
    assert_eq!(acc.take(), strings(&["(key1,3)@9999 on_time"]), "the next fire time was clamped to the end: one timer");
    assert!(purge.take().is_empty());
}

/// Java's `%` truncates: for a negative timestamp the first timer is one interval later than a
/// floor would put it.
#[test]
fn continuous_first_timer_for_negative_timestamps() {
    let mut h = Harness::new(WindowSpec::Tumbling { size_ms: 10_000, offset_ms: 0 }, 0, CONTINUOUS(1000));
    h.el(KEY1, -5500); // -5500 % 1000 = -500: start -5000, first timer -4000
    h.wm(-4001);
    assert!(h.take().is_empty(), "no firing at -5000");
    h.wm(-4000);
    assert_eq!(h.take(), strings(&["(key1,1)@-1 early"]));
}

/// Near `Long.MAX_VALUE` the next fire time saturates to the window's end (Flink's `long` would
/// wrap; see `trigger::next_fire_time`).
#[test]
fn continuous_next_fire_time_near_long_max() {
    let mut h = Harness::new(WindowSpec::Tumbling { size_ms: 1000, offset_ms: 0 }, 0, CONTINUOUS(10_000));
    h.el(KEY1, i64::MAX - 10);
    h.wm(i64::MAX - 1);
    assert_eq!(h.take(), vec![format!("(key1,1)@{} on_time", i64::MAX - 1)]);
}

// ---------------------------------------------------------------------------------------------
// H. TimeWindow.mergeWindows edges
// ---------------------------------------------------------------------------------------------

/// [0,5000), [3000,8000), [5000,10000) merge into [0,10000); [10001,15001) stays separate;
/// [10000,15000) touches [0,10000) and merges.
#[test]
fn merge_windows_touching_merge_and_gaps_stay_apart() {
    let mut h = Harness::new(WindowSpec::Session { gap_ms: 5000 }, 0, TriggerSpec::EventTime);
    for ts in [0, 3000, 5000, 10001] {
        h.el(KEY1, ts);
    }
    h.wm(20000);
    assert_eq!(h.take_sessions(), strings(&["(\"key1-3\",0,10000) on_time", "(\"key1-1\",10001,15001) on_time"]));
    let mut h = Harness::new(WindowSpec::Session { gap_ms: 5000 }, 0, TriggerSpec::EventTime);
    for ts in [0, 3000, 5000, 10000] {
        h.el(KEY1, ts);
    }
    h.wm(20000);
    assert_eq!(h.take_sessions(), strings(&["(\"key1-4\",0,15000) on_time"]));
}

// ---------------------------------------------------------------------------------------------
// H/L. CUMULATE assignment, and the SQL rules
// ---------------------------------------------------------------------------------------------

/// CUMULATE's windows, the slicing runtime's `CumulativeSliceAssigner` tests' shape.
#[test]
fn v_asg_cumulate_windows() {
    let mut out = Vec::new();
    let c = WindowSpec::Cumulate { step_ms: 1000, max_size_ms: 3000, offset_ms: 0 };
    let windows = |ts: i64, out: &mut Vec<(EventTime, EventTime)>| {
        c.assign(EventTime(ts), out);
        out.iter().map(|&(s, e)| (s.ms(), e.ms())).collect::<Vec<_>>()
    };
    assert_eq!(windows(0, &mut out), vec![(0, 1000), (0, 2000), (0, 3000)]);
    assert_eq!(windows(1999, &mut out), vec![(0, 2000), (0, 3000)]);
    assert_eq!(windows(3500, &mut out), vec![(3000, 4000), (3000, 5000), (3000, 6000)]);
    assert_eq!(windows(-1, &mut out), vec![(-3000, 0)]);
}

/// V-SQL-5 `testEventTimeCumulativeWindows` (max size 3 s, step 1 s; sum, count). Restore is not
/// modelled: the vector runs straight through, the restored watermark being the one the operator
/// had (the repeated `WM 1999` is left out: it does not advance the watermark).
#[test]
fn v_sql_5_cumulate_partial_lateness() {
    let mut h = Harness::sql(WindowSpec::Cumulate { step_ms: 1000, max_size_ms: 3000, offset_ms: 0 });
    for (k, ts) in [(KEY2, 2999), (KEY2, 3000), (KEY1, 20), (KEY1, 0), (KEY1, 999), (KEY2, 1998), (KEY2, 1999), (KEY2, 1000)] {
        assert_eq!(h.el(k, ts), ElementOutcome::Accepted);
    }
    h.wm(999);
    assert_eq!(h.take_rows(), strings(&["(key1,3,3,0,1000)"]));
    h.wm(1999);
    assert_eq!(h.take_rows(), strings(&["(key1,3,3,0,2000)", "(key2,3,3,0,2000)"]));
    assert_eq!(h.el(KEY2, 1000), ElementOutcome::Accepted, "not late for [0,3000)");
    assert!(h.take_rows().is_empty(), "does not re-trigger [0,2000)");
    h.wm(2999);
    assert_eq!(h.take_rows(), strings(&["(key1,3,3,0,3000)", "(key2,5,5,0,3000)"]));
    h.wm(3999);
    assert_eq!(h.take_rows(), strings(&["(key2,1,1,3000,4000)"]));
    assert_eq!(h.el_value(KEY1, 3500, 2), ElementOutcome::Accepted, "late for [3000,4000) only");
    h.wm(4999);
    assert_eq!(h.take_rows(), strings(&["(key1,2,1,3000,5000)", "(key2,1,1,3000,5000)"]));
    assert_eq!(h.el(KEY1, 2999), ElementOutcome::Late, "late for all its windows: dropped");
}

/// HOP through the SQL rules: a row whose slice fired is added to the windows still to fire.
#[test]
fn sql_hop_adds_a_late_slice_to_the_unfired_windows() {
    let mut h = Harness::sql(WindowSpec::Sliding { size_ms: 3000, slide_ms: 1000, offset_ms: 0 });
    h.el(KEY1, 500);
    h.wm(1999);
    assert_eq!(h.take_rows(), strings(&["(key1,1,1,-1000,2000)", "(key1,1,1,-2000,1000)"]));
    assert_eq!(h.el(KEY1, 600), ElementOutcome::Accepted, "slice [0,1000) fired, its last window [0,3000) has not");
    h.wm(2999);
    assert_eq!(h.take_rows(), strings(&["(key1,2,2,0,3000)"]));
    assert_eq!(h.el(KEY1, 700), ElementOutcome::Late);
}

/// A NULL rowtime (the engine's `Long.MIN_VALUE`) fails a SQL window aggregation of any kind.
#[test]
fn sql_null_rowtime_fails_the_job() {
    for spec in [WindowSpec::Session { gap_ms: 10 }, WindowSpec::Tumbling { size_ms: 10, offset_ms: 0 }] {
        assert_eq!(Harness::sql(spec).el(KEY1, i64::MIN), ElementOutcome::NullRowtime);
    }
    assert_eq!(
        Harness::new(SESSION, 0, TriggerSpec::EventTime).el(KEY1, i64::MIN),
        ElementOutcome::Accepted,
        "DataStream sessions take it"
    );
}

/// One record per millisecond from 1 on, a per-event generator, one partition.
fn rows_scenario(generator: &str, window: &str, ts: &[i64]) -> String {
    let commands: Vec<String> = ts
        .iter()
        .enumerate()
        .map(|(i, t)| format!(r#"{{"at_ms": {}, "command": "produce", "partition": 0, "records": [{{"ts": {t}, "key": "k"}}]}}"#, i + 1))
        .collect();
    format!(
        r#"{{"topic": {{"partitions": 1}},
            "source": {{"watermark": {{"generator": {generator}, "emit": "per_event"}}}},
            "window": {window}, "commands": [{}]}}"#,
        commands.join(",")
    )
}

/// V-SQL-3: TUMBLE 10 s with `WATERMARK FOR ts AS ts - INTERVAL '5' SECOND` (no `- 1`).
#[test]
fn v_sql_3_tumble_firing_and_late_drop() {
    let window = r#"{"assigner": {"type": "tumbling", "size_ms": 10000}, "api": "sql"}"#;
    let sim = run(&rows_scenario(r#"{"kind": "sql_bounded", "delay_ms": 5000}"#, window, &[9999, 14998]), 10);
    assert_eq!(sim.downstream().windows[0].current_input_watermark(), EventTime(9998));
    assert_eq!(sim.downstream().sink.total(), 0, "9998 < 9999: [0,10000) has not fired");
    let sim = run(&rows_scenario(r#"{"kind": "sql_bounded", "delay_ms": 5000}"#, window, &[9999, 14998, 14999, 3000]), 10);
    let r: Vec<_> = sim.downstream().sink.results().map(|r| (r.start.ms(), r.end.ms(), r.agg.count, r.watermark.ms(), r.kind)).collect();
    assert_eq!(r, vec![(0, 10000, 1, 9999, FiringKind::OnTime)]);
    assert_eq!(sim.downstream().late_counts(), (1, 0), "ts 3000 dropped: numLateRecordsDropped, no side output");
    // The DataStream generator, bounded(5 s), needs 15000 for the same firing.
    let ds = r#"{"assigner": {"type": "tumbling", "size_ms": 10000}}"#;
    let gen = r#"{"kind": "bounded_out_of_orderness", "bound_ms": 5000}"#;
    assert_eq!(run(&rows_scenario(gen, ds, &[9999, 14999]), 10).downstream().sink.total(), 0);
    assert_eq!(run(&rows_scenario(gen, ds, &[9999, 15000]), 10).downstream().sink.total(), 1);
}

/// `DefaultWatermarkGenerator` starts at `Long.MIN_VALUE`: before the first row nothing leaves
/// the source, periodic emission or not.
#[test]
fn sql_bounded_emits_nothing_before_the_first_row() {
    let json = r#"{"topic": {"partitions": 1},
        "source": {"watermark": {"generator": {"kind": "sql_bounded", "delay_ms": 0}}},
        "window": {"assigner": {"type": "tumbling", "size_ms": 1000}, "api": "sql"},
        "commands": [{"at_ms": 1000, "command": "produce", "partition": 0, "records": [{"ts": 500}]}]}"#;
    let sim = run(json, 1200);
    let start = sim.config().start_time;
    let wms: Vec<(i64, i64)> = sim
        .trace()
        .retained()
        .filter_map(|e| match e.kind {
            TraceKind::SourceWatermark { watermark, .. } => Some((e.time - start, watermark.ms())),
            _ => None,
        })
        .collect();
    assert_eq!(wms, vec![(1000, 500)], "the first periodic emission after the row: max_ts itself");
}

/// Continuous triggers through the whole pipeline: the sink's rows and the trace's events say
/// which firing each was; an upsert sink holds the latest firing's contents, which with a purging
/// trigger are only what came since the one before.
#[test]
fn triggers_reach_the_sink_and_the_trace() {
    let json = |purging: bool| {
        format!(
            r#"{{"topic": {{"partitions": 1}}, "end_of_input": true, "duration_ms": 100,
            "source": {{"watermark": {{"emit": "per_event"}}}},
            "window": {{"assigner": {{"type": "tumbling", "size_ms": 10000}}, "trigger": {{"type": "continuous", "interval_ms": 2000, "purging": {purging}}}}},
            "sink": {{"mode": "upsert"}},
            "commands": [{{"at_ms": 1, "command": "produce", "partition": 0, "records": [{{"ts": 500, "key": "k"}}, {{"ts": 2500, "key": "k"}}]}},
                         {{"at_ms": 2, "command": "produce", "partition": 0, "records": [{{"ts": 4100, "key": "k"}}]}}]}}"#
        )
    };
    let (early, on_time) = (FiringKind::Early, FiringKind::OnTime);
    // The record that moves the watermark past a fire time reaches the window before it.
    for (purging, want, upserted) in [
        (true, vec![(2, 0, early), (1, 1, early)], 1),
        (false, vec![(2, 0, early), (3, 1, early), (3, 2, early), (3, 3, early), (3, 4, on_time)], 3),
    ] {
        let sim = parse(&json(purging)).unwrap().run().unwrap();
        let d = sim.downstream();
        let rows: Vec<_> = d.sink.results().map(|r| (r.agg.count, r.firing, r.kind)).collect();
        assert_eq!(rows, want, "purging {purging}");
        assert_eq!(d.sink.table.values().map(|r| r.agg.count).collect::<Vec<_>>(), vec![upserted]);
        let kinds: Vec<FiringKind> = sim
            .trace()
            .retained()
            .filter_map(|e| match e.kind {
                TraceKind::WindowFired { kind, .. } => Some(kind),
                _ => None,
            })
            .collect();
        assert_eq!(kinds, want.iter().map(|w| w.2).collect::<Vec<_>>());
    }
}

/// The new fields validate with their paths.
#[test]
fn window_block_validation_names_the_field() {
    let with = |window: &str, source: &str| {
        parse(&format!(r#"{{"topic": {{"partitions": 1}}, "window": {window}{source}}}"#))
            .map(|_| ())
            .map_err(|e| format!("{}: {}", e.path, e.message))
    };
    let err = |window: &str| with(window, "").unwrap_err();
    let tumbling = r#""assigner": {"type": "tumbling", "size_ms": 1000}"#;
    assert!(err(&format!(r#"{{{tumbling}, "trigger": {{"type": "continuous", "interval_ms": 0}}}}"#))
        .starts_with("window.trigger.interval_ms: must be > 0"));
    assert!(err(&format!(r#"{{{tumbling}, "api": "sql", "allowed_lateness_ms": 5}}"#)).starts_with("window.allowed_lateness_ms:"));
    assert!(err(&format!(r#"{{{tumbling}, "api": "sql", "late_side_output": true}}"#)).starts_with("window.late_side_output:"));
    assert!(err(&format!(r#"{{{tumbling}, "api": "sql", "trigger": {{"type": "purging"}}}}"#)).starts_with("window.trigger:"));
    assert!(err(r#"{"assigner": {"type": "sliding", "size_ms": 3000, "slide_ms": 2000}, "api": "sql"}"#)
        .starts_with("window.assigner.size_ms:"));
    assert!(err(r#"{"assigner": {"type": "cumulate", "step_ms": 1000, "max_size_ms": 3000}}"#).starts_with("window.assigner.type:"));
    assert!(err(r#"{"assigner": {"type": "cumulate", "step_ms": 1000, "max_size_ms": 2500}, "api": "sql"}"#)
        .starts_with("window.assigner.max_size_ms:"));
    assert!(err(r#"{"assigner": {"type": "cumulate", "step_ms": 0, "max_size_ms": 2500}, "api": "sql"}"#)
        .starts_with("window.assigner.step_ms:"));
    assert!(err(&format!(r#"{{{tumbling}, "trigger": {{"type": "sometimes"}}}}"#)).starts_with("window.trigger"));
    assert!(err(&format!(r#"{{{tumbling}, "api": "table"}}"#)).starts_with("window.api"));
    let sql_gen = r#", "source": {"watermark": {"generator": {"kind": "sql_bounded", "delay_ms": -1}}}"#;
    assert!(with(&format!("{{{tumbling}}}"), sql_gen).unwrap_err().starts_with("source.watermark.generator.delay_ms:"));
    assert!(with(r#"{"assigner": {"type": "sliding", "size_ms": 3000, "slide_ms": 1000}, "api": "sql"}"#, "").is_ok());
    let connect = r#", "second_input": {"topic": {"name": "rates", "partitions": 1}, "mode": "connect"}"#;
    let union = r#", "second_input": {"topic": {"name": "rates", "partitions": 1}, "mode": "union"}"#;
    assert!(with(&format!(r#"{{{tumbling}, "api": "sql"}}"#), connect).unwrap_err().starts_with("window.api:"));
    assert!(with(&format!(r#"{{{tumbling}, "trigger": {{"type": "purging"}}}}"#), connect).unwrap_err().starts_with("window.trigger:"));
    assert!(with(&format!(r#"{{{tumbling}, "api": "sql"}}"#), union).is_ok(), "UNION ALL, then the window aggregation");
    assert!(with(&format!(r#"{{{tumbling}, "trigger": {{"type": "continuous", "interval_ms": 100, "purging": true}}}}"#), "").is_ok());
}

/// `set_param` cannot give a SQL window aggregation lateness settings either.
#[test]
fn sql_refuses_lateness_commands() {
    let json = r#"{"topic": {"partitions": 1}, "window": {"assigner": {"type": "tumbling", "size_ms": 1000}, "api": "sql"},
        "commands": [{"at_ms": 5, "command": "set_param", "param": {"name": "allowed_lateness_ms", "value": 1000}}]}"#;
    let e = parse(json).unwrap().run().unwrap_err();
    assert!(e.path.starts_with("commands[0]") && e.message.contains("no allowed lateness"), "{}: {}", e.path, e.message);
}
