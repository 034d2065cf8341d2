//! From scenario JSON to a running simulation: parsing with field paths, validation against
//! Flink's own constructor checks, and construction.

use super::schema::{
    validate_generator, FlinkSwitches, KafkaConnector, Scenario, SecondInputSpec, SourceSpec, StartOffset, TopicSpec, WindowOperatorSpec,
};
use crate::engine::alignment::AlignmentSwitches;
use crate::engine::error::InputError;
use crate::engine::flow::FlowConfig;
use crate::engine::job::{InputConfig, JobConfig, TwoInputMode};
use crate::engine::keys::KeyTable;
use crate::engine::limits::{MAX_DURATION_MS, MAX_INTERVAL_MS, MAX_PARALLELISM, MAX_PARTITIONS, MAX_SAFE, MAX_TRACE_CAPACITY};
use crate::engine::operator::aggregate::AggregateKind;
use crate::engine::operator::assigner::WindowSpec;
use crate::engine::operator::midstream::MidstreamSpec;
use crate::engine::operator::sql_window::WindowApi;
use crate::engine::operator::trigger::TriggerSpec;
use crate::engine::partitioner::Exchange;
use crate::engine::session::{budget, check, Session};
use crate::engine::sim::{ScheduledCommand, Simulation};
use crate::engine::source::SourceSettings;
use crate::engine::time::thousands;
use crate::engine::time::ProcTime;
use crate::engine::topics::Topics;
use crate::engine::valve::ValveSwitches;

/// Parses scenario JSON; errors carry the path of the offending field.
pub fn parse(json: &str) -> Result<Scenario, InputError> {
    let sc: Scenario = parse_document(json)?;
    sc.validate()?;
    Ok(sc)
}

/// One JSON document and nothing after it, into `T`; errors name the field path. A leading
/// byte-order mark gets a hint instead of serde's "expected value at line 1 column 1".
pub fn parse_document<T: serde::de::DeserializeOwned>(json: &str) -> Result<T, InputError> {
    if json.starts_with('\u{feff}') {
        return Err(InputError::invalid("", "the text starts with a UTF-8 byte-order mark (BOM): save it as UTF-8 without a BOM"));
    }
    let value = crate::engine::json_document::parse(json).map_err(|e| {
        let msg = e.to_string();
        if msg.starts_with("trailing characters") {
            InputError::invalid("", format!("unexpected data after the JSON document ({msg})"))
        } else {
            InputError::from_serde("", msg)
        }
    })?;
    if !value.is_object() {
        return Err(InputError::type_(
            "",
            format!("the document must be a JSON object ({{ … }}), not {}", crate::engine::json_document::kind_of(&value)),
        ));
    }
    crate::engine::error::from_value(value, "")
}

/// `v` with thousands separators and its sign.
fn signed_thousands(v: i64) -> String {
    let digits = crate::engine::time::thousands(v.unsigned_abs());
    if v < 0 {
        format!("-{digits}")
    } else {
        digits
    }
}

/// A value within `lo..=hi`, or an error naming `path`.
pub(crate) fn range(v: i64, lo: i64, hi: i64, path: &str) -> Result<(), InputError> {
    if v < lo || v > hi {
        let allowed = match (lo, hi) {
            (0, i64::MAX) => "must be 0 or more".to_string(),
            (lo, i64::MAX) => format!("must be at least {}", signed_thousands(lo)),
            _ => format!("must be between {} and {}", signed_thousands(lo), signed_thousands(hi)),
        };
        Err(InputError::new(path, format!("{allowed}, got {}", signed_thousands(v))))
    } else {
        Ok(())
    }
}

/// A connected two-input job ends in a `KeyedCoProcessFunction` (windows counted with timers):
/// no `.trigger(...)` to set, and no SQL equivalent (SQL unions its inputs).
fn connected_window(w: &WindowOperatorSpec) -> Result<(), InputError> {
    if w.api == WindowApi::Sql {
        return Err(InputError::new("window.api", "a SQL window aggregation reads one input: union the two (second_input.mode \"union\")"));
    }
    if w.trigger != TriggerSpec::EventTime {
        return Err(InputError::new("window.trigger", "a connected two-input operator is a KeyedCoProcessFunction: it has no trigger"));
    }
    Ok(())
}

