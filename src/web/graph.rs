//! The live job graph (SVG): partitions → source subtasks → exchange → window subtasks → sink.
//! Every node shows its watermark (human and raw); idle nodes are hatched, silenced partitions
//! carry ❚❚, and the channel and split that hold each window subtask's minimum are drawn thick
//! — the same "holds the minimum" mark as in the tables. Click a node to explain it.
//!
//! The SVG is written as markup (two layers: edges, which change rarely, and nodes) and
//! replaced at most ~10 times per second while playing; one delegated click handler reads the
//! `data-*` attributes. That keeps a 64-partition, 16×16-channel graph cheap to update.

use super::format::{dur, thousands, wm_human, wm_raw};
use super::measure::use_width;
use super::reading::{Chain, Reading};
use super::rows::{op_memo, source_memo, split_memo};
use super::state::{Pg, Selection};
use crate::engine::command::Command;
use crate::engine::operator::sink::SinkMode;
use crate::engine::time::NO_WATERMARK;
use leptos::html::Div;
use leptos::prelude::*;
use std::fmt::Write;
use wasm_bindgen::JsCast;

const P_W: f64 = 150.0;
const S_W: f64 = 156.0;
const O_W: f64 = 168.0;
const K_W: f64 = 96.0;
const S_H: f64 = 44.0;
const O_H: f64 = 56.0;
const TOP: f64 = 26.0;

/// Where everything goes; recomputed only when the topology or the width changes.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    pub width: f64,
    pub height: f64,
    pub p_x: f64,
    pub s_x: f64,
    pub o_x: f64,
    pub k_x: f64,
    pub p_h: f64,
    /// Row centre of each partition, source subtask and window subtask.
    pub p_y: Vec<f64>,
    pub s_y: Vec<f64>,
    pub o_y: Vec<f64>,
    pub k_y: f64,
    /// (partition, owning source subtask) for every assigned, live split.
    pub p_edges: Vec<(u32, u32)>,
    /// (source subtask, window subtask) for every channel.
    pub s_edges: Vec<(u32, u32)>,
}

fn spread(n: usize, pitch: f64, height: f64) -> Vec<f64> {
    let used = n as f64 * pitch;
    let top = TOP + ((height - TOP - used) / 2.0).max(0.0);
    (0..n).map(|i| top + pitch * (i as f64 + 0.5)).collect()
}

pub fn layout(width: f64, snap: &crate::engine::snapshot::Snapshot) -> Layout {
    let width = width.max(560.0);
    let n = snap.splits.len();
    let p_h = if n <= 18 { 24.0 } else if n <= 40 { 18.0 } else { 15.0 };
    let s_pitch = S_H + 10.0;
    let o_pitch = O_H + 10.0;
    let content = (n as f64 * p_h).max(snap.sources.len() as f64 * s_pitch).max(snap.operators.len() as f64 * o_pitch).max(O_H + 20.0);
    let height = TOP + content + 8.0;
    let gap = ((width - 8.0 - P_W - 18.0 - S_W - O_W - K_W) / 3.0).max(24.0);
    let p_x = 8.0 + 18.0;
    let s_x = p_x + P_W + gap;
    let o_x = s_x + S_W + gap;
    let k_x = o_x + O_W + gap;
    let p_edges = snap.splits.iter().filter(|s| !s.released).filter_map(|s| s.subtask.map(|t| (s.partition, t))).collect();
    let s_edges = snap.operators.iter().flat_map(|o| o.channels.iter().map(move |c| (c.source_subtask, o.subtask))).collect();
    Layout {
        width,
        height,
        p_x,
        s_x,
        o_x,
        k_x,
        p_h,
        p_y: spread(n, p_h, height),
        s_y: spread(snap.sources.len(), s_pitch, height),
        o_y: spread(snap.operators.len(), o_pitch, height),
        k_y: TOP + content / 2.0,
        p_edges,
        s_edges,
    }
}

/// The chain that holds the focused window subtask (window subtask, source subtask,
/// partition), from the diagnosis taken with the graph's own snapshot: the highlight always
/// agrees with the numbers drawn beside it.
pub fn culprit(pg: &Pg) -> Chain {
    pg.reading.with(Reading::chain)
}

