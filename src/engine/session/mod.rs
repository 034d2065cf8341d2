//! A session: a simulation, the scenario it came from, and every command issued since — the
//! one way the CLI, the JS API and the UI drive the engine.
//!
//! Commands issued while the clock stands at `now` are not applied in the middle of an instant:
//! they are scheduled at `now + 1` and that instant is processed at once, exactly as a scenario
//! command with `at_ms = now + 1 − start` would be (commands first, then producers, channels,
//! reads and the periodic emission). So [`Session::to_scenario`] — the original scenario plus
//! the issued commands — replays the session to the same trace hash, in the page, the JS API
//! and `wmp run` alike. Every command is checked first ([`check`]), together with the
//! commands still waiting, so a scheduled command can never fail later; should the engine fail
//! all the same (a bug), the session halts and refuses to go on from a state it cannot trust.
//!
//! Files: `check` (the one check of each command), `budget` (the work a scenario may ask for),
//! `share` (share strings), `link_state` (the page's state as a `#s=2.` link), `param` (parameters by name, as the API and the UI's fields set
//! them), `action` (one-click steps).

pub mod action;
pub mod budget;
pub mod check;
pub mod link_state;
pub mod param;
pub mod share;

use super::command::Command;
use super::error::InputError;
use super::failover::JobStatus;
use super::limits::MAX_DURATION_MS;
use super::observer::Observer;
use super::scenario::schema::{Scenario, TimedCommand};
use super::sim::{ScheduledCommand, Simulation};
use super::time::{thousands, ProcTime};
use check::{Shadow, Strictness};

/// Why a session cannot go on.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Halt {
    /// The job failed as it would in Flink (`Downstream::failure`).
    JobFailed(String),
    /// The engine returned an error for checked input: a bug.
    EngineError(String),
}

pub struct Session {
    sim: Simulation,
    /// The scenario as loaded (with structural changes made before the start).
    scenario: Scenario,
    /// Commands issued through the session (applied or scheduled), in issue order.
    log: Vec<TimedCommand>,
    /// `run_to_end` applied the end of input.
    finished: bool,
    /// The run ended early: the job failed as Flink's would, or the engine returned an error
    /// (a bug: input is checked first).
    halted: Option<Halt>,
}

/// The simulation of `scenario` with `log` scheduled after the scenario's own commands.
fn build(scenario: &Scenario, log: &[TimedCommand]) -> Result<Simulation, InputError> {
    let mut sim = scenario.build()?;
    let start = sim.config().start_time;
    let n = scenario.commands.len();
    for (j, c) in log.iter().enumerate() {
        sim.schedule(ScheduledCommand { at: start + c.at_ms, command: c.command.clone(), path: format!("commands[{}]", n + j) });
    }
    Ok(sim)
}

impl Session {
    /// A session at the scenario's start; its scripted commands are checked up front.
    pub fn new(scenario: Scenario) -> Result<Self, InputError> {
        let sim = build(&scenario, &[])?;
        let s = Session { sim, scenario, log: Vec::new(), finished: false, halted: None };
        s.check(&[], &[], Strictness::Scripted)?;
        Ok(s)
    }

    /// Parses scenario JSON text and starts a session on it.
    pub fn from_json(text: &str) -> Result<Self, InputError> {
        Session::new(super::scenario::build::parse(text)?)
    }

    /// Keeps every record the sources emit from now on, for an export (`Simulation::record_reads`).
    pub fn record_reads(&mut self) {
        self.sim.record_reads();
    }

    /// The records kept since `record_reads`, in emission order.
    pub fn take_reads(&mut self) -> Vec<super::sim::ReadRecord> {
        self.sim.take_reads()
    }

    pub fn sim(&self) -> &Simulation {
        &self.sim
    }

    /// The simulation, for a caller that is done with the session (`wmp run`'s report).
    pub fn into_sim(self) -> Simulation {
        self.sim
    }

    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    pub fn start(&self) -> ProcTime {
        self.sim.config().start_time
    }

    /// Processing time now: the start time before the first instant.
    pub fn now(&self) -> ProcTime {
        self.sim.now().max(self.start())
    }

    /// Processing time since the start of the last processed instant (−1 before the start).
    pub fn elapsed(&self) -> i64 {
        self.sim.now() - self.start()
    }

    pub fn started(&self) -> bool {
        self.sim.now() >= self.start()
    }

    pub fn finished(&self) -> bool {
        self.finished
    }

    /// Why the session stopped early (the job failed, or an engine error), if it did.
    pub fn halted(&self) -> Option<&str> {
        match &self.halted {
            Some(Halt::JobFailed(m) | Halt::EngineError(m)) => Some(m),
            None => None,
        }
    }

    /// How many commands were issued through this session (applied or scheduled).
    pub fn issued(&self) -> usize {
        self.log.len()
    }

