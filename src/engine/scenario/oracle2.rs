//! The two-input oracle's scenario format (`tools/oracle/README.md`): one or two inputs, each its
//! own source with partitions, strategy and an optional watermark operator after it, meeting in
//! a window, a union, a connected co-process operator or an interval join; and its result shape,
//! so that every golden in `tests/golden/oracle2` runs on this engine and compares with what
//! real Flink 2.3 did.
//!
//! Mapping: source subtask i reads input i's partitions (parallelism 1); partition `p` of input
//! 1 is engine partition `inputs[0].partitions.len() + p`; one processing-time millisecond per
//! scheduled step (`sleep_ms` advances the clock); watermarks per event at the source, the
//! oracle's deterministic mode; `interval_ms` as the oracle defaults it.

use super::oracle::{oracle_input, OraclePartition};
use super::oracle_schedule::{OracleSchedule, Step};
use super::schema::{RecordSpec, DEFAULT_START_MS};
use crate::engine::command::Command;
use crate::engine::error::InputError;
use crate::engine::job::{InputConfig, JobConfig, TwoInputMode};
use crate::engine::keys::KeyTable;
use crate::engine::limits::{MAX_INTERVAL_MS, MAX_PARTITIONS, MAX_SAFE};
use crate::engine::operator::aggregate::AggregateKind;
use crate::engine::operator::assigner::WindowSpec;
use crate::engine::operator::interval_join::JoinBounds;
use crate::engine::operator::midstream::MidstreamSpec;
use crate::engine::operator::sink::SinkMode;
use crate::engine::operator::sql_window::WindowApi;
use crate::engine::operator::trigger::TriggerSpec;
use crate::engine::partitioner::Exchange;
use crate::engine::sim::{ScheduledCommand, Simulation};
use crate::engine::source::generator::{EmitMode, GeneratorKind};
use crate::engine::status::{Signal, WatermarkStatus};
use crate::engine::time::ProcTime;
use crate::engine::trace::TraceKind;
use crate::engine::valve::ValveSwitches;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::BTreeMap;

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Oracle2Scenario {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub inputs: Vec<Oracle2Input>,
    #[serde(default)]
    pub schedule: Option<Vec<Value>>,
    pub operator: Oracle2Operator,
    #[serde(default = "yes")]
    pub flush_at_end: bool,
    #[serde(default)]
    pub interval_ms: Option<i64>,
}

