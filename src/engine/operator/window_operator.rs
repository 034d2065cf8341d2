//! Flink's `WindowOperator` with its event-time triggers (`EventTimeTrigger`, the default and
//! accumulating; `PurgingTrigger`; `ContinuousEventTimeTrigger`), allowed lateness, late side
//! output or `numLateRecordsDropped`, and state cleanup (reference §7, §8.7, §8.8; vectors
//! V-WIN-*) — and, with `WindowApi::Sql`, Flink SQL's window aggregation on the same state
//! (§10.2, `sql_window.rs`).
//!
//! Rules, with `W` the operator's current watermark and `L` the allowed lateness:
//! * `cleanupTime(w) = w.maxTimestamp + L` (`Long.MAX_VALUE` on overflow: never cleaned);
//! * a window is late iff `cleanupTime(w) <= W`; an element is late iff `ts + L <= W`;
//! * an element added to a window whose `maxTimestamp <= W` fires it at once (late firing);
//! * a watermark first sets `W`, then fires timers `<= W` in timestamp order; timers a firing
//!   registers at or below `W` fire in the same pass;
//! * a firing emits the window's contents if it has any (after a purge it has none).
//!
//! The trigger's state lives next to the window's: `WinState.timer` (the timer at `maxTimestamp`
//! is registered) and, for the continuous trigger only, `fire_times` (its `fire-time`; a map of
//! its own, so the default trigger's state stays as small as it was). Timers of a window that was merged away
//! or cleaned up are dropped with it: Flink leaves some registered, but they fire for a window
//! that no longer exists and do nothing.

use super::aggregate::Agg;
use super::assigner::WindowSpec;
use super::hot_windows::{HotWindows, NO_SLOT};
use super::session::{SessionIndex, Window};
use super::sql_window::{self, WindowApi};
use super::trigger::{first_fire_time, next_fire_time, FiringKind, TriggerSpec};
use crate::engine::fingerprint::LookupMap;
use crate::engine::keys::KeyId;
use crate::engine::time::{EventTime, NO_WATERMARK};
use std::collections::BTreeSet;

mod merging;

/// One firing of one (key, window).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WindowFiring {
    pub key: KeyId,
    pub start: EventTime,
    pub end: EventTime,
    pub agg: Agg,
    pub watermark: EventTime,
    /// How many times this window fired before: 0, 1, 2, …
    pub firing: u32,
    /// What made it fire.
    pub kind: FiringKind,
}

/// What happened to an element.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ElementOutcome {
    /// Added to at least one window.
    Accepted,
    /// Late for all its windows: side output or dropped (SQL: dropped).
    Late,
    /// In no window and not late (sliding windows with gaps): silently discarded.
    NoWindow,
    /// `Long.MIN_VALUE`, Flink's "no timestamp" marker: the tumbling and sliding assigners throw
    /// and the job fails ("Record has Long.MIN_VALUE timestamp").
    NoTimestamp,
    /// The same marker reaching a SQL window aggregation: a NULL rowtime, the job fails
    /// ([`sql_window::NULL_ROWTIME`]).
    NullRowtime,
}

#[derive(Clone, Copy, Debug)]
struct WinState {
    end: EventTime,
    agg: Agg,
    firings: u32,
    /// The trigger's event-time timer at `maxTimestamp` is registered and has not fired.
    timer: bool,
}

type Timer = (EventTime, KeyId, EventTime, EventTime);

/// `(start, key)` packed in one integer: one comparison, two hash rounds.
type StateKey = u128;

#[inline]
fn state_key(key: KeyId, start: EventTime) -> StateKey {
    ((start.ms().cast_unsigned() as u128) << 32) | key as u128
}

