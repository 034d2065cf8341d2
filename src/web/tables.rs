//! The splits table (one row per partition, named `topic-N` in a job with two topics) and the
//! channels table (one row per input channel of the focused keyed subtask, with its logical
//! input; a two-input operator's per-input watermarks above it). The row holding the
//! minimum carries the same ◀ min mark and outline as the graph (◀ ahead when it pushed the
//! watermark ahead of processing time).

use super::format::{dur, thousands, wm_human, wm_raw, PER_INPUT_NOTE};
use super::measure::{gated, mark_more_beyond, use_visible};
use super::rows::{channel_memo, split_memo, Row};
use super::state::{Pg, Selection};
use crate::engine::command::Command;
use crate::engine::snapshot::SplitView;
use crate::engine::time::NO_WATERMARK;
use super::glyphs::{spoken, MinMark};
use leptos::prelude::*;

#[component]
pub fn SplitsTable() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let node = NodeRef::<leptos::html::Div>::new();
    mark_more_beyond(node);
    let visible = use_visible(node);
    let snap = gated(pg.snap_slow, visible, pg.playing);
    let n = Memo::new(move |_| snap.with(|s| s.splits.len() as u32));
    // Gated too: a table just below the fold is still laid out and painted (content-visibility
    // renders what is near the viewport), and a moving ◀ min mark relaid all its rows.
    let reading = gated(pg.reading_slow, visible, pg.playing);
    let holding = Memo::new(move |_| match pg.live {
        Some(_) => super::graph::culprit(&pg).2,
        None => reading.with(|r| r.held_by().and_then(|(_, h)| h.partition)),
    });
    let ahead = pushed_ahead(pg, reading);
    view! {
        <section class="card table-card" aria-labelledby=pg.dom_id("splits-h")>
            <header class="card-head">
                <h2 id=pg.dom_id("splits-h")>"Splits"</h2>
                <span class="muted small">{move || idle_timeouts(&pg)}</span>
            </header>
            <div class="scroll" node_ref=node>
                <table class="data splits" id=pg.dom_id("splits-table")>
                    <thead><tr>
                        <th scope="col">"partition"</th><th scope="col">"subtask"</th>
                        <th scope="col" class="num">"produced"</th><th scope="col" class="num" title="Records the source read, those read again after a restore included: after a restore it can exceed produced">"read"</th>
                        <th scope="col">"max timestamp"</th><th scope="col">"split watermark"</th>
                        <th scope="col">"status"</th><th scope="col">"last record"</th><th scope="col">"producers"</th>
                    </tr></thead>
                    <tbody>
                        <For each=move || 0..n.get() key=|p| *p let:p>
                            <SplitRow p=p holding=holding ahead=ahead snap=snap />
                        </For>
                    </tbody>
                </table>
            </div>
        </section>
    }
}

