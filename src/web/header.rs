//! The header: title, preset picker, transport (reset, step, play/pause, next interesting),
//! speed, the processing-time clock, and the toggles for controls, help and theme.

use super::format::{elapsed, speed as speed_label, wm_human};
use super::playback::SPEEDS;
use super::presets::PresetPicker;
use super::state::Pg;
use super::icons::{self, Icon, Svg};
use super::theme::ThemeToggle;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

#[component]
pub fn Header(controls_open: RwSignal<bool>, help_open: RwSignal<bool>) -> impl IntoView {
    let pg = expect_context::<Pg>();
    let clock = move || elapsed(pg.clock.get(), pg.cfg.with(|c| c.start_time.ms()));
    let utc = move || {
        let t = pg.clock.get();
        format!("{} UTC", wm_human(t, t))
    };
    let node = NodeRef::<leptos::html::Header>::new();
    track_height(pg, node);
    view! {
        <header class="app-header" part="header" node_ref=node>
            <div class="brand">
                <svg class="logo" viewBox="0 0 24 24" aria-hidden="true"><path d="M2 17 L8 11 L12 14 L20 5" /><path class="dash" d="M2 20 H22" /></svg>
                <h1 class="title">"Watermark Playground"</h1>
            </div>
            <PresetPicker />
            <div class="transport" role="group" aria-label="Playback">
                <button class="icon-btn" id="btn-reset" title="Reset to time zero (R)" aria-label="Reset" on:click=move |_| pg.reset()><Svg icon=Icon::Reset /></button>
                <button class="icon-btn" id="btn-step" title="Single step: the next engine instant (.)" aria-label="Step" on:click=move |_| pg.step_once()><Svg icon=Icon::Step /></button>
                <PlayButton />
                <button class="icon-btn" id="btn-next" title="Step to the next interesting change: a watermark moves, a window fires, a record is late, a status flips (N)"
                    aria-label="Step to next interesting change" on:click=move |_| pg.step_next_interesting()><Svg icon=Icon::Next /></button>
                <SpeedPicker />
            </div>
            <div class="clock" aria-live="off">
                <span class="mono big" id="clock" title="Processing time since the job started">{clock}</span>
                <span class="mono small muted">{utc}</span>
                <span class="small status-line" id="perf" data-fps=move || format!("{:.0}", pg.perf.fps.get())>
                    {move || match pg.perf.catching_up.get() {
                        Some(eff) => format!("⚠ catching up: {} of {}", speed_label((eff * 10.0).round() / 10.0), speed_label(pg.speed.get())),
                        None if pg.playing.get() => format!("{:.0} fps", pg.perf.fps.get()),
                        None => "paused".to_string(),
                    }}
                </span>
            </div>
            <div class="header-tools">
                <button class="btn" id="btn-controls" aria-controls="controls-drawer" aria-expanded=move || controls_open.get().to_string()
                    on:click=move |_| if controls_open.get_untracked() { close_controls(pg, controls_open) } else { open_controls(pg, controls_open) } title="Show or hide the controls (C)"><Svg icon=Icon::Gear />" Controls"</button>
                <button class="icon-btn" id="btn-share" aria-label="Share, export, import, code" title="Share, export, import, Java / SQL code"
                    on:click=move |_| reveal_share(pg)><Svg icon=Icon::Share /></button>
                <button class="icon-btn" id="btn-help" aria-label="Keyboard shortcuts" title="Keyboard shortcuts (?)" on:click=move |_| help_open.set(true)>"?"</button>
                <ThemeToggle />
            </div>
        </header>
    }
}

/// Keeps `--header-h` at the header's height: it wraps on narrow screens, and the controls
/// drawer sticks under it.
fn track_height(pg: Pg, node: NodeRef<leptos::html::Header>) {
    super::measure::on_resize(node, move |entry| {
        // The border box, as `offsetHeight` reads it.
        let border_box = entry.border_box_size().at(0).unchecked_into::<web_sys::ResizeObserverSize>();
        let h = format!("{}px", border_box.block_size().round());
        let Some(root) = pg.style_root().filter(|_| border_box.block_size() > 0.0) else { return };
        // Setting a custom property on the root restyles the whole page, even to the value it
        // had; the page is styled when observers run, so reading the current one is cheap.
        let current = web_sys::window().and_then(|w| w.get_computed_style(&root).ok().flatten());
        if current.is_none_or(|c| c.get_property_value("--header-h").ok().as_deref().map(str::trim) != Some(h.as_str())) {
            let _ = root.style().set_property("--header-h", &h);
        }
    });
}

