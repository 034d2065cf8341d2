//! The oracle3 scenario format (`tools/oracle/README.md`, section oracle3): watermark alignment
//! and checkpoint/restore scenarios that the project's oracle ran on real Flink 2.3.0 — one or two
//! FLIP-27 sources with scripted splits, a keyed window after their union, and a schedule of
//! reads, idle marks, sleeps, checkpoints and a failure. This module maps a scenario onto the
//! engine and drives it step by step as the oracle's driver does; `oracle3_report` gives the
//! result the shape of the goldens in `tests/golden/oracle3` (contract: `tools/oracle/ORACLE3.md`).
//!
//! Mapping: source `s` is job input `s` with `parallelism` subtasks; split `p` is partition `p`
//! of its topic (owned by subtask `p % parallelism`, as the oracle's enumerator assigns it); every
//! record is in its partition from the start and a **polled** reader emits it only when a `read`
//! step polls its split (`Simulation::poll`). Time: a step happens between two processed
//! instants (so a burst is atomic with respect to timers and alignment, as one `pollNext` is); a
//! step that changed watermark state is followed by `settle_ms` of processing time in which the
//! alignment ticks, announcements and periodic emission run, any other step by 1 ms, a sleep by
//! its length. A checkpoint step is the `checkpoint` command; a failure is the `fail` command on
//! the keyed subtask, and the next step runs once the restart happened. With `flush_at_end` the
//! source subtasks end one per step, the first one (in source, subtask order) that alignment does
//! not block.

use super::build::{parse_document, range};
use super::oracle3_driver::Driver;
pub use super::oracle3_driver::Oracle3Run;
use super::schema::DEFAULT_START_MS;
use crate::engine::alignment::{AlignmentParams, AlignmentSwitches};
use crate::engine::checkpoint::CheckpointConfig;
use crate::engine::error::InputError;
use crate::engine::job::{InputConfig, JobConfig, TwoInputMode};
use crate::engine::limits::{MAX_INTERVAL_MS, MAX_SAFE};
use crate::engine::operator::aggregate::AggregateKind;
use crate::engine::operator::assigner::WindowSpec;
use crate::engine::operator::sink::SinkMode;
use crate::engine::operator::sql_window::WindowApi;
use crate::engine::operator::trigger::TriggerSpec;
use crate::engine::partitioner::Exchange;
use crate::engine::restart_strategy::RestartStrategy;
use crate::engine::source::generator::{EmitMode, GeneratorKind};
use crate::engine::source::start_offset::StartOffset;
use crate::engine::source::timestamp::{SourceTransform, TimestampAssigner};
use crate::engine::source::SourceSettings;
use crate::engine::time::ProcTime;
use crate::engine::valve::ValveSwitches;
use serde::Deserialize;
use serde_json::Value;

/// Topic names whose Kafka start index (`((hashCode * 31) & 0x7FFFFFFF) % parallelism`) is 0 for
/// every parallelism from 1 to 4, so that Kafka's assignment gives split `p` to subtask
/// `p % parallelism`, as the oracle's enumerator does.
pub const TOPICS: [&str; 2] = ["oracle3-0", "oracle3-15"];

/// The oracle's limit on source parallelism.
const MAX_PARALLELISM: i64 = 4;

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Oracle3Scenario {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub sources: Vec<Oracle3Source>,
    #[serde(default)]
    pub flink: Oracle3Flink,
    #[serde(default)]
    pub interval_ms: Option<i64>,
    #[serde(default)]
    pub window: Option<WindowSpec>,
    #[serde(default)]
    pub allowed_lateness_ms: i64,
    #[serde(default)]
    pub checkpointing: Option<Oracle3Checkpointing>,
    pub schedule: Vec<Value>,
    #[serde(default)]
    pub settle_ms: Option<i64>,
    #[serde(default = "yes")]
    pub flush_at_end: bool,
    /// What the engine must reproduce (the goldens' contract); ignored when running.
    #[serde(default)]
    pub expect_engine: Option<Value>,
}

