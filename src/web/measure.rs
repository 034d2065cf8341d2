//! The width of an element, kept up to date as it resizes, so that SVG views are laid out in
//! real pixels (text stays 11–12 px at every window size, nothing is scaled); whether an element
//! is on screen, which edges of a box that scrolls across have more beyond them, bringing one
//! into view, and whether the viewport is a phone's.

use super::hold::hold_until_cleanup;
use leptos::html::{Div, ElementType};
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Calls `f` with the element's `ResizeObserverEntry` once it is laid out and each time its box
/// changes size (the window, fonts, scrollbars, a wrapping header). A `ResizeObserver` calls
/// back after layout and before paint, and its entry carries the sizes: reading them there costs
/// no layout, where reading the element's own `clientWidth` forced one as soon as an earlier
/// callback had changed the page (and reading it while the page was being built forced a whole
/// synchronous layout in the first render).
pub fn on_resize<E>(node: NodeRef<E>, f: impl Fn(&web_sys::ResizeObserverEntry) + 'static)
where
    E: ElementType,
    E::Output: JsCast + Clone + 'static,
{
    let f = std::rc::Rc::new(f);
    Effect::new(move |_| {
        let Some(el) = node.get() else { return };
        let el: web_sys::Element = el.unchecked_into();
        let f = f.clone();
        // One element is observed, so the last entry is its latest size.
        let cb = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
            if let Ok(entry) = entries.at(-1).dyn_into::<web_sys::ResizeObserverEntry>() {
                f(&entry);
            }
        });
        let Ok(obs) = web_sys::ResizeObserver::new(cb.as_ref().unchecked_ref()) else { return };
        obs.observe(&el);
        hold_until_cleanup((obs, cb), |(o, _)| o.disconnect());
    });
}

/// The width of an element without padding (its content box, which is what `clientWidth` reads
/// for the unpadded wrappers this is used on), in whole pixels.
pub fn use_width(node: NodeRef<Div>, fallback: f64) -> RwSignal<f64> {
    let width = RwSignal::new(fallback);
    // `try_`: a callback may come after the view was unmounted (`mount()`'s `unmount()`), when
    // the signal is gone.
    on_resize(node, move |entry| {
        let w = entry.content_rect().width().round();
        if w > 0.0 && width.try_get_untracked().is_some_and(|old| (w - old).abs() >= 1.0) {
            width.try_set(w);
        }
    });
    width
}

/// Whether an element is on screen (or close to it), kept up to date by an
/// `IntersectionObserver`. Panels below the fold skip their updates while invisible.
pub fn use_visible(node: NodeRef<Div>) -> RwSignal<bool> {
    let visible = RwSignal::new(true);
    Effect::new(move |_| {
        let Some(el) = node.get() else { return };
        let cb = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
            for e in entries.iter() {
                if let Ok(entry) = e.dyn_into::<web_sys::IntersectionObserverEntry>() {
                    visible.set(entry.is_intersecting());
                }
            }
        });
        let opts = web_sys::IntersectionObserverInit::new();
        opts.set_root_margin("100px");
        let Ok(obs) = web_sys::IntersectionObserver::new_with_options(cb.as_ref().unchecked_ref(), &opts) else { return };
        obs.observe(&el);
        hold_until_cleanup((obs, cb), |(o, _)| o.disconnect());
    });
    visible
}

/// Marks a box that scrolls across with the edges that have more beyond them (`data-more`:
/// `left`, `right`, both or neither) as it scrolls and as it or its content resizes: the style
/// sheet draws a shade at each, over a table's sticky head row too, which hid a shade drawn in
/// the box's own background.
pub fn mark_more_beyond(node: NodeRef<Div>) {
    Effect::new(move |_| {
        let Some(el) = node.get() else { return };
        let el: web_sys::Element = el.into();
        let mark = {
            let el = el.clone();
            move || {
                let more = more_beyond(&el);
                if el.get_attribute("data-more").as_deref() != Some(more) {
                    let _ = el.set_attribute("data-more", more);
                }
            }
        };
        let on_resize = Closure::<dyn FnMut()>::new(mark.clone());
        let Ok(obs) = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()) else { return };
        obs.observe(&el);
        // The table's width: its columns can change without the box changing.
        if let Some(content) = el.first_element_child() {
            obs.observe(&content);
        }
        let on_scroll = Closure::<dyn FnMut()>::new(mark);
        let opts = web_sys::AddEventListenerOptions::new();
        opts.set_passive(true);
        let _ = el.add_event_listener_with_callback_and_add_event_listener_options("scroll", on_scroll.as_ref().unchecked_ref(), &opts);
        hold_until_cleanup((el, on_scroll, obs, on_resize), |(el, on_scroll, obs, _)| {
            let _ = el.remove_event_listener_with_callback("scroll", on_scroll.as_ref().unchecked_ref());
            obs.disconnect();
        });
    });
}

/// Which edges of a box have more beyond them; a pixel short of the end is the end (a zoomed
/// page scrolls by fractions of one).
fn more_beyond(el: &web_sys::Element) -> &'static str {
    let left = el.scroll_left() > 0;
    let right = el.scroll_left() + el.client_width() < el.scroll_width() - 1;
    match (left, right) {
        (true, true) => "left right",
        (true, false) => "left",
        (false, true) => "right",
        (false, false) => "",
    }
}

/// A copy of `source` that follows it only while `visible` (or while the playground is paused,
/// so that a paused page always shows the current state everywhere).
pub fn gated<T: Clone + Send + Sync + 'static>(source: RwSignal<T>, visible: RwSignal<bool>, playing: RwSignal<bool>) -> RwSignal<T> {
    let copy = RwSignal::new(source.get_untracked());
    Effect::new(move |_| {
        let show = visible.get() || !playing.get();
        source.track();
        if show {
            copy.set(source.get_untracked());
        }
    });
    copy
}

/// Whether the viewport is a phone's as the style sheet's media queries read it (inside an
/// iframe, the frame's own width).
pub fn phone() -> bool {
    web_sys::window().and_then(|w| w.match_media(super::style_sheet::PHONE).ok().flatten()).is_some_and(|m| m.matches())
}

/// `scrollIntoView({behavior: "smooth", block: "nearest", inline: "nearest"})`: nothing moves
/// if it is in view (called through JS, which needs no more web-sys features). At once when
/// the reader asks for reduced motion (as the style sheet stops its transitions).
pub fn scroll_into_view_smoothly(el: &web_sys::Element) {
    scroll_smoothly(el, "nearest");
}

/// [`scroll_into_view_smoothly`] with its top at the top of the view (`block: "start"`, below
/// the sticky header by the element's `scroll-margin-top`): for a box that may be taller than
/// the screen, whose top says what the reader asked for.
pub fn scroll_top_into_view_smoothly(el: &web_sys::Element) {
    scroll_smoothly(el, "start");
}

fn scroll_smoothly(el: &web_sys::Element, block: &str) {
    let reduced = web_sys::window().and_then(|w| w.match_media("(prefers-reduced-motion: reduce)").ok().flatten()).is_some_and(|m| m.matches());
    let opts = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&opts, &"behavior".into(), &(if reduced { "auto" } else { "smooth" }).into());
    let _ = js_sys::Reflect::set(&opts, &"block".into(), &block.into());
    let _ = js_sys::Reflect::set(&opts, &"inline".into(), &"nearest".into());
    if let Ok(f) = js_sys::Reflect::get(el, &"scrollIntoView".into()).and_then(|f| f.dyn_into::<js_sys::Function>()) {
        let _ = f.call1(el, &opts);
    }
}