fn yes() -> bool {
    true
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Oracle2Input {
    pub partitions: Vec<OraclePartition>,
    #[serde(default)]
    pub watermark: Oracle2Watermark,
    #[serde(default)]
    pub on_partition_end: Option<String>,
    #[serde(default)]
    pub midstream: Option<Oracle2Midstream>,
}

/// The source's strategy, or `"none"` (`WatermarkStrategy.noWatermarks()`).
#[derive(Clone, Debug, Deserialize)]
#[serde(rename = "$shape")]
pub enum Oracle2Watermark {
    #[serde(rename = "string")]
    None(NoneWord),
    #[serde(rename = "object")]
    Strategy(Oracle2Strategy),
}

impl Default for Oracle2Watermark {
    fn default() -> Self {
        Oracle2Watermark::Strategy(Oracle2Strategy::default())
    }
}

#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NoneWord {
    None,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Oracle2Strategy {
    #[serde(default)]
    pub out_of_orderness_ms: i64,
    #[serde(default)]
    pub emit: Option<String>,
    #[serde(default)]
    pub idleness_ms: Option<i64>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(rename = "$tag:kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Oracle2Midstream {
    TimestampsAndWatermarks {
        #[serde(default)]
        out_of_orderness_ms: i64,
        #[serde(default)]
        emit: Option<String>,
        #[serde(default)]
        idleness_ms: Option<i64>,
    },
    Sql {
        #[serde(default)]
        delay_ms: i64,
        #[serde(default)]
        idle_timeout_ms: i64,
    },
}

#[derive(Clone, Debug, Deserialize)]
#[serde(rename = "$tag:type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Oracle2Operator {
    Window {
        window: WindowSpec,
        #[serde(default)]
        allowed_lateness_ms: i64,
        #[serde(default = "yes")]
        late_side_output: bool,
    },
    Union {
        window: WindowSpec,
        #[serde(default)]
        allowed_lateness_ms: i64,
        #[serde(default = "yes")]
        late_side_output: bool,
    },
    Connect {
        window: WindowSpec,
    },
    IntervalJoin {
        lower_ms: i64,
        upper_ms: i64,
        #[serde(default)]
        lower_exclusive: bool,
        #[serde(default)]
        upper_exclusive: bool,
        #[serde(default = "yes")]
        late_side_output: bool,
    },
}

impl Oracle2Operator {
    fn inputs(&self) -> usize {
        if matches!(self, Oracle2Operator::Window { .. }) {
            1
        } else {
            2
        }
    }

    fn late_side_output(&self) -> bool {
        match *self {
            Oracle2Operator::Window { late_side_output, .. }
            | Oracle2Operator::Union { late_side_output, .. }
            | Oracle2Operator::IntervalJoin { late_side_output, .. } => late_side_output,
            Oracle2Operator::Connect { .. } => true,
        }
    }
}

/// Parses a two-input oracle scenario with field paths in errors, and makes every check `run` makes.
pub fn parse(json: &str) -> Result<Oracle2Scenario, InputError> {
    let sc: Oracle2Scenario = super::build::parse_document(json)?;
    sc.validate()?;
    Ok(sc)
}

fn per_event(emit: &Option<String>, path: &str) -> Result<bool, InputError> {
    match emit.as_deref().unwrap_or("per_event") {
        "per_event" => Ok(true),
        "periodic" => Ok(false),
        other => Err(InputError::new(path, format!("must be per_event or periodic, got {other:?}"))),
    }
}

impl Oracle2Scenario {
    pub fn validate(&self) -> Result<(), InputError> {
        if self.inputs.len() != self.operator.inputs() {
            return Err(InputError::new(
                "inputs",
                format!("operator needs {} input(s), got {}", self.operator.inputs(), self.inputs.len()),
            ));
        }
        for (i, input) in self.inputs.iter().enumerate() {
            let n = i64::try_from(input.partitions.len()).unwrap_or(i64::MAX);
            super::build::range(n, 1, MAX_PARTITIONS as i64, &format!("inputs[{i}].partitions"))?;
        }
        if let Some(i) = self.interval_ms {
            super::build::range(i, 0, MAX_INTERVAL_MS, "interval_ms")?;
        }
        self.job_config()?;
        self.steps().map(|_| ())
    }

    /// The oracle's default interval: 200 ms when anything needs its timer, else 0.
    fn interval(&self) -> i64 {
        let periodic = |e: &Option<String>| e.as_deref() == Some("periodic");
        let needs_timer = self.inputs.iter().any(|i| {
            matches!(&i.watermark, Oracle2Watermark::Strategy(s) if periodic(&s.emit) || s.idleness_ms.is_some())
                || matches!(&i.midstream, Some(Oracle2Midstream::TimestampsAndWatermarks { emit, idleness_ms, .. }) if periodic(emit) || idleness_ms.is_some())
        });
        self.interval_ms.unwrap_or(if needs_timer { 200 } else { 0 })
    }

    fn input_config(&self, i: usize) -> Result<InputConfig, InputError> {
        let input = &self.inputs[i];
        let path = |f: &str| format!("inputs[{i}].{f}");
        let (generator, emit, idle) = match &input.watermark {
            Oracle2Watermark::None(_) => (GeneratorKind::NoWatermarks, EmitMode::Periodic, None),
            Oracle2Watermark::Strategy(s) => {
                super::build::range(s.out_of_orderness_ms, 0, MAX_SAFE, &path("watermark.out_of_orderness_ms"))?;
                let mode = if per_event(&s.emit, &path("watermark.emit"))? { EmitMode::PerEvent } else { EmitMode::Periodic };
                if let Some(t) = s.idleness_ms {
                    super::build::range(t, 1, MAX_SAFE, &path("watermark.idleness_ms"))?;
                }
                (GeneratorKind::BoundedOutOfOrderness { bound_ms: s.out_of_orderness_ms }, mode, s.idleness_ms)
            }
        };
        let midstream = match &input.midstream {
            None => None,
            Some(Oracle2Midstream::TimestampsAndWatermarks { out_of_orderness_ms, emit, idleness_ms }) => {
                super::build::range(*out_of_orderness_ms, 0, MAX_SAFE, &path("midstream.out_of_orderness_ms"))?;
                if let Some(t) = *idleness_ms {
                    super::build::range(t, 1, MAX_SAFE, &path("midstream.idleness_ms"))?;
                }
                let mode = if per_event(emit, &path("midstream.emit"))? { EmitMode::PerEvent } else { EmitMode::Periodic };
                Some(MidstreamSpec::TimestampsAndWatermarks {
                    generator: GeneratorKind::BoundedOutOfOrderness { bound_ms: *out_of_orderness_ms },
                    emit: mode,
                    idle_timeout_ms: *idleness_ms,
                })
            }
            Some(Oracle2Midstream::Sql { delay_ms, idle_timeout_ms }) => {
                super::build::range(*delay_ms, 0, MAX_SAFE, &path("midstream.delay_ms"))?;
                super::build::range(*idle_timeout_ms, 0, MAX_SAFE, &path("midstream.idle_timeout_ms"))?;
                Some(MidstreamSpec::SqlWatermarkAssigner { delay_ms: *delay_ms, idle_timeout_ms: *idle_timeout_ms })
            }
        };
        Ok(oracle_input(&format!("in{i}"), generator, emit, idle, Exchange::Hash, midstream))
    }

    fn job_config(&self) -> Result<JobConfig, InputError> {
        let inputs = (0..self.inputs.len()).map(|i| self.input_config(i)).collect::<Result<Vec<_>, _>>()?;
        let (window, lateness, join, mode) = match &self.operator {
            Oracle2Operator::Window { window, allowed_lateness_ms, .. } | Oracle2Operator::Union { window, allowed_lateness_ms, .. } => {
                (*window, *allowed_lateness_ms, None, TwoInputMode::Union)
            }
            Oracle2Operator::Connect { window } => (*window, 0, None, TwoInputMode::Connect),
            Oracle2Operator::IntervalJoin { lower_ms, upper_ms, lower_exclusive, upper_exclusive, .. } => {
                let b = JoinBounds {
                    lower_ms: *lower_ms,
                    upper_ms: *upper_ms,
                    lower_exclusive: *lower_exclusive,
                    upper_exclusive: *upper_exclusive,
                };
                b.validate().map_err(|(f, m)| InputError::new(format!("operator.{f}"), m))?;
                (WindowSpec::Tumbling { size_ms: 1_000, offset_ms: 0 }, 0, Some(b), TwoInputMode::Connect)
            }
        };
        window.validate().map_err(|(f, m)| InputError::new(format!("operator.window.{f}"), m))?;
        if matches!(window, WindowSpec::Cumulate { .. }) {
            return Err(InputError::new(
                "operator.window.type",
                "cumulate is a Flink SQL window; the oracle2 format runs DataStream windows only",
            ));
        }
        super::build::range(lateness, 0, MAX_SAFE, "operator.allowed_lateness_ms")?;
        Ok(JobConfig {
            seed: 0,
            start_time: ProcTime(DEFAULT_START_MS),
            inputs,
            two_input_mode: mode,
            auto_watermark_interval_ms: self.interval(),
            channel_latency_ms: 0,
            window_parallelism: 1,
            window,
            trigger: TriggerSpec::EventTime,
            window_api: WindowApi::Datastream,
            interval_join: join,
            allowed_lateness_ms: lateness,
            late_side_output: self.operator.late_side_output(),
            aggregate: AggregateKind::Sum,
            sink: SinkMode::Append,
            valve: ValveSwitches::default(),
            combined_all_idle_flush: true,
            midstream_forwards_status: false,
            flow: crate::engine::flow::FlowConfig::default(),
            alignment: crate::engine::alignment::AlignmentSwitches::default(),
            trace_capacity: 100_000,
            trace_records: false,
            late_records_retained: usize::MAX,
            window_results_retained: None,
            cluster: Default::default(),
            checkpointing: Default::default(),
        })
    }

    /// Engine partition number of input `i`'s partition `p`.
    fn global(&self, i: usize, p: usize) -> u32 {
        (self.inputs[..i].iter().map(|x| x.partitions.len()).sum::<usize>() + p) as u32
    }

    /// The schedule as engine commands (`None`: a sleep of that many ms).
    fn steps(&self) -> Result<Vec<Result<Command, i64>>, InputError> {
        let lens: Vec<Vec<usize>> = self.inputs.iter().map(|i| i.partitions.iter().map(|p| p.events().len()).collect()).collect();
        let ends: Vec<&str> = self.inputs.iter().map(|i| i.on_partition_end.as_deref().unwrap_or("hold")).collect();
        let mut sched = OracleSchedule::new(lens, ends).map_err(|e| e.within("inputs"))?;
        let mut out = sched.start();
        let default: Vec<Value>;
        let steps = match &self.schedule {
            Some(s) => s,
            None => {
                default = sched.round_robin();
                &default
            }
        };
        for (k, s) in steps.iter().enumerate() {
            out.extend(sched.step(s).map_err(|e| e.within(&format!("schedule[{k}]")))?);
        }
        sched.finished()?;
        Ok(out
            .into_iter()
            .map(|a| match a {
                Step::Event { input, partition, idx } => {
                    let e = &self.inputs[input].partitions[partition].events()[idx];
                    let r =
                        RecordSpec { ts: Some(e.ts), ts_offset_ms: None, key: Some(e.key.clone()), value: Some(e.value), heartbeat: false };
                    Ok(Command::Produce { partition: self.global(input, partition), records: vec![r] })
                }
                Step::Idle { input, partition } => Ok(Command::MarkSplitIdle { partition: self.global(input, partition) }),
                Step::Active { input, partition } => Ok(Command::MarkSplitActive { partition: self.global(input, partition) }),
                Step::Release { input, partition } => Ok(Command::ReleaseSplit { partition: self.global(input, partition) }),
                Step::Sleep(ms) => Err(ms),
            })
            .collect())
    }

    /// Runs the scenario and returns the engine.
    pub fn run(&self) -> Result<Simulation, InputError> {
        let cfg = self.job_config()?;
        let counts: Vec<u32> = self.inputs.iter().map(|i| i.partitions.len() as u32).collect();
        let mut sim = Simulation::new(cfg, KeyTable::default(), &counts);
        let mut t = ProcTime(DEFAULT_START_MS);
        for step in self.steps()? {
            match step {
                Ok(command) => {
                    sim.schedule(ScheduledCommand { at: t, command, path: format!("step at {t}") });
                    t += 1;
                }
                Err(ms) => t += ms,
            }
        }
        sim.run_until(t)?;
        if self.flush_at_end {
            sim.apply(Command::EndOfInput)?;
        }
        Ok(sim)
    }
}

fn status_word(s: WatermarkStatus) -> &'static str {
    if s.is_idle() {
        "idle"
    } else {
        "active"
    }
}

