//! The timeline by keyboard: the window bands were mouse-only, so a keyboard reader could not
//! ask why a window fired when it did, or why it has not. Focused, the timeline takes ← / → to
//! pick the window before / after the picked one (the first press: the window the slowest
//! window subtask's watermark waits for), and Home to go back to that one; Escape clears the
//! pick, as everywhere. The WHY panel explains the picked window, as after a click, and the
//! timeline pans to it if it is out of view.

use super::state::{Pg, Selection};
use super::timeline_plot::{window_beside, window_waited_for, View};
use crate::engine::time::NO_WATERMARK;
use leptos::ev::KeyboardEvent;
use leptos::prelude::*;

/// The timeline's `keydown`; `view` is what it shows (its middle stands in for a watermark
/// that has not started yet, or has ended). Returns the window picked, for the timeline to
/// bring into view.
pub fn on_window_keys(pg: Pg, view: View, ev: KeyboardEvent) -> Option<(i64, i64)> {
    if ev.alt_key() || ev.ctrl_key() || ev.meta_key() || ev.shift_key() {
        return None;
    }
    let picked = pg.selection.with_untracked(|s| match *s {
        Selection::WindowRange { start, end } => Some((start, end)),
        _ => None,
    });
    let to = pg.cfg.with_untracked(|c| {
        let middle = view.y0 / 2 + view.y1 / 2;
        let waited = || waited_at(pg).and_then(|wm| window_waited_for(&c.window, wm)).or_else(|| window_waited_for(&c.window, middle));
        match (ev.key().as_str(), picked) {
            ("ArrowLeft", Some(w)) => window_beside(&c.window, w, -1),
            ("ArrowRight", Some(w)) => window_beside(&c.window, w, 1),
            ("ArrowLeft" | "ArrowRight" | "Home", _) => waited(),
            _ => None,
        }
    });
    let (start, end) = to?;
    ev.prevent_default();
    pg.selection.set(Selection::WindowRange { start, end });
    to
}

/// The slowest window subtask's watermark, once there is one.
fn waited_at(pg: Pg) -> Option<i64> {
    let slowest = pg.snap_slow.with_untracked(|s| s.operators.iter().map(|o| o.input_watermark).min())?;
    (slowest != NO_WATERMARK).then_some(slowest.ms())
}

/// What the focused timeline is and does, for a screen reader: the picked window with it.
pub fn label(pg: Pg) -> String {
    let sessions = pg.cfg.with(|c| matches!(c.window, crate::engine::operator::assigner::WindowSpec::Session { .. }));
    if sessions {
        return "Timeline. Session windows have no fixed bounds: pick one in the window emissions table.".to_string();
    }
    let picked = pg.selection.with(|s| matches!(s, Selection::WindowRange { .. }));
    let what = if picked { "The picked window is explained in the WHY panel. " } else { "" };
    format!("Timeline. {what}← and → pick the window before or after, Home the window the watermark waits for, Escape clears.")
}
