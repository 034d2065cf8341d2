//! Two-input operators on random inputs over the whole `long` range: the combination of two
//! (or N) inputs (`IndexedCombinedWatermarkStatus`, reference §6.4) and the interval join (§9);
//! plus the overflow-freedom of the one-input watermark operators written alongside them
//! (`TimestampsAndWatermarksOperator`, SQL `WatermarkAssignerOperator`).
//!
//! The combination's invariant, checked after every step against the inputs' state as the
//! test tracks it (each input's watermark = the max it was given, MIN initially; idle = its last
//! call was an IDLE status, as a watermark clears the flag):
//! * if some input is non-idle: `combined' = max(combined, min over non-idle inputs)`;
//! * if all are idle: `combined' = max(combined, max over all inputs)` with the ≥ 2.2 flush,
//!   `combined' = combined` without it;
//! * a watermark is emitted iff `combined' > combined`, carrying `combined'`, so the emitted
//!   watermarks strictly increase;
//! * `is_idle()` iff every input is idle; a status is emitted only by a status call that flips
//!   it, and it is that call's status; a watermark call never emits one; watermark before status;
//! * `min_input()` is the lowest-index non-idle input with the lowest watermark.

mod common;

use common::config;
use proptest::prelude::*;
use wmp::engine::combined_watermark::IndexedCombinedWatermarkStatus;
use wmp::engine::operator::interval_join::{IntervalJoinOperator, JoinBounds, JoinOutcome, JoinedPair, Side};
use wmp::engine::operator::timestamps_and_watermarks::TimestampsAndWatermarksOperator;
use wmp::engine::operator::watermark_assigner::WatermarkAssignerOperator;
use wmp::engine::source::generator::{EmitMode, GeneratorKind};
use wmp::engine::status::{Signal, WatermarkStatus};
use wmp::engine::time::{EventTime, ProcTime, END_OF_TIME, NO_WATERMARK};

/// Any `long`, with the sentinels and a crowded small range (so that inputs overtake each other
/// and minima rise) well represented.
fn any_time() -> impl Strategy<Value = i64> {
    prop_oneof![
        3 => -20i64..60,
        1 => Just(i64::MIN),
        1 => Just(i64::MAX),
        1 => prop_oneof![Just(i64::MIN + 1), Just(i64::MAX - 1)],
        2 => any::<i64>(),
    ]
}

#[derive(Clone, Copy, Debug)]
enum CombOp {
    Watermark(usize, i64),
    Status(usize, WatermarkStatus),
}

fn combined_case() -> impl Strategy<Value = (usize, bool, Vec<CombOp>)> {
    (prop_oneof![Just(2usize), 1usize..=4], any::<bool>()).prop_flat_map(|(n, flush)| {
        let status = prop_oneof![Just(WatermarkStatus::Idle), Just(WatermarkStatus::Active)];
        let op = prop_oneof![
            3 => (0..n, any_time()).prop_map(|(i, w)| CombOp::Watermark(i, w)),
            2 => (0..n, status).prop_map(|(i, s)| CombOp::Status(i, s)),
        ];
        (Just(n), Just(flush), prop::collection::vec(op, 0..120))
    })
}

/// The inputs as the test sees them: (max watermark given, idle).
fn expected_combined(inputs: &[(EventTime, bool)], before: EventTime, flush: bool) -> EventTime {
    let active_min = inputs.iter().filter(|(_, idle)| !idle).map(|&(w, _)| w).min();
    match active_min {
        Some(m) => before.max(m),
        None if flush => before.max(inputs.iter().map(|&(w, _)| w).max().unwrap_or(NO_WATERMARK)),
        None => before,
    }
}

fn check_combined_step(
    c: &IndexedCombinedWatermarkStatus,
    inputs: &[(EventTime, bool)],
    op: CombOp,
    (before, was_idle, flush): (EventTime, bool, bool),
    out: &[Signal],
) -> Result<(), TestCaseError> {
    let after = expected_combined(inputs, before, flush);
    prop_assert_eq!(c.combined_watermark(), after);
    let all_idle = inputs.iter().all(|&(_, idle)| idle);
    prop_assert_eq!(c.is_idle(), all_idle);
    let mut want = Vec::new();
    if after > before {
        want.push(Signal::Watermark(after));
    }
    if let CombOp::Status(_, s) = op {
        if was_idle != all_idle {
            prop_assert_eq!(s.is_idle(), all_idle, "only the given status can flip the flag");
            want.push(Signal::Status(s));
        }
    }
    prop_assert_eq!(out, &want[..]);
    for (i, &(w, idle)) in inputs.iter().enumerate() {
        prop_assert_eq!((c.input_watermark_of(i), c.input_idle(i)), (w, idle), "input {}", i);
    }
    let held = inputs.iter().enumerate().filter(|(_, (_, idle))| !idle).min_by_key(|&(i, &(w, _))| (w, i)).map(|(i, _)| i);
    prop_assert_eq!(c.min_input(), held);
    Ok(())
}

