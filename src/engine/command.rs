//! Commands that change a running job: the scenario's scripted `commands` and the API's calls
//! go through the same code. Every bad argument is an [`InputError`] naming the field; the rules
//! are the ones in `session::check`, which the session runs before a command is scheduled.

use super::element::Record;
use super::error::InputError;
use super::failover::FailTarget;
use super::operator::sink::SinkMode;
use super::producer::{ProducerState, RecordShape};
use super::rng::Rng;
use super::scenario::schema::{KeysSpec, ProducerSpec, RecordSpec};
use super::session::check;
use super::sim::Simulation;
use super::source::generator::GeneratorKind;
use super::time::{EventTime, ProcTime};
use super::trace::TraceKind;
use crate::engine::input_twin::input_twin;
use serde::Serialize;

input_twin! {
    /// A change to the running job.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    #[serde(tag = "command", rename_all = "snake_case", deny_unknown_fields)]
    pub enum Command reads command_in #[serde(rename = "$tag:command", rename_all = "snake_case", deny_unknown_fields)] {
        /// Adds a partition to a topic (the first input's unless named); its split is assigned at
        /// once (Flink would discover it at the next partition-discovery interval).
        AddPartition {
            #[serde(default, skip_serializing_if = "Option::is_none")]
            topic: Option<String>,
        },
        /// Removes a partition: its producers stop and its split is released.
        RemovePartition { partition: u32 },
        /// Appends records to a partition now.
        Produce { partition: u32, records: Vec<RecordSpec> },
        /// Stops every producer of a partition (the split goes silent).
        Silence { partition: u32 },
        /// Resumes the producers of a partition.
        Resume { partition: u32 },
        /// Attaches a producer (generator) to partitions.
        AttachProducer { producer: ProducerSpec },
        /// Detaches every producer of a partition.
        DetachProducers { partition: u32 },
        /// Changes a parameter of the running job.
        SetParam { param: Param },
        /// `markIdle()` on a split's output, as if its idleness timeout had just expired.
        MarkSplitIdle { partition: u32 },
        /// `markActive()` on a split's output.
        MarkSplitActive { partition: u32 },
        /// The split finished (`releaseOutputForSplit`).
        ReleaseSplit { partition: u32 },
        /// End of input: the sources emit the final `Long.MAX_VALUE` watermark.
        EndOfInput,
        /// Kills a TaskManager or one subtask: the job fails and the restart strategy decides what
        /// follows (`failover`).
        Fail { target: FailTarget },
        /// Triggers a checkpoint now, as Flink's REST `POST /jobs/:jobid/checkpoints` does (with or
        /// without periodic checkpointing): it completes at once with the current state
        /// (`failover`). While the job is down there is nothing to checkpoint (Flink answers the
        /// call with an error; the job goes on).
        Checkpoint,
    }
}

input_twin! {
    /// A parameter that can change while the job runs.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    #[serde(tag = "name", content = "value", rename_all = "snake_case", deny_unknown_fields)]
    pub enum Param reads param_in #[serde(rename = "$tag:name:value", rename_all = "snake_case", deny_unknown_fields)] {
        /// The out-of-orderness bound of a bounded generator.
        BoundMs(i64),
        /// The whole generator.
        Generator(GeneratorKind),
        /// `withIdleness`; `null` turns it off.
        IdleTimeoutMs(Option<i64>),
        AutoWatermarkIntervalMs(i64),
        AllowedLatenessMs(i64),
        LateSideOutput(bool),
        SinkMode(SinkMode),
        ChannelLatencyMs(i64),
        ReadRatePerS(Option<u64>),
        /// Records per second one keyed subtask processes (`null`: unbounded, no back-pressure).
        KeyedCapacityPerS(Option<u64>),
        /// Clamp timestamps to processing time + this skew (`null`: no clamp).
        MaxFutureSkewMs(Option<i64>),
        DropHeartbeats(bool),
    }
}

/// The serde tag a value is written with (`"set_param"`, `"idle_timeout_ms"`): the name the
/// scenario file and the API use, so an error names it as the user wrote it.
fn tag_of(v: &impl Serialize, tag: &str) -> String {
    // Through the JSON text (`apply` writes it already), not a `Value`: that serializer costs
    // the page kilobytes of code for every type a command holds.
    let text = serde_json::to_string(v).unwrap_or_default();
    let key = format!("\"{tag}\":\"");
    text.split_once(&key).and_then(|(_, rest)| rest.split_once('"')).map(|(name, _)| name.to_string()).unwrap_or_default()
}

impl Command {
    /// The command's name in a scenario file (`add_partition`).
    pub fn name(&self) -> String {
        tag_of(self, "command")
    }
}

impl Param {
    /// The parameter's name in a scenario file and `setParam` (`idle_timeout_ms`).
    pub fn name(&self) -> String {
        tag_of(self, "name")
    }
}