    fn ensure_running(&self) -> Result<(), InputError> {
        if self.finished {
            return Err(InputError::invalid(
                "",
                "the job has finished (runToEnd() applied the end of input); load toScenario() into a new playground to go on",
            ));
        }
        match &self.halted {
            Some(Halt::JobFailed(m)) => Err(InputError::invalid("", format!("{m}; start again from the scenario"))),
            Some(Halt::EngineError(m)) => {
                Err(InputError::invalid("", format!("the simulation stopped after an engine error ({m}); start again from the scenario")))
            }
            None => Ok(()),
        }
    }

    /// Runs an engine call; an error halts the session for good, and so does a job that ended
    /// FAILED (its restart strategy allowed no more restarts) — the call itself succeeds.
    fn guard<T>(&mut self, f: impl FnOnce(&mut Simulation) -> Result<T, InputError>) -> Result<T, InputError> {
        let out = self.guard_errors(f);
        if self.halted.is_none() && self.sim.job_status() == JobStatus::Failed {
            let reason = self.sim.failover().failure.clone().unwrap_or_default();
            self.halted = Some(Halt::JobFailed(format!("the job FAILED ({reason}) and its restart strategy allows no more restarts")));
        }
        out
    }

    fn guard_errors<T>(&mut self, f: impl FnOnce(&mut Simulation) -> Result<T, InputError>) -> Result<T, InputError> {
        f(&mut self.sim).map_err(|e| {
            if let Some(failure) = self.sim.downstream().failure.clone() {
                self.halted = Some(Halt::JobFailed(failure));
                return e;
            }
            let text = e.to_string();
            self.halted = Some(Halt::EngineError(text.clone()));
            InputError::invalid("", format!("the engine stopped: {text}"))
        })
    }

    /// Checks new commands (`(at, command)`, named `paths[i]`) together with everything still
    /// waiting, in run order, against the job's shape. With no new commands, checks the waiting
    /// ones and names them (`commands[3].partition`).
    fn check(&self, new: &[(ProcTime, Command)], paths: &[String], how: Strictness) -> Result<(), InputError> {
        let mut shadow = Shadow::of(&self.sim);
        let mut items: Vec<(ProcTime, &Command, Option<usize>, &str)> =
            self.sim.scheduled().map(|c| (c.at, &c.command, None, c.path.as_str())).collect();
        for (k, (at, c)) in new.iter().enumerate() {
            items.push((*at, c, Some(k), ""));
        }
        // Stable: same-instant commands keep their order, new ones after the waiting ones.
        items.sort_by_key(|c| c.0);
        let start = self.start();
        for (at, cmd, new_index, label) in items {
            if let Err(e) = shadow.check(cmd, at, if new_index.is_some() { how } else { Strictness::Scripted }) {
                return Err(match new_index {
                    Some(k) => e.within(paths.get(k).map_or("", |p| p.as_str())),
                    None if new.is_empty() => e.within(label),
                    None => InputError::invalid(
                        paths.first().cloned().unwrap_or_default(),
                        format!("this would make the scheduled {label} (at {} ms) fail: {e}", at - start),
                    ),
                });
            }
        }
        Ok(())
    }

    /// Schedules commands at absolute time `at` (> now), after checking them.
    pub fn schedule_at(&mut self, at: ProcTime, cmds: Vec<Command>, paths: &[String]) -> Result<(), InputError> {
        self.schedule_checked(at, cmds, paths, Strictness::Issued)
    }

    /// [`Session::schedule_at`], checked as `how` says (a link's replay, or issued now).
    pub(super) fn schedule_checked(
        &mut self,
        at: ProcTime,
        cmds: Vec<Command>,
        paths: &[String],
        how: Strictness,
    ) -> Result<(), InputError> {
        self.ensure_running()?;
        if at <= self.sim.now() {
            return Err(InputError::new(
                "atMs",
                format!("{} is not in the future (the clock is at {} ms)", at - self.start(), self.elapsed()),
            ));
        }
        self.within_a_run(at, "atMs")?;
        let new: Vec<(ProcTime, Command)> = cmds.iter().map(|c| (at, c.clone())).collect();
        self.check(&new, paths, how)?;
        self.check_budget(&cmds, at, paths.first().map_or("", |p| p.as_str()))?;
        let start = self.start();
        let n = self.scenario.commands.len();
        for c in cmds {
            let path = format!("commands[{}]", n + self.log.len());
            self.sim.schedule(ScheduledCommand { at, command: c.clone(), path });
            self.log.push(TimedCommand { at_ms: at - start, command: c });
        }
        Ok(())
    }

    /// A run call to `at`, given as argument `arg`: within the ten years a run may last and the
    /// work budget.
    fn check_run_to(&self, at: ProcTime, arg: &str) -> Result<(), InputError> {
        self.within_a_run(at, arg)?;
        self.check_budget(&[], at, arg)
    }