#[component]
pub fn JobGraph() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let node = NodeRef::<Div>::new();
    let width = use_width(node, 720.0);
    let lay = Memo::new(move |_| {
        let w = width.get();
        pg.snap.with(|s| layout(w, s))
    });
    let chain = Memo::new(move |_| culprit(&pg));
    let size_w = move || lay.with(|l| l.width);
    let size_h = move || lay.with(|l| l.height);
    view! {
        <div class="graph-wrap" node_ref=node on:click=move |ev| on_graph_click(pg, ev)
            data-culprit-partition=move || pg.reading.with(Reading::culprit_attr) data-cause=move || pg.reading.with(Reading::cause_attr)>
            <div class="graph-layers" style:height=move || format!("{}px", size_h()) style:width=move || format!("{}px", size_w())>
                <GraphEdges lay=lay chain=chain />
                <svg class="graph" role="img" aria-label="Job graph: partitions, source subtasks, window subtasks and sink; click a node to explain it"
                    width=size_w height=size_h>
                    <ColumnHeads lay=lay />
                    <GraphNodes lay=lay chain=chain />
                </svg>
            </div>
        </div>
    }
}

/// The one delegated click handler: a node's `data-*` attribute says what was clicked (the
/// silence toggle of a partition first, as it sits inside the partition's node).
fn on_graph_click(pg: Pg, ev: leptos::ev::MouseEvent) {
    let Some(target) = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
    let attr = |sel: &str, name: &str| target.closest(sel).ok().flatten().and_then(|e| e.get_attribute(name)).and_then(|v| v.parse::<u32>().ok());
    if let Some(p) = attr("[data-silence]", "data-silence") {
        let silent = pg.snap.with_untracked(|s| s.splits.get(p as usize).is_some_and(|x| x.silent));
        let cmd = if silent { Command::Resume { partition: p } } else { Command::Silence { partition: p } };
        pg.apply_or_report(cmd);
    } else if let Some(p) = attr("[data-partition]", "data-partition") {
        pg.selection.set(Selection::Split(p));
    } else if let Some(s) = attr("[data-source]", "data-source") {
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
        if !pg.reading.with(Reading::started) {
            return Vec::new();
        }
        pg.snap.with(|s| {
            s.operators.iter().flat_map(|o| o.channels.iter().filter(|c| c.is_min).map(move |c| (c.source_subtask, o.subtask))).collect::<Vec<_>>()
        })
    });
    // Each layer is repainted only when it changes: the plain edges (topology) and the edges
    // that hold a minimum (a few paths); the nodes above update their text in place.
    let edges = Memo::new(move |_| lay.with(edges_svg));
    let marked = Memo::new(move |_| lay.with(|l| marked_edges_svg(l, chain.get(), &mins.get())));
    let size_w = move || lay.with(|l| l.width);
    let size_h = move || lay.with(|l| l.height);
    view! {
        <svg class="graph-edges" aria-hidden="true" width=size_w height=size_h inner_html=move || edges.get()></svg>
        <svg class="graph-edges marked" aria-hidden="true" width=size_w height=size_h inner_html=move || marked.get()></svg>
    }
}

#[component]
fn ColumnHeads(lay: Memo<Layout>) -> impl IntoView {
    let pg = expect_context::<Pg>();
    view! {
        <g class="col-heads">
            <text x=move || lay.with(|l| l.p_x) y="14">"PARTITIONS (splits)"</text>
            <text x=move || lay.with(|l| l.s_x) y="14">"SOURCE SUBTASKS"</text>
            <text x=move || lay.with(|l| l.o_x) y="14">{move || format!("WINDOW SUBTASKS · {}", exchange_label(&pg))}</text>
            <text x=move || lay.with(|l| l.k_x) y="14">"SINK"</text>
        </g>
    }
}

