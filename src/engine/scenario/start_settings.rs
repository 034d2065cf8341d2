//! The settings a job starts with. A parameter set at the start (the UI's fields edited at
//! 00:00 before ▶, each applied at the next instant: 0 ms, 1 ms, 2 ms …) is the job's own
//! setting: the exported job starts with it, and a restart from time zero shows it at once. The
//! simulation applies the parameters, so what a parameter means (a bound on SQL's generator, an
//! idle timeout that reaches SQL's watermark operator) is written once, in `set_param`.

use super::schema::Scenario;
use crate::engine::command::Command;
use crate::engine::error::InputError;
use crate::engine::job::JobConfig;
use crate::engine::time::ProcTime;

/// A scenario with its starting settings folded in, and where its commands came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Folded {
    pub scenario: Scenario,
    /// The parameters whose `set_param` commands became settings, each once, in order.
    pub settings: Vec<String>,
    /// The index in the user's `commands` of each command left (an error names theirs).
    origin: Vec<usize>,
}

impl Folded {
    /// An error about the folded scenario's `commands[i]`, naming the user's command instead.
    pub fn user_error(&self, mut e: InputError) -> InputError {
        let index = e.path.strip_prefix("commands[").and_then(|r| r.split_once(']'));
        if let Some((Ok(i), rest)) = index.map(|(i, rest)| (i.parse::<usize>(), rest)) {
            if let Some(o) = self.origin.get(i) {
                e.path = format!("commands[{o}]{rest}");
            }
        }
        e
    }
}

impl Scenario {
    /// The scenario with its leading `set_param` commands at the start folded into its own
    /// settings, in time order as the run applies them. "At the start": the `n`-th (from 0) at
    /// most `n + 1` ms in, as edits made before ▶ land (each at the next instant: 0 or 1 ms, then
    /// one ms later each), before the job has been played.
    pub fn fold_start_settings(&self) -> Result<Folded, InputError> {
        let order = self.command_order();
        let at_start = |(n, &i): (usize, &usize)| {
            let c = &self.commands[i];
            matches!(c.command, Command::SetParam { .. }) && c.at_ms <= i64::try_from(n).unwrap_or(i64::MAX).saturating_add(1)
        };
        let n = order.iter().enumerate().take_while(|&x| at_start(x)).count();
        let mut out = self.clone();
        out.commands = order[n..].iter().map(|&i| self.commands[i].clone()).collect();
        if n > 0 {
            let mut head = self.clone();
            head.commands = order[..n].iter().map(|&i| self.commands[i].clone()).collect();
            let mut sim = head.build()?;
            sim.run_until(ProcTime(self.start_time_ms + head.commands[n - 1].at_ms))?;
            out.adopt_runtime_settings(sim.config());
        }
        let mut settings: Vec<String> = Vec::new();
        for c in &order[..n] {
            if let Command::SetParam { param } = &self.commands[*c].command {
                let name = param.name();
                if !settings.contains(&name) {
                    settings.push(name);
                }
            }
        }
        Ok(Folded { scenario: out, settings, origin: order[n..].to_vec() })
    }

