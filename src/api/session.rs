//! A session: the simulation, the scenario it came from, and every command the API issued.
//!
//! Commands from API calls are not applied in the middle of an instant: a command issued when
//! the clock stands at `now` is scheduled at `now + 1` and that instant is processed at once,
//! exactly as a scenario command with `at_ms = now + 1 − start` would be (commands first, then
//! producers, channels, reads and the periodic emission). So `toScenario()` — the original
//! scenario plus the issued commands as its `commands` — reproduces the session's trace, hash
//! included, in the API and in `wmp run` alike.

use super::error::{ApiError, ApiResult};
use super::events::{Collector, Wants};
use super::validate::{check_param, check_scenario_bounds, Shadow};
use crate::engine::command::{Command, Param};
use crate::engine::error::InputError;
use crate::engine::scenario::schema::{Scenario, TimedCommand};
use crate::engine::sim::{ScheduledCommand, Simulation};
use crate::engine::time::ProcTime;
use serde_json::Value;

/// Parameters that shape the job itself: they can change only before it starts.
pub const STRUCTURAL_PARAMS: [&str; 4] = ["source_parallelism", "window_parallelism", "window", "aggregate"];

pub struct Session {
    pub sim: Simulation,
    /// The scenario as loaded (with structural changes made before the start).
    scenario: Scenario,
    /// Commands issued through the API (applied or scheduled), in issue order.
    log: Vec<TimedCommand>,
    /// `runToEnd()` applied the end of input.
    finished: bool,
    /// The engine returned an error while running (should not happen: input is checked first).
    halted: Option<String>,
    pub collector: Collector,
}

/// A scenario's error with the right JS error class: wrong types are `TypeError`s, syntax and
/// unknown or missing fields `Error`s, values out of range `RangeError`s.
pub fn scenario_error(e: InputError) -> ApiError {
    let m = e.message.as_str();
    if m.starts_with("invalid type") {
        ApiError::type_(e.path, e.message)
    } else if m.starts_with("unknown") || m.starts_with("missing") || m.contains(" at line ") || m.starts_with("expected") {
        ApiError::error(e.path, e.message)
    } else {
        ApiError::input(e)
    }
}

fn build(scenario: &Scenario, log: &[TimedCommand]) -> ApiResult<Simulation> {
    check_scenario_bounds(scenario).map_err(ApiError::input)?;
    let mut sim = scenario.build().map_err(scenario_error)?;
    let start = sim.config().start_time;
    let n = scenario.commands.len();
    for (j, c) in log.iter().enumerate() {
        sim.schedule(ScheduledCommand { at: start + c.at_ms, command: c.command.clone(), path: format!("commands[{}]", n + j) });
    }
    Ok(sim)
}

