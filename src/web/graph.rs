//! The live job graph (SVG): partitions → source subtasks → (chained watermark operators) →
//! exchange → keyed subtasks (windows or an interval join) → sink; a job with two inputs gets
//! a band per topic, and its keyed subtasks a valve (union) or a port per input (connect).
//! Every node shows its watermark (human and raw); idle nodes are hatched, a partition's pill
//! names its state (active, idle, silenced, no producer) beside a Silence / Resume button,
//! window subtasks count what they fired and dropped, and the channel and split that hold
//! each window subtask's minimum are drawn thick — the same "holds the watermark" mark as in the
//! tables. Click a node (or reach it with the arrow keys, `graph_keys`, and press Enter or
//! Space) to explain it. The layers share
//! one viewBox, so the graph scales down to its card (on a phone to 80% at most, and the card
//! scrolls across). Positions come from `graph_layout`; the
//! partition, keyed-subtask and chained-operator nodes are drawn by `graph_partition`,
//! `graph_operator` and `graph_chained`.
//!
//! The SVG is written as markup (two layers: edges, which change rarely, and nodes) and
//! replaced at most ~10 times per second while playing; one delegated click handler reads the
//! `data-*` attributes. That keeps a 64-partition, 16×16-channel graph cheap to update.

use super::format::{thousands, wm_human, wm_raw};
use super::measure::{phone, use_width};
use super::reading::{Chain, Reading};
use super::rows::source_memo;
use super::state::{Pg, Selection};
use crate::engine::command::Command;
use crate::engine::explain_text::holder_words;
use crate::engine::failover::JobStatus;
use crate::engine::operator::sink::SinkMode;
use crate::engine::time::NO_WATERMARK;
use leptos::html::Div;
use leptos::prelude::*;
use std::fmt::Write;
use wasm_bindgen::JsCast;

pub use super::graph_layout::{layout, partition_label, Layout};
use super::graph_chained::ChainedNode;
use super::graph_flow_marks::BpBadge;
use super::graph_layout::{curve, K_W, MIN_SCALE, O_W, S_W};
use super::graph_operator::OperatorNode;
use super::graph_partition::PartitionNode;

/// The chain that holds the focused window subtask (window subtask, source subtask,
/// partition), from the diagnosis taken with the graph's own snapshot: the highlight always
/// agrees with the numbers drawn beside it.
pub fn culprit(pg: &Pg) -> Chain {
    match pg.live {
        // A real job: the subtask `explain` names, and the split and window subtask it holds.
        Some(l) => l.with(|g| g.chain),
        None => pg.reading.with(Reading::chain),
    }
}

/// Whether the chain the graph marks pushed the explained window subtask's watermark ahead of
/// processing time (`Reading::pushed_ahead`) rather than holding it back: every view that marks
/// the chain words its role by this. A real job's marks come from its metrics, not `explain`.
pub fn pushed_ahead(pg: &Pg) -> bool {
    pg.live.is_none() && pg.reading.with(Reading::pushed_ahead)
}

/// What the chain the graph marks does to the explained window subtask's watermark, in the WHY
/// chain's words (`holder_words`): "holds" read as the opposite for a watermark pushed ahead.
pub fn chain_role(pg: &Pg) -> &'static str {
    holder_words(pushed_ahead(pg)).1
}

/// Whether anything may be named as holding a minimum: once something was read, or always for
/// a real job (its marks come from `explain`, which names a holder only when one is below).
pub fn started(pg: &Pg) -> bool {
    pg.live.is_some() || pg.reading.with(Reading::started)
}

