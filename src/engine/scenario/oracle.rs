//! The Flink oracle's scenario format (`../shared/oracle/README.md`) and result shape, so any
//! oracle scenario runs on this engine and compares directly with real Flink's answer.
//!
//! Mapping: one source subtask reading every partition (KafkaSource with parallelism 1), a
//! forward edge into one window subtask, the bounded-out-of-orderness formula emitted per
//! event (the oracle's `per_event` mode) or periodically, and one processing-time millisecond
//! per scheduled action (`record_delay_ms` apart in periodic mode).

use super::oracle_schedule::{OracleSchedule, Step};
use super::schema::{RecordSpec, DEFAULT_START_MS};
use crate::engine::command::Command;
use crate::engine::error::InputError;
use crate::engine::job::{InputConfig, JobConfig, TwoInputMode};
use crate::engine::keys::KeyTable;
use crate::engine::limits::{MAX_INTERVAL_MS, MAX_PARTITIONS, MAX_SAFE};
use crate::engine::operator::aggregate::AggregateKind;
use crate::engine::operator::assigner::WindowSpec;
use crate::engine::operator::midstream::MidstreamSpec;
use crate::engine::operator::sink::SinkMode;
use crate::engine::operator::sql_window::WindowApi;
use crate::engine::operator::trigger::TriggerSpec;
use crate::engine::partitioner::Exchange;
use crate::engine::sim::{ScheduledCommand, Simulation};
use crate::engine::source::generator::{EmitMode, GeneratorKind};
use crate::engine::source::timestamp::{SourceTransform, TimestampAssigner};
use crate::engine::source::SourceSettings;
use crate::engine::time::{EventTime, ProcTime};
use crate::engine::valve::ValveSwitches;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::BTreeMap;

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OracleScenario {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub partitions: Vec<OraclePartition>,
    #[serde(default)]
    pub interleave: Option<String>,
    #[serde(default)]
    pub schedule: Option<Vec<Value>>,
    #[serde(default)]
    pub watermark: OracleWatermark,
    pub window: WindowSpec,
    #[serde(default)]
    pub allowed_lateness_ms: i64,
    #[serde(default = "yes")]
    pub late_side_output: bool,
    #[serde(default)]
    pub on_partition_end: Option<String>,
    #[serde(default = "yes")]
    pub flush_at_end: bool,
}

fn yes() -> bool {
    true
}

#[derive(Clone, Debug, Deserialize)]
#[serde(rename = "$shape", deny_unknown_fields)]
pub enum OraclePartition {
    #[serde(rename = "object")]
    Events { events: Vec<OracleEvent> },
    #[serde(rename = "array")]
    List(Vec<OracleEvent>),
}

