//! What makes a dialog modal for the keyboard and for assistive technology: on open, the rest
//! of the page becomes `inert` and focus moves into the dialog; Tab and Shift+Tab cycle inside
//! it; on close, the page is live again and focus goes back to what had it before (the button
//! or shortcut that opened it). A plain element with `role="dialog"` rather than a native
//! `<dialog>`, so that Leptos keeps owning whether it is shown.

use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// What can take focus inside the dialog, in document order.
const FOCUSABLE: &str = "button:not([disabled]), a[href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex^='-'])";

/// Keeps the dialog under `dialog` (the overlay that holds it) modal while `open` is true.
pub fn keep_modal(open: Signal<bool>, overlay: NodeRef<html::Div>) {
    // An element, not an HTML one: the opener may be a job graph node (SVG).
    let opener = StoredValue::new_local(None::<web_sys::Element>);
    let guard = StoredValue::new_local(None::<WindowListenerHandle>);
    Effect::new(move |was_open: Option<bool>| {
        let now_open = open.get();
        let Some(overlay) = overlay.get() else { return now_open };
        let overlay: web_sys::Element = overlay.into();
        if now_open && was_open != Some(true) {
            opener.set_value(super::host::active_element());
            set_inert_siblings(&overlay, true);
            focus_first(&overlay);
            let inside = overlay.clone();
            guard.set_value(Some(window_event_listener(leptos::ev::focusin, move |_| keep_focus_inside(&inside))));
        } else if !now_open && was_open == Some(true) {
            drop_guard(guard);
            set_inert_siblings(&overlay, false);
            if let Some(el) = opener.get_value().filter(|el| el.is_connected()) {
                focus_again(&el);
            }
        }
        now_open
    });
    // Unmounted while open (a host's `unmount()`): the window listener would outlive the page.
    on_cleanup(move || drop_guard(guard));
}

fn drop_guard(guard: StoredValue<Option<WindowListenerHandle>, LocalStorage>) {
    if let Some(h) = guard.try_update_value(Option::take).flatten() {
        h.remove();
    }
}

fn focus_first(overlay: &web_sys::Element) {
    if let Some(first) = focusables(overlay).into_iter().next() {
        let _ = first.focus();
    }
}

/// The notices stay out of the inert set (below), so Tab could reach a toast's button under
/// the overlay: from the page's own Tab order, once a click on the dialog's text had left the
/// focus on `<body>` and `trap_tab` never saw the key. Focus that lands outside goes back in,
/// in a microtask: moving it fires `focusin` at once, into this same handler.
///
/// The element focused, not the event's target: in `<watermark-playground>` a window listener
/// sees the shadow host as the target of every focus move, inside the dialog too.
fn keep_focus_inside(overlay: &web_sys::Element) {
    let focused = super::host::active_element();
    if focused.is_some_and(|f| !overlay.contains(Some(f.as_ref()))) {
        let overlay = overlay.clone();
        leptos::tachys::renderer::dom::queue_microtask(move || focus_first(&overlay));
    }
}

/// Tab and Shift+Tab wrap around inside `container`; returns whether the key was handled.
pub fn trap_tab(e: &web_sys::KeyboardEvent, container: &web_sys::Element) -> bool {
    if e.key() != "Tab" {
        return false;
    }
    let items = focusables(container);
    let (Some(first), Some(last)) = (items.first(), items.last()) else { return false };
    let active = active_element();
    let inside = active.as_ref().is_some_and(|a| items.iter().any(|i| i == a));
    let wrap_to = match (e.shift_key(), active) {
        (_, _) if !inside => Some(first),
        (true, Some(a)) if &a == first => Some(last),
        (false, Some(a)) if &a == last => Some(first),
        _ => None,
    };
    let Some(target) = wrap_to else { return false };
    e.prevent_default();
    let _ = target.focus();
    true
}

/// Gives focus back to an HTML or SVG element.
fn focus_again(el: &web_sys::Element) {
    if let Some(h) = el.dyn_ref::<web_sys::HtmlElement>() {
        let _ = h.focus();
    } else if let Some(s) = el.dyn_ref::<web_sys::SvgElement>() {
        let _ = s.focus();
    }
}

fn active_element() -> Option<web_sys::HtmlElement> {
    super::host::active_element()?.dyn_into().ok()
}

/// The focusable descendants of `root`, in document order (a walk, not `querySelectorAll`,
/// which would need another web-sys feature for its `NodeList`).
fn focusables(root: &web_sys::Element) -> Vec<web_sys::HtmlElement> {
    let mut out = Vec::new();
    let mut next = root.first_element_child();
    while let Some(el) = next {
        if el.matches(FOCUSABLE).unwrap_or(false) {
            if let Ok(h) = el.clone().dyn_into::<web_sys::HtmlElement>() {
                out.push(h);
            }
        }
        out.extend(focusables(&el));
        next = el.next_element_sibling();
    }
    out
}

/// Makes everything beside the overlay inert (or live again), so that neither Tab nor a
/// screen reader's cursor reaches the page behind the dialog. Not what is marked
/// `data-live-under-modal` (the notices): an error raised behind the dialog sat in an inert
/// `role=alert` and was never announced, and toasts expired unseen.
fn set_inert_siblings(overlay: &web_sys::Element, inert: bool) {
    let mut next = overlay.parent_element().and_then(|p| p.first_element_child());
    while let Some(el) = next {
        if &el != overlay && !el.has_attribute("data-live-under-modal") {
            let _ = if inert { el.set_attribute("inert", "") } else { el.remove_attribute("inert") };
        }
        next = el.next_element_sibling();
    }
}