impl Scenario {
    pub fn validate(&self) -> Result<(), InputError> {
        // No partitions is Flink's "source with zero splits" (its unit tests' vectors).
        range(self.topic.partitions as i64, 0, MAX_PARTITIONS as i64, "topic.partitions")?;
        self.validate_keyed()?;
        self.source.validate(self.keyed_parallelism(), self.exchange.kind).map_err(|e| e.within("source"))?;
        range(self.duration_ms, 0, MAX_DURATION_MS, "duration_ms")?;
        range(self.start_time_ms, -MAX_SAFE, MAX_SAFE, "start_time_ms")?;
        range(self.source.watermark.auto_watermark_interval_ms, 0, MAX_INTERVAL_MS, "source.watermark.auto_watermark_interval_ms")?;
        range(self.exchange.latency_ms, 0, MAX_INTERVAL_MS, "exchange.latency_ms")?;
        if let Some(second) = &self.second_input {
            self.validate_second(second).map_err(|e| e.within("second_input"))?;
        }
        let topics = self.topics();
        for (i, p) in self.producers.iter().enumerate() {
            check::producer(p, &topics).map_err(|e| e.within(&format!("producers[{i}]")))?;
        }
        for (i, c) in self.commands.iter().enumerate() {
            if c.at_ms < 0 {
                return Err(InputError::new(format!("commands[{i}].at_ms"), "must be >= 0"));
            }
        }
        self.flow.validate().map_err(|e| e.within("flow"))?;
        self.checkpointing.validate().map_err(|e| e.within("checkpointing"))?;
        range(i64::try_from(self.flink.alignment_buffer_size).unwrap_or(i64::MAX), 0, 100, "flink.alignment_buffer_size")?;
        if self.trace.capacity > MAX_TRACE_CAPACITY {
            return Err(InputError::new("trace.capacity", format!("at most {}", thousands(MAX_TRACE_CAPACITY as u64))));
        }
        check::scenario_bounds(self)?;
        budget::check(self)
    }

    /// Exactly one keyed operator: windows, or an interval join of two connected inputs.
    fn validate_keyed(&self) -> Result<(), InputError> {
        match (&self.window, &self.interval_join) {
            (Some(w), None) => {
                range(w.parallelism as i64, 1, MAX_PARALLELISM as i64, "window.parallelism")?;
                w.validate()?;
                if self.second_input.as_ref().is_some_and(|s| s.mode == TwoInputMode::Connect) {
                    connected_window(w)?;
                }
                range(w.allowed_lateness_ms, 0, i64::MAX, "window.allowed_lateness_ms")
            }
            (None, Some(j)) => {
                range(j.parallelism as i64, 1, MAX_PARALLELISM as i64, "interval_join.parallelism")?;
                j.bounds().validate().map_err(|(f, m)| InputError::new(format!("interval_join.{f}"), m))?;
                match &self.second_input {
                    Some(s) if s.mode == TwoInputMode::Connect => Ok(()),
                    Some(_) => Err(InputError::new("second_input.mode", "an interval join is a two-input operator: use \"connect\"")),
                    None => Err(InputError::new("interval_join", "an interval join needs a second input (second_input, mode \"connect\")")),
                }
            }
            (Some(_), Some(_)) => Err(InputError::new("interval_join", "a job has a window operator or an interval join, not both")),
            (None, None) => Err(InputError::new("window", "missing field `window` (or an `interval_join`)")),
        }
    }

    fn validate_second(&self, second: &SecondInputSpec) -> Result<(), InputError> {
        range(second.topic.partitions as i64, 0, MAX_PARTITIONS as i64, "topic.partitions")?;
        if second.topic.name == self.topic.name {
            return Err(InputError::new("topic.name", format!("must differ from the first input's topic ({:?})", self.topic.name)));
        }
        second.source.validate(self.keyed_parallelism(), second.exchange).map_err(|e| e.within("source"))?;
        let (ours, job) = (second.source.watermark.auto_watermark_interval_ms, self.source.watermark.auto_watermark_interval_ms);
        if ours != job {
            return Err(InputError::new(
                "source.watermark.auto_watermark_interval_ms",
                format!(
                    "pipeline.auto-watermark-interval is one setting per job: set it in source.watermark (got {ours}, the job has {job})"
                ),
            ));
        }
        Ok(())
    }