/// The oracle's output shape (the fields it compares).
pub fn report(sc: &Oracle2Scenario, sim: &Simulation) -> Value {
    let keys = sim.keys();
    let d = sim.downstream();
    let two = sc.operator.inputs() == 2 && !matches!(sc.operator, Oracle2Operator::Union { .. });
    let mut firings: BTreeMap<(String, i64, i64), u32> = BTreeMap::new();
    let windows: Vec<Value> = d
        .sink
        .results()
        .map(|r| {
            let key = keys.name(r.key).to_string();
            let n = firings.entry((key.clone(), r.start.ms(), r.end.ms())).or_insert(0);
            let v = json!({"key": key, "window_start": r.start, "window_end": r.end, "count": r.agg.count, "sum": r.agg.sum, "wm": r.watermark, "firing": *n});
            *n += 1;
            v
        })
        .collect();
    let joins: Vec<Value> = d
        .joins
        .kept()
        .map(|(_, j)| json!({"key": keys.name(j.key), "left_ts": j.left_ts, "right_ts": j.right_ts, "left_value": j.left_value, "right_value": j.right_value, "ts": j.ts}))
        .collect();
    let partition_of = |p: u32| sim.partitions().get(p as usize).map_or((0, p), |x| (x.input, x.index_in_topic));
    let late: Vec<Value> = d
        .late
        .iter()
        .map(|l| {
            let (input, p) = partition_of(l.partition);
            json!({"in": input, "partition": p, "idx": l.offset, "ts": l.ts, "key": keys.name(l.key), "value": l.value, "wm": l.watermark})
        })
        .collect();
    let mut out = json!({
        "scenario": sc.name,
        "watermarks": d.watermark_history[0].iter().map(|&(_, w)| w).collect::<Vec<_>>(),
        if sc.operator.late_side_output() { "late" } else { "dropped" }: late,
        "trace_hash": sim.trace().hash_hex(),
    });
    if matches!(sc.operator, Oracle2Operator::IntervalJoin { .. }) {
        out["joins"] = json!(joins);
    } else {
        out["windows"] = json!(windows);
    }
    let events: Vec<&TraceKind> = sim.trace().retained().map(|e| &e.kind).collect();
    let operator_statuses: Vec<&str> = events
        .iter()
        .filter_map(|k| if let TraceKind::OperatorStatus { status, .. } = k { Some(status_word(*status)) } else { None })
        .collect();
    if two {
        let log = &d.windows[0].input.valve_log;
        out["input_watermarks"] = json!(log
            .iter()
            .filter_map(|&(i, s)| if let Signal::Watermark(w) = s { Some(json!([i, w])) } else { None })
            .collect::<Vec<_>>());
        out["statuses"] = json!(log
            .iter()
            .filter_map(|&(i, s)| if let Signal::Status(st) = s { Some(json!([i, status_word(st)])) } else { None })
            .collect::<Vec<_>>());
        out["output_statuses"] = json!(operator_statuses);
    } else {
        out["statuses"] = json!(operator_statuses);
    }
    out["sources"] = json!((0..sc.inputs.len()).map(|i| source_out(&events, i as u32, false)).collect::<Vec<_>>());
    let mids: Vec<Value> = sc
        .inputs
        .iter()
        .enumerate()
        .filter_map(|(i, x)| {
            let kind = match x.midstream.as_ref()? {
                Oracle2Midstream::TimestampsAndWatermarks { .. } => "timestamps_and_watermarks",
                Oracle2Midstream::Sql { .. } => "sql",
            };
            let mut v = source_out(&events, i as u32, true);
            v["kind"] = json!(kind);
            Some(v)
        })
        .collect();
    out["midstream"] = json!(mids);
    out
}

/// What source subtask `s` (or the operator chained after it) emitted.
fn source_out(events: &[&TraceKind], s: u32, chained: bool) -> Value {
    let mut watermarks = Vec::new();
    let mut statuses = Vec::new();
    for k in events {
        match **k {
            TraceKind::SourceWatermark { subtask, watermark } if !chained && subtask == s => watermarks.push(json!(watermark)),
            TraceKind::SourceStatus { subtask, status } if !chained && subtask == s => statuses.push(status_word(status)),
            TraceKind::MidstreamWatermark { subtask, watermark } if chained && subtask == s => watermarks.push(json!(watermark)),
            TraceKind::MidstreamStatus { subtask, status } if chained && subtask == s => statuses.push(status_word(status)),
            _ => {}
        }
    }
    json!({"in": s, "watermarks": watermarks, "statuses": statuses})
}
