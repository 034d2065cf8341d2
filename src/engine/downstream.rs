//! Everything after the source: the exchange, the channels, the window subtasks (valve +
//! operator) and the sink. Records follow the partitioner; watermarks and statuses are
//! broadcast to every connected channel (reference §3).

use super::channel::{Channel, ChannelItem};
use super::checkpoint::InFlightRecord;
use super::element::Record;
use super::flow::credits::KeyedFlow;
use super::job::{InputConfig, JobConfig};
use super::keys::{KeyId, KeyTable};
use super::late_records::{LateRecord, LateRecords};
use super::operator::hot_windows::NO_SLOT;
use super::operator::interval_join::{JoinOutcome, JoinedPair, Side};
use super::operator::join_results::JoinResults;
use super::operator::midstream::Midstream;
use super::operator::sink::{Sink, WindowResult};
use super::operator::sql_window::NULL_ROWTIME;
use super::operator::window_operator::{ElementOutcome, WindowFiring};
use super::partitioner::{default_max_parallelism, key_to_subtask, Exchange};
use super::source::subtask::SourceSubtask;
use super::status::{Signal, WatermarkStatus};
use super::time::{EventTime, ProcTime};
use super::trace::{Trace, TraceKind};
use super::window_subtask::WindowSubtask;

#[derive(Clone, Debug)]
pub struct Downstream {
    pub windows: Vec<WindowSubtask>,
    pub sink: Sink,
    pub late: LateRecords,
    /// No channel latency, no interval join, no chained watermark operator: records go
    /// straight into the window operator.
    direct: bool,
    /// Per global source subtask: the window subtasks its watermarks and statuses reach.
    pub(crate) targets: Vec<Vec<u32>>,
    /// Per global source subtask, the watermark operator chained after it (empty when no
    /// input has one).
    pub chained: Vec<Option<Midstream>>,
    chain_out: Vec<Signal>,
    pub(crate) latency_ms: i64,
    /// `channels[src * window_parallelism + dst]` over global source subtasks, used only with
    /// latency > 0.
    pub(crate) channels: Vec<Channel>,
    /// Cached keyBy target per key id, with the key's dense slot in that subtask.
    key_route: Vec<(u32, u32)>,
    /// Slots handed out per window subtask.
    slots_used: Vec<u32>,
    max_parallelism: u32,
    fired: Vec<WindowFiring>,
    valve_out: Vec<Signal>,
    /// Per window subtask: every watermark its operator received, with the processing time
    /// (the oracle's `watermarks`); capped at `HISTORY_LIMIT` entries each.
    pub watermark_history: Vec<Vec<(ProcTime, EventTime)>>,
    /// Why the job failed, if it did (the simulation stops within that instant, after the
    /// subtasks' reads: nothing after the failing record's read batch is processed).
    pub failure: Option<String>,
    /// An interval join's output (empty for a window job).
    pub joins: JoinResults,
    joined: Vec<JoinedPair>,
    /// Records per second one keyed subtask processes (`None`: unbounded, no back-pressure).
    pub(crate) capacity_per_s: Option<u64>,
    /// Records a channel buffers before its sender waits.
    pub(crate) buffer_records: u64,
    /// Per keyed subtask: its processing budget and busy time (`flow::credits`).
    pub keyed_flow: Vec<KeyedFlow>,
}

/// What Flink's interval join throws for an element without a timestamp.
pub const NO_TIMESTAMP_JOIN: &str = "the job failed: FlinkException: Long.MIN_VALUE timestamp: Elements used in interval stream joins need to have timestamps meaningful timestamps.";

/// Watermarks remembered per window subtask for reports.
pub const HISTORY_LIMIT: usize = 100_000;

/// What Flink's window assigners throw for a record without a timestamp.
pub const NO_TIMESTAMP: &str = "the job failed: Record has Long.MIN_VALUE timestamp (= no timestamp marker). Is the time characteristic set to 'ProcessingTime', or did you forget to call 'DataStream.assignTimestampsAndWatermarks(...)'?";

