//! A keyed subtask in the job graph: a window subtask or an interval join subtask, with its
//! `currentInputWatermark` (human, raw, lag). With two inputs (`connect`, interval join) it
//! also shows each input's watermark on a line of its own (the playground's per-input view:
//! Flink 2.3 reports only the minimum), each beside the port its channels enter, and the input
//! that holds the operator's watermark gets the graph's one "holds the watermark" mark (thick
//! orange port, ◀ min) — as a channel would with one input.
//! A union's subtask has one port: the valve that covers both sources' channels.

use super::format::{node_holds, node_name_line, raw_and_lag, thousands, wm_human, wm_raw, NODE_LINE_CHARS, PER_INPUT_NOTE, UNKNOWN_WM};
use super::graph_layout::{Layout, Ports, COUNTS_Y, COUNTS_Y_DENSE, O_W, PORT_W};
use super::reading::Chain;
use super::rows::op_memo;
use super::state::{Pg, Selection};
use crate::engine::time::NO_WATERMARK;
use leptos::prelude::*;

#[component]
pub fn OperatorNode(o: u32, lay: Memo<Layout>, chain: Memo<Chain>) -> impl IntoView {
    let pg = expect_context::<Pg>();
    let d = op_memo(pg.snap, o);
    let geo = Memo::new(move |_| lay.with(|l| (l.o_x, l.o_y.get(o as usize).copied().unwrap_or(0.0) - l.o_h / 2.0, l.o_h, l.ports)));
    let x = move || geo.get().0;
    let y = move || geo.get().1;
    let join = Memo::new(move |_| pg.live.is_none() && pg.cfg.with(|c| c.interval_join.is_some()));
    let class = move || {
        let (idle, wm) = d.with(|v| v.as_ref().map_or((false, 0), |v| (v.idle, v.input_watermark.ms())));
        let selected = pg.selection.with(|sel| matches!(sel, Selection::Operator(x) if *x == o));
        super::graph::node_class("node op", idle, wm, (chain.with(|c| c.0) == Some(o)).then_some(" focus"), selected)
    };
    let head = move |idle: bool| format!("{} {o}{}", if join.get() { "join" } else { "win" }, if idle { " · IDLE" } else { "" });
    let line1 = move || {
        d.with(|v| {
            v.as_ref().map(|v| {
                let noun = match v.join_buffered {
                    Some(_) => "buffered",
                    // (key, window) states, scaled with the keys (× record_scale): "open"
                    // read as open windows, which the findings count per key, unscaled. The
                    // attempt's entries: none while the job is down, as the TaskManagers say.
                    None if v.state_entries == 1 => "state",
                    None => "states",
                };
                if v.state_entries > 0 {
                    node_name_line(&head(v.idle), v.state_entries, noun)
                } else {
                    head(v.idle)
                }
            })
        })
    };
    let line2 = move || d.with(|v| v.as_ref().map(|v| wm_human(v.input_watermark.ms(), v.now.ms())));
    // Dense: the watermark on the name's line, the raw value and lag in the title.
    let dense = Memo::new(move |_| lay.with(|l| l.dense));
    let name_line = move || {
        if dense.get() {
            d.with(|v| v.as_ref().map(|v| head(v.idle)))
        } else {
            line1()
        }
    };
    // The raw value and the lag, in at most `max_chars` (the node's line, or the title's whole).
    let line3 = move |max_chars: usize| {
        d.with(|v| {
            v.as_ref().map(|v| {
                let w = v.input_watermark.ms();
                if w == NO_WATERMARK.ms() || w == i64::MAX || w == UNKNOWN_WM {
                    wm_raw(w)
                } else {
                    raw_and_lag(&wm_raw(w), v.now.ms() - w, max_chars)
                }
            })
        })
    };
    let counts = counts_memo(pg, o);
    let live = pg.live.is_some();
    let line4 = move || if live { live_counts_line(pg, o) } else { counts_line(counts.get(), join.get()) };
    // The count the name line may give short, in full ("; 123,456 records buffered").
    let holds = move |sep: &str| {
        d.with(|v| v.as_ref().filter(|v| v.state_entries > 0).map(|v| format!("{sep}{}", node_holds(v.state_entries, v.join_buffered.is_some()))))
            .unwrap_or_default()
    };
    let title = move || {
        if live {
            format!("subtask {o} ({}): currentInputWatermark, the minimum over its input channels as Flink reports it; the channels' own watermarks are not in the REST API", line3(usize::MAX).unwrap_or_default())
        } else if geo.with(|g| g.3 == Ports::TwoInputs) {
            format!("{} subtask {o}: a two-input operator; its watermark is the minimum of the input 1 and input 2 watermarks over the inputs that are not idle (Flink's currentInputWatermark metric is the minimum of both, idle or not){}; click to explain why", if join.get() { "interval join" } else { "window" }, holds("; "))
        } else {
            let raw = line3(usize::MAX).unwrap_or_default();
            format!("window subtask {o} ({raw}): currentInputWatermark is the minimum over its active, aligned input channels{}; click to explain why", holds("; "))
        }
    };
    view! {
        <g class=class data-operator=o tabindex="-1" role="button" aria-label=move || {
            let wm = d.with(|v| v.as_ref().map(|v| wm_human(v.input_watermark.ms(), v.now.ms())).unwrap_or_default());
            if live {
                return format!("Subtask {o} of {}: input watermark {wm}, {}; press Enter to select it", pg.live.map_or_else(String::new, |l| l.with(|g| g.keyed_name.clone().unwrap_or_default())), live_counts_line(pg, o).0);
            }
            let (out, dropped, side) = counts.get();
            let what = if join.get() { "pairs joined" } else { "windows fired" };
            format!("{} subtask {o}: watermark {wm}, {out} {what}, {dropped} late records dropped, {side} to side output{}; press Enter to explain", if join.get() { "Interval join" } else { "Window" }, holds(", "))
        }>
            <title>{title}</title>
            <rect class="box" x=x y=y width=O_W height=move || geo.get().2 rx="6" />
            <text class="name" x=move || x() + 8.0 y=move || y() + 15.0>{name_line}</text>
            <text class="mono wm" x=move || x() + if dense.get() { O_W - 8.0 } else { 8.0 } y=move || y() + if dense.get() { 15.0 } else { 31.0 }
                text-anchor=move || if dense.get() { "end" } else { "start" }>{line2}</text>
            <text class="mono raw" class:hidden=move || dense.get() x=move || x() + 8.0 y=move || y() + 46.0>{move || line3(NODE_LINE_CHARS)}</text>
            <text class="counts" x=move || x() + 8.0 y=move || y() + if dense.get() { COUNTS_Y_DENSE } else { COUNTS_Y }>
                <tspan class="fired">{move || line4().0}</tspan>
                <tspan class=move || { if counts.get().1 > 0 { "dropped some" } else { "dropped" } }>{move || line4().1}</tspan>
            </text>
            <super::graph_flow_marks::FlowLine o=o lay=lay />
            {move || match geo.get().3 {
                Ports::Direct => ().into_any(),
                Ports::Valve => view! { <Valve o=o lay=lay /> }.into_any(),
                Ports::TwoInputs => view! { <InputPort o=o input=0 lay=lay /><InputPort o=o input=1 lay=lay /> }.into_any(),
            }}
        </g>
    }
}

