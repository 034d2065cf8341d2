//! `defineElement()`: registers `<watermark-playground>` (docs/API.md, "The element"). The class
//! itself is JavaScript (`element.js`, a module file: a class must extend `HTMLElement`, and a
//! file needs no `eval` or inline script under a strict Content-Security-Policy); it mounts each
//! instance through the closure given here, which parses the element's attributes with the
//! options parser `mount()` uses and dispatches the simulation's events at the element. One wasm
//! instance serves every element on the page; each has its own simulation.

use super::error::IntoJs;
use super::mount::{mount_parsed, parse_options};
use crate::web::embed_options::Layout;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(module = "/src/api/element.js")]
extern "C" {
    #[wasm_bindgen(js_name = defineWatermarkPlayground)]
    fn define_watermark_playground(mount: &js_sys::Function, methods: js_sys::Array) -> bool;
}

/// Mounts one element's UI into `container` (in its shadow root) with `attrs` (attribute name →
/// value, and `eventTarget`: the element); the `MountedPlayground`, or the error to show.
fn mount_element(container: JsValue, attrs: JsValue) -> JsValue {
    let Some(el) = container.dyn_ref::<web_sys::HtmlElement>().cloned() else {
        return js_sys::TypeError::new("the container is not an HTML element").into();
    };
    match parse_options(&attrs, "").and_then(|p| mount_parsed(el, p, Layout::Embed)) {
        Ok(m) => m.into(),
        Err(e) => e.into_js(""),
    }
}

/// Defines `<watermark-playground>` (once: later calls return `false`). Call it after `init()`.
#[wasm_bindgen(js_name = defineElement)]
pub fn define_element() -> bool {
    let defined = web_sys::window()
        .and_then(|w| js_sys::Reflect::get(&w, &"customElements".into()).ok())
        .and_then(|r| js_sys::Reflect::get(&r, &"get".into()).ok().zip(Some(r)))
        .and_then(|(get, r)| get.dyn_into::<js_sys::Function>().ok()?.call1(&r, &"watermark-playground".into()).ok())
        .is_some_and(|v| !v.is_undefined());
    if defined {
        return false;
    }
    let f = Closure::<dyn Fn(JsValue, JsValue) -> JsValue>::new(mount_element).into_js_value();
    let methods = super::mounted::METHODS.iter().map(|m| JsValue::from_str(m)).collect();
    define_watermark_playground(f.unchecked_ref(), methods)
}
