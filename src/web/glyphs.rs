//! Text marks (↻, ◀ min, a status's ● or ◌) that are seen as a glyph and heard as words: a
//! screen reader read "clockwise open circle arrow", "black left-pointing triangle min" and
//! "black circle active".

use leptos::prelude::*;

/// "↻" after a control that restarts the job from time zero. `said_beside`: the note beside
/// the group's Apply button says it (and describes the button), so here it is only seen: a
/// reader heard it three times in one group.
#[component]
pub fn Restarts(#[prop(optional)] said_beside: bool) -> impl IntoView {
    view! { <span class="restarts" aria-hidden="true">" ↻"</span><span class="sr-only">{(!said_beside).then_some(" (restarts the job)")}</span> }
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

/// A cell's text, seen whole and heard without its marks (`spoken_text`).
pub fn spoken(text: impl Fn() -> String + Send + Sync + 'static) -> impl IntoView {
    let parts = Memo::new(move |_| super::spoken_text::split_mark(text()));
    view! {
        <span aria-hidden="true">{move || parts.with(|p| p.0.clone())}</span>
        {move || parts.with(|p| p.1.clone())}
        <span class="sr-only">{move || parts.with(|p| p.2)}</span>
    }
}
