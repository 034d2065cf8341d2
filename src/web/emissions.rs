//! The window emissions log (newest first) and the late-record panel with
//! `numLateRecordsDropped`. Late re-firings are marked ◇, a continuous trigger's early firings ▸,
//! side-output records ○, dropped ✕ — shapes, not colour alone, as in the timeline.

use crate::engine::operator::trigger::FiringKind;
use super::format::{dur, thousands, wm_human, wm_raw};
use super::glyphs::spoken;
use super::measure::{gated, mark_more_beyond, use_visible};
use super::state::{EmissionRow, LateRow, Pg, Selection};
use crate::engine::operator::sink::SinkMode;
use leptos::prelude::*;

#[component]
pub fn EmissionsLog() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let node = NodeRef::<leptos::html::Div>::new();
    mark_more_beyond(node);
    let rows = gated(pg.logs.emissions, use_visible(node), pg.playing);
    let emission_rows = Memo::new(move |_| rows.with(|e| e.len()));
    // The row whose window button is the table's one Tab stop (`tab_list::on_row_keys`).
    let current = RwSignal::new(0usize);
    let agg = move || format!("{:?}", pg.cfg.with(|c| c.aggregate)).to_lowercase();
    view! {
        <section class="card table-card" aria-labelledby="emissions-h">
            <header class="card-head">
                <h2 id="emissions-h">"Window emissions"</h2>
                <span class="muted small" id="emissions-count">
                    {move || crate::engine::time::count(pg.snap_slow.with(|s| s.windows_fired as u64), "result", "results")}" · "
                    {move || {
                        let replayed = pg.snap_slow.with(|s| s.run.results_duplicated);
                        duplicates_text(pg.logs.duplicates.get(), replayed, pg.cfg.with(|c| c.sink))
                    }}
                </span>
            </header>
            // Focusable, so that the arrows scroll it (a table of plain text has no Tab stop); named apart
            // from its card, which is a region too.
            <div class="scroll tall" node_ref=node tabindex="0" role="region" aria-label="window emissions table">
                <table class="data" id="emissions-table">
                    <thead><tr>
                        <th scope="col">"fired at"</th><th scope="col">"sub"</th><th scope="col">"key"</th>
                        <th scope="col">"window"</th><th scope="col" class="num">{agg}</th>
                        <th scope="col">"firing watermark"</th><th scope="col" class="num">"delay"</th><th scope="col">"firing"</th>
                    </tr></thead>
                    <tbody on:keydown=super::tab_list::on_row_keys>
                        // Rows are keyed by position and updated in place: at high speed the
                        // whole list turns over every update, and re-creating rows would be slow.
                        <For each=move || 0..emission_rows.get() key=|i| *i let:i>
                            <EmissionRowView i=i rows=rows current=current stops=emission_rows />
                        </For>
                    </tbody>
                </table>
                <p class="empty muted" class:hidden=move || pg.logs.emissions.with(|e| !e.is_empty())>"No window has fired yet."</p>
            </div>
        </section>
    }
}

/// The sink's duplicates: re-firings (late or early) and results a restore's replay emitted
/// again. The job strip counts the latter as "duplicate results": the header counts them too.
/// Not summed: a replayed re-firing is in both counts.
fn duplicates_text(refirings: u64, replayed: u64, sink: SinkMode) -> String {
    use crate::engine::time::count;
    let r = || count(refirings, "late re-firing", "late re-firings");
    let p = || count(replayed, "result replayed", "results replayed");
    match (sink, refirings, replayed) {
        (SinkMode::Upsert, _, 0) => format!("{} (upsert sink: no duplicates)", r()),
        (SinkMode::Upsert, _, _) => format!("{}, {} (upsert sink: no duplicates)", r(), p()),
        (SinkMode::Append, _, 0) => format!("{} in the append sink", count(refirings, "duplicate", "duplicates")),
        (SinkMode::Append, 0, _) => format!("{} in the append sink (from the replay)", count(replayed, "duplicate", "duplicates")),
        (SinkMode::Append, _, _) => format!("duplicates in the append sink: {}, {} from the replay", count(refirings, "re-firing", "re-firings"), thousands(replayed)),
    }
}

#[component]
pub fn LatePanel() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let node = NodeRef::<leptos::html::Div>::new();
    mark_more_beyond(node);
    let rows = gated(pg.logs.late_rows, use_visible(node), pg.playing);
    let late_rows = Memo::new(move |_| rows.with(|e| e.len()));
    view! {
        <section class="card table-card" aria-labelledby="late-h">
            <header class="card-head">
                <h2 id="late-h">"Late records"</h2>
                <span class="small">
                    <span class="counter" id="late-dropped">"✕ numLateRecordsDropped "<b>{move || thousands(pg.logs.late_dropped.get())}</b></span>
                    " · "
                    <span class="counter" id="late-side">"○ side output "<b>{move || thousands(pg.logs.late_side.get())}</b></span>
                </span>
            </header>
            <div class="scroll tall" node_ref=node tabindex="0" role="region" aria-label="late records table">
                <table class="data" id="late-table">
                    <thead><tr>
                        // How far behind and what became of it before the two times it comes
                        // from: in a half-width card the table scrolls across, and "behind" was
                        // the column cut to "beh".
                        <th scope="col">"arrived"</th><th scope="col" title="partition">"part."</th><th scope="col">"key"</th>
                        <th scope="col" class="num" title="the watermark then minus the record's timestamp">"behind"</th><th scope="col">"outcome"</th>
                        <th scope="col">"timestamp"</th><th scope="col" title="the window subtask's watermark when it arrived">"wm then"</th>
                    </tr></thead>
                    <tbody>
                        <For each=move || 0..late_rows.get() key=|i| *i let:i>
                            <LateRowView i=i rows=rows />
                        </For>
                    </tbody>
                </table>
                <p class="empty muted" class:hidden=move || pg.logs.late_rows.with(|e| !e.is_empty())>
                    "No late record yet. Records behind the watermark (beyond any allowed lateness) show up here."
                </p>
            </div>
        </section>
    }
}

