//! The UI inside a host page's element (`mount()`, `<watermark-playground>`) rather than as the
//! page. Several may live on one page, each in its own (shadow) root, so nothing may look the
//! page up globally: lookups by selector, the focused element, the shortcut keys and the
//! header's height variable stay inside [`Host::root`]. The host is also told after every
//! advance ([`Pg::notify_advanced`], which feeds the DOM events of `src/api/`), and may put an
//! off-screen playground to sleep. [`Hosted`] wraps a layout in the root that carries the live
//! presentation options (theme, controls, view, readonly) as attributes the stylesheet reads.

use super::embed_options::{Controls, Layout, ThemeChoice, View};
use super::state::Pg;
use super::theme::{Theme, ThemeState};
use crate::engine::sim::Simulation;
use leptos::html::Div;
use leptos::prelude::*;
use std::ops::ControlFlow;
use std::rc::Rc;
use wasm_bindgen::JsCast;

/// Called after the simulation advanced, with it and the load generation (bumped by every
/// load, so a listener knows its cursor is stale). It must not call back into the playground:
/// it returns what to do once the engine is released (dispatching events to the page).
pub type AfterAdvance = Rc<dyn Fn(&Simulation, u64) -> Box<dyn FnOnce()>>;

/// Called after every instant the simulation processes, with the load generation: a listener
/// reads the bounded trace ring, late buffer and sink here before a long advance drops
/// anything. Like [`AfterAdvance`], it must not call back into the playground. `Break`: it
/// holds a full batch, which a run that may stop (`Pg::run_until`) hands over before going on.
pub type AfterInstant = Rc<dyn Fn(&Simulation, u64) -> ControlFlow<()>>;

/// Called when the listeners are to start from the simulation as it is (what they have not been
/// told yet is dropped), with the load generation.
pub type Resync = Rc<dyn Fn(&Simulation, u64)>;

/// Where the playground lives, if not as the page.
#[derive(Default)]
pub struct Host {
    /// The root element the UI was mounted in (`None`: the page itself).
    pub root: Option<web_sys::Element>,
    /// The full playground's address that links out of this one start from (the `fullUrl`
    /// option: the embed's "open full ↗", the Share panel's link); `None`: this page's.
    pub link_base: Option<String>,
    pub after_advance: Option<AfterAdvance>,
    pub after_instant: Option<AfterInstant>,
    pub resync: Option<Resync>,
    pub generation: u64,
    /// Off screen: the frame loop does not advance.
    pub offscreen: bool,
}

impl Pg {
    /// The first element matching `selector` in this playground (its root, or the page).
    pub fn query(&self, selector: &str) -> Option<web_sys::Element> {
        // `try_`: a delayed lookup may come after the playground was unmounted.
        match self.host.try_with_value(|h| h.root.clone())? {
            Some(root) => root.query_selector(selector).ok().flatten(),
            None => web_sys::window()?.document()?.query_selector(selector).ok().flatten(),
        }
    }

    /// The element whose style carries the page-wide custom properties (`--header-h`).
    pub fn style_root(&self) -> Option<web_sys::HtmlElement> {
        let root = self.host.try_with_value(|h| h.root.clone())?;
        root.or_else(|| web_sys::window()?.document()?.document_element())?.dyn_into().ok()
    }

    /// Whether `ev` happened inside this playground (always, when it is the page).
    pub fn owns_event(&self, ev: &web_sys::Event) -> bool {
        let Some(root) = self.host.with_value(|h| h.root.clone()) else { return true };
        ev.composed_path().iter().any(|n| n == JsValue::from(root.clone()))
    }

    pub fn set_offscreen(&self, offscreen: bool) {
        self.host.update_value(|h| h.offscreen = offscreen);
    }

    pub fn offscreen(&self) -> bool {
        // Detached too: a host that removed the element without `unmount()` (a route change)
        // leaves a playground no one sees, kept until `unmount()`: it must not run.
        self.host.try_with_value(|h| h.offscreen || h.root.as_ref().is_some_and(|r| !r.is_connected())).unwrap_or(true)
    }

    /// A new scenario was loaded: listeners start over.
    pub(crate) fn bump_generation(&self) {
        self.host.update_value(|h| h.generation += 1);
    }

    /// One of the host's hooks (picked by `which`) with the current load generation, if set.
    fn hook_of<F: Clone>(&self, which: impl Fn(&Host) -> &Option<F>) -> Option<(F, u64)> {
        self.host.try_with_value(|h| which(h).clone().map(|f| (f, h.generation))).flatten()
    }

