//! `value_path` against `serde_path_to_error` (what it replaced, a dev-dependency now): every
//! preset, each of its values replaced in turn by a value of each other JSON type, one field
//! removed, one unknown field added — the same result, the same message and the same path.

use super::deserialize;
use crate::engine::command::Command;
use crate::engine::scenario::catalog::presets;
use crate::engine::scenario::schema::Scenario;
use crate::engine::session::action::Action;
use serde_json::{json, Value};

fn reference<T: serde::de::DeserializeOwned>(v: &Value) -> Result<(), (String, String)> {
    serde_path_to_error::deserialize::<_, T>(v).map(drop).map_err(|e| (e.path().to_string(), e.inner().to_string()))
}

fn ours<T: serde::de::DeserializeOwned>(v: &Value) -> Result<(), (String, String)> {
    deserialize::<T>(v).map(drop).map_err(|(p, e)| (p, e.to_string()))
}

fn same<T: serde::de::DeserializeOwned>(v: &Value) -> usize {
    assert_eq!(ours::<T>(v), reference::<T>(v), "on {v}");
    usize::from(reference::<T>(v).is_err())
}

/// Every document that differs from `doc` in one place.
fn mutants(doc: &Value) -> Vec<Value> {
    let replacements = [json!(null), json!(true), json!(-3), json!(7), json!(2.5), json!("x"), json!([1]), json!({"k": 1})];
    let mut out = Vec::new();
    let mut at = Vec::new();
    leaves(doc, &mut at, &mut |path: &[Step]| {
        for r in &replacements {
            out.push(replaced(doc, path, Some(r.clone())));
        }
        out.push(replaced(doc, path, None));
    });
    if let Value::Object(m) = doc {
        let mut extra = m.clone();
        extra.insert("no_such_field".into(), json!(1));
        out.push(Value::Object(extra));
    }
    out
}

#[derive(Clone)]
enum Step {
    Key(String),
    Index(usize),
}

fn leaves(v: &Value, at: &mut Vec<Step>, f: &mut dyn FnMut(&[Step])) {
    if !at.is_empty() {
        f(at);
    }
    let children: Vec<(Step, &Value)> = match v {
        Value::Object(m) => m.iter().map(|(k, x)| (Step::Key(k.clone()), x)).collect(),
        Value::Array(a) => a.iter().take(3).enumerate().map(|(i, x)| (Step::Index(i), x)).collect(),
        _ => vec![],
    };
    for (step, child) in children {
        at.push(step);
        leaves(child, at, f);
        at.pop();
    }
}

/// `doc` with the value at `path` replaced (or removed, for `None`).
fn replaced(doc: &Value, path: &[Step], with: Option<Value>) -> Value {
    let mut out = doc.clone();
    let (last, parents) = path.split_last().expect("a path below the root");
    let mut v = &mut out;
    for step in parents {
        v = match step {
            Step::Key(k) => &mut v[k.as_str()],
            Step::Index(i) => &mut v[*i],
        };
    }
    match (last, with, v) {
        (Step::Key(k), Some(w), v) => v[k.as_str()] = w,
        (Step::Key(k), None, Value::Object(m)) => drop(m.remove(k)),
        (Step::Index(i), Some(w), v) => v[*i] = w,
        (Step::Index(i), None, Value::Array(a)) => drop(a.remove(*i)),
        _ => unreachable!("a path into the document"),
    }
    out
}

#[test]
fn same_paths_and_messages_as_serde_path_to_error_on_every_preset_mutant() {
    let mut errors = 0;
    let mut total = 0;
    for p in presets() {
        let doc: Value = serde_json::from_str(p.json).unwrap();
        for m in mutants(&doc) {
            errors += same::<Scenario>(&m);
            total += 1;
        }
    }
    assert!(total > 5_000 && errors > total / 4, "the mutants exercise the error paths: {errors} errors of {total}");
}

#[test]
fn same_on_commands_and_actions() {
    let docs = [
        json!({"type": "produce", "partition": 1, "records": [{"ts": 5, "key": "a"}, {"ts": "late"}]}),
        json!({"type": "set_param", "param": {"idle_timeout_ms": "5 s"}}),
        json!({"type": "set_param", "param": {"nope": 1}}),
        json!({"type": "set_param", "param": {}}),
        json!({"type": "silence", "partition": -1}),
        json!({"type": "attach_producer", "producer": {"partitions": [0, "x"], "kind": "steady"}}),
        json!({"type": "no_such_command"}),
        json!(["produce"]),
    ];
    for d in &docs {
        same::<Command>(d);
        for m in mutants(d) {
            same::<Command>(&m);
        }
    }
    for d in [json!({"kill_task_manager": 0}), json!({"idle_timeout": "x"}), json!("pause"), json!({"a": 1, "b": 2}), json!(3)] {
        same::<Action>(&d);
    }
}