#[derive(Clone, Debug)]
pub struct WindowOperator {
    spec: WindowSpec,
    trigger: TriggerSpec,
    api: WindowApi,
    lateness_ms: i64,
    watermark: EventTime,
    /// Keyed by (key, window start): a key's windows never share a start (fixed sizes, and
    /// sessions of one key never overlap), so the end lives in the value. Cumulative windows do
    /// share starts; their key is the window's end instead (`key_of`).
    state: LookupMap<StateKey, WinState>,
    /// `ContinuousEventTimeTrigger`'s `fire-time` per window state (continuous trigger only).
    fire_times: LookupMap<StateKey, EventTime>,
    /// Timers at the windows' max timestamps.
    timers: BTreeSet<Timer>,
    /// The continuous trigger's timers below their window's max timestamp.
    early_timers: BTreeSet<Timer>,
    cleanups: BTreeSet<Timer>,
    sessions: SessionIndex,
    scratch: Vec<Window>,
    /// The last tumbling window assigned: most records fall into it, which saves two divisions.
    last_tumbling: Window,
    /// Each key's newest tumbling window, updated without touching `state` (see `hot_windows`).
    hot: HotWindows,
    /// Records that left the window state: cleaned up with their window, or purged by a purging
    /// trigger (for conservation checks on non-sliding windows).
    pub purged_records: u64,
    held_records: u64,
}

impl WindowOperator {
    /// The DataStream operator with the default `EventTimeTrigger`.
    pub fn new(spec: WindowSpec, lateness_ms: i64) -> Self {
        WindowOperator {
            spec,
            trigger: TriggerSpec::EventTime,
            api: WindowApi::Datastream,
            lateness_ms,
            watermark: NO_WATERMARK,
            state: LookupMap::default(),
            fire_times: LookupMap::default(),
            timers: BTreeSet::new(),
            early_timers: BTreeSet::new(),
            cleanups: BTreeSet::new(),
            sessions: SessionIndex::default(),
            scratch: Vec::new(),
            last_tumbling: (EventTime(1), EventTime(0)),
            hot: HotWindows::default(),
            purged_records: 0,
            held_records: 0,
        }
    }

    /// The same operator with `.trigger(...)`.
    pub fn with_trigger(mut self, trigger: TriggerSpec) -> Self {
        self.trigger = trigger;
        self
    }

    /// A SQL window aggregation instead (the scenario's validation keeps its lateness at 0 and
    /// its trigger the default).
    pub fn with_api(mut self, api: WindowApi) -> Self {
        self.api = api;
        self
    }

    pub fn current_watermark(&self) -> EventTime {
        self.watermark
    }

    pub fn spec(&self) -> WindowSpec {
        self.spec
    }

    pub fn trigger(&self) -> TriggerSpec {
        self.trigger
    }

    pub fn api(&self) -> WindowApi {
        self.api
    }

    /// Allowed lateness can change at runtime; windows registered before keep their cleanup time.
    pub fn set_lateness(&mut self, lateness_ms: i64) {
        self.lateness_ms = lateness_ms;
    }

    pub fn lateness_ms(&self) -> i64 {
        self.lateness_ms
    }

    /// Number of (key, window) states: Flink's window state size (a purged window keeps its
    /// trigger state and timers until it is cleaned up, and counts).
    pub fn state_size(&self) -> usize {
        self.state.len()
    }

    /// Records currently held in window state.
    pub fn records_in_state(&self) -> u64 {
        self.held_records
    }

