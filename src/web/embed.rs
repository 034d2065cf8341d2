//! The embed layout (~720×420, for an iframe or `mount(element, {layout: "embed"})`): play,
//! speed, the scenario's title and an "open full ↗" link in one row; a compact job graph next
//! to the timeline; the diagnosis' headline as the one-line WHY, with its first fix as a button.
//!
//! The compact graph is one SVG written as markup (partitions → source subtasks → window
//! subtasks), redrawn with the graph snapshot (~10×/s while playing); it uses the full graph's
//! visual language (hatched = idle, dashed = No Watermark, thick orange = holds the watermark).

use super::actions::RunAction;
use super::findings::fix_label;
use super::format::{thousands, wm_human};
use super::header::{PlayButton, SpeedPicker};
use super::icons::{Icon, Svg};
use super::measure::use_width;
use super::reading::{Chain, Reading};
use super::state::{Pg, Selection};
use super::timeline::Timeline;
use crate::engine::scenario::catalog;
use crate::engine::snapshot::Snapshot;
use crate::engine::time::NO_WATERMARK;
use leptos::html::Div;
use leptos::prelude::*;
use std::fmt::Write;
use wasm_bindgen::JsCast;

/// The SVG pattern that hatches idle nodes in the job graph (both layouts include it; the
/// timeline's canvas draws its own hatching).
#[component]
pub fn HatchDefs() -> impl IntoView {
    view! {
        <svg class="hatch-defs" width="0" height="0" aria-hidden="true" focusable="false">
            <defs>
                <pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
                    <rect class="hatch-bg" width="6" height="6"></rect>
                    <line class="hatch-line" x1="0" y1="0" x2="0" y2="6"></line>
                </pattern>
            </defs>
        </svg>
    }
}

/// The embed layout over the `Pg` in context; its "open full" link goes to the host's
/// `link_base` (default: this page).
#[component]
pub fn EmbedLayout() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let title = move || {
        pg.cfg.track();
        match pg.preset.get().and_then(catalog::preset) {
            Some(p) => p.title.to_string(),
            None => pg.base.with_value(|b| if b.name.trim().is_empty() { "Custom scenario".to_string() } else { b.name.clone() }),
        }
    };
    // The link is taken when the pointer or focus comes to it: it carries the user's actions.
    let href = RwSignal::new(String::new());
    let zoom = super::url_state::TimelineZoom::of_page();
    let refresh_link = move || href.set(super::share::share_link(&pg, zoom));
    Effect::new(move |_| {
        pg.preset.track();
        pg.cfg.track();
        refresh_link();
    });
    let clock = move || super::format::elapsed(pg.clock.get(), pg.cfg.with(|c| c.start_time.ms()));
    let results = move || pg.snap.with(|s| s.windows_fired as u64);
    view! {
        <div class="embed" class:calm=move || pg.reading_slow.with(Reading::calm)>
            <HatchDefs />
            <header class="embed-head" part="header">
                <PlayButton />
                <SpeedPicker />
                <span class="embed-title" title=title>{title}</span>
                <span class="mono small muted embed-clock" id="clock" title="Processing time since the job started">{clock}</span>
                <span class="small muted embed-results" title="Window results emitted">{move || format!("{} results", thousands(results()))}</span>
                <a class="btn small" id="open-full" target="_blank" rel="noopener" href=move || href.get()
                    on:pointerenter=move |_| refresh_link() on:focus=move |_| refresh_link() on:pointerdown=move |_| refresh_link()
                    title="Open this scenario in the full playground (new tab)">"open full "<Svg icon=Icon::External /></a>
            </header>
            <div class="embed-body">
                <section class="card embed-graph" part="graph" aria-label="Job graph">
                    <CompactGraph />
                </section>
                <Timeline compact=true />
            </div>
            <WhyLine />
        </div>
    }
}

