//! `value_path` on every preset and on documents that differ from one in one place (each value
//! replaced in turn by a value of each other JSON type, removed, one unknown field added):
//! every error names a place in the document, and what serde's derive would have said only
//! vaguely (an untagged enum's "did not match any variant", the object around a tagged enum's
//! field) is said exactly. Until December 2026 this compared against `serde_path_to_error`
//! over serde's own tagged derives; those read through serde's buffer, which is gone.

use super::deserialize;
use crate::engine::command::Command;
use crate::engine::scenario::catalog::presets;
use crate::engine::scenario::schema::{Scenario, TimedCommand};
use crate::engine::session::action::Action;
use serde_json::{json, Value};

fn ours<T: serde::de::DeserializeOwned>(v: &Value) -> Result<T, (String, String)> {
    deserialize::<T>(v).map_err(|(p, e)| (p, e.to_string()))
}

fn err<T: serde::de::DeserializeOwned + std::fmt::Debug>(v: Value) -> (String, String) {
    ours::<T>(&v).expect_err(&format!("{v} is refused"))
}

/// Whether `path` (`a.b[2].c`) names a value of `doc`, or a field missing from an object of it.
fn names_a_place(doc: &Value, path: &str, message: &str) -> bool {
    if path == "." {
        return true;
    }
    let mut v = doc;
    let parts: Vec<&str> = path.split('.').collect();
    for (n, part) in parts.iter().enumerate() {
        let (key, indexes) = part.split_once('[').map_or((*part, ""), |(k, rest)| (k, rest));
        if !key.is_empty() {
            match v.get(key) {
                Some(x) => v = x,
                None => return n + 1 == parts.len() && v.is_object() && message.starts_with("missing field"),
            }
        }
        for i in indexes.split('[').filter(|i| !i.is_empty()) {
            match v.get(i.trim_end_matches(']').parse::<usize>().unwrap()) {
                Some(x) => v = x,
                None => return false,
            }
        }
    }
    true
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
fn every_error_on_a_preset_mutant_names_its_place_in_words_of_the_input() {
    let (mut errors, mut total) = (0, 0);
    for p in presets() {
        let doc: Value = serde_json::from_str(p.json).unwrap();
        let sc = ours::<Scenario>(&doc).unwrap_or_else(|e| panic!("{}: {e:?}", p.id));
        let again = ours::<Scenario>(&serde_json::to_value(&sc).unwrap()).expect("what it writes, it reads");
        assert_eq!(again, sc, "{}", p.id);
        for m in mutants(&doc) {
            total += 1;
            let Err((path, message)) = ours::<Scenario>(&m) else { continue };
            errors += 1;
            assert!(names_a_place(&m, &path, &message), "{path}: {message} on {m}");
            for word in ["did not match any variant", "In`", "In,", "In\"", "$", "internally tagged"] {
                assert!(!message.contains(word), "{path}: {message}");
            }
        }
    }
    assert!(total > 5_000 && errors > total / 4, "the mutants exercise the error paths: {errors} errors of {total}");
}

#[test]
fn a_tagged_enums_field_is_named_where_it_is() {
    let e = err::<Command>(json!({"command": "silence", "partition": -1}));
    assert_eq!(e, ("partition".into(), "invalid value: integer `-1`, expected u32".into()));
    let e = err::<Command>(json!({"command": "produce", "partition": 1, "records": [{"ts": 5}, {"ts": "late"}]}));
    assert_eq!(e.0, "records[1].ts");
    assert_eq!(err::<Command>(json!({"command": "nope"})).0, "command");
    assert!(err::<Command>(json!({"command": "nope"})).1.starts_with("unknown variant `nope`, expected one of"));
    assert_eq!(err::<Command>(json!({"partition": 1})), (".".into(), "missing field `command`".into()));
    assert_eq!(err::<Command>(json!({"command": 3})), ("command".into(), "invalid type: integer `3`, expected variant identifier".into()));
    assert_eq!(
        err::<Command>(json!("silence")),
        (".".into(), "invalid type: string \"silence\", expected a map with a `command` field".into())
    );
    let e = err::<Command>(json!({"command": "end_of_input", "x": 1}));
    assert_eq!(e, ("x".into(), "unknown field `x`: `end_of_input` has no fields".into()));
    let e = err::<Command>(json!({"command": "silence", "partition": 1, "x": 1}));
    assert_eq!(e, ("x".into(), "unknown field `x`, expected `partition`".into()));
}

#[test]
fn an_adjacent_content_is_read_under_its_key_and_may_be_left_out_for_an_option() {
    let ok = ours::<Command>(&json!({"command": "set_param", "param": {"name": "idle_timeout_ms"}})).unwrap();
    assert_eq!(ok, ours::<Command>(&json!({"command": "set_param", "param": {"name": "idle_timeout_ms", "value": null}})).unwrap());
    let e = err::<Command>(json!({"command": "set_param", "param": {"name": "bound_ms", "value": "5 s"}}));
    assert_eq!(e, ("param.value".into(), "invalid type: string \"5 s\", expected i64".into()));
    assert_eq!(err::<Command>(json!({"command": "set_param", "param": {"name": "bound_ms"}})).1, "missing field `value`");
    assert_eq!(err::<Command>(json!({"command": "set_param", "param": {"name": "nope", "value": 1}})).0, "param.name");
    let e = err::<Command>(json!({"command": "set_param", "param": {"name": "bound_ms", "value": 1, "x": 2}}));
    assert_eq!(e, ("param.x".into(), "unknown field `x`, expected `name` or `value`".into()));
    assert_eq!(ours::<Action>(&json!({"kind": "legacy_connector"})), Ok(Action::LegacyConnector));
    assert_eq!(ours::<Action>(&json!({"kind": "idle_timeout"})), Ok(Action::IdleTimeout(None)));
    let e = err::<Action>(json!({"kind": "legacy_connector", "value": 3}));
    assert_eq!(e, ("value".into(), "invalid type: integer `3`, expected null".into()));
    let e = err::<Action>(json!({"kind": "wake_late", "value": {"partition": 1, "delay_ms": 5}}));
    assert_eq!(e, ("value.delay_ms".into(), "unknown field `delay_ms`, expected `partition` or `delayMs`".into()));
    let e = err::<Action>(json!({"kind": "alignment", "value": 5000}));
    assert_eq!(e, ("value".into(), "invalid type: integer `5000`, expected struct variant Action::Alignment".into()));
    assert_eq!(err::<Action>(json!({"kind": "bound", "value": 1, "why": 2})).1, "unknown field `why`, expected `kind` or `value`");
}

#[test]
fn a_flattened_field_reads_the_fields_its_struct_does_not_name() {
    let t: TimedCommand = ours(&json!({"at_ms": 5, "command": "silence", "partition": 2})).unwrap();
    assert_eq!((t.at_ms, t.command), (5, Command::Silence { partition: 2 }));
    assert_eq!(err::<TimedCommand>(json!({"at_ms": 5, "command": "silence"})), (".".into(), "missing field `partition`".into()));
    let e = err::<TimedCommand>(json!({"at_ms": 5, "command": "silence", "partition": 2, "at_s": 1}));
    assert_eq!(e.1, "unknown field `at_s`, expected `partition`");
    assert_eq!(err::<TimedCommand>(json!({"at_ms": "5", "command": "end_of_input"})).0, "at_ms");
    let producer = json!({"command": "attach_producer", "producer": {"partitions": "all", "kind": "burst", "every_ms": 3, "count": -2}});
    assert_eq!(err::<Command>(producer).0, "producer.count");
    let tagless = json!({"command": "attach_producer", "producer": {"partitions": 0, "rate_per_s": 3}});
    assert_eq!(err::<Command>(tagless), ("producer".into(), "missing field `kind`".into()));
    assert_eq!(err::<TimedCommand>(json!([5, "silence"])).1, "invalid type: sequence, expected struct TimedCommand");
    let e = err::<TimedCommand>(json!({"at_ms": 0, "command": "checkpoint", "x": 1}));
    assert_eq!(e, ("x".into(), "unknown field `x`: `checkpoint` has no fields".into()));
    let e = err::<TimedCommand>(json!({"at_ms": 0, "command": "checkpoint", "$rest": {"command": "checkpoint"}}));
    assert_eq!(e, ("$rest".into(), "unknown field `$rest`: `checkpoint` has no fields".into()));
    let e = err::<TimedCommand>(json!({"at_ms": 0, "command": "silence", "partition": 1, "$rest": 1}));
    assert_eq!(e, ("$rest".into(), "unknown field `$rest`, expected `partition`".into()));
}

#[test]
fn an_untagged_enum_is_told_apart_by_the_json_type_and_says_what_it_takes() {
    let attach = |partitions: Value, keys: Value| json!({"command": "attach_producer", "producer": {"partitions": partitions, "kind": "steady", "rate_per_s": 1, "keys": keys}});
    for (p, k) in [
        (json!(1), json!(["a"])),
        (json!([0, 1]), json!({"count": 2})),
        (json!("all"), json!({"count": 2, "prefix": "k"})),
        (json!({"all_except": [1]}), json!(["a", "b"])),
    ] {
        ours::<Command>(&attach(p, k)).unwrap();
    }
    let e = err::<Command>(attach(json!(true), json!(["a"])));
    assert_eq!(
        e,
        ("producer.partitions".into(), "invalid type: boolean `true`, expected a number, an array, a string or an object".into())
    );
    assert_eq!(err::<Command>(attach(json!(-1), json!(["a"]))).1, "invalid value: integer `-1`, expected u32");
    assert_eq!(err::<Command>(attach(json!("some"), json!(["a"]))).1, "unknown variant `some`, expected `all`");
    assert_eq!(err::<Command>(attach(json!([0, "x"]), json!(["a"]))).0, "producer.partitions[1]");
    assert_eq!(err::<Command>(attach(json!(0), json!({"count": "2"}))).0, "producer.keys.count");
    assert_eq!(err::<Command>(attach(json!(0), json!(3))).1, "invalid type: integer `3`, expected an array or an object");
}
