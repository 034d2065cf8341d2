//! The simulation: a sans-IO, deterministic state machine over processing time.
//!
//! Each processed millisecond `t` runs, in this documented order:
//! 1. commands scheduled at or before `t`, in the order given;
//! 2. producers append the records due at `t` (producer order);
//! 3. channels with latency deliver what is due (channel index order);
//! 4. each source subtask (index order) reads its splits in assignment order — all available
//!    records, or up to its read budget, one split after the other;
//! 5. if `t` is a periodic-watermark instant (`start + k * interval`), every source subtask runs
//!    its periodic emission (reference §2.2);
//! 8. checkpoints, the TaskManagers' memory check, the state-size history (`failover`).
//!
//! A restart due at `t` happens before step 1; while the job is down only steps 1, 2 and 8 run
//! (`failover`).
//!
//! Time only moves through `step`, `run_until` and `step_to_next_interesting`; nothing reads a
//! clock. The next instant is computed, so sparse scenarios skip idle stretches in one step.

use super::alignment::coordinator::AlignmentCoordinator;
use super::alignment::source_alignment::{SourceAlignment, SplitPausing};
use super::alignment::UNSUPPORTED_SPLIT_PAUSE;
use super::command::Command;
use super::downstream::Downstream;
use super::element::Record;
use super::error::InputError;
use super::failover::{Failover, JobStatus};
use super::flow::timer_gauge::UPDATE_INTERVAL_MS;
use super::job::JobConfig;
use super::keys::KeyTable;
use super::observer::Observer;
use super::partition::Partition;
use super::producer::{ProducerKind, ProducerState};
use super::rng::Rng;
use super::source::enumerator::split_owner;
use super::source::subtask::SourceSubtask;
use super::status::Signal;
use super::stopping_offset::StoppingOffsets;
use super::time::ProcTime;
use super::topics::Topics;
use super::trace::Trace;
use std::collections::VecDeque;
use std::ops::ControlFlow;

/// A command waiting for its processing time.
#[derive(Clone, Debug)]
pub struct ScheduledCommand {
    pub at: ProcTime,
    pub command: Command,
    /// Where it came from, for error messages (`commands[3]`).
    pub path: String,
}

#[derive(Clone, Debug)]
pub struct Simulation {
    pub(crate) cfg: JobConfig,
    /// The last processing time fully processed (start − 1 before the first step).
    pub(crate) now: ProcTime,
    pub(crate) keys: KeyTable,
    pub(crate) partitions: Vec<Partition>,
    /// Per partition: (source subtask, split index), once assigned.
    pub(crate) split_of: Vec<Option<(u32, usize)>>,
    pub(crate) producers: Vec<ProducerState>,
    pub(crate) sources: Vec<SourceSubtask>,
    pub(crate) down: Downstream,
    pub(crate) trace: Trace,
    /// Commands waiting for their time, in run order. Commands come mostly in time order, so
    /// scheduling one is a push at the back and running one a pop at the front.
    pub(crate) scheduled: VecDeque<ScheduledCommand>,
    pub(crate) next_tick: Option<ProcTime>,
    pub(crate) started: bool,
    pub(crate) ended: bool,
    /// Records may wait in a log (a rate-limited reader, or records appended by a command
    /// after this instant's reads): only then is the backlog scanned.
    pub(crate) pending_reads: bool,
    pub(crate) signals: Vec<Signal>,
    /// Producer indices per partition, in producer order (rebuilt when producers change).
    pub(crate) producers_of: Vec<Vec<u32>>,
    pub(crate) producers_of_stale: bool,
    /// Reused buffer for the records a producer writes in one instant.
    pub(crate) batch: Vec<Record>,
    /// The alignment coordinators (one per aligned input, with the group store).
    pub(crate) coordinator: AlignmentCoordinator,
    /// Per input: its next alignment report/announce instant, if aligned.
    pub(crate) next_alignment: Vec<Option<ProcTime>>,
    /// The next metric update instant (`TimerGauge`s, every 5 s).
    pub(crate) next_metric_update: ProcTime,
    /// Checkpoints, failures and restarts (`failover`).
    pub(crate) failover: Failover,
    /// Every record a source emitted, when an export asked for them (`record_reads`).
    pub(crate) reads: Option<Vec<ReadRecord>>,
    /// Where splits ended, for a restore to read them again up to there.
    pub(crate) stopping: StoppingOffsets,
}

