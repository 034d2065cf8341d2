//! `on(event, cb)`: listeners, and the deltas that feed them.
//!
//! Nothing calls into JS while the engine runs. A call that advances the job collects what
//! happened — window emissions from the sink and an interval join's pairs (complete, in emission
//! order), late records from
//! the late-record buffer, watermark and idle/active changes from the trace ring — and the
//! callbacks run at the end of the call, after the engine has returned, in processing-time
//! order (within one millisecond: trace order for watermark/idle/active, then windows, then
//! late records; `step` last). While listeners exist, the run loop's observer pulls the deltas
//! before the bounded trace ring, late buffer or sink can drop them.

use super::error::ApiResult;
use crate::engine::deltas::Cursor;
use crate::engine::diagnosis::lag::LagCrossing;
use crate::engine::diagnosis::lag::LagWatch;
use crate::engine::observer::Observer;
use crate::engine::sim::Simulation;
use crate::engine::time::ProcTime;
use crate::engine::trace::TraceKind;
use crate::engine::view::notify::{Level, StatusEvent, WatermarkEvent};
use crate::engine::view::results::{JoinEmission, LateRecordView, WindowEmission};
use std::cell::RefCell;
use std::ops::ControlFlow;
use std::rc::{Rc, Weak};
use wasm_bindgen::prelude::*;

/// The events `on()` accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind {
    Window,
    /// A pair an interval join emitted.
    Join,
    Late,
    Watermark,
    Idle,
    Active,
    Step,
    /// Event-time lag crossed the alert threshold (`setLagAlert`), up or down.
    Lag,
}

impl EventKind {
    pub const NAMES: [&'static str; 8] = ["window", "join", "late", "watermark", "idle", "active", "step", "lag"];

    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "window" => EventKind::Window,
            "join" => EventKind::Join,
            "late" => EventKind::Late,
            "watermark" => EventKind::Watermark,
            "idle" => EventKind::Idle,
            "active" => EventKind::Active,
            "step" => EventKind::Step,
            "lag" => EventKind::Lag,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    /// Fed from the trace ring.
    pub fn from_trace(self) -> bool {
        matches!(self, EventKind::Watermark | EventKind::Idle | EventKind::Active)
    }
}

/// Which kinds currently have listeners: one bit per `EventKind`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wants(u8);

impl Wants {
    /// Exactly `kinds`.
    pub const fn of(kinds: &[EventKind]) -> Self {
        let mut bits = 0;
        let mut i = 0;
        while i < kinds.len() {
            bits |= 1 << kinds[i] as u8;
            i += 1;
        }
        Wants(bits)
    }
    pub fn trace(&self) -> bool {
        self.wants(EventKind::Watermark) || self.wants(EventKind::Idle) || self.wants(EventKind::Active)
    }
    /// Runs must be watched instant by instant so that nothing is dropped before it is pulled
    /// (the trace ring, the late buffer and the sink are all bounded).
    pub fn needs_pull(&self) -> bool {
        self.trace() || self.wants(EventKind::Late) || self.wants(EventKind::Window) || self.wants(EventKind::Join)
    }
    /// Adds kind `k`.
    pub fn set(&mut self, k: EventKind) {
        self.0 |= 1 << k as u8;
    }
    pub fn wants(&self, k: EventKind) -> bool {
        self.0 & (1 << k as u8) != 0
    }
}

struct Listener {
    id: u32,
    kind: EventKind,
    callback: js_sys::Function,
}

/// The registered callbacks of one playground.
#[derive(Default)]
pub struct Listeners {
    next_id: u32,
    list: Vec<Listener>,
}

impl Listeners {
    pub fn add(&mut self, kind: EventKind, callback: js_sys::Function) -> u32 {
        self.next_id += 1;
        self.list.push(Listener { id: self.next_id, kind, callback });
        self.next_id
    }

    pub fn remove(&mut self, id: u32) {
        self.list.retain(|l| l.id != id);
    }

    pub fn wants(&self) -> Wants {
        let mut w = Wants::default();
        self.list.iter().for_each(|l| w.set(l.kind));
        w
    }