/// One node per partition, source subtask and window subtask, and the sink; a node is added
/// or removed only when its count changes.
#[component]
fn GraphNodes(lay: Memo<Layout>, chain: Memo<Chain>) -> impl IntoView {
    let pg = expect_context::<Pg>();
    let n_parts = Memo::new(move |_| pg.snap.with(|s| s.splits.len() as u32));
    let n_srcs = Memo::new(move |_| pg.snap.with(|s| s.sources.len() as u32));
    let n_ops = Memo::new(move |_| pg.snap.with(|s| s.operators.len() as u32));
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
        <For each=move || 0..n_ops.get() key=|o| *o let:o>
            <OperatorNode o=o lay=lay chain=chain />
        </For>
        <SinkNode lay=lay />
    }
}

#[component]
fn PartitionNode(p: u32, lay: Memo<Layout>, chain: Memo<Chain>, compact: Memo<bool>) -> impl IntoView {
    let pg = expect_context::<Pg>();
    let d = split_memo(pg.snap, p);
    let state = Memo::new(move |_| d.with(|s| s.as_ref().map(|s| (s.idle, s.released, s.watermark.unwrap_or(NO_WATERMARK) == NO_WATERMARK, s.silent))));
    let geo = Memo::new(move |_| lay.with(|l| (l.p_x, l.p_y.get(p as usize).copied().unwrap_or(0.0), l.p_h - 4.0)));
    let class = move || {
        let mut c = String::from("node part");
        if let Some((idle, released, nowm, _)) = state.get() {
            if idle {
                c += " idle";
            }
            if released {
                c += " released";
            } else if nowm {
                c += " nowm";
            }
        }
        if chain.with(|c| c.2) == Some(p) {
            c += " holding";
        }
        if pg.selection.with(|sel| *sel == Selection::Split(p)) {
            c += " selected";
        }
        c
    };
    let label = move || {
        if compact.get() {
            return state.with(|s| match s {
                Some((_, true, ..)) => format!("p{p} released"),
                Some((true, ..)) => format!("p{p} idle"),
                Some((_, _, true, _)) => format!("p{p} No Watermark"),
                _ => format!("p{p}"),
            });
        }
        d.with(|s| match s {
            Some(s) if s.released => format!("p{p}  released"),
            Some(s) => format!("p{p}{} {}", if s.idle { " idle" } else { "" }, wm_human(s.watermark.unwrap_or(NO_WATERMARK).ms(), s.now.ms())),
            None => String::new(),
        })
    };
    let silent = move || state.with(|s| s.is_some_and(|s| s.3));
    view! {
        <g class=class data-partition=p>
            <title>{format!("partition {p}: click to explain; the ‖ / ▶ button silences or resumes its producers")}</title>
            <g class="silence-btn" class:on=silent data-silence=p role="button"
                aria-label=move || format!("{} partition {p}", if silent() { "Resume" } else { "Silence" })>
                <rect x=move || geo.get().0 - 18.0 y=move || geo.get().1 - geo.get().2 / 2.0 width="15" height=move || geo.get().2 rx="3" />
                // Drawn, not a glyph: ❚❚ (silence) or ▶ (resume), 7 px, centred in the button.
                <path class="glyph" d=move || {
                    let (x, y, _) = geo.get();
                    let cx = x - 10.5;
                    if silent() { format!("M{:.1},{:.1}v7l6,-3.5z", cx - 2.5, y - 3.5) } else { format!("M{:.1},{:.1}h2.2v7h-2.2zM{:.1},{:.1}h2.2v7h-2.2z", cx - 3.2, y - 3.5, cx + 1.0, y - 3.5) }
                } />
            </g>
            <rect class="box" x=move || geo.get().0 y=move || geo.get().1 - geo.get().2 / 2.0 width=P_W height=move || geo.get().2 rx="4" />
            <text class="mono" x=move || geo.get().0 + 6.0 y=move || geo.get().1 + 3.5>{label}</text>
        </g>
    }
}

