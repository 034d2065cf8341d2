//! A tab list is one Tab stop (the WAI-ARIA tabs pattern): only the selected tab is in the Tab
//! order, and Left / Right (Home / End) move to the previous / next (first / last) tab and open
//! it. The WHY panel's three tabs and the share card's five were each a Tab stop: reaching what
//! follows them took up to five presses.

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
    // With a modifier the key is the browser's (Alt+← is Back).
    if ev.alt_key() || ev.ctrl_key() || ev.meta_key() || ev.shift_key() {
        return;
    }
    let Some(list) = ev.current_target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
    let Ok(nodes) = list.query_selector_all("[role=tab]") else { return };
    let tabs: Vec<web_sys::HtmlElement> = (0..nodes.length()).filter_map(|i| nodes.item(i)?.dyn_into().ok()).collect();
    let focused = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok());
    let Some(at) = focused.and_then(|f| tabs.iter().position(|t| *t == f)) else { return };
    let last = tabs.len() - 1;
    let to = match ev.key().as_str() {
        "ArrowLeft" => (at + last) % tabs.len(),
        "ArrowRight" => (at + 1) % tabs.len(),
        "Home" => 0,
        "End" => last,
        _ => return,
    };
    ev.prevent_default();
    tabs[to].click();
    let _ = tabs[to].focus();
}