proptest! {
    #![proptest_config(config(2048))]

    #[test]
    fn combination_is_the_running_max_of_the_active_min((n, flush, ops) in combined_case()) {
        let mut c = IndexedCombinedWatermarkStatus::new(n, flush);
        let mut inputs = vec![(NO_WATERMARK, false); n];
        let mut last_emitted = NO_WATERMARK;
        for (step, &op) in ops.iter().enumerate() {
            let (before, was_idle) = (c.combined_watermark(), c.is_idle());
            let mut out = Vec::new();
            match op {
                CombOp::Watermark(i, w) => {
                    c.input_watermark(i, EventTime(w), &mut out);
                    inputs[i] = (inputs[i].0.max(EventTime(w)), false);
                }
                CombOp::Status(i, s) => {
                    c.input_status(i, s, &mut out);
                    inputs[i].1 = s.is_idle();
                }
            }
            check_combined_step(&c, &inputs, op, (before, was_idle, flush), &out)
                .map_err(|e| TestCaseError::fail(format!("step {step} {op:?}: {e}")))?;
            for s in &out {
                if let Signal::Watermark(w) = *s {
                    prop_assert!(w > last_emitted, "step {}: {} after {}", step, w, last_emitted);
                    last_emitted = w;
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Interval join against a brute-force transcription of §9 (a flat list scanned in full, exact
// arithmetic, cleanup times past the end clamped to MAX as the operator documents).

#[derive(Clone, Copy, Debug)]
enum JoinOp {
    Element(Side, u32, i64),
    Watermark(i64),
}

fn join_case() -> impl Strategy<Value = (JoinBounds, Vec<JoinOp>)> {
    let bound = prop_oneof![4 => -5i64..6, 1 => Just(i64::MIN), 1 => Just(i64::MAX), 1 => any::<i64>()];
    let bounds = (bound.clone(), bound, any::<bool>(), any::<bool>()).prop_map(|(a, b, lower_exclusive, upper_exclusive)| JoinBounds {
        lower_ms: a.min(b),
        upper_ms: a.max(b),
        lower_exclusive,
        upper_exclusive,
    });
    let side = prop_oneof![Just(Side::Left), Just(Side::Right)];
    let op = prop_oneof![
        4 => (side, 0u32..3, any_time()).prop_map(|(s, k, ts)| JoinOp::Element(s, k, ts)),
        1 => any_time().prop_map(JoinOp::Watermark),
    ];
    (bounds, prop::collection::vec(op, 0..80))
}

struct Buffered {
    side: Side,
    key: u32,
    ts: i64,
    value: i64,
    cleanup: i128,
}

struct JoinModel {
    lower: i128,
    upper: i128,
    w: i64,
    elements: Vec<Buffered>,
}

impl JoinModel {
    fn element(&mut self, side: Side, key: u32, ts: i64, value: i64) -> (JoinOutcome, Vec<JoinedPair>) {
        if ts == i64::MIN {
            return (JoinOutcome::NoTimestamp, Vec::new());
        }
        if ts < self.w {
            return (JoinOutcome::Late, Vec::new());
        }
        let t = i128::from(ts);
        let in_range = |(l, r): (i128, i128)| l + self.lower <= r && r <= l + self.upper;
        let mut matches: Vec<&Buffered> = self
            .elements
            .iter()
            .filter(|b| b.side != side && b.key == key)
            .filter(|b| in_range(if side == Side::Left { (t, i128::from(b.ts)) } else { (i128::from(b.ts), t) }))
            .collect();
        matches.sort_by_key(|b| b.ts); // stable: arrival order within a timestamp
        let pairs = matches
            .iter()
            .map(|b| {
                let (l, r) = if side == Side::Left { ((ts, value), (b.ts, b.value)) } else { ((b.ts, b.value), (ts, value)) };
                let (left_ts, right_ts) = (EventTime(l.0), EventTime(r.0));
                JoinedPair { key, left_ts, left_value: l.1, right_ts, right_value: r.1, ts: left_ts.max(right_ts) }
            })
            .collect();
        let reach = if side == Side::Left { self.upper } else { -self.lower };
        let cleanup = if reach > 0 { (t + reach).min(i128::from(i64::MAX)) } else { t };
        self.elements.push(Buffered { side, key, ts, value, cleanup });
        (JoinOutcome::Accepted, pairs)
    }

    fn advance(&mut self, w: i64) {
        self.w = w;
        self.elements.retain(|b| b.cleanup > i128::from(w));
    }

    fn buffered(&self, side: Side) -> u64 {
        self.elements.iter().filter(|b| b.side == side).count() as u64
    }
}

proptest! {
    #![proptest_config(config(1024))]

    #[test]
    fn interval_join_matches_the_brute_force_model((bounds, ops) in join_case()) {
        let mut op = IntervalJoinOperator::new(bounds);
        let (lower, upper) = bounds.normalized();
        let mut model = JoinModel { lower: lower.into(), upper: upper.into(), w: i64::MIN, elements: Vec::new() };
        for (step, (&o, value)) in ops.iter().zip(0i64..).enumerate() {
            match o {
                JoinOp::Element(side, key, ts) => {
                    let mut got = Vec::new();
                    let outcome = op.process_element(side, key, EventTime(ts), value, &mut got);
                    let (want_outcome, want) = model.element(side, key, ts, value);
                    prop_assert_eq!(outcome, want_outcome, "step {} {:?}", step, o);
                    prop_assert_eq!(got, want, "step {} {:?}", step, o);
                }
                // The operator only ever sees the combination's rises.
                JoinOp::Watermark(w) if w > model.w => {
                    op.advance_watermark(EventTime(w));
                    model.advance(w);
                }
                JoinOp::Watermark(_) => {}
            }
            prop_assert_eq!(op.current_watermark(), EventTime(model.w));
            for side in [Side::Left, Side::Right] {
                prop_assert_eq!(op.buffered(side), model.buffered(side), "step {} {:?} {:?}", step, o, side);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The one-input watermark operators: no overflow, and their output rules, for any values.

#[derive(Clone, Copy, Debug)]
enum OneOp {
    Element(Option<i64>, i64),
    Tick(i64),
    Upstream(i64),
    Status(WatermarkStatus),
    Finish,
}

fn one_input_ops() -> impl Strategy<Value = Vec<OneOp>> {
    let status = prop_oneof![Just(WatermarkStatus::Idle), Just(WatermarkStatus::Active)];
    let op = prop_oneof![
        5 => (prop::option::weighted(0.9, any_time()), 0i64..300).prop_map(|(ts, dt)| OneOp::Element(ts, dt)),
        4 => (0i64..400).prop_map(OneOp::Tick),
        1 => any_time().prop_map(OneOp::Upstream),
        1 => status.prop_map(OneOp::Status),
        1 => Just(OneOp::Finish),
    ];
    prop::collection::vec(op, 0..100)
}

fn generator() -> impl Strategy<Value = (GeneratorKind, EmitMode, Option<i64>)> {
    let bound = prop_oneof![0i64..100, Just(i64::MAX), 0i64..i64::MAX];
    let kind = prop_oneof![
        bound.clone().prop_map(|bound_ms| GeneratorKind::BoundedOutOfOrderness { bound_ms }),
        Just(GeneratorKind::Monotonous),
        Just(GeneratorKind::NoWatermarks),
        (bound, 1i64..500).prop_map(|(bound_ms, silence_ms)| GeneratorKind::MaxOnSilence { bound_ms, silence_ms }),
    ];
    let emit = prop_oneof![Just(EmitMode::Periodic), Just(EmitMode::PerEvent)];
    let idle = prop::option::of(prop_oneof![1i64..500, Just(i64::MAX)]);
    (kind, emit, idle)
}

proptest! {
    #![proptest_config(config(1024))]

    /// Watermarks strictly increase; IDLE and ACTIVE alternate (from ACTIVE); an ACTIVE is
    /// always followed by the watermark that caused it; upstream statuses and non-MAX upstream
    /// watermarks produce nothing.
    #[test]
    fn timestamps_and_watermarks_output_rules((kind, emit, idle) in generator(), ops in one_input_ops()) {
        let mut op = TimestampsAndWatermarksOperator::new(kind, emit, idle);
        let mut now = ProcTime(1_767_225_600_000);
        let mut out = Vec::new();
        for &o in &ops {
            let from = out.len();
            match o {
                OneOp::Element(ts, dt) => {
                    now += dt;
                    op.process_element(EventTime(ts.unwrap_or(i64::MIN)), now, &mut out);
                }
                OneOp::Tick(dt) => {
                    now += dt;
                    op.on_periodic_emit(now, now, &mut out);
                }
                OneOp::Upstream(w) => op.process_watermark(EventTime(w), &mut out),
                OneOp::Status(s) => op.process_status(s, &mut out),
                OneOp::Finish => op.finish(now, &mut out),
            }
            if matches!(o, OneOp::Status(_)) || matches!(o, OneOp::Upstream(w) if w != i64::MAX) {
                prop_assert_eq!(out.len(), from, "{:?} is swallowed", o);
            }
        }
        let (mut last_wm, mut idle_now) = (NO_WATERMARK, false);
        for (i, s) in out.iter().enumerate() {
            match *s {
                Signal::Watermark(w) => {
                    prop_assert!(w > last_wm, "{} after {}", w, last_wm);
                    last_wm = w;
                }
                Signal::Status(st) => {
                    prop_assert_eq!(st.is_idle(), !idle_now, "statuses alternate");
                    idle_now = st.is_idle();
                    if !idle_now {
                        prop_assert!(matches!(out.get(i + 1), Some(Signal::Watermark(_))), "ACTIVE precedes a watermark");
                    }
                }
            }
        }
        prop_assert_eq!((op.current_watermark(), op.is_idle()), (last_wm, idle_now));
    }

    /// Only watermarks above 0 are emitted, never decreasing and strictly increasing except
    /// for a repeated `Long.MAX_VALUE` (upstream MAX, then the periodic path); the last
    /// emitted watermark never passes the current one.
    #[test]
    fn watermark_assigner_output_rules(interval in prop_oneof![0i64..300, Just(i64::MAX)], idle in prop_oneof![-5i64..500, Just(i64::MAX)], ops in one_input_ops()) {
        let mut op = WatermarkAssignerOperator::new(interval, idle);
        let mut now = ProcTime(1_767_225_600_000);
        op.open(now);
        let mut out = Vec::new();
        // The mailbox runs a due timer before the next element; one firing re-arms it past now.
        let mut advance = |op: &mut WatermarkAssignerOperator, dt: i64, out: &mut Vec<Signal>| {
            now += dt;
            if op.next_timer_at().is_some_and(|due| due <= now) {
                op.on_timer(now, now, out);
            }
            now
        };
        for &o in &ops {
            let now = match o {
                OneOp::Element(expr, dt) => {
                    let now = advance(&mut op, dt, &mut out);
                    op.process_element(expr, &mut out);
                    now
                }
                OneOp::Tick(dt) => advance(&mut op, dt, &mut out),
                OneOp::Upstream(w) => {
                    op.process_watermark(EventTime(w), &mut out);
                    advance(&mut op, 0, &mut out)
                }
                OneOp::Status(s) => {
                    op.process_status(s, &mut out);
                    advance(&mut op, 0, &mut out)
                }
                OneOp::Finish => {
                    op.finish(&mut out);
                    advance(&mut op, 0, &mut out)
                }
            };
            prop_assert!(op.last_watermark() <= op.current_watermark());
            prop_assert!(op.next_timer_at().is_some_and(|due| due > now) || op.timer_interval_ms().is_none());
        }
        let mut last_wm = EventTime(0);
        for s in &out {
            if let Signal::Watermark(w) = *s {
                prop_assert!(w > last_wm || (w == END_OF_TIME && last_wm == END_OF_TIME), "{} after {}", w, last_wm);
                last_wm = w;
            }
        }
    }
}

// Whole random jobs with two inputs: union, connect or an interval join, sources with or
// without a chained watermark operator, producers on both topics and commands on any split.
// After every instant, for each keyed subtask: its watermark never goes down; for a two-input
// operator it is the combination's, at least the minimum over non-idle inputs and never above
// every input; a union's is its one valve's. Two runs give the same trace hash.

fn two_input_job() -> impl Strategy<Value = serde_json::Value> {
    use serde_json::json;
    let source = (1u32..=2, prop::option::of(100i64..2000), 0i64..1500, prop_oneof![Just(0), Just(1), Just(2)], any::<bool>());
    let kind = prop_oneof![Just("union"), Just("connect"), Just("join")];
    let prods = prop::collection::vec((common::producer(), any::<bool>()), 1..5);
    let cmds = prop::collection::vec((common::command(4000), 0u32..6), 0..6);
    (1u32..=3, 1u32..=3, source.clone(), source, kind, 1u32..=2, prods, cmds, any::<u64>(), any::<bool>()).prop_map(
        |(p1, p2, s1, s2, kind, wp, prods, cmds, seed, end)| {
            let src = |(par, idle, bound, mid, per_event): (u32, Option<i64>, i64, i32, bool)| {
                let midstream = match mid {
                    1 => json!({"operator": "timestamps_and_watermarks", "generator": {"kind": "bounded_out_of_orderness", "bound_ms": bound}, "idle_timeout_ms": idle}),
                    2 => json!({"operator": "sql_watermark_assigner", "delay_ms": bound, "idle_timeout_ms": idle.unwrap_or(0)}),
                    _ => serde_json::Value::Null,
                };
                json!({
                    "parallelism": par,
                    "watermark": {"generator": {"kind": "bounded_out_of_orderness", "bound_ms": bound}, "idle_timeout_ms": idle,
                                  "emit": if per_event { "per_event" } else { "periodic" }},
                    "midstream": midstream,
                })
            };
            let producers: Vec<serde_json::Value> = prods
                .into_iter()
                .map(|(mut p, second)| {
                    let n = if second { p2 } else { p1 };
                    if let Some(x) = p["partitions"].as_u64() {
                        p["partitions"] = json!(x % n as u64);
                    }
                    p["topic"] = json!(if second { "b" } else { "a" });
                    p
                })
                .collect();
            let commands: Vec<serde_json::Value> = cmds
                .into_iter()
                .filter(|(c, _)| c["command"] != "add_partition")
                .map(|(mut c, p)| {
                    if c.get("partition").is_some() {
                        c["partition"] = json!(p % (p1 + p2));
                    }
                    c
                })
                .collect();
            let mut sc = json!({
                "seed": seed, "duration_ms": 4000, "end_of_input": end,
                "topic": {"name": "a", "partitions": p1}, "source": src(s1),
                "second_input": {"topic": {"name": "b", "partitions": p2}, "source": src(s2), "mode": if kind == "union" { "union" } else { "connect" }},
                "producers": producers, "commands": commands,
                "trace": {"capacity": 2000, "records": false},
            });
            if kind == "join" {
                sc["interval_join"] = json!({"lower_ms": -500, "upper_ms": 300, "parallelism": wp});
            } else {
                sc["window"] = json!({"assigner": {"type": "tumbling", "size_ms": 700}, "parallelism": wp});
            }
            sc
        },
    )
}

struct TwoInputInvariants {
    last: Vec<EventTime>,
    violations: Vec<String>,
}

impl wmp::engine::observer::Observer for TwoInputInvariants {
    fn after_instant(&mut self, sim: &wmp::engine::sim::Simulation) -> std::ops::ControlFlow<()> {
        for (i, w) in sim.downstream().windows.iter().enumerate() {
            let wm = w.current_input_watermark();
            if wm < self.last[i] {
                self.violations.push(format!("subtask {i} went back from {} to {wm} at {}", self.last[i], sim.now()));
            }
            self.last[i] = wm;
            match w.input.combination() {
                Some(c) => {
                    let active: Vec<EventTime> = (0..2).filter(|&k| !c.input_idle(k)).map(|k| w.input.input_watermark(k)).collect();
                    let top = (0..2).map(|k| w.input.input_watermark(k)).max().unwrap_or(NO_WATERMARK);
                    if wm != c.combined_watermark() || active.iter().min().is_some_and(|&m| wm < m) || wm > top {
                        self.violations
                            .push(format!("subtask {i}: {wm} vs combination {} over {active:?} (top {top})", c.combined_watermark()));
                    }
                }
                None if wm != w.input.valve(0).output_watermark() => self.violations.push(format!("subtask {i}: {wm} is not its valve's")),
                None => {}
            }
        }
        std::ops::ControlFlow::Continue(())
    }
}

proptest! {
    #![proptest_config(config(48))]

    #[test]
    fn two_input_jobs_keep_the_combination_rule_and_are_deterministic(sc in two_input_job()) {
        let text = sc.to_string();
        let run = || {
            let mut session = wmp::engine::session::Session::from_json(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
            let n = session.sim().downstream().windows.len();
            let mut obs = TwoInputInvariants { last: vec![NO_WATERMARK; n], violations: Vec::new() };
            session.run_to_end(&mut obs).unwrap_or_else(|e| panic!("{e}: {text}"));
            (session.sim().trace().hash_hex(), obs.violations)
        };
        let (a, violations) = run();
        prop_assert!(violations.is_empty(), "{:?}\n{}", violations, text);
        prop_assert_eq!(a, run().0);
    }
}