    /// The topics and how partitions are numbered across them at the start.
    pub fn topics(&self) -> Topics {
        let mut names = vec![self.topic.name.clone()];
        let mut counts = vec![self.topic.partitions];
        if let Some(s) = &self.second_input {
            names.push(s.topic.name.clone());
            counts.push(s.topic.partitions);
        }
        Topics::new(names, &counts)
    }

    pub fn job_config(&self) -> JobConfig {
        let mut inputs = vec![self.source.input_config(&self.topic, self.exchange.kind, &self.flink, self.flow.record_scale)];
        if let Some(s) = &self.second_input {
            inputs.push(s.source.input_config(&s.topic, s.exchange, &self.flink, self.flow.record_scale));
        }
        JobConfig {
            seed: self.seed,
            start_time: ProcTime(self.start_time_ms),
            inputs,
            two_input_mode: self.second_input.as_ref().map_or(TwoInputMode::Union, |s| s.mode),
            auto_watermark_interval_ms: self.source.watermark.auto_watermark_interval_ms,
            channel_latency_ms: self.exchange.latency_ms,
            window_parallelism: self.keyed_parallelism(),
            window: self.window.as_ref().map_or(JOIN_PLACEHOLDER_WINDOW, |w| w.assigner),
            trigger: self.window.as_ref().map_or(TriggerSpec::EventTime, |w| w.trigger),
            window_api: self.window.as_ref().map_or(WindowApi::Datastream, |w| w.api),
            interval_join: self.interval_join.as_ref().map(|j| j.bounds()),
            allowed_lateness_ms: self.window.as_ref().map_or(0, |w| w.allowed_lateness_ms),
            late_side_output: match (&self.window, &self.interval_join) {
                (Some(w), _) => w.late_side_output,
                (None, Some(j)) => j.late_side_output,
                (None, None) => false,
            },
            aggregate: self.window.as_ref().map_or(AggregateKind::default(), |w| w.aggregate),
            sink: self.sink.mode,
            valve: ValveSwitches {
                unconditional_flush: self.flink.valve_unconditional_flush,
                rederive_on_reactivate: self.flink.valve_rederive_on_reactivate,
            },
            combined_all_idle_flush: self.flink.combined_all_idle_flush,
            midstream_forwards_status: self.flink.midstream_forwards_status,
            flow: FlowConfig {
                keyed_capacity_per_s: self.flow.keyed_capacity_per_s,
                channel_buffer_records: self.flow.channel_buffer_records,
            },
            alignment: AlignmentSwitches {
                buffer_size: self.flink.alignment_buffer_size,
                allow_unaligned_source_splits: self.flink.allow_unaligned_source_splits,
            },
            trace_capacity: self.trace.capacity,
            trace_records: self.trace.records,
            late_records_retained: self.trace.late_records_retained,
            window_results_retained: self.trace.window_results_retained,
            cluster: self.flow.cluster(),
            checkpointing: self.checkpointing.config(),
        }
    }

    /// A simulation at its start, producers attached and commands scheduled.
    pub fn build(&self) -> Result<Simulation, InputError> {
        self.validate()?;
        let cfg = self.job_config();
        let start = cfg.start_time;
        let counts: Vec<u32> = self.second_input.iter().map(|s| s.topic.partitions).fold(vec![self.topic.partitions], |mut v, n| {
            v.push(n);
            v
        });
        let mut sim = Simulation::new(cfg, KeyTable::default(), &counts);
        for (i, p) in self.producers.iter().enumerate() {
            sim.attach_producer(p, start).map_err(|e| e.within(&format!("producers[{i}]")))?;
        }
        // In time order (stable: same-instant commands keep theirs), so each is a push at the
        // back of the queue however many there are.
        for i in self.command_order() {
            let c = &self.commands[i];
            sim.schedule(ScheduledCommand { at: start + c.at_ms, command: c.command.clone(), path: format!("commands[{i}]") });
        }
        Ok(sim)
    }