impl Simulation {
    /// Why the job failed, in the words of Flink's exception; a source subtask named as every
    /// view names it (`rates·0` with two sources).
    fn fail_reason(&self, target: FailTarget) -> String {
        match target {
            FailTarget::TaskManager(n) => format!("TaskManager {n} was killed (command): its subtasks failed"),
            FailTarget::KeyedSubtask(n) => format!("keyed subtask {n} failed (command)"),
            FailTarget::SourceSubtask(n) => format!("source subtask {} failed (command)", self.source_subtask_name(n)),
        }
    }

    /// Applies a command at the current processing time.
    pub fn apply(&mut self, cmd: Command) -> Result<(), InputError> {
        let now = self.now.max(self.cfg.start_time);
        let text = serde_json::to_string(&cmd).unwrap_or_default();
        match cmd {
            Command::AddPartition { topic } => {
                let input = self.topics().input_named(topic.as_deref())?;
                self.add_partition(input);
            }
            Command::RemovePartition { partition } => {
                self.check_partition(partition)?;
                self.partitions[partition as usize].removed = true;
                self.release(partition);
            }
            Command::Produce { partition, records } => {
                self.check_partition(partition)?;
                for (i, r) in records.iter().enumerate() {
                    let rec = self.record_from_spec(partition, r, now).map_err(|e| e.within(&format!("records[{i}]")))?;
                    self.append(rec);
                }
            }
            Command::Silence { partition } | Command::Resume { partition } => {
                self.check_partition(partition)?;
                let silenced = matches!(cmd, Command::Silence { .. });
                for p in self.producers.iter_mut().filter(|p| p.partition == partition) {
                    p.set_silenced(silenced, now);
                }
            }
            Command::AttachProducer { producer } => self.attach_producer(&producer, now).map_err(|e| e.within("producer"))?,
            Command::DetachProducers { partition } => {
                self.check_partition(partition)?;
                self.producers.retain(|p| p.partition != partition);
                self.producers_of_stale = true;
            }
            Command::SetParam { param } => self.set_param(param).map_err(|e| e.within("param"))?,
            Command::MarkSplitIdle { partition } | Command::MarkSplitActive { partition } => {
                self.check_partition(partition)?;
                let idle = matches!(cmd, Command::MarkSplitIdle { .. });
                let (s, i) = self.live_split(partition)?;
                let mut sig = std::mem::take(self.signals_mut());
                sig.clear();
                self.sources[s].set_split_idle(i, idle, now, &mut self.trace, &mut sig);
                *self.signals_mut() = sig;
                self.broadcast(s, now);
            }
            Command::ReleaseSplit { partition } => {
                self.check_partition(partition)?;
                self.live_split(partition)?;
                self.release(partition);
            }
            Command::EndOfInput => self.end_of_input(),
            Command::Fail { target } => {
                check::fail_target(target, &check::JobSize::of(self)).map_err(|e| e.within("target"))?;
                // A TaskManager that runs no subtask takes nothing down with it.
                if self.runs_a_subtask(target) && self.failover.is_running() {
                    self.fail_job(now, self.fail_reason(target));
                    self.failover.failed_before_reads = true;
                }
            }
            Command::Checkpoint => self.trigger_checkpoint(now),
        }
        self.trace.push(now, TraceKind::Command { text });
        Ok(())
    }

    fn runs_a_subtask(&self, target: FailTarget) -> bool {
        let FailTarget::TaskManager(n) = target else { return true };
        let most = self.cfg.total_source_parallelism().max(self.cfg.window_parallelism);
        (0..most).any(|i| self.cfg.cluster.task_manager_of(i) == n)
    }

    fn live_split(&self, partition: u32) -> Result<(usize, usize), InputError> {
        self.live_split_of(partition as usize).ok_or_else(|| check::released(partition, "partition"))
    }

    fn release(&mut self, partition: u32) {
        if let Some((s, i)) = self.split_of(partition) {
            let now = self.now.max(self.cfg.start_time);
            self.sources[s as usize].release_split(i, now, &mut self.trace);
            self.note_released(partition as usize, now);
        }
    }

    fn record_from_spec(&mut self, partition: u32, r: &RecordSpec, now: ProcTime) -> Result<Record, InputError> {
        check::record(r, now, false)?;
        let now_et = EventTime::from_proc(now);
        let ts = match (r.ts, r.ts_offset_ms) {
            (Some(ts), _) => EventTime(ts),
            (None, Some(off)) => now_et + off,
            (None, None) => now_et,
        };
        let key = self.keys_mut().intern(r.key.as_deref().unwrap_or(""));
        Ok(Record { event_ts: ts, append_time: now, key, value: r.value.unwrap_or(1), partition, offset: 0, heartbeat: r.heartbeat })
    }