    fn callbacks(&self, kind: EventKind) -> Vec<js_sys::Function> {
        self.list.iter().filter(|l| l.kind == kind).map(|l| l.callback.clone()).collect()
    }
}

/// What `on()` returns: `remove()` unsubscribes (calling it again does nothing).
#[wasm_bindgen]
pub struct Subscription {
    listeners: Weak<RefCell<Listeners>>,
    id: u32,
}

impl Subscription {
    pub fn new(listeners: &Rc<RefCell<Listeners>>, id: u32) -> Self {
        Subscription { listeners: Rc::downgrade(listeners), id }
    }
}

#[wasm_bindgen]
impl Subscription {
    /// Removes the listener; harmless if it is already gone or the playground was freed.
    pub fn remove(&self) {
        if let Some(l) = self.listeners.upgrade() {
            if let Ok(mut l) = l.try_borrow_mut() {
                l.remove(self.id);
            }
        }
    }
}

pub use crate::engine::view::notify::StepEvent;

struct Pending {
    time: ProcTime,
    /// 0 trace events, 1 windows and joined pairs, 2 late records, 3 the step event.
    class: u8,
    kind: EventKind,
    payload: Payload,
}

/// An event as it waits to be handed over: typed, made JSON only a chunk at a time when it is.
/// An instant can emit tens of thousands of window results (seed 001's heartbeat fires 18,000
/// at once), and held as `serde_json::Value`s they took ~2.7 KB each (48 MB of wasm memory
/// that never came back).
#[derive(serde::Serialize)]
#[serde(untagged)]
enum Payload {
    Window(WindowEmission),
    Join(JoinEmission),
    Late(LateRecordView),
    Watermark(WatermarkEvent),
    Status(StatusEvent),
    Lag(LagCrossing),
    Step(StepEvent),
}

/// Where the listeners stand in the engine's streams, and the events collected during the
/// current call.
#[derive(Default)]
pub struct Collector {
    cursor: Cursor,
    buffer: Vec<Pending>,
    /// The lag alert (`setLagAlert`), watched instant by instant while `lag` has listeners.
    pub lag_watch: Option<LagWatch>,
}

pub use crate::engine::deltas::MAX_BATCH;

/// The run-loop observer of one call: pulls deltas before the bounded trace or late buffer
/// can drop them, while listeners need them.
pub struct Pull<'a> {
    pub collector: &'a mut Collector,
    pub wants: Wants,
    /// Stop the run once [`MAX_BATCH`] events wait (a run call hands them over and goes on);
    /// a call that must not stop early (a step, a search) collects them all.
    pub batched: bool,
}

impl Observer for Pull<'_> {
    fn after_instant(&mut self, sim: &Simulation) -> ControlFlow<()> {
        if self.wants.needs_pull() {
            self.collector.maybe_pull(sim, self.wants);
        }
        if self.wants.wants(EventKind::Lag) {
            self.collector.look_at_lag(sim);
        }
        if self.batched && self.collector.buffer.len() >= MAX_BATCH {
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }
}

impl Collector {
    /// Skips everything so far (a fresh simulation, or a listener kind that just appeared).
    pub fn reset(&mut self, sim: &Simulation) {
        self.cursor = Cursor::at_end(sim);
        self.buffer.clear();
        if let Some(w) = &mut self.lag_watch {
            *w = LagWatch::new(w.threshold_ms());
        }
    }

    /// Queues the lag alert's crossings since the last look.
    fn look_at_lag(&mut self, sim: &Simulation) {
        let Some(w) = &mut self.lag_watch else { return };
        for c in w.look(sim) {
            self.buffer.push(Pending { time: c.time, class: 0, kind: EventKind::Lag, payload: Payload::Lag(c) });
        }
    }

