//! The iframe's `postMessage` bridge (`index.html?embed=1[&origins=…]`): a host page drives an
//! embed on another origin with the methods of the element's `el.playground` and receives its
//! events, without any script of ours in the host page (docs/API.md, "The iframe bridge").
//!
//! - In: `{ wmp: 1, id, method, args }` from the parent window (other senders are ignored). The method runs on the embed's
//!   [`MountedPlayground`] — the same checks, errors and effects as `el.playground` — plus
//!   `subscribe(kinds)`, which narrows the events posted out (all kinds by default).
//! - Out: the answer `{ wmp: 1, id, ok: true, result }` or `{ wmp: 1, id, ok: false, error:
//!   { name, message, path } }` to the sender; events `{ wmp: 1, event, detail }` (the `on()` payloads,
//!   and `resize` with the embed's content height, `frame_height`) and, once, `{ wmp: 1, event:
//!   "ready", detail: { methods } }` to the parent.
//!
//! Only the origins of the allow-list (the `origins` parameter, else the embed's own origin) are
//! answered and sent anything. `ready` goes to every allowed origin; events to the parent's origin
//! alone once known and allowed (from `location.ancestorOrigins` or the referrer, then from the
//! parent's first allowed command), until then once per allowed origin, which the browser delivers only where it is the parent's
//! (each miss is a console warning in the host page: a frame posting every event to an origin
//! that is not its parent's flooded it). A command from another origin is not run; its sender
//! gets a refusal that says nothing about the embed. Messages without `wmp: 1` belong to
//! someone else and are ignored.

use super::convert::describe;
use super::dom_events::{self, ALL};
use super::error::{ApiError, IntoJs};
use super::events::{EventKind, Wants};
use super::mounted::MountedPlayground;
use super::mounted::METHODS;
use crate::web::app::EmbedPage;
use crate::web::embed_options::Layout;
use crate::web::Pg;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The bridge's own event, beside the simulation's: the embed's content height changed.
const RESIZE: &str = "resize";

/// What `resize` needs: whether it is wanted, the content height, the one last posted.
#[derive(Clone, Copy)]
struct Sizing {
    wanted: bool,
    height: Option<u32>,
    posted: Option<u32>,
}

/// The bridge's state: the embed's API, the kinds to post, the parent and its allowed origins.
struct Bridge {
    api: RefCell<MountedPlayground>,
    wants: Rc<Cell<Wants>>,
    sizing: Cell<Sizing>,
    parent: web_sys::Window,
    origins: Vec<String>,
    /// The parent's origin, once known.
    parent_origin: RefCell<Option<String>>,
}

/// Starts answering the parent window, if this page is framed; a top-level page has no one to
/// answer.
pub fn install(pg: Pg, page: EmbedPage) {
    let Some(window) = web_sys::window() else { return };
    let Some(parent) = window.parent().ok().flatten().filter(|p| !js_sys::Object::is(p, &window)) else { return };
    let EmbedPage { options, look, origins, .. } = page;
    let api = MountedPlayground::new(Box::new(()), pg, look, options, Layout::Embed);
    // A guess outside the allow-list is no guess: nothing would be posted anywhere.
    let parent_origin = RefCell::new(parent_origin(&window).filter(|o| origins.contains(o)));
    let bridge = Rc::new(Bridge {
        api: RefCell::new(api),
        wants: Rc::new(Cell::new(ALL)),
        sizing: Cell::new(Sizing { wanted: true, height: None, posted: None }),
        parent,
        origins,
        parent_origin,
    });
    let out = bridge.clone();
    dom_events::feed(pg, bridge.wants.clone(), Rc::new(move |kind: EventKind, detail: &JsValue| out.post_event(kind.name(), detail)));
    let inbound = bridge.clone();
    let on_message = Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| inbound.receive(&ev));
    let _ = window.add_event_listener_with_callback("message", on_message.as_ref().unchecked_ref());
    // The page lives as long as the frame: the listener is never removed.
    on_message.forget();
    let methods: js_sys::Array = all_methods().map(JsValue::from_str).collect();
    // To every allowed origin, whatever the guess: a host waits for it before its first command,
    // which is what tells the parent's origin for sure.
    bridge.post(&bridge.origins, "ready", &object(&[("methods", methods.into())]));
    let sized = bridge.clone();
    super::frame_height::watch(move |height| {
        sized.sizing.set(Sizing { height: Some(height), ..sized.sizing.get() });
        sized.post_height(false);
    });
}

