//! One source subtask (`SourceOperator` + `ProgressiveTimestampsAndWatermarks`): reads records
//! from its splits, runs one generator per split plus one for the main output, combines the
//! splits in the multiplexer and emits watermarks and statuses through its output.

use super::fetcher::Fetcher;
use super::generator::{EmitMode, WatermarkGenerator};
use super::idleness::{IdleCheck, IdlenessWrapper};
use super::multiplexer::{MuxCall, WatermarkOutputMultiplexer};
use super::output::{Path, SourceWatermarkOutput};
use super::split::Split;
use super::SourceSettings;
use crate::engine::alignment::source_alignment::{SourceAlignment, SplitChange};
use crate::engine::element::Record;
use crate::engine::flow::back_pressure::TaskPressure;
use crate::engine::flow::pausable_clock::PausableClock;
use crate::engine::flow::IdlenessClock;
use crate::engine::partitioner::Exchange;
use crate::engine::status::{Signal, WatermarkStatus};
use crate::engine::time::{EventTime, ProcTime};
use crate::engine::trace::{Trace, TraceKind};

#[derive(Clone, Debug)]
pub struct SourceSubtask {
    /// Global index over both inputs' sources (the first input's come first).
    pub index: u32,
    /// The job input (0 or 1) this subtask reads for, and its index within that source.
    pub input: u8,
    pub index_in_source: u32,
    pub splits: Vec<Split>,
    mux: WatermarkOutputMultiplexer,
    main: WatermarkGenerator,
    main_idleness: IdlenessWrapper,
    pub output: SourceWatermarkOutput,
    settings: SourceSettings,
    calls: Vec<MuxCall>,
    pub num_records_out: u64,
    pub num_records_filtered: u64,
    /// When the output was last announced IDLE, while it is.
    pub idle_since: Option<ProcTime>,
    pub idle_time_ms: i64,
    /// When the reader last read a record (filtered or not): Flink's source metrics count the
    /// reader idle from when it ran dry after its last record (`InternalSourceReaderMetricGroup`).
    pub last_record_at: Option<ProcTime>,
    /// The exchange out of this source (the edge to the keyed operator).
    pub exchange: Exchange,
    /// Round-robin position for a rebalance exchange.
    pub rebalance_next: u32,
    /// Fractional read budget (milli-records) for a rate-limited reader.
    pub read_budget_milli: u64,
    /// The order in which a reader that cannot read everything moves through its splits.
    pub fetcher: Fetcher,
    /// Watermark alignment, when the strategy has `withWatermarkAlignment`.
    pub alignment: Option<SourceAlignment>,
    /// The main output's input-activity clock (its idleness timer reads it).
    pub main_clock: PausableClock,
    pub pressure: TaskPressure,
    split_changes: Vec<SplitChange>,
    /// This subtask alone reached the end of its input (`Simulation::end_input_of`): it reads
    /// nothing more.
    pub finished: bool,
}

impl SourceSubtask {
    pub fn new(
        index: u32,
        (input, index_in_source): (u8, u32),
        settings: SourceSettings,
        exchange: Exchange,
        rebalance_start: u32,
    ) -> Self {
        SourceSubtask {
            index,
            input,
            index_in_source,
            splits: Vec::new(),
            mux: WatermarkOutputMultiplexer::new(settings.combined_all_idle_flush),
            main: WatermarkGenerator::new(settings.generator, settings.emit),
            main_idleness: IdlenessWrapper::new(settings.idle_timeout_ms),
            output: SourceWatermarkOutput::default(),
            settings,
            calls: Vec::new(),
            num_records_out: 0,
            num_records_filtered: 0,
            idle_since: None,
            idle_time_ms: 0,
            last_record_at: None,
            exchange,
            rebalance_next: rebalance_start,
            read_budget_milli: 0,
            fetcher: Fetcher::default(),
            alignment: None,
            main_clock: PausableClock::default(),
            pressure: TaskPressure::default(),
            split_changes: Vec::new(),
            finished: false,
        }
    }

