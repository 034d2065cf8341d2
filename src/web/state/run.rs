//! Running the playground's session: loading a scenario or preset, reset, restarting with a
//! changed scenario, the user's commands (checked and recorded by the engine's session, so the
//! exported scenario replays them) and running to a time. A child of `state`: it drives the
//! fields of [`Pg`] that only the state's code touches.

use super::{runnable, Pg, Selection};
use crate::engine::command::Command;
use crate::engine::deltas::Cursor;
use crate::engine::error::InputError;
use crate::engine::observer::Observer;
use crate::engine::scenario::build;
use crate::engine::scenario::catalog;
use crate::engine::scenario::schema::{Scenario, TimedCommand};
use crate::web::embed_options::Source;
use crate::engine::session::action::Action;
use crate::engine::session::Session;
use crate::engine::sim::Simulation;
use crate::web::timeline_data::{TimelineData, Watch};
use leptos::prelude::*;

impl Pg {
    pub fn load_preset(&self, id: &str) -> Result<(), InputError> {
        let p = catalog::preset(id).ok_or_else(|| InputError::new("preset", format!("no preset '{id}'")))?;
        let sc = build::parse(p.json)?;
        self.load(sc, Some(p.id))?;
        // "✓ Applied: heartbeat filter on" stayed over the new preset, where it is off.
        self.notices.set(Vec::new());
        self.speed.set(p.speed);
        Ok(())
    }

    /// Replaces the running job with a new scenario (from time zero): a load ([`Pg::loads`]).
    pub fn load(&self, sc: Scenario, preset: Option<&'static str>) -> Result<(), InputError> {
        self.relaunch(sc, preset)?;
        self.loads.update(|n| *n += 1);
        Ok(())
    }

    /// [`Pg::load`] without counting as a load: the same scenario, changed ([`Pg::restart_with`]).
    fn relaunch(&self, sc: Scenario, preset: Option<&'static str>) -> Result<(), InputError> {
        let session = Session::new(runnable(&sc))?;
        self.swap_in(session, Source::of(sc, preset), None);
        Ok(())
    }

    /// Replaces the running job with a source's scenario, its `commands` (a link's actions)
    /// issued at their times and run to `at` (a `start-at`), else to the source's own position
    /// (`None` both: time zero), built and run beside the old one: if either fails, what ran is
    /// left as it was. The run is not reported to the host's listeners, which start from where
    /// it ends. A load ([`Pg::loads`]).
    pub fn load_source(&self, source: Source, at: Option<i64>) -> Result<(), LoadFailure> {
        let at_ms = at.or(source.at_ms);
        let commands = &source.commands;
        let mut session = Session::new(runnable(&source.scenario)).map_err(LoadFailure::Scenario)?;
        let mut ran = None;
        if at_ms.is_some() || !commands.is_empty() {
            // A snapshot names the series first, so the replay draws its lines and idle
            // bands as a played run does (a link's timeline was empty up to its moment).
            let mut timeline = TimelineData::new(session.start().ms());
            timeline.record(&session.sim().snapshot());
            let mut watch = Watch { timeline: &mut timeline, host: None, inner: (), batches: false };
            session.replay(commands, at_ms.unwrap_or(-1), &mut watch).map_err(LoadFailure::Replay)?;
            ran = Some(timeline);
        }
        self.swap_in(session, source, ran);
        self.loads.update(|n| *n += 1);
        Ok(())
    }

    /// The commands issued since the scenario was loaded (a link carries them).
    pub fn issued_commands(&self) -> Vec<TimedCommand> {
        self.session.with_value(|s| s.log().to_vec())
    }

    /// What runs now, as the options name a source: the scenario loaded last, its preset and
    /// the link's commands and position it came with (what `loadPreset`, `load` or the
    /// reader's picker loaded counts, not only the options).
    pub fn running_source(&self) -> Source {
        let (commands, at_ms) = self.loaded_with.get_value();
        Source { commands, at_ms, ..Source::of(self.base.get_value(), self.preset.get_untracked()) }
    }

