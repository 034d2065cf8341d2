//! The exported class. Every method is thin: parse and check the arguments (errors name them),
//! call the session, turn the answer into a plain object. Methods take `&self` and keep the
//! session borrowed only while the engine runs, so callbacks may call back into the playground.

use super::command_args::{self, commands_arg, Produce};
use super::convert::{self, from_js, index_arg, int_arg, non_negative, opt_int_arg, string_arg, to_js};
use super::error::{ApiError, ApiResult, IntoJs};
use super::events::{Collector, EventKind, Listeners, Pull, StepEvent, Subscription};
use super::queries;
use crate::engine::command::Command;
use crate::engine::scenario::schema::ProducerSpec;
use crate::engine::session::param::STRUCTURAL_PARAMS;
use crate::engine::session::Session;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// The default limit of `stepToNextInteresting()`: one hour of processing time.
pub const DEFAULT_INTERESTING_LIMIT_MS: i64 = 3_600_000;

/// A simulated Flink job (sources → keyed windows → sink), driven from JavaScript.
#[wasm_bindgen]
pub struct WatermarkPlayground {
    pub(super) inner: RefCell<Inner>,
    listeners: Rc<RefCell<Listeners>>,
}

/// The engine session and where the listeners stand in its streams.
pub(super) struct Inner {
    session: Session,
    pub(super) collector: Collector,
}

impl WatermarkPlayground {
    pub(super) fn wrap(session: Session) -> Self {
        let mut collector = Collector::default();
        collector.reset(session.sim());
        WatermarkPlayground { inner: RefCell::new(Inner { session, collector }), listeners: Rc::new(RefCell::new(Listeners::default())) }
    }

    pub(super) fn busy(method: &str) -> JsValue {
        ApiError::invalid("", "the playground is busy (called from inside its own call)").into_js(method)
    }

    /// Runs a call that may change the job, then hands its events to the listeners (after the
    /// session is released). `advancing` calls also fire `step`.
    pub(super) fn change<T>(
        &self,
        method: &str,
        advancing: bool,
        f: impl FnOnce(&mut Session, &mut Pull) -> ApiResult<T>,
    ) -> Result<T, JsValue> {
        let (result, dispatched) = self.delivered(method, false, |_| advancing, f)?;
        let value = result.map_err(|e| e.into_js(method))?;
        dispatched?;
        Ok(value)
    }

    /// A run call (`runUntil`, `runFor`, `runToEnd`): `first` (the call with its checks), then
    /// `rest` until it says it got there. Each time the run stops at about
    /// [`MAX_BATCH`](super::events::MAX_BATCH) waiting events (an instant is never split), the
    /// listeners get them with the engine released, so a long run's events never pile up in
    /// memory; a listener may call back in meanwhile (`rest` goes on without the call's checks,
    /// to a time a nested run may have passed). The `step` event comes once, at the end; a
    /// listener's exception is rethrown there, the run having gone on.
    pub(super) fn run_in_batches(
        &self,
        method: &str,
        first: impl FnOnce(&mut Session, &mut Pull) -> ApiResult<bool>,
        mut rest: impl FnMut(&mut Session, &mut Pull) -> ApiResult<bool>,
    ) -> Result<(), JsValue> {
        let mut thrown = None;
        let mut first = Some(first);
        loop {
            let (result, dispatched) = match first.take() {
                Some(f) => self.delivered(method, true, |got_there| *got_there, f)?,
                None => self.delivered(method, true, |got_there| *got_there, &mut rest)?,
            };
            if let Err(e) = dispatched {
                thrown.get_or_insert(e);
            }
            if result.map_err(|e| e.into_js(method))? {
                return thrown.map_or(Ok(()), Err);
            }
        }
    }