/// A record as a source subtask emitted it: read from its split at `time`, with the timestamp
/// its assigner and transform gave it (what `export` replays on real Flink).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReadRecord {
    pub time: ProcTime,
    pub subtask: u32,
    pub partition: u32,
    pub ts: super::time::EventTime,
    pub key: super::keys::KeyId,
    pub value: i64,
}

impl Simulation {
    /// A job with `partitions[i]` empty partitions in input i's topic, assigned to that input's
    /// source subtasks as Kafka does.
    pub fn new(cfg: JobConfig, keys: KeyTable, partitions: &[u32]) -> Self {
        let sources = new_sources(&cfg, &mut Rng::derive(cfg.seed, 0x5EB));
        let mut sim = Simulation {
            trace: Trace::new(cfg.trace_capacity, cfg.trace_records),
            down: Downstream::new(&cfg),
            now: cfg.start_time - 1,
            keys,
            partitions: Vec::new(),
            split_of: Vec::new(),
            producers: Vec::new(),
            sources,
            scheduled: VecDeque::new(),
            next_tick: None,
            started: false,
            ended: false,
            pending_reads: false,
            signals: Vec::new(),
            producers_of: Vec::new(),
            producers_of_stale: true,
            batch: Vec::new(),
            coordinator: AlignmentCoordinator::of(&cfg),
            next_alignment: cfg.inputs.iter().map(|i| i.alignment.as_ref().map(|a| cfg.start_time + a.update_interval_ms)).collect(),
            next_metric_update: cfg.start_time + UPDATE_INTERVAL_MS,
            failover: Failover::new(&cfg),
            reads: None,
            stopping: StoppingOffsets::default(),
            cfg,
        };
        for (input, &n) in partitions.iter().enumerate() {
            for _ in 0..n {
                sim.add_partition(input as u8);
            }
        }
        sim
    }

    /// Keeps every record the sources emit from now on (`take_reads`); costs a copy per record.
    pub fn record_reads(&mut self) {
        self.reads.get_or_insert_with(Vec::new);
    }

    /// The records kept since `record_reads`, in emission order.
    pub fn take_reads(&mut self) -> Vec<ReadRecord> {
        self.reads.take().unwrap_or_default()
    }

    pub fn config(&self) -> &JobConfig {
        &self.cfg
    }

    /// The last fully processed processing time.
    pub fn now(&self) -> ProcTime {
        self.now
    }

    pub fn trace(&self) -> &Trace {
        &self.trace
    }

    pub fn keys(&self) -> &KeyTable {
        &self.keys
    }

    pub(crate) fn keys_mut(&mut self) -> &mut KeyTable {
        &mut self.keys
    }

    pub fn downstream(&self) -> &Downstream {
        &self.down
    }

    pub fn sources(&self) -> &[SourceSubtask] {
        &self.sources
    }

    /// Source subtasks that own no split and that only an idle timeout would mark idle
    /// (`SourceSubtask::waits_without_split`); none once the job's input ended (every subtask
    /// sent `Long.MAX_VALUE`). What the finding and the advisor count, by one rule.
    pub fn subtasks_waiting_without_split(&self) -> impl Iterator<Item = &SourceSubtask> {
        (0..self.sources.len()).filter(|&s| !self.input_ended(s)).map(|s| &self.sources[s]).filter(|s| s.waits_without_split())
    }

    pub fn partitions(&self) -> &[Partition] {
        &self.partitions
    }

