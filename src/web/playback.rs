//! Play, pause, step, step to the next interesting change, speed — and the frame loop.
//!
//! While playing, each animation frame advances simulated processing time by
//! `elapsed wall time × speed` through the session's run loop, whose observer stops it when the
//! frame's work budget is spent: the page never freezes, and the header says "catching up" with
//! the speed reached. One snapshot is read per frame.

use super::state::{perf_now, Pg};
use crate::engine::observer::Observer;
use crate::engine::sim::Simulation;
use crate::engine::time::ProcTime;
use std::ops::ControlFlow;
use leptos::prelude::*;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The speeds the picker offers (processing time per wall-clock time).
/// The fastest speed a link or `mount()` may ask for.
pub const MAX_SPEED: f64 = super::embed_options::MAX_SPEED;

pub const SPEEDS: &[f64] = &[0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 100.0, 300.0, 1_000.0, 3_000.0, 10_000.0];

/// Engine work allowed per frame, in ms of wall time.
const FRAME_BUDGET_MS: f64 = 6.0;
/// Longest wall-time gap one frame makes up for (a background tab must not jump hours).
const MAX_FRAME_GAP_MS: f64 = 100.0;
/// How far "step to next interesting" looks ahead, in processing time.
pub const NEXT_INTERESTING_LIMIT_MS: i64 = 6 * 3_600_000;


/// The next faster / slower speed in [`SPEEDS`].
pub fn faster(s: f64) -> f64 {
    SPEEDS.iter().copied().find(|&x| x > s * 1.0001).unwrap_or(*SPEEDS.last().unwrap())
}
pub fn slower(s: f64) -> f64 {
    SPEEDS.iter().rev().copied().find(|&x| x < s * 0.9999).unwrap_or(SPEEDS[0])
}

impl Pg {
    pub fn toggle_play(&self) {
        self.playing.update(|p| *p = !*p);
        self.perf.catching_up.set(None);
        if !self.playing.get_untracked() {
            // Every view shows the state the playback stopped at.
            self.refresh();
        }
    }

    /// One engine instant (the next processing time at which anything happens).
    pub fn step_once(&self) {
        self.playing.set(false);
        match self.halted_error().and_then(|()| self.update_watched((), |s, w| s.step(w)).0) {
            Ok(Some(_)) => {}
            Ok(None) => self.info("Nothing more will happen: no producer, command or timer is pending."),
            Err(e) => self.error(format!("{e}")),
        }
        self.refresh();
    }

    /// Runs until an operator watermark moves, a window fires, a record is late or a split or
    /// subtask changes status (or six hours of processing time pass).
    pub fn step_next_interesting(&self) {
        self.playing.set(false);
        match self.halted_error().and_then(|()| self.update_watched((), |s, w| s.step_to_next_interesting(NEXT_INTERESTING_LIMIT_MS, w)).0) {
            Ok(true) => {}
            Ok(false) => self.info("Nothing interesting happened within 6 h of processing time."),
            Err(e) => self.error(format!("{e}")),
        }
        self.refresh();
    }

    /// Advances by `wall_ms × speed` of processing time within the frame budget.
    /// Returns the processing time actually advanced.
    pub fn advance_frame(&self, wall_ms: f64, carry: &mut f64) -> i64 {
        let speed = self.speed.get_untracked();
        let want = wall_ms * speed + *carry;
        let whole = want.floor();
        *carry = want - whole;
        let want = whole as i64;
        if want <= 0 {
            return 0;
        }
        let from = self.now();
        let target = from + want;
        let budget = FrameBudget { deadline: perf_now() + FRAME_BUDGET_MS, instants: 0 };
        if let (Err(e), _) = self.update_watched(budget, |s, w| s.run_until_abs(ProcTime(target), w)) {
            self.playing.set(false);
            self.stop_if_halted();
            // Stopped, not behind: the header said "catching up" beside a stopped job.
            self.perf.catching_up.set(None);
            self.error(format!("the simulation stopped: {e}"));
            // Every view shows where it stopped, as after a pause: the frame's paced refresh
            // left the graph at the frame before (No Watermark beside the WHY panel's 0.699).
            self.refresh();
            return self.now() - from;
        }
        let reached = self.now();
        if reached < target {
            *carry = 0.0;
            // Shown at most 4 times per second: a figure that changes every frame costs a
            // layout and paint every frame and cannot be read anyway.
            let effective = (reached - from) as f64 / wall_ms.max(1.0);
            let now = perf_now();
            if self.perf.catching_up.get_untracked().is_none() || now - self.pacing.with_value(|p| p.catch_up) >= 250.0 {
                self.pacing.update_value(|p| p.catch_up = now);
                self.perf.catching_up.set(Some(effective));
            }
        } else if self.perf.catching_up.get_untracked().is_some() {
            self.perf.catching_up.set(None);
        }
        reached - from
    }
}