    /// Runs `f` on the session, then hands what it collected to the listeners: its result, and
    /// the first exception a listener threw. `advancing` judges from the result whether the
    /// clock moved (a `step` event); `batched`: the run may stop at a full batch.
    fn delivered<T>(
        &self,
        method: &str,
        batched: bool,
        advancing: impl FnOnce(&T) -> bool,
        f: impl FnOnce(&mut Session, &mut Pull) -> ApiResult<T>,
    ) -> Result<(ApiResult<T>, Result<(), JsValue>), JsValue> {
        let wants = self.listeners.try_borrow().map(|l| l.wants()).unwrap_or_default();
        let (result, batch) = {
            let mut guard = self.inner.try_borrow_mut().map_err(|_| Self::busy(method))?;
            let Inner { session: s, collector } = &mut *guard;
            let result = f(s, &mut Pull { collector, wants, batched });
            let step = result.as_ref().is_ok_and(advancing).then(|| StepEvent { now: s.now(), elapsed_ms: s.elapsed() });
            let batch = collector.finish(s.sim(), wants, step);
            (result, batch)
        };
        Ok((result, batch.dispatch(&self.listeners)))
    }

    /// A read-only call.
    pub(super) fn read<T>(&self, method: &str, f: impl FnOnce(&Session) -> ApiResult<T>) -> Result<T, JsValue> {
        let inner = self.inner.try_borrow().map_err(|_| Self::busy(method))?;
        f(&inner.session).map_err(|e| e.into_js(method))
    }

    /// A command that names one partition.
    fn partition_command(&self, method: &str, partition: JsValue) -> Result<(), JsValue> {
        let p = index_arg(&partition, "partition").map_err(|e| e.into_js(method))?;
        self.change(method, true, |s, w| s.apply_now(vec![command_args::partition_command(method, p)], &[String::new()], w))
    }

    /// After the job was rebuilt (a structural parameter): the listeners start from here.
    pub(super) fn rebuilt(&self) {
        if let Ok(mut inner) = self.inner.try_borrow_mut() {
            let Inner { session, collector } = &mut *inner;
            collector.reset(session.sim());
        }
    }
}

queries::session_reads!(WatermarkPlayground);
command_args::partition_methods!(WatermarkPlayground);

#[wasm_bindgen]
impl WatermarkPlayground {
    // ---- the clock ------------------------------------------------------------------------

    /// Processing time now (ms since the epoch; the start time before the first instant).
    #[wasm_bindgen(getter)]
    pub fn now(&self) -> Result<f64, JsValue> {
        self.read("now", |s| Ok(s.now().ms() as f64))
    }

    /// Processing time since the start (−1 before the first instant ran).
    #[wasm_bindgen(getter, js_name = elapsedMs)]
    pub fn elapsed_ms(&self) -> Result<f64, JsValue> {
        self.read("elapsedMs", |s| Ok(s.elapsed() as f64))
    }

    #[wasm_bindgen(getter, js_name = startTime)]
    pub fn start_time(&self) -> Result<f64, JsValue> {
        self.read("startTime", |s| Ok(s.start().ms() as f64))
    }

    /// Whether the first instant has run.
    #[wasm_bindgen(getter)]
    pub fn started(&self) -> Result<bool, JsValue> {
        self.read("started", |s| Ok(s.started()))
    }

    /// Whether `runToEnd()` applied the end of input (no more commands or time then).
    #[wasm_bindgen(getter)]
    pub fn finished(&self) -> Result<bool, JsValue> {
        self.read("finished", |s| Ok(s.finished()))
    }

    /// The scenario's name.
    #[wasm_bindgen(getter)]
    pub fn name(&self) -> Result<String, JsValue> {
        self.read("name", |s| Ok(s.scenario().name.clone()))
    }

    /// The trace cursor: the sequence number the next trace event will get.
    #[wasm_bindgen(getter)]
    pub fn cursor(&self) -> Result<f64, JsValue> {
        self.read("cursor", |s| Ok(s.sim().trace().cursor() as f64))
    }

    /// The 64-bit fingerprint of every trace event so far (16 hex digits), as `wmp run` prints.
    #[wasm_bindgen(getter, js_name = traceHash)]
    pub fn trace_hash(&self) -> Result<String, JsValue> {
        self.read("traceHash", |s| Ok(s.sim().trace().hash_hex()))
    }

    // ---- time -----------------------------------------------------------------------------

    /// Processes the next instant at which anything happens; returns its time since the start,
    /// or `null` when nothing will ever happen again.
    pub fn step(&self) -> Result<JsValue, JsValue> {
        let t = self.change("step", true, |s, w| s.step(w))?;
        Ok(t.map_or(JsValue::NULL, |t| JsValue::from_f64(t as f64)))
    }