impl OraclePartition {
    pub fn events(&self) -> &[OracleEvent] {
        match self {
            OraclePartition::Events { events } | OraclePartition::List(events) => events,
        }
    }
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OracleEvent {
    pub ts: i64,
    #[serde(default)]
    pub key: String,
    #[serde(default = "one")]
    pub value: i64,
}

fn one() -> i64 {
    1
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OracleWatermark {
    #[serde(default)]
    pub out_of_orderness_ms: i64,
    #[serde(default)]
    pub emit: Option<String>,
    #[serde(default)]
    pub interval_ms: Option<i64>,
    #[serde(default)]
    pub record_delay_ms: Option<i64>,
    #[serde(default)]
    pub idleness_ms: Option<i64>,
}

/// One source as both oracles run it: parallelism 1, timestamps from the event, read as they
/// arrive, Flink 2.3's switches.
pub(super) fn oracle_input(
    topic: &str,
    generator: GeneratorKind,
    emit: EmitMode,
    idle_timeout_ms: Option<i64>,
    exchange: Exchange,
    midstream: Option<MidstreamSpec>,
) -> InputConfig {
    InputConfig {
        topic: topic.into(),
        source_parallelism: 1,
        source: SourceSettings {
            generator,
            emit,
            idle_timeout_ms,
            assigner: TimestampAssigner::EventField,
            transform: SourceTransform::default(),
            combined_all_idle_flush: true,
            legacy_idle_without_splits: false,
            idleness_clock: crate::engine::flow::IdlenessClock::InputActivity,
            alignment_skip_idle_splits: true,
        },
        read_rate_per_s: None,
        polled: false,
        start_offset: crate::engine::source::start_offset::StartOffset::Earliest,
        fetch_records_per_partition: crate::engine::source::fetcher::DEFAULT_FETCH_RECORDS_PER_PARTITION,
        alignment: None,
        reader_pauses_splits: true,
        exchange,
        midstream,
    }
}

/// Parses an oracle scenario with field paths in errors, and makes every check `run` makes
/// (so `wmp validate --format oracle` accepts exactly what runs).
pub fn parse(json: &str) -> Result<OracleScenario, InputError> {
    let sc: OracleScenario = super::build::parse_document(json)?;
    sc.validate()?;
    Ok(sc)
}

impl OracleScenario {
    /// The native format's ranges for the same settings, and the schedule's consistency.
    pub fn validate(&self) -> Result<(), InputError> {
        let wm = &self.watermark;
        super::build::range(i64::try_from(self.partitions.len()).unwrap_or(i64::MAX), 1, MAX_PARTITIONS as i64, "partitions")?;
        super::build::range(wm.out_of_orderness_ms, 0, MAX_SAFE, "watermark.out_of_orderness_ms")?;
        if let Some(i) = wm.interval_ms {
            super::build::range(i, 0, MAX_INTERVAL_MS, "watermark.interval_ms")?;
        }
        if let Some(d) = wm.record_delay_ms {
            super::build::range(d, 0, MAX_INTERVAL_MS, "watermark.record_delay_ms")?;
        }
        if let Some(t) = wm.idleness_ms {
            super::build::range(t, 1, MAX_SAFE, "watermark.idleness_ms")?;
        }
        super::build::range(self.allowed_lateness_ms, 0, MAX_SAFE, "allowed_lateness_ms")?;
        let per_event = self.per_event()?;
        self.job_config(per_event)?;
        self.actions().map(|_| ())
    }

    fn per_event(&self) -> Result<bool, InputError> {
        match self.watermark.emit.as_deref().unwrap_or("per_event") {
            "per_event" => Ok(true),
            "periodic" => Ok(false),
            other => Err(InputError::new("watermark.emit", format!("must be per_event or periodic, got {other:?}"))),
        }
    }

    /// The oracle's `normalize`: the total order of actions.
    fn actions(&self) -> Result<Vec<Step>, InputError> {
        let n = self.partitions.len();
        if n == 0 {
            return Err(InputError::new("partitions", "must be a non-empty list"));
        }
        let lens: Vec<usize> = self.partitions.iter().map(|p| p.events().len()).collect();
        let mut sched = OracleSchedule::new(vec![lens.clone()], vec![self.on_partition_end.as_deref().unwrap_or("hold")])?;
        let schedule: Vec<Value> = match (&self.schedule, self.interleave.as_deref().unwrap_or("round_robin")) {
            (Some(s), _) => s.clone(),
            (None, "round_robin") => sched.round_robin(),
            (None, "sequential") => (0..n).flat_map(|p| std::iter::repeat_n(json!(p), lens[p])).collect(),
            (None, other) => return Err(InputError::new("interleave", format!("must be round_robin or sequential, got {other:?}"))),
        };
        let mut out = sched.start();
        for (i, s) in schedule.iter().enumerate() {
            out.extend(sched.step(s).map_err(|e| e.within(&format!("schedule[{i}]")))?);
        }
        sched.finished()?;
        Ok(out)
    }

    fn job_config(&self, per_event: bool) -> Result<JobConfig, InputError> {
        let bound = self.watermark.out_of_orderness_ms;
        if bound < 0 {
            return Err(InputError::new("watermark.out_of_orderness_ms", "must be >= 0"));
        }
        self.window.validate().map_err(|(f, m)| InputError::new(format!("window.{f}"), m))?;
        if matches!(self.window, WindowSpec::Cumulate { .. }) {
            return Err(InputError::new("window.type", "cumulate is a Flink SQL window; the oracle format runs DataStream windows only"));
        }
        if self.allowed_lateness_ms < 0 {
            return Err(InputError::new("allowed_lateness_ms", "must be >= 0"));
        }
        let interval = self.watermark.interval_ms.unwrap_or(200);
        Ok(JobConfig {
            seed: 0,
            start_time: ProcTime(DEFAULT_START_MS),
            inputs: vec![oracle_input(
                "oracle",
                GeneratorKind::BoundedOutOfOrderness { bound_ms: bound },
                if per_event { EmitMode::PerEvent } else { EmitMode::Periodic },
                self.watermark.idleness_ms,
                Exchange::Forward,
                None,
            )],
            two_input_mode: TwoInputMode::Union,
            // Per-event mode runs no timer here: the oracle's scenarios are written so that
            // its wall-clock timer cannot change the outcome.
            auto_watermark_interval_ms: if per_event { 0 } else { interval },
            channel_latency_ms: 0,
            window_parallelism: 1,
            window: self.window,
            interval_join: None,
            trigger: TriggerSpec::EventTime,
            window_api: WindowApi::Datastream,
            allowed_lateness_ms: self.allowed_lateness_ms,
            late_side_output: self.late_side_output,
            aggregate: AggregateKind::Sum,
            sink: SinkMode::Append,
            valve: ValveSwitches::default(),
            combined_all_idle_flush: true,
            midstream_forwards_status: false,
            flow: crate::engine::flow::FlowConfig::default(),
            alignment: crate::engine::alignment::AlignmentSwitches::default(),
            trace_capacity: 100_000,
            trace_records: true,
            late_records_retained: usize::MAX,
            window_results_retained: None,
            cluster: Default::default(),
            checkpointing: Default::default(),
        })
    }

    /// Runs the scenario and returns the engine.
    pub fn run(&self) -> Result<Simulation, InputError> {
        let per_event = self.per_event()?;
        let cfg = self.job_config(per_event)?;
        let delay =
            if per_event { 1 } else { self.watermark.record_delay_ms.unwrap_or(3 * self.watermark.interval_ms.unwrap_or(200)).max(1) };
        let mut sim = Simulation::new(cfg, KeyTable::default(), &[self.partitions.len() as u32]);
        let mut t = ProcTime(DEFAULT_START_MS);
        for a in self.actions()? {
            let cmd = match a {
                Step::Event { partition, idx, .. } => {
                    let e = &self.partitions[partition].events()[idx];
                    let r =
                        RecordSpec { ts: Some(e.ts), ts_offset_ms: None, key: Some(e.key.clone()), value: Some(e.value), heartbeat: false };
                    Command::Produce { partition: partition as u32, records: vec![r] }
                }
                Step::Idle { partition, .. } => Command::MarkSplitIdle { partition: partition as u32 },
                Step::Active { partition, .. } => Command::MarkSplitActive { partition: partition as u32 },
                Step::Release { partition, .. } => Command::ReleaseSplit { partition: partition as u32 },
                Step::Sleep(ms) => {
                    t += ms;
                    continue;
                }
            };
            sim.schedule(ScheduledCommand { at: t, command: cmd, path: format!("action {t}") });
            t += if matches!(a, Step::Event { .. }) { delay } else { 1 };
        }
        sim.run_until(t)?;
        if self.flush_at_end {
            sim.apply(Command::EndOfInput)?;
        }
        Ok(sim)
    }
}

/// The oracle's output shape: `windows`, `late` or `dropped`, `watermarks`.
pub fn report(sc: &OracleScenario, sim: &Simulation) -> Value {
    let keys = sim.keys();
    let mut firings: BTreeMap<(String, EventTime, EventTime), u32> = BTreeMap::new();
    let windows: Vec<Value> = sim
        .downstream()
        .sink
        .results()
        .map(|r| {
            let key = keys.name(r.key).to_string();
            let n = firings.entry((key.clone(), r.start, r.end)).or_insert(0);
            let v = json!({"key": key, "window_start": r.start, "window_end": r.end, "count": r.agg.count, "sum": r.agg.sum, "wm": r.watermark, "firing": *n});
            *n += 1;
            v
        })
        .collect();
    let late: Vec<Value> = sim
        .downstream()
        .late
        .iter()
        .map(|l| json!({"partition": l.partition, "idx": l.offset, "ts": l.ts, "key": keys.name(l.key), "value": l.value, "wm": l.watermark}))
        .collect();
    let watermarks: Vec<EventTime> = sim.downstream().watermark_history[0].iter().map(|&(_, w)| w).collect();
    let late_field = if sc.late_side_output { "late" } else { "dropped" };
    json!({
        "scenario": sc.name,
        "engine": "watermark-playground (Flink 2.3.0 semantics)",
        "windows": windows,
        late_field: late,
        "watermarks": watermarks,
        "trace_hash": sim.trace().hash_hex(),
    })
}