    pub fn producers(&self) -> &[ProducerState] {
        &self.producers
    }

    /// The job's topics and which one holds each partition.
    pub fn topics(&self) -> Topics {
        let names = self.cfg.inputs.iter().map(|i| i.topic.clone()).collect();
        Topics::numbered(names, self.partitions.iter().map(|p| p.input).collect())
    }

    pub fn split_of(&self, partition: u32) -> Option<(u32, usize)> {
        self.split_of.get(partition as usize).copied().flatten()
    }

    /// The settings of the source that reads `partition` (its input's): with two inputs, each
    /// has its own idle timeout and heartbeat filter.
    pub fn source_settings_of(&self, partition: u32) -> &super::source::SourceSettings {
        &self.input_of(partition).source
    }

    /// The input (topic, source, watermark operator, alignment) that `partition` belongs to.
    pub fn input_of(&self, partition: u32) -> &super::job::InputConfig {
        let input = self.partitions.get(partition as usize).map_or(0, |p| p.input);
        &self.cfg.inputs[input as usize]
    }

    /// Adds a partition to input `input`'s topic and assigns its split to the owning subtask
    /// of that input's source at once. Returns its engine-wide number.
    pub fn add_partition(&mut self, input: u8) -> u32 {
        let p = self.partitions.len() as u32;
        let index_in_topic = self.partitions.iter().filter(|x| x.input == input).count() as u32;
        self.partitions.push(Partition::in_topic(input, index_in_topic));
        self.partitions[p as usize].retain_reads(self.failover.retains_reads());
        let ic = &self.cfg.inputs[input as usize];
        let first_subtask: u32 = self.cfg.inputs[..input as usize].iter().map(|i| i.source_parallelism).sum();
        let owner = first_subtask + split_owner(&ic.topic, index_in_topic, ic.source_parallelism);
        let at = self.now.max(self.cfg.start_time);
        let i = self.sources[owner as usize].add_split(p, at, &mut self.trace);
        self.split_of.push(Some((owner, i)));
        self.hold_if_ending(p as usize);
        p
    }

    pub fn add_producer(&mut self, p: ProducerState) {
        self.producers.push(p);
        self.producers_of_stale = true;
    }

    /// Commands waiting for their time, in the order they will run.
    pub fn scheduled(&self) -> impl Iterator<Item = &ScheduledCommand> {
        self.scheduled.iter()
    }

    /// Schedules a command; commands at the same instant run in the order they were scheduled.
    pub fn schedule(&mut self, cmd: ScheduledCommand) {
        let at = self.scheduled.partition_point(|c| c.at <= cmd.at);
        self.scheduled.insert(at, cmd);
    }

    pub fn check_partition(&self, p: u32) -> Result<(), InputError> {
        super::session::check::partition_exists(p, self.partitions.len() as u32, "partition")
    }

    /// The next instant at which anything happens, if any.
    pub fn next_event_time(&self) -> Option<ProcTime> {
        let from = self.now + 1;
        let mut next: Option<ProcTime> = None;
        let mut consider = |t: Option<ProcTime>| {
            if let Some(t) = t {
                let t = t.max(from);
                next = Some(next.map_or(t, |n: ProcTime| n.min(t)));
            }
        };
        if !self.started {
            consider(Some(self.cfg.start_time));
        }
        consider(self.scheduled.front().map(|c| c.at));
        for p in &self.producers {
            if !self.partitions[p.partition as usize].removed {
                consider(p.next_time(from));
            }
        }
        consider(self.failover.next_event_time());
        // A job that is down delivers, fires and reads nothing (`failover`); a FAILED one
        // does nothing at all.
        match self.failover.status {
            JobStatus::Running => {}
            JobStatus::Restarting => return next,
            JobStatus::Failed => return None,
        }
        consider(self.next_tick);
        self.next_alignment.iter().for_each(|&t| consider(t));
        consider(self.down.next_delivery());
        consider(self.down.next_timer());
        let budgeted = self.cfg.flow_controlled() || self.cfg.inputs.iter().any(|i| i.read_rate_per_s.is_some());
        if (self.pending_reads || budgeted) && self.has_backlog() {
            consider(Some(from));
        }
        next
    }