impl Downstream {
    pub fn new(cfg: &JobConfig) -> Self {
        let q = cfg.window_parallelism;
        let p = cfg.total_source_parallelism();
        let targets = source_targets(cfg);
        let windows = (0..q).map(|i| WindowSubtask::new(i, channel_sources(cfg, &targets, i), cfg)).collect();
        Downstream {
            windows,
            sink: Sink::new(cfg.sink, cfg.window_results_retained),
            late: LateRecords::new(
                cfg.late_records_retained,
                cfg.late_side_output,
                crate::engine::diagnosis::diagnose::job_bound_ms(cfg).unwrap_or(0),
            ),
            direct: cfg.channel_latency_ms == 0
                && cfg.flow.keyed_capacity_per_s.is_none()
                && cfg.interval_join.is_none()
                && cfg.inputs.iter().all(|i| i.midstream.is_none()),
            targets,
            chained: chained(cfg),
            chain_out: Vec::new(),
            latency_ms: cfg.channel_latency_ms,
            channels: if cfg.channel_latency_ms > 0 || cfg.flow.keyed_capacity_per_s.is_some() {
                vec![Channel::default(); (p * q) as usize]
            } else {
                Vec::new()
            },
            key_route: Vec::new(),
            slots_used: vec![0; q as usize],
            max_parallelism: default_max_parallelism(q),
            fired: Vec::new(),
            valve_out: Vec::new(),
            watermark_history: vec![Vec::new(); q as usize],
            failure: None,
            joins: JoinResults::new(cfg.window_results_retained),
            joined: Vec::new(),
            capacity_per_s: cfg.flow.keyed_capacity_per_s,
            buffer_records: cfg.flow.channel_buffer_records,
            keyed_flow: vec![KeyedFlow::default(); q as usize],
        }
    }

    /// Keys routed to window subtask `dst` so far.
    pub fn keys_in(&self, dst: u32) -> usize {
        self.slots_used.get(dst as usize).map_or(0, |&n| n as usize)
    }

    /// Late records counted by the window subtasks: (`numLateRecordsDropped`, side output).
    pub fn late_counts(&self) -> (u64, u64) {
        self.windows.iter().fold((0, 0), |(d, so), w| (d + w.num_late_records_dropped, so + w.num_late_records_side_output))
    }

    /// Every late record so far, dropped or side output (exact; the buffer keeps the newest).
    pub fn late_total(&self) -> u64 {
        let (d, so) = self.late_counts();
        d + so
    }

    pub fn set_latency(&mut self, latency_ms: i64) {
        if latency_ms > 0 && self.channels.is_empty() {
            self.channels = vec![Channel::default(); self.targets.len() * self.windows.len()];
        }
        self.latency_ms = latency_ms;
        self.direct = !self.buffered() && self.chained.is_empty() && self.windows.iter().all(|w| w.join.is_none());
    }

    /// Routes a record from a source subtask (the record goes out before the generator runs);
    /// a rebalance exchange advances the subtask's round robin.
    #[inline(always)]
    pub fn send_record(
        &mut self,
        from: &mut SourceSubtask,
        rec: &Record,
        ts: EventTime,
        keys: &KeyTable,
        now: ProcTime,
        trace: &mut Trace,
    ) {
        let (src, rebalance_next) = (from.index, &mut from.rebalance_next);
        let q = self.windows.len() as u32;
        let (dst, slot) = match from.exchange {
            Exchange::Forward => (from.index_in_source, NO_SLOT),
            Exchange::Rebalance => {
                let d = *rebalance_next % q;
                *rebalance_next = (d + 1) % q;
                (d, NO_SLOT)
            }
            Exchange::Hash => self.route_key(rec.key, keys),
        };
        // One test on the hot path: the common job has no latency, join or chained operator.
        if self.direct {
            self.process_record(dst, slot, rec, ts, now, trace);
        } else {
            self.send_record_general(src, from.input, dst, slot, rec, ts, now, trace);
        }
    }