    /// The host's listeners start from the simulation as it is now: a `start-at` run of a live
    /// update is not reported, as a mount's is not (its listeners come after it).
    pub(crate) fn skip_events(&self) {
        if let Some((resync, generation)) = self.hook_of(|h| &h.resync) {
            self.with_sim(|s| resync(s, generation));
        }
    }

    /// The host's per-instant hook bound to the current generation, for the run loop's observer.
    pub(crate) fn instant_hook(&self) -> Option<super::timeline_data::InstantHook> {
        let (hook, generation) = self.hook_of(|h| &h.after_instant)?;
        Some(Box::new(move |sim| hook(sim, generation)))
    }

    /// Tells the host that the simulation advanced (after each frame and each action).
    pub fn notify_advanced(&self) {
        let Some((hook, generation)) = self.hook_of(|h| &h.after_advance) else { return };
        let then = self.with_sim(|s| hook(s, generation));
        then();
    }
}

use wasm_bindgen::JsValue;

/// The element that has focus, looking into shadow roots (`document.activeElement` is the
/// host element when focus is inside one).
pub fn active_element() -> Option<web_sys::Element> {
    let mut el = web_sys::window()?.document()?.active_element()?;
    while let Some(inner) = el.shadow_root().and_then(|s| s.active_element()) {
        el = inner;
    }
    Some(el)
}

/// The presentation options a host may change without a reload.
#[derive(Clone, Copy)]
pub struct Look {
    pub theme: ThemeState,
    pub controls: RwSignal<Controls>,
    pub view: RwSignal<View>,
    pub readonly: RwSignal<bool>,
}

impl Look {
    pub fn new(theme: ThemeChoice, controls: Controls, view: View, readonly: bool) -> Self {
        Look {
            theme: ThemeState::scoped(theme_of(theme)),
            controls: RwSignal::new(controls),
            view: RwSignal::new(view),
            readonly: RwSignal::new(readonly),
        }
    }
}

/// Whether the hosted playground is read-only (`readonly`), reactively: nothing in it may change
/// the scenario. Never on the page itself, which has no `Look`.
pub fn read_only() -> impl Fn() -> bool + Copy {
    let readonly = use_context::<Look>().map(|l| l.readonly);
    move || readonly.is_some_and(|r| r.get())
}

/// Whether this playground offers the controls drawer: not with `controls` minimal or none, nor
/// read-only (the stylesheet hides it there; the layout must not leave room for it either).
pub fn drawer_offered() -> impl Fn() -> bool + Copy {
    let look = use_context::<Look>();
    move || look.is_none_or(|l| l.controls.get() == Controls::Full && !l.readonly.get())
}

pub fn theme_of(t: ThemeChoice) -> Theme {
    match t {
        ThemeChoice::Auto => Theme::System,
        ThemeChoice::Light => Theme::Light,
        ThemeChoice::Dark => Theme::Dark,
    }
}

/// `layout` in the hosted root. `page`: the root is the page's only content (the iframe's
/// `?embed=1`), so lookups, focus and shortcut keys stay page-wide; the root carries the look.
#[component]
pub fn Hosted(pg: Pg, layout: Layout, full_url: Option<String>, look: Look, #[prop(optional)] page: bool) -> impl IntoView {
    provide_context(look.theme);
    provide_context(look);
    pg.host.update_value(|h| h.link_base = full_url);
    let node = NodeRef::<Div>::new();
    Effect::new(move |_| {
        if let Some(el) = node.get() {
            let el: web_sys::Element = el.into();
            look.theme.attach(el.clone());
            if !page {
                pg.host.update_value(|h| h.root = Some(el.clone()));
                super::error_banner::register_hosted_root(el.clone());
                on_cleanup(move || super::error_banner::forget_hosted_root(&el));
            }
        }
    });
    let inner = match layout {
        Layout::Embed => view! { <super::app::Embed pg=pg /> }.into_any(),
        Layout::Full => view! { <super::app::Playground pg=pg /> }.into_any(),
    };
    let controls = move || match look.controls.get() {
        Controls::Full => "full",
        Controls::Minimal => "minimal",
        Controls::None => "none",
    };
    let view_attr = move || match look.view.get() {
        View::Graph => "graph",
        View::Timeline => "timeline",
        View::Split => "split",
    };
    let layout_attr = if layout == Layout::Embed { "embed" } else { "full" };
    view! {
        <div class="wmp-root" part="root" node_ref=node data-theme=look.theme.attr_now() data-layout=layout_attr data-controls=controls
            data-view=view_attr data-readonly=move || look.readonly.get().then_some("")>
            {inner}
        </div>
    }
}