    /// Pulls when the trace or the late buffer could otherwise drop something before the end of
    /// the call, and at most [`MAX_BATCH`] at a time, so that a run can stop to hand them over
    /// (called after each instant while `wants.needs_pull()`).
    fn maybe_pull(&mut self, sim: &Simulation, wants: Wants) {
        let cfg = sim.config();
        if wants.trace() && self.cursor.trace_waiting(sim) >= due(Some(cfg.trace_capacity as u64)) {
            self.pull_trace(sim, wants);
        }
        if wants.wants(EventKind::Late) && self.cursor.late_waiting(sim) >= due(Some(cfg.late_records_retained as u64)) {
            self.pull_late(sim);
        }
        // The sink keeps the newest `window_results_retained` results: pull before it drops any.
        let kept = cfg.window_results_retained.map(|k| k as u64);
        if wants.wants(EventKind::Window) && (sim.downstream().sink.total() - self.cursor.windows) as u64 >= due(kept) {
            self.pull_windows(sim, wants);
        }
        if wants.wants(EventKind::Join) && sim.downstream().joins.total() - self.cursor.joins >= due(kept) {
            self.pull_joins(sim, wants);
        }
    }

    fn pull_trace(&mut self, sim: &Simulation, wants: Wants) {
        if !wants.trace() {
            self.cursor.trace = sim.trace().cursor();
            return;
        }
        let (events, _lost) = self.cursor.read_trace(sim);
        for e in &events {
            let (kind, level, subtask, partition, watermark) = match e.kind {
                TraceKind::SplitWatermark { subtask, partition, watermark } => {
                    (EventKind::Watermark, Level::Split, subtask, Some(partition), Some(watermark))
                }
                TraceKind::SourceWatermark { subtask, watermark } => (EventKind::Watermark, Level::Source, subtask, None, Some(watermark)),
                TraceKind::OperatorWatermark { subtask, watermark } => {
                    (EventKind::Watermark, Level::Operator, subtask, None, Some(watermark))
                }
                TraceKind::SplitIdle { subtask, partition } => (EventKind::Idle, Level::Split, subtask, Some(partition), None),
                TraceKind::SplitActive { subtask, partition } => (EventKind::Active, Level::Split, subtask, Some(partition), None),
                TraceKind::SourceStatus { subtask, status } => {
                    (if status.is_idle() { EventKind::Idle } else { EventKind::Active }, Level::Source, subtask, None, None)
                }
                TraceKind::OperatorStatus { subtask, status } => {
                    (if status.is_idle() { EventKind::Idle } else { EventKind::Active }, Level::Operator, subtask, None, None)
                }
                TraceKind::MidstreamWatermark { subtask, watermark } => {
                    (EventKind::Watermark, Level::Chained, subtask, None, Some(watermark))
                }
                TraceKind::MidstreamStatus { subtask, status } => {
                    (if status.is_idle() { EventKind::Idle } else { EventKind::Active }, Level::Chained, subtask, None, None)
                }
                TraceKind::Command { .. }
                | TraceKind::RecordRead { .. }
                | TraceKind::RecordFiltered { .. }
                | TraceKind::SplitAdded { .. }
                | TraceKind::SplitReleased { .. }
                | TraceKind::EndOfInputDropped { .. }
                | TraceKind::SplitPaused { .. }
                | TraceKind::SplitResumed { .. }
                | TraceKind::AlignmentBlocked { .. }
                | TraceKind::AlignmentUnblocked { .. }
                | TraceKind::BackPressure { .. }
                | TraceKind::WindowFired { .. }
                | TraceKind::Joined { .. }
                | TraceKind::LateRecord { .. }
                | TraceKind::CheckpointCompleted { .. }
                | TraceKind::TaskManagerLost { .. }
                | TraceKind::JobFailed { .. }
                | TraceKind::JobRestarted { .. } => continue,
            };
            if !wants.wants(kind) {
                continue;
            }
            let payload = match watermark {
                Some(w) => Payload::Watermark(WatermarkEvent { seq: e.seq, time: e.time, level, subtask, partition, watermark: w }),
                None => Payload::Status(StatusEvent { seq: e.seq, time: e.time, level, subtask, partition }),
            };
            self.buffer.push(Pending { time: e.time, class: 0, kind, payload });
        }
    }

    fn pull_late(&mut self, sim: &Simulation) {
        for (_, l) in self.cursor.read_late(sim) {
            let payload = Payload::Late(LateRecordView::new(l, sim.keys()));
            self.buffer.push(Pending { time: l.time, class: 2, kind: EventKind::Late, payload });
        }
    }

