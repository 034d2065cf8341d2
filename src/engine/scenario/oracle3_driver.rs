//! Drives an oracle3 scenario (`super::oracle3`) step by step as the oracle's driver does, and
//! keeps what the driver logs: the reads, alignment, checkpoints, failures and restores per step
//! (`Oracle3Run`, which `oracle3_report` shapes like the goldens). The rules of time and steps
//! are in `oracle3`'s module doc.

use super::oracle3::*;
use super::schema::DEFAULT_START_MS;
use crate::engine::command::Command;
use crate::engine::error::InputError;
use crate::engine::failover::FailTarget;
use crate::engine::keys::KeyTable;
use crate::engine::poll::{Poll, PollStop};
use crate::engine::scenario::schema::RecordSpec;
use crate::engine::sim::Simulation;
use crate::engine::time::ProcTime;
use serde_json::{json, Value};

/// A run: the engine after the last step, and what the driver saw and did at each step.
pub struct Oracle3Run {
    pub sim: Simulation,
    /// The trace cursor at the start of every step (schedule, after-the-last, end steps); the
    /// step's events are those up to the next cursor.
    pub step_starts: Vec<u64>,
    /// `reads`, `alignment`, `checkpoints`, `failures`, `restored` as the driver logs them.
    pub reads: Vec<Value>,
    pub alignment: Vec<Value>,
    pub checkpoints: Vec<Value>,
    pub failures: Vec<Value>,
    pub restored: Vec<Value>,
}

pub(super) struct Driver<'a> {
    sc: &'a Oracle3Scenario,
    run: Oracle3Run,
    t: ProcTime,
    settle: i64,
}

impl<'a> Driver<'a> {
    /// The job with every split's records in its partition, started; the first step comes
    /// `phase_ms` after the start (the alignment ticks' phase, which must not matter).
    pub(super) fn new(sc: &'a Oracle3Scenario, phase_ms: i64) -> Result<Self, InputError> {
        let counts: Vec<u32> = sc.sources.iter().map(|s| s.splits.len() as u32).collect();
        let mut sim = Simulation::new(sc.job_config(), KeyTable::default(), &counts);
        for (s, src) in sc.sources.iter().enumerate() {
            for (p, split) in src.splits.iter().enumerate() {
                let records = split
                    .iter()
                    .map(|e| RecordSpec {
                        ts: Some(e.ts),
                        ts_offset_ms: None,
                        key: Some(e.key.clone()),
                        value: Some(e.value),
                        heartbeat: false,
                    })
                    .collect();
                let cmd = Command::Produce { partition: sc.partition(s, p), records };
                sim.apply(cmd).map_err(|e| e.within(&format!("sources[{s}].splits[{p}]")))?;
            }
        }
        let t = ProcTime(DEFAULT_START_MS + phase_ms);
        sim.run_until(t)?;
        let run = Oracle3Run {
            sim,
            step_starts: Vec::new(),
            reads: Vec::new(),
            alignment: Vec::new(),
            checkpoints: Vec::new(),
            failures: Vec::new(),
            restored: Vec::new(),
        };
        Ok(Driver { sc, run, t, settle: sc.settle() })
    }

    fn sim(&mut self) -> &mut Simulation {
        &mut self.run.sim
    }

    /// The execution attempt as Flink numbers it (0, then 1 after a restart).
    fn attempt(&self) -> u32 {
        self.run.sim.failover().attempt - 1
    }

    pub(super) fn run(mut self) -> Result<Oracle3Run, InputError> {
        let steps = self.sc.steps()?;
        for (k, &step) in steps.iter().enumerate() {
            // The oracle's driver snapshots before the steps it hands to a subtask.
            let handed = !matches!(step, Oracle3Step::Sleep(_) | Oracle3Step::Checkpoint | Oracle3Step::Fail);
            self.begin(k, handed);
            // `steps[k]`: the expanded schedule, as the oracle's `settings.steps` lists it.
            let advance = self.perform(k, step).map_err(|e| e.within(&format!("steps[{k}]")))?;
            self.advance(advance)?;
        }
        // After the last step: one more snapshot; then the end of input, one subtask per step.
        let mut k = steps.len();
        self.begin(k, true);
        self.advance(1)?;
        if self.sc.flush_at_end {
            while let Some(s) = self.next_to_end() {
                k += 1;
                self.begin(k, true);
                self.sim().end_input_of(s)?;
                self.advance(self.settle)?;
            }
        }
        if self.run.sim.trace().retained().next().is_some_and(|e| e.seq > 0) {
            return Err(InputError::new("schedule", format!("the run is too long to report: over {TRACE_CAPACITY} trace events")));
        }
        Ok(self.run)
    }