    /// `send_record` with channel latency, an interval join or a chained watermark operator.
    #[cold]
    #[allow(clippy::too_many_arguments)]
    fn send_record_general(
        &mut self,
        src: u32,
        input: u8,
        dst: u32,
        slot: u32,
        rec: &Record,
        ts: EventTime,
        now: ProcTime,
        trace: &mut Trace,
    ) {
        if self.buffered() {
            let ch = (src * self.windows.len() as u32 + dst) as usize;
            self.channels[ch].send(now + self.latency_ms, ChannelItem::Record(*rec, ts, slot, input));
        } else {
            self.receive_record(dst, slot, input, rec, ts, now, trace);
        }
        if !self.chained.is_empty() {
            self.chained_element(src, ts, now, trace);
        }
    }

    /// A record arriving at keyed subtask `dst` from input `input`.
    #[allow(clippy::too_many_arguments)]
    fn receive_record(&mut self, dst: u32, slot: u32, input: u8, rec: &Record, ts: EventTime, now: ProcTime, trace: &mut Trace) {
        if self.windows[dst as usize].join.is_some() {
            self.windows[dst as usize].num_records_in += 1;
            self.join_record(dst, input, rec, ts, now, trace);
        } else {
            self.process_record(dst, slot, rec, ts, now, trace);
        }
    }

    /// The chained operator after source subtask `src` sees a record that went downstream.
    #[cold]
    fn chained_element(&mut self, src: u32, ts: EventTime, now: ProcTime, trace: &mut Trace) {
        let Some(m) = &mut self.chained[src as usize] else { return };
        let mut out = std::mem::take(&mut self.chain_out);
        out.clear();
        m.process_element(ts, now, &mut out);
        self.chained_out(src, &out, now, trace);
        self.chain_out = out;
    }

    /// What a chained operator emitted: traced, then broadcast like a source's signals.
    fn chained_out(&mut self, src: u32, out: &[Signal], now: ProcTime, trace: &mut Trace) {
        for &sig in out {
            let kind = match sig {
                Signal::Watermark(watermark) => TraceKind::MidstreamWatermark { subtask: src, watermark },
                Signal::Status(status) => TraceKind::MidstreamStatus { subtask: src, status },
            };
            trace.push(now, kind);
            self.fan_out(src, sig, now, trace);
        }
    }

    /// Opens the chained operators (the SQL operator's timer starts at job start).
    pub fn open(&mut self, now: ProcTime) {
        self.chained.iter_mut().flatten().for_each(|m| m.open(now));
    }

    /// The pipeline's periodic tick for the operator chained after source subtask `src`.
    pub fn periodic_tick(&mut self, src: u32, now: ProcTime, trace: &mut Trace) {
        let Some(Some(m)) = self.chained.get_mut(src as usize) else { return };
        let mut out = std::mem::take(&mut self.chain_out);
        out.clear();
        m.on_periodic_emit(now, &mut out);
        self.chained_out(src, &out, now, trace);
        self.chain_out = out;
    }

    /// The earliest processing-time timer of a chained operator.
    pub fn next_timer(&self) -> Option<ProcTime> {
        self.chained.iter().flatten().filter_map(|m| m.next_timer_at()).min()
    }

    /// Fires the chained operators' timers due at `now`, in source subtask order.
    pub fn fire_timers(&mut self, now: ProcTime, trace: &mut Trace) {
        for src in 0..self.chained.len() {
            let Some(m) = &mut self.chained[src] else { continue };
            if m.next_timer_at().is_none_or(|t| t > now) {
                continue;
            }
            let mut out = std::mem::take(&mut self.chain_out);
            out.clear();
            m.on_timer(now, &mut out);
            self.chained_out(src as u32, &out, now, trace);
            self.chain_out = out;
        }
    }