    /// Processes every instant up to `atMs` after the start (the clock of `commands[].at_ms`).
    #[wasm_bindgen(js_name = runUntil)]
    pub fn run_until(&self, at_ms: JsValue) -> Result<(), JsValue> {
        let m = "runUntil";
        let at = int_arg(&at_ms, "atMs").map_err(|e| e.into_js(m))?;
        let to = self.read(m, |s| Ok(s.start().saturating_add(at)))?;
        self.run_in_batches(m, |s, w| s.run_until(at, w), |s, w| s.run_on(to, w))
    }

    /// Processes the next `ms` milliseconds.
    #[wasm_bindgen(js_name = runFor)]
    pub fn run_for(&self, ms: JsValue) -> Result<(), JsValue> {
        let m = "runFor";
        let ms = non_negative(&ms, "ms").map_err(|e| e.into_js(m))?;
        let to = self.read(m, |s| Ok(s.now().saturating_add(ms)))?;
        self.run_in_batches(m, |s, w| s.run_for(ms, w), |s, w| s.run_on(to, w))
    }

    /// Steps until something interesting happens (an operator watermark advance, a window, a
    /// late record, an idle/active flip) or `limitMs` passes (default one hour). Returns
    /// whether something interesting happened.
    #[wasm_bindgen(js_name = stepToNextInteresting)]
    pub fn step_to_next_interesting(&self, limit_ms: JsValue) -> Result<bool, JsValue> {
        let m = "stepToNextInteresting";
        let limit = opt_int_arg(&limit_ms, "limitMs", DEFAULT_INTERESTING_LIMIT_MS).map_err(|e| e.into_js(m))?;
        if limit < 1 {
            return Err(ApiError::new("limitMs", format!("must be >= 1, got {limit}")).into_js(m));
        }
        self.change(m, true, |s, w| s.step_to_next_interesting(limit, w))
    }

    /// What `wmp run` does: runs to `duration_ms` after the start, then applies the end of
    /// input if the scenario says `end_of_input: true` (the job is finished then).
    #[wasm_bindgen(js_name = runToEnd)]
    pub fn run_to_end(&self) -> Result<(), JsValue> {
        let end = self.read("runToEnd", |s| Ok(s.end_of_run()))?;
        self.run_in_batches("runToEnd", |s, w| s.run_to_end(w), |s, w| s.end_run(end, w))
    }

    // ---- commands (each runs the next instant, command first) -----------------------------

    /// Adds a partition (its split is assigned at once); returns its index.
    #[wasm_bindgen(js_name = addPartition)]
    pub fn add_partition(&self) -> Result<u32, JsValue> {
        self.change("addPartition", true, |s, w| command_args::add_partition(s, w))
    }

    /// Appends one record or an array of records to a partition; returns how many.
    pub fn produce(&self, partition: JsValue, records: JsValue) -> Result<u32, JsValue> {
        let m = "produce";
        let p = Produce::parse(&partition, &records).map_err(|e| e.into_js(m))?;
        self.change(m, true, |s, w| s.apply_now(vec![p.command.clone()], &[String::new()], w).map_err(|e| p.named(e)))?;
        Ok(p.count)
    }

    /// Attaches a producer (a generator: steady, burst, heartbeat, outlier, backlog) to
    /// partitions; returns the partitions it writes to.
    pub fn attach(&self, producer: JsValue) -> Result<JsValue, JsValue> {
        let m = "attach";
        let spec: ProducerSpec = from_js(&producer, "producer").map_err(|e| e.into_js(m))?;
        let parts = self.change(m, true, |s, w| {
            s.apply_now(vec![Command::AttachProducer { producer: spec.clone() }], &[String::new()], w)?;
            // In engine numbers, as the engine resolved them in that instant (after a partition
            // added in it; a named topic counts within it).
            crate::engine::session::check::producer(&spec, &s.sim().topics()).map_err(|e| e.within("producer"))
        })?;
        to_js(&parts).map_err(|e| e.into_js(m))
    }

    /// The sources emit the final `Long.MAX_VALUE` watermark.
    #[wasm_bindgen(js_name = endOfInput)]
    pub fn end_of_input(&self) -> Result<(), JsValue> {
        self.change("endOfInput", true, |s, w| s.apply_now(vec![Command::EndOfInput], &[String::new()], w))
    }

