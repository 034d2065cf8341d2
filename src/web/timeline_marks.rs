//! The ✕ (a failure) and ↻ (a restart) glyphs over the timeline's canvas: elements, not
//! pixels, so that each has its reason or its restored checkpoint as a tooltip, can be reached
//! with Tab and read by a screen reader. Placed from the same display list the canvas paints
//! (`timeline_job` adds them), so they sit on the dashed lines it draws.

use super::timeline_job::glyph_title;
use super::timeline_plot::{Item, Plot};
use leptos::prelude::*;

/// One glyph: x in px, a restart (else a failure), its tooltip.
type Glyph = (f64, bool, String);

#[component]
pub fn TimelineJobMarks(plot: Memo<Plot>) -> impl IntoView {
    let glyphs = Memo::new(move |_| {
        plot.with(|p| {
            p.items
                .iter()
                .filter_map(|it| match it {
                    Item::JobEvent { x, restart, label, n } => Some(((x * 2.0).round() / 2.0, *restart, glyph_title(label, *n))),
                    _ => None,
                })
                .collect::<Vec<Glyph>>()
        })
    });
    view! {
        <div class="tl-jobmarks">
            {move || glyphs.get().into_iter().map(|(x, restart, title)| view! {
                <span class="tl-jm" class:restart=restart class:fail=!restart tabindex="0" role="img"
                    data-kind=if restart { "restart" } else { "failure" }
                    style:left=format!("{x}px") title=title.clone() aria-label=title
                    on:pointerdown=|ev| ev.stop_propagation() on:click=|ev| ev.stop_propagation()>
                    {if restart { "↻" } else { "✕" }}
                </span>
            }).collect_view()}
        </div>
    }
}