/// The diagnosis' headline in one line, and the first fix the diagnosis offers as a button. The
/// line is a button: a tap (or Enter) expands it to the whole headline and the explained
/// subtask's sentence — a phone has no hover for a title. The culprit and cause it names are those of the
/// full layout's WHY panel, preset card and graph (one reading).
#[component]
fn WhyLine() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let r = pg.reading_slow;
    let line = move || r.with(|r| r.diag.headline.clone());
    let open = RwSignal::new(false);
    let text = move || r.with(|r| r.explanation.as_ref().filter(|_| r.started()).map_or_else(|| r.diag.headline.clone(), |e| e.text.clone()));
    let fix = move || {
        r.with(|r| r.diag.fixes().into_iter().next()).map(|f| {
            let label = fix_label(&f);
            view! { <button class="btn small fix" title="Applies the fix (↻: restarts from time zero)" on:click=move |_| f.action.run(&pg)>{label}</button> }
        })
    };
    view! {
        // Not a live region: the headline's times change every frame; the announcer speaks when
        // the verdict changes.
        <footer class="embed-why" part="why" class:expanded=move || open.get() class:calm=move || r.with(Reading::calm)
            data-culprit-partition=move || r.with(Reading::culprit_attr) data-cause=move || r.with(Reading::cause_attr)>
            <super::explain::WhyAnnouncer />
            <b>"WHY "</b>
            <button class="embed-why-text" data-testid="why-sentence" title=text aria-expanded=move || open.get().to_string()
                aria-controls="embed-why-full" on:click=move |_| open.update(|o| *o = !*o)><span class="embed-why-line">{line}</span></button>
            {fix}
            <p class="embed-why-full" id="embed-why-full" class:hidden=move || !open.get()>{text}</p>
        </footer>
    }
}

/// Pixel layout of the compact graph.
struct Cols {
    h: f64,
    p_x: f64,
    p_w: f64,
    s_x: f64,
    s_w: f64,
    o_x: f64,
    o_w: f64,
}

const HEAD: f64 = 16.0;

fn rows(n: usize, max_pitch: f64, h: f64) -> (f64, Vec<f64>) {
    let pitch = ((h - HEAD - 4.0) / n.max(1) as f64).min(max_pitch);
    let top = HEAD + ((h - HEAD - pitch * n as f64) / 2.0).max(0.0);
    (pitch, (0..n).map(|i| top + pitch * (i as f64 + 0.5)).collect())
}

/// The rows of each column: (pitch, centre of each row).
struct Rows {
    parts: (f64, Vec<f64>),
    sources: (f64, Vec<f64>),
    ops: (f64, Vec<f64>),
}

/// The compact graph as SVG markup: columns, edges (every split's, the channels when there are
/// few, the minimum-holding ones always), nodes with their state classes.
/// `started`: whether anything was read (before, no channel is marked as the minimum).
fn compact_svg(c: &Cols, s: &Snapshot, chain: Chain, selected: Option<u32>, started: bool) -> String {
    let mut out = String::with_capacity(8 * 1024);
    let _ = write!(
        out,
        r#"<g class="col-heads"><text x="{:.1}" y="11">PARTITIONS</text><text x="{:.1}" y="11">SOURCES</text><text x="{:.1}" y="11">WINDOW SUBTASKS</text></g>"#,
        c.p_x, c.s_x, c.o_x
    );
    let r = Rows { parts: rows(s.splits.len(), 20.0, c.h), sources: rows(s.sources.len(), 34.0, c.h), ops: rows(s.operators.len(), 40.0, c.h) };
    // Edges first.
    split_edges(&mut out, c, s, &r, chain);
    channel_edges(&mut out, c, s, &r, chain, started);
    partition_nodes(&mut out, c, s, &r.parts, chain);
    source_nodes(&mut out, c, s, &r.sources, chain);
    operator_nodes(&mut out, c, s, &r.ops, chain, selected);
    out
}

