//! Text marks (↻, ◀ min) that are seen as a glyph and heard as words: a screen reader read
//! "clockwise open circle arrow" and "black left-pointing triangle min".

use leptos::prelude::*;

/// "↻" after a control that restarts the job from time zero.
#[component]
pub fn Restarts() -> impl IntoView {
    view! { <span class="restarts" aria-hidden="true">" ↻"</span><span class="sr-only">" (restarts the job)"</span> }
}

/// "◀ min" on the row or node that holds the minimum watermark, while `on`.
#[component]
pub fn MinMark(#[prop(into)] on: Signal<bool>) -> impl IntoView {
    view! {
        <span class="min-mark">
            <span aria-hidden="true">{move || if on.get() { " ◀ min" } else { "" }}</span>
            <span class="sr-only">{move || if on.get() { " (holds the minimum)" } else { "" }}</span>
        </span>
    }
}
