//! Text marks (↻, ◀ min, a status's ● or ◌) that are seen as a glyph and heard as words: a
//! screen reader read "clockwise open circle arrow", "black left-pointing triangle min" and
//! "black circle active".

use crate::engine::explain_text::holder_words;
use leptos::prelude::*;

/// "↻" after a control that restarts the job from time zero. `said_beside`: the note beside
/// the group's Apply button says it (and describes the button), so here it is only seen: a
/// reader heard it three times in one group.
#[component]
pub fn Restarts(#[prop(optional)] said_beside: bool) -> impl IntoView {
    view! { <span class="restarts" aria-hidden="true">" ↻"</span><span class="sr-only">{(!said_beside).then_some(" (restarts the job)")}</span> }
}

/// "◀ min" on the row or node that holds the watermark, while `on`; "◀ ahead" while the
/// watermark is `ahead` of processing time (`Reading::pushed_ahead`): what sits at it pushed it
/// there, and "holds" read as the opposite. Heard and hovered in the WHY chain's and the
/// findings' words (`holder_words`). The title sits on the glyph, which screen readers skip: on
/// the mark, those that speak titles said the words twice (its title, then its text for them).
#[component]
pub fn MinMark(#[prop(into)] on: Signal<bool>, #[prop(optional, into)] ahead: Signal<bool>) -> impl IntoView {
    let said = move || on.get().then(|| holder_words(ahead.get()).1);
    view! {
        <span class="min-mark">
            <span aria-hidden="true" title=said>{move || if !on.get() { "" } else if ahead.get() { " ◀ ahead" } else { " ◀ min" }}</span>
            <span class="sr-only">{move || said().map(|s| format!(" ({s})"))}</span>
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