#[component]
fn SourceNode(s: u32, lay: Memo<Layout>, chain: Memo<Chain>) -> impl IntoView {
    let pg = expect_context::<Pg>();
    let d = source_memo(pg.snap, s);
    let geo = Memo::new(move |_| lay.with(|l| (l.s_x, l.s_y.get(s as usize).copied().unwrap_or(0.0) - S_H / 2.0)));
    let x = move || geo.get().0;
    let y = move || geo.get().1;
    let class = move || {
        let mut c = String::from("node src");
        d.with(|v| {
            if let Some(v) = v {
                if v.idle {
                    c += " idle";
                }
                if v.output_watermark == NO_WATERMARK {
                    c += " nowm";
                }
            }
        });
        if chain.with(|c| c.1) == Some(s) {
            c += " holding";
        }
        if pg.selection.with(|sel| *sel == Selection::Source(s)) {
            c += " selected";
        }
        c
    };
    let line1 = move || {
        d.with(|v| {
            v.as_ref().map(|v| {
                let n = v.partitions.len();
                format!("src {s} · {}{}", if n == 0 { "no split".to_string() } else { format!("{n} split{}", if n == 1 { "" } else { "s" }) }, if v.idle { " · IDLE" } else { "" })
            })
        })
    };
    let line2 = move || d.with(|v| v.as_ref().map(|v| wm_human(v.output_watermark.ms(), v.now.ms())));
    let line3 = move || d.with(|v| v.as_ref().map(|v| wm_raw(v.output_watermark.ms())));
    view! {
        <g class=class data-source=s>
            <title>{format!("source subtask {s}: its output watermark is the minimum over its non-idle splits; click to explain")}</title>
            <rect class="box" x=x y=y width=S_W height=S_H rx="6" />
            <text class="name" x=move || x() + 8.0 y=move || y() + 14.0>{line1}</text>
            <text class="mono wm" x=move || x() + 8.0 y=move || y() + 27.0>{line2}</text>
            <text class="mono raw" x=move || x() + 8.0 y=move || y() + 39.0>{line3}</text>
        </g>
    }
}

#[component]
fn OperatorNode(o: u32, lay: Memo<Layout>, chain: Memo<Chain>) -> impl IntoView {
    let pg = expect_context::<Pg>();
    let d = op_memo(pg.snap, o);
    let geo = Memo::new(move |_| lay.with(|l| (l.o_x, l.o_y.get(o as usize).copied().unwrap_or(0.0) - O_H / 2.0)));
    let x = move || geo.get().0;
    let y = move || geo.get().1;
    let class = move || {
        let mut c = String::from("node op");
        d.with(|v| {
            if let Some(v) = v {
                if v.idle {
                    c += " idle";
                }
                if v.input_watermark == NO_WATERMARK {
                    c += " nowm";
                }
            }
        });
        if chain.with(|c| c.0) == Some(o) {
            c += " focus";
        }
        if pg.selection.with(|sel| matches!(sel, Selection::Operator(x) if *x == o)) {
            c += " selected";
        }
        c
    };
    let line1 = move || {
        d.with(|v| {
            v.as_ref().map(|v| {
                format!(
                    "win {o}{}{}",
                    if v.idle { " · IDLE" } else { "" },
                    if v.window_state_size > 0 { format!(" · {} open", thousands(v.window_state_size as u64)) } else { String::new() }
                )
            })
        })
    };
    let line2 = move || d.with(|v| v.as_ref().map(|v| wm_human(v.input_watermark.ms(), v.now.ms())));
    let line3 = move || {
        d.with(|v| {
            v.as_ref().map(|v| {
                let w = v.input_watermark.ms();
                let lag = if w == NO_WATERMARK.ms() || w == i64::MAX { String::new() } else { format!(" · lag {}", dur(v.now.ms() - w)) };
                format!("{}{lag}", wm_raw(w))
            })
        })
    };
    view! {
        <g class=class data-operator=o>
            <title>{format!("window subtask {o}: currentInputWatermark is the minimum over its active, aligned input channels; click to explain why")}</title>
            <rect class="box" x=x y=y width=O_W height=O_H rx="6" />
            <text class="name" x=move || x() + 8.0 y=move || y() + 15.0>{line1}</text>
            <text class="mono wm" x=move || x() + 8.0 y=move || y() + 31.0>{line2}</text>
            <text class="mono raw" x=move || x() + 8.0 y=move || y() + 46.0>{line3}</text>
        </g>
    }
}

