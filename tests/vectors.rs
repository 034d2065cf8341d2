//! Conformance vectors from `../shared/reference/flink-test-vectors.md`, ported: the valve
//! (V-VAL-*), generators with idleness (V-IDL-8) and whole source subtasks (V-SRC-*).
//! Unit-level vectors for single components live next to them (`cargo test --lib`).

use wmp::engine::scenario::build::parse;
use wmp::engine::sim::Simulation;
use wmp::engine::source::generator::{EmitMode, GeneratorKind, WatermarkGenerator};
use wmp::engine::source::idleness::{IdleCheck, IdlenessWrapper};
use wmp::engine::status::{Signal, WatermarkStatus};
use wmp::engine::time::{EventTime, ProcTime};
use wmp::engine::trace::TraceKind;
use wmp::engine::valve::{StatusWatermarkValve, ValveSwitches};

/// Runs `ch0 WM 25; ch0 IDLE; ...` steps; each step's expected output is like `WM(25) IDLE` or empty.
fn valve(channels: usize, switches: ValveSwitches, steps: &[(&str, &str)]) {
    let mut v = StatusWatermarkValve::new(channels, switches);
    for (i, (input, want)) in steps.iter().enumerate() {
        let parts: Vec<&str> = input.split_whitespace().collect();
        let ch: usize = parts[0].trim_start_matches("ch").parse().unwrap();
        let mut out = Vec::new();
        match parts[1] {
            "WM" => v.input_watermark(ch, EventTime(parts[2].parse().unwrap()), &mut out),
            "IDLE" => v.input_status(ch, WatermarkStatus::Idle, &mut out),
            "ACTIVE" => v.input_status(ch, WatermarkStatus::Active, &mut out),
            other => panic!("bad step {other}"),
        }
        let got: Vec<String> = out
            .iter()
            .map(|s| match s {
                Signal::Watermark(w) => format!("WM({w})"),
                Signal::Status(WatermarkStatus::Idle) => "IDLE".into(),
                Signal::Status(WatermarkStatus::Active) => "ACTIVE".into(),
            })
            .collect();
        assert_eq!(got.join(" "), *want, "step {i}: {input}");
    }
}

const RELEASED: ValveSwitches = ValveSwitches { unconditional_flush: false, rederive_on_reactivate: false };
const MAIN: ValveSwitches = ValveSwitches { unconditional_flush: true, rederive_on_reactivate: true };

#[test]
fn v_val_2_3_single_input() {
    valve(1, RELEASED, &[("ch0 WM 25", "WM(25)"), ("ch0 WM 18", ""), ("ch0 WM 42", "WM(42)")]);
    valve(1, RELEASED, &[("ch0 ACTIVE", ""), ("ch0 IDLE", "IDLE"), ("ch0 IDLE", ""), ("ch0 ACTIVE", "ACTIVE")]);
}

#[test]
fn v_val_5_6_multiple_inputs() {
    valve(3, RELEASED, &[("ch0 WM 0", ""), ("ch1 WM 0", ""), ("ch2 WM 0", "WM(0)")]);
    valve(
        3,
        RELEASED,
        &[
            ("ch0 WM 0", ""),
            ("ch1 WM 0", ""),
            ("ch2 WM 0", "WM(0)"),
            ("ch0 WM 12", ""),
            ("ch2 WM 8", ""),
            ("ch2 WM 10", ""),
            ("ch1 WM 15", "WM(10)"),
            ("ch2 WM 17", "WM(12)"),
            ("ch0 WM 20", "WM(15)"),
        ],
    );
}

#[test]
fn v_val_8_9_status_toggling_and_partial_idle() {
    valve(
        2,
        RELEASED,
        &[
            ("ch0 ACTIVE", ""),
            ("ch1 ACTIVE", ""),
            ("ch1 IDLE", ""),
            ("ch0 IDLE", "IDLE"),
            ("ch0 IDLE", ""),
            ("ch1 IDLE", ""),
            ("ch1 ACTIVE", "ACTIVE"),
            ("ch0 ACTIVE", ""),
        ],
    );
    valve(3, RELEASED, &[("ch0 WM 15", ""), ("ch1 WM 10", ""), ("ch2 IDLE", "WM(10)"), ("ch1 WM 18", "WM(15)"), ("ch0 WM 20", "WM(18)")]);
}