    /// The work budget with the commands issued so far, `new` ones at `at`, and a run until at
    /// least `at`; an error names `arg` (a command's path or a run call's argument).
    fn check_budget(&self, new: &[Command], at: ProcTime, arg: &str) -> Result<(), InputError> {
        let mut sc = self.with_log();
        let at_ms = at - self.start();
        sc.commands.extend(new.iter().map(|c| TimedCommand { at_ms, command: c.clone() }));
        budget::check_until(&sc, at_ms).map_err(|e| InputError::new(arg, format!("{}: {}", e.path, e.message)))
    }

    /// Refuses a time past the ten years a run may last, naming the time argument `arg`: the
    /// session could not be saved as a scenario that loads again.
    fn within_a_run(&self, at: ProcTime, arg: &str) -> Result<(), InputError> {
        let at_ms = at - self.start();
        if at_ms > MAX_DURATION_MS {
            return Err(InputError::new(arg, format!("{} ms is past the ten years a run may last", thousands(at_ms.unsigned_abs()))));
        }
        Ok(())
    }

    /// Applies commands at the next instant (`now + 1`) and processes that instant.
    pub fn apply_now(&mut self, cmds: Vec<Command>, paths: &[String], obs: &mut impl Observer) -> Result<(), InputError> {
        self.ensure_running()?;
        let at = self.sim.now() + 1;
        self.schedule_at(at, cmds, paths)?;
        self.run_until_abs(at, obs).map(|_| ())
    }

    /// `apply_now` for one command, with its errors named from the command itself.
    pub fn apply(&mut self, cmd: Command) -> Result<(), InputError> {
        self.apply_now(vec![cmd], &[String::new()], &mut ())
    }

    /// Applies a one-click action (a diagnosis fix, a preset step): a live change at the next
    /// instant, or — for what a real job needs a restart for — the scenario with the change and
    /// the commands issued so far, from time zero (not yet started).
    pub fn apply_action(&mut self, a: action::Action) -> Result<(), InputError> {
        self.apply_action_with(a, &mut ())
    }

    /// `apply_action`, watched by an observer while the instant runs.
    pub fn apply_action_with(&mut self, a: action::Action, obs: &mut impl Observer) -> Result<(), InputError> {
        if let Some(cmd) = a.command() {
            return self.apply_now(vec![cmd], &[String::new()], obs);
        }
        let mut sc = self.to_scenario_now();
        a.change(&mut sc);
        // Settings changed before anything was read become the restarted job's own, as the
        // page's restart does (the fields showed the old values until play reached them).
        *self = Session::new(sc.fold_start_settings()?.scenario)?;
        Ok(())
    }

    /// Processes every instant up to absolute time `t`; false if the observer stopped earlier.
    pub fn run_until_abs(&mut self, t: ProcTime, obs: &mut impl Observer) -> Result<bool, InputError> {
        self.ensure_running()?;
        self.run_on(t, obs)
    }

    /// Goes on with a run that its call already began and checked, after its observer stopped
    /// it (a batch of events handed over): to `t` (a time already passed does nothing), past a
    /// failure of the job on the way as one uninterrupted run goes, without the call's checks
    /// (a listener may have moved the clock or ended the input meanwhile).
    pub fn run_on(&mut self, t: ProcTime, obs: &mut impl Observer) -> Result<bool, InputError> {
        // A listener ended the input (`runToEnd`): the job has nothing more to run.
        if self.finished {
            return Ok(true);
        }
        self.guard(|sim| sim.run_until_with(t, obs))
    }

    /// `at_ms` is relative to the start, like a scenario command's `at_ms`. False if the
    /// observer stopped earlier (the same call again goes on).
    pub fn run_until(&mut self, at_ms: i64, obs: &mut impl Observer) -> Result<bool, InputError> {
        self.ensure_running()?;
        self.check_run_until(at_ms)?;
        self.run_until_abs(self.start() + at_ms, obs)
    }

    /// Refuses a run to `at_ms` after the start that is in the past, longer than a run may
    /// last or over the work budget: what `run_until` checks, for a caller that runs the
    /// session its own way (an embed's host, which is told of every instant).
    pub fn check_run_until(&self, at_ms: i64) -> Result<(), InputError> {
        if at_ms < self.elapsed() {
            return Err(InputError::new("atMs", format!("{at_ms} is in the past (the clock is at {} ms)", self.elapsed())));
        }
        self.check_run_to(self.start() + at_ms, "atMs")
    }

    /// Processes the next `ms` of processing time (before the start the clock counts as 0, so
    /// `run_for(60_000)` ends at 60 s like `run_until(60_000)`). False if the observer stopped
    /// it earlier ([`Session::run_on`] goes on to `now + ms`).
    pub fn run_for(&mut self, ms: i64, obs: &mut impl Observer) -> Result<bool, InputError> {
        let to = self.now().saturating_add(ms);
        self.check_run_to(to, "ms")?;
        self.run_until_abs(to, obs)
    }