    /// Takes the running job's values of every parameter a `set_param` command can change.
    pub(crate) fn adopt_runtime_settings(&mut self, cfg: &JobConfig) {
        let inputs = std::iter::once(&mut self.source).chain(self.second_input.as_mut().map(|s| &mut s.source));
        for (spec, input) in inputs.zip(&cfg.inputs) {
            spec.watermark.generator = input.source.generator;
            spec.watermark.idle_timeout_ms = input.source.idle_timeout_ms;
            // One setting per job, written in each source (validation checks they agree).
            spec.watermark.auto_watermark_interval_ms = cfg.auto_watermark_interval_ms;
            spec.transform = input.source.transform;
            spec.read_rate_per_s = input.read_rate_per_s;
            spec.midstream = input.midstream;
        }
        self.exchange.latency_ms = cfg.channel_latency_ms;
        if let Some(w) = &mut self.window {
            w.allowed_lateness_ms = cfg.allowed_lateness_ms;
            w.late_side_output = cfg.late_side_output;
        }
        if let Some(j) = &mut self.interval_join {
            j.late_side_output = cfg.late_side_output;
        }
        self.sink.mode = cfg.sink;
        self.flow.keyed_capacity_per_s = cfg.flow.keyed_capacity_per_s;
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::command::{Command, Param};
    use crate::engine::scenario::build::parse;
    use crate::engine::scenario::catalog;
    use crate::engine::scenario::schema::TimedCommand;

    fn set(at_ms: i64, param: Param) -> TimedCommand {
        TimedCommand { at_ms, command: Command::SetParam { param } }
    }

    #[test]
    fn parameters_set_at_the_start_become_the_settings_and_later_ones_stay_commands() {
        let mut sc = parse(catalog::preset("heartbeat-idle-timeout").unwrap().json).unwrap();
        sc.commands = vec![
            set(1, Param::IdleTimeoutMs(Some(15_000))),
            set(1, Param::BoundMs(2_000)),
            set(1, Param::AllowedLatenessMs(3_000)),
            set(5_000, Param::SinkMode(crate::engine::operator::sink::SinkMode::Upsert)),
        ];
        let f = sc.fold_start_settings().unwrap();
        let (folded, n) = (f.scenario.clone(), f.settings.len());
        assert_eq!(n, 3);
        assert_eq!(folded.source.watermark.idle_timeout_ms, Some(15_000));
        assert_eq!(folded.window.as_ref().unwrap().allowed_lateness_ms, 3_000);
        assert_eq!(folded.commands, sc.commands[3..].to_vec());
        // Folded, the job runs as it did with the commands.
        let end = |s: &crate::engine::scenario::schema::Scenario| {
            let mut sim = s.build().unwrap();
            sim.run_until(crate::engine::time::ProcTime(s.start_time_ms + 60_000)).unwrap();
            sim.config().clone()
        };
        assert_eq!(end(&folded), end(&sc));
    }

    #[test]
    fn nothing_to_fold_leaves_the_scenario_as_it_is() {
        let mut sc = parse(catalog::preset("heartbeat-idle-timeout").unwrap().json).unwrap();
        sc.commands = vec![set(1_000, Param::IdleTimeoutMs(Some(15_000)))];
        let f = sc.fold_start_settings().unwrap();
        assert_eq!((f.scenario, f.settings.len()), (sc.clone(), 0));
    }

    /// The UI's edits at 00:00 land 1 ms apart (each at the next instant): all of them are the
    /// job's settings, whatever their order in the file.
    #[test]
    fn every_edit_before_the_first_read_folds_in_time_order() {
        let mut sc = parse(catalog::preset("late-data").unwrap().json).unwrap();
        sc.commands = vec![
            set(2, Param::AllowedLatenessMs(3_000)),
            set(0, Param::BoundMs(2_500)),
            set(1, Param::IdleTimeoutMs(Some(20_000))),
            set(60_000, Param::LateSideOutput(true)),
        ];
        let f = sc.fold_start_settings().unwrap();
        assert_eq!(f.settings, ["bound_ms", "idle_timeout_ms", "allowed_lateness_ms"]);
        assert_eq!(f.scenario.source.watermark.idle_timeout_ms, Some(20_000));
        assert_eq!(f.scenario.window.as_ref().unwrap().allowed_lateness_ms, 3_000);
        // An error about what is left names the user's command.
        let e = f.user_error(crate::engine::error::InputError::new("commands[0].param", "x"));
        assert_eq!(e.path, "commands[3].param");
    }

    /// Two inputs: the interval is one setting per job, written in both sources.
    #[test]
    fn a_two_input_job_stays_valid() {
        let mut sc = parse(catalog::preset("union-idle-stream").unwrap().json).unwrap();
        sc.commands = vec![set(0, Param::AutoWatermarkIntervalMs(100)), set(1, Param::IdleTimeoutMs(Some(7_000)))];
        let f = sc.fold_start_settings().unwrap();
        assert_eq!(f.settings.len(), 2);
        f.scenario.validate().unwrap();
        assert_eq!(f.scenario.second_input.as_ref().unwrap().source.watermark.auto_watermark_interval_ms, 100);
        assert_eq!(f.scenario.second_input.as_ref().unwrap().source.watermark.idle_timeout_ms, Some(7_000));
    }
}
