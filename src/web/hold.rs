//! A browser object that lives as long as the view that made it: an observer, or the closure
//! behind an event listener. It is released (disconnected, removed) and dropped with the view's
//! owner, never forgotten, or every removed view (an embed taken out, `unmount()`) would stay in
//! memory with it.

use leptos::prelude::*;

/// Keeps `value` until the current owner is cleaned up, then calls `release` on it and drops it.
pub fn hold_until_cleanup<T: 'static>(value: T, release: fn(&T)) {
    let held = StoredValue::new_local(value);
    // `try_`: the owner's storage may already be gone when a parent is disposed first.
    on_cleanup(move || {
        held.try_with_value(release);
    });
}
