//! A real job drawn as a simulated one: under a "LIVE: <job name>" banner, the playground's own
//! job graph (`graph`) and splits and channels tables (`tables`), mounted over a copy of the
//! playground ([`Pg::live_view`]) whose snapshot is the real job's (`engine::live::to_snapshot`).
//! No second graph: the views check `Pg::live` where the simulation would say more than the
//! REST API does (producers, late records, channel watermarks) and show `?` there. The chain
//! `explain` names (the holder, its split, the window subtask it holds back) gets the graph's
//! and the tables' "holds the watermark" marks. Back-pressure is drawn as for a simulated job
//! with a capacity limit, from the metrics; a clicked node gets a WHY panel of what its
//! metrics say (`engine::live::node_notes`).

use super::graph::JobGraph;
use super::graph_flow_marks::FlowLegend;
use super::state::{Pg, Selection};
use super::tables::{ChannelsTable, SplitsTable};
use crate::engine::live::to_snapshot::LiveGraph;
use leptos::context::Provider;
use leptos::prelude::*;

/// The live job's graph and tables; `graph` is `Some` while it is mounted (the card shows it
/// only then) and follows every poll.
#[component]
pub fn LiveGraphView(graph: Memo<Option<LiveGraph>>) -> impl IntoView {
    let main = expect_context::<Pg>();
    let Some(first) = graph.get_untracked() else { return ().into_any() };
    let live = RwSignal::new(first);
    Effect::new(move |_| {
        if let Some(g) = graph.get() {
            live.set(g);
        }
    });
    let pg = main.live_view(live);
    let banner = move || live.with(|g| format!("LIVE: {}", g.job_name));
    // The copy is given to the graph and tables only: the rest of the page keeps the playground.
    view! {
        <div class="live-graph" id="live-graph">
            <h3 class="live-banner" id="live-banner">{banner}<span class="muted small">" · the simulated job's graph and tables over the job's metrics; ? = not reported"</span></h3>
            <Provider value=pg>
                <section class="card graph-card live-graph-card" aria-label="Live job graph">
                    <span class="legend small muted"><FlowLegend /></span>
                    <JobGraph />
                </section>
                <LiveWhy />
                <SplitsTable />
                <ChannelsTable />
            </Provider>
        </div>
    }
    .into_any()
}

/// What the metrics say about the node selected in the live graph: the live card's WHY panel.
#[component]
fn LiveWhy() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let note = Memo::new(move |_| {
        let sel = pg.selection.get();
        pg.live.and_then(|l| {
            l.with(|g| match sel {
                Selection::Split(p) => g.notes.splits.get(p as usize).cloned(),
                Selection::Source(s) => g.notes.sources.get(s as usize).cloned(),
                Selection::Operator(o) => g.notes.operators.get(o as usize).cloned(),
                _ => None,
            })
        })
    });
    let body = move || match note.get() {
        Some(n) => view! {
            <h3 class="live-why-title">"WHY · "{n.title}</h3>
            <ul class="live-why-lines">{n.lines.into_iter().map(|l| view! { <li>{l}</li> }).collect_view()}</ul>
        }
        .into_any(),
        None => view! {
            <p class="muted small">"Click a split, a source subtask or a subtask of the keyed column (or Tab to it and press Enter) to see what its metrics say."</p>
        }
        .into_any(),
    };
    view! { <section class="card why live-why" id="live-why" aria-live="polite" aria-label="What the selected node's metrics say">{body}</section> }
}
