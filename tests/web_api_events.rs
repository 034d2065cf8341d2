//! The JS API's listeners (`on`, delivery order, callbacks that call back or throw, no effect
//! on the trace), the replay of a session through `toScenario`/share strings (deterministic,
//! distinct per session, decoding to the scenario), and `free` (a freed instance throws, its
//! subscriptions stay harmless), in headless Chromium: `cargo test --target wasm32-unknown-unknown --test web_api_events`.
#![cfg(target_arch = "wasm32")]

mod api_common;

use api_common::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use wmp::api::WatermarkPlayground as Playground;

wasm_bindgen_test_configure!(run_in_browser);

/// Collects callback payloads into a JS array.
fn collector() -> (js_sys::Array, Closure<dyn FnMut(JsValue)>) {
    let out = js_sys::Array::new();
    let o = out.clone();
    let cb = Closure::<dyn FnMut(JsValue)>::new(move |ev: JsValue| {
        o.push(&ev);
    });
    (out, cb)
}

#[wasm_bindgen_test]
fn on_delivers_events_after_the_call_and_remove_stops_them() {
    let p = Playground::new(js(LATE)).unwrap();
    let (windows, w_cb) = collector();
    let (late, l_cb) = collector();
    let (wms, wm_cb) = collector();
    let (steps, s_cb) = collector();
    let sub_w = p.on("window".into(), w_cb.as_ref().clone()).unwrap();
    let _sub_l = p.on("late".into(), l_cb.as_ref().clone()).unwrap();
    let sub_wm = p.on("watermark".into(), wm_cb.as_ref().clone()).unwrap();
    let _sub_s = p.on("step".into(), s_cb.as_ref().clone()).unwrap();
    p.run_until(JsValue::from(30_000)).unwrap();
    assert_eq!(windows.length(), len(&p.windows(JsValue::UNDEFINED).unwrap()), "every emission, once");
    assert!(late.length() > 0);
    assert!(wms.length() > 0);
    assert_eq!(get(&wms, "0.level").as_string().unwrap(), "split");
    assert_eq!(steps.length(), 1);
    assert_eq!(num(&steps, "0.elapsedMs"), 30_000.0);
    // Times never go backwards within a delivery.
    let mut last = f64::MIN;
    for i in 0..windows.length() {
        let t = num(&windows.get(i), "time");
        assert!(t >= last);
        last = t;
    }
    sub_w.remove();
    sub_w.remove();
    sub_wm.remove();
    let n = windows.length();
    p.run_until(JsValue::from(60_000)).unwrap();
    assert_eq!(windows.length(), n, "removed");
    assert_eq!(steps.length(), 2);

    // Idle/active events (the heartbeat scenario has an idle timeout).
    let q = Playground::new(js(HEARTBEAT)).unwrap();
    let (idle, i_cb) = collector();
    let (active, a_cb) = collector();
    q.on("idle".into(), i_cb.as_ref().clone()).unwrap();
    q.on("active".into(), a_cb.as_ref().clone()).unwrap();
    q.mark_idle(JsValue::from(0)).unwrap();
    assert!(idle.length() >= 1);
    assert_eq!(get(&idle, "0.level").as_string().unwrap(), "split");
    q.mark_active(JsValue::from(0)).unwrap();
    assert!(active.length() >= 1);

    let f = js_sys::Function::new_no_args("");
    expect_err(p.on("windows".into(), f.clone().into()), "RangeError", &["on", "event", "windows"]);
    expect_err(p.on("window".into(), JsValue::from(1)), "TypeError", &["on", "callback", "function"]);
    let no_trace = Playground::new(js(
        r#"{"topic": {"partitions": 1}, "window": {"assigner": {"type": "tumbling", "size_ms": 1000}}, "trace": {"capacity": 0}}"#,
    ))
    .unwrap();
    expect_err(no_trace.on("watermark".into(), f.clone().into()), "Error", &["event", "capacity is 0"]);
    no_trace.on("window".into(), f.into()).unwrap();
    still_works(&p);
}