    /// The subtask with its side of watermark alignment.
    pub fn with_alignment(mut self, alignment: Option<SourceAlignment>) -> Self {
        self.alignment = alignment;
        self
    }

    pub fn settings(&self) -> &SourceSettings {
        &self.settings
    }

    /// Applies changed strategy settings to every generator and timer in place.
    pub fn reconfigure(&mut self, s: SourceSettings) {
        self.settings = s;
        self.main.reconfigure(s.generator, s.emit);
        self.main_idleness.set_timeout(s.idle_timeout_ms);
        for sp in &mut self.splits {
            sp.generator.reconfigure(s.generator, s.emit);
            sp.idleness.set_timeout(s.idle_timeout_ms);
        }
    }

    /// At job start: the legacy consumer idles a subtask without partitions right away.
    pub fn open(&mut self, now: ProcTime, trace: &mut Trace, signals: &mut Vec<Signal>) {
        if self.settings.legacy_idle_without_splits && self.splits.is_empty() {
            let from = signals.len();
            self.output.force_idle(signals);
            self.note_signals_from(from, now, trace, signals);
        }
    }

    pub fn add_split(&mut self, partition: u32, now: ProcTime, trace: &mut Trace) -> usize {
        let slot = self.mux.register();
        let g = WatermarkGenerator::new(self.settings.generator, self.settings.emit);
        self.splits.push(Split::new(partition, now, slot, g, IdlenessWrapper::new(self.settings.idle_timeout_ms)));
        if let Some(a) = &mut self.alignment {
            a.add_split();
        }
        // A split that arrives while the task is back-pressured starts with its clock paused.
        self.update_clocks(now);
        trace.push(now, TraceKind::SplitAdded { subtask: self.index, partition });
        self.splits.len() - 1
    }

    /// `releaseOutputForSplit`: unregisters without recombining.
    pub fn release_split(&mut self, i: usize, now: ProcTime, trace: &mut Trace) {
        let sp = &mut self.splits[i];
        if !sp.released {
            sp.released = true;
            self.mux.unregister(sp.slot);
            if let Some(a) = &mut self.alignment {
                a.release_split(i);
            }
            trace.push(now, TraceKind::SplitReleased { subtask: self.index, partition: sp.partition });
        }
    }

    /// Split `i` was read again up to where this subtask's input had ended, and the input has not
    /// ended again yet: Flink's bounded split finished at its stopping offset
    /// (`releaseOutputForSplit`), so its watermark leaves the subtask's. It stays assigned and
    /// in split alignment's checks, unlike a release (a pause changes nothing at its end): after
    /// the input ends again the model reads on past the end, as it did before the failure.
    pub fn finish_split(&mut self, i: usize) {
        self.mux.finish(self.splits[i].slot);
    }

    /// Whether split `i` is [finished at its end](Self::finish_split) (and not released).
    pub fn split_at_its_end(&self, i: usize) -> bool {
        !self.splits[i].released && self.mux.is_finished(self.splits[i].slot)
    }

    /// Whether split `i`'s watermark counts in the subtask's: neither released nor at its end.
    pub fn split_counts(&self, i: usize) -> bool {
        !self.splits[i].released && !self.split_at_its_end(i)
    }

    /// The splits [`Self::finish_split`] took out count again (alignment has finished by then).
    fn reopen_finished_splits(&mut self) {
        self.splits.iter().for_each(|sp| self.mux.unfinish(sp.slot));
    }

    /// Whether the reader owns no live split (more readers than partitions, or all released).
    pub fn owns_no_split(&self) -> bool {
        self.splits.iter().all(|sp| sp.released)
    }

