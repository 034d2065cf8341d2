//! Step 4 of a processed millisecond: each source subtask (index order) reads its splits in
//! assignment order, and each record goes downstream before the split's generator sees it.
//!
//! Two paths, one observable behaviour:
//! * **log path** — with a rate-limited reader, or for a partition without a live split,
//!   producers append to the partition log in step 2 and readers pop from it here;
//! * **direct path** — with an unlimited reader, a live split's records produced at `t` are
//!   handed straight to its reader here, after any backlog still in its log, in producer order.
//!   That is exactly the order the log would give: nothing reads a log between steps 2 and 4,
//!   and each (producer, partition) pair has its own RNG stream, so the order in which
//!   partitions are produced is not observable. It saves a copy into and out of the log.
//!
//! In periodic emission mode a split generator's `onEvent` only raises its max timestamp and
//! the idleness timer only counts activity, so one producer's records of an instant are
//! reported to the split once, with their maximum (`SourceSubtask::after_records`).

use super::diagnosis::diagnose::window_size_ms;
use super::element::Record;
use super::flow::{budget_cap_milli, IdlenessClock};
use super::producer::ProducerKind;
use super::sim::{ReadRecord, Simulation};
use super::source::subtask::SourceSubtask;
use super::time::{EventTime, ProcTime};
use super::trace::TraceKind;

impl Simulation {
    /// Whether partition `p`'s records skip the log (see the module docs).
    #[inline]
    pub(crate) fn reads_directly(&self, p: usize) -> bool {
        let input = &self.cfg.inputs[self.partitions[p].input as usize];
        input.read_rate_per_s.is_none()
            && !input.polled
            && !self.cfg.flow_controlled()
            && self.live_split_of(p).is_some()
            && !self.partitions[p].stops()
    }

    pub(crate) fn read(&mut self, t: ProcTime) {
        self.pending_reads = false;
        self.index_producers();
        let flow = self.cfg.flow_controlled();
        for s in 0..self.sources.len() {
            // A polled reader reads in `poll`; a finished one not at all.
            if self.cfg.inputs[self.sources[s].input as usize].polled || self.sources[s].finished {
                continue;
            }
            match self.cfg.inputs[self.sources[s].input as usize].read_rate_per_s {
                None if !flow => self.read_unlimited(s, t),
                None => self.read_fetched(s, u64::MAX, t),
                Some(rate) => {
                    let budget = self.read_budget(s, rate);
                    self.read_fetched(s, budget, t)
                }
            }
            if flow {
                let blocked = !self.down.output_available(s as u32);
                self.sources[s].set_back_pressured(blocked, t, &mut self.trace);
                // The chained operator runs in the same task: its clock stands too.
                let pausable = self.cfg.inputs[self.sources[s].input as usize].source.idleness_clock == IdlenessClock::InputActivity;
                if let Some(Some(m)) = self.down.chained.get_mut(s) {
                    m.clock.set_paused(blocked && pausable, t);
                }
            }
        }
    }

    /// Reads up to `budget` records in the Kafka fetcher's order (`source::fetcher`), while the
    /// subtask is not waiting for alignment, only from unpaused splits, and only while every
    /// output channel has room (otherwise it is back-pressured).
    fn read_fetched(&mut self, s: usize, mut budget: u64, t: ProcTime) {
        let per_partition = self.cfg.inputs[self.sources[s].input as usize].fetch_records_per_partition;
        while budget > 0 && self.sources[s].reads() && self.down.output_available(s as u32) {
            let src = &self.sources[s];
            let backlog: Vec<u64> = (0..src.splits.len())
                .map(|i| if src.readable(i) { self.partitions[src.splits[i].partition as usize].readable() as u64 } else { 0 })
                .collect();
            let Some((i, left)) = self.sources[s].fetcher.next(backlog.len(), per_partition, |i| backlog[i]) else { break };
            let p = self.sources[s].splits[i].partition as usize;
            let mut n = 0;
            while n < left && budget > 0 && self.sources[s].reads() && self.sources[s].readable(i) && self.down.output_available(s as u32) {
                let Some(r) = self.partitions[p].pop() else { break };
                n += 1;
                budget -= 1;
                self.read_record(s, i, r, t);
            }
            self.sources[s].fetcher.consumed(n);
            if n == 0 {
                break;
            }
        }
    }

    fn read_unlimited(&mut self, s: usize, t: ProcTime) {
        let mut batch = std::mem::take(&mut self.batch);
        for i in 0..self.sources[s].splits.len() {
            let split = &self.sources[s].splits[i];
            if split.released {
                continue;
            }
            let p = split.partition as usize;
            while let Some(r) = self.partitions[p].pop() {
                self.read_record(s, i, r, t);
            }
            // Records produced now lie beyond a stopping offset: they wait in the log.
            if self.partitions[p].removed || self.partitions[p].stops() {
                continue;
            }
            for k in 0..self.producers_of[p].len() {
                let j = self.producers_of[p][k] as usize;
                batch.clear();
                let part = &mut self.partitions[p];
                self.producers[j].produce(t, |r| batch.push(part.stamp(r)));
                if !batch.is_empty() {
                    let heartbeats = matches!(self.producers[j].kind, ProducerKind::Heartbeat { .. });
                    self.read_batch(s, i, &batch, heartbeats, t);
                }
            }
        }
        self.batch = batch;
    }

