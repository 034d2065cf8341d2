//! Keyboard shortcuts and the `?` overlay that lists them. Keys are ignored while typing in a
//! field; Escape closes the overlay.

use super::playback::{faster, slower};
use super::state::Pg;
use super::theme::ThemeState;
use crate::engine::scenario::catalog;
use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// (keys, what they do), as the overlay lists them.
pub const SHORTCUTS: &[(&str, &str)] = &[
    ("Space", "play / pause"),
    (".", "single step (next engine instant)"),
    ("N", "step to the next interesting change"),
    ("+ / −", "faster / slower"),
    ("R", "reset to time zero"),
    ("1 … 9", "load preset 1 … 9"),
    ("⇧0 … ⇧9", "load preset 10 … 19 (Shift + the digit key)"),
    ("C", "show / hide the controls"),
    ("T", "theme: auto → light → dark"),
    ("?", "this help"),
    ("Esc", "close this help, clear the selection"),
];

fn typing(ev: &web_sys::KeyboardEvent) -> bool {
    ev.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .map(|el| {
            let tag = el.tag_name().to_ascii_lowercase();
            matches!(tag.as_str(), "input" | "textarea" | "select") || el.has_attribute("contenteditable")
        })
        .unwrap_or(false)
}

/// What the shortcuts act on.
#[derive(Clone, Copy)]
struct Keys {
    pg: Pg,
    help_open: RwSignal<bool>,
    controls_open: RwSignal<bool>,
    theme: ThemeState,
}

impl Keys {
    /// Acts on one key (typing and modifiers already ruled out); returns whether it was a
    /// shortcut, so that the browser's own action is prevented only then.
    fn press(self, key: &str) -> bool {
        let pg = self.pg;
        match key {
            " " | "k" => pg.toggle_play(),
            "." | "ArrowRight" => pg.step_once(),
            "n" | "N" => pg.step_next_interesting(),
            "+" | "=" => pg.speed.update(|s| *s = faster(*s)),
            "-" | "_" => pg.speed.update(|s| *s = slower(*s)),
            "r" | "R" => pg.reset(),
            "c" | "C" => self.controls_open.update(|o| *o = !*o),
            "t" | "T" => self.theme.cycle(),
            "?" => self.help_open.update(|o| *o = !*o),
            k if k.len() == 1 && k.as_bytes()[0].is_ascii_digit() && k != "0" => self.load_preset((k.as_bytes()[0] - b'1') as usize),
            k if k.starts_with("preset:") => self.load_preset(k[7..].parse::<usize>().unwrap_or(usize::MAX).wrapping_sub(1)),
            _ => return false,
        }
        true
    }

    /// Loads preset `i` (0-based) and keeps playing if it was playing.
    fn load_preset(self, i: usize) {
        let pg = self.pg;
        if let Some(p) = catalog::presets().get(i) {
            let playing = pg.playing.get_untracked();
            match pg.load_preset(p.id) {
                Ok(()) => pg.playing.set(playing),
                Err(err) => pg.error(format!("{err}")),
            }
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
    let keys = Keys { pg, help_open, controls_open, theme: expect_context::<ThemeState>() };
    let handle = window_event_listener(ev::keydown, move |e: web_sys::KeyboardEvent| {
        if e.ctrl_key() || e.meta_key() || e.alt_key() {
            return;
        }
        // Escape works even in a field: it closes the help and clears the selection.
        if e.key() == "Escape" {
            help_open.set(false);
            pg.selection.set(super::state::Selection::None);
            return;
        }
        if !typing(&e) && keys.press(&shifted_digit(&e).unwrap_or_else(|| e.key())) {
            e.prevent_default();
        }
    });
    on_cleanup(move || handle.remove());
}

#[component]
pub fn HelpOverlay(open: RwSignal<bool>) -> impl IntoView {
    view! {
        <div class="overlay" class:hidden=move || !open.get() on:click=move |_| open.set(false)>
            <div class="dialog" role="dialog" aria-modal="true" aria-labelledby="help-h" on:click=|e| e.stop_propagation()>
                <header class="card-head">
                    <h2 id="help-h">"Keyboard shortcuts"</h2>
                    <button class="icon-btn" aria-label="Close" on:click=move |_| open.set(false)><super::icons::Svg icon=super::icons::Icon::Close /></button>
                </header>
                <table class="data shortcuts">
                    <tbody>
                        {SHORTCUTS.iter().map(|(k, what)| view! { <tr><th scope="row"><kbd>{*k}</kbd></th><td>{*what}</td></tr> }).collect_view()}
                    </tbody>
                </table>
                <p class="muted small">"Click a partition, source subtask, window subtask or emitted window to explain it. Shapes carry meaning: ◌ idle (hatched), ‖ silenced, ◀ min holds the minimum, ▮ fired, ◇ late re-firing, ○ side output, ✕ dropped."</p>
            </div>
        </div>
    }
}
