//! The emissions log of an interval join job (newest first): each joined pair with its key, the
//! left and right elements' timestamps, the output timestamp (`max(left, right)`, which Flink
//! gives the pair) and when it was emitted. It takes the window emissions log's place: a join
//! job has no windows.

use super::format::{dur, thousands, wm_human};
use super::measure::{gated, mark_more_beyond, use_visible};
use super::state::{JoinRow, Pg};
use leptos::prelude::*;

#[component]
pub fn JoinsLog() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let node = NodeRef::<leptos::html::Div>::new();
    mark_more_beyond(node);
    let rows = gated(pg.logs.joins, use_visible(node), pg.playing);
    let n = Memo::new(move |_| rows.with(|e| e.len()));
    let bounds = move || pg.cfg.with(|c| c.interval_join.map(|b| super::format::join_bounds(&b)).unwrap_or_default());
    view! {
        <section class="card table-card" aria-labelledby="joins-h">
            <header class="card-head">
                <h2 id="joins-h">"Joined pairs"</h2>
                <span class="muted small" id="joins-count">
                    {move || thousands(pg.snap_slow.with(|s| s.joins_emitted))}" pairs · right.ts − left.ts in "{bounds}
                </span>
            </header>
            <div class="scroll tall" node_ref=node>
                <table class="data" id="joins-table">
                    <thead><tr>
                        <th scope="col">"emitted at"</th><th scope="col">"sub"</th><th scope="col">"key"</th>
                        <th scope="col">"left ts"</th><th scope="col">"right ts"</th><th scope="col" class="num" title="right.ts − left.ts">"Δ"</th>
                        <th scope="col" title="The pair's timestamp: max(left ts, right ts)">"output ts"</th>
                        <th scope="col" class="num" title="emitted at − output ts">"delay"</th>
                    </tr></thead>
                    <tbody>
                        // Keyed by position and updated in place, like the window emissions.
                        <For each=move || 0..n.get() key=|i| *i let:i>
                            <JoinRowView i=i rows=rows />
                        </For>
                    </tbody>
                </table>
                <p class="empty muted" class:hidden=move || pg.logs.joins.with(|e| !e.is_empty())>
                    "No pair joined yet: an element meets the other side's elements of the same key within the bounds."
                </p>
            </div>
        </section>
    }
}

#[component]
fn JoinRowView(i: usize, rows: RwSignal<Vec<JoinRow>>) -> impl IntoView {
    let pg = expect_context::<Pg>();
    let row = Memo::new(move |_| rows.with(|e| e.get(i).cloned()));
    let now = move || pg.snap_slow.with_untracked(|s| s.now.ms());
    let cell = move |f: fn(&JoinRow, i64) -> String| move || row.with(|r| r.as_ref().map(|r| f(r, now())).unwrap_or_default());
    view! {
        <tr>
            <td class="mono">{cell(|r, n| wm_human(r.time, n))}</td>
            <td class="num">{cell(|r, _| r.subtask.to_string())}</td>
            <td>{cell(|r, _| r.key.clone())}</td>
            <td class="mono" title=cell(|r, _| r.left_ts.to_string())>{cell(|r, n| wm_human(r.left_ts, n))}</td>
            <td class="mono" title=cell(|r, _| r.right_ts.to_string())>{cell(|r, n| wm_human(r.right_ts, n))}</td>
            <td class="num">{cell(|r, _| signed(r.right_ts.saturating_sub(r.left_ts)))}</td>
            <td class="mono" title=cell(|r, _| r.ts.to_string())>{cell(|r, n| wm_human(r.ts, n))}</td>
            <td class="num">{cell(|r, _| dur(r.time.saturating_sub(r.ts)))}</td>
        </tr>
    }
}

fn signed(ms: i64) -> String {
    if ms < 0 {
        format!("−{}", dur(ms.saturating_neg()))
    } else {
        format!("+{}", dur(ms))
    }
}
