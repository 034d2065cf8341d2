//! A link that could not be opened (an unknown preset, a damaged share string, scenario JSON
//! that is not one): a modal dialog that says why, in words, and what is on screen instead —
//! not a corner toast over a silently loaded default. A native `<dialog>` opened with
//! `showModal()`, so focus moves in, stays in, and Escape closes it.

use super::state::Pg;
use leptos::html::Dialog;
use leptos::prelude::*;

/// What the address asked for and could not be opened; empty when all was fine.
#[derive(Clone, Copy)]
pub struct LinkProblems(pub RwSignal<Vec<String>>);

impl LinkProblems {
    /// The problems of the first load, shared with the dialog below.
    pub fn provide(problems: Vec<String>) -> Self {
        let lp = Self(RwSignal::new(problems));
        provide_context(lp);
        lp
    }
}

#[component]
pub fn LinkProblemDialog() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let lp = expect_context::<LinkProblems>();
    let dialog = NodeRef::<Dialog>::new();
    Effect::new(move |_| {
        let Some(d) = dialog.get() else { return };
        if lp.0.with(|p| !p.is_empty()) && !d.open() {
            let _ = d.show_modal();
        }
    });
    let instead = move || match pg.preset.get() {
        Some(id) => format!("You are looking at the preset “{id}” instead."),
        None => "You are looking at the scenario that was open before.".to_string(),
    };
    view! {
        <dialog node_ref=dialog class="link-problem" aria-labelledby="link-problem-h" aria-describedby="link-problem-text"
            on:close=move |_| lp.0.set(Vec::new())>
            <h2 id="link-problem-h">"This link could not be opened"</h2>
            <div id="link-problem-text">
                <ul>{move || lp.0.get().into_iter().map(|p| view! { <li>{p}</li> }).collect_view()}</ul>
                <p>{instead}" To open a scenario of your own, use Import under Share · Export · Code."</p>
            </div>
            <form method="dialog" class="btn-row">
                <button class="btn" id="link-problem-ok">"Continue"</button>
            </form>
        </dialog>
    }
}