#[wasm_bindgen_test]
fn callbacks_may_call_back_and_their_errors_surface_after_delivery() {
    let p = small();
    let p = std::rc::Rc::new(p);
    let seen = std::rc::Rc::new(std::cell::Cell::new(0u32));
    let (q, s) = (p.clone(), seen.clone());
    // The first window triggers a command and a read from inside the callback.
    let cb = Closure::<dyn FnMut(JsValue)>::new(move |_ev: JsValue| {
        if s.get() == 0 {
            q.silence(JsValue::from(0)).expect("a command from a callback");
            q.snapshot(JsValue::UNDEFINED).expect("a read from a callback");
        }
        s.set(s.get() + 1);
    });
    p.on("window".into(), cb.as_ref().clone()).unwrap();
    p.run_until(JsValue::from(30_000)).unwrap();
    assert!(seen.get() > 1);
    assert!(get(&p.snapshot(JsValue::UNDEFINED).unwrap(), "splits.0.silent").as_bool().unwrap());

    let r = small();
    let thrower = js_sys::Function::new_with_args("ev", "throw new TypeError('listener failed at ' + ev.elapsedMs)");
    let sub = r.on("step".into(), thrower.into()).unwrap();
    let (windows, w_cb) = collector();
    r.on("window".into(), w_cb.as_ref().clone()).unwrap();
    expect_err(r.run_for(JsValue::from(30_000)), "TypeError", &["listener failed at 30000"]);
    assert_eq!(r.elapsed_ms().unwrap(), 30_000.0, "the call itself completed");
    assert!(windows.length() > 0, "other listeners still got their events");
    sub.remove();
    still_works(&r);
    drop(cb);
}

#[wasm_bindgen_test]
fn listeners_do_not_change_the_trace() {
    let plain = Playground::new(js(LATE)).unwrap();
    let watched = Playground::new(js(LATE)).unwrap();
    let (wms, cb) = collector();
    watched.on("watermark".into(), cb.as_ref().clone()).unwrap();
    watched.on("late".into(), cb.as_ref().clone()).unwrap();
    for p in [&plain, &watched] {
        p.run_until(JsValue::from(20_000)).unwrap();
        p.step_to_next_interesting(JsValue::UNDEFINED).unwrap();
        p.step().unwrap();
        p.run_to_end().unwrap();
    }
    assert!(wms.length() > 100);
    assert_eq!(plain.trace_hash().unwrap(), watched.trace_hash().unwrap());
    // Nothing interesting within the limit: both stop with the clock at the limit.
    let plain = Playground::from_preset("seed-001-heartbeat".into()).unwrap();
    let watched = Playground::from_preset("seed-001-heartbeat".into()).unwrap();
    watched.on("watermark".into(), cb.as_ref().clone()).unwrap();
    for p in [&plain, &watched] {
        p.run_until(JsValue::from(10_000)).unwrap();
        assert!(!p.step_to_next_interesting(JsValue::from(20_000)).unwrap(), "partition 11 holds every operator");
        assert_eq!(p.elapsed_ms().unwrap(), 30_000.0);
    }
    assert_eq!(plain.trace_hash().unwrap(), watched.trace_hash().unwrap());
}

/// The `seq` of every event collected in `events`.
fn seqs(events: &js_sys::Array) -> Vec<f64> {
    events.iter().map(|e| num(&e, "seq")).collect()
}