/// A union's one valve: both sources' channels enter it, it hands one watermark on.
#[component]
fn Valve(o: u32, lay: Memo<Layout>) -> impl IntoView {
    let geo = Memo::new(move |_| lay.with(|l| (l.o_x, l.o_y.get(o as usize).copied().unwrap_or(0.0))));
    view! {
        <g class="port valve">
            <title>"union: one StatusWatermarkValve over the channels of both sources (an idle channel is left out; a returning one waits until it catches up)"</title>
            <rect class="port-box" x=move || geo.get().0 - PORT_W y=move || geo.get().1 - 11.0 width=PORT_W height="22" rx="3" />
            <path class="port-bar" d=move || { let (x, y) = geo.get(); format!("M{:.1},{:.1}v12", x - PORT_W / 2.0, y - 6.0) } />
        </g>
    }
}

/// One input of a two-input operator: its port (where its channels enter) and its line in the
/// node, `inN topic  watermark`, marked when it holds the watermark.
#[component]
fn InputPort(o: u32, input: usize, lay: Memo<Layout>) -> impl IntoView {
    let pg = expect_context::<Pg>();
    let d = Memo::new(move |_| pg.snap.with(|s| s.operators.get(o as usize).and_then(|v| v.inputs.get(input).cloned()).map(|i| (i, s.now))));
    // Before anything is read nothing is named as holding the minimum (one diagnosis rule).
    let started = Memo::new(move |_| super::graph::started(&pg));
    let is_min = Memo::new(move |_| started.get() && d.with(|v| v.as_ref().is_some_and(|(i, _)| i.is_min)));
    let idle = Memo::new(move |_| d.with(|v| v.as_ref().is_some_and(|(i, _)| i.idle)));
    let geo = Memo::new(move |_| lay.with(|l| (l.o_x, l.port_y(o, input).unwrap_or(0.0))));
    let text = move || {
        d.with(|v| {
            v.as_ref().map(|(i, now)| {
                let wm = if i.idle { "IDLE".to_string() } else { wm_human(i.watermark.ms(), now.ms()) };
                // The port beside it says which input; ◀ marks the one holding the minimum.
                format!("{} {wm}{}", short(&i.topic), if is_min.get() { " ◀" } else { "" })
            })
        })
    };
    let title = move || {
        d.with(|v| {
            v.as_ref().map_or(String::new(), |(i, _)| {
                format!(
                    "input {} watermark ({}): {}{}; {PER_INPUT_NOTE}",
                    input + 1,
                    i.topic,
                    wm_raw(i.watermark.ms()),
                    if i.idle {
                        " — idle: left out of the minimum"
                    } else if is_min.get() && super::graph::pushed_ahead(&pg) {
                        " — pushed the operator's watermark ahead"
                    } else if is_min.get() {
                        " — holds the operator's watermark"
                    } else {
                        ""
                    }
                )
            })
        })
    };
    view! {
        <g class="port input" class:holding=move || is_min.get() class:idle=move || idle.get() data-input=input>
            <title>{title}</title>
            <rect class="port-box" x=move || geo.get().0 - PORT_W y=move || geo.get().1 - 6.0 width=PORT_W height="12" rx="2" />
            <text class="port-num" x=move || geo.get().0 - PORT_W / 2.0 y=move || geo.get().1 + 3.5 text-anchor="middle">{(input + 1).to_string()}</text>
            <text class="mono in-line" x=move || geo.get().0 + 8.0 y=move || geo.get().1 + 3.5>{text}</text>
        </g>
    }
}