    fn pull_windows(&mut self, sim: &Simulation, wants: Wants) {
        if !wants.wants(EventKind::Window) {
            self.cursor.windows = sim.downstream().sink.total();
            return;
        }
        let agg = sim.config().aggregate;
        for (i, r) in self.cursor.read_windows(sim) {
            let payload = Payload::Window(WindowEmission::new(i, r, sim.keys(), agg));
            self.buffer.push(Pending { time: r.time, class: 1, kind: EventKind::Window, payload });
        }
    }

    fn pull_joins(&mut self, sim: &Simulation, wants: Wants) {
        if !wants.wants(EventKind::Join) {
            self.cursor.joins = sim.downstream().joins.total();
            return;
        }
        for (i, r) in self.cursor.read_joins(sim) {
            let payload = Payload::Join(JoinEmission::new(i, r, sim.keys()));
            self.buffer.push(Pending { time: r.time, class: 1, kind: EventKind::Join, payload });
        }
    }

    /// Ends a call: pulls the rest, adds the `step` event and returns the batch to dispatch.
    pub fn finish(&mut self, sim: &Simulation, wants: Wants, step: Option<StepEvent>) -> Batch {
        self.pull_trace(sim, wants);
        if wants.wants(EventKind::Lag) {
            self.look_at_lag(sim);
        }
        if wants.wants(EventKind::Late) {
            self.pull_late(sim);
        } else {
            self.cursor.late = sim.downstream().late_total();
        }
        self.pull_windows(sim, wants);
        self.pull_joins(sim, wants);
        if let (true, Some(s)) = (wants.wants(EventKind::Step), step) {
            self.buffer.push(Pending { time: ProcTime::MAX, class: 3, kind: EventKind::Step, payload: Payload::Step(s) });
        }
        let mut pending = std::mem::take(&mut self.buffer);
        pending.sort_by_key(|p| (p.time, p.class));
        let kinds = pending.iter().map(|p| p.kind).collect();
        let payloads = pending.into_iter().map(|p| p.payload).collect();
        Batch { kinds, payloads }
    }
}

/// How many of a stream may wait before the collector pulls them, when the engine keeps the
/// newest `kept` of it (`None`: all).
fn due(kept: Option<u64>) -> u64 {
    kept.map_or(MAX_BATCH as u64, |k| (k / 2).clamp(1, MAX_BATCH as u64))
}

/// Events to hand to the callbacks, in order.
pub struct Batch {
    kinds: Vec<EventKind>,
    payloads: Vec<Payload>,
}

impl Batch {
    /// The events as (kind, JS payload), in order, made JS [`MAX_BATCH`] at a time: one JSON
    /// text of a whole burst was as big again as the burst.
    fn js_chunks(&self) -> impl Iterator<Item = ApiResult<(&[EventKind], js_sys::Array)>> {
        self.kinds.chunks(MAX_BATCH).zip(self.payloads.chunks(MAX_BATCH)).map(|(k, p)| Ok((k, super::convert::to_js(p)?.into())))
    }

    /// The events as (kind, JS payload), in order (`dom_events` dispatches them).
    pub fn into_js(self) -> Vec<(EventKind, JsValue)> {
        let mut out = Vec::with_capacity(self.kinds.len());
        for (kinds, arr) in self.js_chunks().flatten() {
            out.extend(kinds.iter().enumerate().map(|(i, k)| (*k, arr.get(i as u32))));
        }
        out
    }

    /// Calls the listeners. Every event is delivered even if a callback throws; the first
    /// exception is returned (and rethrown by the API call).
    pub fn dispatch(self, listeners: &Rc<RefCell<Listeners>>) -> Result<(), JsValue> {
        let mut first_err = None;
        for chunk in self.js_chunks() {
            let (kinds, arr) = chunk.map_err(|e| super::error::IntoJs::into_js(e, "on"))?;
            for (i, kind) in kinds.iter().enumerate() {
                let callbacks = match listeners.try_borrow() {
                    Ok(l) => l.callbacks(*kind),
                    Err(_) => continue,
                };
                if callbacks.is_empty() {
                    continue;
                }
                let payload = arr.get(i as u32);
                for cb in callbacks {
                    if let Err(e) = cb.call1(&JsValue::UNDEFINED, &payload) {
                        first_err.get_or_insert(e);
                    }
                }
            }
        }
        first_err.map_or(Ok(()), Err)
    }
}
