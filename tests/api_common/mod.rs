//! Helpers shared by the JS API's browser tests (`tests/web_api*.rs`): scenarios, reading
//! JS values by path, and asserting the JS error class and message of a failed call.
#![allow(dead_code)]

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wmp::api::WatermarkPlayground as Playground;
use wmp::engine::scenario::build;

pub const LATE: &str = include_str!("../scenarios/late_data_allowed_lateness.json");
pub const HEARTBEAT: &str = include_str!("../scenarios/heartbeat_defeats_idle_timeout.json");

/// A small job: 2 partitions, parallelism 2, 10 s windows, 20 records/s per partition.
pub const SMALL: &str = r#"{
  "name": "small", "seed": 7, "duration_ms": 60000,
  "topic": {"partitions": 2},
  "source": {"parallelism": 2, "watermark": {"generator": {"kind": "bounded_out_of_orderness", "bound_ms": 1000}}},
  "window": {"assigner": {"type": "tumbling", "size_ms": 10000}, "parallelism": 2},
  "producers": [{"partitions": "all", "kind": "steady", "rate_per_s": 20, "jitter_ms": 500, "keys": ["a", "b", "c"]}]
}"#;

pub fn js(json: &str) -> JsValue {
    js_sys::JSON::parse(json).expect("test JSON")
}

pub fn get(v: &JsValue, path: &str) -> JsValue {
    let mut cur = v.clone();
    for part in path.split('.') {
        cur = match part.parse::<u32>() {
            Ok(i) => js_sys::Reflect::get_u32(&cur, i).unwrap(),
            Err(_) => js_sys::Reflect::get(&cur, &JsValue::from_str(part)).unwrap(),
        };
    }
    cur
}

pub fn num(v: &JsValue, path: &str) -> f64 {
    get(v, path).as_f64().unwrap_or_else(|| panic!("{path} is not a number"))
}

pub fn len(v: &JsValue) -> u32 {
    v.unchecked_ref::<js_sys::Array>().length()
}

pub fn small() -> Playground {
    Playground::new(js(SMALL)).expect("small scenario loads")
}

/// The JS error class and message of a failed call.
pub fn err<T>(r: Result<T, JsValue>) -> (&'static str, String) {
    let e = match r {
        Ok(_) => panic!("expected an error"),
        Err(e) => e,
    };
    let class = if e.is_instance_of::<js_sys::RangeError>() {
        "RangeError"
    } else if e.is_instance_of::<js_sys::TypeError>() {
        "TypeError"
    } else if e.is_instance_of::<js_sys::Error>() {
        "Error"
    } else {
        "not an Error"
    };
    let msg = e.dyn_ref::<js_sys::Error>().map(|e| String::from(e.message())).unwrap_or_default();
    (class, msg)
}

/// Asserts the class and that the message contains every fragment.
pub fn expect_err<T>(r: Result<T, JsValue>, class: &str, fragments: &[&str]) {
    let (c, m) = err(r);
    assert_eq!(c, class, "{m}");
    for f in fragments {
        assert!(m.contains(f), "{m:?} lacks {f:?}");
    }
}

/// After an error the same object still works: it runs and reads.
pub fn still_works(p: &Playground) {
    let before = p.elapsed_ms().unwrap();
    p.run_for(JsValue::from(1000)).expect("runFor after an error");
    assert_eq!(p.elapsed_ms().unwrap(), before.max(0.0) + 1000.0);
    let s = p.snapshot(JsValue::UNDEFINED).expect("snapshot after an error");
    assert!(len(&get(&s, "splits")) >= 2);
}

pub fn engine_hash(text: &str) -> String {
    build::parse(text).unwrap().run().unwrap().trace().hash_hex()
}