#[wasm_bindgen_test]
fn a_long_run_hands_its_events_over_in_batches_as_it_goes_and_loses_none() {
    // Ten minutes of SMALL: some 18,000 watermark changes. Held until the end of the call, an
    // hour of seed 001 took 480 MB of wasm memory, and nine hours trapped.
    let p = std::rc::Rc::new(small());
    let (wms, cb) = collector();
    let clocks = js_sys::Array::new();
    let (q, c) = (p.clone(), clocks.clone());
    let clock = Closure::<dyn FnMut(JsValue)>::new(move |_ev: JsValue| {
        c.push(&JsValue::from(q.elapsed_ms().expect("a read from a callback, between batches")));
    });
    p.on("watermark".into(), cb.as_ref().clone()).unwrap();
    p.on("watermark".into(), clock.as_ref().clone()).unwrap();
    let (steps, s_cb) = collector();
    p.on("step".into(), s_cb.as_ref().clone()).unwrap();
    p.run_until(JsValue::from(600_000)).unwrap();
    assert!(wms.length() > 3 * 4096, "{} events", wms.length());
    let mut at: Vec<f64> = clocks.iter().map(|v| v.as_f64().unwrap()).collect();
    let per_batch = at.chunk_by(|a, b| a == b).map(<[f64]>::len).max().unwrap();
    at.dedup();
    assert!(at.len() > 3, "delivered during the run, the clock where it stopped: {at:?}");
    assert!(at.windows(2).all(|w| w[0] < w[1]) && at.last() == Some(&600_000.0), "{at:?}");
    assert!(per_batch <= 2 * 4096, "{per_batch} events in one batch");
    assert_eq!(steps.length(), 1, "one step event, at the end");
    // The same events, once each and in order, as a run in short calls delivers them.
    let stepped = small();
    let (short, cb2) = collector();
    stepped.on("watermark".into(), cb2.as_ref().clone()).unwrap();
    for t in (10_000..=600_000).step_by(10_000) {
        stepped.run_until(JsValue::from(t)).unwrap();
    }
    assert_eq!(seqs(&wms), seqs(&short));
    assert_eq!(p.trace_hash().unwrap(), stepped.trace_hash().unwrap());

    // A listener that runs the playground on between batches: the run goes on from there (it
    // said "atMs is in the past"), and one that ends the input ends the run.
    for nested in ["runUntil", "runToEnd", "stepToNextInteresting"] {
        let ends = SMALL.replace("\"duration_ms\": 60000", "\"duration_ms\": 60000, \"end_of_input\": true");
        let q = std::rc::Rc::new(Playground::new(js(&ends)).unwrap());
        let (r, done) = (q.clone(), std::rc::Rc::new(std::cell::Cell::new(false)));
        // `Fn`: the nested call delivers its own events to it (an `FnMut` refuses a recursive call).
        let once = Closure::<dyn Fn(JsValue)>::new(move |_ev: JsValue| {
            if !done.replace(true) {
                match nested {
                    "runUntil" => r.run_until(JsValue::from(700_000)).unwrap(),
                    "runToEnd" => r.run_to_end().unwrap(),
                    _ => drop(r.step_to_next_interesting(JsValue::UNDEFINED).unwrap()),
                }
            }
        });
        q.on("watermark".into(), once.as_ref().clone()).unwrap();
        q.run_until(JsValue::from(600_000)).unwrap_or_else(|e| panic!("{nested}: {e:?}"));
        let at = q.elapsed_ms().unwrap();
        match nested {
            "runUntil" => assert_eq!(at, 700_000.0),
            // Past the scenario's end at the first batch: the input ended there, and the run.
            "runToEnd" => assert!(at > 60_000.0 && at < 600_000.0, "{at}"),
            _ => assert_eq!(at, 600_000.0),
        }
    }

    // A listener that throws in the first batch: the run goes on to its end, then rethrows.
    let r = small();
    let thrower = js_sys::Function::new_with_args("ev", "throw new TypeError('listener failed at seq ' + ev.seq)");
    let sub = r.on("watermark".into(), thrower.into()).unwrap();
    expect_err(r.run_for(JsValue::from(600_000)), "TypeError", &["listener failed at seq"]);
    assert_eq!(r.elapsed_ms().unwrap(), 600_000.0, "the run went on to its end");
    sub.remove();
    still_works(&r);
}

