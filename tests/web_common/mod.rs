//! Helpers shared by the playground's browser tests (`tests/web.rs`, `tests/web_sql.rs`): a
//! container, letting effects run, querying, clicking and typing as a user would, mounting.
#![allow(dead_code)]

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wmp::web::{Pg, Playground};

/// A fresh container appended to <body>.
pub fn fresh_container() -> web_sys::HtmlElement {
    let document = web_sys::window().unwrap().document().unwrap();
    let div = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&div).unwrap();
    div.unchecked_into()
}

/// Lets the reactive system run its pending effects (a few macrotask turns).
pub async fn settle() {
    for _ in 0..3 {
        leptos::task::tick().await;
        let p = js_sys::Promise::new(&mut |resolve, _| {
            web_sys::window().unwrap().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0).unwrap();
        });
        wasm_bindgen_futures::JsFuture::from(p).await.unwrap();
    }
}

pub fn q(root: &web_sys::HtmlElement, sel: &str) -> web_sys::Element {
    root.query_selector(sel).unwrap().unwrap_or_else(|| panic!("no element matches {sel}"))
}

pub fn text(root: &web_sys::HtmlElement, sel: &str) -> String {
    q(root, sel).text_content().unwrap_or_default()
}

pub fn count(root: &web_sys::HtmlElement, sel: &str) -> u32 {
    root.query_selector_all(sel).unwrap().length()
}

/// A bubbling click (works for SVG nodes too, which have no `click()`).
pub fn click(root: &web_sys::HtmlElement, sel: &str) {
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    q(root, sel).dispatch_event(&web_sys::Event::new_with_event_init_dict("click", &init).unwrap()).unwrap();
}

/// Types into an input (bubbling `input` event, as a user would) and optionally presses Enter.
pub fn type_into(root: &web_sys::HtmlElement, sel: &str, value: &str, enter: bool) {
    let input: web_sys::HtmlInputElement = q(root, sel).unchecked_into();
    input.set_value(value);
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    input.dispatch_event(&web_sys::Event::new_with_event_init_dict("input", &init).unwrap()).unwrap();
    if enter {
        let k = web_sys::KeyboardEventInit::new();
        k.set_key("Enter");
        k.set_bubbles(true);
        input.dispatch_event(&web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &k).unwrap()).unwrap();
    }
}

/// Mounts the playground over `pg`; returns the container and the mount handle.
pub fn mount(pg: Pg) -> (web_sys::HtmlElement, impl Drop) {
    let container = fresh_container();
    let handle = leptos::mount::mount_to(container.clone(), move || view! { <Playground pg=pg no_loop=true /> });
    (container, handle)
}

pub fn at(pg: &Pg, secs: i64) -> i64 {
    pg.start_time() + secs * 1000
}