    /// One producer's records of one instant, read by split `i` of subtask `s`: like
    /// `read_record` each, with the split's bookkeeping done once when its generator only
    /// emits periodically.
    fn read_batch(&mut self, s: usize, i: usize, batch: &[Record], heartbeats: bool, t: ProcTime) {
        if self.trace.records_enabled() || self.sources[s].emits_per_event() || self.reads.is_some() {
            for &r in batch {
                self.read_record(s, i, r, t);
            }
            return;
        }
        let history_ms = self.history_age_ms();
        let Simulation { sources, down, keys, trace, .. } = self;
        let src = &mut sources[s];
        let mut max_ts = EventTime::MIN;
        let mut n = 0;
        for r in batch {
            let Some(ts) = src.assign(i, r, t) else { continue };
            down.send_record(src, r, ts, keys, t, trace);
            n += 1;
            max_ts = max_ts.max(ts);
        }
        if n == 0 {
            return;
        }
        // A producer writes heartbeats only or none, and they pass the filter all or none
        // (`SourceTransform::apply`).
        let heartbeats = if heartbeats && !src.settings().transform.drop_heartbeats { n } else { 0 };
        let sp = &src.splits[i];
        if sp.observed.samples_next_batch(sp.records_read) {
            observe_batch(src, i, batch, t, history_ms);
        }
        src.after_records(i, n, heartbeats, max_ts, t);
    }

    fn index_producers(&mut self) {
        if !self.producers_of_stale && self.producers_of.len() == self.partitions.len() {
            return;
        }
        self.producers_of = vec![Vec::new(); self.partitions.len()];
        for (j, pr) in self.producers.iter().enumerate() {
            self.producers_of[pr.partition as usize].push(j as u32);
        }
        self.producers_of_stale = false;
    }

    /// Whole records subtask `s` may read this millisecond at `rate` records/s.
    fn read_budget(&mut self, s: usize, rate: u64) -> u64 {
        let src = &mut self.sources[s];
        src.read_budget_milli = src.read_budget_milli.saturating_add(rate).min(budget_cap_milli(rate));
        let whole = src.read_budget_milli / 1000;
        src.read_budget_milli -= whole * 1000;
        whole
    }

    #[inline]
    pub(crate) fn read_record(&mut self, s: usize, i: usize, r: Record, t: ProcTime) {
        let src = &mut self.sources[s];
        if self.trace.records_enabled() {
            let k = TraceKind::RecordRead { subtask: s as u32, partition: r.partition, offset: r.offset, ts: r.event_ts, key: r.key };
            self.trace.push(t, k);
        }
        let Some(ts) = src.assign(i, &r, t) else {
            if self.trace.records_enabled() {
                let k = TraceKind::RecordFiltered { subtask: s as u32, partition: r.partition, offset: r.offset };
                self.trace.push(t, k);
            }
            return;
        };
        if let Some(reads) = &mut self.reads {
            reads.push(ReadRecord { time: t, subtask: s as u32, partition: r.partition, ts, key: r.key, value: r.value });
        }
        self.down.send_record(src, &r, ts, &self.keys, t, &mut self.trace);
        self.signals.clear();
        self.sources[s].after_record(i, &r, ts, t, &mut self.trace, &mut self.signals);
        let history_ms = self.history_age_ms();
        let sp = &mut self.sources[s].splits[i];
        sp.observed.note_arrival(sp.max_ts.unwrap_or(ts), t, history_ms);
        if !self.signals.is_empty() {
            self.broadcast(s, t);
        }
    }
}

/// The disorder of a sampled batch's records (`Observed::samples_next_batch`), out of line so
/// that the read loop keeps its shape (observed inside it, every record cost +17% of the
/// engine's instructions on seed 001); each timestamp is derived again, a pure function of
/// the record.
#[inline(never)]
fn observe_batch(src: &mut SourceSubtask, i: usize, batch: &[Record], t: ProcTime, history_ms: i64) {
    let settings = *src.settings();
    let sp = &mut src.splits[i];
    let ts = batch.iter().filter_map(|r| settings.transform.apply(r, settings.assigner.assign(r), t));
    sp.observed.note_batch(sp.max_ts, ts, t, history_ms);
}

impl Simulation {
    /// Records older than this on arrival are history (`advisor::reads_history`).
    #[inline]
    fn history_age_ms(&self) -> i64 {
        crate::engine::diagnosis::advisor::history_age_ms(window_size_ms(self.cfg.window))
    }
}
