//! Errors the user must see: the notice area (engine errors, never swallowed; confirmations)
//! and the panic hook, which logs to the console and puts a banner on the page with plain DOM
//! calls, so it works even when the reactive system is in a broken state.

use super::state::{NoticeKind, Pg};
use leptos::prelude::*;
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

/// A banner at the top of the page; the playground stops, the page does not freeze silently.
pub fn show_panic_banner(message: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    let Some(body) = doc.body() else { return };
    let banner = match doc.get_element_by_id("panic-banner") {
        Some(b) => b,
        None => {
            let Ok(b) = doc.create_element("div") else { return };
            b.set_id("panic-banner");
            let _ = b.set_attribute("role", "alert");
            let _ = body.prepend_with_node_1(&b);
            b
        }
    };
    banner.set_inner_html("");
    let text = doc.create_element("p").ok();
    if let Some(t) = text {
        t.set_text_content(Some(&format!(
            "The playground hit an internal error and stopped: {message}. The details are in the browser console. Reload the page to start again; your scenario can be exported only before this happens."
        )));
        let _ = banner.append_child(&t);
    }
    if let Ok(btn) = doc.create_element("button") {
        btn.set_text_content(Some("Reload"));
        let _ = btn.set_attribute("onclick", "location.reload()");
        let _ = banner.append_child(&btn);
    }
    let _ = banner.dyn_ref::<web_sys::HtmlElement>().map(|b| b.focus());
}

#[component]
pub fn Notices() -> impl IntoView {
    let pg = expect_context::<Pg>();
    view! {
        <div class="notices" role="status" aria-live="polite">
            <For each=move || pg.notices.get() key=|n| n.id let:n>
                {
                    let id = n.id;
                    let err = n.kind == NoticeKind::Error;
                    view! {
                        <div class="notice" class:error=err role=if err { "alert" } else { "status" }>
                            <span>{if err { "⚠ " } else { "✓ " }}{n.text.clone()}</span>
                            <button class="icon-btn small" aria-label="Dismiss" on:click=move |_| pg.dismiss(id)><super::icons::Svg icon=super::icons::Icon::Close /></button>
                        </div>
                    }
                }
            </For>
        </div>
    }
}