    /// Whether it owns no split and only an idle timeout can mark it idle: the legacy consumer
    /// idled one that never had a split at open, whatever the timeout, one that ended its
    /// input has sent the end of input (`Long.MAX_VALUE`) and holds nothing, and one that
    /// [`Self::stays_active_without_split`] no timeout idles.
    pub fn waits_without_split(&self) -> bool {
        let legacy_idled = self.settings.legacy_idle_without_splits && self.splits.is_empty();
        self.owns_no_split() && !self.finished && !legacy_idled && !self.stays_active_without_split()
    }

    /// Whether its splits were all released while the multiplexer's last word was active: an
    /// empty multiplexer never speaks again (`CombinedWatermarkStatus` skips an empty set), so
    /// the subtask stays active at its last watermark and no idle timeout marks it idle
    /// (reference §4.6, V-SRC-5; golden oracle2/26; FLINK-39586 would mark it idle).
    pub fn stays_active_without_split(&self) -> bool {
        self.owns_no_split() && !self.finished && !self.output.wrapper_idle(Path::Splits)
    }

    pub fn split_watermark(&self, i: usize) -> Option<EventTime> {
        self.mux.partial(self.splits[i].slot).map(|p| p.watermark)
    }

    pub fn split_idle(&self, i: usize) -> bool {
        self.mux.partial(self.splits[i].slot).is_some_and(|p| p.idle)
    }

    /// Whether back-pressure stands split `i`'s input-activity clock while its idleness
    /// countdown runs: the timeout cannot pass, however long the split stays silent (§1.8).
    pub fn idleness_held_by_pressure(&self, i: usize) -> bool {
        let sp = &self.splits[i];
        let counting = sp.idleness.timer().is_some_and(|t| t.countdown_started_at().is_some());
        self.pressure.is_back_pressured && sp.clock.is_paused() && counting
    }

    pub fn combined_watermark(&self) -> EventTime {
        self.mux.combined()
    }

    /// Whether the main output's wrapper is idle (it keeps a partition-less subtask ACTIVE
    /// forever unless `withIdleness` is set).
    pub fn main_output_idle(&self) -> bool {
        self.output.wrapper_idle(Path::Main)
    }

    /// Timestamp assignment and the filter stage, for a record of split `i`. `None`: the
    /// record was filtered out.
    #[inline]
    pub fn assign(&mut self, i: usize, r: &Record, now: ProcTime) -> Option<EventTime> {
        self.last_record_at = Some(now);
        let ts = self.settings.assigner.assign(r);
        let out = self.settings.transform.apply(r, ts, now);
        if out.is_none() {
            self.num_records_filtered += 1;
            self.splits[i].records_filtered += 1;
        }
        out
    }

    /// After the record went downstream: `onEvent` on the split's generator (reference §4.2).
    #[inline]
    pub fn after_record(&mut self, i: usize, r: &Record, ts: EventTime, now: ProcTime, trace: &mut Trace, signals: &mut Vec<Signal>) {
        self.num_records_out += 1;
        let sp = &mut self.splits[i];
        sp.records_read += 1;
        sp.observed.heartbeats += u64::from(r.heartbeat);
        sp.note_record_at(now);
        let behind = sp.max_ts.map_or(0, |m| m.ms().saturating_sub(ts.ms()).max(0));
        sp.observed.note_disorder(behind);
        if sp.max_ts.is_none_or(|m| ts > m) {
            sp.max_ts = Some(ts);
        }
        sp.idleness.on_event();
        if let Some(w) = sp.generator.on_event(ts, now) {
            let before = self.split_state(i);
            self.calls.clear();
            let slot = self.splits[i].slot;
            let mut calls = std::mem::take(&mut self.calls);
            self.mux.immediate_watermark(slot, w, &mut calls);
            self.calls = calls;
            self.after_split_change(i, before, now, trace);
            self.route_calls(now, trace, signals);
        }
    }