#[component]
pub fn JobGraph() -> impl IntoView {
    let pg = expect_context::<Pg>();
    super::graph_flow_marks::FlowOn::provide(pg);
    let node = NodeRef::<Div>::new();
    let width = use_width(node, 720.0);
    let lay = Memo::new(move |_| {
        let w = width.get();
        match pg.live {
            Some(l) => l.with(|g| super::graph_layout::layout_named(w, &g.snapshot, &g.split_ids, phone())),
            None => pg.snap.with(|s| layout(w, s, phone())),
        }
    });
    let chain = Memo::new(move |_| culprit(&pg));
    let view_box = move || lay.with(|l| format!("0 0 {:.0} {:.0}", l.width, l.height));
    let read_only = super::host::read_only();
    let keeper = super::graph_keys::FocusKeeper::new(node);
    Effect::new(move |_| {
        pg.snap.track();
        lay.track();
        keeper.after_redraw();
    });
    view! {
        <div class="graph-wrap" node_ref=node on:click=move |ev| on_graph_click(pg, ev.target(), untrack(read_only))
            on:focusin=move |ev| keeper.enter(ev.target())
            on:focusout=move |ev| keeper.leave(ev.related_target())
            on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                // With a modifier the key is the browser's (Alt+← is Back).
                if ev.alt_key() || ev.ctrl_key() || ev.meta_key() || ev.shift_key() {
                    return;
                }
                // Enter or Space on a focused node or button acts as a click; the event stops
                // here, so Space does not also reach the play / pause shortcut.
                let key = ev.key();
                if (key == "Enter" || key == " ") && on_button(ev.target()) {
                    ev.prevent_default();
                    ev.stop_propagation();
                    on_graph_click(pg, ev.target(), untrack(read_only));
                } else if node.get_untracked().is_some_and(|wrap| super::graph_keys::on_key(&wrap, ev.target(), &key)) {
                    // An arrow moved focus to another node: the page does not scroll.
                    ev.prevent_default();
                    ev.stop_propagation();
                }
            }
            data-culprit-partition=move || culprit_attr(&pg) data-cause=move || if pg.live.is_some() { String::new() } else { pg.reading.with(Reading::cause_attr) }>
            // The layers scale together with one viewBox: the graph fits its card at any width
            // (1:1 when there is room), and the card is as tall as the job. On a phone not
            // below `MIN_SCALE` (graph_layout; the style sheet's `--graph-min-w`): its card scrolls across.
            <div class="graph-layers" style:aspect-ratio=move || lay.with(|l| format!("{:.0} / {:.0}", l.width, l.height))
                style:max-width=move || lay.with(|l| format!("{:.0}px", l.width))
                style:--graph-min-w=move || lay.with(|l| format!("{:.0}px", l.width * MIN_SCALE))>
                <GraphEdges lay=lay chain=chain />
                // No task runs while the job is down: what the nodes say is the failed
                // attempt's last state (the strip says so; pills read "active" beside it).
                <svg class="graph" class:down=move || pg.live.is_none() && pg.snap.with(|s| s.run.status != JobStatus::Running)
                    role="group" tabindex="0" aria-label=move || graph_label(&pg) viewBox=view_box>
                    <ColumnHeads lay=lay />
                    <GraphNodes lay=lay chain=chain />
                </svg>
            </div>
        </div>
    }
}

/// The culprit's partition as `data-culprit-partition` ("" when none).
fn culprit_attr(pg: &Pg) -> String {
    match pg.live {
        Some(l) => l.with(|g| g.chain.2.map_or_else(String::new, |p| p.to_string())),
        None => pg.reading.with(Reading::culprit_attr),
    }
}

/// What the graph shows, for screen readers: the job's shape in one sentence.
fn graph_label(pg: &Pg) -> String {
    if let Some(l) = pg.live {
        return l.with(|g| format!("Live job graph of {}: its splits and source subtasks, {} and the sink; click a node or press Enter on it to see what its metrics say (the arrow keys move between nodes)", g.job_name, g.keyed_name.as_deref().unwrap_or("no downstream vertex")));
    }
    pg.snap.with(|s| {
        let j = &s.job;
        let sources = match j.topics.as_slice() {
            [one] => format!("partitions of {one} and their source subtasks"),
            many => format!("two sources ({})", many.join(" and ")),
        };
        let op = if j.keyed_operator == "interval_join" { "interval join subtasks" } else { "window subtasks" };
        let how = match j.two_input_mode {
            Some(crate::engine::job::TwoInputMode::Union) => ", unioned into one input",
            Some(crate::engine::job::TwoInputMode::Connect) => ", connected as two inputs",
            None => "",
        };
        let down = if s.run.status == JobStatus::Running { "" } else { " (no task runs: the failed attempt's last state)" };
        format!("Job graph{down}: {sources}{how}, {op} and the sink; click a node or press Enter on it to explain it (the arrow keys move between nodes)")
    })
}