/// The parent's origin as the frame can know it before any message: `location.ancestorOrigins`
/// (Chromium, Safari), else the referrer's origin (sent unless the parent's referrer policy
/// forbids it).
fn parent_origin(window: &web_sys::Window) -> Option<String> {
    let ancestors = js_sys::Reflect::get(&window.location(), &"ancestorOrigins".into()).ok().filter(|a| !a.is_undefined());
    // "null": masked (a no-referrer frame) or an opaque origin, which no allow-list names.
    let first = ancestors.and_then(|a| js_sys::Reflect::get(&a, &0.into()).ok()).and_then(|o| o.as_string()).filter(|o| o != "null");
    first.or_else(|| {
        let referrer = window.document()?.referrer();
        web_sys::Url::new(&referrer).ok().map(|u| u.origin()).filter(|o| o != "null")
    })
}

impl Bridge {
    fn post_event(&self, event: &str, detail: &JsValue) {
        let known = self.parent_origin.borrow().clone();
        match known {
            Some(o) => self.post(std::slice::from_ref(&o), event, detail),
            None => self.post(&self.origins, event, detail),
        }
    }

    /// Posts the content height when `resize` is wanted and it is not the one last posted (or
    /// `again`, for a host that asks): a host is told every change, never the same height twice
    /// in a row unless it asked.
    fn post_height(&self, again: bool) {
        let s = self.sizing.get();
        let Some(height) = s.height.filter(|h| s.wanted && (again || s.posted != Some(*h))) else { return };
        self.sizing.set(Sizing { posted: Some(height), ..s });
        self.post_event(RESIZE, &object(&[("height", height.into())]));
    }

    fn post(&self, targets: &[String], event: &str, detail: &JsValue) {
        let msg = object(&[("wmp", 1.into()), ("event", event.into()), ("detail", detail.clone())]);
        for origin in targets {
            // Delivered only where the parent's origin is `origin`; an error is a detail
            // (a payload that cannot be cloned) and must not stop the others.
            let _ = self.parent.post_message(&msg, origin);
        }
    }

    fn receive(&self, ev: &web_sys::MessageEvent) {
        let data = ev.data();
        if !data.is_object() || js_sys::Reflect::get(&data, &"wmp".into()).ok().and_then(|v| v.as_f64()) != Some(1.0) {
            return;
        }
        // Only the parent drives the embed. (Its window is of another realm: not `instanceof
        // Window` here, so it is compared, not cast by a check.)
        let Some(sender) = ev.source().filter(|s| js_sys::Object::is(s, &self.parent)) else { return };
        let sender: web_sys::Window = sender.unchecked_into();
        let origin = ev.origin();
        let id = js_sys::Reflect::get(&data, &"id".into()).unwrap_or(JsValue::UNDEFINED);
        let answer = if self.origins.contains(&origin) {
            self.parent_origin.replace(Some(origin.clone()));
            self.run(&data)
        } else {
            Err(refusal(&origin))
        };
        let msg = match answer {
            Ok(result) => object(&[("wmp", 1.into()), ("id", id), ("ok", true.into()), ("result", result)]),
            Err(e) => object(&[("wmp", 1.into()), ("id", id), ("ok", false.into()), ("error", plain_error(&e))]),
        };
        let _ = sender.post_message(&msg, &origin);
    }

    /// Runs `{ method, args }`.
    fn run(&self, data: &JsValue) -> Result<JsValue, JsValue> {
        let method = js_sys::Reflect::get(data, &"method".into()).unwrap_or(JsValue::UNDEFINED);
        let args = js_sys::Reflect::get(data, &"args".into()).unwrap_or(JsValue::UNDEFINED);
        let Some(method) = method.as_string() else {
            return Err(ApiError::type_("method", format!("expected a method name, got {}", describe(&method))).into_js("bridge"));
        };
        let args: js_sys::Array = if args.is_undefined() {
            js_sys::Array::new()
        } else {
            args.dyn_into().map_err(|a| ApiError::type_("args", format!("expected an array, got {}", describe(&a))).into_js(&method))?
        };
        if method == "subscribe" {
            return self.subscribe(&args.get(0));
        }
        call(&mut self.api.borrow_mut(), &method, &args)
    }

    /// `subscribe(["window", "late"])`: from now on only these kinds are posted.
    fn subscribe(&self, kinds: &JsValue) -> Result<JsValue, JsValue> {
        let Some(list) = kinds.dyn_ref::<js_sys::Array>() else {
            return Err(ApiError::type_("kinds", format!("expected an array of event names, got {}", describe(kinds))).into_js("subscribe"));
        };
        let (mut wants, mut resize) = (Wants::default(), false);
        for (i, k) in list.iter().enumerate() {
            match k.as_string().as_deref() {
                Some(RESIZE) => resize = true,
                name => wants.set(name.and_then(EventKind::parse).filter(|k| ALL.wants(*k)).ok_or_else(|| not_an_event(i, &k))?),
            }
        }
        self.wants.set(wants);
        self.sizing.set(Sizing { wanted: resize, ..self.sizing.get() });
        // Told at once: a host that starts listening late (a script loaded after the first
        // post) asks for it here.
        self.post_height(resize);
        Ok(JsValue::UNDEFINED)
    }
}