/// Stops a run when the frame's work budget is spent, so the page never freezes. The clock is
/// read every few instants only: each reading is a call into the browser.
struct FrameBudget {
    deadline: f64,
    instants: u32,
}

impl Observer for FrameBudget {
    fn after_instant(&mut self, _: &Simulation) -> ControlFlow<()> {
        self.instants += 1;
        if self.instants.is_multiple_of(16) && perf_now() > self.deadline {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }
}

/// Starts the frame loop; the returned guard stops it when dropped (or on the owner's cleanup).
pub fn start_loop(pg: Pg) {
    let alive = Arc::new(AtomicBool::new(true));
    {
        let alive = alive.clone();
        on_cleanup(move || alive.store(false, Ordering::Relaxed));
    }
    type Cb = Closure<dyn FnMut(f64)>;
    let slot: Rc<RefCell<Option<Cb>>> = Rc::new(RefCell::new(None));
    let again = slot.clone();
    let mut last_ts: Option<f64> = None;
    let mut carry = 0.0f64;
    let mut frames: Vec<f64> = Vec::with_capacity(128);
    let mut shown = 0u64;
    let mut engine_ms = 0.0f64;
    let mut refresh_ms = 0.0f64;
    let cb: Cb = Closure::new(move |ts: f64| {
        if !alive.load(Ordering::Relaxed) {
            again.borrow_mut().take();
            return;
        }
        let dt = last_ts.map_or(0.0, |l| (ts - l).clamp(0.0, MAX_FRAME_GAP_MS));
        last_ts = Some(ts);
        if pg.offscreen() {
            // Asleep while off screen (a host's element): no catching up on return.
            last_ts = None;
        } else if pg.playing.get_untracked() {
            let t0 = perf_now();
            pg.advance_frame(dt, &mut carry);
            pg.notify_advanced();
            let t1 = perf_now();
            pg.refresh_frame();
            let t2 = perf_now();
            engine_ms = engine_ms * 0.9 + (t1 - t0) * 0.1;
            refresh_ms = refresh_ms * 0.9 + (t2 - t1) * 0.1;
            frames.push(ts);
            frames.retain(|&f| ts - f <= 1000.0);
            shown += 1;
            if shown.is_multiple_of(15) {
                pg.perf.fps.set(frames.len() as f64);
                pg.perf.frame_ms.set(engine_ms + refresh_ms);
                // For the bench script and for the curious: where a frame's time goes.
                if let Some(el) = pg.query("#perf") {
                    let _ = el.set_attribute("data-engine-ms", &format!("{engine_ms:.2}"));
                    let _ = el.set_attribute("data-refresh-ms", &format!("{refresh_ms:.2}"));
                }
            }
        } else {
            carry = 0.0;
            frames.clear();
        }
        if let Some(cb) = again.borrow().as_ref() {
            let _ = web_sys::window().unwrap().request_animation_frame(cb.as_ref().unchecked_ref());
        }
    });
    let _ = web_sys::window().unwrap().request_animation_frame(cb.as_ref().unchecked_ref());
    *slot.borrow_mut() = Some(cb);
}
