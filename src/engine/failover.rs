//! Failover: a failure, the restart strategy's delay, and the restore from the last completed
//! checkpoint (reference §12).
//!
//! A failure — a `fail` command (a TaskManager, a keyed subtask or a source subtask killed) or a
//! TaskManager over its memory budget — fails the whole job: with a hash or rebalance exchange
//! every subtask is connected to every other, so Flink's failover region
//! (`RestartPipelinedRegionFailoverStrategy`) is the whole job. With forward edges only a
//! region would be one pipeline; the engine restarts the whole job then too (simplified).
//!
//! While the job is down (`RESTARTING`) nothing is read or processed: producers keep appending
//! to the partitions, and whatever was in flight in the channels is lost. At the restart:
//! * partitions rewind to the checkpointed read offsets (partitions added later start at 0;
//!   without a checkpoint the start offsets are resolved again), so the records read between
//!   the checkpoint and the failure are read again (`records_replayed`); splits that ended
//!   after the checkpoint read to their end again (`stopping_offset`);
//! * source subtasks are new: their splits come back from the checkpoint, but every watermark
//!   is `Long.MIN_VALUE`, every split and output ACTIVE, idleness timers start over;
//! * keyed subtasks get fresh valves (every channel MIN and ACTIVE), and the operator state and
//!   timers of the checkpoint with the operator's watermark reset to MIN (a SQL window
//!   aggregation keeps the minimum of its subtasks' checkpointed watermarks, §10.2): nothing is
//!   late until the first watermark, and restored timers up to it fire on it;
//! * results emitted again that the sink had received before the failure are counted
//!   (`results_duplicated`: an append sink writes them twice, an upsert sink overwrites them),
//!   as far as the sink retains its results (`trace.window_results_retained`).
//!
//! Counters and outputs outlive attempts (the sink, late records, per-subtask counts): the views
//! show the job's history, not only the current attempt's. `restart: none` (or an exhausted
//! strategy) ends the job `FAILED`: nothing happens any more.

use super::alignment::coordinator::AlignmentCoordinator;
use super::checkpoint::{CheckpointCoordinator, CompletedCheckpoint, KeyedState};
use super::downstream::Downstream;
use super::job::JobConfig;
use super::keys::KeyId;
use super::limits::{MAX_REPLAYED_RECORDS, MAX_RESTARTS};
use super::operator::sql_window::WindowApi;
use super::restart_strategy::RestartBackoff;
use super::rng::Rng;
use super::sim::new_sources;
use super::sim::Simulation;
use super::state_size::StateSizeHistory;
use super::task_manager::lost_reason;
use super::time::{thousands, EventTime, ProcTime, NO_WATERMARK};
use super::trace::{Trace, TraceKind};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// What the `fail` command kills.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailTarget {
    TaskManager(u32),
    KeyedSubtask(u32),
    SourceSubtask(u32),
}

/// Flink's `JobStatus`, as far as the simulated job goes through it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum JobStatus {
    Running,
    Restarting,
    /// Terminal: the restart strategy allowed no (more) restarts, or an operator threw (the
    /// simulator does not restart a job that would throw again).
    Failed,
}

/// Window results and joined pairs the sink had received before the last failure, to tell the
/// ones the restarted job emits again.
#[derive(Clone, Debug, Default)]
struct EmittedBefore {
    windows: BTreeSet<(KeyId, EventTime, EventTime, u32)>,
    joins: BTreeSet<(KeyId, EventTime, EventTime, i64, i64)>,
    seen_windows: usize,
    seen_joins: u64,
}

impl EmittedBefore {
    fn of(d: &Downstream) -> Self {
        EmittedBefore {
            windows: d.sink.results().map(|r| (r.key, r.start, r.end, r.firing)).collect(),
            joins: d.joins.kept().map(|(_, j)| (j.key, j.left_ts, j.right_ts, j.left_value, j.right_value)).collect(),
            seen_windows: d.sink.total(),
            seen_joins: d.joins.total(),
        }
    }
}