    #[inline]
    fn route_key(&mut self, key: KeyId, keys: &KeyTable) -> (u32, u32) {
        while self.key_route.len() <= key as usize {
            let k = self.key_route.len() as KeyId;
            let dst = key_to_subtask(keys.name(k), self.windows.len() as u32, self.max_parallelism);
            let slot = self.slots_used[dst as usize];
            self.slots_used[dst as usize] += 1;
            self.key_route.push((dst, slot));
        }
        self.key_route[key as usize]
    }

    /// A source subtask's watermark or status: through the operator chained after it, if
    /// any, then to every channel it feeds.
    pub fn send_signal(&mut self, src: u32, sig: Signal, now: ProcTime, trace: &mut Trace) {
        if let Some(Some(m)) = self.chained.get_mut(src as usize) {
            let mut out = std::mem::take(&mut self.chain_out);
            out.clear();
            m.process_signal(sig, &mut out);
            self.chained_out(src, &out, now, trace);
            self.chain_out = out;
            return;
        }
        self.fan_out(src, sig, now, trace);
    }

    /// Broadcasts a watermark or status leaving source subtask `src`'s chain to every
    /// channel it feeds.
    fn fan_out(&mut self, src: u32, sig: Signal, now: ProcTime, trace: &mut Trace) {
        let q = self.windows.len() as u32;
        for k in 0..self.targets[src as usize].len() {
            let dst = self.targets[src as usize][k];
            if self.buffered() {
                self.channels[(src * q + dst) as usize].send(now + self.latency_ms, ChannelItem::Signal(sig));
            } else {
                self.process_signal(src, dst, sig, now, trace);
            }
        }
    }

    pub fn next_delivery(&self) -> Option<ProcTime> {
        self.channels.iter().filter_map(|c| c.next_delivery()).min()
    }

    pub fn in_flight_records(&self) -> u64 {
        self.channels.iter().map(|c| c.in_flight_records()).sum()
    }

    /// Per channel index, the records read but still in it (a checkpoint keeps them).
    pub fn records_in_flight(&self) -> Vec<(usize, Vec<InFlightRecord>)> {
        self.channels.iter().enumerate().filter(|(_, c)| c.in_flight_records() > 0).map(|(i, c)| (i, c.records().collect())).collect()
    }

    /// A restore puts a checkpoint's in-flight records back into their channels (their keys
    /// routed again: the fresh operators hand out slots anew), due after the channel latency.
    pub fn restore_in_flight(&mut self, ch: usize, records: &[InFlightRecord], keys: &KeyTable, now: ProcTime) {
        // The latency or capacity that kept them there may have been turned off since: they
        // still arrive, through channels made for them.
        if self.channels.is_empty() {
            self.channels = vec![Channel::default(); self.targets.len() * self.windows.len()];
        }
        for &(rec, ts, input) in records {
            let slot = if self.windows.is_empty() { NO_SLOT } else { self.route_key(rec.key, keys).1 };
            self.channels[ch].send(now + self.latency_ms, ChannelItem::Record(rec, ts, slot, input));
        }
    }

    /// Delivers what is due, channel by channel in index order.
    pub fn deliver_due(&mut self, now: ProcTime, trace: &mut Trace) {
        if self.channels.is_empty() {
            return;
        }
        if let Some(cap) = self.capacity_per_s {
            self.process_with_capacity(cap, now, trace);
            return;
        }
        let q = self.windows.len() as u32;
        for ch in 0..self.channels.len() {
            let (src, dst) = (ch as u32 / q, ch as u32 % q);
            while let Some(item) = self.channels[ch].pop_due(now) {
                self.deliver(src, dst, item, now, trace);
            }
        }
    }

    /// An item taken from a channel by keyed subtask `dst`.
    pub(crate) fn deliver(&mut self, src: u32, dst: u32, item: ChannelItem, now: ProcTime, trace: &mut Trace) {
        match item {
            ChannelItem::Record(rec, ts, slot, input) => self.receive_record(dst, slot, input, &rec, ts, now, trace),
            ChannelItem::Signal(sig) => self.process_signal(src, dst, sig, now, trace),
        }
    }