#[component]
fn SplitRow(p: u32, holding: Memo<Option<u32>>, ahead: Memo<bool>, snap: RwSignal<crate::engine::snapshot::Snapshot>) -> impl IntoView {
    let pg = expect_context::<Pg>();
    let d = split_memo(snap, p);
    let cell = move |f: fn(&Row<SplitView>) -> String| move || d.with(|s| s.as_ref().map(f).unwrap_or_default());
    // A real job's splits: the REST API gives their watermark and idleness, not their records.
    let live = pg.live.is_some();
    let counted = move |f: fn(&Row<SplitView>) -> String| move || if live { "?".to_string() } else { cell(f)() };
    let name = move || super::graph_partition::live_split_of_source(&pg, p).unwrap_or_else(|| snap.with(|s| super::graph_layout::partition_label(s, p)));
    let status = move || {
        d.with(|s| {
            s.as_ref().map(|s| {
                if s.released {
                    "released".to_string()
                } else if s.at_its_end {
                    "■ at its end · not counted".to_string()
                } else if s.idle {
                    "◌ IDLE".to_string()
                } else if s.paused {
                    "‖ paused by split alignment".to_string()
                } else {
                    match s.idle_deadline {
                        Some(at) => format!("● active · idle in {}", dur((at - s.now).max(0))),
                        None => "● active".to_string(),
                    }
                }
            })
        })
    };
    let silent = Memo::new(move |_| d.with(|s| s.as_ref().is_some_and(|s| s.silent)));
    let released = Memo::new(move |_| d.with(|s| s.as_ref().is_some_and(|s| s.released)));
    let idle = Memo::new(move |_| d.with(|s| s.as_ref().is_some_and(|s| s.idle)));
    // Its Silence / Resume did nothing (the graph offers none): "none" says why.
    let producer = Memo::new(move |_| {
        snap.track();
        super::graph_partition::has_producer(&pg, p)
    });
    view! {
        <tr class:holding=move || holding.get() == Some(p) class:idle=move || idle.get()
            class:selected=move || pg.selection.with(|x| *x == Selection::Split(p))
            class:released=move || released.get() data-partition=p
            on:click=move |_| pg.selection.set(Selection::Split(p))>
            <th scope="row">{name}<MinMark on=Signal::derive(move || holding.get() == Some(p)) ahead=ahead /></th>
            // As the graph and the other tables name it (`rates·0` with two sources, as Flink
            // numbers a vertex's subtasks), not the engine's global number.
            <td class="num">{spoken(move || d.with(|s| s.as_ref().and_then(|s| s.subtask)).map_or_else(|| "–".into(), |t| snap.with(|sn| sn.source_subtask_name(t))))}</td>
            <td class="num">{counted(|s| thousands(s.produced))}</td>
            <td class="num">{counted(|s| thousands(s.read))}</td>
            <td class="mono">{spoken(counted(|s| s.max_timestamp.map_or("–".into(), |t| wm_human(t.ms(), s.now.ms()))))}</td>
            <td class="mono">
                {cell(|s| wm_human(s.watermark.unwrap_or(NO_WATERMARK).ms(), s.now.ms()))}
                <span class="raw">{cell(|s| wm_raw(s.watermark.unwrap_or(NO_WATERMARK).ms()))}</span>
            </td>
            <td class="status" title=move || d.with(|s| s.as_ref().filter(|s| s.at_its_end && !s.released).map(|_| super::graph_partition::AT_ITS_END_NOTE))>{spoken(move || status().unwrap_or_default())}</td>
            <td class="mono">{counted(|s| s.last_record_at.map_or("never".into(), |t| format!("{} ago", dur(s.now - t))))}</td>
            <td>
                <span class="muted small" class:hidden=move || live || producer.get()>"none"</span>
                <button class="btn tiny split-silence" disabled=move || released.get() class:hidden=move || live || !producer.get()
                    aria-label=move || format!("{} partition {}", if silent.get() { "Resume" } else { "Silence" }, snap.with(|s| super::graph_layout::partition_label(s, p)))
                    on:click=move |ev| {
                        ev.stop_propagation();
                        let cmd = if silent.get_untracked() { Command::Resume { partition: p } } else { Command::Silence { partition: p } };
                        pg.apply_or_report(cmd);
                    }>
                    {super::icons::dynamic(move || if silent.get() { super::icons::Icon::Play } else { super::icons::Icon::Pause })}
                    {move || if silent.get() { " resume" } else { " silence" }}
                </button>
            </td>
        </tr>
    }
}

