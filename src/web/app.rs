//! The application shell: header, preset card, graph and WHY side by side, the timeline, the
//! tables, and the controls drawer. Every panel has a fixed place and size, so nothing jumps
//! while the simulation runs.

use super::after_first_paint::{AfterFirstPaint, RenderAtOnce};
use super::controls::ControlsPanel;
use super::embed::EmbedLayout;
use super::emissions::{EmissionsLog, LatePanel};
use super::error_banner::Notices;
use super::explain::ExplainPanel;
use super::graph::JobGraph;
use super::header::Header;
use super::lesson_steps::LessonMode;
use super::joins_log::JoinsLog;
use super::keyboard::{self, HelpOverlay};
use super::link_problem::{LinkProblemDialog, LinkProblems};
use super::metrics::MetricsPanel;
use super::playback;
use super::presets::PresetCard;
use super::share::SharePanel;
use super::state::Pg;
use super::tables::{ChannelsTable, SplitsTable};
use super::theme::ThemeState;
use super::timeline::Timeline;
use super::embed_options::{EmbedOptions, Layout};
use super::host::{Hosted, Look};
use leptos::prelude::*;
use std::cell::RefCell;
use std::rc::Rc;

/// What the page's playground hands its caller (`mountPlayground` in `src/api/`): its state and,
/// for an embed, what its postMessage bridge needs.
pub struct PageStart {
    pub pg: Pg,
    pub embed: Option<EmbedPage>,
}

/// An `?embed=1` page: its options, its live look, and the origins its bridge answers.
pub struct EmbedPage {
    pub options: EmbedOptions,
    pub layout: Layout,
    pub look: Look,
    pub origins: Vec<String>,
}

/// Where [`App`] puts its [`PageStart`].
pub type PageSlot = Rc<RefCell<Option<PageStart>>>;

/// The playground with a fresh state (first preset, or the one in the URL); with `?embed=1`,
/// the embed layout (or the parameters' `layout`) with the parameters' presentation options.
#[component]
pub fn App(#[prop(optional)] started: Option<PageSlot>) -> impl IntoView {
    let pg = Pg::new();
    let zoom = super::url_state::TimelineZoom { span: RwSignal::new(None), end: RwSignal::new(None) };
    provide_context(zoom);
    let mut problems = Vec::new();
    let embed = super::share::load_from_query(&pg, &mut problems);
    super::share::load_from_location(&pg, &mut problems);
    super::share::start_from_query(&pg, &mut problems);
    let link = LinkProblems::provide(problems);
    super::url_state::follow(pg, zoom);
    // A pasted share link (only the #fragment changes) loads too, in the page's owner (for
    // the timeline zoom it restores).
    let owner = Owner::current();
    let handle = window_event_listener(leptos::ev::hashchange, move |ev| {
        // The fragment the change was to: the address may have been rewritten since (the
        // address follows the page a moment after each change, `url_state`).
        let new_url = ev.new_url();
        let fragment = new_url.split_once('#').map_or("", |(_, f)| f);
        // A link's state (`s=…`, `preset=…`), not an anchor such as `#top`.
        if pg.lesson.get_untracked() != LessonMode::Off && fragment.contains('=') {
            return super::lesson::leave_for_fragment(fragment);
        }
        let mut problems = Vec::new();
        match &owner {
            Some(o) => o.with(|| super::share::load_from_fragment(&pg, fragment, &mut problems)),
            None => super::share::load_from_fragment(&pg, fragment, &mut problems),
        }
        link.0.set(problems);
    });
    on_cleanup(move || handle.remove());
    let (layout, embed) = match embed {
        Some(q) => {
            let o = q.options;
            let look = Look::new(o.theme, o.controls, o.view, o.readonly);
            let layout = o.layout.unwrap_or(Layout::Embed);
            let v = view! { <Hosted pg=pg layout=layout full_url=o.full_url.clone() look=look page=true /> }.into_any();
            (v, Some(EmbedPage { options: o, layout, look, origins: q.origins }))
        }
        None => (view! { <Playground pg=pg /> }.into_any(), None),
    };
    if let Some(slot) = started {
        *slot.borrow_mut() = Some(PageStart { pg, embed });
    }
    view! { {layout} <LinkProblemDialog /> }
}

/// A new selection is explained at once, also while paused.
fn follow_selection(pg: Pg) {
    Effect::new(move |prev: Option<()>| {
        pg.selection.track();
        if prev.is_some() {
            pg.refresh();
        }
    });
}

/// The embed layout (~720×420) over a given state: no keyboard shortcuts (the host page owns
/// the keyboard) and no theme override (it follows the system).
#[component]
pub fn Embed(pg: Pg, #[prop(optional)] no_loop: bool) -> impl IntoView {
    provide_context(pg);
    follow_selection(pg);
    if !no_loop {
        playback::start_loop(pg);
    }
    view! { <EmbedLayout /> }
}