/// Whether a key went to one of the graph's buttons (a node or a Silence / Resume button).
fn on_button(target: Option<web_sys::EventTarget>) -> bool {
    target.and_then(|t| t.dyn_into::<web_sys::Element>().ok()).is_some_and(|e| e.get_attribute("role").as_deref() == Some("button"))
}

/// The one delegated click (and Enter) handler: a node's `data-*` attribute says what was
/// activated (the silence toggle of a partition first, as it sits inside the partition's node;
/// not in a real job's graph, nor in a read-only one).
fn on_graph_click(pg: Pg, target: Option<web_sys::EventTarget>, read_only: bool) {
    let Some(target) = target.and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
    let attr = |sel: &str, name: &str| target.closest(sel).ok().flatten().and_then(|e| e.get_attribute(name)).and_then(|v| v.parse::<u32>().ok());
    if let Some(p) = attr("[data-silence]", "data-silence").filter(|_| pg.live.is_none() && !read_only) {
        let silent = pg.snap.with_untracked(|s| s.splits.get(p as usize).is_some_and(|x| x.silent));
        let cmd = if silent { Command::Resume { partition: p } } else { Command::Silence { partition: p } };
        pg.apply_or_report(cmd);
    } else if let Some(p) = attr("[data-partition]", "data-partition") {
        pg.selection.set(Selection::Split(p));
    } else if let Some(s) = attr("[data-source]", "data-source") {
        pg.selection.set(Selection::Source(s));
    } else if let Some(s) = attr("[data-chained]", "data-chained") {
        pg.selection.set(Selection::Source(s));
    } else if let Some(o) = attr("[data-operator]", "data-operator") {
        pg.selection.set(Selection::Operator(o));
    }
}

/// The two edge layers under the nodes.
#[component]
fn GraphEdges(lay: Memo<Layout>, chain: Memo<Chain>) -> impl IntoView {
    let pg = expect_context::<Pg>();
    // Before anything is read, no channel is marked as holding the minimum either.
    let mins = Memo::new(move |_| {
        if !started(&pg) {
            return Vec::new();
        }
        pg.snap.with(|s| {
            s.operators
                .iter()
                .flat_map(|o| o.channels.iter().filter(|c| c.is_min).map(move |c| (c.source_subtask, o.subtask, c.input)))
                .collect::<Vec<_>>()
        })
    });
    // Each layer is repainted only when it changes: the plain edges (topology) and the edges
    // that hold a minimum (a few paths); the nodes above update their text in place.
    let edges = Memo::new(move |_| lay.with(edges_svg));
    let marked = Memo::new(move |_| lay.with(|l| marked_edges_svg(l, chain.get(), &mins.get())));
    // Channels coloured by their source subtask's back-pressure level (a capacity limit only):
    // repainted when a level changes, under the edges that hold a minimum.
    let pressure = Memo::new(move |_| lay.with(|l| pg.snap.with(|s| pg.with_flow(|r| super::graph_flow::pressure_edges_svg(l, s, r)))));
    let view_box = move || lay.with(|l| format!("0 0 {:.0} {:.0}", l.width, l.height));
    view! {
        <svg class="graph-edges" aria-hidden="true" viewBox=view_box inner_html=move || edges.get()></svg>
        <svg class="graph-edges pressure" aria-hidden="true" viewBox=view_box inner_html=move || pressure.get()></svg>
        <svg class="graph-edges marked" aria-hidden="true" viewBox=view_box inner_html=move || marked.get()></svg>
    }
}