/// `subscribe`'s error for `kinds[i]`, naming the events it may list.
fn not_an_event(i: usize, k: &JsValue) -> JsValue {
    let sim = EventKind::NAMES.iter().copied().filter(|n| EventKind::parse(n).is_some_and(|k| ALL.wants(k)));
    let names: Vec<&str> = sim.chain([RESIZE]).collect();
    ApiError::new(format!("kinds[{i}]"), format!("{} is not an event (the events are {})", describe(k), names.join(", ")))
        .into_js("subscribe")
}

/// The methods a host may call: `el.playground`'s and the bridge's own.
fn all_methods() -> impl Iterator<Item = &'static str> {
    METHODS.iter().copied().chain(["update", "subscribe"])
}

/// `method(...args)` on the embed's API.
fn call(api: &mut MountedPlayground, method: &str, args: &js_sys::Array) -> Result<JsValue, JsValue> {
    let a = |i| args.get(i);
    let done = |r: Result<(), JsValue>| r.map(|()| JsValue::UNDEFINED);
    match method {
        "play" => done(api.play()),
        "pause" => done(api.pause()),
        "playing" => api.playing().map(JsValue::from),
        "speed" => api.speed().map(JsValue::from),
        "setSpeed" => done(api.set_speed(a(0))),
        "loadPreset" => done(api.load_preset(a(0))),
        "load" => done(api.load(a(0))),
        "runUntil" => done(api.run_until(a(0))),
        "now" => api.now().map(JsValue::from),
        "elapsedMs" => api.elapsed_ms().map(JsValue::from),
        "traceHash" => api.trace_hash().map(JsValue::from),
        "snapshot" => api.snapshot(a(0)),
        "silence" => done(api.silence(a(0))),
        "resume" => done(api.resume(a(0))),
        "toShareString" => api.to_share_string().map(JsValue::from),
        "windows" => api.windows(a(0)),
        "joins" => api.joins(a(0)),
        "lateRecords" => api.late_records(),
        "metrics" => api.metrics(),
        "restWatermarks" => api.rest_watermarks(a(0)),
        "restBackPressure" => api.rest_back_pressure(a(0)),
        "stateSizeHistory" => api.state_size_history(),
        "explain" => api.explain(a(0)),
        "lagHistory" => api.lag_history(a(0)),
        "diagnose" => api.diagnose(a(0)),
        "toScenario" => api.to_scenario(),
        "apply" => done(api.apply(a(0))),
        "produce" => api.produce(a(0), a(1)).map(JsValue::from),
        "addPartition" => api.add_partition().map(JsValue::from),
        "setParam" => done(api.set_param(a(0), a(1))),
        "applyFix" => done(api.apply_fix(a(0))),
        "markIdle" => done(api.mark_idle(a(0))),
        "markActive" => done(api.mark_active(a(0))),
        "releaseSplit" => done(api.release_split(a(0))),
        "detach" => done(api.detach(a(0))),
        "removePartition" => done(api.remove_partition(a(0))),
        "update" => api.update(a(0)).map(JsValue::from),
        _ => Err(ApiError::new(
            "method",
            format!("{method:?} is not a method (the methods are {})", all_methods().collect::<Vec<_>>().join(", ")),
        )
        .into_js("bridge")),
    }
}

fn refusal(origin: &str) -> JsValue {
    let e = js_sys::Error::new(&format!(
        "bridge: the origin {origin:?} may not drive this embed (the embed's `origins` parameter lists the pages that may)"
    ));
    e.set_name("SecurityError");
    e.into()
}

/// An error as `{ name, message, path }`: what every receiver can read, whatever its realm.
fn plain_error(e: &JsValue) -> JsValue {
    let get = |k: &str| js_sys::Reflect::get(e, &k.into()).ok().and_then(|v| v.as_string()).unwrap_or_default();
    object(&[("name", get("name").into()), ("message", get("message").into()), ("path", get("path").into())])
}

fn object(entries: &[(&str, JsValue)]) -> JsValue {
    let o = js_sys::Object::new();
    for (k, v) in entries {
        let _ = js_sys::Reflect::set(&o, &(*k).into(), v);
    }
    o.into()
}