    /// `session` (of `source`) in place of what ran; `ran`: the timeline of its run past time
    /// zero (`None`: it starts at time zero).
    fn swap_in(&self, session: Session, source: Source, ran: Option<TimelineData>) {
        let (start, resync) = (session.start(), ran.is_some());
        let Source { scenario, preset, commands, at_ms } = source;
        self.session.set_value(session);
        self.base.set_value(scenario);
        self.preset.set(preset);
        self.loaded_with.set_value((commands, at_ms));
        self.timeline.set_value(ran.unwrap_or_else(|| TimelineData::new(start.ms())));
        self.seen.set_value(Cursor::default());
        self.logs.emissions.set(Vec::new());
        self.logs.joins.set(Vec::new());
        self.logs.late_rows.set(Vec::new());
        self.logs.duplicates.set(0);
        self.logs.late_dropped.set(0);
        self.logs.late_side.set(0);
        self.selection.set(Selection::None);
        self.perf.catching_up.set(None);
        self.cfg.set(self.with_sim(|s| s.config().clone()));
        self.bump_generation();
        if resync {
            // Before the refresh, which tells the host: its listeners start from here.
            self.skip_events();
        }
        self.refresh();
    }

    /// Reads the simulation.
    pub fn with_sim<R>(&self, f: impl FnOnce(&Simulation) -> R) -> R {
        self.session.with_value(|s| f(s.sim()))
    }

    /// Reads the session (the JS API's reads of a mounted playground).
    pub(crate) fn with_session<R>(&self, f: impl FnOnce(&Session) -> R) -> R {
        self.session.with_value(f)
    }

    /// Where the scenario's run ends (`duration_ms` after the start).
    pub fn run_end(&self) -> i64 {
        self.session.with_value(|s| s.end().ms())
    }

    /// Drives the session (playback: run, step).
    pub(crate) fn update_session<R>(&self, f: impl FnOnce(&mut Session) -> R) -> R {
        self.session.try_update_value(f).expect("the playground is alive")
    }

