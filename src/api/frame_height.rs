//! How tall a framed embed's content is, for the bridge's `resize` event: a host page that sets
//! its iframe's height from it shows the whole embed, whatever the job (a taller preset after
//! `update`), with no scrollbar inside the frame.
//!
//! The height is the content's own, never the frame's: from the top of the page to the lowest
//! part of the embed (header, WHY line, graph, timeline) plus the embed's bottom padding. The
//! page is exactly as tall as the frame and the stacked (phone) layout scrolls inside it, so a
//! scroll height would be at least the frame's: a frame made taller would read taller, and never
//! shrink back for a shorter job. The side-by-side layout (a frame wider than the phone
//! breakpoint) fills its frame by design: there the height is the layout's own, style.css's
//! `--wmp-embed-height` (`--wmp-height`, 420 px by default), whatever the frame's. Reading the
//! frame's there looped with a host whose CSS sets
//! `box-sizing: border-box` (Bootstrap's and Tailwind's resets do): each height it set was the
//! frame's border box, the next one read 2 borders less, down to the 380 px minimum.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Calls `measured(height)` once the embed is laid out, then each time its box or one of its
/// parts changes size (the caller tells a change from a repeat). Nothing without the embed
/// layout: the full layout's panels are sized from the frame's height, so a frame following it
/// would grow at each round.
pub fn watch(measured: impl Fn(u32) + 'static) {
    let Some(window) = web_sys::window() else { return };
    let Some(Ok(Some(embed))) = window.document().map(|d| d.query_selector("body > .wmp-root > .embed")) else { return };
    let target = embed.clone();
    // One measure per callback, however many of the observed boxes changed.
    let on_resize = Closure::<dyn FnMut(js_sys::Array)>::new(move |_: js_sys::Array| measured(height(&window, &target)));
    let Ok(observer) = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()) else { return };
    // The embed (the frame's width) and its parts (a job's graph, a wrapping header, the WHY
    // line opened): its own box does not follow its content.
    observer.observe(&embed);
    let mut part = embed.first_element_child();
    while let Some(p) = part {
        observer.observe(&p);
        part = p.next_element_sibling();
    }
    // The page lives as long as the frame: the observer is never disconnected.
    on_resize.forget();
    std::mem::forget(observer);
}

/// The height a frame holds the embed at: its content's when stacked, the layout's side by side.
fn height(window: &web_sys::Window, embed: &web_sys::Element) -> u32 {
    // style.css's phone breakpoint: at most that wide, the embed stacks its parts.
    if crate::web::measure::phone() {
        content_height(window, embed)
    } else {
        // As the style sheet sizes the layout, never under the embed's minimum; its default
        // should the sheet not be read.
        let own = css_px(window, embed, "--wmp-embed-height").unwrap_or(f64::from(crate::web::style_sheet::EMBED_HEIGHT_PX));
        own.max(css_px(window, embed, "min-height").unwrap_or(0.0)).ceil() as u32
    }
}

/// A computed length in CSS pixels (a custom property's too, which the embed inherits).
fn css_px(window: &web_sys::Window, el: &web_sys::Element, name: &str) -> Option<f64> {
    let value = window.get_computed_style(el).ok().flatten()?.get_property_value(name).ok()?;
    value.trim().trim_end_matches("px").parse::<f64>().ok()
}

/// The content's height in whole CSS pixels, rounded up (a frame that tall holds it).
fn content_height(window: &web_sys::Window, embed: &web_sys::Element) -> u32 {
    let rect = embed.get_bounding_client_rect();
    // Where its content starts, whatever it has scrolled inside.
    let top = rect.top() - f64::from(embed.scroll_top());
    let mut bottom = top;
    let mut part = embed.first_element_child();
    while let Some(p) = part {
        let r = p.get_bounding_client_rect();
        // A part that is not rendered (display: none) reads as an empty box at the origin.
        if r.width() > 0.0 || r.height() > 0.0 {
            bottom = bottom.max(r.bottom());
        }
        part = p.next_element_sibling();
    }
    let px = |name: &str| css_px(window, embed, name).unwrap_or(0.0);
    let page_top = rect.top() + window.scroll_y().unwrap_or(0.0);
    // Never under the embed's own minimum (380 px): a frame that short scrolled it inside.
    (page_top + bottom - top + px("padding-bottom")).max(page_top + px("min-height")).ceil().max(0.0) as u32
}
