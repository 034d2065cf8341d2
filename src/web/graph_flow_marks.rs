//! The job graph's flow marks (issue 13): a source subtask's back-pressure badge (OK / LOW /
//! HIGH in the Web UI's colours, with `backPressuredTimeMsPerSecond`), the pause badge on a split
//! that split alignment paused (drawn on its edge, where the reader stopped taking from it), a
//! keyed subtask's busy time and input buffers, and their legend. Shown only when the job can be
//! back-pressured (a capacity limit, or a real job that reports back-pressure) or is aligned;
//! positions come from `graph_layout`, the data from `graph_flow`, the snapshot and
//! [`Pg::with_flow`].

use super::format::{thousands, wm_human, wm_raw};
use super::graph_flow::{bp_label, channel_fills, fills_title, flow_limited, gauges_svg, level_class};
use super::graph_layout::{Layout, O_W, S_W};
use super::state::Pg;
use leptos::prelude::*;

/// Width of the back-pressure badge in a source subtask's top right corner.
const BADGE_W: f64 = 32.0;

/// Which flow marks the job can show, from its configuration (changed by a restart or a live
/// capacity): the graph's nodes mount their marks only then, so that a job without flow control
/// (the 64-partition bench) has no extra subscribers on the snapshot.
#[derive(Clone, Copy)]
pub struct FlowOn {
    /// A capacity limit: back-pressure, busy time, buffers.
    pub limited: Memo<bool>,
    /// Watermark alignment on some source.
    pub aligned: Memo<bool>,
}

impl FlowOn {
    /// Of the playground `pg`. A real job (the live card's copy) shows back-pressure when its
    /// metrics report it, never alignment (not in the REST API).
    pub fn of(pg: Pg) -> Self {
        let sim = pg.live.is_none();
        let limited = Memo::new(move |_| pg.snap.with(flow_limited));
        let aligned = Memo::new(move |_| sim && pg.cfg.with(|c| c.aligned()));
        FlowOn { limited, aligned }
    }

    /// Puts it in the context of the job graph's nodes.
    pub fn provide(pg: Pg) {
        provide_context(FlowOn::of(pg));
    }
}

/// [`BpBadgeShown`] when the job has a capacity limit.
#[component]
pub fn BpBadge(s: u32, lay: Memo<Layout>) -> impl IntoView {
    let on = expect_context::<FlowOn>();
    move || on.limited.get().then(|| view! { <BpBadgeShown s=s lay=lay /> })
}

/// [`PauseBadgeShown`] when the job is aligned.
#[component]
pub fn PauseBadge(p: u32, lay: Memo<Layout>) -> impl IntoView {
    let on = expect_context::<FlowOn>();
    move || on.aligned.get().then(|| view! { <PauseBadgeShown p=p lay=lay /> })
}

/// [`FlowLineShown`] when the job has a capacity limit.
#[component]
pub fn FlowLine(o: u32, lay: Memo<Layout>) -> impl IntoView {
    let on = expect_context::<FlowOn>();
    move || on.limited.get().then(|| view! { <FlowLineShown o=o lay=lay /> })
}

/// A source subtask's back-pressure level, as Flink's Web UI colours it, with the time per
/// second it spent back-pressured in its title (nothing without a capacity limit).
#[component]
fn BpBadgeShown(s: u32, lay: Memo<Layout>) -> impl IntoView {
    let pg = expect_context::<Pg>();
    let mark = Memo::new(move |_| {
        let lvl = pg.snap.with(|sn| flow_limited(sn).then(|| sn.sources.get(s as usize).map(|v| v.back_pressure_level)).flatten())?;
        // A subtask that does not report it gets no mark: unknown is not OK.
        Some((lvl, pg.with_flow(|r| r.back_pressured(s))?))
    });
    let geo = Memo::new(move |_| lay.with(|l| (l.s_x + S_W - 4.0 - BADGE_W, l.s_y.get(s as usize).copied().unwrap_or(0.0) - l.s_h / 2.0 + 4.0)));
    let label = move || mark.get().map(|(l, ms)| bp_label(l, Some(ms))).unwrap_or_default();
    view! {
        <g class=move || format!("bp-badge {}", mark.get().map_or("", |(l, _)| level_class(l)))
            class:hidden=move || mark.with(Option::is_none)
            data-bp-level=move || mark.get().map_or("", |(l, _)| l.ui_name())
            role="img" aria-label=label>
            <title>{label}</title>
            <rect x=move || geo.get().0 y=move || geo.get().1 width=BADGE_W height="13" rx="6.5" />
            <text x=move || geo.get().0 + BADGE_W / 2.0 y=move || geo.get().1 + 9.8 text-anchor="middle">
                {move || mark.get().map_or("", |(l, _)| l.ui_name())}
            </text>
        </g>
    }
}

