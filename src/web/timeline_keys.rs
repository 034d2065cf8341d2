//! The timeline by keyboard: the window bands were mouse-only, so a keyboard reader could not
//! ask why a window fired when it did, or why it has not. Focused, the timeline takes ← / → to
//! pick the window before / after the marked one (the first press: the window the slowest
//! window subtask's watermark waits for), and Home to go back to that one; Escape clears the
//! pick, as everywhere. The WHY panel explains the picked window, as after a click, the
//! timeline pans to it if it is out of view, and [`announcement`] says which it is (a focused
//! element's changed label is not read out).
//!
//! The timeline owns these three keys (they never step the run); every other key stays a
//! shortcut (Space plays), as on the job graph.

use super::format::wm_human;
use super::state::{Pg, Selection};
use super::timeline_plot::{window_beside, window_waited_for, View};
use crate::engine::operator::assigner::WindowSpec;
use crate::engine::time::{END_OF_TIME, NO_WATERMARK};
use leptos::ev::KeyboardEvent;
use leptos::prelude::*;

/// The timeline's `keydown`; `view` is what it shows (its middle stands in for a watermark
/// that has not started yet, or has ended). Returns the window picked, for the timeline to
/// bring into view.
pub fn on_window_keys(pg: Pg, view: View, ev: KeyboardEvent) -> Option<(i64, i64)> {
    let modified = ev.alt_key() || ev.ctrl_key() || ev.meta_key() || ev.shift_key();
    // A job mark inside the timeline (a focusable ✕ / ↻) keeps its own keys.
    let on_timeline = ev.target().is_some_and(|t| Some(t) == ev.current_target());
    let key = ev.key();
    if modified || !on_timeline || !matches!(key.as_str(), "ArrowLeft" | "ArrowRight" | "Home") {
        return None;
    }
    ev.prevent_default();
    ev.stop_propagation();
    let marked = pg.selection.with_untracked(Selection::window_bounds);
    let to = pg.cfg.with_untracked(|c| {
        let middle = view.y0 / 2 + view.y1 / 2;
        let waited = || waited_at(pg).and_then(|wm| window_waited_for(&c.window, wm)).or_else(|| window_waited_for(&c.window, middle));
        match (key.as_str(), marked) {
            ("ArrowLeft", Some(w)) => window_beside(&c.window, w, -1),
            ("ArrowRight", Some(w)) => window_beside(&c.window, w, 1),
            _ => waited(),
        }
    });
    let (start, end) = to?;
    pg.selection.set(Selection::WindowRange { start, end });
    to
}

/// The slowest active window subtask's watermark, once there is one (an idle subtask's
/// watermark waits for no window).
fn waited_at(pg: Pg) -> Option<i64> {
    let slowest = pg.snap_slow.with_untracked(|s| s.operators.iter().filter(|o| !o.idle).map(|o| o.input_watermark).min())?;
    (slowest != NO_WATERMARK).then_some(slowest.ms())
}

/// What the focused timeline is and does, for a screen reader.
pub fn label(pg: Pg) -> String {
    if pg.cfg.with(|c| matches!(c.window, WindowSpec::Session { .. })) {
        return "Timeline. Session windows have no fixed bounds: pick one in the window emissions table.".to_string();
    }
    "Timeline. ← and → pick the window before or after, Home the window the watermark waits for; the WHY panel explains it, Escape clears.".to_string()
}

/// The marked window, said in the timeline's live region when it changes.
pub fn announcement(pg: Pg) -> String {
    let Some((start, end)) = pg.selection.with(Selection::window_bounds) else { return String::new() };
    let now = pg.snap_slow.with_untracked(|s| s.now.ms());
    // Home's pick means nothing without a watermark to wait: say so rather than let the
    // view's middle pass for the waited-for window.
    let slowest = pg.snap_slow.with_untracked(|s| s.operators.iter().filter(|o| !o.idle).map(|o| o.input_watermark).min());
    let state = match slowest {
        Some(NO_WATERMARK) => " The slowest window subtask has no watermark yet, so no window is waited for: this one is in the middle of the view.",
        Some(END_OF_TIME) => " The watermark is at the end of input: every window has fired.",
        None => " Every window subtask is idle: none waits for a window.",
        Some(_) => "",
    };
    format!("Window [{}, {}) picked; the WHY panel explains it.{state}", wm_human(start, now), wm_human(end, now))
}