#[component]
pub fn ChannelsTable() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let node = NodeRef::<leptos::html::Div>::new();
    mark_more_beyond(node);
    let visible = use_visible(node);
    let snap = gated(pg.snap_slow, visible, pg.playing);
    let reading = gated(pg.reading_slow, visible, pg.playing);
    let focus = Memo::new(move |_| match pg.live {
        Some(_) => super::graph::culprit(&pg).0.unwrap_or(0),
        None => reading.with(|r| r.explanation.as_ref().map_or(0, |e| e.subtask)),
    });
    let ahead = pushed_ahead(pg, reading);
    let noun = move || if pg.live.is_some() { "subtask".to_string() } else { format!("{} subtask", pg.cfg.with(|c| c.keyed_noun())) };
    let n = Memo::new(move |_| {
        let f = focus.get();
        snap.with(|s| s.operators.get(f as usize).map_or(0, |o| o.channels.len()))
    });
    let two_inputs = Memo::new(move |_| snap.with(|s| s.operators.first().is_some_and(|o| !o.inputs.is_empty())));
    view! {
        <section class="card table-card" aria-labelledby=pg.dom_id("channels-h")>
            <header class="card-head">
                <h2 id=pg.dom_id("channels-h")>{move || format!("Channels · {} {}", noun(), focus.get())}</h2>
                <span class="muted small">{move || match (pg.live.is_some(), two_inputs.get()) {
                    (true, _) => "the channel from the subtask that holds the watermark; Flink reports no per-channel watermark",
                    (false, true) => "per input: min over active, aligned channels",
                    (false, false) => "min over active, aligned channels",
                }}</span>
            </header>
            <InputsStrip focus=focus ahead=ahead snap=snap />
            // Nothing in it takes focus: the region does, so that the arrows scroll it. Named
            // apart from its card, which is a region too.
            <div class="scroll" node_ref=node tabindex="0" role="region" aria-label="channels table">
                <table class="data channels" id=pg.dom_id("channels-table")>
                    <thead><tr>
                        <th scope="col">"channel"</th><th scope="col">"input"</th><th scope="col">"from"</th><th scope="col">"watermark"</th>
                        <th scope="col">"status"</th><th scope="col">"aligned"</th><th scope="col" class="num" title="records waiting in the channel / its credits (channel_buffer_records)">"buffered"</th>
                    </tr></thead>
                    <tbody>
                        <For each=move || 0..n.get() key=|c| *c let:c>
                            <ChannelRow c=c focus=focus ahead=ahead snap=snap />
                        </For>
                    </tbody>
                </table>
            </div>
        </section>
    }
}

#[component]
fn ChannelRow(c: usize, focus: Memo<u32>, ahead: Memo<bool>, snap: RwSignal<crate::engine::snapshot::Snapshot>) -> impl IntoView {
    let pg = expect_context::<Pg>();
    let d = channel_memo(snap, focus, c);
    // Before anything is read no channel is named as holding the minimum (one diagnosis rule).
    let started = Memo::new(move |_| pg.live.is_some() || pg.reading_slow.with(super::reading::Reading::started));
    let is_min = Memo::new(move |_| started.get() && d.with(|x| x.as_ref().is_some_and(|x| x.is_min)));
    let idle = Memo::new(move |_| d.with(|x| x.as_ref().is_some_and(|x| x.status.is_idle())));
    let live = pg.live.is_some();
    view! {
        <tr class:holding=move || is_min.get() class:idle=move || idle.get()
            on:click=move |_| { if let Some(src) = d.with_untracked(|x| x.as_ref().map(|x| x.source_subtask)) { pg.selection.set(Selection::Source(src)) } }>
            <th scope="row">{move || d.with(|x| x.as_ref().map(|x| format!("ch{}", x.channel)))}<MinMark on=is_min ahead=ahead /></th>
            <td>{move || input_name(snap, d.with(|x| x.as_ref().map(|x| (x.input, x.source_subtask))))}</td>
            <td>{move || d.with(|x| x.as_ref().map(|x| format!("src {}", snap.with(|s| s.source_subtask_name(x.source_subtask)))))}</td>
            <td class="mono">{move || d.with(|x| x.as_ref().map(|x| wm_human(x.watermark.ms(), x.now.ms())))}<span class="raw">{move || d.with(|x| x.as_ref().map(|x| wm_raw(x.watermark.ms())))}</span></td>
            // A real job's channel: its status, alignment and buffers are not in the REST API.
            <td class="status">{spoken(move || if live { "?" } else if idle.get() { "◌ IDLE" } else { "● ACTIVE" }.to_string())}</td>
            <td>{spoken(move || if live { "?" } else { d.with(|x| x.as_ref().map_or("", |x| if x.aligned { "✓" } else { "✗ not aligned" })) }.to_string())}</td>
            <td class="num">{move || if live { Some("?".to_string()) } else { d.with(|x| x.as_ref().map(|x| buffered(snap, x.buffered_records))) }}</td>
        </tr>
    }
}

