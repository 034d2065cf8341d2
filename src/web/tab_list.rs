//! A tab list is one Tab stop (the WAI-ARIA tabs pattern): only the selected tab is in the Tab
//! order, and Left / Right (Home / End) move to the previous / next (first / last) tab and open
//! it. The WHY panel's three tabs and the share card's five were each a Tab stop: reaching what
//! follows them took up to five presses.
//!
//! A column of row buttons (the window emissions' "explain this window") is one Tab stop the
//! same way, on Up / Down: a table of hundreds of rows would otherwise be hundreds of stops.

use leptos::ev::KeyboardEvent;
use wasm_bindgen::JsCast;

/// A tab's `tabindex`: in the Tab order only when it is the selected one.
pub fn tab_index(selected: bool) -> &'static str {
    if selected {
        "0"
    } else {
        "-1"
    }
}

/// The tab list's `keydown`: the arrow keys, Home and End open another tab (by clicking it, so
/// each tab keeps its own way to open) and focus it.
pub fn on_tab_keys(ev: KeyboardEvent) {
    if let Some(tab) = move_among(&ev, "[role=tab]", ("ArrowLeft", "ArrowRight")) {
        tab.click();
    }
}

/// A column of row buttons' `keydown` (on the element holding them): Up / Down, Home and End
/// focus another row's button, without pressing it.
pub fn on_row_keys(ev: KeyboardEvent) {
    move_among(&ev, "button.row-pick", ("ArrowUp", "ArrowDown"));
}

/// Moves the focus from the focused one of the `selector` elements inside the listener's element
/// to the one before or after it (`keys`, wrapping), the first (Home) or the last (End); the
/// element moved to.
fn move_among(ev: &KeyboardEvent, selector: &str, (back, on): (&str, &str)) -> Option<web_sys::HtmlElement> {
    // With a modifier the key is the browser's (Alt+← is Back).
    if ev.alt_key() || ev.ctrl_key() || ev.meta_key() || ev.shift_key() {
        return None;
    }
    let list = ev.current_target()?.dyn_into::<web_sys::Element>().ok()?;
    let nodes = list.query_selector_all(selector).ok()?;
    let items: Vec<web_sys::HtmlElement> = (0..nodes.length()).filter_map(|i| nodes.item(i)?.dyn_into().ok()).collect();
    let focused = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok())?;
    let at = items.iter().position(|t| *t == focused)?;
    let last = items.len() - 1;
    let to = match ev.key().as_str() {
        k if k == back => (at + last) % items.len(),
        k if k == on => (at + 1) % items.len(),
        "Home" => 0,
        "End" => last,
        _ => return None,
    };
    ev.prevent_default();
    let _ = items[to].focus();
    Some(items[to].clone())
}