/// The pause badge (two bars, drawn) on a split's edge while split alignment pauses it, with the group's max allowed
/// watermark in its title.
#[component]
fn PauseBadgeShown(p: u32, lay: Memo<Layout>) -> impl IntoView {
    let pg = expect_context::<Pg>();
    // (paused, the owning source subtask's last announced max allowed watermark, now)
    let state = Memo::new(move |_| {
        pg.snap.with(|sn| {
            let split = sn.splits.get(p as usize).filter(|x| x.paused && !x.released)?;
            let max = split.subtask.and_then(|t| sn.sources.get(t as usize)).and_then(|v| v.alignment.as_ref()).map(|a| a.max_allowed.ms());
            Some((max, sn.now.ms()))
        })
    });
    let geo = Memo::new(move |_| lay.with(|l| (l.p_x + l.p_w + 2.0, l.p_y.get(p as usize).copied().unwrap_or(0.0), (l.p_h - 4.0).max(10.0))));
    let title = move || {
        state.get().map_or(String::new(), |(max, now)| match max {
            Some(m) => format!("paused by split alignment: its watermark is past the group's max allowed {} ({})", wm_human(m, now), wm_raw(m)),
            None => "paused by split alignment".to_string(),
        })
    };
    let bars = move || {
        let (x, y, _) = geo.get();
        format!("M{:.1},{:.1}h2v7h-2zM{:.1},{:.1}h2v7h-2z", x + 3.0, y - 3.5, x + 7.0, y - 3.5)
    };
    view! {
        <g class="pause-badge" class:hidden=move || state.with(Option::is_none) data-paused=p role="img" aria-label=title>
            <title>{title}</title>
            <rect x=move || geo.get().0 y=move || geo.get().1 - geo.get().2 / 2.0 width="12" height=move || geo.get().2 rx="3" />
            <path class="glyph" d=bars />
        </g>
    }
}

/// A keyed subtask's last line with a capacity limit: `busyTimeMsPerSecond` and one gauge per
/// input channel, filled by its buffered records out of its credits.
#[component]
fn FlowLineShown(o: u32, lay: Memo<Layout>) -> impl IntoView {
    let pg = expect_context::<Pg>();
    let busy = Memo::new(move |_| pg.with_flow(|r| r.busy(o)));
    let fills = Memo::new(move |_| pg.snap.with(|sn| channel_fills(sn, o)));
    // The line's baseline, at the bottom of the node.
    let geo = Memo::new(move |_| lay.with(|l| (l.o_x, l.o_y.get(o as usize).copied().unwrap_or(0.0) + l.o_h / 2.0 - 7.0)));
    let gauges = move || fills.with(|f| {
        let (x, y) = geo.get();
        gauges_svg(f, x + 104.0, y - 8.0, O_W - 104.0 - 8.0, 9.0)
    });
    let busy_text = move || busy.get().map_or_else(|| "?".to_string(), |ms| thousands(ms.max(0) as u64));
    // A real job reports no per-channel buffers.
    let buffers = move || if pg.live.is_some() { "input buffers per channel: not in the REST API".to_string() } else { fills.with(|f| fills_title(f)) };
    view! {
        <g class="flow-line" data-busy=move || busy.get().map_or_else(String::new, |ms| ms.to_string())>
            <title>{move || format!("busyTimeMsPerSecond: {}\n{}", busy_text(), buffers())}</title>
            <text class="mono busy" x=move || geo.get().0 + 8.0 y=move || geo.get().1>{move || format!("busy {} ms/s", busy_text())}</text>
            <g class="gauges" inner_html=gauges></g>
        </g>
    }
}

/// The legend entries for flow marks, in the graph card's head: the Web UI's back-pressure
/// colours when the job has a capacity limit, the pause badge when it is aligned.
#[component]
pub fn FlowLegend() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let sim = pg.live.is_none();
    // The legend sits in the card's head, outside the graph that provides the nodes' copy.
    let FlowOn { limited, aligned } = FlowOn::of(pg);
    view! {
        <span class="lg-bp" class:hidden=move || !limited.get()
            title=move || format!("Flink Web UI back-pressure of a source subtask: OK ≤ 10 %, LOW ≤ 50 %, HIGH > 50 % of its time back-pressured (backPressuredTimeMsPerSecond, a 60 s average updated every 5 s){}", if sim { "; the gauges in a window subtask: each input channel's buffered records out of its credits" } else { "" })>
            "back-pressure "<i class="sw bp-ok">"OK"</i><i class="sw bp-low">"LOW"</i><i class="sw bp-high">"HIGH"</i>{sim.then_some(" ▮ buffers")}
        </span>
        <span class="lg-pause" class:hidden=move || !aligned.get()><i class="sw-pause">"‖"</i>" paused by alignment"</span>
    }
}
