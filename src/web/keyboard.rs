//! Keyboard shortcuts and the `?` dialog that lists them. A focused control keeps its own keys:
//! fields (text, select, slider) get every key, buttons (tabs and the graph's nodes too) and
//! links their Space, Enter and arrows (Space presses the focused button, it does not toggle
//! play) while letters, digits and `?` stay shortcuts there; a box that is a Tab stop only to be
//! scrolled (the WHY panel, a table) its arrows, and its Space when it was reached with the
//! keyboard. Escape closes the dialog, which is modal (`modal`).

use super::playback::{faster, slower};
use super::state::Pg;
use super::theme::ThemeState;
use crate::engine::scenario::catalog;
use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// (keys, what they do), as the overlay lists them.
pub const SHORTCUTS: &[(&str, &str)] = &[
    ("Space / K", "play / pause (Space on a focused button presses it)"),
    (". / →", "single step (next engine instant; → when no control has focus)"),
    ("N", "step to the next interesting change"),
    ("+ / −", "faster / slower"),
    ("R", "reset to time zero"),
    ("1 … 9", "load preset 1 … 9"),
    (SHIFTED_PRESETS, "load preset 10 … (Shift + the digit key)"),
    ("C", "show / hide the controls"),
    ("T", "theme: auto → light → dark"),
    ("?", "this help"),
    ("Esc", "close this help, clear the selection"),
    ("Ctrl / ⌘ + Enter", "in the FLINK SQL box: apply the SQL (restarts the scenario)"),
];

/// The shortcut row of presets 10 and on, whose keys and text say how many there are.
const SHIFTED_PRESETS: &str = "⇧0 … ";

/// A row of the help as shown: the shifted digits name the last preset they load.
fn shortcut_row(key: &str, what: &str) -> (String, String) {
    let n = catalog::presets().len();
    if key != SHIFTED_PRESETS || n < 10 {
        return (key.to_string(), what.to_string());
    }
    let last = n.min(19);
    (format!("⇧0 … ⇧{}", last - 10), format!("load preset 10 … {last} (Shift + the digit key)"))
}

/// Controls that own every key: typing, choosing, sliding. Not tabs or the job graph's nodes:
/// they are buttons, which own Space, Enter and the arrows; `?` did nothing on them.
const FIELDS: &str = "input, select, textarea, [contenteditable]:not([contenteditable='false']), [role=slider], [role=spinbutton], \
     [role=textbox], [role=combobox], [role=listbox], [role=menuitem]";
/// Controls that own Space, Enter and the arrows, to press them: buttons and links.
const PRESSABLE: &str = "button, a[href], summary, [role=button], [role=link], [role=checkbox], [role=switch]";
/// Anything else in the Tab order owns them to scroll (the WHY panel, a table's box), but the
/// job graph and the timeline themselves: focused, they take the arrows they use (`graph_keys`,
/// `timeline_keys`, which stop them here) and leave every other key to the shortcuts.
const SCROLLABLE: &str = "[tabindex]:not([tabindex^='-']):not(svg.graph):not(.timeline-wrap)";

/// The event's own target: inside a shadow root `target()` is the host element.
fn target_element(ev: &web_sys::Event) -> Option<web_sys::Element> {
    ev.composed_path().get(0).dyn_into::<web_sys::Element>().ok().or_else(|| ev.target().and_then(|t| t.dyn_into().ok()))
}

/// Whether the key belongs to the focused control rather than to the shortcuts. With nothing
/// focused the target is <body> (or <main>), which owns no key. `by_keyboard`: how the focused
/// element was reached ([`FocusedBy`]); a box clicked to read it leaves Space to play / pause
/// (it scrolled the WHY panel instead), the arrows still scroll it, as on any page.
fn owned_by_control(ev: &web_sys::KeyboardEvent, by_keyboard: bool) -> bool {
    let Some(el) = target_element(ev) else { return false };
    let is = |sel: &str| el.closest(sel).ok().flatten().is_some();
    let key = ev.key();
    let own = matches!(key.as_str(), " " | "Enter" | "ArrowLeft" | "ArrowRight" | "ArrowUp" | "ArrowDown");
    is(FIELDS) || (own && (is(PRESSABLE) || (is(SCROLLABLE) && (key != " " || by_keyboard))))
}

