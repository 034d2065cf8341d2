//! The session's promise: whatever is done through it — commands applied now or scheduled,
//! runs, steps, searches, parameters set by name, inputs it refuses — its exported scenario
//! replays to the same trace hash under `wmp run`.
//!
//! Random sessions are driven through `Session` (as the JS API and the UI drive it); the export
//! is then run by the real `wmp` binary and its report's hash compared with the live one.

// It runs the `wmp` binary or the SQL reader / export: the `tools` feature's (on by default).
#![cfg(feature = "tools")]

mod common;

use common::{command, config, producer, within_topic};
use proptest::prelude::*;
use serde_json::{json, Value};
use std::io::Write;
use std::process::{Command as Process, Stdio};
use wmp::engine::command::Command;
use wmp::engine::scenario::schema::Scenario;
use wmp::engine::session::Session;

/// One thing a user or script does to a session.
#[derive(Clone, Debug)]
enum Op {
    RunFor(i64),
    Step,
    NextInteresting(i64),
    /// A command (possibly one the session refuses), applied at the next instant.
    Apply(Value),
    /// A command scheduled `ahead` ms after now.
    Schedule(i64, Value),
    /// `setParam(name, value)`, runtime or (before the start) structural.
    SetParam(&'static str, Value),
}

fn op() -> impl Strategy<Value = Op> {
    let param = prop_oneof![
        (0i64..3000).prop_map(|b| ("bound_ms", json!(b))),
        prop::option::of(100i64..3000).prop_map(|t| ("idle_timeout_ms", json!(t))),
        (0i64..500).prop_map(|i| ("auto_watermark_interval_ms", json!(i))),
        (-5i64..2000).prop_map(|l| ("allowed_lateness_ms", json!(l))),
        (1u32..4).prop_map(|p| ("window_parallelism", json!(p))),
        any::<bool>().prop_map(|b| ("drop_heartbeats", json!(b))),
    ];
    prop_oneof![
        4 => (1i64..3000).prop_map(Op::RunFor),
        2 => Just(Op::Step),
        1 => (1i64..5000).prop_map(Op::NextInteresting),
        4 => command(1).prop_map(Op::Apply),
        2 => (1i64..3000, command(1)).prop_map(|(a, c)| Op::Schedule(a, c)),
        2 => param.prop_map(|(n, v)| Op::SetParam(n, v)),
    ]
}

fn base() -> impl Strategy<Value = Value> {
    (1u32..=4, 1u32..=3, any::<u64>(), prop::collection::vec(producer(), 1..4), 1000i64..4000).prop_map(|(partitions, sp, seed, producers, duration)| {
        let producers = within_topic(producers, "partitions", partitions);
        json!({
            "seed": seed,
            "duration_ms": duration,
            "topic": {"partitions": partitions},
            "source": {"parallelism": sp, "watermark": {"generator": {"kind": "bounded_out_of_orderness", "bound_ms": 500}, "idle_timeout_ms": 1000}},
            "window": {"assigner": {"type": "tumbling", "size_ms": 1000}, "allowed_lateness_ms": 500, "late_side_output": true},
            "producers": producers,
            "trace": {"capacity": 100},
        })
    })
}

/// Does `op`; refusals are part of the test (a refused command must leave no trace).
fn perform(s: &mut Session, op: &Op) {
    let _ = match op {
        Op::RunFor(ms) => s.run_for(*ms, &mut ()).map(|_| ()),
        Op::Step => s.step(&mut ()).map(|_| ()),
        Op::NextInteresting(limit) => s.step_to_next_interesting(*limit, &mut ()).map(|_| ()),
        Op::Apply(c) => command_of(c, s).and_then(|c| s.apply(c)),
        Op::Schedule(ahead, c) => command_of(c, s).and_then(|c| {
            let at = s.now() + *ahead;
            s.schedule_at(at, vec![c], &[String::new()])
        }),
        Op::SetParam(name, v) => s.set_param_json(name, v.clone(), &mut ()),
    };
}

/// The command of a generated one, its partition (if any) taken within the topic plus one, so
/// that some name a partition that does not exist.
fn command_of(c: &Value, s: &Session) -> Result<Command, wmp::engine::error::InputError> {
    let mut c = c.clone();
    c.as_object_mut().unwrap().remove("at_ms");
    if let Some(p) = c["partition"].as_u64() {
        c["partition"] = json!(p % (s.sim().partitions().len() as u64 + 1));
    }
    wmp::engine::error::from_value(c, "command")
}

/// The trace hash `wmp run` prints for a scenario.
fn wmp_run_hash(sc: &Scenario) -> String {
    let mut child =
        Process::new(env!("CARGO_BIN_EXE_wmp")).args(["run", "-"]).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(serde_json::to_string(sc).unwrap().as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "wmp run refused the export: {}", String::from_utf8_lossy(&out.stdout));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    report["trace_hash"].as_str().unwrap().to_string()
}

proptest! {
    #![proptest_config(config(48))]

    #[test]
    fn an_exported_session_replays_to_the_same_hash_under_wmp_run(base in base(), ops in prop::collection::vec(op(), 0..14)) {
        let mut s = Session::from_json(&base.to_string()).unwrap();
        for op in &ops {
            perform(&mut s, op);
        }
        prop_assert!(s.halted().is_none(), "checked input never stops the engine");
        if s.elapsed() > 0 {
            // The page's export: exactly up to now.
            prop_assert_eq!(wmp_run_hash(&s.to_scenario_now()), s.sim().trace().hash_hex());
        }
        // The API's export, after running as `wmp run` would.
        s.run_to_end(&mut ()).unwrap();
        prop_assert_eq!(wmp_run_hash(&s.to_scenario()), s.sim().trace().hash_hex());
    }
}