fn yes() -> bool {
    true
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Oracle3Source {
    #[serde(default = "one")]
    pub parallelism: i64,
    pub splits: Vec<Vec<Oracle3Event>>,
    #[serde(default)]
    pub watermark: Oracle3Watermark,
    #[serde(default)]
    pub alignment: Option<AlignmentParams>,
}

fn one() -> i64 {
    1
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Oracle3Event {
    pub ts: i64,
    #[serde(default = "default_key")]
    pub key: String,
    #[serde(default = "one")]
    pub value: i64,
}

fn default_key() -> String {
    "k".into()
}

/// The source's strategy: `per_event` is `forBoundedOutOfOrderness` emitted after every record
/// (`max_ts - bound - 1`), `punctuated` the record's own timestamp; `idleness_ms` wraps it
/// like `withIdleness`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Oracle3Watermark {
    #[serde(default)]
    pub kind: Oracle3WatermarkKind,
    #[serde(default)]
    pub out_of_orderness_ms: i64,
    #[serde(default)]
    pub idleness_ms: Option<i64>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Oracle3WatermarkKind {
    #[default]
    PerEvent,
    Punctuated,
}

/// `pipeline.watermark-alignment.buffer-size` and `allow-unaligned-source-splits`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Oracle3Flink {
    #[serde(default = "three")]
    pub alignment_buffer_size: i64,
    #[serde(default)]
    pub allow_unaligned_source_splits: bool,
}

fn three() -> i64 {
    3
}

impl Default for Oracle3Flink {
    fn default() -> Self {
        Oracle3Flink { alignment_buffer_size: 3, allow_unaligned_source_splits: false }
    }
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Oracle3Checkpointing {
    #[serde(default)]
    pub restart: Oracle3Restart,
}

/// The oracle restarts with `fixed-delay` only.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Oracle3Restart {
    #[serde(default = "fixed_delay", rename = "type")]
    pub kind: String,
    #[serde(default = "three")]
    pub attempts: i64,
    #[serde(default = "two_hundred")]
    pub delay_ms: i64,
}

fn fixed_delay() -> String {
    "fixed_delay".into()
}

fn two_hundred() -> i64 {
    200
}

impl Default for Oracle3Restart {
    fn default() -> Self {
        Oracle3Restart { kind: fixed_delay(), attempts: 3, delay_ms: 200 }
    }
}

/// One expanded schedule step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Oracle3Step {
    Read { src: usize, split: usize, n: u64 },
    Idle { src: usize, split: usize },
    Active { src: usize, split: usize },
    Release { src: usize, split: usize },
    Sleep(i64),
    Checkpoint,
    Fail,
}

/// Parses an oracle3 scenario with field paths in errors, and makes every check `run` makes.
pub fn parse(json: &str) -> Result<Oracle3Scenario, InputError> {
    let sc: Oracle3Scenario = parse_document(json)?;
    sc.validate()?;
    Ok(sc)
}