/// Whether the element focused last was reached from the keyboard (`:focus-visible` when it got
/// the focus), not by a click on its text. Asked at the key it is no answer: Chromium makes any
/// focus visible as a key goes down, before the page hears it.
#[derive(Clone, Copy)]
struct FocusedBy(StoredValue<bool>);

impl FocusedBy {
    /// Follows the focus as it moves (until the view is gone).
    fn follow() -> Self {
        let by_keyboard = StoredValue::new(true);
        let handle = window_event_listener(ev::focusin, move |e| {
            by_keyboard.set_value(target_element(&e).is_none_or(|el| el.matches(":focus-visible").unwrap_or(true)));
        });
        // A click on a box that already has the focus moves no focus: it is read by pointer now.
        let pointer = window_event_listener(ev::pointerdown, move |_| by_keyboard.set_value(false));
        on_cleanup(move || {
            handle.remove();
            pointer.remove();
        });
        FocusedBy(by_keyboard)
    }

    fn keyboard(self) -> bool {
        self.0.get_value()
    }
}

/// What the shortcuts act on.
#[derive(Clone, Copy)]
struct Keys {
    pg: Pg,
    help_open: RwSignal<bool>,
    controls_open: RwSignal<bool>,
    theme: ThemeState,
    /// A read-only playground keeps its scenario: the preset keys do nothing there.
    read_only: Signal<bool>,
    /// Without the drawer (read-only, `controls` minimal or none), C does nothing.
    drawer: Signal<bool>,
}

impl Keys {
    /// Acts on one key (typing and modifiers already ruled out); returns whether it was a
    /// shortcut, so that the browser's own action is prevented only then.
    fn press(self, key: &str) -> bool {
        let pg = self.pg;
        // The page hides what a lesson's step does not leave to the reader: so do its keys.
        if pg.lesson.get_untracked().ignores_key(key) {
            return false;
        }
        match key {
            " " | "k" => pg.toggle_play(),
            "." | "ArrowRight" => pg.step_once(),
            "n" | "N" => pg.step_next_interesting(),
            "+" | "=" => pg.speed.update(|s| *s = faster(*s)),
            "-" | "_" => pg.speed.update(|s| *s = slower(*s)),
            "r" | "R" => pg.reset(),
            "c" | "C" => return self.toggle_controls(),
            "t" | "T" => self.theme.cycle(),
            "?" => self.help_open.update(|o| *o = !*o),
            _ if self.read_only.get_untracked() => return false,
            k if k.len() == 1 && k.as_bytes()[0].is_ascii_digit() && k != "0" => self.load_preset((k.as_bytes()[0] - b'1') as usize),
            k if k.starts_with("preset:") => self.load_preset(k[7..].parse::<usize>().unwrap_or(usize::MAX).wrapping_sub(1)),
            _ => return false,
        }
        true
    }

    /// Opens or closes the controls drawer; `false` (not a shortcut) where none is offered.
    fn toggle_controls(self) -> bool {
        if !self.drawer.get_untracked() {
            return false;
        }
        if self.controls_open.get_untracked() {
            super::header::close_controls(self.pg, self.controls_open);
        } else {
            super::header::open_controls(self.pg, self.controls_open);
        }
        true
    }

    /// Loads preset `i` (0-based) and keeps playing if it was playing.
    fn load_preset(self, i: usize) {
        let pg = self.pg;
        let presets = catalog::presets();
        let Some(p) = presets.get(i) else {
            pg.info(format!("There is no preset {} (there are {}).", i.wrapping_add(1), presets.len()));
            return;
        };
        let playing = pg.playing.get_untracked();
        match pg.load_preset(p.id) {
            Ok(()) => pg.playing.set(playing),
            Err(err) => pg.error(format!("{err}")),
        }
    }
}

/// Shift + a digit key (`Digit0` … `Digit9`, whatever character the layout gives it: `!`, `)`
/// …) loads presets 10 … 19, as `preset:10` … `preset:19`. A layout whose digits need Shift
/// (AZERTY) sends the digit itself: that stays presets 1 … 9.
fn shifted_digit(e: &web_sys::KeyboardEvent) -> Option<String> {
    let code = e.code();
    let d = code.strip_prefix("Digit").filter(|d| d.len() == 1)?;
    let n: usize = d.parse().ok()?;
    (e.shift_key() && !e.key().chars().all(|c| c.is_ascii_digit())).then(|| format!("preset:{}", 10 + n))
}