#[component]
fn ColumnHeads(lay: Memo<Layout>) -> impl IntoView {
    let pg = expect_context::<Pg>();
    let chained_head = move || {
        // Flink's names: DataStream's operator is "Timestamps/Watermarks", SQL's "WatermarkAssigner".
        pg.snap.with(|s| {
            let sql = s.sources.iter().filter_map(|x| x.midstream.as_ref()).any(|m| m.operator.starts_with("SQL"));
            if sql { "SQL WATERMARK OP." } else { "CHAINED OPERATOR" }
        })
    };
    let bands = move || {
        lay.with(|l| {
            l.bands
                .iter()
                .map(|b| {
                    let (x, y) = (l.p_x - 18.0, b.head_y);
                    view! { <text class="band-head" data-band=b.input x=x y=y>{format!("{} · input {}", b.topic, b.input + 1)}</text> }
                })
                .collect_view()
        })
    };
    view! {
        <g class="col-heads">
            <text x=move || lay.with(|l| l.p_x) y="14">{move || if pg.live.is_some() { "SPLITS" } else { "PARTITIONS (splits)" }}</text>
            <text x=move || lay.with(|l| l.s_x) y="14">"SOURCE SUBTASKS"</text>
            {move || lay.with(|l| l.m_x).map(|x| view! { <text x=x y="14" class="chained-head">{chained_head}</text> })}
            <text x=move || lay.with(|l| l.o_x) y="14">{move || operator_head(&pg)}<title>{move || live_keyed_title(&pg)}</title></text>
            <text x=move || lay.with(|l| l.k_x) y="14" class:hidden=move || lay.with(|l| l.sink_below)>"SINK"</text>
        </g>
        <g class="band-heads">{bands}</g>
    }
}

/// A vertex name cut to `n` characters (the whole name is in the title).
pub fn short_name(name: &str, n: usize) -> String {
    if name.chars().count() <= n {
        name.to_string()
    } else {
        format!("{}…", name.chars().take(n - 1).collect::<String>())
    }
}

/// A real job's keyed column in full: the vertex's name and how its input is shipped.
fn live_keyed_title(pg: &Pg) -> String {
    pg.live.map_or_else(String::new, |l| {
        l.with(|g| format!("{} (input shipped {})", g.keyed_name.as_deref().unwrap_or("no downstream vertex"), g.keyed_ship_strategy.as_deref().unwrap_or("unknown")))
    })
}

/// The keyed operator's column head: what it is and how its input arrives (a real job: the
/// vertex's name and ship strategy, as Flink's plan gives them).
fn operator_head(pg: &Pg) -> String {
    if let Some(l) = pg.live {
        return l.with(|g| {
            let ship = g.keyed_ship_strategy.as_deref().map_or(String::new(), |s| format!(" · {s}"));
            format!("{}{ship}", short_name(g.keyed_name.as_deref().unwrap_or("NO DOWNSTREAM VERTEX"), 26))
        });
    }
    let (join, mode) = pg.cfg.with(|c| (c.interval_join, (c.inputs.len() > 1).then_some(c.two_input_mode)));
    let ex = exchange_label(pg);
    match (join, mode) {
        (Some(b), _) => format!("INTERVAL JOIN {}", super::format::join_bounds(&b)),
        (None, Some(crate::engine::job::TwoInputMode::Connect)) => "WINDOWS · connect".to_string(),
        (None, Some(crate::engine::job::TwoInputMode::Union)) => format!("WINDOWS · union → {ex}"),
        (None, None) => format!("WINDOW SUBTASKS · {ex}"),
    }
}

/// One node per partition, source subtask, chained operator and keyed subtask, and the sink; a
/// node is added or removed only when its count changes.
#[component]
fn GraphNodes(lay: Memo<Layout>, chain: Memo<Chain>) -> impl IntoView {
    let pg = expect_context::<Pg>();
    let n_parts = Memo::new(move |_| pg.snap.with(|s| s.splits.len() as u32));
    let n_srcs = Memo::new(move |_| pg.snap.with(|s| s.sources.len() as u32));
    let n_ops = Memo::new(move |_| pg.snap.with(|s| s.operators.len() as u32));
    let chained = Memo::new(move |_| lay.with(|l| l.chained.iter().enumerate().filter(|(_, &c)| c).map(|(s, _)| s as u32).collect::<Vec<_>>()));
    // Large topologies: partition pills show name and state; their watermarks are in the
    // splits table (and the tooltip), so that 64 pills do not re-layout at every update.
    let compact = Memo::new(move |_| n_parts.get() > 24);
    view! {
        <For each=move || 0..n_parts.get() key=|p| *p let:p>
            <PartitionNode p=p lay=lay chain=chain compact=compact />
        </For>
        <For each=move || 0..n_srcs.get() key=|s| *s let:s>
            <SourceNode s=s lay=lay chain=chain />
        </For>
        <For each=move || chained.get() key=|s| *s let:s>
            <ChainedNode s=s lay=lay chain=chain />
        </For>
        <For each=move || 0..n_ops.get() key=|o| *o let:o>
            <OperatorNode o=o lay=lay chain=chain />
        </For>
        <SinkNode lay=lay />
    }
}