    /// Drives the session with the timeline (watermark lines, and the job's checkpoints,
    /// failures and restarts) recorded after every instant, and `inner` asked whether to go on;
    /// returns `inner` back.
    pub(crate) fn update_watched<O: Observer, R>(&self, inner: O, f: impl FnOnce(&mut Session, &mut Watch<'_, O>) -> R) -> (R, O) {
        self.watched(inner, false, f)
    }

    /// `update_watched`; `batches`: the run stops when the host's batch of events is full
    /// (`Watch::batches`).
    fn watched<O: Observer, R>(&self, inner: O, batches: bool, f: impl FnOnce(&mut Session, &mut Watch<'_, O>) -> R) -> (R, O) {
        // Taken out for the run (nothing reads it meanwhile) and put back.
        let mut timeline = self.timeline.try_update_value(std::mem::take).unwrap_or_default();
        let mut watch = Watch { timeline: &mut timeline, host: self.instant_hook(), inner, batches };
        let r = self.update_session(|s| f(s, &mut watch));
        let Watch { inner, .. } = watch;
        self.timeline.set_value(timeline);
        (r, inner)
    }

    /// Whether the user has issued no command since the scenario was loaded.
    pub fn untouched(&self) -> bool {
        self.session.with_value(|s| s.issued() == 0)
    }

    /// Back to time zero of the current scenario (the user's actions are forgotten).
    pub fn reset(&self) {
        let sc = self.base.get_value();
        if let Err(e) = self.load(sc, self.preset.get_untracked()) {
            self.error(format!("reset failed: {e}"));
        }
    }

    /// The scenario with the user's actions appended as timed commands, run up to the present:
    /// `wmp run` on it (or importing it and running to the same time) reproduces this session
    /// exactly, trace hash included (the engine is deterministic). As the page runs it, the
    /// export keeps no record-level trace events (they count in the hash) and has no end of
    /// input (the page never applies one).
    pub fn export_scenario(&self) -> Scenario {
        let mut sc = self.session.with_value(Session::to_scenario_now);
        sc.trace = self.base.with_value(|b| b.trace.clone());
        sc.trace.records = false;
        sc
    }

    /// Changes the scenario itself (parallelism, window, timestamp assigner …) and restarts
    /// from time zero; the user's actions so far replay at their times, except settings changed
    /// before anything was read, which become the scenario's (`fold_start_settings`): the
    /// fields show them at once after the restart (they showed the old values until ▶ reached
    /// them, and read as lost). Folded after the change, so the new shape gets them.
    pub fn restart_with(&self, change: impl FnOnce(&mut Scenario)) -> Result<(), InputError> {
        let mut sc = self.export_scenario();
        change(&mut sc);
        sc.validate()?;
        let sc = sc.fold_start_settings()?.scenario;
        let playing = self.playing.get_untracked();
        self.relaunch(sc, self.preset.get_untracked())?;
        self.playing.set(playing);
        Ok(())
    }

    /// Applies a command at the next instant and records it for export, through the engine's
    /// session: it is checked together with the scripted commands still waiting, scheduled at
    /// `now + 1`, and that instant is processed at once, exactly as a scenario command with
    /// `at_ms = now + 1 − start` would be. So the exported scenario replays this session with
    /// the same trace hash (in the page, the JS API and `wmp run`).
    pub fn apply(&self, cmd: Command) -> Result<(), InputError> {
        self.apply_all(vec![cmd], &[String::new()])
    }

    /// [`Pg::apply`] for commands issued together (`paths`: how each one's errors are named).
    pub fn apply_all(&self, cmds: Vec<Command>, paths: &[String]) -> Result<(), InputError> {
        self.issue(|s, w| s.apply_now(cmds, paths, w))
    }

    /// Runs a change of the job through the session (commands, a parameter), then the views.
    pub fn issue(&self, f: impl FnOnce(&mut Session, &mut Watch<'_, ()>) -> Result<(), InputError>) -> Result<(), InputError> {
        self.halted_error()?;
        let (res, ()) = self.update_watched((), f);
        self.stop_if_halted();
        self.cfg.set(self.with_sim(|s| s.config().clone()));
        self.refresh();
        res
    }

    /// A one-click action (a diagnosis fix, a preset step): a live change as any command, or
    /// a restart with the change ([`Pg::restart_with`]).
    pub fn apply_action(&self, a: &Action) -> Result<(), InputError> {
        match a.command() {
            Some(cmd) => self.apply(cmd),
            None => self.restart_with(|sc| a.change(sc)),
        }
    }

    /// The page's wording for a halted session: the API's says "start again from the scenario".
    pub(crate) fn halted_error(&self) -> Result<(), InputError> {
        match self.session.with_value(|s| s.halted().map(str::to_string)) {
            Some(e) => Err(InputError::invalid("", format!("the run ended ({e}); Reset (R) starts the scenario again"))),
            None => Ok(()),
        }
    }

    /// A halted session (the job failed as Flink's would, or an engine bug) refuses to go on:
    /// stop playing where it happened.
    pub(crate) fn stop_if_halted(&self) {
        if self.session.with_value(|s| s.halted().is_some()) {
            self.playing.set(false);
        }
    }

    /// `apply`, with any error shown in the notice area.
    pub fn apply_or_report(&self, cmd: Command) -> bool {
        match self.apply(cmd) {
            Ok(()) => true,
            Err(e) => {
                self.error(format!("{e}"));
                false
            }
        }
    }

    /// The session's checks of a run to `at_ms` after the start (`Session::check_run_until`).
    pub fn check_run_until(&self, at_ms: i64) -> Result<(), InputError> {
        self.session.with_value(|s| s.check_run_until(at_ms))
    }

    /// Runs the engine up to processing time `t` (ms since the epoch). The host's listeners get
    /// their events a batch at a time on the way (`notify_advanced` when one is full), not all
    /// at the end: hours of events held at once ran the wasm out of memory.
    pub fn run_until(&self, t: i64) -> Result<(), InputError> {
        self.halted_error()?;
        let generation = self.host.try_with_value(|h| h.generation);
        let t = crate::engine::time::ProcTime(t);
        let mut got_there = self.watched((), true, |s, w| s.run_until_abs(t, w)).0?;
        while !got_there {
            self.notify_advanced();
            // A listener loaded another scenario or unmounted this one: that run is not this.
            if self.host.try_with_value(|h| h.generation) != generation {
                break;
            }
            // On without the checks: a listener may have moved the clock, or the job failed.
            got_there = self.watched((), true, |s, w| s.run_on(t, w)).0?;
        }
        Ok(())
    }
}

/// Why [`Pg::load_source`] loaded nothing: the scenario does not build, or its commands or the run
/// to the position failed (a bad command, an engine error on the way, a position out of reach).
#[derive(Debug)]
pub enum LoadFailure {
    Scenario(InputError),
    Replay(InputError),
}