/// The job's run across attempts.
#[derive(Clone, Debug)]
pub struct Failover {
    pub(crate) status: JobStatus,
    pub(crate) restarting_until: Option<ProcTime>,
    backoff: RestartBackoff,
    pub(crate) coordinator: CheckpointCoordinator,
    pub(crate) history: StateSizeHistory,
    /// 1 for the first run, one more per restart.
    pub(crate) attempt: u32,
    pub(crate) failed_at: Option<ProcTime>,
    /// The last failure came at the start of its instant (a `fail` command), before it read or
    /// emitted anything; else at its end (step 8). The export's replay orders its lines by it.
    pub(crate) failed_before_reads: bool,
    pub(crate) failure: Option<String>,
    pub(crate) restored_at: Option<ProcTime>,
    /// The checkpoint the last restore came from (`None`: from the start offsets).
    pub(crate) restored_from: Option<u64>,
    /// Read offsets right after the start: the configured start offsets.
    initial_offsets: Vec<u64>,
    /// Per partition: the highest read offset any attempt reached before a failure.
    high_water: Vec<u64>,
    /// Per partition: the offset the current attempt started reading at.
    replay_from: Vec<u64>,
    replayed_before: u64,
    pub(crate) results_duplicated: u64,
    emitted: Option<EmittedBefore>,
}

impl Failover {
    pub fn new(cfg: &JobConfig) -> Self {
        Failover {
            status: JobStatus::Running,
            restarting_until: None,
            backoff: RestartBackoff::new(cfg.checkpointing.restart, cfg.seed),
            coordinator: CheckpointCoordinator::new(cfg.checkpointing.interval_ms, cfg.start_time),
            history: StateSizeHistory::new(cfg.start_time, cfg.window_parallelism),
            attempt: 1,
            failed_at: None,
            failed_before_reads: false,
            failure: None,
            restored_at: None,
            restored_from: None,
            initial_offsets: Vec::new(),
            high_water: Vec::new(),
            replay_from: Vec::new(),
            replayed_before: 0,
            results_duplicated: 0,
            emitted: None,
        }
    }

    /// Restarts so far (`numRestarts`): one per attempt after the first.
    pub fn restarts(&self) -> u32 {
        self.attempt.saturating_sub(1)
    }

    #[inline]
    pub fn is_running(&self) -> bool {
        self.status == JobStatus::Running
    }

    /// Whether partitions must keep what they read (a restore may rewind into it).
    pub fn retains_reads(&self) -> bool {
        self.backoff.strategy().restarts()
    }

    /// The next instant the failover itself needs: a checkpoint or the restart.
    pub fn next_event_time(&self) -> Option<ProcTime> {
        match self.status {
            JobStatus::Running => self.coordinator.next_at(),
            JobStatus::Restarting => self.restarting_until,
            JobStatus::Failed => None,
        }
    }
}

/// Offset `p` of a per-partition vector that may be shorter (partitions added later).
fn at(v: &[u64], p: usize) -> u64 {
    v.get(p).copied().unwrap_or(0)
}

fn set(v: &mut Vec<u64>, p: usize, x: u64) {
    if v.len() <= p {
        v.resize(p + 1, 0);
    }
    v[p] = x;
}

impl Simulation {
    pub fn job_status(&self) -> JobStatus {
        self.failover.status
    }

    pub fn failover(&self) -> &Failover {
        &self.failover
    }

    /// After the job start: the start offsets are where a restore without checkpoint goes.
    pub(crate) fn note_start_offsets(&mut self) {
        self.failover.initial_offsets = self.partitions.iter().map(|p| p.read_offset()).collect();
    }

    /// Records read again below the read positions some attempt had reached before a failure.
    pub fn records_replayed(&self) -> u64 {
        let f = &self.failover;
        let now: u64 = (0..self.partitions.len())
            .map(|p| self.partitions[p].read_offset().min(at(&f.high_water, p)).saturating_sub(at(&f.replay_from, p)))
            .sum();
        f.replayed_before + now
    }

    /// The job fails at `t` (a failure while it is down is part of the failure being handled,
    /// as Flink merges concurrent failures into one restart).
    pub(crate) fn fail_job(&mut self, t: ProcTime, reason: String) {
        if !self.failover.is_running() {
            return;
        }
        self.trace.push(t, TraceKind::JobFailed { reason: reason.clone() });
        self.sample_state(t);
        self.failover.replayed_before = self.records_replayed();
        for p in 0..self.partitions.len() {
            let read = self.partitions[p].read_offset();
            let f = &mut self.failover;
            let high = read.max(at(&f.high_water, p));
            set(&mut f.high_water, p, high);
            set(&mut f.replay_from, p, read);
        }
        let limit = self.simulator_limit();
        let f = &mut self.failover;
        f.emitted = Some(EmittedBefore::of(&self.down));
        f.failed_at = Some(t);
        f.failed_before_reads = false;
        f.failure = Some(match &limit {
            Some(l) => format!("{reason}; {l}"),
            None => reason,
        });
        let delay = if limit.is_some() { None } else { f.backoff.on_failure(t) };
        match delay {
            Some(delay) => {
                f.status = JobStatus::Restarting;
                // A restart takes at least the next millisecond.
                f.restarting_until = Some(t + delay.max(1));
            }
            None => {
                f.status = JobStatus::Failed;
                f.restarting_until = None;
            }
        }
        // The failed attempt's state is gone: the chart shows it.
        self.sample_state(t);
    }