    /// One instant; its time relative to the start, or `None` when nothing will ever happen.
    pub fn step(&mut self, obs: &mut impl Observer) -> Result<Option<i64>, InputError> {
        self.ensure_running()?;
        let start = self.start();
        let t = self.guard(|sim| sim.step());
        // The instant the job failed in is one the observer sees too (`Simulation::run_until_with`).
        if t.as_ref().map_or(self.sim.job_status() == JobStatus::Failed, Option::is_some) {
            let _ = obs.after_instant(&self.sim);
        }
        Ok(t?.map(|t| t - start))
    }

    /// Steps until an interesting change (operator watermark, window, late record, idle/active
    /// flip) or until `limit_ms` of processing time has passed.
    pub fn step_to_next_interesting(&mut self, limit_ms: i64, obs: &mut impl Observer) -> Result<bool, InputError> {
        self.ensure_running()?;
        self.check_run_to(self.sim.now().saturating_add(limit_ms), "limitMs")?;
        self.guard(|sim| sim.step_to_next_interesting_with(limit_ms, obs))
    }

    /// Where the scenario's run ends: `duration_ms` after the start.
    pub fn end(&self) -> ProcTime {
        self.start().saturating_add(self.scenario.duration_ms)
    }

    /// What `wmp run` does: run to `start + duration_ms`, then the end of input if the scenario
    /// asks for it (after which the job is finished). False if the observer stopped it earlier
    /// (the same call again goes on).
    pub fn run_to_end(&mut self, obs: &mut impl Observer) -> Result<bool, InputError> {
        let end = self.end_of_run();
        self.check_run_to(end, "duration_ms")?;
        self.ensure_running()?;
        self.end_run(end, obs)
    }

    /// Where [`Session::run_to_end`] runs to from now.
    pub fn end_of_run(&self) -> ProcTime {
        self.end().max(self.sim.now())
    }

    /// The rest of [`Session::run_to_end`] once begun ([`Session::run_on`] to `end`, then the
    /// end of input, once).
    pub fn end_run(&mut self, end: ProcTime, obs: &mut impl Observer) -> Result<bool, InputError> {
        if !self.run_on(end, obs)? {
            return Ok(false);
        }
        if self.scenario.end_of_input && self.halted.is_none() && !self.finished {
            self.guard(|sim| sim.apply(Command::EndOfInput))?;
            self.finished = true;
        }
        Ok(true)
    }

    /// Replaces the scenario before the job starts (parallelism, window, aggregate: the job's
    /// shape); the commands issued so far stay scheduled.
    pub fn restructure(&mut self, change: impl FnOnce(&mut Scenario) -> Result<(), InputError>) -> Result<(), InputError> {
        self.ensure_running()?;
        let mut sc = self.scenario.clone();
        change(&mut sc)?;
        sc.validate()?;
        let sim = build(&sc, &self.log)?;
        let next = Session { sim, scenario: sc, log: std::mem::take(&mut self.log), finished: false, halted: None };
        if let Err(e) = next.check(&[], &[], Strictness::Scripted) {
            self.log = next.log;
            return Err(e);
        }
        *self = next;
        Ok(())
    }

    /// The scenario that reproduces this session: the original plus every issued command, run
    /// for at least as long as the session has run (exactly as long, with the end of input,
    /// once finished).
    pub fn to_scenario(&self) -> Scenario {
        let mut sc = self.with_log();
        if self.finished {
            sc.duration_ms = self.elapsed();
            sc.end_of_input = true;
        } else {
            sc.duration_ms = sc.duration_ms.max(self.elapsed());
        }
        sc
    }

    /// The page's export. Once the session has run past its first instant: the scenario that
    /// reproduces it up to now and stops there, without the end of input, so that `wmp run` on
    /// it ends in the state the session is in. Before that, the loaded scenario with the
    /// commands issued so far, its own duration and end of input unchanged.
    pub fn to_scenario_now(&self) -> Scenario {
        let mut sc = self.with_log();
        if self.elapsed() > 0 {
            sc.duration_ms = self.elapsed();
            sc.end_of_input = false;
        }
        sc
    }

    fn with_log(&self) -> Scenario {
        let mut sc = self.scenario.clone();
        sc.commands.extend(self.log.iter().cloned());
        // Stable, so same-instant commands keep their order: the replay is unchanged.
        sc.commands.sort_by_key(|c| c.at_ms);
        sc
    }

    /// `to_scenario()` as a share string.
    pub fn to_share_string(&self) -> String {
        share::encode(&serde_json::to_string(&self.to_scenario()).unwrap_or_default())
    }
}
