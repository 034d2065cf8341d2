//! The simulation's events as DOM `CustomEvent`s (`window`, `join`, `late`, `watermark`, `idle`,
//! `active`), bubbling and composed, dispatched at a host's target (`mount(el, {eventTarget})`,
//! the `<watermark-playground>` element); the iframe's bridge (`bridge`) posts the same events
//! through [`feed`]. The payloads (`event.detail`) are
//! those of the JS API's `on()`: the same [`Collector`] pulls them from the engine's deltas,
//! after every frame and action of the mounted UI (`Pg::notify_advanced`), and they are
//! dispatched once the engine is released, so a listener may call back into the playground.
//!
//! The collector reads the engine's bounded trace ring, late buffer and sink after every instant
//! (`host::AfterInstant`), as the JS API's `on()` does, so a long advance loses nothing.

use super::events::{Collector, EventKind, Pull, Wants};
use crate::engine::observer::Observer;
use crate::web::host::{AfterAdvance, AfterInstant, Resync};
use crate::web::Pg;
use leptos::prelude::*;
use std::cell::{Cell, RefCell};
use std::ops::ControlFlow;
use std::rc::Rc;
use wasm_bindgen::JsValue;

/// Every kind a host can listen to (not the JS API's `step` and `lag`).
pub const ALL: Wants =
    Wants::of(&[EventKind::Window, EventKind::Join, EventKind::Late, EventKind::Watermark, EventKind::Idle, EventKind::Active]);

/// Where a mounted playground's events go, one call per event, once the engine is released.
pub type Sink = Rc<dyn Fn(EventKind, &JsValue)>;

/// From now on, `pg`'s events are dispatched at `target`.
pub fn install(pg: Pg, target: web_sys::EventTarget) {
    feed(pg, Rc::new(Cell::new(ALL)), Rc::new(move |kind, detail| dispatch(&target, kind, detail)));
}

/// From now on, `pg`'s events of the kinds in `wants` (read at every advance) go to `sink`.
/// They are read after every instant (the UI's trace ring, late buffer and sink are bounded)
/// and handed over after every advance.
pub fn feed(pg: Pg, wants: Rc<Cell<Wants>>, sink: Sink) {
    let generation = pg.host.with_value(|h| h.generation);
    let mut collector = Collector::default();
    pg.with_sim(|s| collector.reset(s));
    let state = Rc::new(RefCell::new((collector, generation)));
    let (at_instant, w) = (state.clone(), wants.clone());
    let instant: AfterInstant = Rc::new(move |sim, generation| {
        // Busy: a listener's call re-entered; the advance's own collection catches up.
        let Ok(mut st) = at_instant.try_borrow_mut() else { return ControlFlow::Continue(()) };
        let st = &mut *st;
        start_over_if_new(st, generation);
        // Full, it asks a run that may stop (`Pg::run_until`) to hand the batch over first.
        Pull { collector: &mut st.0, wants: w.get(), batched: true }.after_instant(sim)
    });
    let at_resync = state.clone();
    let resync: Resync = Rc::new(move |sim, generation| {
        if let Ok(mut st) = at_resync.try_borrow_mut() {
            st.0.reset(sim);
            st.1 = generation;
        }
    });
    let hook: AfterAdvance = Rc::new(move |sim, generation| {
        let Ok(mut st) = state.try_borrow_mut() else { return Box::new(|| ()) };
        start_over_if_new(&mut st, generation);
        let batch = st.0.finish(sim, wants.get(), None);
        let sink = sink.clone();
        Box::new(move || {
            for (kind, detail) in batch.into_js() {
                // A listener loaded another scenario, restarted or unmounted: the rest is the
                // old run's, which nothing reads any more.
                if pg.host.try_with_value(|h| h.generation) != Some(generation) {
                    break;
                }
                sink(kind, &detail);
            }
        })
    });
    pg.host.update_value(|h| {
        h.after_instant = Some(instant);
        h.after_advance = Some(hook);
        h.resync = Some(resync);
    });
}

/// A new scenario from time zero: its events from the start.
fn start_over_if_new(st: &mut (Collector, u64), generation: u64) {
    if st.1 != generation {
        st.0 = Collector::default();
        st.1 = generation;
    }
}

fn dispatch(target: &web_sys::EventTarget, kind: EventKind, detail: &JsValue) {
    let init = web_sys::CustomEventInit::new();
    init.set_bubbles(true);
    init.set_composed(true);
    init.set_detail(detail);
    if let Ok(ev) = web_sys::CustomEvent::new_with_event_init_dict(kind.name(), &init) {
        // A listener's exception is reported by the browser, not thrown here.
        let _ = target.dispatch_event(&ev);
    }
}
