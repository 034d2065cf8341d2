//! The one check of every command, and the bounds a scenario must keep.
//!
//! A scheduled command that fails would stop the simulation in the middle of an instant, so the
//! session checks every command before the engine sees it: against a [`Shadow`] of the job's
//! shape (partition count, released splits) at the command's own time — the live job plus
//! every command still waiting before it. The engine applies a command with the same rules
//! (`Simulation::apply` calls the functions below), so a message never depends on who checked.
//!
//! Commands from API calls and UI actions are checked a little more strictly ([`Strictness`]):
//! no records for a partition nothing reads any more, timestamps within ±(2^53 − 1), and no
//! silence, resume, detach, attach or second removal of a removed partition (a link's replay is spared
//! that last rule: links made before it may hold such commands, and must replay to the same
//! hash). Every command keeps a topic within [`MAX_PARTITIONS`] partitions.

use crate::engine::command::{Command, Param};
use crate::engine::error::InputError;
use crate::engine::failover::FailTarget;
use crate::engine::limits::{MAX_DURATION_MS, MAX_INTERVAL_MS, MAX_PARTITIONS, MAX_SAFE};
use crate::engine::operator::sql_window::WindowApi;
use crate::engine::producer::ProducerKind;
use crate::engine::scenario::schema::{validate_generator, ProducerSpec, RecordSpec, Scenario};
use crate::engine::sim::Simulation;
use crate::engine::time::ProcTime;
use crate::engine::topics::Topics;

/// How a command is checked: a scenario's own, a link's replayed ones, or one issued now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strictness {
    Scripted,
    Replayed,
    Issued,
}

/// `partition` must exist in a topic of `count` partitions.
pub fn partition_exists(partition: u32, count: u32, path: &str) -> Result<(), InputError> {
    if partition < count {
        Ok(())
    } else {
        Err(InputError::new(path, format!("no partition {partition} (the topic has {count})")))
    }
}

/// A command that needs a live split named one whose split was released.
pub fn released(partition: u32, path: &str) -> InputError {
    InputError::new(path, format!("partition {partition}'s split was already released"))
}

/// A literal record as the `produce` command gives it, applied at processing time `at`.
pub fn record(r: &RecordSpec, at: ProcTime, strict: bool) -> Result<(), InputError> {
    if r.ts.is_some() && r.ts_offset_ms.is_some() {
        return Err(InputError::new("ts", "give either ts or ts_offset_ms, not both"));
    }
    if r.ts_offset_ms.is_some_and(|off| at.checked_add(off).is_none()) {
        return Err(InputError::new("ts_offset_ms", "overflows"));
    }
    if strict {
        for (name, v) in [("ts", r.ts), ("ts_offset_ms", r.ts_offset_ms), ("value", r.value)] {
            if let Some(v) = v {
                safe(v, name)?;
            }
        }
    }
    Ok(())
}

/// A parameter change, as Flink's own constructors and the engine's arithmetic allow it, for a
/// job whose window aggregation is written in `api` (a SQL one has no lateness settings).
pub fn param(param: &Param, api: WindowApi) -> Result<(), InputError> {
    let bad = |m: &str| Err(InputError::new("value", m));
    match *param {
        Param::AllowedLatenessMs(l) if l != 0 && api == WindowApi::Sql => bad("a SQL window aggregation has no allowed lateness"),
        Param::LateSideOutput(true) if api == WindowApi::Sql => bad("a SQL window aggregation has no late side output"),
        Param::BoundMs(b) if b < 0 => bad("the bound must be >= 0"),
        Param::Generator(ref g) => validate_generator(g).map_err(|e| e.within("value")),
        Param::IdleTimeoutMs(Some(t)) if t <= 0 => bad("the idle timeout must be > 0 (withIdleness rejects 0), or null for off"),
        Param::AutoWatermarkIntervalMs(i) if !(0..=MAX_INTERVAL_MS).contains(&i) => {
            bad(&format!("the interval must be in 0..={MAX_INTERVAL_MS} (0 disables periodic watermarks)"))
        }
        Param::AllowedLatenessMs(l) if l < 0 => bad("allowed lateness must be >= 0"),
        Param::ChannelLatencyMs(l) if !(0..=MAX_INTERVAL_MS).contains(&l) => bad(&format!("latency must be in 0..={MAX_INTERVAL_MS}")),
        Param::ReadRatePerS(Some(0)) => bad("the read rate must be > 0, or null for unlimited"),
        Param::KeyedCapacityPerS(Some(0)) => bad("the capacity must be > 0, or null for unbounded"),
        _ => Ok(()),
    }
}