    /// `n` records read in one instant with a periodic generator: the same as `n` calls of
    /// `after_record`, whose `onEvent` then only raises the max and counts activity.
    #[inline]
    pub fn after_records(&mut self, i: usize, n: u64, heartbeats: u64, max_ts: EventTime, now: ProcTime) {
        debug_assert!(!self.emits_per_event());
        self.num_records_out += n;
        let sp = &mut self.splits[i];
        sp.records_read += n;
        sp.observed.heartbeats += heartbeats;
        sp.note_record_at(now);
        if sp.max_ts.is_none_or(|m| max_ts > m) {
            sp.max_ts = Some(max_ts);
        }
        sp.idleness.on_event();
        let emitted = sp.generator.on_event(max_ts, now);
        debug_assert!(emitted.is_none(), "periodic generators emit nothing on events");
    }

    /// Whether split generators emit from `onEvent` (punctuated mode).
    pub fn emits_per_event(&self) -> bool {
        self.settings.emit == EmitMode::PerEvent
    }

    /// Explicit `markIdle()` / `markActive()` on a split's output (the oracle's schedule marks).
    pub fn set_split_idle(&mut self, i: usize, idle: bool, now: ProcTime, trace: &mut Trace, signals: &mut Vec<Signal>) {
        let before = self.split_state(i);
        self.calls.clear();
        let mut calls = std::mem::take(&mut self.calls);
        self.mux.immediate_idle(self.splits[i].slot, idle, &mut calls);
        self.calls = calls;
        self.after_split_change(i, before, now, trace);
        self.route_calls(now, trace, signals);
    }

    /// One periodic tick (reference §2.2): split generators into their deferred outputs in
    /// registration order, then the combination, then the main output's generator.
    pub fn periodic_tick(&mut self, now: ProcTime, trace: &mut Trace, signals: &mut Vec<Signal>) {
        for i in 0..self.splits.len() {
            if self.splits[i].released {
                continue;
            }
            let before = self.split_state(i);
            let sp = &mut self.splits[i];
            match sp.idleness.on_periodic_emit(sp.clock.relative(now)) {
                IdleCheck::Emit => {
                    if let Some(w) = sp.generator.on_periodic_emit(now) {
                        self.mux.deferred_watermark(sp.slot, w);
                    }
                }
                IdleCheck::MarkIdle => self.mux.deferred_idle(sp.slot),
                IdleCheck::StayIdle => {}
            }
            self.after_split_change(i, before, now, trace);
        }
        self.calls.clear();
        let mut calls = std::mem::take(&mut self.calls);
        self.mux.on_periodic_emit(&mut calls);
        self.calls = calls;
        self.route_calls(now, trace, signals);
        let from = signals.len();
        match self.main_idleness.on_periodic_emit(self.main_clock.relative(now)) {
            IdleCheck::Emit => {
                if let Some(w) = self.main.on_periodic_emit(now) {
                    self.output.emit_watermark(Path::Main, w, signals);
                }
            }
            IdleCheck::MarkIdle => self.output.mark_idle(Path::Main, signals),
            IdleCheck::StayIdle => {}
        }
        self.note_signals_from(from, now, trace, signals);
    }

    /// End of input: the `Long.MAX_VALUE` watermark (dropped while announced IDLE); alignment
    /// reports `Long.MAX_VALUE` from now on and stops blocking or pausing (`DATA_FINISHED`).
    pub fn end_of_input(&mut self, now: ProcTime, trace: &mut Trace, signals: &mut Vec<Signal>) {
        self.reopen_finished_splits();
        if let Some(a) = &mut self.alignment {
            let was = a.waiting;
            a.finish();
            if !self.finished {
                a.resume_splits(&mut self.split_changes);
            }
            self.note_waiting(was, now, trace);
            self.apply_split_changes(now, trace);
        }
        let from = signals.len();
        if !self.output.end_of_input(signals) && self.output.current_watermark() != EventTime::MAX {
            trace.push(now, TraceKind::EndOfInputDropped { subtask: self.index });
        }
        self.note_signals_from(from, now, trace, signals);
    }