/// The playground over a given state (tests drive `pg` directly).
#[component]
pub fn Playground(pg: Pg, #[prop(optional)] no_loop: bool) -> impl IntoView {
    provide_context(pg);
    // A hosted playground brings its own (`host::Hosted`).
    if use_context::<ThemeState>().is_none() {
        provide_context(ThemeState::new());
    }
    let wide = web_sys::window().and_then(|w| w.inner_width().ok()).and_then(|v| v.as_f64()).unwrap_or(1280.0) >= 1500.0;
    let controls_open = RwSignal::new(wide);
    let help_open = RwSignal::new(false);
    keyboard::install(pg, help_open, controls_open);
    follow_selection(pg);
    if no_loop {
        provide_context(RenderAtOnce);
    } else {
        playback::start_loop(pg);
    }
    // A join job lists joined pairs where a window job lists its window emissions.
    let join_job = Memo::new(move |_| pg.cfg.with(|c| c.interval_join.is_some()));
    let drawer = super::host::drawer_offered();
    view! {
        <div class="app" class:with-controls=move || controls_open.get() && drawer() && pg.lesson.get() != LessonMode::Stage
            class:calm=move || pg.reading_slow.with(super::reading::Reading::calm)>
            <super::embed::HatchDefs />
            <Header controls_open=controls_open help_open=help_open />
            <Notices />
            <main class="main" id="main" on:focusin=move |ev| keep_above_sheet(&ev)>
                <super::lesson::LessonCard />
                <PresetCard />
                <div class="row graph-row">
                    <section class="card graph-card" part="graph" aria-labelledby="graph-h">
                        <header class="card-head">
                            <h2 id="graph-h">"Job graph"</h2>
                            <span class="legend small muted">
                                <span class="lg-idle">"idle"</span>" · "
                                <span class="lg-min"><span aria-hidden="true">"━ "</span>{move || super::graph::chain_role(&pg)}</span>" · dashed: No Watermark · ▮ fired · ✕ dropped"
                                <super::graph_flow_marks::FlowLegend />
                            </span>
                        </header>
                        <super::job_status::JobStatusStrip />
                        <JobGraph />
                    </section>
                    <ExplainPanel />
                </div>
                <AfterFirstPaint>
                <Timeline />
                <super::state_chart::StateCard />
                <SplitsTable />
                <div class="row two">
                    <ChannelsTable />
                    <LatePanel />
                </div>
                {move || if join_job.get() { view! { <JoinsLog /> }.into_any() } else { view! { <EmissionsLog /> }.into_any() }}
                <div class="row two">
                    <MetricsPanel />
                    <SharePanel />
                </div>
                <super::sql_panel::SqlPanel />
                <super::live::LiveCard />
                </AfterFirstPaint>
                // The release chosen in Controls: it said 2.3 while 1.19.1's switches ran.
                <footer class="footer muted small" data-testid="footer">
                    {move || {
                        pg.cfg.track();
                        let (release, _) = pg.base.with_value(|b| super::format::simulated_flink(&b.flink));
                        format!("Semantics of {release}, simulated deterministically in your browser. Processing time is simulated; see the README for what the model simplifies. Press ? for shortcuts.")
                    }}
                </footer>
            </main>
            <aside class="controls-drawer" id="controls-drawer" aria-labelledby="controls-h" class:hidden=move || !controls_open.get()>
                <div class="drawer-head">
                    <h2 id="controls-h">"Controls"</h2>
                    <button class="btn small" id="btn-controls-close" title="Close the controls (C)" aria-label="Close the controls"
                        on:click=move |_| super::header::close_controls(pg, controls_open)>"✕"</button>
                </div>
                <AfterFirstPaint><ControlsPanel /></AfterFirstPaint>
            </aside>
            <AfterFirstPaint><HelpOverlay open=help_open /></AfterFirstPaint>
        </div>
    }
}

/// Scrolls the page so that what the keyboard focused in it is not under the controls sheet
/// (up to 1000 px wide the drawer sticks to the bottom of the screen). The browser scrolls a
/// focused element just into the screen; CSS cannot make room for the sheet only at the page's
/// level (a scroll margin also applies in the tables' own scroll boxes, a scroll padding also
/// to the sheet's own controls), and an element's host page is out of its stylesheet's reach.
fn keep_above_sheet(ev: &web_sys::FocusEvent) {
    use wasm_bindgen::JsCast;
    let Some(el) = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
    let Some(sheet) = el.closest(".app.with-controls").ok().flatten().and_then(|a| a.query_selector(".controls-drawer").ok().flatten()) else {
        return;
    };
    let (r, s) = (el.get_bounding_client_rect(), sheet.get_bounding_client_rect());
    // Beside the page (wide screens) the drawer covers nothing of it.
    let covered = r.right() > s.left() && r.left() < s.right() && r.bottom() > s.top() && r.top() < s.bottom();
    if covered {
        // Its bottom above the sheet, but never its top off the screen.
        let by = (r.bottom() - s.top() + 8.0).min(r.top() - 8.0).max(0.0);
        if let Some(w) = web_sys::window() {
            w.scroll_by_with_x_and_y(0.0, by);
        }
    }
}
