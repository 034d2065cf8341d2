//! The job graph is one Tab stop: its `svg` takes focus, and the arrow keys move focus between
//! its nodes. Tabbing through every node to get past the graph took 48 presses in seed-001
//! (a partition and its Silence button each, then the source subtasks, the chained operators
//! and the keyed subtasks); the nodes are now focusable only by these keys and by a click.
//!
//! Down / Right go to the next node in the graph's own order (the one above), Up / Left to the
//! previous one, Home / End to the first / last. A Silence
//! button that the partition does not offer (hidden) is skipped. Which node a key goes to is
//! plain Rust (tested natively); moving the focus is the DOM part.

#[cfg(all(target_arch = "wasm32", feature = "ui"))]
use leptos::prelude::*;
#[cfg(all(target_arch = "wasm32", feature = "ui"))]
use wasm_bindgen::JsCast;

/// The nodes the keys move between, in document order: every button of the graph that shows.
#[cfg(all(target_arch = "wasm32", feature = "ui"))]
const NODES: &str = "svg.graph [role=button]:not(.hidden)";

/// Where a key sends focus, from `current` (the node that has it, or `None` for the graph).
pub fn target(key: &str, current: Option<usize>, count: usize) -> Option<usize> {
    let last = count.checked_sub(1)?;
    match key {
        "ArrowDown" | "ArrowRight" => Some(current.map_or(0, |i| (i + 1).min(last))),
        "ArrowUp" | "ArrowLeft" => Some(current.map_or(0, |i| i.saturating_sub(1))),
        "Home" => Some(0),
        "End" => Some(last),
        _ => None,
    }
}

#[cfg(all(target_arch = "wasm32", feature = "ui"))]
/// Moves focus for a navigation key pressed inside `wrap`, the graph's wrapper; `false` when
/// the key is not one of them (the event is then left alone).
pub fn on_key(wrap: &web_sys::Element, focused: Option<web_sys::EventTarget>, key: &str) -> bool {
    let Ok(list) = wrap.query_selector_all(NODES) else { return false };
    let nodes: Vec<web_sys::Element> = (0..list.length()).filter_map(|i| list.item(i)?.dyn_into().ok()).collect();
    let focused = focused.and_then(|t| t.dyn_into::<web_sys::Element>().ok());
    let current = focused.and_then(|f| nodes.iter().position(|n| *n == f));
    match target(key, current, nodes.len()) {
        Some(i) => focus(nodes.get(i).cloned()),
        None => false,
    }
}

#[cfg(all(target_arch = "wasm32", feature = "ui"))]
fn focus(el: Option<web_sys::Element>) -> bool {
    el.and_then(|e| e.dyn_into::<web_sys::SvgElement>().ok()).is_some_and(|e| e.focus().is_ok())
}

/// Keeps the keyboard in the graph when the node that has the focus goes away (a preset with
/// fewer partitions, a Silence button hidden): the focus fell to the page's body and the next
/// Tab started from the top. Chrome blurs a hidden node towards nothing, and a removed one
/// only in a shadow root (in the page, no event tells). The wrapper's `focusin` / `focusout` tell
/// [`FocusKeeper::enter`] / [`FocusKeeper::leave`] which node has it; when it fell (seen by the
/// blur, or an animation frame after a redraw: [`FocusKeeper::after_redraw`]), the graph's
/// `svg` takes it back. Every read is a `try_`: a frame may come after the playground was
/// unmounted, and a panic would stop every playground of the page.
#[cfg(all(target_arch = "wasm32", feature = "ui"))]
#[derive(Clone, Copy)]
pub struct FocusKeeper {
    wrap: NodeRef<leptos::html::Div>,
    node: StoredValue<Option<web_sys::Element>, LocalStorage>,
}

#[cfg(all(target_arch = "wasm32", feature = "ui"))]
impl FocusKeeper {
    pub(crate) fn new(wrap: NodeRef<leptos::html::Div>) -> Self {
        Self { wrap, node: StoredValue::new_local(None) }
    }

    pub fn enter(self, target: Option<web_sys::EventTarget>) {
        self.node.try_set_value(target.and_then(|t| t.dyn_into().ok()));
    }

    /// The focus left for `to`: forgotten when `to` is outside the graph. Towards nothing, it
    /// is decided a frame later: the node may have gone (Chrome blurs a hidden node, and in a
    /// shadow root a removed one) or the reader clicked the page's blank space.
    pub fn leave(self, to: Option<web_sys::EventTarget>) {
        let Some(to) = to.and_then(|t| t.dyn_into::<web_sys::Node>().ok()) else {
            request_animation_frame(move || self.take_back());
            return;
        };
        if !self.wrap.try_get_untracked().flatten().is_some_and(|w| w.contains(Some(&to))) {
            self.node.try_set_value(None);
        }
    }

    /// Called after each redraw: a removed node fires no blur.
    pub fn after_redraw(self) {
        request_animation_frame(move || self.take_back());
    }

    /// If the focus fell to the body from the node that had it, and that node is gone, the
    /// `svg` takes it; fallen from a node still there, it is forgotten. The cheap test first:
    /// this runs after every redraw.
    fn take_back(self) {
        if self.node.try_with_value(Option::is_none).unwrap_or(true) || !focus_fell() {
            return;
        }
        let node = self.node.try_update_value(Option::take).flatten();
        let svg = self.wrap.try_get_untracked().flatten().and_then(|w| w.query_selector("svg.graph").ok().flatten());
        if let (Some(svg), true) = (svg.and_then(|e| e.dyn_into::<web_sys::SvgElement>().ok()), node.is_some_and(|n| gone(&n))) {
            let opts = web_sys::FocusOptions::new();
            opts.set_prevent_scroll(true);
            let _ = svg.focus_with_options(&opts);
        }
    }
}

/// Whether nothing has the focus (the document's body has it).
#[cfg(all(target_arch = "wasm32", feature = "ui"))]
fn focus_fell() -> bool {
    let doc = web_sys::window().and_then(|w| w.document());
    let active = doc.as_ref().and_then(web_sys::Document::active_element);
    active.is_none_or(|a| doc.and_then(|d| d.body()).is_some_and(|b| *b == a))
}

/// Whether a node is removed or hidden (`display: none`: no box).
#[cfg(all(target_arch = "wasm32", feature = "ui"))]
fn gone(node: &web_sys::Element) -> bool {
    let rect = node.get_bounding_client_rect();
    !node.is_connected() || rect.width() == 0.0 && rect.height() == 0.0
}

#[cfg(test)]
mod tests {
    use super::target;

    #[test]
    fn arrows_step_through_the_nodes_and_stop_at_the_ends() {
        assert_eq!(target("ArrowDown", None, 5), Some(0), "from the graph itself, the first node");
        assert_eq!(target("ArrowRight", Some(1), 5), Some(2));
        assert_eq!(target("ArrowDown", Some(4), 5), Some(4), "the last node stays");
        assert_eq!(target("ArrowUp", Some(0), 5), Some(0), "the first node stays");
        assert_eq!(target("ArrowLeft", Some(3), 5), Some(2));
        assert_eq!(target("End", None, 5), Some(4));
        assert_eq!(target("Home", Some(3), 5), Some(0));
        assert_eq!(target("Enter", Some(3), 5), None, "not a navigation key");
        assert_eq!(target("ArrowDown", None, 0), None, "nothing to go to");
    }
}
