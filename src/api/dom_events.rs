//! The simulation's events as DOM `CustomEvent`s (`window`, `join`, `late`, `watermark`, `idle`,
//! `active`), bubbling and composed, dispatched at a host's target (`mount(el, {eventTarget})`,
//! the `<watermark-playground>` element); the iframe's bridge (`bridge`) posts the same events
//! through [`feed`]. The payloads (`event.detail`) are
//! those of the JS API's `on()`: the same [`Collector`] pulls them from the engine's deltas,
//! after every frame and action of the mounted UI (`Pg::notify_advanced`), and they are
//! dispatched once the engine is released, so a listener may call back into the playground.
//!
//! Within one frame the engine's bounded trace ring keeps the UI's capacity (2,000 events): at
//! very high speeds a frame's oldest watermark changes can be gone before they are read; the
//! JS API (`WatermarkPlayground.on`) watches instant by instant and loses nothing.

use super::events::{Collector, EventKind, Wants};
use crate::web::host::AfterAdvance;
use crate::web::Pg;
use leptos::prelude::*;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::JsValue;

/// Every kind a host can listen to (not the JS API's `step` and `lag`).
pub const ALL: Wants = Wants { window: true, join: true, late: true, watermark: true, idle: true, active: true, step: false, lag: false };

/// Where a mounted playground's events go, one call per event, once the engine is released.
pub type Sink = Rc<dyn Fn(EventKind, &JsValue)>;

/// From now on, `pg`'s events are dispatched at `target`.
pub fn install(pg: Pg, target: web_sys::EventTarget) {
    feed(pg, Rc::new(Cell::new(ALL)), Rc::new(move |kind, detail| dispatch(&target, kind, detail)));
}

/// From now on, `pg`'s events of the kinds in `wants` (read at every advance) go to `sink`.
pub fn feed(pg: Pg, wants: Rc<Cell<Wants>>, sink: Sink) {
    let generation = pg.host.with_value(|h| h.generation);
    let mut collector = Collector::default();
    pg.with_sim(|s| collector.reset(s));
    let state = Rc::new(RefCell::new((collector, generation)));
    let hook: AfterAdvance = Rc::new(move |sim, generation| {
        // Busy: a listener's call re-entered; its events come with the next advance.
        let Ok(mut st) = state.try_borrow_mut() else { return Box::new(|| ()) };
        if st.1 != generation {
            // A new scenario from time zero: its events from the start.
            st.0 = Collector::default();
            st.1 = generation;
        }
        let batch = st.0.finish(sim, wants.get(), None);
        let sink = sink.clone();
        Box::new(move || batch.into_js().into_iter().for_each(|(kind, detail)| sink(kind, &detail)))
    });
    pg.host.update_value(|h| h.after_advance = Some(hook));
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