/// Whether the explained window subtask's holder pushed its watermark ahead of processing time
/// (the tables' ◀ mark then says so); a real job's marks come from its metrics, not `explain`.
fn pushed_ahead(pg: Pg, reading: RwSignal<super::reading::Reading>) -> Memo<bool> {
    Memo::new(move |_| pg.live.is_none() && reading.with(super::reading::Reading::pushed_ahead))
}

/// A channel's buffered records, out of its credits when the job has a capacity limit (only
/// then can it fill up and back-pressure its source subtask).
fn buffered(snap: RwSignal<crate::engine::snapshot::Snapshot>, n: u64) -> String {
    snap.with(|s| match s.job.keyed_capacity_per_s {
        Some(_) => format!("{} / {}", thousands(n), thousands(s.job.channel_buffer_records)),
        None => thousands(n),
    })
}

/// The idle timeout of each source ("idle timeout 5 s", or per topic when they differ), and of
/// the chained watermark operators when they have their own.
fn idle_timeouts(pg: &Pg) -> String {
    if pg.live.is_some() {
        return "idle timeout: not in the REST API".into();
    }
    let t = |x: Option<i64>| x.map_or("off (Flink's default)".to_string(), dur);
    pg.cfg.with(|c| {
        let srcs: Vec<Option<i64>> = c.inputs.iter().map(|i| i.source.idle_timeout_ms).collect();
        let mut out = if srcs.windows(2).all(|w| w[0] == w[1]) {
            format!("idle timeout {}", t(srcs[0]))
        } else {
            c.inputs.iter().map(|i| format!("{}: idle timeout {}", i.topic, t(i.source.idle_timeout_ms))).collect::<Vec<_>>().join(" · ")
        };
        if let Some(m) = c.inputs.iter().find_map(|i| i.midstream) {
            out += &format!(" · chained {}: {}", super::graph_chained::flink_name(m.label()), t(m.idle_timeout_ms()));
        }
        out
    })
}

/// A channel's logical input: the topic its source reads (with "in1"/"in2" for a two-input
/// operator, whose inputs have a valve each; a union's channels share one valve).
fn input_name(snap: RwSignal<crate::engine::snapshot::Snapshot>, ch: Option<(usize, u32)>) -> String {
    let Some((input, src)) = ch else { return String::new() };
    snap.with(|s| {
        let source_input = s.sources.get(src as usize).map_or(0, |x| x.input as usize);
        let topic = s.job.topics.get(source_input).cloned().unwrap_or_default();
        match s.job.two_input_mode {
            Some(crate::engine::job::TwoInputMode::Connect) => format!("in{} {topic}", input + 1),
            _ => topic,
        }
    })
}

/// A two-input operator's inputs above its channels: each one's watermark ("input N watermark",
/// the playground's own view: Flink 2.3 reports only the minimum), idle, and the one that holds
/// the operator's watermark (◀ min, as in the graph).
#[component]
fn InputsStrip(focus: Memo<u32>, ahead: Memo<bool>, snap: RwSignal<crate::engine::snapshot::Snapshot>) -> impl IntoView {
    let pg = expect_context::<Pg>();
    let started = Memo::new(move |_| pg.live.is_some() || pg.reading_slow.with(super::reading::Reading::started));
    let inputs = Memo::new(move |_| {
        let f = focus.get();
        snap.with(|s| s.operators.get(f as usize).map(|o| (o.inputs.clone(), s.now.ms())).unwrap_or_default())
    });
    move || {
        let (list, now) = inputs.get();
        (!list.is_empty()).then(|| {
            let items = list
                .into_iter()
                .map(|i| {
                    let min = started.get() && i.is_min;
                    let wm = if i.idle { "◌ IDLE".to_string() } else { wm_human(i.watermark.ms(), now) };
                    view! {
                        <li class:holding=min class:idle=i.idle data-input=i.input title=format!("input {} watermark = {}; {PER_INPUT_NOTE}", i.input + 1, wm_raw(i.watermark.ms()))>
                            <b>{format!("input {} watermark", i.input + 1)}</b>{format!(" ({}) ", i.topic)}<span class="mono">{wm}</span>
                            <MinMark on=min ahead=ahead />
                        </li>
                    }
                })
                .collect_view();
            view! { <ul class="inputs-strip small" id=pg.dom_id("inputs-strip")>{items}</ul> }
        })
    }
}
