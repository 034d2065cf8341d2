//! Helpers shared by the UI's browser tests (`tests/web.rs`, `tests/web_page.rs`,
//! `tests/web_sql.rs`): a fresh container, letting effects settle, DOM queries, bubbling clicks
//! and typing, mounting the playground over a state the test drives.
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

/// How many items of a kind the timeline canvas drew (its `data-marks` census).
pub fn timeline_marks(root: &web_sys::HtmlElement, kind: &str) -> usize {
    let census = q(root, "canvas.timeline").get_attribute("data-marks").unwrap_or_default();
    let pair = census.split(' ').find_map(|kv| kv.strip_prefix(kind)?.strip_prefix('='));
    pair.unwrap_or_else(|| panic!("no {kind} in {census:?}")).parse().unwrap()
}

/// Whether the timeline canvas has an opaque pixel close to the colour of CSS custom property
/// `var` (a `#rrggbb` value), or of `fallback` where the property is not set.
pub fn canvas_has_colour(root: &web_sys::HtmlElement, var: &str, fallback: &str) -> bool {
    let canvas: web_sys::HtmlCanvasElement = q(root, "canvas.timeline").unchecked_into();
    let style = web_sys::window().unwrap().get_computed_style(&canvas).unwrap().unwrap();
    let set = style.get_property_value(var).unwrap();
    let hex = if set.trim().is_empty() { fallback } else { set.trim() }.trim_start_matches('#');
    let rgb: Vec<i32> = (0..3).map(|i| i32::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap()).collect();
    let ctx: web_sys::CanvasRenderingContext2d = canvas.get_context("2d").unwrap().unwrap().unchecked_into();
    let pixels = ctx.get_image_data(0.0, 0.0, canvas.width() as f64, canvas.height() as f64).unwrap().data();
    pixels.chunks(4).any(|px| px[3] >= 250 && (0..3).all(|i| (px[i] as i32 - rgb[i]).abs() <= 24))
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

/// The playground over `preset`, mounted and run for `secs` simulated seconds, its views settled.
pub async fn mounted_at(preset: &str, secs: i64) -> (Pg, web_sys::HtmlElement, impl Drop) {
    let pg = Pg::new();
    pg.load_preset(preset).unwrap();
    let (c, handle) = mount(pg);
    pg.run_until(at(&pg, secs)).unwrap();
    pg.refresh();
    settle().await;
    (pg, c, handle)
}

pub fn at(pg: &Pg, secs: i64) -> i64 {
    pg.start_time() + secs * 1000
}