    #[inline(always)]
    fn process_record(&mut self, dst: u32, slot: u32, rec: &Record, ts: EventTime, now: ProcTime, trace: &mut Trace) {
        let w = &mut self.windows[dst as usize];
        w.num_records_in += 1;
        match w.op.process_element_in(rec.key, slot, ts, rec.value, &mut self.fired) {
            ElementOutcome::Accepted => {}
            ElementOutcome::NoWindow => w.num_records_no_window += 1,
            ElementOutcome::Late => self.late_record(dst, rec, ts, now, trace),
            ElementOutcome::NoTimestamp => self.fail(NO_TIMESTAMP),
            ElementOutcome::NullRowtime => self.fail(NULL_ROWTIME),
        }
        if !self.fired.is_empty() {
            self.flush_fired(dst, now, trace);
        }
    }

    /// A record into an interval join: the first input is the left side.
    #[cold]
    fn join_record(&mut self, dst: u32, input: u8, rec: &Record, ts: EventTime, now: ProcTime, trace: &mut Trace) {
        let side = if input == 0 { Side::Left } else { Side::Right };
        let Some(j) = &mut self.windows[dst as usize].join else { return };
        let mut pairs = std::mem::take(&mut self.joined);
        pairs.clear();
        match j.process_element(side, rec.key, ts, rec.value, &mut pairs) {
            JoinOutcome::Accepted => {}
            JoinOutcome::Late => self.late_record(dst, rec, ts, now, trace),
            JoinOutcome::NoTimestamp => self.fail(NO_TIMESTAMP_JOIN),
        }
        for &p in &pairs {
            self.windows[dst as usize].num_records_out += 1;
            trace.push(now, TraceKind::Joined { subtask: dst, key: p.key, left_ts: p.left_ts, right_ts: p.right_ts });
            self.joins.push(dst, p, now);
        }
        self.joined = pairs;
    }

    /// A new job bound (a strategy command); `emitted` is the highest watermark already sent
    /// under the old one (the sources' and their chained operators': in channels, it still
    /// reaches the windows after the change).
    pub(crate) fn set_bound(&mut self, bound_ms: i64, emitted: EventTime) {
        let marks = self.windows.iter().map(|w| w.current_input_watermark());
        let lowest = marks.clone().min().unwrap_or(EventTime::MIN);
        let held = marks.max().unwrap_or(EventTime::MIN).max(emitted);
        self.late.set_bound(bound_ms, lowest, held);
    }

    /// The job fails (an exception in a Flink operator); the simulation stops within the
    /// instant with this message.
    #[cold]
    #[inline(never)]
    fn fail(&mut self, message: &str) {
        self.failure.get_or_insert_with(|| message.to_string());
    }

    #[cold]
    #[inline(never)]
    fn late_record(&mut self, dst: u32, rec: &Record, ts: EventTime, now: ProcTime, trace: &mut Trace) {
        let w = &mut self.windows[dst as usize];
        let watermark = w.current_input_watermark();
        let side_output = self.late.side_output;
        if side_output {
            w.num_late_records_side_output += 1;
        } else {
            w.num_late_records_dropped += 1;
        }
        let (partition, offset, key, value) = (rec.partition, rec.offset, rec.key, rec.value);
        trace.push(now, TraceKind::LateRecord { subtask: dst, partition, offset, ts, key, watermark, side_output });
        self.late.add(LateRecord { subtask: dst, partition, offset, ts, key, value, watermark, side_output, time: now });
    }

