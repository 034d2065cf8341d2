//! From scenario JSON to a running simulation: parsing with field paths, validation against
//! Flink's own constructor checks, and construction.

use super::schema::{validate_generator, KafkaConnector, Scenario, StartOffset};
use crate::engine::error::InputError;
use crate::engine::job::JobConfig;
use crate::engine::keys::KeyTable;
use crate::engine::limits::{MAX_DURATION_MS, MAX_INTERVAL_MS, MAX_PARALLELISM, MAX_PARTITIONS, MAX_SAFE, MAX_TRACE_CAPACITY};
use crate::engine::partitioner::Exchange;
use crate::engine::session::{budget, check, Session};
use crate::engine::sim::{ScheduledCommand, Simulation};
use crate::engine::source::SourceSettings;
use crate::engine::time::thousands;
use crate::engine::time::ProcTime;
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
    let de = &mut serde_json::Deserializer::from_str(json);
    let doc: T = serde_path_to_error::deserialize(&mut *de).map_err(|e| {
        let msg = e.inner().to_string();
        // Only on an error: the document again as a value, to follow the path to the leaf.
        let path = match serde_json::from_str::<serde_json::Value>(json) {
            Ok(v) => crate::engine::error::leaf_path(&v, &e.path().to_string(), &msg),
            Err(_) => e.path().to_string().trim_start_matches('.').to_string(),
        };
        InputError::from_serde(path, msg)
    })?;
    de.end().map_err(|e| InputError::invalid("", format!("unexpected data after the JSON document ({e})")))?;
    Ok(doc)
}

/// A value within `lo..=hi`, or an error naming `path`.
pub(crate) fn range(v: i64, lo: i64, hi: i64, path: &str) -> Result<(), InputError> {
    if v < lo || v > hi {
        Err(InputError::new(path, format!("must be in {lo}..={hi}, got {v}")))
    } else {
        Ok(())
    }
}

impl Scenario {
    pub fn validate(&self) -> Result<(), InputError> {
        range(self.topic.partitions as i64, 0, MAX_PARTITIONS as i64, "topic.partitions")?;
        range(self.source.parallelism as i64, 1, MAX_PARALLELISM as i64, "source.parallelism")?;
        range(self.window.parallelism as i64, 1, MAX_PARALLELISM as i64, "window.parallelism")?;
        range(self.duration_ms, 0, MAX_DURATION_MS, "duration_ms")?;
        range(self.start_time_ms, -MAX_SAFE, MAX_SAFE, "start_time_ms")?;
        let wm = &self.source.watermark;
        validate_generator(&wm.generator).map_err(|e| e.within("source.watermark.generator"))?;
        if let Some(t) = wm.idle_timeout_ms {
            if t <= 0 {
                return Err(InputError::new(
                    "source.watermark.idle_timeout_ms",
                    "must be > 0 (withIdleness rejects 0 and negative timeouts); use null to turn idleness off",
                ));
            }
        }
        range(wm.auto_watermark_interval_ms, 0, MAX_INTERVAL_MS, "source.watermark.auto_watermark_interval_ms")?;
        if self.source.read_rate_per_s == Some(0) {
            return Err(InputError::new("source.read_rate_per_s", "must be > 0, or null for unlimited"));
        }
        range(self.exchange.latency_ms, 0, MAX_INTERVAL_MS, "exchange.latency_ms")?;
        if self.exchange.kind == Exchange::Forward && self.source.parallelism != self.window.parallelism {
            return Err(InputError::new("exchange.type", "forward needs equal source and window parallelism"));
        }
        self.window.assigner.validate().map_err(|(f, m)| InputError::new(format!("window.assigner.{f}"), m))?;
        range(self.window.allowed_lateness_ms, 0, i64::MAX, "window.allowed_lateness_ms")?;
        for (i, p) in self.producers.iter().enumerate() {
            check::producer(p, self.topic.partitions).map_err(|e| e.within(&format!("producers[{i}]")))?;
        }
        for (i, c) in self.commands.iter().enumerate() {
            if c.at_ms < 0 {
                return Err(InputError::new(format!("commands[{i}].at_ms"), "must be >= 0"));
            }
        }
        if self.trace.capacity > MAX_TRACE_CAPACITY {
            return Err(InputError::new("trace.capacity", format!("at most {}", thousands(MAX_TRACE_CAPACITY as u64))));
        }
        check::scenario_bounds(self)?;
        budget::check(self)
    }

    pub fn job_config(&self) -> JobConfig {
        let wm = &self.source.watermark;
        JobConfig {
            seed: self.seed,
            start_time: ProcTime(self.start_time_ms),
            topic: self.topic.name.clone(),
            source_parallelism: self.source.parallelism,
            source: SourceSettings {
                generator: wm.generator,
                emit: wm.emit,
                idle_timeout_ms: wm.idle_timeout_ms,
                assigner: self.source.timestamp_assigner,
                transform: self.source.transform,
                combined_all_idle_flush: self.flink.combined_all_idle_flush,
                legacy_idle_without_splits: self.flink.kafka_connector == KafkaConnector::Legacy,
            },
            auto_watermark_interval_ms: wm.auto_watermark_interval_ms,
            read_rate_per_s: self.source.read_rate_per_s,
            start_from_earliest: self.source.start_offset == StartOffset::Earliest,
            exchange: self.exchange.kind,
            channel_latency_ms: self.exchange.latency_ms,
            window_parallelism: self.window.parallelism,
            window: self.window.assigner,
            allowed_lateness_ms: self.window.allowed_lateness_ms,
            late_side_output: self.window.late_side_output,
            aggregate: self.window.aggregate,
            sink: self.sink.mode,
            valve: ValveSwitches {
                unconditional_flush: self.flink.valve_unconditional_flush,
                rederive_on_reactivate: self.flink.valve_rederive_on_reactivate,
            },
            trace_capacity: self.trace.capacity,
            trace_records: self.trace.records,
            late_records_retained: self.trace.late_records_retained,
            window_results_retained: self.trace.window_results_retained,
        }
    }

    /// A simulation at its start, producers attached and commands scheduled.
    pub fn build(&self) -> Result<Simulation, InputError> {
        self.validate()?;
        let cfg = self.job_config();
        let start = cfg.start_time;
        let mut sim = Simulation::new(cfg, KeyTable::default(), self.topic.partitions);
        for (i, p) in self.producers.iter().enumerate() {
            sim.attach_producer(p, start).map_err(|e| e.within(&format!("producers[{i}]")))?;
        }
        // In time order (stable: same-instant commands keep theirs), so each is a push at the
        // back of the queue however many there are.
        let mut order: Vec<usize> = (0..self.commands.len()).collect();
        order.sort_by_key(|&i| self.commands[i].at_ms);
        for i in order {
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
