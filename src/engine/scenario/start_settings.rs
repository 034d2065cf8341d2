//! The settings a job starts with. A parameter set before anything runs (the UI's field edited
//! at 00:00 applies at the next instant, 1 ms in) is the job's own setting: the exported job
//! starts with it, and a restart from time zero shows it at once. The simulation applies the
//! parameters, so what a parameter means (a bound on SQL's generator, an idle timeout that
//! reaches SQL's watermark operator) is written once, in `set_param`.

use super::schema::Scenario;
use crate::engine::command::Command;
use crate::engine::error::InputError;
use crate::engine::job::JobConfig;
use crate::engine::time::ProcTime;

/// Parameters set no later than this (ms after the start) are the job's starting settings.
pub const START_SETTINGS_MS: i64 = 1;

impl Scenario {
    /// The scenario with its leading `set_param` commands at the start folded into its own
    /// settings, and how many were folded.
    pub fn fold_start_settings(&self) -> Result<(Scenario, usize), InputError> {
        let n = self.commands.iter().take_while(|c| c.at_ms <= START_SETTINGS_MS && matches!(c.command, Command::SetParam { .. })).count();
        if n == 0 {
            return Ok((self.clone(), 0));
        }
        let mut head = self.clone();
        head.commands.truncate(n);
        let mut sim = head.build()?;
        sim.run_until(ProcTime(self.start_time_ms + head.commands[n - 1].at_ms))?;
        let mut out = self.clone();
        out.commands.drain(..n);
        out.adopt_runtime_settings(sim.config());
        Ok((out, n))
    }

    /// Takes the running job's values of every parameter a `set_param` command can change.
    fn adopt_runtime_settings(&mut self, cfg: &JobConfig) {
        let inputs = std::iter::once(&mut self.source).chain(self.second_input.as_mut().map(|s| &mut s.source));
        for (spec, input) in inputs.zip(&cfg.inputs) {
            spec.watermark.generator = input.source.generator;
            spec.watermark.idle_timeout_ms = input.source.idle_timeout_ms;
            spec.transform = input.source.transform;
            spec.read_rate_per_s = input.read_rate_per_s;
            spec.midstream = input.midstream;
        }
        self.source.watermark.auto_watermark_interval_ms = cfg.auto_watermark_interval_ms;
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
        let (folded, n) = sc.fold_start_settings().unwrap();
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
        sc.commands = vec![set(2, Param::IdleTimeoutMs(Some(15_000)))];
        assert_eq!(sc.fold_start_settings().unwrap(), (sc.clone(), 0));
    }
}