/// Installs the window-level key handler.
pub fn install(pg: Pg, help_open: RwSignal<bool>, controls_open: RwSignal<bool>) {
    let keys = Keys { pg, help_open, controls_open, theme: expect_context::<ThemeState>(), read_only: Signal::derive(super::host::read_only()),
        drawer: Signal::derive(super::host::drawer_offered()),
    };
    let focused_by = FocusedBy::follow();
    let handle = window_event_listener(ev::keydown, move |e: web_sys::KeyboardEvent| {
        // A hosted playground answers only keys typed inside it (several may share a page).
        if e.ctrl_key() || e.meta_key() || e.alt_key() || !pg.owns_event(&e) {
            return;
        }
        // Escape works even in a field: it closes the help, or else clears the selection.
        if e.key() == "Escape" {
            if help_open.get_untracked() {
                help_open.set(false);
            } else if controls_open.get_untracked() && super::header::focus_in_drawer() {
                super::header::close_controls(pg, controls_open);
            } else {
                pg.selection.set(super::state::Selection::None);
            }
            return;
        }
        // While the help dialog is open, the page behind it does not react (`?` closes it).
        if owned_by_control(&e, focused_by.keyboard()) || (help_open.get_untracked() && e.key() != "?") {
            return;
        }
        if keys.press(&shifted_digit(&e).unwrap_or_else(|| e.key())) {
            e.prevent_default();
        }
    });
    on_cleanup(move || handle.remove());
}

/// The shortcuts' dialog: modal (focus moves in, Tab stays inside, Escape or a click beside it
/// closes, focus goes back to what opened it).
#[component]
pub fn HelpOverlay(open: RwSignal<bool>) -> impl IntoView {
    let overlay = NodeRef::<leptos::html::Div>::new();
    super::modal::keep_modal(open.into(), overlay);
    let on_key = move |e: web_sys::KeyboardEvent| {
        if let Some(el) = overlay.get_untracked() {
            super::modal::trap_tab(&e, &el.into());
        }
    };
    view! {
        <div class="overlay" node_ref=overlay class:hidden=move || !open.get() on:click=move |_| open.set(false) on:keydown=on_key>
            <div class="dialog" role="dialog" aria-modal="true" aria-labelledby="help-h" on:click=|e| e.stop_propagation()>
                <header class="card-head">
                    <h2 id="help-h">"Keyboard shortcuts"</h2>
                    <button class="icon-btn" id="help-close" aria-label="Close" title="Close (Esc)" on:click=move |_| open.set(false)><super::icons::Svg icon=super::icons::Icon::Close /></button>
                </header>
                <table class="data shortcuts">
                    <tbody>
                        {SHORTCUTS.iter().map(|(k, what)| shortcut_row(k, what)).map(|(k, what)| view! { <tr><th scope="row"><kbd>{k}</kbd></th><td>{what}</td></tr> }).collect_view()}
                    </tbody>
                </table>
                <p class="muted small">"Tab moves between controls; Space or Enter presses the focused one (Space plays or pauses when no control has focus, and on the WHY panel or a table you clicked to read). The job graph is one stop: Left and Right move between its columns, Up and Down within one (Home, End: the first partition and the last node), and Enter explains the focused node (on a Silence button it silences or resumes that partition). On the focused timeline, Left and Right pick the window before or after (Home: the one the watermark waits for) and the WHY panel explains it; in the window emissions table, Up and Down move between rows and Enter explains a row's window. In the preset picker, and in Controls' Flink version and timestamp assigner, the arrows browse and Enter (or leaving) applies what is shown (Esc: back to the one that runs); a pick from the opened list applies at once."</p>
                <p class="muted small">"Click a partition, source subtask, window subtask or emitted window to explain it. A partition's badge says its state (active, idle, silenced, no producer); its Silence / Resume button is the action. Shapes carry meaning: ◌ idle (hatched), ◀ min holds the watermark (◀ ahead: pushed it ahead of processing time), ▮ fired, ◇ late re-firing, ○ side output, ✕ dropped."</p>
            </div>
        </div>
    }
}
