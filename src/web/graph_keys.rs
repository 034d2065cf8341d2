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
/// fewer partitions, a Silence button hidden): Chrome fires no blur for a focused element that
/// is removed, so the focus fell to the page's body and the next Tab started from the top.
/// The wrapper's `focusin` / `focusout` tell [`FocusKeeper::enter`] / [`FocusKeeper::leave`]
/// which node has it; after each redraw, [`FocusKeeper::after_redraw`] gives the graph's `svg`
/// the focus when that node is gone and nothing else took it.
#[cfg(all(target_arch = "wasm32", feature = "ui"))]
#[derive(Clone, Copy)]
pub struct FocusKeeper {
    node: StoredValue<Option<web_sys::Element>, LocalStorage>,
}

#[cfg(all(target_arch = "wasm32", feature = "ui"))]
impl FocusKeeper {
    pub(crate) fn new() -> Self {
        Self { node: StoredValue::new_local(None) }
    }

    pub fn enter(self, target: Option<web_sys::EventTarget>) {
        self.node.set_value(target.and_then(|t| t.dyn_into().ok()));
    }

    /// The focus left `from` for `to`: forgotten unless `to` is in the graph (its `focusin`
    /// follows) or the focus fell because `from` went away (Chrome blurs a node hidden under
    /// the focus, towards nothing).
    pub fn leave(self, wrap: &web_sys::Element, from: Option<web_sys::EventTarget>, to: Option<web_sys::EventTarget>) {
        let fell = to.is_none() && from.and_then(|f| f.dyn_into::<web_sys::Element>().ok()).is_some_and(|f| gone(&f));
        let to: Option<web_sys::Node> = to.and_then(|t| t.dyn_into().ok());
        if !fell && !wrap.contains(to.as_ref()) {
            self.node.set_value(None);
        }
    }

    /// Called an animation frame after a redraw, once the DOM has settled.
    pub fn after_redraw(self, wrap: &web_sys::Element) {
        let Some(node) = self.node.get_value() else { return };
        let doc = web_sys::window().and_then(|w| w.document());
        let fell =
            doc.as_ref().and_then(web_sys::Document::active_element).is_none_or(|a| doc.and_then(|d| d.body()).is_some_and(|b| *b == a));
        if gone(&node) && fell {
            let svg = wrap.query_selector("svg.graph").ok().flatten().and_then(|e| e.dyn_into::<web_sys::SvgElement>().ok());
            if let Some(svg) = svg {
                let opts = web_sys::FocusOptions::new();
                opts.set_prevent_scroll(true);
                let _ = svg.focus_with_options(&opts);
            }
        }
    }
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
