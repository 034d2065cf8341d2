//! Errors the user must see: the notice area (engine errors, never swallowed; confirmations)
//! and the panic hook, which logs to the console and puts a banner on the page with plain DOM
//! calls, so it works even when the reactive system is in a broken state.

use super::state::{NoticeKind, Pg};
use leptos::prelude::*;
use std::cell::RefCell;
use wasm_bindgen::JsCast;

/// Installs the panic hook: console first (with the stack), then the banner.
pub fn install_panic_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            console_error_panic_hook::hook(info);
            show_panic_banner(&info.to_string());
        }));
    });
}

thread_local! {
    /// The roots of the playgrounds mounted into host pages: a panic stops the one wasm
    /// instance they share, so each shows the banner in itself, where its styles apply.
    static HOSTED_ROOTS: RefCell<Vec<web_sys::Element>> = const { RefCell::new(Vec::new()) };
}

/// `root` shows the panic banner (until [`forget_hosted_root`]).
pub fn register_hosted_root(root: web_sys::Element) {
    HOSTED_ROOTS.with(|r| r.borrow_mut().push(root));
}

pub fn forget_hosted_root(root: &web_sys::Element) {
    HOSTED_ROOTS.with(|r| r.borrow_mut().retain(|e| e != root));
}

/// A banner at the top of the page, or of each playground in a host page; the playground
/// stops, the page does not freeze silently.
pub fn show_panic_banner(message: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    let roots = HOSTED_ROOTS.with(|r| r.try_borrow().map(|r| r.clone()).unwrap_or_default());
    let roots: Vec<web_sys::Element> = roots.into_iter().filter(|r| r.is_connected()).collect();
    if roots.is_empty() {
        let Some(body) = doc.body() else { return };
        show_in(&doc, &body, message, "panic-banner");
    } else {
        roots.iter().for_each(|root| show_in(&doc, root, message, "panic-banner in-root"));
    }
}

fn show_in(doc: &web_sys::Document, parent: &web_sys::Element, message: &str, class: &str) {
    let banner = match parent.query_selector(":scope > .panic-banner").ok().flatten() {
        Some(b) => b,
        None => {
            let Ok(b) = doc.create_element("div") else { return };
            b.set_class_name(class);
            let _ = b.set_attribute("role", "alert");
            let _ = b.set_attribute("tabindex", "-1");
            let _ = parent.prepend_with_node_1(&b);
            b
        }
    };
    banner.set_inner_html("");
    if let Ok(t) = doc.create_element("p") {
        t.set_text_content(Some(&format!(
            "The playground hit an internal error and stopped: {message}. The details are in the browser console. Reload the page to start again; your scenario can be exported only before this happens."
        )));
        let _ = banner.append_child(&t);
    }
    if let Ok(btn) = doc.create_element("button") {
        btn.set_text_content(Some("Reload"));
        // A listener, not an `onclick` attribute: a Content-Security-Policy without
        // 'unsafe-inline' (docs sites set one) blocks inline handlers.
        let reload = wasm_bindgen::closure::Closure::once_into_js(|| {
            if let Some(w) = web_sys::window() {
                let _ = w.location().reload();
            }
        });
        let _ = btn.add_event_listener_with_callback("click", reload.unchecked_ref());
        let _ = banner.append_child(&btn);
    }
    let _ = banner.dyn_ref::<web_sys::HtmlElement>().map(|b| b.focus());
}

#[component]
pub fn Notices() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let area = NodeRef::<leptos::html::Div>::new();
    // Where the focus was before it entered the notices: it goes back there when the last one
    // focused is dismissed (it fell to the page, and a keyboard user started over at the top).
    let came_from = StoredValue::new_local(None::<web_sys::HtmlElement>);
    let on_focusin = move |ev: web_sys::FocusEvent| {
        let from = ev.related_target().and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok());
        let outside = from.as_ref().is_some_and(|f| area.get_untracked().is_some_and(|a| !a.contains(Some(f))));
        if outside {
            came_from.set_value(from);
        }
    };
    // `by_keys`: a click from Enter or Space (a mouse's has a click count); a mouse user's
    // focus stays where the page puts it.
    let dismiss = move |id: u64, by_keys: bool| {
        let focused = by_keys && pg.held_notices.with_value(|h| h[1].contains(&id));
        pg.dismiss(id);
        if focused {
            request_animation_frame(move || refocus(area, came_from));
        }
    };
    view! {
        <div class="notices" role="status" aria-live="polite" data-live-under-modal node_ref=area on:focusin=on_focusin>
            <For each=move || pg.notices.get() key=|n| n.id let:n>
                {
                    let id = n.id;
                    let err = n.kind == NoticeKind::Error;
                    view! {
                        <div class="notice" class:error=err role=if err { "alert" } else { "status" }
                            on:mouseenter=move |_| pg.hold_notice(id, false, true) on:mouseleave=move |_| pg.hold_notice(id, false, false)
                            on:focusin=move |_| pg.hold_notice(id, true, true) on:focusout=move |_| pg.hold_notice(id, true, false)>
                            <span>{if err { "⚠ " } else { "✓ " }}{n.text.clone()}</span>
                            <button class="icon-btn small" aria-label="Dismiss" on:click=move |ev: web_sys::MouseEvent| dismiss(id, ev.detail() == 0)><super::icons::Svg icon=super::icons::Icon::Close /></button>
                        </div>
                    }
                }
            </For>
        </div>
    }
}

/// After a focused notice is dismissed: the newest shown notice's Dismiss (a phone hides the
/// older ones: focus on a hidden button was lost), or where the focus came from.
fn refocus(area: NodeRef<leptos::html::Div>, came_from: StoredValue<Option<web_sys::HtmlElement>, LocalStorage>) {
    let buttons = area.get_untracked().and_then(|a| a.query_selector_all(".notice button").ok());
    let shown = |i: u32| buttons.as_ref()?.item(i)?.dyn_into::<web_sys::HtmlElement>().ok().filter(|b| b.offset_parent().is_some());
    let next = buttons.as_ref().and_then(|b| (0..b.length()).rev().find_map(shown));
    let back = came_from.get_value().filter(|e| e.is_connected());
    if let Some(target) = next.or(back) {
        let _ = target.focus();
    }
}