    /// Builds one producer per selected partition; each gets its own RNG stream.
    pub fn attach_producer(&mut self, spec: &ProducerSpec, now: ProcTime) -> Result<(), InputError> {
        let parts = check::producer(spec, &self.topics())?;
        let keys = match &spec.keys {
            KeysSpec::Count { count, prefix } => (0..*count).map(|i| self.keys.intern(&format!("{prefix}{i}"))).collect(),
            KeysSpec::List(names) => names.iter().map(|n| self.keys.intern(n)).collect(),
        };
        let shape = RecordShape { keys, event_delay_ms: spec.event_delay_ms, jitter_ms: spec.jitter_ms, value: spec.value };
        let start = now.max(self.cfg.start_time + spec.start_ms);
        let stop = spec.stop_ms.map(|s| self.cfg.start_time + s);
        for p in parts {
            let label = ((self.producers.len() as u64) << 32) | p as u64;
            let rng = Rng::derive(self.cfg.seed, label);
            self.producers.push(ProducerState::new(spec.kind, p, start, stop, shape.clone(), rng));
            self.producers_of_stale = true;
        }
        Ok(())
    }

    fn set_param(&mut self, param: Param) -> Result<(), InputError> {
        check::param(&param, self.cfg.window_api)?;
        match param {
            Param::AutoWatermarkIntervalMs(i) => {
                self.cfg.auto_watermark_interval_ms = i;
                self.next_tick = (i > 0 && self.started).then(|| {
                    let base = self.cfg.start_time;
                    base + ((self.now - base) / i + 1) * i
                });
            }
            Param::AllowedLatenessMs(l) => {
                self.cfg.allowed_lateness_ms = l;
                self.down.windows.iter_mut().for_each(|w| w.op.set_lateness(l));
            }
            Param::LateSideOutput(b) => {
                self.cfg.late_side_output = b;
                self.down.late.side_output = b;
            }
            Param::SinkMode(m) => {
                self.cfg.sink = m;
                self.down.sink.mode = m;
            }
            Param::ChannelLatencyMs(l) => {
                self.cfg.channel_latency_ms = l;
                self.down.set_latency(l);
            }
            Param::ReadRatePerS(r) => self.cfg.inputs.iter_mut().for_each(|i| i.read_rate_per_s = r),
            Param::KeyedCapacityPerS(c) => {
                self.cfg.flow.keyed_capacity_per_s = c;
                self.down.set_capacity(c);
            }
            strategy => self.set_strategy(strategy),
        }
        Ok(())
    }

    /// A watermark-strategy parameter: every source's strategy changes (a job with two inputs
    /// has two), and an idle timeout reaches the watermark operators chained after them too
    /// (after SQL's, only it).
    fn set_strategy(&mut self, param: Param) {
        for input in 0..self.cfg.inputs.len() {
            let mut src = self.cfg.inputs[input].source;
            match param {
                Param::BoundMs(b) => {
                    src.generator = match src.generator {
                        GeneratorKind::MaxOnSilence { silence_ms, .. } => GeneratorKind::MaxOnSilence { bound_ms: b, silence_ms },
                        GeneratorKind::SqlBounded { .. } => GeneratorKind::SqlBounded { delay_ms: b },
                        _ => GeneratorKind::BoundedOutOfOrderness { bound_ms: b },
                    };
                }
                Param::Generator(g) => src.generator = g,
                // `table.exec.source.idle-timeout` reaches SQL's watermark operator, not the
                // source before it: that one has no watermark strategy of its own to idle.
                Param::IdleTimeoutMs(_) if self.cfg.inputs[input].sql_operator_after() => {}
                Param::IdleTimeoutMs(t) => src.idle_timeout_ms = t,
                Param::MaxFutureSkewMs(s) => src.transform.max_future_skew_ms = s,
                Param::DropHeartbeats(b) => src.transform.drop_heartbeats = b,
                _ => unreachable!("set_param handles the job's other parameters"),
            }
            if src != self.cfg.inputs[input].source {
                self.cfg.inputs[input].source = src;
                self.sources.iter_mut().filter(|s| s.input as usize == input).for_each(|s| s.reconfigure(src));
            }
        }
        let bound = crate::engine::diagnosis::diagnose::job_bound_ms(&self.cfg).unwrap_or(0);
        if bound != self.down.late.bound_ms() {
            let sources = self.sources.iter().map(|s| s.output.current_watermark());
            let chained = self.down.chained.iter().flatten().map(|m| m.output_watermark);
            let emitted = sources.chain(chained).filter(|&w| w != EventTime::MAX).max().unwrap_or(EventTime::MIN);
            self.down.set_bound(bound, emitted);
        }
        if let Param::IdleTimeoutMs(t) = param {
            let now = self.now.max(self.cfg.start_time);
            self.down.chained.iter_mut().flatten().for_each(|m| m.set_idle_timeout(t, now));
            // The configuration says what runs: the chained operators' specs carry the new timeout
            // (the UI's idle field and SQL snippet read `table.exec.source.idle-timeout` there).
            for (s, m) in self.down.chained.iter().enumerate() {
                if let (Some(m), Some(src)) = (m, self.sources.get(s)) {
                    self.cfg.inputs[src.input as usize].midstream = Some(m.spec);
                }
            }
        }
    }
}