#[test]
fn v_val_11_12_14_flush_and_realignment() {
    valve(
        3,
        RELEASED,
        &[("ch0 WM 10", ""), ("ch1 WM 5", ""), ("ch2 WM 3", "WM(3)"), ("ch0 IDLE", ""), ("ch1 IDLE", ""), ("ch2 IDLE", "WM(10) IDLE")],
    );
    valve(
        3,
        RELEASED,
        &[
            ("ch0 WM 10", ""),
            ("ch1 WM 7", ""),
            ("ch2 WM 3", "WM(3)"),
            ("ch2 IDLE", "WM(7)"),
            ("ch2 ACTIVE", ""),
            ("ch2 WM 5", ""),
            ("ch2 WM 9", ""),
            ("ch1 WM 12", "WM(9)"),
        ],
    );
    valve(
        2,
        RELEASED,
        &[("ch0 WM 7", ""), ("ch1 WM 10", "WM(7)"), ("ch0 IDLE", "WM(10)"), ("ch0 ACTIVE", ""), ("ch0 WM 9", ""), ("ch0 IDLE", "")],
    );
}

#[test]
fn v_val_15_released_vs_main() {
    let prefix = [
        ("ch0 WM 100", ""),
        ("ch1 WM 50", ""),
        ("ch2 WM 70", "WM(50)"),
        ("ch1 IDLE", "WM(70)"),
        ("ch1 ACTIVE", ""),
        ("ch1 WM 60", ""),
        ("ch0 IDLE", ""),
        ("ch2 IDLE", ""),
    ];
    let mut released = prefix.to_vec();
    released.push(("ch1 IDLE", "IDLE"));
    valve(3, RELEASED, &released);
    let main_switch = ValveSwitches { unconditional_flush: true, rederive_on_reactivate: false };
    let mut main = prefix.to_vec();
    main.push(("ch1 IDLE", "WM(100) IDLE"));
    valve(3, main_switch, &main);
}

#[test]
fn v_val_17_released_vs_main() {
    let steps = |react: &'static str| {
        vec![
            ("ch0 WM 10", ""),
            ("ch1 WM 20", ""),
            ("ch2 WM 30", "WM(10)"),
            ("ch2 IDLE", ""),
            ("ch0 IDLE", "WM(20)"),
            ("ch0 ACTIVE", ""),
            ("ch1 IDLE", ""),
            ("ch2 ACTIVE", react),
            ("ch0 IDLE", ""),
            ("ch2 IDLE", "IDLE"),
        ]
    };
    valve(3, RELEASED, &steps(""));
    valve(3, MAIN, &steps("WM(30)"));
}

#[test]
fn v_val_18_20_21_derived() {
    valve(
        2,
        RELEASED,
        &[
            ("ch0 WM 5", ""),
            ("ch1 WM 8", "WM(5)"),
            ("ch0 IDLE", "WM(8)"),
            ("ch1 IDLE", "IDLE"),
            ("ch1 WM 20", ""),
            ("ch1 ACTIVE", "ACTIVE"),
            ("ch1 WM 9", "WM(9)"),
            ("ch1 WM 30", "WM(30)"),
        ],
    );
    valve(
        2,
        RELEASED,
        &[("ch0 IDLE", ""), ("ch1 WM 5", "WM(5)"), ("ch1 IDLE", "IDLE"), ("ch0 ACTIVE", "ACTIVE"), ("ch0 WM 3", ""), ("ch0 WM 6", "WM(6)")],
    );
    valve(2, RELEASED, &[("ch0 IDLE", ""), ("ch1 IDLE", "IDLE"), ("ch0 ACTIVE", "ACTIVE"), ("ch0 WM 1", "WM(1)")]);
}

/// V-IDL-8: generator + idleness wrapper, probes every 5 ms, timeout 10 ms.
#[test]
fn v_idl_8_countdown_starts_at_first_quiet_probe() {
    let mut g = WatermarkGenerator::new(GeneratorKind::BoundedOutOfOrderness { bound_ms: 0 }, EmitMode::Periodic);
    let mut idle = IdlenessWrapper::new(Some(10));
    let origin = ProcTime(1_000_000);
    let probe = |t: i64, g: &mut WatermarkGenerator, idle: &mut IdlenessWrapper| match idle.on_periodic_emit(origin + t) {
        IdleCheck::Emit => g.on_periodic_emit(origin + t).map(|w| format!("wm({w})")).unwrap_or_default(),
        IdleCheck::MarkIdle => "idle()".into(),
        IdleCheck::StayIdle => String::new(),
    };
    let event = |ts: i64, g: &mut WatermarkGenerator, idle: &mut IdlenessWrapper| {
        g.on_event(EventTime(ts), ProcTime(0));
        idle.on_event();
    };
    event(1, &mut g, &mut idle);
    for (t, want) in [(5, "wm(0)"), (10, "wm(0)"), (15, "wm(0)"), (20, "wm(0)"), (25, "idle()"), (30, "")] {
        assert_eq!(probe(t, &mut g, &mut idle), want, "t={t}");
    }
    event(50, &mut g, &mut idle);
    for (t, want) in [(35, "wm(49)"), (40, "wm(49)"), (45, "wm(49)"), (50, "wm(49)"), (55, "idle()"), (60, "")] {
        assert_eq!(probe(t, &mut g, &mut idle), want, "t={t}");
    }
    event(20, &mut g, &mut idle);
    assert_eq!(probe(65, &mut g, &mut idle), "wm(49)");
}