/// A scripted session over `SMALL`: a parameter change, produced records, a new partition with
/// a heartbeat, a silenced and a scheduled resumed partition, up to 45 s. Each call scripts a
/// new, independent session the same way.
fn scripted_session() -> Playground {
    let p = small();
    p.run_until(JsValue::from(2500)).unwrap();
    p.set_param("idle_timeout_ms".into(), JsValue::from(3000)).unwrap();
    p.produce(JsValue::from(0), js(r#"[{"ts_offset_ms": -4000, "key": "old"}, {"key": "now", "value": 9}]"#)).unwrap();
    let np = p.add_partition().unwrap();
    p.attach(js(&format!(r#"{{"partitions": {np}, "kind": "heartbeat", "every_ms": 7000, "keys": ["hb"]}}"#))).unwrap();
    p.run_for(JsValue::from(10_000)).unwrap();
    p.silence(JsValue::from(1)).unwrap();
    p.schedule(JsValue::from(30_000), js(r#"{"command": "resume", "partition": 1}"#)).unwrap();
    p.step_to_next_interesting(JsValue::UNDEFINED).unwrap();
    p.run_until(JsValue::from(45_000)).unwrap();
    p
}

#[wasm_bindgen_test]
fn to_scenario_and_share_string_reproduce_the_session() {
    let p = scripted_session();
    let at = p.elapsed_ms().unwrap();
    let hash = p.trace_hash().unwrap();

    let sc = p.to_scenario().unwrap();
    let cmds = get(&sc, "commands");
    assert_eq!(len(&cmds), 6);
    assert_eq!(num(&cmds, "0.at_ms"), 2501.0, "runs the millisecond after the clock");
    assert_eq!(get(&cmds, "0.command").as_string().unwrap(), "set_param");
    assert_eq!(num(&cmds, "5.at_ms"), 30_000.0);
    assert_eq!(num(&sc, "duration_ms"), 60_000.0);

    let q = Playground::new(sc.clone()).unwrap();
    q.run_until(JsValue::from(at)).unwrap();
    assert_eq!(q.trace_hash().unwrap(), hash, "toScenario() reproduces the trace");
    let r = Playground::from_share_string(JsValue::from_str(&p.to_share_string().unwrap())).unwrap();
    r.run_until(JsValue::from(at)).unwrap();
    assert_eq!(r.trace_hash().unwrap(), hash, "the share string reproduces the trace");
    // And the engine (what `wmp run` does) agrees once the session reaches the duration.
    p.run_to_end().unwrap();
    let text = String::from(js_sys::JSON::stringify(&p.to_scenario().unwrap()).unwrap());
    assert_eq!(engine_hash(&text), p.trace_hash().unwrap());
}

#[wasm_bindgen_test]
fn share_strings_are_deterministic_distinct_and_decode_to_the_scenario() {
    let p = scripted_session();
    let share = p.to_share_string().unwrap();
    // The same session, scripted again as a separate instance, gives the same string.
    assert_eq!(scripted_session().to_share_string().unwrap(), share, "same session, same string");
    // A different session (same scenario, no commands; or one more command) gives another.
    assert_ne!(small().to_share_string().unwrap(), share, "a session without the commands");
    let more = scripted_session();
    more.silence(JsValue::from(0)).unwrap();
    assert_ne!(more.to_share_string().unwrap(), share, "a session with one more command");
    // The string is the encoding of toScenario(), and decode(encode(x)) == x.
    let json = wmp::engine::session::share::decode(&share, "share").unwrap();
    let parsed = js_sys::JSON::parse(&json).unwrap();
    let scenario = js_sys::JSON::stringify(&p.to_scenario().unwrap()).unwrap();
    assert_eq!(js_sys::JSON::stringify(&parsed).unwrap(), scenario, "the string holds toScenario()");
    assert_eq!(wmp::engine::session::share::encode(&json), share, "encode(decode(s)) == s");
    for x in ["", "{}", "a", "ab", "abc", "abcd", "é and \u{1F600}", json.as_str()] {
        let s = wmp::engine::session::share::encode(x);
        assert_eq!(wmp::engine::session::share::decode(&s, "share").unwrap(), x, "decode(encode({x:?}))");
    }
    assert_ne!(wmp::engine::session::share::encode("ab"), wmp::engine::session::share::encode("ac"));
}

/// Calls method (or getter function) `name` of a JS object the way JS code does.
fn call_js(obj: &JsValue, name: &str, args: &[JsValue]) -> Result<JsValue, JsValue> {
    let f = js_sys::Reflect::get(obj, &JsValue::from_str(name)).unwrap();
    let f: &js_sys::Function = f.dyn_ref().unwrap_or_else(|| panic!("{name} is not a method"));
    f.apply(obj, &args.iter().collect::<js_sys::Array>())
}

#[wasm_bindgen_test]
fn free_releases_the_instance() {
    let p = small();
    let (windows, cb) = collector();
    let sub = p.on("window".into(), cb.as_ref().clone()).unwrap();
    // The instance as JS holds it: a wrapper whose free() releases the Rust value.
    let obj = JsValue::from(p);
    call_js(&obj, "runFor", &[JsValue::from(30_000)]).expect("usable before free()");
    assert!(windows.length() > 0);
    call_js(&obj, "free", &[]).expect("free()");
    let e = call_js(&obj, "runFor", &[JsValue::from(10)]).expect_err("a freed instance cannot run");
    let msg = String::from(e.dyn_ref::<js_sys::Error>().expect("an Error").message());
    // wasm-bindgen's words for a freed (moved-out) instance.
    assert!(msg.contains("null pointer passed to rust") || msg.contains("Attempt to use a moved value"), "{msg}");
    // The listener list went with the instance: removing a subscription is a no-op, no throw.
    sub.remove();
    let sub = JsValue::from(sub);
    call_js(&sub, "remove", &[]).expect("remove() after free() does not throw");
    call_js(&sub, "remove", &[]).expect("twice");
    // A new instance is independent of the freed one.
    let q = small();
    q.run_for(JsValue::from(10)).unwrap();
}

/// `diagnose`, `applyFix`, `setLagAlert` + `on("lag")` and `lagHistory` (issue 11's JS edge).
#[wasm_bindgen_test]
fn the_diagnosis_names_the_culprit_its_fix_works_and_lag_alerts_fire_at_the_crossing() {
    let p = Playground::new(JsValue::from_str("empty-partition")).unwrap();
    let d0 = p.diagnose(JsValue::UNDEFINED).unwrap();
    assert!(get(&d0, "culprit").is_null(), "nothing read: no culprit");
    assert_eq!(get(&d0, "cause").as_string().unwrap(), "nothing_read_yet");
    let (crossings, cb) = collector();
    p.set_lag_alert(JsValue::from(30_000)).unwrap();
    let _sub = p.on("lag".into(), cb.as_ref().clone()).unwrap();
    p.run_until(JsValue::from(60_000)).unwrap();
    let d = p.diagnose(JsValue::UNDEFINED).unwrap();
    assert_eq!(get(&d, "cause").as_string().unwrap(), "empty_partition");
    assert_eq!(num(&d, "culprit.partition"), 3.0);
    assert_eq!(get(&d, "findings.0.kind").as_string().unwrap(), "empty_partition");
    assert!(get(&d, "findings")
        .dyn_into::<js_sys::Array>()
        .unwrap()
        .iter()
        .any(|f| get(&f, "kind").as_string().as_deref() == Some("event_time_lag")));
    assert_eq!(get(&d, "partitions.3.class").as_string().unwrap(), "empty");
    // No watermark at all: the lag counts from the start, so it crosses 30 s at exactly 30.001 s.
    assert!(crossings.length() >= 1);
    let c = crossings.get(0);
    assert!(get(&c, "over").as_bool().unwrap());
    assert_eq!(num(&c, "time") - p.start_time().unwrap(), 30_001.0);
    assert_eq!(num(&c, "thresholdMs"), 30_000.0);
    let fired = len(&p.windows(JsValue::UNDEFINED).unwrap());
    assert_eq!(fired, 0);
    p.apply_fix(get(&d, "findings.0.fixes.0")).unwrap();
    p.run_until(JsValue::from(90_000)).unwrap();
    assert!(len(&p.windows(JsValue::UNDEFINED).unwrap()) > 0, "the offered fix makes windows fire");
    let back = crossings.iter().any(|c| get(&c, "over").as_bool() == Some(false));
    assert!(back, "the lag came back under the threshold");
    let h = p.lag_history(JsValue::from(0)).unwrap();
    assert!(len(&h) > 2);
    assert!(get(&h, &format!("{}.lagMs", len(&h) - 1)).as_f64().unwrap() < 30_000.0);
    // Bad input: a typed error naming the field.
    expect_err(p.apply_fix(js(r#"{"kind": "reboot"}"#)), "Error", &["applyFix", "fix"]);
    expect_err(p.lag_history(JsValue::from(7)), "RangeError", &["lagHistory", "subtask", "no window subtask 7"]);
    expect_err(p.set_lag_alert(JsValue::from(-1)), "RangeError", &["setLagAlert", "ms"]);
    expect_err(p.diagnose(js(r#"{"toleratedDelay": 5}"#)), "Error", &["diagnose", "options"]);
    expect_err(p.diagnose(js(r#"{"lagAlertMs": -5}"#)), "RangeError", &["diagnose", "options.lagAlertMs", ">= 0"]);
    // A fix's value is required where it has one: a left-out timeout is not "off".
    expect_err(p.apply_fix(js(r#"{"kind": "idle_timeout"}"#)), "TypeError", &["applyFix", "fix.value", "null turns it off"]);
    expect_err(p.apply_fix(js(r#"{"action": {"kind": "keyed_capacity"}}"#)), "TypeError", &["fix.action.value"]);
    still_works(&p);
}