impl Session {
    /// A session at the scenario's start; its scripted commands are checked up front.
    pub fn new(scenario: Scenario) -> ApiResult<Self> {
        let sim = build(&scenario, &[])?;
        let mut s = Session { sim, scenario, log: Vec::new(), finished: false, halted: None, collector: Collector::default() };
        s.check(&[], &[])?;
        s.collector.reset(&s.sim);
        Ok(s)
    }

    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    pub fn start(&self) -> ProcTime {
        self.sim.config().start_time
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

    /// The engine error that stopped the session, if any.
    pub fn halted(&self) -> Option<&str> {
        self.halted.as_deref()
    }

    /// How many commands were issued through this session (applied or scheduled).
    pub fn issued(&self) -> usize {
        self.log.len()
    }

    fn ensure_running(&self) -> ApiResult<()> {
        if self.finished {
            return Err(ApiError::error("", "the job has finished (runToEnd() applied the end of input); load toScenario() into a new playground to go on"));
        }
        if let Some(m) = &self.halted {
            return Err(ApiError::error("", format!("the simulation stopped after an engine error ({m}); create a new playground")));
        }
        Ok(())
    }

    fn halt(&mut self, e: InputError) -> ApiError {
        let text = e.to_string();
        self.halted = Some(text.clone());
        ApiError::error("", format!("the engine stopped: {text}"))
    }

    /// Commands waiting to run (after `now`), in the engine's order, with their labels.
    fn pending(&self) -> Vec<(ProcTime, &Command, String)> {
        let start = self.start();
        let now = self.sim.now();
        let n = self.scenario.commands.len();
        let mut v: Vec<_> = self
            .scenario
            .commands
            .iter()
            .enumerate()
            .map(|(i, c)| (start + c.at_ms, &c.command, format!("commands[{i}]")))
            .chain(self.log.iter().enumerate().map(|(j, c)| (start + c.at_ms, &c.command, format!("commands[{}]", n + j))))
            .filter(|c| c.0 > now)
            .collect();
        v.sort_by_key(|c| c.0);
        v
    }

    /// Checks new commands (`(at, command)`, named `paths[i]`) together with everything still
    /// waiting, in run order, against the job's shape. With no new commands, checks the waiting
    /// ones and names them (`commands[3].partition`).
    fn check(&self, new: &[(ProcTime, Command)], paths: &[String]) -> ApiResult<()> {
        let mut shadow = Shadow::of(&self.sim);
        let mut items: Vec<(ProcTime, &Command, Option<usize>, String)> = self.pending().into_iter().map(|(at, c, l)| (at, c, None, l)).collect();
        for (k, (at, c)) in new.iter().enumerate() {
            items.push((*at, c, Some(k), String::new()));
        }
        items.sort_by_key(|c| c.0);
        let start = self.start();
        for (at, cmd, new_index, label) in items {
            if let Err(e) = shadow.check(cmd, at, new_index.is_some()) {
                return Err(match new_index {
                    Some(k) => ApiError::input(e).within(paths.get(k).map_or("", |p| p.as_str())),
                    None if new.is_empty() => ApiError::input(e).within(&label),
                    None => ApiError::error(
                        paths.first().cloned().unwrap_or_default(),
                        format!("this would make the scheduled {label} (at {} ms) fail: {e}", at - start),
                    ),
                });
            }
        }
        Ok(())
    }

    /// Schedules commands at absolute time `at` (> now), after checking them.
    pub fn schedule_at(&mut self, at: ProcTime, cmds: Vec<Command>, paths: &[String]) -> ApiResult<()> {
        self.ensure_running()?;
        if at <= self.sim.now() {
            return Err(ApiError::range("atMs", format!("{} is not in the future (the clock is at {} ms)", at - self.start(), self.elapsed())));
        }
        let new: Vec<(ProcTime, Command)> = cmds.iter().map(|c| (at, c.clone())).collect();
        self.check(&new, paths)?;
        let start = self.start();
        let n = self.scenario.commands.len();
        for c in cmds {
            let path = format!("commands[{}]", n + self.log.len());
            self.sim.schedule(ScheduledCommand { at, command: c.clone(), path });
            self.log.push(TimedCommand { at_ms: at - start, command: c });
        }
        Ok(())
    }

    /// Applies commands at the next instant (`now + 1`) and processes that instant.
    pub fn apply_now(&mut self, cmds: Vec<Command>, paths: &[String], wants: Wants) -> ApiResult<()> {
        self.ensure_running()?;
        let at = self.sim.now() + 1;
        self.schedule_at(at, cmds, paths)?;
        self.run_until_abs(at, wants)
    }

    /// Processes every instant up to absolute time `t`, pulling deltas as it goes if listeners
    /// need them.
    fn run_until_abs(&mut self, t: ProcTime, wants: Wants) -> ApiResult<()> {
        if wants.needs_pull() {
            loop {
                match self.sim.next_event_time() {
                    Some(n) if n <= t => {
                        if let Err(e) = self.sim.step() {
                            return Err(self.halt(e));
                        }
                        self.collector.maybe_pull(&self.sim, wants);
                    }
                    _ => break,
                }
            }
        }
        self.sim.run_until(t).map_err(|e| self.halt(e))
    }

    /// `runUntil(atMs)`: `at_ms` is relative to the start, like a scenario command's `at_ms`.
    pub fn run_until(&mut self, at_ms: i64, wants: Wants) -> ApiResult<()> {
        self.ensure_running()?;
        if at_ms < self.elapsed() {
            return Err(ApiError::range("atMs", format!("{at_ms} is in the past (the clock is at {} ms)", self.elapsed())));
        }
        self.run_until_abs(self.start() + at_ms, wants)
    }

    pub fn run_for(&mut self, ms: i64, wants: Wants) -> ApiResult<()> {
        self.ensure_running()?;
        // Before the start the clock counts as 0, so `runFor(60_000)` ends at 60 s like `runUntil`.
        let from = self.sim.now().max(self.start());
        self.run_until_abs(from.saturating_add(ms), wants)
    }

    /// One instant; its time relative to the start, or `None` when nothing will ever happen.
    pub fn step(&mut self, wants: Wants) -> ApiResult<Option<i64>> {
        self.ensure_running()?;
        match self.sim.step() {
            Ok(t) => {
                if wants.needs_pull() {
                    self.collector.maybe_pull(&self.sim, wants);
                }
                Ok(t.map(|t| t - self.start()))
            }
            Err(e) => Err(self.halt(e)),
        }
    }

    /// Steps until an interesting change (operator watermark, window, late record, idle/active
    /// flip) or until `limit_ms` of processing time has passed.
    pub fn step_to_next_interesting(&mut self, limit_ms: i64, wants: Wants) -> ApiResult<bool> {
        self.ensure_running()?;
        if !wants.needs_pull() {
            return self.sim.step_to_next_interesting(limit_ms).map_err(|e| self.halt(e));
        }
        let seen = self.sim.trace().interesting_seen();
        let deadline = self.sim.now().saturating_add(limit_ms);
        while self.sim.trace().interesting_seen() == seen {
            match self.sim.next_event_time() {
                Some(t) if t <= deadline => {
                    if let Err(e) = self.sim.step() {
                        return Err(self.halt(e));
                    }
                    self.collector.maybe_pull(&self.sim, wants);
                }
                _ => {
                    // As the engine does: everything up to the deadline ran, the clock stands there.
                    self.sim.run_until(deadline).map_err(|e| self.halt(e))?;
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }

    /// What `wmp run` does: run to `start + duration_ms`, then the end of input if the scenario
    /// asks for it (after which the job is finished).
    pub fn run_to_end(&mut self, wants: Wants) -> ApiResult<()> {
        self.ensure_running()?;
        let end = self.start().saturating_add(self.scenario.duration_ms);
        self.run_until_abs(end.max(self.sim.now()), wants)?;
        if self.scenario.end_of_input {
            if let Err(e) = self.sim.apply(Command::EndOfInput) {
                return Err(self.halt(e));
            }
            self.finished = true;
        }
        Ok(())
    }

    /// `setParam` for the job's shape (parallelism, window, aggregate): only before the start;
    /// the scenario is changed and the job rebuilt.
    pub fn set_structure(&mut self, name: &str, value: Value) -> ApiResult<()> {
        self.ensure_running()?;
        if self.started() {
            return Err(ApiError::error(
                "name",
                format!("{name} can only change before the job starts (the clock is at {} ms); Flink needs a restart for that too", self.elapsed()),
            ));
        }
        let mut sc = self.scenario.clone();
        match name {
            "source_parallelism" => sc.source.parallelism = super::convert::from_json(value, "value")?,
            "window_parallelism" => sc.window.parallelism = super::convert::from_json(value, "value")?,
            "window" => sc.window.assigner = super::convert::from_json(value, "value")?,
            "aggregate" => sc.window.aggregate = super::convert::from_json(value, "value")?,
            _ => return Err(ApiError::range("name", format!("unknown parameter {name:?}"))),
        }
        sc.validate().map_err(|e| ApiError::input(e).within("value"))?;
        let sim = build(&sc, &self.log)?;
        self.sim = sim;
        self.scenario = sc;
        self.collector.reset(&self.sim);
        Ok(())
    }

    /// `setParam` for a parameter the running job can change: a `set_param` command.
    pub fn set_param(&mut self, param: Param, wants: Wants) -> ApiResult<()> {
        check_param(&param).map_err(ApiError::input)?;
        self.apply_now(vec![Command::SetParam { param }], &[String::new()], wants)
    }

    /// The scenario that reproduces this session: the original plus every issued command, run
    /// for at least as long as the session has run.
    pub fn to_scenario(&self) -> Scenario {
        let mut sc = self.scenario.clone();
        sc.commands.extend(self.log.iter().cloned());
        let elapsed = self.elapsed();
        if self.finished {
            sc.duration_ms = elapsed;
            sc.end_of_input = true;
        } else {
            sc.duration_ms = sc.duration_ms.max(elapsed);
        }
        sc
    }
}