    /// Runs the whole scenario as `wmp run` does, through a [`Session`]: every command checked,
    /// `duration_ms` of processing time, then the end-of-input watermark if asked for.
    pub fn run(&self) -> Result<Simulation, InputError> {
        let mut session = Session::new(self.clone())?;
        session.run_to_end(&mut ())?;
        Ok(session.into_sim())
    }
}

/// A DataStream strategy's idle timeout (the source's or a chained operator's): `withIdleness`
/// rejects 0 and negative timeouts.
fn with_idleness(idle_timeout_ms: Option<i64>, path: &str) -> Result<(), InputError> {
    match idle_timeout_ms {
        Some(t) if t <= 0 => {
            Err(InputError::new(path, "must be > 0 (withIdleness rejects 0 and negative timeouts); use null to turn idleness off"))
        }
        _ => Ok(()),
    }
}

/// What a join job's (unused) window operator is built with: the job config always has one.
const JOIN_PLACEHOLDER_WINDOW: WindowSpec = WindowSpec::Tumbling { size_ms: 1_000, offset_ms: 0 };

impl SourceSpec {
    /// The source's own checks (paths relative to the source block).
    fn validate(&self, window_parallelism: u32, exchange: Exchange) -> Result<(), InputError> {
        range(self.parallelism as i64, 1, MAX_PARALLELISM as i64, "parallelism")?;
        let wm = &self.watermark;
        validate_generator(&wm.generator).map_err(|e| e.within("watermark.generator"))?;
        with_idleness(wm.idle_timeout_ms, "watermark.idle_timeout_ms")?;
        if let Some(a) = &wm.alignment {
            a.validate().map_err(|(f, m)| InputError::new(format!("watermark.alignment.{f}"), m))?;
        }
        match self.midstream {
            Some(MidstreamSpec::TimestampsAndWatermarks { generator, idle_timeout_ms, .. }) => {
                validate_generator(&generator).map_err(|e| e.within("midstream.generator"))?;
                with_idleness(idle_timeout_ms, "midstream.idle_timeout_ms")?;
            }
            Some(MidstreamSpec::SqlWatermarkAssigner { delay_ms, idle_timeout_ms }) => {
                if delay_ms < 0 {
                    return Err(InputError::new("midstream.delay_ms", "must be >= 0 (a watermark ahead of the rows is not modelled)"));
                }
                if idle_timeout_ms < 0 {
                    return Err(InputError::new("midstream.idle_timeout_ms", "must be >= 0 (0 turns table.exec.source.idle-timeout off)"));
                }
            }
            None => {}
        }
        if self.fetch.record_bytes == 0 {
            return Err(InputError::new("fetch.record_bytes", "must be > 0"));
        }
        if let StartOffset::TimestampMs(t) = self.start_offset {
            range(t, 0, MAX_SAFE, "start_offset.timestamp_ms")?;
        }
        if self.read_rate_per_s == Some(0) {
            return Err(InputError::new("read_rate_per_s", "must be > 0, or null for unlimited"));
        }
        if exchange == Exchange::Forward && self.parallelism != window_parallelism {
            return Err(InputError::new("parallelism", "a forward exchange needs equal source and window parallelism"));
        }
        Ok(())
    }

    fn input_config(&self, topic: &TopicSpec, exchange: Exchange, flink: &FlinkSwitches, record_scale: u64) -> InputConfig {
        let wm = &self.watermark;
        InputConfig {
            topic: topic.name.clone(),
            source_parallelism: self.parallelism,
            source: SourceSettings {
                generator: wm.generator,
                emit: wm.emit,
                idle_timeout_ms: wm.idle_timeout_ms,
                assigner: self.timestamp_assigner,
                transform: self.transform,
                combined_all_idle_flush: flink.combined_all_idle_flush,
                legacy_idle_without_splits: flink.kafka_connector == KafkaConnector::Legacy,
                idleness_clock: flink.idleness_clock,
                alignment_skip_idle_splits: flink.alignment_skip_idle_splits,
            },
            read_rate_per_s: self.read_rate_per_s,
            polled: false,
            start_offset: self.start_offset.clone(),
            fetch_records_per_partition: (self.fetch.records_per_partition() / record_scale.max(1)).max(1),
            alignment: wm.alignment.clone(),
            reader_pauses_splits: self.reader_pauses_splits,
            exchange,
            midstream: self.midstream,
        }
    }
}
