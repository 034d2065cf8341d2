//! Command checks before the engine sees a command.
//!
//! The engine validates a command when it applies it; a scheduled command that fails stops the
//! simulation in the middle of a millisecond. So the API checks every command first, against a
//! shadow of the job's shape (partition count, released splits) at the command's own time:
//! the live job plus every command still waiting to run before it. Scenario commands are
//! checked as the engine would (plus the numeric ranges that keep the engine's arithmetic in
//! range); commands from API calls are checked a little more strictly (`strict`): no records
//! for a partition nothing reads any more, timestamps within ±2^53 − 1, at most 100,000
//! partitions.

use super::convert::MAX_SAFE;
use crate::engine::command::{Command, Param};
use crate::engine::error::InputError;
use crate::engine::time::ProcTime;
use crate::engine::producer::ProducerKind;
use crate::engine::scenario::schema::{validate_generator, ProducerSpec, Scenario};
use crate::engine::sim::Simulation;

/// Upper bound for intervals and latencies (as the scenario format has it).
pub const MAX_INTERVAL_MS: i64 = 86_400_000;
/// Partitions a topic may have.
pub const MAX_PARTITIONS: u32 = 100_000;

/// The job's shape as far as commands care.
#[derive(Clone, Debug)]
pub struct Shadow {
    /// Per partition: its split is released (or the partition was removed).
    released: Vec<bool>,
}

impl Shadow {
    /// The shape of a live simulation.
    pub fn of(sim: &Simulation) -> Self {
        let released = (0..sim.partitions().len() as u32)
            .map(|p| {
                let removed = sim.partitions()[p as usize].removed;
                let split_released = sim.split_of(p).is_some_and(|(s, i)| sim.sources().get(s as usize).and_then(|src| src.splits.get(i)).is_none_or(|sp| sp.released));
                removed || split_released
            })
            .collect();
        Shadow { released }
    }

    pub fn partitions(&self) -> u32 {
        self.released.len() as u32
    }

    fn partition(&self, p: u32, path: &str) -> Result<(), InputError> {
        if p < self.partitions() {
            Ok(())
        } else {
            Err(InputError::new(path, format!("no partition {p} (the topic has {})", self.partitions())))
        }
    }

    fn live(&self, p: u32, path: &str) -> Result<(), InputError> {
        self.partition(p, path)?;
        if self.released[p as usize] {
            return Err(InputError::new(path, format!("partition {p}'s split was already released")));
        }
        Ok(())
    }

    /// Checks `cmd` as applied at absolute processing time `at`, then records its effect.
    pub fn check(&mut self, cmd: &Command, at: ProcTime, strict: bool) -> Result<(), InputError> {
        match cmd {
            Command::AddPartition => {
                if strict && self.partitions() >= MAX_PARTITIONS {
                    return Err(InputError::new("", format!("a topic has at most {MAX_PARTITIONS} partitions here")));
                }
                self.released.push(false);
            }
            Command::RemovePartition { partition } => {
                self.partition(*partition, "partition")?;
                self.released[*partition as usize] = true;
            }
            Command::Produce { partition, records } => {
                if strict {
                    self.live(*partition, "partition").map_err(|e| InputError::new(e.path, format!("{} (nothing would read the records)", e.message)))?;
                } else {
                    self.partition(*partition, "partition")?;
                }
                for (i, r) in records.iter().enumerate() {
                    let path = |f: &str| format!("records[{i}].{f}");
                    if r.ts.is_some() && r.ts_offset_ms.is_some() {
                        return Err(InputError::new(path("ts"), "give either ts or ts_offset_ms, not both"));
                    }
                    if let Some(off) = r.ts_offset_ms {
                        if at.checked_add(off).is_none() {
                            return Err(InputError::new(path("ts_offset_ms"), "overflows"));
                        }
                    }
                    if strict {
                        for (name, v) in [("ts", r.ts), ("ts_offset_ms", r.ts_offset_ms), ("value", r.value)] {
                            if v.is_some_and(|v| v.unsigned_abs() > MAX_SAFE as u64) {
                                return Err(InputError::new(path(name), "must be within ±2^53 − 1"));
                            }
                        }
                    }
                }
            }
            Command::Silence { partition } | Command::Resume { partition } | Command::DetachProducers { partition } => {
                self.partition(*partition, "partition")?;
            }
            Command::AttachProducer { producer } => {
                producer.validate().map_err(|e| e.within("producer"))?;
                check_producer_bounds(producer).map_err(|e| e.within("producer"))?;
                producer.partitions.resolve(self.partitions()).map_err(|e| e.within("producer.partitions"))?;
            }
            Command::SetParam { param } => check_param(param).map_err(|e| e.within("param"))?,
            Command::MarkSplitIdle { partition } | Command::MarkSplitActive { partition } => self.live(*partition, "partition")?,
            Command::ReleaseSplit { partition } => {
                self.live(*partition, "partition")?;
                self.released[*partition as usize] = true;
            }
            Command::EndOfInput => {}
        }
        Ok(())
    }
}

/// The engine's own checks of `set_param` (same messages), plus ranges that keep its arithmetic
/// in range (intervals and latencies up to a day, as in the scenario format).
pub fn check_param(param: &Param) -> Result<(), InputError> {
    let bad = |m: &str| Err(InputError::new("value", m));
    match *param {
        Param::BoundMs(b) if b < 0 => bad("the bound must be >= 0"),
        Param::Generator(ref g) => validate_generator(g).map_err(|e| e.within("value")),
        Param::IdleTimeoutMs(Some(t)) if t <= 0 => bad("the idle timeout must be > 0 (withIdleness rejects 0), or null for off"),
        Param::AutoWatermarkIntervalMs(i) if !(0..=MAX_INTERVAL_MS).contains(&i) => {
            bad("the interval must be in 0..=86400000 (0 disables periodic watermarks)")
        }
        Param::AllowedLatenessMs(l) if l < 0 => bad("allowed lateness must be >= 0"),
        Param::ChannelLatencyMs(l) if !(0..=MAX_INTERVAL_MS).contains(&l) => bad("latency must be in 0..=86400000"),
        Param::ReadRatePerS(Some(0)) => bad("the read rate must be > 0, or null for unlimited"),
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

/// Bounds a producer must keep so that the engine's time arithmetic cannot overflow (the
/// scenario format only asks for `>= 0` here).
pub fn check_producer_bounds(p: &ProducerSpec) -> Result<(), InputError> {
    safe(p.start_ms, "start_ms")?;
    if let Some(stop) = p.stop_ms {
        safe(stop, "stop_ms")?;
    }
    safe(p.event_delay_ms, "event_delay_ms")?;
    safe(p.jitter_ms, "jitter_ms")?;
    match p.kind {
        ProducerKind::Burst { count, .. } if count > 10_000_000 => Err(InputError::new("count", "at most 10,000,000 records per burst")),
        ProducerKind::Backlog { span_ms, .. } => safe(span_ms, "span_ms"),
        _ => Ok(()),
    }
}

/// The same bounds for a whole scenario, plus command times within ±2^53 − 1.
pub fn check_scenario_bounds(sc: &Scenario) -> Result<(), InputError> {
    for (i, p) in sc.producers.iter().enumerate() {
        check_producer_bounds(p).map_err(|e| e.within(&format!("producers[{i}]")))?;
    }
    for (i, c) in sc.commands.iter().enumerate() {
        safe(c.at_ms, "at_ms").map_err(|e| e.within(&format!("commands[{i}]")))?;
    }
    Ok(())
}