/// A topic name cut to fit the input's line beside its watermark.
fn short(topic: &str) -> String {
    if topic.chars().count() <= 8 {
        topic.to_string()
    } else {
        format!("{}…", topic.chars().take(7).collect::<String>())
    }
}

/// A real job's keyed subtask: `numRecordsOut` (`?` when not reported); late records are not
/// read from the REST API.
fn live_counts_line(pg: Pg, o: u32) -> (String, String) {
    let out = pg.live.and_then(|l| l.with(|g| g.keyed_records_out.get(o as usize).copied().flatten()));
    (format!("▮ {} out", out.map_or_else(|| "?".to_string(), |n| thousands(n.max(0) as u64))), String::new())
}

/// A keyed subtask's results and late records so far (`numRecordsOut`,
/// `numLateRecordsDropped`, `numLateRecordsSideOutput`), read with the graph's snapshot.
fn counts_memo(pg: Pg, o: u32) -> Memo<(u64, u64, u64)> {
    Memo::new(move |_| {
        pg.snap.track();
        if pg.live.is_some() {
            return (0, 0, 0);
        }
        pg.with_sim(|s| {
            s.downstream().windows.get(o as usize).map_or((0, 0, 0), |w| (w.num_records_out, w.num_late_records_dropped, w.num_late_records_side_output))
        })
    })
}

/// The counts line as the node shows it: "▮ 12 fired" and "✕ 3 dropped" (or "○ 3 to side
/// output" when late records go to a side output; a join emits pairs).
pub fn counts_line((out, dropped, side): (u64, u64, u64), join: bool) -> (String, String) {
    let fired = if join { format!("▮ {} pairs", thousands(out)) } else { format!("▮ {} fired", thousands(out)) };
    let late = if side > 0 { format!("  ○ {} side output", thousands(side)) } else { format!("  ✕ {} dropped", thousands(dropped)) };
    (fired, late)
}