fn count(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

impl Oracle3Scenario {
    pub fn validate(&self) -> Result<(), InputError> {
        range(count(self.sources.len()), 1, 2, "sources")?;
        for (s, src) in self.sources.iter().enumerate() {
            let path = |f: &str| format!("sources[{s}].{f}");
            range(src.parallelism, 1, MAX_PARALLELISM, &path("parallelism"))?;
            range(count(src.splits.len()), 1, 64, &path("splits"))?;
            for (p, split) in src.splits.iter().enumerate() {
                for (i, e) in split.iter().enumerate() {
                    range(e.ts, -MAX_SAFE, MAX_SAFE, &path(&format!("splits[{p}][{i}].ts")))?;
                }
            }
            range(src.watermark.out_of_orderness_ms, 0, MAX_SAFE, &path("watermark.out_of_orderness_ms"))?;
            if let Some(t) = src.watermark.idleness_ms {
                range(t, 1, MAX_SAFE, &path("watermark.idleness_ms"))?;
            }
            if let Some(a) = &src.alignment {
                a.validate().map_err(|(f, m)| InputError::new(path(&format!("alignment.{f}")), m))?;
                range(a.update_interval_ms, 1, MAX_INTERVAL_MS, &path("alignment.update_interval_ms"))?;
            }
        }
        range(self.flink.alignment_buffer_size, 0, 100, "flink.alignment_buffer_size")?;
        if let Some(i) = self.interval_ms {
            range(i, 0, MAX_INTERVAL_MS, "interval_ms")?;
        }
        if self.needs_timer() && self.interval() == 0 {
            return Err(InputError::new("interval_ms", "idleness_ms needs interval_ms > 0"));
        }
        if let Some(c) = &self.checkpointing {
            if c.restart.kind != "fixed_delay" {
                return Err(InputError::new("checkpointing.restart.type", "must be fixed_delay"));
            }
            range(c.restart.attempts, 1, 100, "checkpointing.restart.attempts")?;
            range(c.restart.delay_ms, 0, 60_000, "checkpointing.restart.delay_ms")?;
        }
        if let Some(s) = self.settle_ms {
            range(s, 0, 60_000, "settle_ms")?;
        }
        range(self.allowed_lateness_ms, 0, MAX_SAFE, "allowed_lateness_ms")?;
        self.window().validate().map_err(|(f, m)| InputError::new(format!("window.{f}"), m))?;
        if matches!(self.window(), WindowSpec::Cumulate { .. }) {
            return Err(InputError::new("window.type", "cumulate is a Flink SQL window; the oracle3 format runs DataStream windows only"));
        }
        self.steps().map(|_| ())
    }

    fn needs_timer(&self) -> bool {
        self.sources.iter().any(|s| s.watermark.idleness_ms.is_some())
    }

    /// `pipeline.auto-watermark-interval` as the oracle defaults it: 200 ms with idleness, else 0.
    pub fn interval(&self) -> i64 {
        self.interval_ms.unwrap_or(if self.needs_timer() { 200 } else { 0 })
    }

    pub fn window(&self) -> WindowSpec {
        self.window.unwrap_or(WindowSpec::Tumbling { size_ms: 1_000, offset_ms: 0 })
    }

    pub fn buffer_size(&self) -> usize {
        usize::try_from(self.flink.alignment_buffer_size).unwrap_or(3)
    }

    /// Whether any source is aligned (then the driver takes alignment snapshots).
    pub fn aligned(&self) -> bool {
        self.sources.iter().any(|s| s.alignment.is_some())
    }

    /// The pause after a step that changed watermark state: `(buffer + 3)` update intervals with
    /// alignment (sampled into the oldest slot, reported, announced, applied), else 0.
    pub fn settle(&self) -> i64 {
        let longest = self.sources.iter().filter_map(|s| s.alignment.as_ref().map(|a| a.update_interval_ms)).max();
        self.settle_ms.unwrap_or_else(|| longest.map_or(0, |u| (self.flink.alignment_buffer_size + 3) * u))
    }

    /// Engine partition of source `s`'s split `p`.
    pub fn partition(&self, s: usize, p: usize) -> u32 {
        (self.sources[..s].iter().map(|x| x.splits.len()).sum::<usize>() + p) as u32
    }

    /// The schedule, expanded (`rounds`) and checked.
    pub fn steps(&self) -> Result<Vec<Oracle3Step>, InputError> {
        let mut out = Vec::new();
        for (k, entry) in self.schedule.iter().enumerate() {
            self.step(entry, &mut out).map_err(|e| e.within(&format!("schedule[{k}]")))?;
        }
        Ok(out)
    }

    fn step(&self, entry: &Value, out: &mut Vec<Oracle3Step>) -> Result<(), InputError> {
        const SHAPES: &str = "use one of read, rounds, idle, active, release, sleep_ms, checkpoint, fail";
        let obj = entry.as_object().ok_or_else(|| InputError::type_("", SHAPES))?;
        if let Some(r) = obj.get("rounds") {
            if let Some(extra) = obj.keys().find(|k| *k != "rounds" && *k != "n") {
                return Err(InputError::invalid(extra.as_str(), "rounds takes only n"));
            }
            let rounds = int(r, "rounds", 1, 1000)?;
            let n = obj.get("n").map_or(Ok(1), |v| int(v, "n", 1, 1000))?;
            for _ in 0..rounds {
                for (src, s) in self.sources.iter().enumerate() {
                    for split in 0..s.splits.len() {
                        out.push(Oracle3Step::Read { src, split, n: n.unsigned_abs() });
                    }
                }
            }
            return Ok(());
        }
        let mut entries = obj.iter();
        let (Some((k, v)), None) = (entries.next(), entries.next()) else { return Err(InputError::invalid("", SHAPES)) };
        let step = match k.as_str() {
            "read" => {
                let (src, split) = self.target(v).map_err(|e| e.within("read"))?;
                let n = v.get("n").map_or(Ok(1), |n| int(n, "read.n", 1, 1000))?;
                Oracle3Step::Read { src, split, n: n.unsigned_abs() }
            }
            "idle" | "active" | "release" => {
                let (src, split) = self.target(v).map_err(|e| e.within(k))?;
                match k.as_str() {
                    "idle" => Oracle3Step::Idle { src, split },
                    "active" => Oracle3Step::Active { src, split },
                    _ => Oracle3Step::Release { src, split },
                }
            }
            "sleep_ms" => Oracle3Step::Sleep(int(v, "sleep_ms", 0, 600_000)?),
            "checkpoint" | "fail" => {
                if self.checkpointing.is_none() {
                    return Err(InputError::invalid(k.as_str(), "needs the scenario's \"checkpointing\""));
                }
                if !(v.is_null() || v == &Value::Bool(true) || v.as_object().is_some_and(|o| o.is_empty())) {
                    return Err(InputError::invalid(k.as_str(), "takes {}"));
                }
                if k == "checkpoint" {
                    Oracle3Step::Checkpoint
                } else {
                    Oracle3Step::Fail
                }
            }
            _ => return Err(InputError::invalid(k.as_str(), SHAPES)),
        };
        out.push(step);
        Ok(())
    }

    /// `{"src": s, "split": p}` (`src` may be left out with one source).
    fn target(&self, v: &Value) -> Result<(usize, usize), InputError> {
        let o = v.as_object().ok_or_else(|| InputError::type_("", "must be {\"src\": s, \"split\": p}"))?;
        if let Some(extra) = o.keys().find(|k| !matches!(k.as_str(), "src" | "split" | "n")) {
            return Err(InputError::invalid(extra.as_str(), "unknown field (src, split, n)"));
        }
        let src = match o.get("src") {
            Some(s) => int(s, "src", 0, count(self.sources.len()) - 1)?,
            None if self.sources.len() == 1 => 0,
            None => return Err(InputError::invalid("src", "needed with two sources")),
        };
        let src = usize::try_from(src).unwrap_or(0);
        let split = o.get("split").ok_or_else(|| InputError::invalid("split", "missing"))?;
        let split = int(split, "split", 0, count(self.sources[src].splits.len()) - 1)?;
        Ok((src, usize::try_from(split).unwrap_or(0)))
    }

    fn input_config(&self, s: usize) -> InputConfig {
        let src = &self.sources[s];
        let generator = match src.watermark.kind {
            Oracle3WatermarkKind::PerEvent => GeneratorKind::BoundedOutOfOrderness { bound_ms: src.watermark.out_of_orderness_ms },
            // The record's own timestamp: `ts - 0`, without the bounded generator's `- 1`.
            Oracle3WatermarkKind::Punctuated => GeneratorKind::SqlBounded { delay_ms: 0 },
        };
        InputConfig {
            topic: TOPICS[s].into(),
            source_parallelism: u32::try_from(src.parallelism).unwrap_or(1),
            source: SourceSettings {
                generator,
                emit: EmitMode::PerEvent,
                idle_timeout_ms: src.watermark.idleness_ms,
                assigner: TimestampAssigner::EventField,
                transform: SourceTransform::default(),
                combined_all_idle_flush: true,
                legacy_idle_without_splits: false,
                idleness_clock: crate::engine::flow::IdlenessClock::InputActivity,
                alignment_skip_idle_splits: true,
            },
            read_rate_per_s: None,
            polled: true,
            start_offset: StartOffset::Earliest,
            fetch_records_per_partition: crate::engine::source::fetcher::DEFAULT_FETCH_RECORDS_PER_PARTITION,
            alignment: src.alignment.clone(),
            reader_pauses_splits: true,
            exchange: Exchange::Hash,
            midstream: None,
        }
    }

    pub fn job_config(&self) -> JobConfig {
        let restart = match &self.checkpointing {
            Some(c) => {
                RestartStrategy::FixedDelay { delay_ms: c.restart.delay_ms, attempts: u32::try_from(c.restart.attempts).unwrap_or(1) }
            }
            None => RestartStrategy::None {},
        };
        JobConfig {
            seed: 0,
            start_time: ProcTime(DEFAULT_START_MS),
            inputs: (0..self.sources.len()).map(|s| self.input_config(s)).collect(),
            two_input_mode: TwoInputMode::Union,
            auto_watermark_interval_ms: self.interval(),
            channel_latency_ms: 0,
            window_parallelism: 1,
            window: self.window(),
            trigger: TriggerSpec::EventTime,
            window_api: WindowApi::Datastream,
            interval_join: None,
            allowed_lateness_ms: self.allowed_lateness_ms,
            late_side_output: true,
            aggregate: AggregateKind::Sum,
            sink: SinkMode::Append,
            valve: ValveSwitches::default(),
            combined_all_idle_flush: true,
            midstream_forwards_status: false,
            flow: crate::engine::flow::FlowConfig::default(),
            alignment: AlignmentSwitches {
                buffer_size: self.buffer_size(),
                allow_unaligned_source_splits: self.flink.allow_unaligned_source_splits,
            },
            trace_capacity: TRACE_CAPACITY,
            trace_records: true,
            late_records_retained: usize::MAX,
            window_results_retained: None,
            cluster: Default::default(),
            // Periodic checkpoints are off, as in the oracle: checkpoints come from the schedule.
            checkpointing: CheckpointConfig { interval_ms: None, restart },
        }
    }

    /// Runs the scenario as the oracle's driver does.
    pub fn run(&self) -> Result<Oracle3Run, InputError> {
        Driver::new(self, 0)?.run()
    }
}

/// Every trace event of a run is kept: the report reads them all.
pub(super) const TRACE_CAPACITY: usize = 4_000_000;

/// An integer field in a range.
fn int(v: &Value, path: &str, lo: i64, hi: i64) -> Result<i64, InputError> {
    let x = v.as_i64().ok_or_else(|| InputError::type_(path, "must be an integer"))?;
    range(x, lo, hi, path)?;
    Ok(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::source::enumerator::split_owner;

    #[test]
    fn the_topics_give_split_p_to_subtask_p_mod_parallelism() {
        for topic in TOPICS {
            for parallelism in 1..=4 {
                for p in 0..8 {
                    assert_eq!(split_owner(topic, p, parallelism), p % parallelism, "{topic}, {parallelism}");
                }
            }
        }
    }

    /// The settle argument (`tools/oracle/ORACLE3.md`, "Time"): every step settles for more
    /// than `buffer + 2` update intervals, so where the alignment ticks fall relative to the
    /// steps does not change what the driver sees.

    #[test]
    fn schedule_errors_name_the_step_and_field() {
        let sc = |schedule: &str| {
            format!(r#"{{"sources": [{{"splits": [[{{"ts": 1}}]]}}, {{"splits": [[{{"ts": 2}}]]}}], "schedule": {schedule}}}"#)
        };
        assert_eq!(parse(&sc(r#"[{"read": {"split": 0}}]"#)).unwrap_err().path, "schedule[0].read.src");
        assert_eq!(parse(&sc(r#"[{"read": {"src": 1, "split": 3}}]"#)).unwrap_err().path, "schedule[0].read.split");
        assert_eq!(parse(&sc(r#"[{"fail": {}}]"#)).unwrap_err().path, "schedule[0].fail");
        assert_eq!(parse(&sc(r#"[{"jump": 1}]"#)).unwrap_err().path, "schedule[0].jump");
        let ok = parse(&sc(r#"[{"rounds": 2}, {"sleep_ms": 10}]"#)).unwrap();
        assert_eq!(ok.steps().unwrap().len(), 5);
    }
}