fn safe(v: i64, field: &str) -> Result<(), InputError> {
    if v.unsigned_abs() > MAX_SAFE as u64 {
        Err(InputError::new(field, "must be within ±2^53 − 1"))
    } else {
        Ok(())
    }
}

/// Bounds a producer must keep so that the engine's time arithmetic cannot overflow (beyond
/// [`ProducerSpec::validate`], which says what a producer means).
fn producer_bounds(p: &ProducerSpec) -> Result<(), InputError> {
    safe(p.start_ms, "start_ms")?;
    if let Some(stop) = p.stop_ms {
        safe(stop, "stop_ms")?;
    }
    safe(p.event_delay_ms, "event_delay_ms")?;
    safe(p.jitter_ms, "jitter_ms")?;
    // A value past it would come back rounded from JavaScript (`toScenario`), and refused.
    safe(p.value, "value")?;
    let period = |every_ms: i64| {
        if every_ms > MAX_DURATION_MS {
            Err(InputError::new("every_ms", format!("at most {MAX_DURATION_MS} (ten years)")))
        } else {
            Ok(())
        }
    };
    match p.kind {
        ProducerKind::Burst { every_ms, .. } | ProducerKind::Heartbeat { every_ms } => period(every_ms),
        ProducerKind::Outlier { future_ms } => safe(future_ms, "future_ms"),
        ProducerKind::Backlog { span_ms, .. } => safe(span_ms, "span_ms"),
        ProducerKind::Steady { .. } => Ok(()),
    }
}

/// A producer: what it means, the bounds, and the partitions it writes to, in engine numbers.
/// A spec naming a topic counts within it; one without counts in engine numbers (all topics,
/// the second's partitions after the first's), which is the topic's own numbering in a job
/// with one input.
pub fn producer(p: &ProducerSpec, topics: &Topics) -> Result<Vec<u32>, InputError> {
    p.validate()?;
    producer_bounds(p)?;
    let Some(topic) = p.topic.as_deref() else {
        return p.partitions.resolve(topics.total()).map_err(|e| e.within("partitions"));
    };
    let input = topics.input_named(Some(topic))?;
    let numbers = topics.numbers(input);
    let local = p.partitions.resolve(numbers.len() as u32).map_err(|e| e.within("partitions"))?;
    Ok(local.into_iter().map(|i| numbers[i as usize]).collect())
}

/// Command times within ±(2^53 − 1) (producers are checked as they are attached).
pub fn scenario_bounds(sc: &Scenario) -> Result<(), InputError> {
    for (i, c) in sc.commands.iter().enumerate() {
        safe(c.at_ms, "at_ms").map_err(|e| e.within(&format!("commands[{i}]")))?;
    }
    Ok(())
}

/// How many TaskManagers and subtasks a `fail` command may name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JobSize {
    pub task_managers: u32,
    pub keyed_subtasks: u32,
    pub source_subtasks: u32,
}

impl JobSize {
    pub fn of(sim: &Simulation) -> Self {
        let c = sim.config();
        JobSize {
            task_managers: c.cluster.task_managers,
            keyed_subtasks: c.window_parallelism,
            source_subtasks: c.total_source_parallelism(),
        }
    }
}

/// A `fail` command's target must exist (paths relative to `target`).
pub fn fail_target(t: FailTarget, size: &JobSize) -> Result<(), InputError> {
    let (n, count, path, what) = match t {
        FailTarget::TaskManager(n) => (n, size.task_managers, "task_manager", "TaskManager"),
        FailTarget::KeyedSubtask(n) => (n, size.keyed_subtasks, "keyed_subtask", "keyed subtask"),
        FailTarget::SourceSubtask(n) => (n, size.source_subtasks, "source_subtask", "source subtask"),
    };
    if n < count {
        Ok(())
    } else {
        Err(InputError::new(path, format!("no {what} {n} (the job has {count})")))
    }
}

