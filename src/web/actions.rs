//! Running the engine's one-click [`Action`]s in the page: a live change goes through the
//! session as any user action; a restart reloads the scenario with the change and the user's
//! actions replayed. The actions themselves (and the presets' suggested steps) live in the
//! engine (`engine::session::action`).

use super::state::Pg;
use wasm_bindgen::JsCast;
use leptos::prelude::{set_timeout, GetUntracked};
pub use crate::engine::session::action::{assigner_label, Action};

/// How the page runs an action.
pub trait RunAction {
    fn run(&self, pg: &Pg);
    /// Why it cannot run now (its button is disabled with this as its title).
    fn refused(&self, pg: Pg) -> Option<&'static str>;
}

impl RunAction for Action {
    fn run(&self, pg: &Pg) {
        if let Some(why) = self.refused(*pg) {
            return pg.error(why);
        }
        let pressed = super::host::active_element().filter(|el| el.matches(":focus-visible").unwrap_or(false));
        match pg.apply_action(self) {
            Ok(()) => {
                // Paused, a fix shows nothing yet (an idle timeout needs processing time to pass):
                // without a word the page seemed to ignore it.
                let hint = if pg.playing.get_untracked() { "" } else { "; press ▶ to see it take effect" };
                pg.info(format!("Applied: {}{hint}", self.describe()));
                follow_consequence(*pg, pressed);
            }
            Err(e) => pg.error(format!("{e}")),
        }
    }

    /// A kill while no task runs, as the job strip's buttons.
    fn refused(&self, pg: Pg) -> Option<&'static str> {
        match self {
            Action::KillTaskManager(_) => super::job_status::kill_refused(pg),
            _ => None,
        }
    }
}

/// After a fix the view follows its consequence: the timeline (where windows start to fire
/// and late records show) scrolls into view if it is not, and flashes once. Later, once the
/// re-rendered page has settled. Not when the button was `pressed` from the keyboard: scrolled
/// away, the focused button and its ring were off the top of the screen, and the next Tab
/// went on from a place the reader could not see; the notice says what was applied.
fn follow_consequence(pg: Pg, pressed: Option<web_sys::Element>) {
    // In a lesson the card stays in view: its ✓ and its way on are what the reader waits for.
    let scroll = pressed.is_none() && pg.lesson.get_untracked() == super::lesson_steps::LessonMode::Off;
    // A finding the restart re-rendered took its button, and the focus fell to <body>: it goes
    // to the box that held the button (the WHY panel), where the next Tab goes on.
    let holder = pressed.as_ref().and_then(|el| el.parent_element()?.closest("[tabindex='0']").ok().flatten());
    set_timeout(
        move || {
            if let (Some(el), Some(holder)) = (&pressed, holder) {
                if !el.is_connected() && holder.is_connected() {
                    if let Ok(h) = holder.dyn_into::<web_sys::HtmlElement>() {
                        let _ = h.focus();
                    }
                }
            }
            let Some(card) = pg.query(".main .timeline-card") else { return };
            if scroll {
                super::measure::scroll_into_view_smoothly(&card);
            }
            let _ = card.class_list().add_1("flash");
            set_timeout(move || drop(card.class_list().remove_1("flash")), std::time::Duration::from_millis(1600));
        },
        std::time::Duration::from_millis(60),
    );
}