    /// The first subtask that has not ended and that alignment does not block (the group
    /// minimum never is); the first one left if all are blocked.
    fn next_to_end(&self) -> Option<u32> {
        let left: Vec<&_> = self.run.sim.sources().iter().filter(|s| !s.finished).collect();
        left.iter().find(|s| s.reads()).or(left.first()).map(|s| s.index)
    }

    /// The start of step `k`: its trace cursor and, if `snapshot`, the alignment snapshots.
    fn begin(&mut self, k: usize, snapshot: bool) {
        self.run.step_starts.push(self.run.sim.trace().cursor());
        if snapshot && self.sc.aligned() {
            let attempt = self.attempt();
            let snaps = super::oracle3_report::snapshots(&self.run.sim, k, attempt);
            self.run.alignment.extend(snaps);
        }
    }

    /// Processing time moves on by `ms` (at least 1) after a step.
    fn advance(&mut self, ms: i64) -> Result<(), InputError> {
        self.t += ms.max(1);
        let t = self.t;
        self.sim().run_until(t)
    }

    /// Performs step `k`; returns how long the driver waits after it.
    fn perform(&mut self, k: usize, step: Oracle3Step) -> Result<i64, InputError> {
        let attempt = self.attempt();
        let settle = self.settle;
        let changed = |yes: bool| if yes { settle } else { 1 };
        match step {
            Oracle3Step::Read { src, split, n } => {
                let partition = self.sc.partition(src, split);
                let owner = self.run.sim.split_of(partition).map_or(0, |(s, _)| s);
                let subtask = self.run.sim.sources()[owner as usize].index_in_source;
                // The driver does not hand a read to a subtask that waits for alignment: it
                // cannot be polled at all.
                let poll = if self.run.sim.sources()[owner as usize].reads() {
                    self.sim().poll(partition, n)?
                } else {
                    Poll { got: 0, stop: PollStop::Blocked }
                };
                self.run.reads.push(json!({"step": k, "attempt": attempt, "src": src, "subtask": subtask, "split": split,
                    "want": n, "got": poll.got, "stop": poll.stop}));
                Ok(changed(poll.got > 0))
            }
            Oracle3Step::Idle { src, split } => self.apply(Command::MarkSplitIdle { partition: self.sc.partition(src, split) }),
            Oracle3Step::Active { src, split } => self.apply(Command::MarkSplitActive { partition: self.sc.partition(src, split) }),
            Oracle3Step::Release { src, split } => self.apply(Command::ReleaseSplit { partition: self.sc.partition(src, split) }),
            Oracle3Step::Sleep(ms) => Ok(ms),
            Oracle3Step::Checkpoint => {
                self.sim().apply(Command::Checkpoint)?;
                let offsets = super::oracle3_report::checkpoint_offsets(&self.run.sim);
                let id = self.run.sim.failover().coordinator.completed();
                self.run.checkpoints.push(json!({"step": k, "id": id, "offsets": offsets}));
                Ok(1)
            }
            Oracle3Step::Fail => {
                let wm = self.run.sim.downstream().windows[0].current_input_watermark();
                self.run.failures.push(json!({"step": k, "attempt": attempt, "wm": wm.ms()}));
                self.sim().apply(Command::Fail { target: FailTarget::KeyedSubtask(0) })?;
                let until = self
                    .run
                    .sim
                    .failover()
                    .restarting_until
                    .ok_or_else(|| InputError::invalid("", "the job failed for good: the restart strategy allows no more restarts"))?;
                self.t = until;
                self.sim().run_until(until)?;
                let attempt = self.attempt();
                let restored = super::oracle3_report::restored_splits(&self.run.sim, k, attempt);
                self.run.restored.extend(restored);
                Ok(self.settle)
            }
        }
    }

    /// An idle/active/release mark: it changes watermark state.
    fn apply(&mut self, cmd: Command) -> Result<i64, InputError> {
        self.sim().apply(cmd)?;
        Ok(self.settle)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_outcome_does_not_depend_on_the_phase_of_the_alignment_ticks() {
        let goldens = [
            include_str!("../../../tests/golden/oracle3/scenarios/02_align_split_burst_buffer0.json"),
            include_str!("../../../tests/golden/oracle3/scenarios/03_align_split_burst_buffer3.json"),
            include_str!("../../../tests/golden/oracle3/scenarios/05_align_two_sources_burst_buffer0.json"),
            include_str!("../../../tests/golden/oracle3/scenarios/18_align_paused_split_never_idles.json"),
        ];
        for text in goldens {
            let sc = parse(text).unwrap();
            let report = |phase| {
                let mut r = super::super::oracle3_report::report(&sc, &Driver::new(&sc, phase).unwrap().run().unwrap());
                r["trace_hash"] = Value::Null;
                r
            };
            let at_zero = report(0);
            for phase in [1, 37, 99, 150] {
                assert_eq!(report(phase), at_zero, "{}: phase {phase}", sc.description);
            }
        }
    }
}
