//! A real job drawn as a simulated one: under a "LIVE: <job name>" banner, the playground's own
//! job graph (`graph`) and splits and channels tables (`tables`), mounted over a copy of the
//! playground ([`Pg::live_view`]) whose snapshot is the real job's (`engine::live::to_snapshot`).
//! No second graph: the views check `Pg::live` where the simulation would say more than the
//! REST API does (producers, late records, channel watermarks) and show `?` there. The chain
//! `explain` names (the holder, its split, the window subtask it holds back) gets the graph's
//! and the tables' "holds the minimum" marks.

use super::graph::JobGraph;
use super::state::Pg;
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
                    <JobGraph />
                </section>
                <SplitsTable />
                <ChannelsTable />
            </Provider>
        </div>
    }
    .into_any()
}