    /// An operator threw (`Downstream::failure`): the job is FAILED at `t`, with no restart.
    /// Flink would restart it as its strategy allows, and the restarted job would read the same
    /// record and throw again; the simulator stops at the first failure (FLOW.md says so).
    pub(crate) fn fail_for_good(&mut self, t: ProcTime, reason: String) {
        if !self.failover.is_running() {
            return;
        }
        self.trace.push(t, TraceKind::JobFailed { reason: reason.clone() });
        let f = &mut self.failover;
        f.failed_at = Some(t);
        f.failed_before_reads = false;
        f.failure = Some(reason);
        f.status = JobStatus::Failed;
        f.restarting_until = None;
    }

    /// Why the simulator will not restart the job even if the strategy would: too many
    /// restarts, or too many records to read again (`limits`).
    fn simulator_limit(&self) -> Option<String> {
        if self.failover.attempt > MAX_RESTARTS {
            return Some(format!("the simulator restarts a job at most {MAX_RESTARTS} times"));
        }
        let restore = self.failover.coordinator.last.as_ref().map(|c| c.offsets.as_slice());
        let again: u64 = (0..self.partitions.len())
            .map(|p| {
                let to = restore.and_then(|o| o.get(p)).copied().unwrap_or_else(|| at(&self.failover.initial_offsets, p));
                self.partitions[p].read_offset().saturating_sub(to)
            })
            .sum();
        (self.records_replayed() + again > MAX_REPLAYED_RECORDS)
            .then(|| format!("the simulator replays at most {} records over a run", thousands(MAX_REPLAYED_RECORDS)))
    }

    /// Step 0 of an instant: the restart, once the strategy's delay has passed.
    pub(crate) fn restart_if_due(&mut self, t: ProcTime) {
        if self.failover.status == JobStatus::Restarting && self.failover.restarting_until.is_some_and(|u| u <= t) {
            self.restart_job(t);
        }
    }

    fn restart_job(&mut self, t: ProcTime) {
        let f = &mut self.failover;
        f.attempt += 1;
        f.status = JobStatus::Running;
        f.restarting_until = None;
        f.restored_at = Some(t);
        let checkpoint = f.coordinator.last.take();
        f.restored_from = checkpoint.as_ref().map(|c| c.id);
        let kind = TraceKind::JobRestarted { attempt: f.attempt, checkpoint: f.restored_from };
        self.trace.push(t, kind);
        self.rewind_partitions(checkpoint.as_ref());
        self.plan_rereads();
        self.rebuild_sources(t);
        self.rebuild_downstream(checkpoint.as_ref());
        self.failover.coordinator.last = checkpoint;
        self.failover.coordinator.schedule_from(t);
        self.realign_periodic_tick(t);
        self.realign_alignment_ticks(t);
        self.pending_reads = true;
        self.open_restarted(t);
        self.sample_state(t);
    }

    /// Every split the restored reader holds goes back to the checkpoint's offset: a live one,
    /// and one released after the checkpoint (`stopping_offset`). Without a checkpoint the
    /// enumerator assigns every split afresh: its start offset is resolved again.
    fn rewind_partitions(&mut self, checkpoint: Option<&CompletedCheckpoint>) {
        for p in 0..self.partitions.len() {
            let removed = self.partitions[p].removed;
            let held = |o: u64| !removed && (self.live_split_of(p).is_some() || self.stopping.released_beyond(p, o));
            match checkpoint.map(|c| c.offsets.get(p).copied().unwrap_or(0)) {
                Some(o) if held(o) => {
                    self.partitions[p].rewind_to(o);
                }
                None if held(0) => self.reassign_from_start(p),
                _ => {}
            }
            let from = self.partitions[p].read_offset();
            set(&mut self.failover.replay_from, p, from);
        }
    }

    /// `OffsetsInitializer` again, as at the job start: `latest` is now the log's end. (A
    /// partition the committed offsets do not cover and that may not reset stays at its start.)
    fn reassign_from_start(&mut self, p: usize) {
        let part = &mut self.partitions[p];
        // A start offset resolved again at an earlier restart skipped what lies below it.
        part.rewind_to(at(&self.failover.initial_offsets, p).max(part.oldest_kept()));
        let index = part.index_in_topic;
        let _ = self.cfg.inputs[part.input as usize].start_offset.apply(part, index);
    }