#[component]
fn EmissionRowView(i: usize, rows: RwSignal<Vec<EmissionRow>>, current: RwSignal<usize>, stops: Memo<usize>) -> impl IntoView {
    let pg = expect_context::<Pg>();
    let row = Memo::new(move |_| rows.with(|e| e.get(i).cloned()));
    let now = move || pg.snap_slow.with_untracked(|s| s.now.ms());
    let cell = move |f: fn(&EmissionRow, i64) -> String| move || row.with(|r| r.as_ref().map(|r| f(r, now())).unwrap_or_default());
    let late = Memo::new(move |_| row.with(|r| r.as_ref().is_some_and(|r| r.kind == FiringKind::Late)));
    // The row the WHY panel explains, marked as a selected split's row is.
    let selected = Memo::new(move |_| {
        row.with(|r| {
            r.as_ref().is_some_and(|r| {
                pg.selection.with(|s| matches!(s, Selection::Window { subtask, key, start, end } if *subtask == r.subtask && *key == r.key && *start == r.start && *end == r.end))
            })
        })
    });
    view! {
        <tr class:late=move || late.get() class:selected=move || selected.get() on:click=move |_| {
            if let Some(r) = row.get_untracked() {
                pg.selection.set(Selection::Window { subtask: r.subtask, key: r.key, start: r.start, end: r.end });
            }
        }>
            <td class="mono">{cell(|r, n| wm_human(r.time, n))}</td>
            <td class="num">{cell(|r, _| r.subtask.to_string())}</td>
            <td>{cell(|r, _| r.key.clone())}</td>
            <td class="mono">
                // The row's click explains the window; the button gives that to the keyboard.
                <button class="row-pick" on:focus=move |_| current.set(i)
                    tabindex=move || super::tab_list::tab_index(i == current.get().min(stops.get().saturating_sub(1)))
                    aria-label=cell(|r, n| format!("Explain window [{}, {}) of key {} (subtask {})", wm_human(r.start, n), wm_human(r.end, n), r.key, r.subtask))>
                    {cell(|r, n| format!("[{}, {})", wm_human(r.start, n), wm_human(r.end, n)))}
                </button>
            </td>
            <td class="num">{cell(|r, _| thousands(r.value.max(0) as u64))}</td>
            <td class="mono" title=cell(|r, _| wm_raw(r.watermark))>{cell(|r, n| wm_human(r.watermark, n))}</td>
            <td class="num">{cell(|r, _| delay_text(r.time - r.end))}</td>
            <td>{spoken(cell(|r, _| firing_text(r.kind, r.firing)))}</td>
        </tr>
    }
}

#[component]
fn LateRowView(i: usize, rows: RwSignal<Vec<LateRow>>) -> impl IntoView {
    let pg = expect_context::<Pg>();
    let row = Memo::new(move |_| rows.with(|e| e.get(i).cloned()));
    let now = move || pg.snap_slow.with_untracked(|s| s.now.ms());
    let cell = move |f: fn(&LateRow, i64) -> String| move || row.with(|r| r.as_ref().map(|r| f(r, now())).unwrap_or_default());
    view! {
        <tr>
            <td class="mono">{cell(|r, n| wm_human(r.time, n))}</td>
            <td class="num">{move || row.with(|r| r.as_ref().map(|r| pg.snap_slow.with_untracked(|s| super::graph_layout::partition_label(s, r.partition)))).unwrap_or_default()}</td>
            <td>{cell(|r, _| r.key.clone())}</td>
            <td class="num">{cell(|r, _| if r.watermark == i64::MAX { "∞".to_string() } else { dur(r.watermark - r.ts) })}</td>
            <td>{spoken(cell(|r, _| if r.side_output { "○ side output".to_string() } else { "✕ dropped".to_string() }))}</td>
            <td class="mono" title=cell(|r, _| r.ts.to_string())>{cell(|r, n| wm_human(r.ts, n))}</td>
            <td class="mono" title=cell(|r, _| wm_raw(r.watermark))>{cell(|r, n| wm_human(r.watermark, n))}</td>
        </tr>
    }
}

/// How long after its window's end a result fired; a window that ends in the future (its
/// timestamps ahead of the clock) fired before its end, which a negative delay did not say.
fn delay_text(delay_ms: i64) -> String {
    if delay_ms < 0 {
        format!("{} before its end", dur(delay_ms.saturating_neg()))
    } else {
        dur(delay_ms)
    }
}

/// ▮ on time, ▸ early or ◇ late, with the window's firing number after its first row.
fn firing_text(kind: FiringKind, firing: u32) -> String {
    let (mark, what) = match kind {
        FiringKind::OnTime => ("▮", "on time"),
        FiringKind::Early => ("▸", "early"),
        FiringKind::Late => ("◇", "late"),
    };
    if firing == 0 {
        format!("{mark} {what}")
    } else {
        format!("{mark} {what} #{firing}")
    }
}