    /// This subtask's reader returned `END_OF_INPUT` (a bounded source whose splits are done):
    /// the operator goes `DATA_FINISHED` — alignment reports `Long.MAX_VALUE` from now on and
    /// stops blocking or pausing — and the task emits `Long.MAX_VALUE` (dropped while IDLE).
    pub fn finish(&mut self, now: ProcTime, trace: &mut Trace, signals: &mut Vec<Signal>) {
        self.finished = true;
        self.end_of_input(now, trace, signals);
    }

    fn split_state(&self, i: usize) -> (Option<EventTime>, bool) {
        (self.split_watermark(i), self.split_idle(i))
    }

    fn after_split_change(&mut self, i: usize, before: (Option<EventTime>, bool), now: ProcTime, trace: &mut Trace) {
        let (w, idle) = self.split_state(i);
        let subtask = self.index;
        let sp = &mut self.splits[i];
        let partition = sp.partition;
        if let (Some(w), Some(b)) = (w, before.0) {
            if w > b {
                trace.push(now, TraceKind::SplitWatermark { subtask, partition, watermark: w });
            }
        }
        if let (Some(w), Some(a)) = (w, &mut self.alignment) {
            if before.0.is_none_or(|b| w > b) {
                a.on_split_watermark(i, w, &mut self.split_changes);
                self.apply_split_changes(now, trace);
            }
        }
        // 2.1.3 / 2.3.0 track idle splits (and skip them in the periodic check): one that comes
        // back is checked for pausing at once.
        if !idle && before.1 && self.settings.alignment_skip_idle_splits {
            if let Some(a) = &mut self.alignment {
                a.on_split_active(i, &mut self.split_changes);
                self.apply_split_changes(now, trace);
            }
        }
        let sp = &mut self.splits[i];
        if idle != before.1 {
            if idle {
                sp.idle_since = Some(now);
                sp.observed.idle_flips += 1;
                trace.push(now, TraceKind::SplitIdle { subtask, partition });
            } else {
                sp.idle_since = None;
                sp.observed.returned_at = Some(now);
                trace.push(now, TraceKind::SplitActive { subtask, partition });
            }
        }
    }

    /// Whether split `i` is read: assigned, not released, not paused by split alignment.
    #[inline]
    pub fn readable(&self, i: usize) -> bool {
        !self.splits[i].released && !self.alignment.as_ref().is_some_and(|a| a.paused[i])
    }

    /// Whether the subtask reads at all (not `WAITING_FOR_ALIGNMENT`).
    #[inline]
    pub fn reads(&self) -> bool {
        !self.alignment.as_ref().is_some_and(|a| a.waiting)
    }

    /// Split `i` is paused by split alignment.
    pub fn split_paused(&self, i: usize) -> bool {
        self.alignment.as_ref().is_some_and(|a| a.paused.get(i).copied().unwrap_or(false))
    }

    /// The alignment report tick: sample, check, and what to report to the coordinator.
    pub fn alignment_tick(&mut self, finished: bool, now: ProcTime, trace: &mut Trace) -> Option<EventTime> {
        let idle = self.output.is_idle();
        let split_idle: Vec<bool> = (0..self.splits.len()).map(|i| self.split_idle(i)).collect();
        let a = self.alignment.as_mut()?;
        let was = a.waiting;
        let report =
            a.tick(idle, finished || self.finished, &split_idle, self.settings.alignment_skip_idle_splits, &mut self.split_changes);
        self.note_waiting(was, now, trace);
        self.apply_split_changes(now, trace);
        report
    }