/// `1 split`, `2 splits`.
fn split_count(n: usize) -> String {
    super::format::count(n as u64, "split", "splits")
}

#[component]
fn SourceNode(s: u32, lay: Memo<Layout>, chain: Memo<Chain>) -> impl IntoView {
    let pg = expect_context::<Pg>();
    let d = source_memo(pg.snap, s);
    // Its name as every view writes it: `src 3`, or `src rates·0` with two sources.
    let named = super::rows::source_name_memo(pg.snap, s);
    let geo = Memo::new(move |_| lay.with(|l| (l.s_x, l.s_y.get(s as usize).copied().unwrap_or(0.0) - l.s_h / 2.0)));
    let dense = Memo::new(move |_| lay.with(|l| l.s_h < super::graph_layout::S_H));
    let x = move || geo.get().0;
    let y = move || geo.get().1;
    let class = move || {
        let (idle, wm) = d.with(|v| v.as_ref().map_or((false, 0), |v| (v.idle, v.output_watermark.ms())));
        node_class("node src", idle, wm, (chain.with(|c| c.1) == Some(s)).then_some(" holding"), pg.selection.with(|sel| *sel == Selection::Source(s)))
    };
    let line1 = move || {
        d.with(|v| {
            v.as_ref().map(|v| {
                let n = v.partitions.len();
                // A real source that reports no per-split metrics may well have splits.
                let none = if pg.live.is_some() { "splits ?" } else { "no split" };
                let idle = if v.idle { " · IDLE" } else { "" };
                named.with(|(name, several)| match (*several, n) {
                    // With several sources the source's name takes the split count's room (the
                    // count is in the title; the band beside it draws the splits).
                    (true, 0) => format!("src {name} · {none}{idle}"),
                    (true, _) => format!("src {name}{idle}"),
                    (false, _) => format!("src {name} · {}{idle}", if n == 0 { none.to_string() } else { split_count(n) }),
                })
            })
        })
    };
    let line2 = move || d.with(|v| v.as_ref().map(|v| wm_human(v.output_watermark.ms(), v.now.ms())));
    // While alignment holds it back, its raw watermark makes way for the reason it reads nothing.
    let waiting = Memo::new(move |_| d.with(|v| v.as_ref().is_some_and(|v| v.alignment.as_ref().is_some_and(|a| a.waiting))));
    let line3 = move || d.with(|v| v.as_ref().map(|v| if waiting.get() { "waiting for alignment".to_string() } else { wm_raw(v.output_watermark.ms()) }));
    let title = move || {
        d.with(|v| {
            let chained = v.as_ref().and_then(|v| v.midstream.as_ref()).map_or(String::new(), |m| format!("; the {} after it replaces its watermarks and statuses", m.operator));
            let align = v.as_ref().map_or(String::new(), |v| super::graph_flow::alignment_note(v, v.now.ms()));
            let (name, several) = named.get();
            let splits = v.as_ref().filter(|_| several).map_or(String::new(), |v| format!(" ({})", split_count(v.partitions.len())));
            format!("source subtask {name}{splits}: its output watermark is the minimum over its non-idle splits{chained}{align}; click to explain")
        })
    };
    // Screen readers hear the flow state with the name (the badge inside a button is not read).
    let limited = expect_context::<super::graph_flow_marks::FlowOn>().limited;
    let label = move || {
        let bp = limited.get().then(|| d.with(|v| v.as_ref().map(|v| v.back_pressure_level))).flatten();
        let bp = bp.map_or(String::new(), |l| format!(", {}", super::graph_flow::bp_label(l, pg.with_flow(|r| r.back_pressured(s)))));
        let state = d.with(|v| v.as_ref().map(|v| format!("{}, watermark {}", if v.idle { "idle" } else { "active" }, wm_human(v.output_watermark.ms(), v.now.ms()))));
        let holds = if chain.with(|c| c.1) == Some(s) { format!(", {}", chain_role(&pg)) } else { String::new() };
        let waits = if waiting.get() { ", waiting for alignment" } else { "" };
        format!("Source subtask {}: {}{bp}{holds}{waits}; press Enter to explain", named.with(|n| n.0.clone()), state.unwrap_or_default())
    };
    view! {
        <g class=move || class() + if waiting.get() { " waiting" } else { "" } data-source=s tabindex="-1" role="button" aria-label=label>
            <title>{title}</title>
            <rect class="box" x=x y=y width=S_W height=move || lay.with(|l| l.s_h) rx="6" />
            <text class="name" x=move || x() + 8.0 y=move || y() + if dense.get() { 13.0 } else { 14.0 }>{line1}</text>
            <text class="mono wm" x=move || x() + 8.0 y=move || y() + if dense.get() { 26.0 } else { 27.0 }>{line2}</text>
            // Drawn, not the ⏸ glyph (most fonts lack it): two bars before "waiting for alignment".
            <path class="wait-glyph" class:hidden=move || !waiting.get() || dense.get() d=move || format!("M{:.1},{:.1}h2v7h-2zM{:.1},{:.1}h2v7h-2z", x() + 8.0, y() + 32.0, x() + 12.0, y() + 32.0) />
            <text class="mono raw" class:hidden=move || dense.get() x=move || x() + if waiting.get() { 19.0 } else { 8.0 } y=move || y() + 39.0>{line3}</text>
            <BpBadge s=s lay=lay />
        </g>
    }
}

