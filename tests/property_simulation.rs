//! Whole random simulations.
//!
//! * Conservation: every produced record is in exactly one place (window state,
//!   fired-and-cleaned, late side output, late dropped, no window, filtered, unread, in
//!   flight), checked at several points of processing time and after end of input.
//! * Determinism: building and running a scenario twice, in one go or in chunks, or from a
//!   clone taken midway, or one instant at a time, gives the same trace hash and report JSON.

mod common;

use common::{command, config, producer, within_topic};
use proptest::prelude::*;
use serde_json::{json, Value};
use wmp::engine::command::Command;
use wmp::engine::report::report;
use wmp::engine::scenario::build::parse;
use wmp::engine::sim::Simulation;
use wmp::engine::time::ProcTime;

/// A random small native scenario (always valid).
fn scenario() -> impl Strategy<Value = Value> {
    let shape = (1u32..=4, 1u32..=3, 1u32..=3, 1000i64..5000, any::<u64>());
    shape
        .prop_flat_map(|(partitions, sp, wp, duration, seed)| {
            let exchange = if sp == wp {
                prop_oneof![Just("hash"), Just("rebalance"), Just("forward")].boxed()
            } else {
                prop_oneof![Just("hash"), Just("rebalance")].boxed()
            };
            let window = prop_oneof![
                (100i64..3000).prop_map(|s| json!({"type": "tumbling", "size_ms": s})),
                (100i64..2000).prop_map(|g| json!({"type": "session", "gap_ms": g})),
            ];
            let source = (
                0i64..=2000,
                prop::option::of(100i64..=2000),
                any::<bool>(),
                prop_oneof![Just(200i64), 20i64..500],
                any::<bool>(),
                prop::option::of(20u64..2000),
            );
            let window_op = (window, 0i64..=2000, any::<bool>(), prop_oneof![3 => Just(0i64), 1 => 1i64..50]);
            let cmds = prop::collection::vec(command(duration), 0..8);
            let prods = prop::collection::vec(producer(), 1..5);
            let trace = (prop_oneof![Just(0usize), Just(50), Just(2000)], any::<bool>());
            // Flow control (issue 13): a keyed capacity with small channel buffers, alignment
            // with a small drift and any buffer size, either clock.
            let flow = (
                prop::option::of((50u64..3000, 1u64..200)),
                prop::option::of((0i64..2000, 1i64..1500, 0usize..4)),
                any::<bool>(),
                prop_oneof![Just("earliest"), Just("latest")],
            );
            (Just((partitions, sp, wp, duration, seed)), exchange, source, window_op, prods, cmds, any::<bool>(), (trace, flow))
        })
        .prop_map(|((partitions, sp, wp, duration, seed), exchange, source, window_op, producers, commands, end, (trace, flow))| {
            let (capacity, alignment, wall, start) = flow;
            let (bound, idle, per_event, interval, drop_hb, rate) = source;
            let (assigner, lateness, side, latency) = window_op;
            let producers = within_topic(producers, "partitions", partitions);
            let commands = within_topic(commands, "partition", partitions);
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
                        "alignment": alignment.map(|(drift, every, _)| json!({"group": "g", "max_drift_ms": drift, "update_interval_ms": every})),
                    },
                    "transform": {"drop_heartbeats": drop_hb},
                    "read_rate_per_s": rate,
                    "start_offset": start,
                },
                "flow": capacity.map_or(json!({}), |(c, b)| json!({"keyed_capacity_per_s": c, "channel_buffer_records": b})),
                "flink": {
                    "idleness_clock": if wall { "wall" } else { "input_activity" },
                    "alignment_buffer_size": alignment.map_or(3, |a| a.2),
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
        let side = parsed.window.as_ref().is_some_and(|w| w.late_side_output);
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
