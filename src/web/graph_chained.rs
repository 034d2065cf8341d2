//! A watermark operator chained after a source subtask, in the job graph's column between the
//! source subtasks and the exchange: DataStream's mid-stream `assignTimestampsAndWatermarks`
//! (Flink names the operator "Timestamps/Watermarks") or SQL's `WatermarkAssigner`. It shows its
//! own output watermark and idle state; the source subtask to its left keeps showing the
//! source's. The two disagreeing — the source IDLE, the operator after it active — is what the
//! mid-stream preset is about, so both stay visible side by side. Clicking it explains the
//! source subtask it belongs to (the WHY panel names the operator).

use super::format::{wm_human, wm_raw};
use super::graph_layout::{Layout, M_W, S_H};
use super::reading::Chain;
use super::rows::source_memo;
use super::state::{Pg, Selection};
use leptos::prelude::*;

#[component]
pub fn ChainedNode(s: u32, lay: Memo<Layout>, chain: Memo<Chain>) -> impl IntoView {
    let pg = expect_context::<Pg>();
    let d = source_memo(pg.snap, s);
    let geo = Memo::new(move |_| lay.with(|l| (l.m_x.unwrap_or(0.0), l.s_y.get(s as usize).copied().unwrap_or(0.0) - S_H / 2.0)));
    let x = move || geo.get().0;
    let y = move || geo.get().1;
    let m = Memo::new(move |_| d.with(|v| v.as_ref().and_then(|v| v.midstream.clone().map(|m| (m, v.now)))));
    let name = move || m.with(|m| m.as_ref().map_or("", |(m, _)| flink_name(&m.operator)));
    let src_name = super::rows::source_name_memo(pg.snap, s);
    let class = move || {
        let (idle, wm) = m.with(|m| m.as_ref().map_or((false, 0), |(m, _)| (m.idle, m.output_watermark.ms())));
        let selected = pg.selection.with(|sel| *sel == Selection::Source(s));
        super::graph::node_class("node chained", idle, wm, (chain.with(|c| c.1) == Some(s)).then_some(" holding"), selected)
    };
    let line2 = move || m.with(|m| m.as_ref().map(|(m, now)| wm_human(m.output_watermark.ms(), now.ms())));
    // Its state in words on a line of its own: the contrast with the source's IDLE is the point.
    let line3 = move || m.with(|m| m.as_ref().map(|(m, _)| if m.idle { "◌ IDLE" } else { "● ACTIVE" }));
    let raw = move || m.with(|m| m.as_ref().map_or(String::new(), |(m, _)| wm_raw(m.output_watermark.ms())));
    view! {
        <g class=class data-chained=s tabindex="-1" role="button" aria-label=move || format!("{} after source subtask {}: {}, watermark {}; press Enter to explain", name(), src_name.with(|n| n.0.clone()), m.with(|m| if m.as_ref().is_some_and(|(m, _)| m.idle) { "idle" } else { "active" }), line2().unwrap_or_default())>
            <title>{move || format!(
                "{} chained after source subtask {}: its own watermark and idle state replace the source's (the source's are on the left); click to explain",
                m.with(|m| m.as_ref().map_or(String::new(), |(m, _)| m.operator.clone())),
                src_name.with(|n| n.0.clone())
            )}</title>
            <rect class="box" x=x y=y width=M_W height=S_H rx="6" />
            <text class="name" x=move || x() + 8.0 y=move || y() + 14.0>{name}</text>
            <text class="mono wm" x=move || x() + 8.0 y=move || y() + 27.0><title>{raw}</title>{line2}</text>
            <text class="state" x=move || x() + 8.0 y=move || y() + 39.0>{line3}</text>
        </g>
    }
}

/// The operator's name in Flink's job graph.
pub fn flink_name(operator: &str) -> &'static str {
    if operator.starts_with("SQL") {
        "WatermarkAssigner"
    } else {
        "Timestamps/Watermarks"
    }
}