    /// New source subtasks with the splits they owned (a finished split is not in the reader's
    /// state: it is registered and released quietly, so split indices stay as they were). The
    /// counters the views sum up carry over.
    fn rebuild_sources(&mut self, t: ProcTime) {
        let failed_at = self.failover.failed_at.unwrap_or(t);
        let mut rng = Rng::derive(self.cfg.seed, 0x5EB ^ (u64::from(self.failover.attempt) << 32));
        let old = std::mem::replace(&mut self.sources, new_sources(&self.cfg, &mut rng));
        // The coordinator's aggregates are not checkpointed either (reference §12).
        self.coordinator = AlignmentCoordinator::of(&self.cfg);
        for (s, (new, o)) in self.sources.iter_mut().zip(&old).enumerate() {
            // A subtask that had ended its input ends it again (`open_restarted`), at once or
            // once it has read its splits again (`stopping_offset`).
            new.finished = self.stopping.finishes(s) && self.stopping.ends_at_once(s);
            new.num_records_out = o.num_records_out;
            new.num_records_filtered = o.num_records_filtered;
            new.idle_time_ms = o.idle_time_ms + o.idle_since.map_or(0, |s| (failed_at - s).max(0));
        }
        let mut quiet = Trace::new(0, false);
        for p in 0..self.partitions.len() {
            let Some((owner, old_i)) = self.split_of[p] else { continue };
            let before = &old[owner as usize].splits[old_i];
            let src = &mut self.sources[owner as usize];
            let i = if before.released && !self.stopping.released_beyond(p, self.partitions[p].read_offset()) {
                let i = src.add_split(p as u32, t, &mut quiet);
                src.release_split(i, t, &mut quiet);
                i
            } else {
                src.add_split(p as u32, t, &mut self.trace)
            };
            // The diagnosis reads one split across the restart: an empty one stays empty.
            src.splits[i].assigned_at = before.assigned_at;
            src.splits[i].records_read = before.records_read;
            src.splits[i].records_filtered = before.records_filtered;
            src.splits[i].observed = before.observed.clone();
            self.split_of[p] = Some((owner, i));
        }
    }

    /// Fresh channels, valves and chained operators; the keyed state of the checkpoint and the
    /// records it found in the channels; the sink, late records and counters of the job so far.
    fn rebuild_downstream(&mut self, checkpoint: Option<&CompletedCheckpoint>) {
        let old = std::mem::replace(&mut self.down, Downstream::new(&self.cfg));
        let d = &mut self.down;
        d.sink = old.sink;
        d.late = old.late.restarted();
        d.watermark_history = old.watermark_history;
        d.joins = old.joins;
        let failed_at = self.failover.failed_at.unwrap_or(self.now);
        for (i, (w, o)) in d.windows.iter_mut().zip(old.windows).enumerate() {
            w.num_records_in = o.num_records_in;
            w.num_records_out = o.num_records_out;
            w.num_late_records_dropped = o.num_late_records_dropped;
            w.num_late_records_side_output = o.num_late_records_side_output;
            w.num_records_no_window = o.num_records_no_window;
            w.idle_time_ms = o.idle_time_ms + o.idle_since.map_or(0, |s| (failed_at - s).max(0));
            if let Some(k) = checkpoint.and_then(|c| c.keyed.get(i)) {
                w.op = k.op.restored();
                w.op.set_lateness(self.cfg.allowed_lateness_ms);
                w.join = k.join.as_ref().map(|j| j.restored());
            }
        }
        if self.cfg.window_api == WindowApi::Sql {
            restore_sql_watermark(d, checkpoint);
        }
        for (ch, records) in checkpoint.map_or(&[][..], |c| &c.in_flight[..]) {
            self.down.restore_in_flight(*ch, records, &self.keys, self.now);
        }
    }

    /// The restarted sources' periodic emission: its first tick one interval after they open,
    /// as a job start's (reference §2.2), not on the old tasks' grid.
    fn realign_periodic_tick(&mut self, t: ProcTime) {
        let i = self.cfg.auto_watermark_interval_ms;
        if i > 0 {
            self.next_tick = Some(t.saturating_add(i));
        }
    }

    /// What the job start does for new tasks: chained operators open, sources open (the legacy
    /// consumer idles a subtask without partitions), and a subtask past its end of input whose
    /// splits have nothing to read again ends it again.
    fn open_restarted(&mut self, t: ProcTime) {
        self.down.open(t);
        for s in 0..self.sources.len() {
            self.signals.clear();
            self.sources[s].open(t, &mut self.trace, &mut self.signals);
            self.broadcast(s, t);
        }
        for s in 0..self.sources.len() {
            if self.stopping.ends_at_once(s) {
                self.end_subtask_input(s, t);
            }
        }
    }