    /// The coordinator's `WatermarkAlignmentEvent`.
    pub fn on_announcement(&mut self, max_allowed: EventTime, now: ProcTime, trace: &mut Trace) {
        let split_idle: Vec<bool> = (0..self.splits.len()).map(|i| self.split_idle(i)).collect();
        let Some(a) = self.alignment.as_mut() else { return };
        let was = a.waiting;
        a.on_announcement(max_allowed, &split_idle, self.settings.alignment_skip_idle_splits, &mut self.split_changes);
        self.note_waiting(was, now, trace);
        self.apply_split_changes(now, trace);
    }

    fn note_waiting(&mut self, was: bool, now: ProcTime, trace: &mut Trace) {
        let Some(a) = &self.alignment else { return };
        if a.waiting != was {
            let subtask = self.index;
            trace.push(
                now,
                if a.waiting {
                    TraceKind::AlignmentBlocked { subtask, max_allowed: a.max_desired }
                } else {
                    TraceKind::AlignmentUnblocked { subtask }
                },
            );
        }
        self.update_clocks(now);
    }

    fn apply_split_changes(&mut self, now: ProcTime, trace: &mut Trace) {
        let Some(a) = &self.alignment else { return };
        let max_allowed = a.max_desired;
        for (i, paused) in std::mem::take(&mut self.split_changes) {
            let (subtask, partition) = (self.index, self.splits[i].partition);
            trace.push(
                now,
                if paused {
                    TraceKind::SplitPaused { subtask, partition, max_allowed }
                } else {
                    TraceKind::SplitResumed { subtask, partition }
                },
            );
        }
        self.update_clocks(now);
    }

    /// The end of a processed millisecond's reads: whether the subtask was back-pressured.
    pub fn set_back_pressured(&mut self, on: bool, now: ProcTime, trace: &mut Trace) {
        if self.pressure.is_back_pressured != on {
            self.pressure.is_back_pressured = on;
            trace.push(now, TraceKind::BackPressure { subtask: self.index, on });
            self.update_clocks(now);
        }
    }

    /// Pauses the input-activity clocks while the task cannot read (reference §1.8): every clock
    /// while back-pressured, the main one while waiting for alignment, a split's while split
    /// alignment pauses it.
    fn update_clocks(&mut self, now: ProcTime) {
        if self.settings.idleness_clock == IdlenessClock::Wall {
            return;
        }
        let bp = self.pressure.is_back_pressured;
        let waiting = !self.reads();
        self.main_clock.set_paused(bp || waiting, now);
        for i in 0..self.splits.len() {
            let paused = bp || self.split_paused(i);
            self.splits[i].clock.set_paused(paused, now);
        }
    }

    fn route_calls(&mut self, now: ProcTime, trace: &mut Trace, signals: &mut Vec<Signal>) {
        let from = signals.len();
        for c in std::mem::take(&mut self.calls) {
            match c {
                MuxCall::Watermark(w) => self.output.emit_watermark(Path::Splits, w, signals),
                MuxCall::MarkIdle => self.output.mark_idle(Path::Splits, signals),
            }
        }
        self.note_signals_from(from, now, trace, signals);
    }

    /// Traces what the output emitted and keeps the idle-time metric.
    fn note_signals_from(&mut self, from: usize, now: ProcTime, trace: &mut Trace, signals: &[Signal]) {
        let subtask = self.index;
        for s in &signals[from.min(signals.len())..] {
            match *s {
                Signal::Watermark(w) => {
                    trace.push(now, TraceKind::SourceWatermark { subtask, watermark: w });
                    if let Some(a) = &mut self.alignment {
                        let was = a.waiting;
                        a.on_output_watermark(w);
                        self.note_waiting(was, now, trace);
                    }
                }
                Signal::Status(st) => {
                    match st {
                        WatermarkStatus::Idle => self.idle_since = Some(now),
                        WatermarkStatus::Active => {
                            if let Some(s) = self.idle_since.take() {
                                self.idle_time_ms += now - s;
                            }
                        }
                    }
                    trace.push(now, TraceKind::SourceStatus { subtask, status: st })
                }
            }
        }
    }
}