/// What one source subtask emitted, as `(ms since start, "WM(x)" | "IDLE" | "ACTIVE")`.
fn source_output(sim: &Simulation) -> Vec<(i64, String)> {
    let start = sim.config().start_time;
    sim.trace()
        .retained()
        .filter_map(|e| match &e.kind {
            TraceKind::SourceWatermark { watermark, .. } => Some((e.time - start, format!("WM({watermark})"))),
            TraceKind::SourceStatus { status, .. } => Some((e.time - start, format!("{status:?}").to_uppercase())),
            _ => None,
        })
        .collect()
}

fn scenario(partitions: u32, body: &str) -> Simulation {
    let json = format!(
        r#"{{"topic": {{"partitions": {partitions}}}, "window": {{"assigner": {{"type": "tumbling", "size_ms": 1000}}}}, {body}}}"#
    );
    parse(&json).expect("valid scenario").build().expect("builds")
}

#[test]
fn v_src_1_zero_splits_no_idleness_blocks_forever() {
    let mut sim = scenario(0, r#""source": {"parallelism": 1}"#);
    sim.run_until(sim.config().start_time + 1000).unwrap();
    assert_eq!(source_output(&sim), vec![]);
    assert!(!sim.sources()[0].output.is_idle());
}

#[test]
fn v_src_2_zero_splits_with_idleness() {
    // The vector adds the split right after the tick at 1200; commands at an instant run
    // before that instant's tick, so they are scheduled at 1201.
    let mut sim = scenario(
        0,
        r#""source": {"watermark": {"idle_timeout_ms": 500}},
           "commands": [{"at_ms": 1201, "command": "add_partition"},
                        {"at_ms": 1201, "command": "produce", "partition": 0, "records": [{"ts": 1000}]}]"#,
    );
    sim.run_until(sim.config().start_time + 1600).unwrap();
    assert_eq!(source_output(&sim), vec![(800, "IDLE".into()), (1400, "ACTIVE".into()), (1400, "WM(999)".into())]);
}

#[test]
fn v_src_4_punctuated_per_split() {
    // A per-event monotonous generator emits ts − 1, so timestamps are shifted by +1 to keep
    // the vector's watermark values.
    let mut sim = scenario(
        2,
        r#""source": {"watermark": {"generator": {"kind": "monotonous"}, "emit": "per_event", "auto_watermark_interval_ms": 200}},
           "commands": [
             {"at_ms": 1, "command": "produce", "partition": 0, "records": [{"ts": 11}]},
             {"at_ms": 2, "command": "produce", "partition": 1, "records": [{"ts": 6}]},
             {"at_ms": 3, "command": "produce", "partition": 1, "records": [{"ts": 21}]},
             {"at_ms": 4, "command": "produce", "partition": 0, "records": [{"ts": 31}]},
             {"at_ms": 5, "command": "release_split", "partition": 1},
             {"at_ms": 300, "command": "produce", "partition": 0, "records": [{"ts": 41}]}]"#,
    );
    sim.run_until(sim.config().start_time + 400).unwrap();
    let got: Vec<String> = source_output(&sim).into_iter().map(|(t, s)| format!("{t}:{s}")).collect();
    assert_eq!(got, vec!["2:WM(5)", "3:WM(10)", "4:WM(20)", "200:WM(30)", "300:WM(40)"]);
}

#[test]
fn v_src_5_all_splits_released_stays_active() {
    let mut sim = scenario(
        1,
        r#""commands": [{"at_ms": 100, "command": "produce", "partition": 0, "records": [{"ts": 100}]},
                        {"at_ms": 300, "command": "release_split", "partition": 0}]"#,
    );
    sim.run_until(sim.config().start_time + 600).unwrap();
    assert_eq!(source_output(&sim), vec![(200, "WM(99)".into())]);
    assert!(!sim.sources()[0].output.is_idle());
}

#[test]
fn step_to_next_interesting_stops_at_the_change_or_the_limit() {
    let mut sim = scenario(1, r#""commands": [{"at_ms": 5000, "command": "produce", "partition": 0, "records": [{"ts": 100}]}]"#);
    let start = sim.config().start_time;
    assert!(!sim.step_to_next_interesting(1000).unwrap(), "nothing interesting in the first second");
    assert_eq!(sim.now(), start - 1 + 1000);
    assert!(sim.step_to_next_interesting(60_000).unwrap());
    assert_eq!(sim.now(), start + 5000, "the first operator watermark follows the record's tick");
}