    /// Partition `p`'s split as (source subtask, split index), unless it was released.
    #[inline]
    pub(crate) fn live_split_of(&self, p: usize) -> Option<(usize, usize)> {
        match self.split_of[p] {
            Some((s, i)) if !self.sources[s as usize].splits[i].released => Some((s as usize, i)),
            _ => None,
        }
    }

    /// Whether a split that can be read now has records waiting (a paused split, or one of a
    /// subtask waiting for alignment, waits for the next announcement instead; a polled or
    /// finished reader reads nothing by itself).
    fn has_backlog(&self) -> bool {
        (0..self.partitions.len()).any(|p| {
            self.partitions[p].readable() > 0
                && !self.cfg.inputs[self.partitions[p].input as usize].polled
                && self.live_split_of(p).is_some_and(|(s, i)| {
                    let src = &self.sources[s];
                    !src.finished && src.reads() && src.readable(i)
                })
        })
    }

    /// Processes the next instant; returns it, or `None` when nothing will ever happen again.
    pub fn step(&mut self) -> Result<Option<ProcTime>, InputError> {
        let Some(t) = self.next_event_time() else { return Ok(None) };
        self.process(t)?;
        Ok(Some(t))
    }

    /// Processes every instant up to and including `t`, then sets the clock to `t`.
    pub fn run_until(&mut self, t: ProcTime) -> Result<(), InputError> {
        self.run_until_with(t, &mut ()).map(|_| ())
    }

    /// `run_until`, with `obs` called after every instant. Returns whether the clock reached
    /// `t` (false: the observer stopped the run at an earlier instant).
    pub fn run_until_with(&mut self, t: ProcTime, obs: &mut impl Observer) -> Result<bool, InputError> {
        while let Some(n) = self.next_event_time() {
            if n > t {
                break;
            }
            if self.process_observed(n, obs)?.is_break() {
                return Ok(false);
            }
        }
        if t > self.now {
            self.now = t;
        }
        Ok(true)
    }

    /// Steps until something interesting happens (an operator watermark advance, a window
    /// firing, an idle/active flip, a late record), or until `limit` processing time passes.
    /// Returns whether something interesting happened.
    pub fn step_to_next_interesting(&mut self, limit_ms: i64) -> Result<bool, InputError> {
        self.step_to_next_interesting_with(limit_ms, &mut ())
    }