    /// Pending trigger timers in firing order: the windows waiting for the watermark, with
    /// the number of records in each.
    pub fn pending_windows(&self) -> impl Iterator<Item = (KeyId, EventTime, EventTime, u64)> + '_ {
        let hot: std::collections::BTreeMap<(KeyId, EventTime), u64> = self.hot.pending().map(|(k, s, a)| ((k, s), a.count)).collect();
        self.timers.iter().map(move |&(_, k, s, e)| {
            let held = self.state.get(&self.key_of(k, (s, e))).map_or(0, |st| st.agg.count);
            (k, s, e, held + hot.get(&(k, s)).copied().unwrap_or(0))
        })
    }

    /// How many windows wait for their trigger timer (`pending_windows().count()`, cheaply).
    pub fn pending_count(&self) -> usize {
        self.timers.len()
    }

    /// The operator as a restore from a checkpoint of it builds it: keyed state and timers come
    /// back, the current watermark does not (it is not checkpointed: `Long.MIN_VALUE` until the
    /// first watermark arrives, reference §12). The write-back cache is folded in first.
    pub fn restored(&self) -> Self {
        let mut op = self.clone();
        op.flush_hot();
        op.hot = HotWindows::default();
        op.last_tumbling = (EventTime(1), EventTime(0));
        op.watermark = NO_WATERMARK;
        op
    }

    /// A SQL window aggregation's checkpointed watermark, restored (reference §10.2).
    pub fn restore_watermark(&mut self, w: EventTime) {
        self.watermark = w;
    }

    fn cleanup_time(&self, max_ts: EventTime) -> EventTime {
        max_ts.checked_add(self.lateness_ms).unwrap_or(EventTime::MAX)
    }

    /// The state key of window `w`: by start, except cumulative windows, which share starts.
    #[inline(always)]
    fn key_of(&self, key: KeyId, w: Window) -> StateKey {
        if matches!(self.spec, WindowSpec::Cumulate { .. }) {
            state_key(key, w.1)
        } else {
            state_key(key, w.0)
        }
    }

    /// `processElement`.
    pub fn process_element(&mut self, key: KeyId, ts: EventTime, value: i64, fired: &mut Vec<WindowFiring>) -> ElementOutcome {
        self.process_element_in(key, NO_SLOT, ts, value, fired)
    }

    /// `processElement` for a key the exchange numbered `slot` in this subtask (`NO_SLOT`: none).
    #[inline(always)]
    pub fn process_element_in(
        &mut self,
        key: KeyId,
        slot: u32,
        ts: EventTime,
        value: i64,
        fired: &mut Vec<WindowFiring>,
    ) -> ElementOutcome {
        let (s, e) = self.last_tumbling;
        if s <= ts && ts < e {
            // Fast path: the element falls into the tumbling window of the previous one. Ahead
            // of the watermark (which implies not late, lateness being >= 0) the hot slot may
            // take it without touching the state map.
            if e - 1 > self.watermark && self.hot.try_add(slot, key, s, value) {
                self.held_records += 1;
                return ElementOutcome::Accepted;
            }
            if self.cleanup_time(e - 1) > self.watermark {
                self.add_to_window(key, slot, (s, e), ts, value, fired);
                return ElementOutcome::Accepted;
            }
        }
        self.process_element_slow(key, slot, ts, value, fired)
    }

    fn process_element_slow(&mut self, key: KeyId, slot: u32, ts: EventTime, value: i64, fired: &mut Vec<WindowFiring>) -> ElementOutcome {
        if ts == EventTime::MIN {
            // Flink's tumbling and sliding assigners throw; the session assigner has no such
            // check; the table runtime rejects a NULL rowtime for every window.
            if self.api == WindowApi::Sql {
                return ElementOutcome::NullRowtime;
            }
            if !self.spec.is_merging() {
                return ElementOutcome::NoTimestamp;
            }
        }
        if self.api == WindowApi::Sql && sql_window::is_dropped(self.spec, ts, self.watermark) {
            return ElementOutcome::Late;
        }
        let mut windows = std::mem::take(&mut self.scratch);
        self.assign(ts, &mut windows);
        let mut accepted = false;
        for &w in &windows {
            let actual = if self.spec.is_merging() { self.merge_into_sessions(key, w) } else { Some(w) };
            let Some(w) = actual else { continue };
            if self.cleanup_time(w.1 - 1) <= self.watermark {
                if self.spec.is_merging() {
                    self.retire(key, w);
                }
                continue;
            }
            accepted = true;
            self.add_to_window(key, slot, w, ts, value, fired);
        }
        let no_window = windows.is_empty();
        self.scratch = windows;
        self.outcome(accepted, no_window, ts)
    }

    /// The element's windows, through the last-tumbling-window cache.
    fn assign(&mut self, ts: EventTime, windows: &mut Vec<Window>) {
        let (s, e) = self.last_tumbling;
        if s <= ts && ts < e {
            windows.clear();
            windows.push((s, e));
            return;
        }
        self.spec.assign(ts, windows);
        if matches!(self.spec, WindowSpec::Tumbling { .. }) {
            // The fast path must never take a Long.MIN_VALUE record past the check above.
            let (start, end) = windows[0];
            self.last_tumbling = (start.max(EventTime::MIN + 1), end);
        }
    }

    fn outcome(&self, accepted: bool, no_window: bool, ts: EventTime) -> ElementOutcome {
        if accepted {
            ElementOutcome::Accepted
        } else if ts.wrapping_add(self.lateness_ms) <= self.watermark {
            ElementOutcome::Late
        } else {
            debug_assert!(no_window, "a window is only skipped when the element is late");
            ElementOutcome::NoWindow
        }
    }

    #[inline(always)]
    fn add_to_window(&mut self, key: KeyId, slot: u32, w: Window, ts: EventTime, value: i64, fired: &mut Vec<WindowFiring>) {
        self.held_records += 1;
        let wm = self.watermark;
        let sk = self.key_of(key, w);
        if let Some(st) = self.state.get_mut(&sk) {
            debug_assert_eq!(st.end, w.1, "one window per (key, start)");
            st.agg.add(value);
            // The common case: the window is still ahead of the watermark and the trigger has
            // registered all it registers on an element.
            if w.1 - 1 > wm && st.timer {
                self.cache(key, slot, w.0);
                return;
            }
        } else {
            self.new_window_state(key, w);
            self.state.get_mut(&sk).expect("just inserted").agg.add(value);
        }
        self.after_add(key, w, ts, fired);
    }

    /// Lets the hot slot follow `key`'s newest tumbling window (a straggler for an older
    /// window does not move it back).
    #[inline]
    fn cache(&mut self, key: KeyId, slot: u32, start: EventTime) {
        if slot == NO_SLOT || !matches!(self.spec, WindowSpec::Tumbling { .. }) {
            return;
        }
        if self.hot.cached_start(slot).is_some_and(|c| c >= start) {
            return;
        }
        self.fold_slot(slot);
        self.hot.remember(slot, key, start);
    }

    #[cold]
    fn fold_slot(&mut self, slot: u32) {
        if let Some((k, s, delta)) = self.hot.take(slot) {
            self.state.get_mut(&state_key(k, s)).expect("a cached window has state").agg.merge(&delta);
        }
    }

    /// Folds every pending hot delta into the state map.
    fn flush_hot(&mut self) {
        let state = &mut self.state;
        self.hot.drain(|k, s, delta| state.get_mut(&state_key(k, s)).expect("a cached window has state").agg.merge(delta));
    }

    /// First element of a (key, window): create the state and register the cleanup timer.
    #[cold]
    #[inline(never)]
    fn new_window_state(&mut self, key: KeyId, w: Window) {
        let st = WinState { end: w.1, agg: Agg::default(), firings: 0, timer: false };
        self.state.insert(self.key_of(key, w), st);
        self.register_cleanup(key, w);
    }

    fn register_cleanup(&mut self, key: KeyId, w: Window) {
        let cleanup = self.cleanup_time(w.1 - 1);
        if self.lateness_ms > 0 && cleanup != EventTime::MAX {
            self.cleanups.insert((cleanup, key, w.0, w.1));
        }
    }

    /// `Trigger.onElement`: fire at once if the watermark passed the window's end, else make
    /// sure the timer at its max timestamp (and the continuous trigger's first timer) is set.
    #[cold]
    #[inline(never)]
    fn after_add(&mut self, key: KeyId, w: Window, ts: EventTime, fired: &mut Vec<WindowFiring>) {
        let max_ts = w.1 - 1;
        if max_ts <= self.watermark {
            self.fire(key, w, FiringKind::Late, fired);
            return;
        }
        let sk = self.key_of(key, w);
        let st = self.state.get_mut(&sk).expect("state exists");
        if !st.timer {
            st.timer = true;
            self.timers.insert((max_ts, key, w.0, w.1));
        }
        if let Some(interval) = self.trigger.interval_ms() {
            if !self.fire_times.contains_key(&sk) {
                self.register_fire_time(key, w, first_fire_time(ts, interval, max_ts));
            }
        }
    }

    /// The continuous trigger's `fire-time` becomes `t`, with its timer (at `maxTimestamp` that
    /// is the window's own timer).
    fn register_fire_time(&mut self, key: KeyId, w: Window, t: EventTime) {
        let sk = self.key_of(key, w);
        self.fire_times.insert(sk, t);
        let st = self.state.get_mut(&sk).expect("state exists");
        if t < w.1 - 1 {
            self.early_timers.insert((t, key, w.0, w.1));
        } else if !st.timer {
            st.timer = true;
            self.timers.insert((t, key, w.0, w.1));
        }
    }

    /// FIRE (or FIRE_AND_PURGE): emits the contents, if the window has any.
    fn fire(&mut self, key: KeyId, w: Window, kind: FiringKind, fired: &mut Vec<WindowFiring>) {
        let purge = self.trigger.purges();
        let sk = self.key_of(key, w);
        let st = self.state.get_mut(&sk).expect("a firing window has state");
        if st.agg.count == 0 {
            return;
        }
        fired.push(WindowFiring { key, start: w.0, end: w.1, agg: st.agg, watermark: self.watermark, firing: st.firings, kind });
        st.firings += 1;
        if purge {
            let n = std::mem::take(&mut st.agg).count;
            self.held_records -= n;
            self.purged_records += n;
        }
    }

    /// `clear` of the continuous trigger: its `fire-time` and that timer go (the end's timer is
    /// the caller's).
    fn take_fire_time(&mut self, key: KeyId, w: Window) -> Option<EventTime> {
        let t = self.fire_times.remove(&self.key_of(key, w))?;
        self.early_timers.remove(&(t, key, w.0, w.1));
        Some(t)
    }

    fn retire(&mut self, key: KeyId, w: Window) {
        self.sessions.remove(key, w);
        self.remove_state(key, w);
    }

    fn remove_state(&mut self, key: KeyId, w: Window) {
        if let Some(st) = self.state.remove(&self.key_of(key, w)) {
            self.purged_records += st.agg.count;
            self.held_records -= st.agg.count;
            if self.trigger.interval_ms().is_some() {
                self.take_fire_time(key, w);
            }
        }
        self.timers.remove(&(w.1 - 1, key, w.0, w.1));
        if self.spec.is_merging() {
            self.sessions.remove(key, w);
        }
    }

    /// `processWatermark`: set W, fire the due trigger timers in timestamp order, then clean up.
    /// The valve only forwards increasing watermarks; one at or below W can only follow a
    /// restored SQL watermark (`restore_watermark`) and changes nothing.
    pub fn advance_watermark(&mut self, w: EventTime, fired: &mut Vec<WindowFiring>) {
        if w <= self.watermark {
            return;
        }
        // Only a firing or a cleanup reads the state map; with many channels the watermark
        // advances far more often than a window is due (a wide job advances each subtask's
        // watermark ~80 times a second), so the cached deltas stay put until then.
        let due = |set: &BTreeSet<Timer>| set.first().is_some_and(|t| t.0 <= w);
        if due(&self.timers) || due(&self.early_timers) || due(&self.cleanups) {
            self.flush_hot();
        }
        self.watermark = w;
        while let Some(timer) = self.next_due_timer(w) {
            self.on_event_time(timer, fired);
        }
        while let Some(&(t, key, s, e)) = self.cleanups.first() {
            if t > w {
                break;
            }
            self.cleanups.pop_first();
            self.remove_state(key, (s, e));
        }
    }

    /// The earliest trigger timer due at `w`, taken from its set (the default trigger has no
    /// early timers, and its loop never looks at them twice).
    #[inline]
    fn next_due_timer(&mut self, w: EventTime) -> Option<(Timer, bool)> {
        let on_time = self.timers.first().filter(|t| t.0 <= w).copied();
        let early = self.early_timers.first().filter(|t| t.0 <= w).copied();
        match (on_time, early) {
            (Some(a), Some(b)) if b < a => self.early_timers.pop_first().map(|t| (t, true)),
            (Some(_), _) => self.timers.pop_first().map(|t| (t, false)),
            (None, Some(_)) => self.early_timers.pop_first().map(|t| (t, true)),
            (None, None) => None,
        }
    }

    /// `onEventTime` for one of a window's trigger timers.
    fn on_event_time(&mut self, ((t, key, s, e), early): (Timer, bool), fired: &mut Vec<WindowFiring>) {
        let sk = self.key_of(key, (s, e));
        let Some(st) = self.state.get_mut(&sk) else { return };
        if early {
            debug_assert_eq!(self.fire_times.get(&sk), Some(&t), "a window's early timer is its fire-time");
            // ContinuousEventTimeTrigger: the next interval, at most the window's end.
            let interval = self.trigger.interval_ms().expect("only the continuous trigger sets early timers");
            self.register_fire_time(key, (s, e), next_fire_time(t, interval, e - 1));
            self.fire(key, (s, e), FiringKind::Early, fired);
            return;
        }
        st.timer = false;
        self.fire(key, (s, e), FiringKind::OnTime, fired);
        // With L = 0 the trigger timer is also the cleanup timer (fire, then clear).
        let cleanup = self.cleanup_time(t);
        if cleanup <= self.watermark {
            self.remove_state(key, (s, e));
        } else if cleanup != EventTime::MAX {
            self.cleanups.insert((cleanup, key, s, e));
        }
    }
}

#[cfg(test)]
mod tests;