#[component]
fn SinkNode(lay: Memo<Layout>) -> impl IntoView {
    let pg = expect_context::<Pg>();
    let geo = Memo::new(move |_| lay.with(|l| (l.k_x, l.k_y - 26.0)));
    let x = move || geo.get().0;
    let y = move || geo.get().1;
    if let Some(l) = pg.live {
        return live_sink(l, x, y).into_any();
    }
    let join = Memo::new(move |_| pg.cfg.with(|c| c.interval_join.is_some()));
    let mode = move || if pg.cfg.with(|c| c.sink == SinkMode::Upsert) { "upsert" } else { "append" };
    let count = move || thousands(pg.snap.with(|s| if join.get() { s.joins_emitted } else { s.windows_fired as u64 }));
    view! {
        <g class="node sink">
            <rect class="box" x=x y=y width=K_W height="52" rx="6" />
            <text class="name" x=move || x() + 8.0 y=move || y() + 16.0>{move || if join.get() { "sink".to_string() } else { format!("sink ({})", mode()) }}</text>
            <text class="mono wm" x=move || x() + 8.0 y=move || y() + 32.0>{count}</text>
            <text class="raw" x=move || x() + 8.0 y=move || y() + 45.0>{move || if join.get() { "joined pairs" } else { "results" }}</text>
        </g>
    }
    .into_any()
}

/// A real job's sink: the vertices after the keyed column (or "chained", when the sink runs in
/// the keyed vertex), and the records the keyed vertex sent on (`numRecordsOut`, `?` unless
/// every subtask reported it).
fn live_sink(l: RwSignal<crate::engine::live::to_snapshot::LiveGraph>, x: impl Fn() -> f64 + Copy + Send + 'static, y: impl Fn() -> f64 + Copy + Send + 'static) -> impl IntoView {
    let name = move || l.with(|g| g.sink_names.first().map_or_else(|| "sink (chained)".to_string(), |n| short_name(n, 16)));
    let title = move || l.with(|g| if g.sink_names.is_empty() { "the sink is chained into the vertex on its left".to_string() } else { g.sink_names.join(", ") });
    let count = move || l.with(|g| g.keyed_records_out.iter().copied().sum::<Option<i64>>().map_or_else(|| "?".to_string(), |n| thousands(n.max(0) as u64)));
    view! {
        <g class="node sink">
            <title>{title}</title>
            <rect class="box" x=x y=y width=K_W height="52" rx="6" />
            <text class="name" x=move || x() + 8.0 y=move || y() + 16.0>{name}</text>
            <text class="mono wm" x=move || x() + 8.0 y=move || y() + 32.0>{count}</text>
            <text class="raw" x=move || x() + 8.0 y=move || y() + 45.0>"records in"</text>
        </g>
    }
}