    fn process_signal(&mut self, src: u32, dst: u32, sig: Signal, now: ProcTime, trace: &mut Trace) {
        let w = &mut self.windows[dst as usize];
        let Some((input, ch)) = w.input.channel_of(src) else { return };
        self.valve_out.clear();
        w.input.input_signal(input, ch, sig, &mut self.valve_out);
        for i in 0..self.valve_out.len() {
            let out = self.valve_out[i];
            let w = &mut self.windows[dst as usize];
            match out {
                Signal::Watermark(x) => {
                    trace.push(now, TraceKind::OperatorWatermark { subtask: dst, watermark: x });
                    w.last_watermark_at = Some(now);
                    let h = &mut self.watermark_history[dst as usize];
                    if h.len() < HISTORY_LIMIT {
                        h.push((now, x));
                    }
                    match &mut w.join {
                        Some(j) => j.advance_watermark(x),
                        None => w.op.advance_watermark(x, &mut self.fired),
                    }
                    self.flush_fired(dst, now, trace);
                    // Results precede the watermark that fired them; then it is forwarded.
                    self.windows[dst as usize].current_output_watermark = x;
                }
                Signal::Status(s) => {
                    match s {
                        WatermarkStatus::Idle => w.idle_since = Some(now),
                        WatermarkStatus::Active => {
                            if let Some(t) = w.idle_since.take() {
                                w.idle_time_ms += now - t;
                            }
                        }
                    }
                    trace.push(now, TraceKind::OperatorStatus { subtask: dst, status: s });
                }
            }
        }
    }

    fn flush_fired(&mut self, dst: u32, now: ProcTime, trace: &mut Trace) {
        for f in self.fired.drain(..) {
            self.windows[dst as usize].num_records_out += 1;
            trace.push(
                now,
                TraceKind::WindowFired {
                    subtask: dst,
                    key: f.key,
                    start: f.start,
                    end: f.end,
                    count: f.agg.count,
                    sum: f.agg.sum,
                    watermark: f.watermark,
                    firing: f.firing,
                    kind: f.kind,
                },
            );
            self.sink.write(WindowResult {
                subtask: dst,
                key: f.key,
                start: f.start,
                end: f.end,
                agg: f.agg,
                watermark: f.watermark,
                firing: f.firing,
                kind: f.kind,
                time: now,
            });
        }
    }
}

/// Per global source subtask, the window subtasks it is connected to: its own index within
/// its source for `forward`, every window subtask otherwise.
fn source_targets(cfg: &JobConfig) -> Vec<Vec<u32>> {
    let q = cfg.window_parallelism;
    let mut targets = Vec::new();
    for ic in &cfg.inputs {
        for i in 0..ic.source_parallelism {
            targets.push(match ic.exchange {
                Exchange::Forward => vec![i],
                _ => (0..q).collect(),
            });
        }
    }
    targets
}

/// The channels of window subtask `dst`, per logical input: a union merges both sources'
/// channels into one input gate (reference §6.1); `connect` keeps one per input.
fn channel_sources(cfg: &JobConfig, targets: &[Vec<u32>], dst: u32) -> Vec<Vec<u32>> {
    let logical = if cfg.two_logical_inputs() { 2 } else { 1 };
    let mut per_input = vec![Vec::new(); logical];
    let mut src = 0u32;
    for (input, ic) in cfg.inputs.iter().enumerate() {
        for _ in 0..ic.source_parallelism {
            if targets[src as usize].contains(&dst) {
                per_input[input.min(logical - 1)].push(src);
            }
            src += 1;
        }
    }
    per_input
}

/// The chained operator after each global source subtask; empty when no input has one.
fn chained(cfg: &JobConfig) -> Vec<Option<Midstream>> {
    if cfg.inputs.iter().all(|i| i.midstream.is_none()) {
        return Vec::new();
    }
    let (interval, forwards) = (cfg.auto_watermark_interval_ms, cfg.midstream_forwards_status);
    let per_subtask = |i: &InputConfig| {
        (0..i.source_parallelism).map(move |_| i.midstream.map(|m| Midstream::new(m, interval, forwards))).collect::<Vec<_>>()
    };
    cfg.inputs.iter().flat_map(per_subtask).collect()
}
