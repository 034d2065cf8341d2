//! Light and dark themes: follow the system by default, with an override that is remembered
//! (`data-theme` on <html>; the CSS does the rest). A playground hosted in an element
//! (`src/web/host.rs`) has its own theme, on its root, and remembers nothing.

use leptos::prelude::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    System,
    Light,
    Dark,
}

impl Theme {
    pub fn attr(self) -> &'static str {
        match self {
            Theme::System => "system",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }
    fn next(self) -> Theme {
        match self {
            Theme::System => Theme::Light,
            Theme::Light => Theme::Dark,
            Theme::Dark => Theme::System,
        }
    }
    fn label(self) -> &'static str {
        match self {
            Theme::System => "auto",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window().and_then(|w| w.local_storage().ok().flatten())
}

fn apply(t: Theme) {
    if let Some(el) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
        let _ = el.set_attribute("data-theme", t.attr());
    }
    if let Some(s) = storage() {
        let _ = s.set_item("wmp-theme", t.attr());
    }
}

/// The theme stored from an earlier visit.
fn stored() -> Theme {
    match storage().and_then(|s| s.get_item("wmp-theme").ok().flatten()).as_deref() {
        Some("light") => Theme::Light,
        Some("dark") => Theme::Dark,
        _ => Theme::System,
    }
}

/// Where a theme applies: the page (remembered), or a hosted playground's root.
#[derive(Clone)]
enum Scope {
    Page,
    Root(Option<web_sys::Element>),
}

/// Cycles system → light → dark; also bound to the T key.
#[derive(Clone, Copy)]
pub struct ThemeState(pub RwSignal<Theme>, StoredValue<Scope, LocalStorage>);

impl ThemeState {
    pub fn new() -> Self {
        let t = stored();
        apply(t);
        ThemeState(RwSignal::new(t), StoredValue::new_local(Scope::Page))
    }
    /// A hosted playground's theme: on its root once [`attach`](Self::attach)ed, not stored.
    pub fn scoped(t: Theme) -> Self {
        ThemeState(RwSignal::new(t), StoredValue::new_local(Scope::Root(None)))
    }
    pub fn attach(&self, root: web_sys::Element) {
        let _ = root.set_attribute("data-theme", self.0.get_untracked().attr());
        self.1.set_value(Scope::Root(Some(root)));
    }
    /// The `data-theme` value now (for a root's first render).
    pub fn attr_now(&self) -> &'static str {
        self.0.get_untracked().attr()
    }
    pub fn set(&self, t: Theme) {
        // The attribute first: the timeline repaints on the signal and reads the colours.
        match self.1.get_value() {
            Scope::Page => apply(t),
            Scope::Root(Some(root)) => drop(root.set_attribute("data-theme", t.attr())),
            Scope::Root(None) => {}
        }
        self.0.set(t);
    }
    pub fn cycle(&self) {
        self.set(self.0.get_untracked().next());
    }
}

impl Default for ThemeState {
    fn default() -> Self {
        Self::new()
    }
}

#[component]
pub fn ThemeToggle() -> impl IntoView {
    let theme = expect_context::<ThemeState>();
    view! {
        <button class="btn ghost theme" id="btn-theme" title="Theme: follow the system, light or dark (T)"
            aria-label=move || format!("Theme: {}", theme.0.get().label())
            on:click=move |_| theme.cycle()>
            <super::icons::Svg icon=super::icons::Icon::Theme />
            <span>{move || theme.0.get().label()}</span>
        </button>
    }
}

/// Whether the system prefers dark colours, kept up to date: views that paint colours
/// themselves (the timeline's canvas) repaint when it changes while the theme follows it.
pub fn use_system_dark() -> RwSignal<bool> {
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    let mql = web_sys::window().and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten());
    let dark = RwSignal::new(mql.as_ref().is_some_and(|m| m.matches()));
    if let Some(mql) = mql {
        let m = mql.clone();
        let cb = Closure::<dyn FnMut()>::new(move || {
            dark.try_set(m.matches());
        });
        let _ = mql.add_event_listener_with_callback("change", cb.as_ref().unchecked_ref());
        super::hold::hold_until_cleanup((mql, cb), |(mql, cb)| {
            let _ = mql.remove_event_listener_with_callback("change", cb.as_ref().unchecked_ref());
        });
    }
    dark
}