    /// Step 2 while the job is down: every producer appends to its partition's log (nothing
    /// reads); the periodic emission does not run.
    pub(crate) fn while_down(&mut self, t: ProcTime) {
        for j in 0..self.producers.len() {
            let p = self.producers[j].partition as usize;
            if self.partitions[p].removed {
                continue;
            }
            let part = &mut self.partitions[p];
            self.producers[j].produce(t, |r| part.append(r));
        }
        if self.next_tick == Some(t) {
            self.next_tick = Some(t + self.cfg.auto_watermark_interval_ms);
        }
        self.skip_alignment_ticks(t);
    }

    /// Step 8 of an instant: duplicates counted, a due checkpoint, the memory check, and the
    /// state-size history.
    pub(crate) fn end_of_instant(&mut self, t: ProcTime) {
        if self.failover.is_running() {
            self.count_duplicates();
            // The memory check first: a TaskManager that is lost takes no checkpoint of the state
            // that killed it.
            if let Some((task_manager, used_bytes, limit_bytes)) = self.task_manager_over_limit() {
                self.trace.push(t, TraceKind::TaskManagerLost { task_manager, used_bytes, limit_bytes });
                let reason = lost_reason(task_manager, used_bytes, limit_bytes);
                self.fail_job(t, reason);
            } else if self.failover.coordinator.next_at().is_some_and(|n| n <= t) {
                self.complete_checkpoint(t);
            }
        }
        if self.failover.history.due(t) {
            self.sample_state(t);
        }
    }

    /// A checkpoint triggered now (`Command::Checkpoint`): it completes with the current state
    /// if the job runs; the periodic grid, if any, goes on as it was.
    pub(crate) fn trigger_checkpoint(&mut self, t: ProcTime) {
        if self.failover.is_running() {
            self.complete_checkpoint(t);
        }
    }

    fn complete_checkpoint(&mut self, t: ProcTime) {
        let offsets = self.consistent_offsets();
        let c = CompletedCheckpoint {
            id: 0,
            at: t,
            keyed: self.down.windows.iter().map(KeyedState::of).collect(),
            in_flight: self.down.records_in_flight(),
            sink_results: self.down.sink.total(),
            join_results: self.down.joins.total(),
            offsets,
        };
        for (p, &o) in c.offsets.iter().enumerate() {
            self.partitions[p].trim_read_log(o);
        }
        let id = self.failover.coordinator.complete(c);
        self.trace.push(t, TraceKind::CheckpointCompleted { id });
    }

    /// Per partition the read position: what was read but is still in a channel goes into the
    /// checkpoint with it (`CompletedCheckpoint::in_flight`), so the state, the channels and the
    /// offsets together hold every record exactly once.
    fn consistent_offsets(&self) -> Vec<u64> {
        self.partitions.iter().map(|p| p.read_offset()).collect()
    }

    /// Counts the results of this instant that the sink had received before the last failure.
    fn count_duplicates(&mut self) {
        let Some(e) = &mut self.failover.emitted else { return };
        let d = &self.down;
        let mut n = 0;
        for (_, r) in d.sink.since(e.seen_windows) {
            n += u64::from(e.windows.contains(&(r.key, r.start, r.end, r.firing)));
        }
        for (_, j) in d.joins.since(e.seen_joins) {
            n += u64::from(e.joins.contains(&(j.key, j.left_ts, j.right_ts, j.left_value, j.right_value)));
        }
        e.seen_windows = d.sink.total();
        e.seen_joins = d.joins.total();
        self.failover.results_duplicated += n;
    }

    fn sample_state(&mut self, t: ProcTime) {
        let entries = (0..self.down.windows.len()).map(|i| self.state_entries(i)).collect();
        self.failover.history.push(t, entries);
    }
}

/// A SQL window aggregation checkpoints its watermark and restores the minimum over its
/// subtasks (reference §10.2); without a checkpoint it starts at MIN like the rest.
fn restore_sql_watermark(d: &mut Downstream, checkpoint: Option<&CompletedCheckpoint>) {
    let Some(c) = checkpoint else { return };
    let w = c.keyed.iter().map(|k| k.op.current_watermark()).min().unwrap_or(NO_WATERMARK);
    d.windows.iter_mut().for_each(|x| x.op.restore_watermark(w));
}