/// Partition → source subtask edges of the assigned splits (the minimum-holding one hot).
fn split_edges(out: &mut String, c: &Cols, s: &Snapshot, r: &Rows, (_, cs, cp): Chain) {
    let (py, sy) = (&r.parts.1, &r.sources.1);
    for sp_ in s.splits.iter().filter(|x| !x.released) {
        let (Some(t), Some(&y1)) = (sp_.subtask, py.get(sp_.partition as usize)) else { continue };
        let Some(&y2) = sy.get(t as usize) else { continue };
        let hot = cp == Some(sp_.partition) && cs == Some(t);
        let _ = write!(out, r#"<path class="edge{}" d="M{:.1},{y1:.1}L{:.1},{y2:.1}"/>"#, if hot { " culprit" } else { " faint" }, c.p_x + c.p_w, c.s_x);
    }
}

/// Source → window subtask channels: the culprit and minimum ones always, the others when
/// there are few.
fn channel_edges(out: &mut String, c: &Cols, s: &Snapshot, r: &Rows, (co, cs, _): Chain, started: bool) {
    let (sy, oy) = (&r.sources.1, &r.ops.1);
    let few = s.sources.len() * s.operators.len() <= 64;
    for o in &s.operators {
        for ch in &o.channels {
            let (Some(&y1), Some(&y2)) = (sy.get(ch.source_subtask as usize), oy.get(o.subtask as usize)) else { continue };
            let class = if co == Some(o.subtask) && cs == Some(ch.source_subtask) {
                "edge culprit"
            } else if ch.is_min && started {
                "edge min"
            } else if few {
                "edge faint"
            } else {
                continue;
            };
            let _ = write!(out, r#"<path class="{class}" d="M{:.1},{y1:.1}L{:.1},{y2:.1}"/>"#, c.s_x + c.s_w, c.o_x);
        }
    }
}

/// Partitions: labelled pills while they fit, thin bars beyond (the culprit always labelled).
fn partition_nodes(out: &mut String, c: &Cols, s: &Snapshot, (pp, py): &(f64, Vec<f64>), (_, _, cp): Chain) {
    let pp = *pp;
    let ph = (pp - 3.0).max(1.5);
    for (i, x) in s.splits.iter().enumerate() {
        let y = py[i];
        let mut class = String::from("node part");
        if x.idle {
            class += " idle";
        }
        if x.released {
            class += " released";
        } else if x.watermark.is_none_or(|w| w == NO_WATERMARK) {
            class += " nowm";
        }
        if cp == Some(x.partition) {
            class += " holding";
        }
        // `p11`, or `rates-0` in a job with two topics (the full graph's names).
        // Topic names come from the scenario (a link, an attribute): text, never markup.
        let name = super::graph_layout::partition_label(s, x.partition).replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
        let _ = write!(out, r#"<g class="{class}" data-partition="{}"><title>partition {name}{}</title><rect class="box" x="{:.1}" y="{:.1}" width="{:.1}" height="{ph:.1}" rx="3"/>"#, x.partition, if x.silent { " (silenced)" } else { "" }, c.p_x, y - ph / 2.0, c.p_w);
        if pp >= 11.0 {
            let _ = write!(out, r#"<text x="{:.1}" y="{:.1}">{name}{}</text>"#, c.p_x + 4.0, y + 4.0, if x.silent { " (silent)" } else { "" });
        } else if cp == Some(x.partition) {
            let _ = write!(out, r#"<text class="callout" x="{:.1}" y="{:.1}">{name}</text>"#, c.p_x + c.p_w + 3.0, y + 3.5);
        }
        out.push_str("</g>");
    }
}

/// Source subtasks, labelled while they fit.
fn source_nodes(out: &mut String, c: &Cols, s: &Snapshot, (sp, sy): &(f64, Vec<f64>), (_, cs, _): Chain) {
    let sh = (sp - 4.0).max(2.0);
    for v in &s.sources {
        let y = sy[v.subtask as usize];
        let mut class = String::from("node src");
        if v.idle {
            class += " idle";
        }
        if v.output_watermark == NO_WATERMARK {
            class += " nowm";
        }
        if cs == Some(v.subtask) {
            class += " holding";
        }
        // `src 3`, or `src rates·0` with two sources (every view's name); a topic is text.
        let name = s.source_subtask_name(v.subtask).replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
        let _ = write!(out, r#"<g class="{class}" data-source="{}"><title>source subtask {name}: {}</title><rect class="box" x="{:.1}" y="{:.1}" width="{:.1}" height="{sh:.1}" rx="4"/>"#, v.subtask, wm_human(v.output_watermark.ms(), s.now.ms()), c.s_x, y - sh / 2.0, c.s_w);
        if sh >= 10.0 {
            // With two sources a name wider than the node is squeezed into it (10 px text: about
            // 5.6 px a character), not cut: the name stays the one the other views write.
            let room = c.s_w - 8.0;
            let fit = if s.job.topics.len() > 1 && (name.chars().count() + 4) as f64 * 5.6 > room { format!(r#" textLength="{room:.1}" lengthAdjust="spacingAndGlyphs""#) } else { String::new() };
            let _ = write!(out, r#"<text x="{:.1}" y="{:.1}"{fit}>src {name}</text>"#, c.s_x + 5.0, y + 3.5);
        }
        out.push_str("</g>");
    }
}

/// Window subtasks with their input watermark (on two lines, one, or none as they fit).
fn operator_nodes(out: &mut String, c: &Cols, s: &Snapshot, (op, oy): &(f64, Vec<f64>), (co, _, _): Chain, selected: Option<u32>) {
    let oh = (op - 4.0).max(2.0);
    for o in &s.operators {
        let y = oy[o.subtask as usize];
        let mut class = String::from("node op");
        if o.idle {
            class += " idle";
        }
        if o.input_watermark == NO_WATERMARK {
            class += " nowm";
        }
        if co == Some(o.subtask) {
            class += " focus";
        }
        if selected == Some(o.subtask) {
            class += " selected";
        }
        let wm = wm_human(o.input_watermark.ms(), s.now.ms());
        let _ = write!(out, r#"<g class="{class}" data-operator="{}"><title>window subtask {}: {wm}; click to explain</title><rect class="box" x="{:.1}" y="{:.1}" width="{:.1}" height="{oh:.1}" rx="4"/>"#, o.subtask, o.subtask, c.o_x, y - oh / 2.0, c.o_w);
        if oh >= 26.0 {
            let _ = write!(out, r#"<text class="name" x="{:.1}" y="{:.1}">win {}</text><text class="mono" x="{:.1}" y="{:.1}">{wm}</text>"#, c.o_x + 5.0, y - 2.0, o.subtask, c.o_x + 5.0, y + 10.0);
        } else if oh >= 10.0 {
            let _ = write!(out, r#"<text class="mono" x="{:.1}" y="{:.1}">win {} {wm}</text>"#, c.o_x + 5.0, y + 3.5, o.subtask);
        }
        out.push_str("</g>");
    }
}

/// Most height of the compact graph's plot (the embed layout's body row).
const GRAPH_H: f64 = 280.0;

/// The plot's height for this job: its tallest column at the rows' largest pitch, up to
/// [`GRAPH_H`] (a fixed 280 px floated two partitions in empty bands).
fn graph_height(s: &Snapshot) -> f64 {
    let tallest = [(s.splits.len(), 20.0), (s.sources.len(), 34.0), (s.operators.len(), 40.0)].iter().map(|&(n, pitch)| n as f64 * pitch).fold(0.0, f64::max);
    (HEAD + 8.0 + tallest).clamp(120.0, GRAPH_H)
}

/// The compact graph's drawing width: its card's, but at least what its labels need (the
/// view box scales it down below that).
fn graph_width(card: f64) -> f64 {
    card.max(260.0)
}

#[component]
pub fn CompactGraph() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let node = NodeRef::<Div>::new();
    let width = use_width(node, 280.0);
    let chain = Memo::new(move |_| super::graph::culprit(&pg));
    let selected = Memo::new(move |_| match pg.selection.get() {
        Selection::Operator(o) => Some(o),
        _ => None,
    });
    let height = Memo::new(move |_| pg.snap.with(graph_height));
    let markup = Memo::new(move |_| {
        let w = graph_width(width.get());
        let cols = Cols { h: height.get(), p_x: 2.0, p_w: (w * 0.2).clamp(34.0, 60.0), s_x: w * 0.32, s_w: (w * 0.2).clamp(40.0, 64.0), o_x: w * 0.6, o_w: w * 0.4 - 3.0 };
        let started = pg.reading.with(Reading::started);
        pg.snap.with(|s| compact_svg(&cols, s, chain.get(), selected.get(), started))
    });
    let on_click = move |ev: leptos::ev::MouseEvent| {
        let Some(target) = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
        let attr = |name: &str| target.closest(&format!("[{name}]")).ok().flatten().and_then(|e| e.get_attribute(name)).and_then(|v| v.parse::<u32>().ok());
        if let Some(o) = attr("data-operator") {
            pg.selection.set(if selected.get_untracked() == Some(o) { Selection::None } else { Selection::Operator(o) });
        } else if let Some(p) = attr("data-partition") {
            pg.selection.set(Selection::Split(p));
        } else if let Some(s) = attr("data-source") {
            pg.selection.set(Selection::Source(s));
        }
    };
    view! {
        <div class="compact-graph-wrap" node_ref=node on:click=on_click>
            // One viewBox: the graph scales to the card's width (a phone's narrow column too).
            <svg class="graph compact" role="img" aria-label="Job graph: partitions, source subtasks and window subtasks; click a window subtask to explain it"
                viewBox=move || format!("0 0 {:.0} {:.0}", graph_width(width.get()), height.get()) inner_html=move || markup.get()></svg>
        </div>
    }
}