/// The job's shape as far as commands care.
#[derive(Clone, Debug)]
pub struct Shadow {
    /// Per partition: its split is released (or the partition was removed).
    released: Vec<bool>,
    /// Per partition: it was removed (its producers write nothing any more).
    removed: Vec<bool>,
    topics: Topics,
    api: WindowApi,
    size: JobSize,
}

impl Shadow {
    /// The shape of a live simulation.
    pub fn of(sim: &Simulation) -> Self {
        let released = (0..sim.partitions().len())
            .map(|p| sim.partitions()[p].removed || sim.live_split_of(p).is_none() || sim.stopping.releases_again(p))
            .collect();
        let removed = sim.partitions().iter().map(|p| p.removed).collect();
        Shadow { released, removed, topics: sim.topics(), api: sim.config().window_api, size: JobSize::of(sim) }
    }

    pub fn partitions(&self) -> u32 {
        self.released.len() as u32
    }

    fn exists(&self, p: u32) -> Result<(), InputError> {
        partition_exists(p, self.partitions(), "partition")
    }

    fn live(&self, p: u32) -> Result<(), InputError> {
        self.exists(p)?;
        if self.released[p as usize] {
            return Err(released(p, "partition"));
        }
        Ok(())
    }

    /// A partition an issued command may name for its producers: one not removed (a scripted
    /// or replayed command on a removed one does nothing, as it did when it was written).
    fn producing(&self, p: u32, how: Strictness) -> Result<(), InputError> {
        self.exists(p)?;
        if how == Strictness::Issued && self.removed[p as usize] {
            return Err(InputError::new("partition", format!("partition {p} was removed")));
        }
        Ok(())
    }

    /// A producer issued now may not name a removed partition (`"all"` still covers one, where
    /// it writes nothing). `global` is the producer's partitions as [`producer`] resolved them.
    fn attachable(&self, p: &ProducerSpec, global: &[u32], how: Strictness) -> Result<(), InputError> {
        if how != Strictness::Issued {
            return Ok(());
        }
        match p.partitions.named().iter().zip(global).find(|(_, &g)| self.removed[g as usize]) {
            Some((named, _)) => Err(InputError::new("producer.partitions", format!("partition {named} was removed"))),
            None => Ok(()),
        }
    }

    /// Checks `cmd` as applied at absolute processing time `at`, then records its effect.
    pub fn check(&mut self, cmd: &Command, at: ProcTime, how: Strictness) -> Result<(), InputError> {
        let strict = how != Strictness::Scripted;
        match cmd {
            Command::AddPartition { topic } => {
                let input = self.topics.input_named(topic.as_deref())?;
                if self.topics.count(input) >= MAX_PARTITIONS {
                    return Err(InputError::new("", format!("a topic has at most {MAX_PARTITIONS} partitions here")));
                }
                self.released.push(false);
                self.removed.push(false);
                self.topics.add(input);
            }
            Command::ReleaseSplit { partition } => {
                self.live(*partition)?;
                self.released[*partition as usize] = true;
            }
            Command::RemovePartition { partition } => {
                self.producing(*partition, how)?;
                self.released[*partition as usize] = true;
                self.removed[*partition as usize] = true;
            }
            Command::Produce { partition, records } => {
                if strict {
                    self.live(*partition)
                        .map_err(|e| InputError::new(e.path, format!("{} (nothing would read the records)", e.message)))?;
                } else {
                    self.exists(*partition)?;
                }
                for (i, r) in records.iter().enumerate() {
                    record(r, at, strict).map_err(|e| e.within(&format!("records[{i}]")))?;
                }
            }
            Command::Silence { partition } | Command::Resume { partition } | Command::DetachProducers { partition } => {
                self.producing(*partition, how)?
            }
            Command::AttachProducer { producer: p } => {
                let global = producer(p, &self.topics).map_err(|e| e.within("producer"))?;
                self.attachable(p, &global, how)?;
            }
            Command::SetParam { param: p } => param(p, self.api).map_err(|e| e.within("param"))?,
            Command::MarkSplitIdle { partition } | Command::MarkSplitActive { partition } => self.live(*partition)?,
            Command::EndOfInput | Command::Checkpoint => {}
            Command::Fail { target } => fail_target(*target, &self.size).map_err(|e| e.within("target"))?,
        }
        Ok(())
    }
}
