//! Running the engine's one-click [`Action`]s in the page: a live change goes through the
//! session as any user action; a restart reloads the scenario with the change and the user's
//! actions replayed. The actions themselves (and the presets' suggested steps) live in the
//! engine (`engine::session::action`).

use super::state::Pg;
pub use crate::engine::session::action::{assigner_label, Action};

/// How the page runs an action.
pub trait RunAction {
    fn run(&self, pg: &Pg);
}

impl RunAction for Action {
    fn run(&self, pg: &Pg) {
        let result = match self.command() {
            Some(cmd) => pg.apply(cmd),
            None => pg.restart_with(|sc| self.change(sc)),
        };
        match result {
            Ok(()) => pg.info(format!("Applied: {}", self.describe())),
            Err(e) => pg.error(format!("{e}")),
        }
    }
}