/// Play / pause (the header's and the embed layout's).
#[component]
pub fn PlayButton() -> impl IntoView {
    let pg = expect_context::<Pg>();
    view! {
        <button class="icon-btn primary" id="btn-play" title="Play / pause (Space)"
            // A toggle keeps its name; "pressed" says it plays ("Pause, pressed" read as paused).
            aria-label="Play"
            aria-pressed=move || pg.playing.get().to_string()
            on:click=move |_| pg.toggle_play()>
            {icons::dynamic(move || if pg.playing.get() { Icon::Pause } else { Icon::Play })}
        </button>
    }
}

/// The speed picker (the header's and the embed layout's).
#[component]
pub fn SpeedPicker() -> impl IntoView {
    let pg = expect_context::<Pg>();
    view! {
        <label class="speed">
            <span class="sr-only">"Speed"</span>
            <select id="speed" aria-label="Speed" title="Processing time per wall-clock second (+ / −)"
                prop:value=move || pg.speed.get().to_string()
                on:change=move |ev| { if let Ok(v) = event_target_value(&ev).parse::<f64>() { pg.speed.set(v) } }>
                {SPEEDS.iter().map(|&s| view! { <option value=s.to_string()>{speed_label(s)}</option> }).collect_view()}
            </select>
        </label>
    }
}

/// Scrolls to the Share card and moves focus there. A button, not a `#share` link: a link would
/// rewrite the host page's address when embedded, and find nothing inside a shadow root.
fn reveal_share(pg: Pg) {
    if let Some(card) = pg.query("#share").and_then(|c| c.dyn_into::<web_sys::HtmlElement>().ok()) {
        let _ = card.focus();
        // Its top, below the sticky header (`scroll-margin-top`): focus alone shows a card
        // taller than the screen from wherever it is nearest. Once more after the cards it
        // passed (`content-visibility: auto`, sized by estimate until drawn) have their real
        // height: on a phone the first scroll ended 380 px off.
        card.scroll_into_view();
        set_timeout(move || card.scroll_into_view(), std::time::Duration::from_millis(100));
    }
}

/// Opens the controls drawer and moves the focus into it, to its ✕ (the next Tab is its first
/// field): it comes after the whole page in the Tab order, so on a phone or a tablet, where it
/// is a sheet at the bottom of the screen, the keyboard had to cross the page to reach it.
/// Without scrolling: the sheet, or the drawer beside the page, is in view.
pub fn open_controls(pg: Pg, open: RwSignal<bool>) {
    open.set(true);
    request_animation_frame(move || {
        if let Some(b) = pg.query("#btn-controls-close").and_then(|b| b.dyn_into::<web_sys::HtmlElement>().ok()) {
            let opts = web_sys::FocusOptions::new();
            opts.set_prevent_scroll(true);
            let _ = b.focus_with_options(&opts);
        }
    });
}

/// Whether the focus is in the controls drawer.
pub fn focus_in_drawer() -> bool {
    super::host::active_element().is_some_and(|a| a.closest(".controls-drawer").ok().flatten().is_some())
}

/// Closes the controls drawer. If the focus was in it (its ✕, or a control when `C` closed it),
/// it goes back to the header's Controls button, without scrolling to it: on a phone the header
/// has scrolled away while the drawer sticks below.
pub fn close_controls(pg: Pg, open: RwSignal<bool>) {
    let inside = focus_in_drawer();
    open.set(false);
    let button = pg.query("#btn-controls").and_then(|b| b.dyn_into::<web_sys::HtmlElement>().ok());
    if let (true, Some(b)) = (inside, button) {
        let opts = web_sys::FocusOptions::new();
        opts.set_prevent_scroll(true);
        let _ = b.focus_with_options(&opts);
    }
}
