//! A `<select>` whose choice is costly (it loads a preset, restarts the job): the keys browse,
//! and the choice is applied once.
//!
//! Chromium changes a closed `<select>`'s value at each arrow key (Home, End, a typed letter
//! too) and fires `change` at each: applying there threw the run away at every ArrowDown. Keys
//! only browse; Enter, or leaving the select, applies what it shows, and Escape puts back what
//! runs. A pick from the open list (mouse, touch, or Enter in a list that Space, F4 or
//! Alt+ArrowDown opened, even after a browse) fires one `change`, and applies at once. Which
//! key does which is `select_keys`'.

use leptos::ev;
use leptos::prelude::*;
use leptos::tachys::html::attribute::Attribute;
use leptos::tachys::html::event::on;
use wasm_bindgen::JsCast;

use super::select_keys::{KeyEffect, SelectKeys};

/// The handlers to spread on the `<select>` (`<select {..browse_then_apply(running, apply)}
/// prop:value=running>`). `running` is the value in use (what Escape puts back); `apply` gets a
/// value the user chose that differs from it. A memo, so that the select is set again only when
/// the running value changes: every live command sets the job's settings, and a select that
/// tracked them was put back under a browse (Enter then applied nothing).
pub fn browse_then_apply(running: Memo<String>, apply: impl Fn(String) + Copy + 'static) -> impl Attribute {
    browse_showing(running, RwSignal::new(None), apply)
}

/// [`browse_then_apply`], also keeping `shown` at the value a browse shows (`None` when the
/// select shows the running one, after Enter, leaving or Escape): the line under the select can
/// then describe what Enter would apply, not only what runs.
pub fn browse_showing(running: Memo<String>, shown: RwSignal<Option<String>>, apply: impl Fn(String) + Copy + 'static) -> impl Attribute {
    let browsing = StoredValue::new(false);
    let keys = StoredValue::new(SelectKeys::new(arrows_open_the_list()));
    // A host that restarts the job (the JS API) mid-browse sets the select to what now runs:
    // a browsed value kept would describe a release the select no longer shows.
    Effect::new(move |ran: Option<()>| {
        running.track();
        if ran.is_some() {
            browsing.set_value(false);
            shown.set(None);
        }
    });
    let commit = move |sel: &web_sys::HtmlSelectElement| {
        browsing.set_value(false);
        shown.set(None);
        let v = sel.value();
        if v != running.get_untracked() {
            apply(v);
            // A refused choice leaves the running value unchanged, and the memo with it: the
            // refused one stayed shown.
            let now = running.get_untracked();
            if sel.value() != now {
                sel.set_value(&now);
            }
        }
    };
    (
        on(ev::keydown, move |e: web_sys::KeyboardEvent| {
            let Some(sel) = target(&e) else { return };
            match e.key().as_str() {
                "Enter" => {
                    e.prevent_default();
                    commit(&sel);
                    // A lesson opened from the preset picker re-rendered the page and the focus
                    // fell to <body>.
                    set_timeout(move || drop(sel.focus()), std::time::Duration::ZERO);
                }
                // Putting back stops there, as a field's undo does (the drawer closed with it);
                // with nothing to put back, Escape goes on to close the drawer.
                "Escape" => {
                    browsing.set_value(false);
                    shown.set(None);
                    let back = running.get_untracked();
                    if sel.value() != back {
                        sel.set_value(&back);
                        e.stop_propagation();
                    }
                }
                k => match keys.try_update_value(|s| s.read(k, e.alt_key(), e.time_stamp())) {
                    // The list opens: the `change` that follows is a pick (it waited for the blur).
                    Some(KeyEffect::Opens) => browsing.set_value(false),
                    Some(KeyEffect::Browses) => browsing.set_value(true),
                    _ => {}
                },
            }
        }),
        on(ev::change, move |e: web_sys::Event| {
            let Some(sel) = target(&e) else { return };
            if browsing.get_value() {
                shown.set(Some(sel.value()).filter(|v| *v != running.get_untracked()));
            } else {
                commit(&sel);
            }
        }),
        // Always, browsing or not: a click on the select after a browse (which ends browsing)
        // left it showing B while A ran. Not when the window lost the focus (Alt-Tab): the
        // select keeps it, and the browse is half done.
        on(ev::blur, move |e: web_sys::FocusEvent| {
            let Some(sel) = target(&e) else { return };
            if super::host::active_element().is_some_and(|a| sel.is_same_node(Some(a.as_ref()))) {
                return;
            }
            commit(&sel);
        }),
        on(ev::pointerdown, move |_| browsing.set_value(false)),
    )
}

fn target(e: &web_sys::Event) -> Option<web_sys::HtmlSelectElement> {
    e.target()?.dyn_into().ok()
}

/// Whether the up and down arrows open a closed select's list, as on macOS, instead of moving
/// its choice.
fn arrows_open_the_list() -> bool {
    let Some(nav) = web_sys::window().map(|w| w.navigator()) else { return false };
    super::select_keys::arrows_open_the_list(&nav.platform().unwrap_or_default(), &nav.user_agent().unwrap_or_default())
}