/// A node's classes: its kind, hatched when idle, dashed at No Watermark, the chain's mark
/// (`holding`, or `focus` for the explained subtask) and the selection.
pub fn node_class(kind: &str, idle: bool, watermark: i64, mark: Option<&str>, selected: bool) -> String {
    let mut c = String::from(kind);
    if idle {
        c += " idle";
    }
    if watermark == NO_WATERMARK.ms() {
        c += " nowm";
    }
    c += mark.unwrap_or("");
    if selected {
        c += " selected";
    }
    c
}

fn exchange_label(pg: &Pg) -> &'static str {
    use crate::engine::partitioner::Exchange;
    match pg.cfg.with(|c| c.first().exchange) {
        Exchange::Hash => "keyBy",
        Exchange::Rebalance => "rebalance",
        Exchange::Forward => "forward",
    }
}

/// The plain edges: partition → source subtask, source subtask → its chained operator, every
/// channel (into its port), each port into its node, keyed subtask → sink.
pub fn edges_svg(l: &Layout) -> String {
    let mut out = String::with_capacity(32 * 1024);
    for &(p, s) in &l.p_edges {
        let y1 = l.p_y[p as usize];
        let y2 = l.s_y.get(s as usize).copied().unwrap_or(y1);
        let _ = write!(out, r#"<path class="edge" d="{}"/>"#, curve(l.p_x + l.p_w, y1, l.s_x, y2));
    }
    if let Some(m) = l.m_x {
        for (s, _) in l.chained.iter().enumerate().filter(|(_, &c)| c) {
            let y = l.s_y[s];
            let _ = write!(out, r#"<path class="edge chain-link" d="M{:.1},{y:.1} H{m:.1}"/>"#, l.s_x + S_W);
        }
    }
    for &(s, o, input) in &l.s_edges {
        let (Some((x1, y1)), Some((x2, y2))) = (l.channel_start(s), l.channel_end(o, input)) else { continue };
        let _ = write!(out, r#"<path class="edge faint" d="{}"/>"#, curve(x1, y1, x2, y2));
    }
    for &y in &l.o_y {
        let d = if l.sink_below {
            // A bus on the right of the keyed subtasks, down to the sink under them.
            let x = l.o_x + O_W;
            format!("M{x:.1},{y:.1} C{:.1},{y:.1} {:.1},{:.1} {x:.1},{:.1}", x + 14.0, x + 14.0, l.k_y, l.k_y)
        } else {
            curve(l.o_x + O_W, y, l.k_x, l.k_y)
        };
        let _ = write!(out, r#"<path class="edge faint" d="{d}"/>"#);
    }
    out
}

/// The edges that hold a minimum (one per keyed subtask), and the culprit chain thickest:
/// channel (from the chained operator, if any, into its port) ← source subtask ← partition.
pub fn marked_edges_svg(l: &Layout, chain: Chain, mins: &[(u32, u32, usize)]) -> String {
    let (co, cs, cp) = chain;
    let mut out = String::new();
    for &(s, o, input) in mins {
        if co == Some(o) && cs == Some(s) {
            continue;
        }
        let (Some((x1, y1)), Some((x2, y2))) = (l.channel_start(s), l.channel_end(o, input)) else { continue };
        let _ = write!(out, r#"<path class="edge min" d="{}"/>"#, curve(x1, y1, x2, y2));
    }
    if let (Some(o), Some(s)) = (co, cs) {
        let input = l.s_edges.iter().find(|e| e.0 == s && e.1 == o).map_or(0, |e| e.2);
        if let (Some((x1, y1)), Some((x2, y2))) = (l.channel_start(s), l.channel_end(o, input)) {
            let _ = write!(out, r#"<path class="edge culprit" d="{}"/>"#, curve(x1, y1, x2, y2));
        }
        if let (Some(m), Some(true)) = (l.m_x, l.chained.get(s as usize)) {
            let y = l.s_y[s as usize];
            let _ = write!(out, r#"<path class="edge culprit" d="M{:.1},{y:.1} H{m:.1}"/>"#, l.s_x + S_W);
        }
        if let Some(p) = cp {
            if let (Some(&y1), Some(&y2)) = (l.p_y.get(p as usize), l.s_y.get(s as usize)) {
                let _ = write!(out, r#"<path class="edge culprit" d="{}"/>"#, curve(l.p_x + l.p_w, y1, l.s_x, y2));
            }
        }
    }
    out
}
