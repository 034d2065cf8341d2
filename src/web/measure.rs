//! The width of an element, kept up to date on window resize, so that SVG views are laid out
//! in real pixels (text stays 11–12 px at every window size, nothing is scaled).

use leptos::ev;
use leptos::html::Div;
use leptos::prelude::*;

pub fn use_width(node: NodeRef<Div>, fallback: f64) -> RwSignal<f64> {
    let width = RwSignal::new(fallback);
    // `try_`: the delayed measurement may come after the view was unmounted (`mount()`'s
    // `unmount()`), when the signals are gone.
    let measure = move || {
        if let Some(el) = node.try_get_untracked().flatten() {
            let w = el.client_width() as f64;
            if w > 0.0 && width.try_get_untracked().is_some_and(|old| (w - old).abs() >= 1.0) {
                width.try_set(w);
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

/// Whether an element is on screen (or close to it), kept up to date by an
/// `IntersectionObserver`. Panels below the fold skip their updates while invisible.
pub fn use_visible(node: NodeRef<Div>) -> RwSignal<bool> {
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
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
        if let Ok(obs) = web_sys::IntersectionObserver::new_with_options(cb.as_ref().unchecked_ref(), &opts) {
            obs.observe(&el);
            let obs = StoredValue::new_local(obs);
            on_cleanup(move || {
                obs.try_with_value(|o| o.disconnect());
            });
        }
        cb.forget();
    });
    visible
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