#[component]
fn SinkNode(lay: Memo<Layout>) -> impl IntoView {
    let pg = expect_context::<Pg>();
    let geo = Memo::new(move |_| lay.with(|l| (l.k_x, l.k_y - 26.0)));
    let x = move || geo.get().0;
    let y = move || geo.get().1;
    let mode = move || if pg.cfg.with(|c| c.sink == SinkMode::Upsert) { "upsert" } else { "append" };
    view! {
        <g class="node sink">
            <rect class="box" x=x y=y width=K_W height="52" rx="6" />
            <text class="name" x=move || x() + 8.0 y=move || y() + 16.0>{move || format!("sink ({})", mode())}</text>
            <text class="mono wm" x=move || x() + 8.0 y=move || y() + 32.0>{move || thousands(pg.snap.with(|s| s.windows_fired as u64))}</text>
            <text class="raw" x=move || x() + 8.0 y=move || y() + 45.0>"results"</text>
        </g>
    }
}

fn exchange_label(pg: &Pg) -> &'static str {
    use crate::engine::partitioner::Exchange;
    match pg.cfg.with(|c| c.first().exchange) {
        Exchange::Hash => "keyBy",
        Exchange::Rebalance => "rebalance",
        Exchange::Forward => "forward",
    }
}

fn curve(x1: f64, y1: f64, x2: f64, y2: f64) -> String {
    let mx = (x1 + x2) / 2.0;
    format!("M{x1:.1},{y1:.1} C{mx:.1},{y1:.1} {mx:.1},{y2:.1} {x2:.1},{y2:.1}")
}

/// The plain edges: partition → source subtask, every channel, window subtask → sink.
pub fn edges_svg(l: &Layout) -> String {
    let mut out = String::with_capacity(32 * 1024);
    for &(p, s) in &l.p_edges {
        let y1 = l.p_y[p as usize];
        let y2 = l.s_y.get(s as usize).copied().unwrap_or(y1);
        let _ = write!(out, r#"<path class="edge" d="{}"/>"#, curve(l.p_x + P_W, y1, l.s_x, y2));
    }
    for &(s, o) in &l.s_edges {
        let (Some(&y1), Some(&y2)) = (l.s_y.get(s as usize), l.o_y.get(o as usize)) else { continue };
        let _ = write!(out, r#"<path class="edge faint" d="{}"/>"#, curve(l.s_x + S_W, y1, l.o_x, y2));
    }
    for &y in &l.o_y {
        let _ = write!(out, r#"<path class="edge faint" d="{}"/>"#, curve(l.o_x + O_W, y, l.k_x, l.k_y));
    }
    out
}

/// The edges that hold a minimum (one per window subtask), and the culprit chain thickest.
pub fn marked_edges_svg(l: &Layout, chain: Chain, mins: &[(u32, u32)]) -> String {
    let (co, cs, cp) = chain;
    let mut out = String::new();
    for &(s, o) in mins {
        if co == Some(o) && cs == Some(s) {
            continue;
        }
        let (Some(&y1), Some(&y2)) = (l.s_y.get(s as usize), l.o_y.get(o as usize)) else { continue };
        let _ = write!(out, r#"<path class="edge min" d="{}"/>"#, curve(l.s_x + S_W, y1, l.o_x, y2));
    }
    if let (Some(o), Some(s)) = (co, cs) {
        if let (Some(&y1), Some(&y2)) = (l.s_y.get(s as usize), l.o_y.get(o as usize)) {
            let _ = write!(out, r#"<path class="edge culprit" d="{}"/>"#, curve(l.s_x + S_W, y1, l.o_x, y2));
        }
        if let Some(p) = cp {
            if let (Some(&y1), Some(&y2)) = (l.p_y.get(p as usize), l.s_y.get(s as usize)) {
                let _ = write!(out, r#"<path class="edge culprit" d="{}"/>"#, curve(l.p_x + P_W, y1, l.s_x, y2));
            }
        }
    }
    out
}
