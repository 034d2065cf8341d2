//! The width of an element, kept up to date on window resize, so that SVG views are laid out
//! in real pixels (text stays 11–12 px at every window size, nothing is scaled).

use leptos::ev;
use leptos::html::Div;
use leptos::prelude::*;

pub fn use_width(node: NodeRef<Div>, fallback: f64) -> RwSignal<f64> {
    let width = RwSignal::new(fallback);
    let measure = move || {
        if let Some(el) = node.get_untracked() {
            let w = el.client_width() as f64;
            if w > 0.0 && (w - width.get_untracked()).abs() >= 1.0 {
                width.set(w);
            }
        }
    };
    Effect::new(move |_| {
        if node.get().is_some() {
            measure();
            // Once more after layout settles (fonts, scrollbars).
            set_timeout(measure, std::time::Duration::from_millis(50));
        }
    });
    let handle = window_event_listener(ev::resize, move |_| measure());
    on_cleanup(move || handle.remove());
    width
}
