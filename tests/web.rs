//! Browser tests, run in headless Chromium by wasm-bindgen-test-runner:
//!   cargo test --target wasm32-unknown-unknown --test web
//! (scripts/test.sh sets CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER and CHROMEDRIVER; the
//! Chromium flags are in webdriver.json at the repo root).
#![cfg(target_arch = "wasm32")]

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// A fresh, detached-from-everything-else container appended to <body>.
fn fresh_container() -> web_sys::HtmlElement {
    let document = web_sys::window().unwrap().document().unwrap();
    let div = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&div).unwrap();
    div.unchecked_into()
}

#[wasm_bindgen_test]
fn app_renders_heading_and_description() {
    let container = fresh_container();
    let handle = leptos::mount::mount_to(container.clone(), wmp::web::App);

    let heading = container
        .query_selector("h1")
        .unwrap()
        .expect("the App renders an <h1>");
    assert_eq!(heading.text_content().unwrap(), "Watermark Playground");

    let text = container.text_content().unwrap();
    assert!(
        text.contains("StatusWatermarkValve"),
        "description paragraph missing: {text}"
    );
    assert!(text.contains("wmp"), "CLI name missing: {text}");

    drop(handle);
    assert!(
        container.query_selector("h1").unwrap().is_none(),
        "dropping the mount handle unmounts the App"
    );
    container.remove();
}

/// The engine in wasm gives the same traces as natively (constants pinned in tests/trace_hash.rs).
#[wasm_bindgen_test]
fn engine_trace_hashes_match_native() {
    let late = include_str!("scenarios/late_data_allowed_lateness.json");
    let sim = wmp::engine::scenario::build::parse(late).unwrap().run().unwrap();
    assert_eq!(sim.trace().hash_hex(), "7a49dde43eac7d3d");
    let o = wmp::engine::scenario::oracle::parse(include_str!("golden/oracle/scenarios/06_session_merge_lateness.json")).unwrap();
    assert_eq!(o.run().unwrap().trace().hash_hex(), "a4cd1703637a93e0");
}

/// Bad input is an error value in wasm too, never a trap.
#[wasm_bindgen_test]
fn engine_rejects_bad_input_without_trapping() {
    let err = wmp::engine::scenario::build::parse(r#"{"topic": {"partitions": 1}, "window": {"assigner": {"type": "tumbling", "size_ms": -5}}}"#).unwrap_err();
    assert_eq!(err.path, "window.assigner.size_ms");
}