    /// Changes a parameter: the engine's `set_param` names while the job runs, plus
    /// `source_parallelism`, `window_parallelism`, `window` and `aggregate` before it starts.
    #[wasm_bindgen(js_name = setParam)]
    pub fn set_param(&self, name: JsValue, value: JsValue) -> Result<(), JsValue> {
        let m = "setParam";
        let (name, json) = command_args::param_args(&name, &value).map_err(|e| e.into_js(m))?;
        let structural = STRUCTURAL_PARAMS.contains(&name.as_str());
        self.change(m, !structural, |s, w| s.set_param_json(&name, json, w))?;
        if structural {
            self.rebuilt();
        }
        Ok(())
    }

    /// Applies engine commands (`{command: "silence", partition: 3}`, one or an array) together
    /// at the next instant.
    pub fn apply(&self, commands: JsValue) -> Result<(), JsValue> {
        let m = "apply";
        let (cmds, paths) = commands_arg(&commands).map_err(|e| e.into_js(m))?;
        self.change(m, true, |s, w| s.apply_now(cmds, &paths, w))
    }

    /// Schedules engine commands at `atMs` after the start (in the future); they run when the
    /// clock gets there, as scenario commands do.
    pub fn schedule(&self, at_ms: JsValue, commands: JsValue) -> Result<(), JsValue> {
        let m = "schedule";
        let at = int_arg(&at_ms, "atMs").map_err(|e| e.into_js(m))?;
        let (cmds, paths) = commands_arg(&commands).map_err(|e| e.into_js(m))?;
        self.change(m, false, |s, _| s.schedule_at(s.start() + at, cmds, &paths))
    }

    // ---- reads ----------------------------------------------------------------------------

    /// Trace events with `seq >= cursor` still in the bounded trace, how many were lost, and the
    /// next cursor.
    #[wasm_bindgen(js_name = eventsSince)]
    pub fn events_since(&self, cursor: JsValue) -> Result<JsValue, JsValue> {
        self.read("eventsSince", |s| queries::events_since(s, &cursor))
    }

    /// Calls `callback` for every `event` from now on: `window`, `join`, `late`, `watermark`, `idle`,
    /// `active`, `step` or `lag` (with `setLagAlert`). Callbacks run at the end of the call that produced the events.
    pub fn on(&self, event: JsValue, callback: JsValue) -> Result<Subscription, JsValue> {
        let m = "on";
        let name = string_arg(&event, "event").map_err(|e| e.into_js(m))?;
        let kind = EventKind::parse(&name)
            .ok_or_else(|| ApiError::new("event", format!("unknown event {name:?} (one of {})", EventKind::NAMES.join(", "))).into_js(m))?;
        let Some(f) = callback.dyn_ref::<js_sys::Function>() else {
            return Err(ApiError::type_("callback", format!("expected a function, got {}", convert::describe(&callback))).into_js(m));
        };
        if kind.from_trace() {
            let cap = self.read(m, |s| Ok(s.sim().config().trace_capacity))?;
            if cap == 0 {
                return Err(ApiError::invalid(
                    "event",
                    format!("the scenario keeps no trace (trace.capacity is 0), so {name:?} events cannot be delivered"),
                )
                .into_js(m));
            }
        }
        let mut l = self.listeners.try_borrow_mut().map_err(|_| Self::busy(m))?;
        let id = l.add(kind, f.clone());
        Ok(Subscription::new(&self.listeners, id))
    }

    /// The scenario that reproduces this session (the original plus every command issued, with
    /// its `at_ms`); loading it and running to the same time gives the same trace hash.
    #[wasm_bindgen(js_name = toScenario)]
    pub fn to_scenario(&self) -> Result<JsValue, JsValue> {
        self.read("toScenario", |s| to_js(&s.to_scenario()))
    }

    /// `toScenario()` as a compact, URL-safe string (`wmp1.` + base64url of the JSON).
    #[wasm_bindgen(js_name = toShareString)]
    pub fn to_share_string(&self) -> Result<String, JsValue> {
        self.read("toShareString", |s| Ok(s.to_share_string()))
    }
}