    /// `step_to_next_interesting`, with `obs` called after every instant (a `Break` ends the
    /// search there, as if nothing interesting had happened).
    pub fn step_to_next_interesting_with(&mut self, limit_ms: i64, obs: &mut impl Observer) -> Result<bool, InputError> {
        let seen = self.trace.interesting_seen();
        let deadline = self.now.saturating_add(limit_ms);
        while self.trace.interesting_seen() == seen {
            match self.next_event_time() {
                Some(t) if t <= deadline => {
                    if self.process_observed(t, obs)?.is_break() {
                        return Ok(false);
                    }
                }
                _ => {
                    // Everything up to the deadline was processed: the clock stands there.
                    self.now = self.now.max(deadline);
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }

    /// Processes instant `t`, then lets `obs` see it. The instant the job failed in is one it
    /// sees too: the page draws the failure's ✕ from it.
    fn process_observed(&mut self, t: ProcTime, obs: &mut impl Observer) -> Result<ControlFlow<()>, InputError> {
        match self.process(t) {
            Ok(()) => Ok(obs.after_instant(self)),
            Err(e) => {
                if self.failover.status == JobStatus::Failed {
                    let _ = obs.after_instant(self);
                }
                Err(e)
            }
        }
    }

    fn start(&mut self, t: ProcTime) {
        self.started = true;
        if self.cfg.auto_watermark_interval_ms > 0 {
            self.next_tick = Some(self.cfg.start_time + self.cfg.auto_watermark_interval_ms);
        }
        self.take_start_positions(t);
        self.down.open(t);
        for s in 0..self.sources.len() {
            self.signals.clear();
            self.sources[s].open(t, &mut self.trace, &mut self.signals);
            self.broadcast(s, t);
        }
        self.note_start_offsets();
    }

    /// At job start each partition is positioned by its input's start offset; history (a
    /// backlog produced at the start) is in the log first, so that a position can skip it.
    fn take_start_positions(&mut self, t: ProcTime) {
        for j in 0..self.producers.len() {
            let p = self.producers[j].partition as usize;
            let input = self.partitions[p].input as usize;
            if self.cfg.inputs[input].start_offset.needs_history() && matches!(self.producers[j].kind, ProducerKind::Backlog { .. }) {
                let part = &mut self.partitions[p];
                self.producers[j].produce(t, |r| part.append(r));
            }
        }
        for p in 0..self.partitions.len() {
            let (input, index) = (self.partitions[p].input as usize, self.partitions[p].index_in_topic);
            if let Err(e) = self.cfg.inputs[input].start_offset.apply(&mut self.partitions[p], index) {
                self.down.failure.get_or_insert(e);
            }
        }
    }

    fn process(&mut self, t: ProcTime) -> Result<(), InputError> {
        debug_assert!(t > self.now, "time only moves forward");
        self.now = t;
        if !self.started {
            self.start(t);
        }
        self.restart_if_due(t);
        while self.scheduled.front().is_some_and(|c| c.at <= t) {
            let Some(c) = self.scheduled.pop_front() else { break };
            self.apply(c.command).map_err(|e| e.within(&c.path))?;
        }
        if !self.failover.is_running() {
            self.while_down(t);
            self.end_of_instant(t);
            return Ok(());
        }
        self.produce(t);
        self.down.deliver_due(t, &mut self.trace);
        self.read(t);
        self.reach_stopping_offsets(t);
        self.failed(t)?;
        self.down.fire_timers(t, &mut self.trace);
        self.note_flow(t);
        if self.next_tick == Some(t) {
            for s in 0..self.sources.len() {
                self.signals.clear();
                self.sources[s].periodic_tick(t, &mut self.trace, &mut self.signals);
                self.broadcast(s, t);
                self.down.periodic_tick(s as u32, t, &mut self.trace);
            }
            self.next_tick = Some(t + self.cfg.auto_watermark_interval_ms);
        }
        self.align(t);
        if self.sources.iter().any(|s| s.alignment.as_ref().is_some_and(|a| a.unsupported)) {
            self.down.failure.get_or_insert_with(|| UNSUPPORTED_SPLIT_PAUSE.to_string());
        }
        self.failed(t)?;
        self.end_of_instant(t);
        Ok(())
    }

    /// The job failed within this instant (an operator threw): it is FAILED from `t`, and the
    /// run stops with the message.
    pub(crate) fn failed(&mut self, t: ProcTime) -> Result<(), InputError> {
        let Some(failure) = self.down.failure.clone() else { return Ok(()) };
        self.fail_for_good(t, failure.clone());
        Err(InputError::invalid("", failure))
    }

    /// Step 2 for the partitions whose records wait in the log; the others are produced at
    /// read time (see `read`).
    fn produce(&mut self, t: ProcTime) {
        for j in 0..self.producers.len() {
            let p = self.producers[j].partition as usize;
            if self.partitions[p].removed || self.reads_directly(p) {
                continue;
            }
            let part = &mut self.partitions[p];
            self.producers[j].produce(t, |r| part.append(r));
        }
    }

    /// Appends records directly (the `produce` command).
    pub(crate) fn append(&mut self, r: Record) {
        self.partitions[r.partition as usize].append(r);
        self.pending_reads = true;
    }

    /// Sends the signals a source subtask just emitted to every channel it feeds.
    pub(crate) fn broadcast(&mut self, s: usize, t: ProcTime) {
        // While the job is down a command still changes the failed attempt's sources, but
        // nothing they emit reaches the operators (FLOW.md: nothing fires while RESTARTING).
        if !self.failover.is_running() {
            self.signals.clear();
            return;
        }
        let signals = std::mem::take(&mut self.signals);
        for &sig in &signals {
            self.down.send_signal(s as u32, sig, t, &mut self.trace);
        }
        self.signals = signals;
        self.signals.clear();
    }

    pub(crate) fn signals_mut(&mut self) -> &mut Vec<Signal> {
        &mut self.signals
    }

    /// Source subtask `subtask` alone reaches the end of its input, as a bounded source's
    /// reader does once its splits are done: it emits `Long.MAX_VALUE` (unless announced IDLE),
    /// reads nothing more and, if aligned, reports `Long.MAX_VALUE` to the coordinator. The
    /// others go on; their ends are separate events (the valve's minimum moves one channel at a
    /// time).
    pub fn end_input_of(&mut self, subtask: u32) -> Result<(), InputError> {
        let s = usize::try_from(subtask)
            .ok()
            .filter(|&s| s < self.sources.len())
            .ok_or_else(|| InputError::new("source_subtask", format!("the job has {} source subtask(s)", self.sources.len())))?;
        if self.sources[s].finished {
            return Err(InputError::invalid(
                "source_subtask",
                format!("source subtask {} has already ended its input", self.source_subtask_name(subtask)),
            ));
        }
        let t = self.now.max(self.cfg.start_time);
        self.note_input_ended(Some(s), true);
        self.signals.clear();
        self.sources[s].finish(t, &mut self.trace, &mut self.signals);
        self.broadcast(s, t);
        Ok(())
    }

    /// End of input: every source subtask emits `Long.MAX_VALUE` (unless announced IDLE).
    pub(crate) fn end_of_input(&mut self) {
        self.ended = true;
        self.note_input_ended(None, false);
        for s in 0..self.sources.len() {
            self.end_subtask_input(s, self.now);
        }
    }

    /// Source subtask `s` emits `Long.MAX_VALUE` (unless announced IDLE); a reader that had
    /// finished (`end_input_of`) finishes again.
    pub(crate) fn end_subtask_input(&mut self, s: usize, t: ProcTime) {
        self.signals.clear();
        if self.stopping.finishes(s) {
            self.sources[s].finish(t, &mut self.trace, &mut self.signals);
        } else {
            self.sources[s].end_of_input(t, &mut self.trace, &mut self.signals);
        }
        self.broadcast(s, t);
    }

    /// Whether the job's input ended for source subtask `s` (not while a restored reader reads
    /// its splits again up to where they ended).
    pub(crate) fn input_ended(&self, s: usize) -> bool {
        self.ended && !self.stopping.ends_later(s)
    }
}

/// The source subtasks of a job as they start (at job start and at every restart): the first
/// input's, then the second's, each with its side of alignment; `rng` draws each one's first
/// rebalance target.
pub(crate) fn new_sources(cfg: &JobConfig, rng: &mut Rng) -> Vec<SourceSubtask> {
    let q = u64::from(cfg.window_parallelism.max(1));
    let mut sources = Vec::new();
    for (input, ic) in cfg.inputs.iter().enumerate() {
        let pausing = SplitPausing::of(ic.reader_pauses_splits, cfg.alignment.allow_unaligned_source_splits);
        for i in 0..ic.source_parallelism {
            let index = sources.len() as u32;
            let alignment = ic.alignment.clone().map(|a| SourceAlignment::new(a, cfg.alignment.buffer_size).with_split_pausing(pausing));
            let first = rng.below(q) as u32;
            sources.push(SourceSubtask::new(index, (input as u8, i), ic.source, ic.exchange, first).with_alignment(alignment));
        }
    }
    sources
}
